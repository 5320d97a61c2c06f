//! Hunt-target and its hunting patterns, and what a hunter knows of each cell ([`Marks`]),
//! which density and the exact shooters share.

use rand::Rng;
use rand::RngExt;

use super::{Shooter, any, open, shuffle};
use crate::observe::{Shot, ShotResult, Sinking};
use crate::play::game::Setup;

/// Where hunt-target hunts when no hit is open.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Hunt {
    /// Anywhere.
    Any,
    /// On one colour of a checkerboard.
    Colour,
    /// On one colour, in Sakuta & Iida's four passes.
    Passes,
    /// In Sakuta & Iida's four knight-move passes, then anywhere.
    Knight,
}

/// Hunt-target; `offset` is drawn at the first shot (row and column shifts, 0 to 3; 0 to 7
/// for the knight passes, whose pattern repeats every 8 rows and columns).
///
/// The hunt order is drawn once per game: the cells by pass, in random order within a pass
/// (cells of no pass last). Each hunting shot takes the first cell of that order still open,
/// which is uniform among the open cells of the earliest pass that has any, as if drawn afresh.
pub(super) struct HuntTarget {
    hunt: Hunt,
    marks: Marks,
    order: Vec<usize>,
    /// Cells of `order` before this are not open.
    next: usize,
    /// Scratch for the targeting candidates.
    ends: Vec<usize>,
    neighbours: Vec<usize>,
}

/// Which of Sakuta & Iida's checkerboard passes (0 for A to 3 for D) a cell is in, after shifting it by
/// `offset`; `None` for the other colour. A holds every fourth diagonal on even rows, then B,
/// C and D fill in between (its figure 4).
fn pass(r: usize, c: usize, offset: (usize, usize)) -> Option<usize> {
    let (r, c) = (r + offset.0, c + offset.1);
    match ((r + c) % 4, r % 2) {
        (1, 0) => Some(0),
        (3, 1) => Some(1),
        (3, 0) => Some(2),
        (1, 1) => Some(3),
        _ => None,
    }
}

/// Which of Sakuta & Iida's knight-checkerboard passes (0 for A to 3 for D) a cell is in, after
/// shifting it by `offset`; `None` for the three cells in four outside them. The A cells of
/// row `2k` are at column `1 + 3k` modulo 8, D four columns on; B and C, on the odd row
/// below, are a knight's move from A (two columns left and right). So each row holds one
/// cell in four, a column one in four, and every straight run of four cells in a row, or
/// of five in a column, holds one. This is the seed's figure 5 read from its text, where two
/// cells sit a column off that lattice (taken as slips of the extraction).
fn knight(r: usize, c: usize, offset: (usize, usize)) -> Option<usize> {
    let (r, c) = (r + offset.0, c + offset.1);
    let a = (1 + 3 * (r / 2)) % 8;
    match (r % 2, (c + 8 - a) % 8) {
        (0, 0) => Some(0),
        (1, 6) => Some(1),
        (1, 2) => Some(2),
        (0, 4) => Some(3),
        _ => None,
    }
}

/// What a hunter knows of each cell.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    Open,
    Miss,
    /// A hit on a ship not known to be sunk.
    Wounded,
    /// A hit on a ship known to be sunk.
    Sunk,
}

/// What a shooter knows of each cell, brought up to date with the shots it has not seen
/// yet, so a game costs one pass over its shots in all.
///
/// A ship reported sunk without its cells (announced) is taken to be the line of wounded
/// cells through the sinking shot, as long as the ship, that the shot ends; when no such line
/// is seen its cells stay wounded. Under [`Sinking::None`] nothing is ever known to be sunk.
#[derive(Default)]
pub(super) struct Marks {
    m: Vec<Mark>,
    pub(super) seen: usize,
    /// The cells the last update wrote (a cell may be listed more than once), unless it
    /// started again from no shots (`restarted`).
    pub(super) changed: Vec<usize>,
    pub(super) restarted: bool,
}

impl Clone for Marks {
    fn clone(&self) -> Marks {
        let mut marks = Marks::default();
        marks.clone_from(self);
        marks
    }

    /// Copies into this one's buffers.
    fn clone_from(&mut self, source: &Marks) {
        let Marks {
            m,
            seen,
            changed,
            restarted,
        } = source;
        self.m.clone_from(m);
        self.seen = *seen;
        self.changed.clone_from(changed);
        self.restarted = *restarted;
    }
}

impl Marks {
    /// The marks after `shots`, the shots of the same game so far.
    pub(super) fn update(&mut self, setup: &Setup, shots: &[Shot]) -> &[Mark] {
        self.changed.clear();
        self.restarted = self.m.len() != setup.dims.cells() || shots.len() < self.seen;
        if self.restarted {
            self.m = vec![Mark::Open; setup.dims.cells()];
            for &r in &setup.rocks {
                self.m[r] = Mark::Miss;
            }
            self.seen = 0;
        }
        for s in &shots[self.seen..] {
            apply(setup, &mut self.m, s, &mut self.changed);
        }
        self.seen = shots.len();
        &self.m
    }

    /// The marks after the shots of the last update.
    pub(super) fn current(&self) -> &[Mark] {
        &self.m
    }
}

/// What one shot says of the cells; the cells written are added to `changed`.
fn apply(setup: &Setup, m: &mut [Mark], s: &Shot, changed: &mut Vec<usize>) {
    let d = setup.dims;
    changed.push(s.cell);
    match &s.result {
        ShotResult::Miss | ShotResult::Sonar { .. } => m[s.cell] = Mark::Miss,
        ShotResult::Hit => m[s.cell] = Mark::Wounded,
        ShotResult::Sunk { .. } if setup.sinking == Sinking::None => m[s.cell] = Mark::Wounded,
        ShotResult::Sunk { ty, cells } => {
            m[s.cell] = Mark::Wounded;
            if !cells.is_empty() {
                for &c in cells {
                    m[c] = Mark::Sunk;
                }
                changed.extend_from_slice(cells);
                return;
            }
            let Some(len) = setup.fleet.types()[*ty].shape.straight_len() else {
                return;
            };
            if let Some(line) = sunk_line(d, m, s.cell, len) {
                for &x in &line {
                    m[x] = Mark::Sunk;
                }
                changed.extend(line);
            }
        }
    }
}

/// The cells a ship of `len` cells sunk by the shot at `x` is credited to: a straight line of
/// wounded cells through `x`. One that `x` ends is preferred (the shot that finishes a line
/// of hits), left, right, up and down in that order; then, as the public mayflower engine
/// does, one along the axis with the longer run of wounded cells through `x`. `None` when no
/// such line is seen (the cells then stay wounded).
fn sunk_line(d: crate::geom::Dims, m: &[Mark], x: usize, len: usize) -> Option<Vec<usize>> {
    let (r, c) = d.row_col(x);
    let (r, c) = (r as isize, c as isize);
    let line = |dr: isize, dc: isize, from: isize| -> Option<Vec<usize>> {
        (from..from + len as isize)
            .map(|k| {
                d.checked(r + dr * k, c + dc * k)
                    .filter(|&y| m[y] == Mark::Wounded)
            })
            .collect()
    };
    for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
        if let Some(cells) = line(dr, dc, 0) {
            return Some(cells);
        }
    }
    // The run of wounded cells through `x` along (dr, dc), and the lines inside it.
    let run = |dr: isize, dc: isize| {
        let wounded = |k: isize| {
            d.checked(r + dr * k, c + dc * k)
                .is_some_and(|y| m[y] == Mark::Wounded)
        };
        let (mut lo, mut hi) = (0, 0);
        while wounded(lo - 1) {
            lo -= 1;
        }
        while wounded(hi + 1) {
            hi += 1;
        }
        (hi - lo + 1, lo)
    };
    let mut axes = [(0, 1), (1, 0)].map(|(dr, dc)| (run(dr, dc), dr, dc));
    axes.sort_by_key(|&((n, _), _, _)| std::cmp::Reverse(n));
    axes.into_iter()
        .filter(|&((n, _), _, _)| n >= len as isize)
        .find_map(|((_, lo), dr, dc)| line(dr, dc, lo.max(1 - len as isize)))
}

impl HuntTarget {
    pub(super) fn new(hunt: Hunt) -> Self {
        HuntTarget {
            hunt,
            marks: Marks::default(),
            order: Vec::new(),
            next: 0,
            ends: Vec::new(),
            neighbours: Vec::new(),
        }
    }
}

impl Shooter for HuntTarget {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        let d = setup.dims;
        if self.order.len() != d.cells() || shots.len() < self.marks.seen {
            self.draw_order(setup, rng);
        }
        let m = self.marks.update(setup, shots);
        let at = |r: isize, c: isize| d.checked(r, c).filter(|&x| m[x] == Mark::Open);
        // Target: extend a line of two or more wounded cells at an open end.
        let (ends, neighbours) = (&mut self.ends, &mut self.neighbours);
        ends.clear();
        neighbours.clear();
        for x in (0..d.cells()).filter(|&x| m[x] == Mark::Wounded) {
            let (r, c) = d.row_col(x);
            let (r, c) = (r as isize, c as isize);
            for (dr, dc) in [(0, 1), (1, 0)] {
                let wounded = |k: isize| {
                    d.checked(r + dr * k, c + dc * k)
                        .is_some_and(|y| m[y] == Mark::Wounded)
                };
                // `x` starts a run of at least two along (dr, dc).
                if wounded(1) && !wounded(-1) {
                    let mut k = 1;
                    while wounded(k + 1) {
                        k += 1;
                    }
                    ends.extend(at(r - dr, c - dc));
                    ends.extend(at(r + dr * (k + 1), c + dc * (k + 1)));
                }
            }
            for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                neighbours.extend(at(r + dr, c + dc));
            }
        }
        if !ends.is_empty() {
            return any(ends, rng);
        }
        if !neighbours.is_empty() {
            return any(neighbours, rng);
        }
        // Hunt: the first cell of the order still open.
        while self.next < self.order.len() && m[self.order[self.next]] != Mark::Open {
            self.next += 1;
        }
        match self.order.get(self.next) {
            Some(&cell) => cell,
            // Only when every cell is fired at, which a game never asks.
            None => any(&open(setup, shots), rng),
        }
    }
}

impl HuntTarget {
    /// Draws the game's hunt order (see the type's documentation), after a random offset of
    /// the passes.
    fn draw_order(&mut self, setup: &Setup, rng: &mut dyn Rng) {
        let d = setup.dims;
        let period = if self.hunt == Hunt::Knight { 8 } else { 4 };
        let offset = (rng.random_range(0..period), rng.random_range(0..period));
        let class = |x: usize| {
            let (r, c) = d.row_col(x);
            match self.hunt {
                Hunt::Any => Some(0),
                Hunt::Colour => ((r + c + offset.0) % 2 == 1).then_some(0),
                Hunt::Passes => pass(r, c, offset),
                Hunt::Knight => knight(r, c, offset),
            }
        };
        self.order = (0..d.cells()).collect();
        shuffle(&mut self.order, rng);
        // Stable: random within a pass; `None` (no pass) sorts last.
        self.order.sort_by_key(|&x| class(x).unwrap_or(usize::MAX));
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::knight;

    /// The knight passes hold one cell in four, meet every run of four cells in a row and of
    /// five in a column, and match the seed's figure 5 where its text is unambiguous.
    #[test]
    fn knight_passes_cover_what_they_claim() {
        for offset in [(0, 0), (3, 5), (7, 7)] {
            let on = |r: usize, c: usize| knight(r, c, offset).is_some();
            for r in 0..16 {
                assert_eq!((0..16).filter(|&c| on(r, c)).count(), 4);
                for c in 0..13 {
                    assert!((c..c + 4).any(|x| on(r, x)), "row {r} from {c}");
                }
            }
            for c in 0..16 {
                for r in 0..12 {
                    assert!((r..r + 5).any(|y| on(y, c)), "column {c} from {r}");
                }
            }
        }
        // Figure 5, rows 0, 2, 4, 5 and 6: A D / D A / D A / C B / A D.
        let row = |r: usize| -> Vec<(usize, usize)> {
            (0..8)
                .filter_map(|c| knight(r, c, (0, 0)).map(|p| (c, p)))
                .collect()
        };
        assert_eq!(row(0), [(1, 0), (5, 3)]);
        assert_eq!(row(2), [(0, 3), (4, 0)]);
        assert_eq!(row(4), [(3, 3), (7, 0)]);
        assert_eq!(row(5), [(1, 2), (5, 1)]);
        assert_eq!(row(6), [(2, 0), (6, 3)]);
    }
}
