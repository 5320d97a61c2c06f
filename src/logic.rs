//! A human-style logical solver for solitaire puzzles, and difficulty grades.
//!
//! The solver knows, per cell, water, ship or nothing, and applies named deduction rules in
//! tiers, always the lowest tier that decides something:
//!
//! 1. **basics**: water around ship cells (diagonals, under the no-touch rule); the shape a
//!    segment clue implies (`<` has a ship cell to its right and water on its other sides,
//!    `o` water all round, `m` continues on two opposite sides); a full row or column is water
//!    elsewhere, and one whose unknown cells are all needed is ship there.
//! 2. **fleet accounting**: a run of ship cells as long as the longest ship still to be found
//!    is a whole ship, so its ends are water; a cell every placement of the longest ship still
//!    to be found covers (when one such ship is left) is a ship cell.
//! 3. **line overlap**: every way to fill a row's or column's unknown cells with its count (no
//!    run of ship cells longer than the longest ship) agrees on a cell.
//! 4. **contradiction**: assuming a cell is a ship (or water) and applying tiers 1 to 3 leads
//!    to a contradiction, so it is the other.
//!
//! A puzzle's grade is the highest tier its solution needs: easy (1), medium (2), hard (3),
//! extreme (4, or not solved by the tiers: search needed). [`solve`] returns every step with
//! its rule and the cells it decided, which is what `solve --explain` prints.

use crate::clue::Clue;
use crate::geom::Dims;
use crate::problem::Problem;
use crate::rules::Rules;
use crate::shape::Segment;

/// What is known of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Know {
    /// Nothing yet.
    Unknown,
    /// No ship.
    Water,
    /// A ship cell.
    Ship,
}

/// A difficulty grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// Tier 1 rules suffice.
    Easy,
    /// Tier 2 (fleet accounting) is needed.
    Medium,
    /// Tier 3 (line overlap) is needed.
    Hard,
    /// Contradiction (tier 4) or search is needed.
    Extreme,
}

impl std::fmt::Display for Grade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Extreme => "extreme",
        })
    }
}

impl std::str::FromStr for Grade {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Grade::Easy),
            "medium" => Ok(Grade::Medium),
            "hard" => Ok(Grade::Hard),
            "extreme" => Ok(Grade::Extreme),
            _ => Err(format!(
                "expected easy, medium, hard or extreme, found {s:?}"
            )),
        }
    }
}

/// One deduction: the rule, its tier, the cells it decided, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The rule's name.
    pub rule: &'static str,
    /// Its tier (1 to 4).
    pub tier: u8,
    /// The cells decided, and what.
    pub cells: Vec<(usize, Know)>,
    /// The reason, in words.
    pub why: String,
}

/// The result of a logical solve.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// What is known at the end.
    pub grid: Vec<Know>,
    /// Whether every cell was decided.
    pub solved: bool,
    /// The grade: the highest tier used, or extreme when unsolved.
    pub grade: Grade,
}

/// Why the logical solver does not take a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogicUnsupported {
    /// It reasons about straight ships under the no-touch rule.
    #[error("the logical solver handles straight ships that never touch")]
    Model,
}

struct Solver<'p> {
    p: &'p Problem,
    d: Dims,
    /// Segment clues, per cell.
    seg: Vec<Option<Segment>>,
    /// Ship lengths in the fleet, longest first, with counts.
    lengths: Vec<(usize, usize)>,
    max_len: usize,
}

#[derive(Debug)]
struct Contradiction;

type Deduced = Result<Option<Step>, Contradiction>;

impl<'p> Solver<'p> {
    fn new(p: &'p Problem) -> Result<Self, LogicUnsupported> {
        if p.rules() != Rules::NoTouch || !p.fleet().is_straight() || !p.any_of().is_empty() {
            return Err(LogicUnsupported::Model);
        }
        let d = p.dims();
        let seg = (0..d.cells())
            .map(|c| match p.spec().clue(c) {
                Some(Clue::Segment(s)) => Some(s),
                _ => None,
            })
            .collect();
        let lengths: Vec<(usize, usize)> = p
            .fleet()
            .types()
            .iter()
            .map(|t| (t.shape.straight_len().expect("straight"), t.count))
            .collect();
        let max_len = lengths.iter().map(|l| l.0).max().unwrap_or(1);
        Ok(Solver {
            p,
            d,
            seg,
            lengths,
            max_len,
        })
    }

    fn initial(&self) -> Vec<Know> {
        (0..self.d.cells())
            .map(|c| match self.p.spec().clue(c) {
                Some(Clue::Water | Clue::Blocked) => Know::Water,
                Some(_) => Know::Ship,
                None => Know::Unknown,
            })
            .collect()
    }

    fn at(&self, g: &[Know], r: isize, c: isize) -> Know {
        match self.d.checked(r, c) {
            Some(i) => g[i],
            None => Know::Water,
        }
    }

    fn name(&self, cell: usize) -> String {
        crate::observe::cell_name(self.d, cell)
    }

    /// The lines: (description, cells, count).
    fn lines(&self) -> Vec<(String, Vec<usize>, Option<usize>)> {
        let d = self.d;
        let spec = self.p.spec();
        let mut out = Vec::new();
        for r in 0..d.height {
            out.push((
                format!("row {}", r + 1),
                (0..d.width).map(|c| d.index(r, c)).collect(),
                spec.row_count(r),
            ));
        }
        for c in 0..d.width {
            out.push((
                format!("column {}", crate::heat::column_name(c)),
                (0..d.height).map(|r| d.index(r, c)).collect(),
                spec.col_count(c),
            ));
        }
        out
    }

    /// Sets cells; a step when anything changed, a contradiction when a decided cell differs.
    fn decide(
        &self,
        g: &mut [Know],
        set: &[(usize, Know)],
        rule: &'static str,
        tier: u8,
        why: impl FnOnce() -> String,
    ) -> Deduced {
        let mut changed = Vec::new();
        for &(c, k) in set {
            match g[c] {
                Know::Unknown => {
                    g[c] = k;
                    changed.push((c, k));
                }
                old if old != k => return Err(Contradiction),
                _ => {}
            }
        }
        Ok((!changed.is_empty()).then(|| Step {
            rule,
            tier,
            cells: changed,
            why: why(),
        }))
    }

    /// Checks the grid for a plain contradiction.
    fn check(&self, g: &[Know]) -> Result<(), Contradiction> {
        for (_, cells, count) in self.lines() {
            let ships = cells.iter().filter(|&&c| g[c] == Know::Ship).count();
            let open = cells.iter().filter(|&&c| g[c] == Know::Unknown).count();
            if let Some(k) = count
                && (ships > k || ships + open < k)
            {
                return Err(Contradiction);
            }
            // A run of ship cells longer than the longest ship.
            let mut run = 0;
            for &c in &cells {
                run = if g[c] == Know::Ship { run + 1 } else { 0 };
                if run > self.max_len {
                    return Err(Contradiction);
                }
            }
        }
        let d = self.d;
        for cell in 0..d.cells() {
            if g[cell] != Know::Ship {
                continue;
            }
            let (r, c) = d.row_col(cell);
            let (r, c) = (r as isize, c as isize);
            for (dr, dc) in [(1, 1), (1, -1)] {
                if self.at(g, r + dr, c + dc) == Know::Ship {
                    return Err(Contradiction);
                }
            }
        }
        let total: usize = self.lengths.iter().map(|(l, n)| l * n).sum();
        if g.iter().filter(|&&k| k == Know::Ship).count() > total {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Tier 1.
    fn tier1(&self, g: &mut [Know]) -> Deduced {
        let d = self.d;
        for cell in 0..d.cells() {
            if g[cell] != Know::Ship {
                continue;
            }
            let (r, c) = d.row_col(cell);
            let diag: Vec<(usize, Know)> = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
                .iter()
                .filter_map(|&(dr, dc)| d.checked(r as isize + dr, c as isize + dc))
                .map(|n| (n, Know::Water))
                .collect();
            if let Some(s) = self.decide(g, &diag, "water around a ship", 1, || {
                format!(
                    "ships never touch, so the diagonal neighbours of {} are water",
                    self.name(cell)
                )
            })? {
                return Ok(Some(s));
            }
        }
        for cell in 0..d.cells() {
            let Some(seg) = self.seg[cell] else { continue };
            let (r, c) = d.row_col(cell);
            let (r, c) = (r as isize, c as isize);
            let nb = |dr: isize, dc: isize| d.checked(r + dr, c + dc);
            // (up, down, left, right): Some(true) ship, Some(false) water, None open.
            let sides: [Option<bool>; 4] = match seg {
                Segment::Single => [Some(false); 4],
                Segment::Left => [Some(false), Some(false), Some(false), Some(true)],
                Segment::Right => [Some(false), Some(false), Some(true), Some(false)],
                Segment::Top => [Some(false), Some(true), Some(false), Some(false)],
                Segment::Bottom => [Some(true), Some(false), Some(false), Some(false)],
                Segment::Middle => {
                    let across = [self.at(g, r, c - 1), self.at(g, r, c + 1)];
                    let down = [self.at(g, r - 1, c), self.at(g, r + 1, c)];
                    if across.contains(&Know::Ship) || down.contains(&Know::Water) {
                        [Some(false), Some(false), Some(true), Some(true)]
                    } else if down.contains(&Know::Ship) || across.contains(&Know::Water) {
                        [Some(true), Some(true), Some(false), Some(false)]
                    } else {
                        [None; 4]
                    }
                }
            };
            let dirs = [(-1, 0), (1, 0), (0, -1), (0, 1)];
            let mut set = Vec::new();
            for (side, (dr, dc)) in sides.iter().zip(dirs) {
                match (side, nb(dr, dc)) {
                    (Some(true), None) => return Err(Contradiction),
                    (Some(ship), Some(n)) => {
                        set.push((n, if *ship { Know::Ship } else { Know::Water }))
                    }
                    _ => {}
                }
            }
            if let Some(s) = self.decide(g, &set, "segment shape", 1, || {
                format!(
                    "the '{}' at {} fixes its neighbours",
                    seg.symbol(),
                    self.name(cell)
                )
            })? {
                return Ok(Some(s));
            }
        }
        for (what, cells, count) in self.lines() {
            let Some(k) = count else { continue };
            let ships = cells.iter().filter(|&&c| g[c] == Know::Ship).count();
            let open: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&c| g[c] == Know::Unknown)
                .collect();
            if open.is_empty() {
                continue;
            }
            if ships == k {
                let set: Vec<_> = open.iter().map(|&c| (c, Know::Water)).collect();
                return self.decide(g, &set, "full line", 1, || {
                    format!("{what} has all its {k} ship cells")
                });
            }
            if ships + open.len() == k {
                let set: Vec<_> = open.iter().map(|&c| (c, Know::Ship)).collect();
                return self.decide(g, &set, "line needs every open cell", 1, || {
                    format!("{what} needs {k} ship cells and has only that many left")
                });
            }
        }
        Ok(None)
    }

    /// The maximal straight runs of ship cells: (cells, horizontal, closed at both ends).
    fn runs(&self, g: &[Know]) -> Vec<(Vec<usize>, bool, bool)> {
        let d = self.d;
        let mut out = Vec::new();
        for horizontal in [true, false] {
            let (outer, inner) = if horizontal {
                (d.height, d.width)
            } else {
                (d.width, d.height)
            };
            for a in 0..outer {
                let mut i = 0;
                while i < inner {
                    let idx = |j: usize| {
                        if horizontal {
                            d.index(a, j)
                        } else {
                            d.index(j, a)
                        }
                    };
                    if g[idx(i)] != Know::Ship {
                        i += 1;
                        continue;
                    }
                    let start = i;
                    while i < inner && g[idx(i)] == Know::Ship {
                        i += 1;
                    }
                    let cells: Vec<usize> = (start..i).map(idx).collect();
                    let before = start == 0 || g[idx(start - 1)] == Know::Water;
                    let after = i == inner || g[idx(i)] == Know::Water;
                    out.push((cells, horizontal, before && after));
                }
            }
        }
        out
    }

    /// Ships already complete: runs closed at both ends whose cells have water on the sides
    /// across the run (a lone cell closed on all four sides is a one-cell ship).
    fn complete_lengths(&self, g: &[Know]) -> Vec<usize> {
        let mut found = Vec::new();
        for (cells, horizontal, closed) in self.runs(g) {
            if !closed {
                continue;
            }
            let d = self.d;
            let sides_closed = cells.iter().all(|&c| {
                let (r, col) = d.row_col(c);
                let (r, col) = (r as isize, col as isize);
                if horizontal {
                    self.at(g, r - 1, col) == Know::Water && self.at(g, r + 1, col) == Know::Water
                } else {
                    self.at(g, r, col - 1) == Know::Water && self.at(g, r, col + 1) == Know::Water
                }
            });
            // A lone cell shows up as a run in both directions: count it once.
            if sides_closed && (cells.len() > 1 || horizontal) {
                found.push(cells.len());
            }
        }
        found
    }

    /// The ships not yet complete, as (length, how many).
    fn remaining(&self, g: &[Know]) -> Result<Vec<(usize, usize)>, Contradiction> {
        let mut left = self.lengths.clone();
        for l in self.complete_lengths(g) {
            match left.iter_mut().find(|(len, n)| *len == l && *n > 0) {
                Some(x) => x.1 -= 1,
                None => return Err(Contradiction),
            }
        }
        Ok(left.into_iter().filter(|x| x.1 > 0).collect())
    }

    /// Placements of a ship of length `len` consistent with the grid and the counts.
    fn placements(&self, g: &[Know], len: usize) -> Vec<Vec<usize>> {
        let d = self.d;
        let lines = self.lines();
        let mut out = Vec::new();
        for horizontal in [true, false] {
            if len == 1 && !horizontal {
                continue;
            }
            for r in 0..d.height {
                for c in 0..d.width {
                    let cells: Vec<(usize, usize)> = (0..len)
                        .map(|i| if horizontal { (r, c + i) } else { (r + i, c) })
                        .collect();
                    if cells.iter().any(|&(a, b)| a >= d.height || b >= d.width) {
                        continue;
                    }
                    let idx: Vec<usize> = cells.iter().map(|&(a, b)| d.index(a, b)).collect();
                    if idx.iter().any(|&i| g[i] == Know::Water) {
                        continue;
                    }
                    // Nothing of another ship may touch it, ends included.
                    let touches = idx.iter().any(|&i| {
                        d.neighbours8(i)
                            .any(|n| !idx.contains(&n) && g[n] == Know::Ship)
                    });
                    if touches {
                        continue;
                    }
                    let fits_counts = lines.iter().all(|(_, line, count)| {
                        count.is_none_or(|k| {
                            let now = line.iter().filter(|&&c| g[c] == Know::Ship).count();
                            let add = idx
                                .iter()
                                .filter(|&i| line.contains(i) && g[*i] != Know::Ship)
                                .count();
                            now + add <= k
                        })
                    });
                    if fits_counts {
                        out.push(idx);
                    }
                }
            }
        }
        out
    }

    /// Tier 2.
    fn tier2(&self, g: &mut [Know]) -> Deduced {
        let left = self.remaining(g)?;
        let Some(&(longest, how_many)) = left.iter().max_by_key(|x| x.0) else {
            return Ok(None);
        };
        let d = self.d;
        for (cells, horizontal, closed) in self.runs(g) {
            if closed || cells.len() != longest || cells.len() < 2 {
                continue;
            }
            let (first, last) = (cells[0], cells[cells.len() - 1]);
            let (r0, c0) = d.row_col(first);
            let (r1, c1) = d.row_col(last);
            let ends: Vec<(usize, Know)> = if horizontal {
                [
                    d.checked(r0 as isize, c0 as isize - 1),
                    d.checked(r1 as isize, c1 as isize + 1),
                ]
            } else {
                [
                    d.checked(r0 as isize - 1, c0 as isize),
                    d.checked(r1 as isize + 1, c1 as isize),
                ]
            }
            .into_iter()
            .flatten()
            .map(|n| (n, Know::Water))
            .collect();
            if let Some(s) = self.decide(g, &ends, "longest ship is whole", 2, || {
                format!(
                    "the run from {} to {} is as long as the longest ship left ({longest}), so its ends are water",
                    self.name(first),
                    self.name(last)
                )
            })? {
                return Ok(Some(s));
            }
        }
        let ps = self.placements(g, longest);
        if ps.len() < how_many {
            return Err(Contradiction);
        }
        if how_many == 1 {
            let common: Vec<(usize, Know)> = ps[0]
                .iter()
                .copied()
                .filter(|c| ps.iter().all(|p| p.contains(c)))
                .map(|c| (c, Know::Ship))
                .collect();
            if let Some(s) = self.decide(g, &common, "longest ship must fit", 2, || {
                format!("every place left for the {longest}-ship covers these cells")
            })? {
                return Ok(Some(s));
            }
        }
        Ok(None)
    }

    /// Tier 3: line overlap.
    fn tier3(&self, g: &mut [Know]) -> Deduced {
        for (what, cells, count) in self.lines() {
            let Some(k) = count else { continue };
            let open: Vec<usize> = (0..cells.len())
                .filter(|&i| g[cells[i]] == Know::Unknown)
                .collect();
            if open.is_empty() || open.len() > 16 {
                continue;
            }
            let ships = cells.iter().filter(|&&c| g[c] == Know::Ship).count();
            let need = k.saturating_sub(ships);
            let (mut always, mut never) = (u32::MAX, u32::MAX);
            let mut any = false;
            for mask in 0u32..(1 << open.len()) {
                if mask.count_ones() as usize != need {
                    continue;
                }
                let mut run = 0;
                let mut ok = true;
                for (i, &c) in cells.iter().enumerate() {
                    let ship = match open.iter().position(|&o| o == i) {
                        Some(j) => mask >> j & 1 == 1,
                        None => g[c] == Know::Ship,
                    };
                    run = if ship { run + 1 } else { 0 };
                    if run > self.max_len {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    any = true;
                    always &= mask;
                    never &= !mask;
                }
            }
            if !any {
                return Err(Contradiction);
            }
            let mut set = Vec::new();
            for (j, &i) in open.iter().enumerate() {
                if always >> j & 1 == 1 {
                    set.push((cells[i], Know::Ship));
                } else if never >> j & 1 == 1 {
                    set.push((cells[i], Know::Water));
                }
            }
            if let Some(s) = self.decide(g, &set, "line overlap", 3, || {
                format!("every way to place {what}'s {k} ship cells agrees here")
            })? {
                return Ok(Some(s));
            }
        }
        Ok(None)
    }

    /// Applies tiers 1 to `max` until nothing changes; `Err` on a contradiction.
    fn propagate(
        &self,
        g: &mut [Know],
        max: u8,
        steps: &mut Vec<Step>,
    ) -> Result<(), Contradiction> {
        loop {
            self.check(g)?;
            let mut step = self.tier1(g)?;
            if step.is_none() && max >= 2 {
                step = self.tier2(g)?;
            }
            if step.is_none() && max >= 3 {
                step = self.tier3(g)?;
            }
            match step {
                Some(s) => steps.push(s),
                None => return Ok(()),
            }
        }
    }

    /// Tier 4: refute an assumption about one cell.
    fn tier4(&self, g: &mut [Know]) -> Deduced {
        for cell in 0..self.d.cells() {
            if g[cell] != Know::Unknown {
                continue;
            }
            for (assume, other) in [(Know::Ship, Know::Water), (Know::Water, Know::Ship)] {
                let mut trial = g.to_vec();
                trial[cell] = assume;
                if self.propagate(&mut trial, 3, &mut Vec::new()).is_err() {
                    let what = if assume == Know::Ship {
                        "a ship"
                    } else {
                        "water"
                    };
                    return self.decide(g, &[(cell, other)], "contradiction", 4, || {
                        format!(
                            "assuming {} is {what} leads to a contradiction",
                            self.name(cell)
                        )
                    });
                }
            }
        }
        Ok(None)
    }
}

/// Solves `problem` with the tiers up to `max_tier` (1 to 4), recording every step.
pub fn solve(problem: &Problem, max_tier: u8) -> Result<Outcome, LogicUnsupported> {
    let s = Solver::new(problem)?;
    let mut g = s.initial();
    let mut steps = Vec::new();
    let mut broken = s.propagate(&mut g, max_tier.min(3), &mut steps).is_err();
    while !broken && max_tier >= 4 && g.contains(&Know::Unknown) {
        match s.tier4(&mut g) {
            Ok(Some(step)) => {
                steps.push(step);
                broken = s.propagate(&mut g, 3, &mut steps).is_err();
            }
            Ok(None) => break,
            Err(_) => broken = true,
        }
    }
    let solved = !broken && !g.contains(&Know::Unknown);
    let top = steps.iter().map(|s| s.tier).max().unwrap_or(1);
    let grade = match (solved, top) {
        (false, _) | (_, 4..) => Grade::Extreme,
        (true, 3) => Grade::Hard,
        (true, 2) => Grade::Medium,
        _ => Grade::Easy,
    };
    Ok(Outcome {
        steps,
        grid: g,
        solved,
        grade,
    })
}

/// The grade of a puzzle: the highest tier its logical solution needs.
pub fn grade(problem: &Problem) -> Result<Grade, LogicUnsupported> {
    solve(problem, 4).map(|o| o.grade)
}
