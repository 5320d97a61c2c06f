//! The logical solver's board: what is known of each cell, the rows and columns with their
//! counts, every place a straight ship could lie, and the checks every rule relies on (the
//! groups of found ship cells, the ships still to be found, a plain contradiction).
//! [`Solver::propagate`] applies the tiers, lowest first.

use super::{Know, LogicUnsupported, Step, supports};
use crate::clue::Clue;
use crate::geom::Dims;
use crate::problem::Problem;
use crate::shape::Segment;

/// A row or column.
pub(super) struct Line {
    pub(super) name: String,
    pub(super) cells: Vec<usize>,
    pub(super) count: Option<usize>,
    pub(super) horizontal: bool,
}

/// A place for a straight ship.
pub(super) struct Place {
    pub(super) cells: Vec<usize>,
    /// The orthogonal neighbours outside the ship (ends and sides).
    pub(super) orth: Vec<usize>,
    /// The diagonal neighbours of its cells that are not orthogonal neighbours.
    pub(super) diag: Vec<usize>,
    /// The line the ship lies along (a row for a horizontal ship).
    pub(super) along: usize,
}

/// A maximal orthogonally connected group of known ship cells.
pub(super) struct Piece {
    /// Its cells, top-left first.
    pub(super) cells: Vec<usize>,
    /// Whether all its orthogonal neighbours are water: it is a whole ship.
    pub(super) complete: bool,
}

#[derive(Debug)]
pub(super) struct Contradiction;

pub(super) type Found = Result<(), Contradiction>;

/// Where the decisions go: recorded one at a time (explaining), or all at once (grading).
pub(super) struct Out<'a> {
    pub(super) steps: Option<&'a mut Vec<Step>>,
    pub(super) changed: bool,
    pub(super) tier: u8,
    pub(super) per_tier: [usize; 4],
    /// The most steps to record: propagation stops once it has recorded this many.
    pub(super) max_steps: usize,
}

impl Out<'_> {
    /// Whether the steps recorded have reached [`Out::max_steps`].
    fn enough(&self) -> bool {
        self.steps
            .as_deref()
            .is_some_and(|s| s.len() >= self.max_steps)
    }
}

pub(super) struct Solver {
    pub(super) d: Dims,
    pub(super) seg: Vec<Option<Segment>>,
    pub(super) start: Vec<Know>,
    pub(super) lines: Vec<Line>,
    /// Per cell: its row's and its column's index in `lines`.
    pub(super) line_of: Vec<[usize; 2]>,
    /// Ships of each length in the fleet (index = length).
    pub(super) fleet: Vec<usize>,
    pub(super) max_len: usize,
    pub(super) total: usize,
    /// Places by length (index = length), and per cell the (length, place) pairs covering it.
    pub(super) places: Vec<Vec<Place>>,
    pub(super) places_at: Vec<Vec<(usize, usize)>>,
    /// What each cell adds to its lines' numbers when it holds a ship: 1, or its digit in
    /// Digital Battleships.
    pub(super) weight: Vec<usize>,
    /// Whether the lines' numbers are sums of digits (Digital Battleships).
    pub(super) digital: bool,
}

impl Solver {
    pub(super) fn new(p: &Problem) -> Result<Self, LogicUnsupported> {
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
            .map(|c| spec.clue(c).map_or(Know::Unknown, Know::of_clue))
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
            weight: (0..d.cells()).map(|c| spec.weight(c)).collect(),
            digital: spec.is_digital(),
        })
    }

    /// What the cells of `cells` that `keep` keeps add to their lines when ships.
    pub(super) fn weigh(&self, cells: &[usize], keep: impl Fn(usize) -> bool) -> usize {
        cells
            .iter()
            .filter(|&&c| keep(c))
            .map(|&c| self.weight[c])
            .sum()
    }

    pub(super) fn at(&self, g: &[Know], r: isize, c: isize) -> Know {
        match self.d.checked(r, c) {
            Some(i) => g[i],
            None => Know::Water,
        }
    }

    pub(super) fn name(&self, cell: usize) -> String {
        self.d.cell_name(cell)
    }

    /// Sets cells; records a step when anything changed; a contradiction when a decided cell
    /// differs. Returns whether the rule should stop.
    pub(super) fn decide(
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

    /// Ship cells per line (the sum of their digits in Digital Battleships).
    pub(super) fn ships_per_line(&self, g: &[Know]) -> Vec<usize> {
        self.lines
            .iter()
            .map(|l| self.weigh(&l.cells, |c| g[c] == Know::Ship))
            .collect()
    }

    /// The groups of known ship cells; a contradiction when one is not straight.
    pub(super) fn pieces(&self, g: &[Know]) -> Result<Vec<Piece>, Contradiction> {
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
    pub(super) fn remaining(&self, pieces: &[Piece]) -> Result<Vec<usize>, Contradiction> {
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
    pub(super) fn fits(&self, g: &[Know], ships: &[usize], place: &Place) -> bool {
        let mut new = 0;
        for &c in &place.cells {
            match g[c] {
                Know::Water => return false,
                Know::Unknown => {
                    new += self.weight[c];
                    let across = self.line_of[c][usize::from(place.along < self.d.height)];
                    if let Some(k) = self.lines[across].count
                        && ships[across] + self.weight[c] > k
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
        let fresh = place.cells.iter().any(|&c| g[c] == Know::Unknown);
        if !fresh && place.orth.iter().all(|&c| g[c] == Know::Water) {
            // A whole ship already found, not a place for one still to be found.
            return false;
        }
        self.lines[place.along]
            .count
            .is_none_or(|k| ships[place.along] + new <= k)
    }

    /// Checks the grid for a plain contradiction; returns the groups of found ship cells and
    /// the ships still to be found (valid until the grid changes).
    pub(super) fn check(&self, g: &[Know]) -> Result<(Vec<Piece>, Vec<usize>), Contradiction> {
        let ships = self.ships_per_line(g);
        for (i, line) in self.lines.iter().enumerate() {
            if let Some(k) = line.count {
                let open = self.weigh(&line.cells, |c| g[c] == Know::Unknown);
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
        // More ship cells than the fleet has (counted, not weighed).
        if g.iter().filter(|&&k| k == Know::Ship).count() > self.total {
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

    /// Applies tiers 1 to `max` until nothing changes.
    pub(super) fn propagate(&self, g: &mut [Know], max: u8, out: &mut Out) -> Found {
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
            if !out.changed || out.enough() {
                return Ok(());
            }
        }
    }
}
