//! Why no layout fits: the obvious conflicts of a problem and, for a game record, a smallest
//! set of shots that cannot all be true.
//!
//! [`Problem::conflicts`] finds reasons ([`Conflict`]) without search; [`conflicting_shots`]
//! searches, one consistency check per shot, for the shots at fault. [`no_layout`] gathers both
//! into the [`NoLayout`] report that `probs`, `best`, `sample` and `validate` give when no
//! layout fits; its `Display` is how every surface says so.

use serde::Serialize;

use crate::clue::Clue;
pub use crate::conflict::Conflict;
use crate::engine::Enumerator;
use crate::observe::ShotResult;
use crate::observe::print_shot;
use crate::problem::{Problem, ProblemSpec};
use crate::rules::Rules;

impl Problem {
    /// The packing bound of the no-touch rule ([`Conflict::Packing`]), over the four ways to
    /// tile the board with 2x2 blocks (the first block at an even or odd row and column):
    /// the conflict when some tiling has fewer blocks that may hold a ship than the fleet
    /// covers at least. `coverable` says which cells some allowed placement covers.
    fn packing(&self, coverable: &[bool]) -> Option<Conflict> {
        let s = self.spec();
        let d = s.dims;
        for (dr, dc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let block = |cell: usize| {
                let (r, c) = d.row_col(cell);
                ((r + dr) / 2, (c + dc) / 2)
            };
            let mut usable = std::collections::HashSet::new();
            for cell in (0..d.cells()).filter(|&c| coverable[c]) {
                usable.insert(block(cell));
            }
            let mut needed = 0;
            for (ty, t) in s.fleet.types().iter().enumerate() {
                let least = self
                    .placements(ty)
                    .iter()
                    .map(|p| {
                        let mut blocks: Vec<(usize, usize)> =
                            p.cells.iter().map(|&c| block(c)).collect();
                        blocks.sort_unstable();
                        blocks.dedup();
                        blocks.len()
                    })
                    .min()
                    .unwrap_or(0);
                needed += least * t.count;
            }
            if needed > usable.len() {
                return Some(Conflict::Packing {
                    needed,
                    blocks: usable.len(),
                });
            }
        }
        None
    }

    /// The obvious reasons this problem has no solution; empty when none is seen (which does
    /// not mean it has one).
    pub fn conflicts(&self) -> Vec<Conflict> {
        let s = self.spec();
        let d = s.dims;
        let mut out = self.shot_conflicts().to_vec();
        let fleet_cells = s.fleet.cell_count();
        let all = |v: &[Option<usize>], n: usize| {
            (v.len() == n && v.iter().all(Option::is_some)).then(|| v.iter().flatten().sum())
        };
        let rows_sum: Option<usize> = all(&s.rows, d.height);
        let cols_sum: Option<usize> = all(&s.cols, d.width);
        if let (Some(r), Some(c)) = (rows_sum, cols_sum)
            && r != c
        {
            out.push(Conflict::RowColSums { rows: r, cols: c });
        }
        // In Digital Battleships the numbers are digit sums: they add up to no number of cells.
        for (what, sum) in [("row", rows_sum), ("column", cols_sum)] {
            if let Some(sum) = sum
                && sum != fleet_cells
                && !s.is_digital()
            {
                out.push(Conflict::FleetSum {
                    what,
                    sum,
                    fleet: fleet_cells,
                });
            }
        }
        for (ty, t) in s.fleet.types().iter().enumerate() {
            if self.placements(ty).len() < t.count {
                out.push(Conflict::NoRoom {
                    name: t.name.clone(),
                    count: t.count,
                    placements: self.placements(ty).len(),
                });
            }
        }
        let mut coverable = vec![false; d.cells()];
        for p in (0..s.fleet.types().len()).flat_map(|ty| self.placements(ty)) {
            for &c in &p.cells {
                coverable[c] = true;
            }
        }
        for cell in self.required_cells() {
            if !coverable[cell] {
                let shot = s.observations.shots.iter().find(|x| {
                    x.cell == cell
                        && !matches!(x.result, ShotResult::Miss | ShotResult::Sonar { .. })
                });
                let given = self.given().clue(cell).is_some_and(Clue::is_ship);
                out.push(match shot {
                    Some(x) if !given => Conflict::UncoverableShot(print_shot(d, &s.fleet, x)),
                    _ => {
                        let (row, col) = d.row_col(cell);
                        Conflict::Uncoverable {
                            row,
                            col,
                            clue: s.clue(cell).map_or('*', Clue::symbol),
                        }
                    }
                });
            }
        }
        if s.rules == Rules::NoTouch
            && let Some(c) = self.packing(&coverable)
        {
            out.push(c);
        }
        let lines = [("row", d.height, &s.rows), ("column", d.width, &s.cols)];
        for (what, n, counts) in lines.into_iter().filter(|_| !s.is_digital()) {
            for index in 0..n {
                let Some(count) = counts.get(index).copied().flatten() else {
                    continue;
                };
                let in_line = |cell: usize| {
                    let (r, c) = d.row_col(cell);
                    if what == "row" {
                        r == index
                    } else {
                        c == index
                    }
                };
                let cells = (0..d.cells()).filter(|&c| in_line(c));
                let room = cells.clone().filter(|&c| coverable[c]).count();
                let clued = cells
                    .filter(|&c| s.clue(c).is_some_and(Clue::is_ship))
                    .count();
                if clued > count {
                    out.push(Conflict::LineOverfull {
                        what,
                        index,
                        count,
                        clued,
                    });
                } else if room < count {
                    out.push(Conflict::LineTooFull {
                        what,
                        index,
                        count,
                        room,
                    });
                }
            }
        }
        let sonars = s.observations.shots.iter().filter_map(|x| match x.result {
            ShotResult::Sonar { distance } => Some((x.cell, distance)),
            _ => None,
        });
        for (ring, (cell, distance)) in self.any_of().iter().zip(sonars) {
            if !ring.iter().any(|&c| coverable[c]) {
                out.push(Conflict::SonarRing {
                    sonar: d.cell_name(cell),
                    distance,
                });
            }
        }
        // Diagonal neighbours can belong to one polyomino, so this holds for straight fleets.
        if s.rules == Rules::NoTouch && s.fleet.is_straight() {
            for cell in self.required_cells() {
                let (r, c) = d.row_col(cell);
                for dc in [-1isize, 1] {
                    if let Some(n) = d.checked(r as isize + 1, c as isize + dc)
                        && s.clue(n).is_some_and(Clue::is_ship)
                    {
                        let (r2, c2) = d.row_col(n);
                        out.push(Conflict::DiagonalClues(r, c, r2, c2));
                    }
                }
            }
        }
        out
    }
}

/// The answer "no layout is consistent", with what can be said of why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoLayout {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always 0: no layout fits.
    pub layouts: u8,
    /// The obvious conflicts ([`Problem::conflicts`]), as sentences.
    pub reasons: Vec<String>,
    /// Shots any one of which, dropped from the record, leaves a record that some layout
    /// fits, as the record writes them.
    pub culprits: Vec<String>,
    /// A smallest set of shots that cannot all be true together (the record cut to these
    /// shots, in their order, fits no layout, and without any one of them it does); empty
    /// when the shots are not what makes the problem inconsistent, or no such set was found.
    pub conflicting_shots: Vec<String>,
    /// All of it in one line, as every surface says it (the report's `Display`).
    pub message: String,
}

impl NoLayout {
    /// The answer in words, before the reasons.
    pub const HEADLINE: &'static str = "no layout is consistent with these shots";

    /// What can be said of why, a sentence a line: the conflicts, then the shots at fault.
    pub fn why(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .reasons
            .iter()
            .map(|r| format!("because {r}"))
            .collect();
        if !self.culprits.is_empty() {
            lines.push(format!(
                "drop any one of these shots and a layout fits the rest: {}",
                self.culprits.join(", ")
            ));
        }
        // A shot whose removal alone fixes the record says more than a set that is impossible
        // on its own, so the set is given only when there is no such shot.
        if self.culprits.is_empty() && !self.conflicting_shots.is_empty() {
            lines.push(format!(
                "these shots cannot all be true together (any of them without one can): {}",
                self.conflicting_shots.join(", ")
            ));
        }
        lines
    }
}

impl std::fmt::Display for NoLayout {
    /// The headline, then what can be said of why, separated by semicolons.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(NoLayout::HEADLINE)?;
        for line in self.why() {
            write!(f, "; {line}")?;
        }
        Ok(())
    }
}

/// Why `problem` has no layout: its obvious conflicts and the shots at fault, when the shots
/// are. Call it on a problem known to have no layout; finding the shots costs a few
/// consistency checks per shot.
pub fn no_layout(problem: &Problem) -> NoLayout {
    let spec = problem.given();
    let print = |v: &[usize]| -> Vec<String> {
        v.iter()
            .map(|&i| print_shot(spec.dims, &spec.fleet, &spec.observations.shots[i]))
            .collect()
    };
    let mut no = NoLayout {
        name: spec.meta.name.clone(),
        layouts: 0,
        reasons: problem.conflicts().iter().map(|c| c.to_string()).collect(),
        culprits: print(&culprits(spec)),
        conflicting_shots: print(&conflicting_shots(spec).unwrap_or_default()),
        message: String::new(),
    };
    no.message = no.to_string();
    no
}

/// Whether the record cut to the shots `keep` (indices, in order) fits some layout; `None`
/// when that record is not a possible one (a sunk report whose ship was never hit, say).
fn fits(spec: &ProblemSpec, keep: &[usize]) -> Option<bool> {
    let mut s = spec.clone();
    s.observations.shots = keep
        .iter()
        .map(|&i| spec.observations.shots[i].clone())
        .collect();
    s.solution = None;
    let p = s.build().ok()?;
    Some(p.conflicts().is_empty() && Enumerator::new(&p).count_up_to(1).count > 0)
}

/// The shots (indices into `spec.observations.shots`) any one of which, dropped from the
/// record, leaves a record that some layout fits: one consistency check per shot.
pub fn culprits(spec: &ProblemSpec) -> Vec<usize> {
    let n = spec.observations.shots.len();
    (0..n)
        .filter(|&i| {
            let rest: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            fits(spec, &rest) == Some(true)
        })
        .collect()
}

/// A smallest set of shots (indices into `spec.observations.shots`) that cannot all be true:
/// the record cut to them fits no layout, and cut to them without any one it does (with the
/// rest of the problem as it is). `None` when the problem without any shot already has no
/// layout, when it has one with all its shots, or when no such set is found.
///
/// Deletion-based: each shot is dropped in turn and kept out if the rest is still a possible
/// record that fits no layout; so the set shrinks through possible records only (dropping a
/// hit can make a later sunk report impossible, which says nothing about the other shots).
/// The set found is checked before it is returned. It costs a consistency check per shot.
pub fn conflicting_shots(spec: &ProblemSpec) -> Option<Vec<usize>> {
    let all: Vec<usize> = (0..spec.observations.shots.len()).collect();
    if all.is_empty() || fits(spec, &all) != Some(false) || fits(spec, &[]) != Some(true) {
        return None;
    }
    let mut keep = all;
    let mut i = 0;
    while i < keep.len() {
        let mut without = keep.clone();
        without.remove(i);
        if fits(spec, &without) == Some(false) {
            keep = without;
        } else {
            i += 1;
        }
    }
    let each_needed = (0..keep.len()).all(|i| {
        let mut without = keep.clone();
        without.remove(i);
        fits(spec, &without) == Some(true)
    });
    each_needed.then_some(keep)
}
