//! A human-style logical solver for solitaire puzzles, and difficulty grades.
//!
//! The solver knows, per cell, water, ship or nothing, and applies named deduction rules in
//! tiers, always the lowest tier that decides something:
//!
//! 1. **basics**: water diagonally around every ship cell (ships never touch); the shape a
//!    segment clue implies (`<` has a ship cell to its right and water on its other sides,
//!    `o` water all round, `m` continues on two opposite sides); a row or column with all its
//!    ship cells is water elsewhere, and one whose open cells are all needed is ship there.
//! 2. **fleet accounting**: which ships are complete and which are still to be found; a run
//!    as long as the longest ship left is a whole ship (its ends are water); the ships that can
//!    still hold a partly found ship decide the cells they all cover and rule out the ones none
//!    reaches; a cell no remaining ship can cover is water; when a ship length has exactly as
//!    many places left as ships, they are all ships (one ship left: the cells all its places
//!    share).
//! 3. **line overlap**: every way to fill a row or column with its count, made of pieces the
//!    remaining fleet can supply (runs along the line are whole ships of a length still to be
//!    found, single cells a one-cell ship or a ship crossing the line), agrees on a cell.
//! 4. **contradiction**: assuming a cell is a ship (or water) and applying tiers 1 to 3 leads
//!    to a contradiction, so it is the other.
//!
//! A puzzle's grade is the highest tier its solution needs: easy (tier 1), medium (tier 2),
//! hard (tier 3 or 4), extreme (the tiers do not finish it: search is needed). [`solve`]
//! returns every step with its rule and the cells it decided, which is what `solve --explain`
//! prints; [`grade`] reaches the same grade faster by recording nothing.

use crate::choice::UnknownChoice;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// Tier 1 rules suffice.
    Easy,
    /// Tier 2 (fleet accounting) is needed.
    Medium,
    /// Tier 3 (line overlap) or tier 4 (contradiction) is needed.
    Hard,
    /// The tiers do not finish the puzzle: search is needed.
    Extreme,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Extreme];

    /// The highest tier a puzzle of this grade may need; `None` for extreme (the tiers are
    /// not enough).
    pub fn max_tier(self) -> Option<u8> {
        match self {
            Grade::Easy => Some(1),
            Grade::Medium => Some(2),
            Grade::Hard => Some(4),
            Grade::Extreme => None,
        }
    }
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
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "easy" => Ok(Grade::Easy),
            "medium" => Ok(Grade::Medium),
            "hard" => Ok(Grade::Hard),
            "extreme" => Ok(Grade::Extreme),
            _ => Err(UnknownChoice::new(
                "grade",
                s,
                "easy, medium, hard or extreme",
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
    /// The steps, in order (empty when the solve recorded none, as [`grade_outcome`] does).
    pub steps: Vec<Step>,
    /// What is known at the end.
    pub grid: Vec<Know>,
    /// Whether every cell was decided (and the decided grid holds exactly the fleet).
    pub solved: bool,
    /// Whether the rules met a contradiction: the puzzle has no solution.
    pub contradiction: bool,
    /// The highest tier that decided a cell (0 when the clues decide everything).
    pub top_tier: u8,
    /// Cells decided by each tier (index 0 is tier 1).
    pub decided_by_tier: [usize; 4],
    /// The grade: from the highest tier used, or extreme when unsolved.
    pub grade: Grade,
}

/// Why the logical solver does not take a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogicUnsupported {
    /// It reasons about straight ships under the no-touch rule.
    #[error("the logical solver handles straight ships that never touch, without sonar shots")]
    Model,
}

/// A row or column.
struct Line {
    name: String,
    cells: Vec<usize>,
    count: Option<usize>,
    horizontal: bool,
}

/// A place for a straight ship.
struct Place {
    cells: Vec<usize>,
    /// The orthogonal neighbours outside the ship (ends and sides).
    orth: Vec<usize>,
    /// The diagonal neighbours of its cells that are not orthogonal neighbours.
    diag: Vec<usize>,
    /// The line the ship lies along (a row for a horizontal ship).
    along: usize,
}

/// A maximal orthogonally connected group of known ship cells.
struct Piece {
    /// Its cells, top-left first.
    cells: Vec<usize>,
    /// Whether all its orthogonal neighbours are water: it is a whole ship.
    complete: bool,
}

#[derive(Debug)]
struct Contradiction;

type Found = Result<(), Contradiction>;

/// Where the decisions go: recorded one at a time (explaining), or all at once (grading).
struct Out<'a> {
    steps: Option<&'a mut Vec<Step>>,
    changed: bool,
    tier: u8,
    per_tier: [usize; 4],
}

struct Solver {
    d: Dims,
    seg: Vec<Option<Segment>>,
    start: Vec<Know>,
    lines: Vec<Line>,
    /// Per cell: its row's and its column's index in `lines`.
    line_of: Vec<[usize; 2]>,
    /// Ships of each length in the fleet (index = length).
    fleet: Vec<usize>,
    max_len: usize,
    total: usize,
    /// Places by length (index = length), and per cell the (length, place) pairs covering it.
    places: Vec<Vec<Place>>,
    places_at: Vec<Vec<(usize, usize)>>,
}

impl Solver {
    fn new(p: &Problem) -> Result<Self, LogicUnsupported> {
        supports(p)?;
        let d = p.dims();
        let spec = p.spec();
        let seg = (0..d.cells())
            .map(|c| match spec.clue(c) {
                Some(Clue::Segment(s)) => Some(s),
                _ => None,
            })
            .collect();
        let start = (0..d.cells())
            .map(|c| match spec.clue(c) {
                Some(Clue::Water | Clue::Blocked) => Know::Water,
                Some(_) => Know::Ship,
                None => Know::Unknown,
            })
            .collect();
        let mut lines = Vec::new();
        for r in 0..d.height {
            lines.push(Line {
                name: format!("row {}", r + 1),
                cells: (0..d.width).map(|c| d.index(r, c)).collect(),
                count: spec.row_count(r),
                horizontal: true,
            });
        }
        for c in 0..d.width {
            lines.push(Line {
                name: format!("column {}", crate::geom::column_name(c)),
                cells: (0..d.height).map(|r| d.index(r, c)).collect(),
                count: spec.col_count(c),
                horizontal: false,
            });
        }
        let line_of = (0..d.cells())
            .map(|cell| {
                let (r, c) = d.row_col(cell);
                [r, d.height + c]
            })
            .collect();
        let mut fleet = Vec::new();
        for t in p.fleet().types() {
            let len = t.shape.straight_len().expect("straight");
            if fleet.len() <= len {
                fleet.resize(len + 1, 0);
            }
            fleet[len] += t.count;
        }
        let max_len = fleet.len().saturating_sub(1);
        let total = (1..fleet.len()).map(|l| l * fleet[l]).sum();
        let mut places: Vec<Vec<Place>> = (0..fleet.len()).map(|_| Vec::new()).collect();
        let mut places_at = vec![Vec::new(); d.cells()];
        for len in 1..fleet.len() {
            if fleet[len] == 0 {
                continue;
            }
            for horizontal in [true, false] {
                if len == 1 && !horizontal {
                    continue;
                }
                for r in 0..d.height {
                    for c in 0..d.width {
                        let (dr, dc) = if horizontal { (0, 1) } else { (1, 0) };
                        let (er, ec) = (r + dr * (len - 1), c + dc * (len - 1));
                        if er >= d.height || ec >= d.width {
                            continue;
                        }
                        let cells: Vec<usize> =
                            (0..len).map(|i| d.index(r + dr * i, c + dc * i)).collect();
                        let mut orth = Vec::new();
                        let mut diag = Vec::new();
                        for &cell in &cells {
                            let (cr, cc) = d.row_col(cell);
                            for (ar, ac) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                                if let Some(n) = d.checked(cr as isize + ar, cc as isize + ac)
                                    && !cells.contains(&n)
                                    && !orth.contains(&n)
                                {
                                    orth.push(n);
                                }
                            }
                        }
                        for &cell in &cells {
                            for n in d.neighbours8(cell) {
                                if !cells.contains(&n) && !orth.contains(&n) && !diag.contains(&n) {
                                    diag.push(n);
                                }
                            }
                        }
                        let along = if horizontal { r } else { d.height + c };
                        let idx = places[len].len();
                        for &cell in &cells {
                            places_at[cell].push((len, idx));
                        }
                        places[len].push(Place {
                            cells,
                            orth,
                            diag,
                            along,
                        });
                    }
                }
            }
        }
        Ok(Solver {
            d,
            seg,
            start,
            lines,
            line_of,
            fleet,
            max_len,
            total,
            places,
            places_at,
        })
    }

    fn at(&self, g: &[Know], r: isize, c: isize) -> Know {
        match self.d.checked(r, c) {
            Some(i) => g[i],
            None => Know::Water,
        }
    }

    fn name(&self, cell: usize) -> String {
        self.d.cell_name(cell)
    }

    /// Sets cells; records a step when anything changed; a contradiction when a decided cell
    /// differs. Returns whether the rule should stop.
    fn decide(
        &self,
        g: &mut [Know],
        set: &[(usize, Know)],
        rule: &'static str,
        out: &mut Out,
        why: impl FnOnce() -> String,
    ) -> Result<bool, Contradiction> {
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
        if changed.is_empty() {
            return Ok(false);
        }
        out.changed = true;
        out.per_tier[usize::from(out.tier) - 1] += changed.len();
        if let Some(steps) = out.steps.as_deref_mut() {
            steps.push(Step {
                rule,
                tier: out.tier,
                cells: changed,
                why: why(),
            });
            return Ok(true);
        }
        Ok(false)
    }

    /// Ship cells per line.
    fn ships_per_line(&self, g: &[Know]) -> Vec<usize> {
        self.lines
            .iter()
            .map(|l| l.cells.iter().filter(|&&c| g[c] == Know::Ship).count())
            .collect()
    }

    /// The groups of known ship cells; a contradiction when one is not straight.
    fn pieces(&self, g: &[Know]) -> Result<Vec<Piece>, Contradiction> {
        let d = self.d;
        let mut seen = vec![false; d.cells()];
        let mut out = Vec::new();
        for cell in 0..d.cells() {
            if g[cell] != Know::Ship || seen[cell] {
                continue;
            }
            let (r0, c0) = d.row_col(cell);
            // Cells are scanned top-left first, so a piece extends right or down from here.
            let right = c0 + 1 < d.width && g[cell + 1] == Know::Ship;
            let down = r0 + 1 < d.height && g[cell + d.width] == Know::Ship;
            if right && down {
                return Err(Contradiction);
            }
            let mut cells = vec![cell];
            let (dr, dc) = if down { (1, 0) } else { (0, 1) };
            let (mut r, mut c) = (r0, c0);
            loop {
                let (nr, nc) = (r + dr, c + dc);
                if nr >= d.height || nc >= d.width || g[d.index(nr, nc)] != Know::Ship {
                    break;
                }
                (r, c) = (nr, nc);
                cells.push(d.index(r, c));
            }
            let mut complete = true;
            for &x in &cells {
                seen[x] = true;
                let (xr, xc) = d.row_col(x);
                for (ar, ac) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    if let Some(n) = d.checked(xr as isize + ar, xc as isize + ac)
                        && !cells.contains(&n)
                    {
                        match g[n] {
                            Know::Ship => return Err(Contradiction),
                            Know::Unknown => complete = false,
                            Know::Water => {}
                        }
                    }
                }
            }
            out.push(Piece { cells, complete });
        }
        Ok(out)
    }

    /// Ships of each length still to be found; a contradiction when the complete ships do not
    /// fit the fleet.
    fn remaining(&self, pieces: &[Piece]) -> Result<Vec<usize>, Contradiction> {
        let mut left = self.fleet.clone();
        for p in pieces.iter().filter(|p| p.complete) {
            match left.get_mut(p.cells.len()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => return Err(Contradiction),
            }
        }
        Ok(left)
    }

    /// Whether a ship of `place`'s length could go there (its length must still be wanted).
    fn fits(&self, g: &[Know], ships: &[usize], place: &Place) -> bool {
        let mut new = 0;
        for &c in &place.cells {
            match g[c] {
                Know::Water => return false,
                Know::Unknown => {
                    new += 1;
                    let across = self.line_of[c][usize::from(place.along < self.d.height)];
                    if let Some(k) = self.lines[across].count
                        && ships[across] + 1 > k
                    {
                        return false;
                    }
                }
                Know::Ship => {}
            }
        }
        if place
            .orth
            .iter()
            .chain(&place.diag)
            .any(|&c| g[c] == Know::Ship)
        {
            return false;
        }
        if new == 0 && place.orth.iter().all(|&c| g[c] == Know::Water) {
            // A whole ship already found, not a place for one still to be found.
            return false;
        }
        self.lines[place.along]
            .count
            .is_none_or(|k| ships[place.along] + new <= k)
    }

    /// Checks the grid for a plain contradiction; returns the groups of found ship cells and
    /// the ships still to be found (valid until the grid changes).
    fn check(&self, g: &[Know]) -> Result<(Vec<Piece>, Vec<usize>), Contradiction> {
        let ships = self.ships_per_line(g);
        for (i, line) in self.lines.iter().enumerate() {
            if let Some(k) = line.count {
                let open = line
                    .cells
                    .iter()
                    .filter(|&&c| g[c] == Know::Unknown)
                    .count();
                if ships[i] > k || ships[i] + open < k {
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
        if ships[..d.height].iter().sum::<usize>() > self.total {
            return Err(Contradiction);
        }
        let pieces = self.pieces(g)?;
        let left = self.remaining(&pieces)?;
        let longest = (1..left.len()).rev().find(|&l| left[l] > 0).unwrap_or(0);
        if pieces
            .iter()
            .any(|p| !p.complete && p.cells.len() > longest)
        {
            return Err(Contradiction);
        }
        if !g.contains(&Know::Unknown) && left.iter().any(|&n| n > 0) {
            return Err(Contradiction);
        }
        Ok((pieces, left))
    }

    /// Tier 1.
    fn basics(&self, g: &mut [Know], out: &mut Out) -> Found {
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
            if self.decide(g, &diag, "water around a ship", out, || {
                format!(
                    "ships never touch, so the cells diagonal to {} are water",
                    self.name(cell)
                )
            })? {
                return Ok(());
            }
        }
        for cell in 0..d.cells() {
            let Some(seg) = self.seg[cell] else { continue };
            let (r, c) = d.row_col(cell);
            let (r, c) = (r as isize, c as isize);
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
            let mut set = Vec::new();
            for (side, (dr, dc)) in sides.iter().zip([(-1, 0), (1, 0), (0, -1), (0, 1)]) {
                match (side, d.checked(r + dr, c + dc)) {
                    (Some(true), None) => return Err(Contradiction),
                    (Some(ship), Some(n)) => {
                        set.push((n, if *ship { Know::Ship } else { Know::Water }))
                    }
                    _ => {}
                }
            }
            if self.decide(g, &set, "segment shape", out, || {
                format!(
                    "the '{}' at {} fixes its neighbours",
                    seg.symbol(),
                    self.name(cell)
                )
            })? {
                return Ok(());
            }
        }
        for line in &self.lines {
            let Some(k) = line.count else { continue };
            let ships = line.cells.iter().filter(|&&c| g[c] == Know::Ship).count();
            let open: Vec<usize> = line
                .cells
                .iter()
                .copied()
                .filter(|&c| g[c] == Know::Unknown)
                .collect();
            if open.is_empty() {
                continue;
            }
            let (set, rule): (Vec<_>, _) = if ships == k {
                (
                    open.iter().map(|&c| (c, Know::Water)).collect(),
                    "full line",
                )
            } else if ships + open.len() == k {
                (
                    open.iter().map(|&c| (c, Know::Ship)).collect(),
                    "line needs every open cell",
                )
            } else {
                continue;
            };
            if self.decide(g, &set, rule, out, || {
                if ships == k {
                    format!("{} has all its {k} ship cells", line.name)
                } else {
                    format!(
                        "{} needs {k} ship cells and has only that many left",
                        line.name
                    )
                }
            })? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Tier 2.
    fn fleet_rules(
        &self,
        g: &mut [Know],
        out: &mut Out,
        pieces: &[Piece],
        left: &[usize],
    ) -> Found {
        let snap = g.to_vec();
        let longest = (1..left.len()).rev().find(|&l| left[l] > 0).unwrap_or(0);
        let d = self.d;
        // A run as long as the longest ship left is that ship.
        for p in pieces {
            if p.complete || p.cells.len() != longest || longest < 2 {
                continue;
            }
            let (first, last) = (p.cells[0], p.cells[p.cells.len() - 1]);
            let horizontal = last - first < d.width;
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
            if self.decide(g, &ends, "longest ship is whole", out, || {
                format!(
                    "the run {}-{} is as long as the longest ship left ({longest}), so its ends are water",
                    self.name(first),
                    self.name(last)
                )
            })? {
                return Ok(());
            }
        }
        let ships = self.ships_per_line(&snap);
        let fits: Vec<Vec<bool>> = (0..self.places.len())
            .map(|len| {
                self.places[len]
                    .iter()
                    .map(|p| left[len] > 0 && self.fits(&snap, &ships, p))
                    .collect()
            })
            .collect();
        // The ships that can hold a partly found ship.
        for p in pieces.iter().filter(|p| !p.complete) {
            let holding: Vec<&Place> = self.places_at[p.cells[0]]
                .iter()
                .filter(|&&(len, i)| fits[len][i])
                .map(|&(len, i)| &self.places[len][i])
                .filter(|pl| p.cells.iter().all(|c| pl.cells.contains(c)))
                .collect();
            if holding.is_empty() {
                return Err(Contradiction);
            }
            let mut set: Vec<(usize, Know)> = holding[0]
                .cells
                .iter()
                .copied()
                .filter(|c| holding.iter().all(|pl| pl.cells.contains(c)))
                .map(|c| (c, Know::Ship))
                .collect();
            for &c in &p.cells {
                for n in d.neighbours8(c) {
                    if snap[n] == Know::Unknown
                        && !set.iter().any(|s| s.0 == n)
                        && holding.iter().all(|pl| !pl.cells.contains(&n))
                    {
                        set.push((n, Know::Water));
                    }
                }
            }
            let lens: Vec<usize> = {
                let mut v: Vec<usize> = holding.iter().map(|pl| pl.cells.len()).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            if self.decide(g, &set, "ships that fit here", out, || {
                let lens: Vec<String> = lens.iter().map(|l| l.to_string()).collect();
                let places = match holding.len() {
                    1 => "in one place".to_string(),
                    n => format!("in one of {n} places"),
                };
                format!(
                    "{} can only belong to a ship of length {} still to be found, {places}; those settle these cells",
                    self.name(p.cells[0]),
                    lens.join(" or "),
                )
            })? {
                return Ok(());
            }
        }
        // A cell no remaining ship can cover is water.
        let mut covered = vec![false; d.cells()];
        for (len, fl) in fits.iter().enumerate() {
            for (i, &f) in fl.iter().enumerate() {
                if f {
                    for &c in &self.places[len][i].cells {
                        covered[c] = true;
                    }
                }
            }
        }
        for cell in 0..d.cells() {
            if snap[cell] == Know::Unknown
                && !covered[cell]
                && self.decide(g, &[(cell, Know::Water)], "no ship fits", out, || {
                    format!("no ship still to be found fits through {}", self.name(cell))
                })?
            {
                return Ok(());
            }
        }
        // A length with exactly as many places as ships.
        for len in (1..left.len()).rev() {
            if left[len] == 0 {
                continue;
            }
            let ps: Vec<&Place> = self.places[len]
                .iter()
                .zip(&fits[len])
                .filter(|x| *x.1)
                .map(|x| x.0)
                .collect();
            if ps.len() < left[len] {
                return Err(Contradiction);
            }
            let set: Vec<(usize, Know)> = if ps.len() == left[len] {
                ps.iter()
                    .flat_map(|pl| pl.cells.iter().map(|&c| (c, Know::Ship)))
                    .collect()
            } else if left[len] == 1 {
                ps[0]
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| ps.iter().all(|pl| pl.cells.contains(c)))
                    .map(|c| (c, Know::Ship))
                    .collect()
            } else {
                continue;
            };
            let (n, places) = (left[len], ps.len());
            if self.decide(g, &set, "ships must fit", out, || {
                if n == 1 {
                    format!("the ship of length {len} left has only one place")
                } else if n == places {
                    format!("the {n} ships of length {len} left have only {places} places")
                } else {
                    format!("every place left for the ship of length {len} covers these cells")
                }
            })? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Tier 3: line overlap, with the pieces the remaining fleet can supply.
    fn overlap(&self, g: &mut [Know], out: &mut Out, left: &[usize]) -> Found {
        let longer_left = left.iter().skip(2).any(|&n| n > 0);
        for line in &self.lines {
            let Some(k) = line.count else { continue };
            if !line.cells.iter().any(|&c| g[c] == Know::Unknown) {
                continue;
            }
            let can = self.line_options(g, line, k, left, longer_left)?;
            let set: Vec<(usize, Know)> = line
                .cells
                .iter()
                .zip(&can)
                .filter(|(c, _)| g[**c] == Know::Unknown)
                .filter_map(|(&c, &(water, ship))| match (water, ship) {
                    (true, false) => Some((c, Know::Water)),
                    (false, true) => Some((c, Know::Ship)),
                    _ => None,
                })
                .collect();
            if self.decide(g, &set, "line overlap", out, || {
                format!(
                    "every way to fill {} with its {k} ship cells, from the ships left, agrees here",
                    line.name
                )
            })? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// For each cell of a line, whether some filling has (water, ship) there.
    fn line_options(
        &self,
        g: &[Know],
        line: &Line,
        k: usize,
        left: &[usize],
        longer_left: bool,
    ) -> Result<Vec<(bool, bool)>, Contradiction> {
        let d = self.d;
        let n = line.cells.len();
        // Per cell: may it be part of a run along the line (no ship across it), and may it be
        // a run of one (a one-cell ship, a ship crossing the line, or already a ship).
        let across = |c: usize| -> [Know; 2] {
            let (r, col) = d.row_col(c);
            let (r, col) = (r as isize, col as isize);
            if line.horizontal {
                [self.at(g, r - 1, col), self.at(g, r + 1, col)]
            } else {
                [self.at(g, r, col - 1), self.at(g, r, col + 1)]
            }
        };
        let multi: Vec<bool> = line
            .cells
            .iter()
            .map(|&c| !across(c).contains(&Know::Ship))
            .collect();
        let single: Vec<bool> = line
            .cells
            .iter()
            .map(|&c| {
                g[c] == Know::Ship
                    || left.get(1).is_some_and(|&x| x > 0)
                    || (longer_left && across(c).iter().any(|&x| x != Know::Water))
            })
            .collect();
        // State: ships so far, current run, whether the run is all known ship cells, whether
        // all its cells may lie in a run along the line; packed densely.
        let runs = self.max_len + 1;
        let width = (k + 1) * runs * 4;
        let pack = |ships: usize, run: usize, known: bool, along: bool| {
            ((ships * runs + run) * 2 + usize::from(known)) * 2 + usize::from(along)
        };
        let unpack = |s: usize| (s / 4 / runs, s / 4 % runs, s / 2 % 2 == 1, s % 2 == 1);
        let run_ok = |end: usize, s: usize| -> bool {
            let (_, run, known, along) = unpack(s);
            match run {
                0 => true,
                1 => single[end - 1],
                _ => along && (known || left.get(run).is_some_and(|&x| x > 0)),
            }
        };
        let step = |i: usize, s: usize, ship: bool| -> Option<usize> {
            let (ships, run, known, along) = unpack(s);
            if ship {
                if ships + 1 > k || run + 1 > self.max_len {
                    return None;
                }
                Some(pack(
                    ships + 1,
                    run + 1,
                    known && g[line.cells[i]] == Know::Ship,
                    along && multi[i],
                ))
            } else {
                run_ok(i, s).then(|| pack(ships, 0, true, true))
            }
        };
        let choices = |i: usize| -> &'static [bool] {
            match g[line.cells[i]] {
                Know::Unknown => &[false, true],
                Know::Water => &[false],
                Know::Ship => &[true],
            }
        };
        // Forward: the states reachable before each cell.
        let mut fwd = vec![false; (n + 1) * width];
        fwd[pack(0, 0, true, true)] = true;
        for i in 0..n {
            for s in 0..width {
                if !fwd[i * width + s] {
                    continue;
                }
                for &ship in choices(i) {
                    if let Some(t) = step(i, s, ship) {
                        fwd[(i + 1) * width + t] = true;
                    }
                }
            }
        }
        // Backward: of those, the states from which the line can be finished.
        let mut alive = vec![false; width];
        let mut any = false;
        for (s, a) in alive.iter_mut().enumerate() {
            *a = fwd[n * width + s] && unpack(s).0 == k && run_ok(n, s);
            any |= *a;
        }
        if !any {
            return Err(Contradiction);
        }
        let mut can = vec![(false, false); n];
        let mut before = vec![false; width];
        for i in (0..n).rev() {
            before.fill(false);
            for s in 0..width {
                if !fwd[i * width + s] {
                    continue;
                }
                for &ship in choices(i) {
                    if let Some(t) = step(i, s, ship)
                        && alive[t]
                    {
                        before[s] = true;
                        if ship {
                            can[i].1 = true;
                        } else {
                            can[i].0 = true;
                        }
                    }
                }
            }
            std::mem::swap(&mut alive, &mut before);
        }
        Ok(can)
    }

    /// Applies tiers 1 to `max` until nothing changes.
    fn propagate(&self, g: &mut [Know], max: u8, out: &mut Out) -> Found {
        loop {
            // The tiers after the first run only when the ones before changed nothing, so
            // the grid they see is the one checked here.
            let (pieces, left) = self.check(g)?;
            out.changed = false;
            for tier in 1..=max {
                out.tier = tier;
                match tier {
                    1 => self.basics(g, out)?,
                    2 => self.fleet_rules(g, out, &pieces, &left)?,
                    3 => self.overlap(g, out, &left)?,
                    _ => self.contradiction(g, out)?,
                }
                if out.changed {
                    break;
                }
            }
            if !out.changed {
                return Ok(());
            }
        }
    }

    /// Tier 4: refute an assumption about one cell.
    fn contradiction(&self, g: &mut [Know], out: &mut Out) -> Found {
        let mut trial = vec![Know::Unknown; g.len()];
        // Assumptions another assumption implied without a contradiction: they cannot lead
        // to one either (what they imply is a part of what it implied), so they are skipped.
        let mut harmless = vec![[false; 2]; g.len()];
        for cell in 0..self.d.cells() {
            if g[cell] != Know::Unknown {
                continue;
            }
            for (assume, other) in [(Know::Ship, Know::Water), (Know::Water, Know::Ship)] {
                let which = usize::from(assume == Know::Water);
                if harmless[cell][which] {
                    continue;
                }
                trial.copy_from_slice(g);
                trial[cell] = assume;
                let mut quiet = Out {
                    steps: None,
                    changed: false,
                    tier: 1,
                    per_tier: [0; 4],
                };
                let result = self.propagate(&mut trial, 3, &mut quiet);
                if result.is_ok() {
                    for (c, k) in trial.iter().enumerate() {
                        if g[c] == Know::Unknown && *k != Know::Unknown {
                            harmless[c][usize::from(*k == Know::Water)] = true;
                        }
                    }
                    continue;
                }
                {
                    let what = if assume == Know::Ship {
                        "a ship"
                    } else {
                        "water"
                    };
                    // One refutation at a time: the cheaper tiers then use what it taught.
                    self.decide(g, &[(cell, other)], "contradiction", out, || {
                        format!(
                            "assuming {} is {what} leads to a contradiction under tiers 1 to 3",
                            self.name(cell)
                        )
                    })?;
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

fn run(
    problem: &Problem,
    max_tier: u8,
    explain: bool,
    known: Option<&[Know]>,
) -> Result<Outcome, LogicUnsupported> {
    let s = Solver::new(problem)?;
    let mut g = s.start.clone();
    let mut contradiction = false;
    if let Some(known) = known {
        for (c, &k) in known.iter().enumerate().take(g.len()) {
            match (g[c], k) {
                (_, Know::Unknown) => {}
                (Know::Unknown, k) => g[c] = k,
                (a, b) => contradiction |= a != b,
            }
        }
    }
    let mut steps = Vec::new();
    let mut out = Out {
        steps: explain.then_some(&mut steps),
        changed: false,
        tier: 1,
        per_tier: [0; 4],
    };
    let contradiction =
        contradiction || s.propagate(&mut g, max_tier.clamp(1, 4), &mut out).is_err();
    let per_tier = out.per_tier;
    let solved = !contradiction && !g.contains(&Know::Unknown);
    let top_tier = (1..=4u8)
        .rev()
        .find(|&t| per_tier[usize::from(t) - 1] > 0)
        .unwrap_or(0);
    let grade = match (solved, top_tier) {
        (false, _) => Grade::Extreme,
        (true, 3..) => Grade::Hard,
        (true, 2) => Grade::Medium,
        _ => Grade::Easy,
    };
    Ok(Outcome {
        steps,
        grid: g,
        solved,
        contradiction,
        top_tier,
        decided_by_tier: per_tier,
        grade,
    })
}

/// Whether the logical solver takes the problem: straight ships that never touch, no sonar.
pub fn supports(p: &Problem) -> Result<(), LogicUnsupported> {
    if p.rules() != Rules::NoTouch || !p.fleet().is_straight() || !p.any_of().is_empty() {
        return Err(LogicUnsupported::Model);
    }
    Ok(())
}

/// Solves `problem` with the tiers up to `max_tier` (1 to 4), recording every step.
pub fn solve(problem: &Problem, max_tier: u8) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, true, None)
}

/// Solves `problem` with the tiers up to `max_tier` as fast as possible, recording no steps;
/// the grid and the grade are those of [`solve`].
pub fn deduce(problem: &Problem, max_tier: u8) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, false, None)
}

/// [`deduce`] starting from cells already known to follow from the problem (a grid an
/// earlier call returned for the same problem with fewer clues): the same final grid, less
/// work. The counts in `decided_by_tier` then cover only the new deductions.
pub fn deduce_from(
    problem: &Problem,
    max_tier: u8,
    known: &[Know],
) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, false, Some(known))
}

/// [`deduce`] with every tier: what [`grade`] reports.
pub fn grade_outcome(problem: &Problem) -> Result<Outcome, LogicUnsupported> {
    deduce(problem, 4)
}

/// The grade of a puzzle: from the highest tier its logical solution needs.
pub fn grade(problem: &Problem) -> Result<Grade, LogicUnsupported> {
    grade_outcome(problem).map(|o| o.grade)
}
