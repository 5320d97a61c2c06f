//! An independent check that a layout solves a problem.
//!
//! [`layout()`] reads only the [`ProblemSpec`] (never the placement tables the engines share,
//! nor the clues derived from the shots), so it re-checks the engines rather than agreeing
//! with them by construction. Shots are checked from the record itself: misses, hits, sonar
//! distances, and the sinking rules in shot order.

use crate::clue::Clue;
use crate::layout::Layout;
use crate::observe::{ShotResult, Sinking};
use crate::placement::segment_at;
use crate::problem::ProblemSpec;
use crate::rules::Rules;
use crate::shape::Shape;

/// How a problem's recorded solution disagrees with what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordedMismatch {
    /// The recorded solution breaks the problem (each way, in words).
    #[error("the recorded solution is not valid: {}", .0.join("; "))]
    Invalid(Vec<String>),
    /// The puzzle has more than one solution, so the recorded one is not the answer.
    #[error("the puzzle has more than one solution, so the recorded one is not the only one")]
    NotUnique,
}

/// Checks that the solution recorded with `spec`, if any, solves it. (Whether it is the only
/// one takes an engine: [`crate::answer::recorded_mismatch`].)
pub fn recorded(spec: &ProblemSpec) -> Result<(), RecordedMismatch> {
    match spec.solution.as_ref() {
        Some(rec) => layout(spec, rec).map_err(RecordedMismatch::Invalid),
        None => Ok(()),
    }
}

/// Every way `layout` breaks `spec`; `Ok` when it is a solution.
pub fn layout(spec: &ProblemSpec, layout: &Layout) -> Result<(), Vec<String>> {
    let d = spec.dims;
    let mut errs = Vec::new();
    let mut owner: Vec<Option<usize>> = vec![None; d.cells()];
    let mut counts = vec![0usize; spec.fleet.types().len()];
    for (i, ship) in layout.ships.iter().enumerate() {
        let Some(t) = spec.fleet.types().get(ship.ty) else {
            errs.push(format!("ship {i} has unknown type {}", ship.ty));
            continue;
        };
        counts[ship.ty] += 1;
        if ship.cells.iter().any(|&c| c >= d.cells()) {
            errs.push(format!("ship {i} lies off the board"));
            continue;
        }
        match Shape::new(ship.cells.iter().map(|&c| d.row_col(c))) {
            Ok(s) if s.canonical() == t.shape.canonical() => {}
            _ => errs.push(format!("ship {i} is not a {}", t.name)),
        }
        for &c in &ship.cells {
            if let Some(j) = owner[c] {
                errs.push(format!("ships {j} and {i} overlap"));
            }
            owner[c] = Some(i);
        }
    }
    for (ty, t) in spec.fleet.types().iter().enumerate() {
        if counts[ty] != t.count {
            errs.push(format!(
                "{} ship(s) of type {} instead of {}",
                counts[ty], t.name, t.count
            ));
        }
    }
    if spec.rules == Rules::NoTouch {
        for c in 0..d.cells() {
            let Some(a) = owner[c] else { continue };
            for n in d.neighbours8(c) {
                if let Some(b) = owner[n]
                    && a < b
                {
                    errs.push(format!("ships {a} and {b} touch"));
                }
            }
        }
    }
    // A line's number: its ship cells, or in Digital Battleships the sum of their digits.
    let digital = !spec.digits.is_empty();
    let (unit, what) = if digital {
        ("a digit sum of ", "")
    } else {
        ("", " ship cells")
    };
    let line_total = |cells: &mut dyn Iterator<Item = usize>| -> usize {
        cells
            .filter(|&c| owner[c].is_some())
            .map(|c| {
                if digital {
                    usize::from(spec.digits[c])
                } else {
                    1
                }
            })
            .sum()
    };
    for r in 0..d.height {
        if let Some(k) = spec.row_count(r) {
            let n = line_total(&mut (0..d.width).map(|c| d.index(r, c)));
            if n != k {
                errs.push(format!("row {r} has {unit}{n}{what}, not {k}"));
            }
        }
    }
    for c in 0..d.width {
        if let Some(k) = spec.col_count(c) {
            let n = line_total(&mut (0..d.height).map(|r| d.index(r, c)));
            if n != k {
                errs.push(format!("column {c} has {unit}{n}{what}, not {k}"));
            }
        }
    }
    for (cell, &own) in owner.iter().enumerate() {
        let (r, c) = d.row_col(cell);
        let ok = match (spec.clue(cell), own) {
            (None, _) => true,
            (Some(Clue::Water | Clue::Blocked), o) => o.is_none(),
            (Some(Clue::Ship), o) => o.is_some(),
            (Some(Clue::Segment(s)), Some(i)) => {
                segment_at(d, &layout.ships[i].cells, cell) == Some(s)
            }
            (Some(Clue::Segment(_)), None) => false,
        };
        if !ok {
            errs.push(format!("the clue at row {r}, column {c} is not met"));
        }
    }
    check_shots(spec, layout, &owner, &mut errs);
    errs.dedup();
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

fn check_shots(
    spec: &ProblemSpec,
    layout: &Layout,
    owner: &[Option<usize>],
    errs: &mut Vec<String>,
) {
    let d = spec.dims;
    let obs = &spec.observations;
    // When each cell was shot, and whether the shot hit.
    let mut shot_at: Vec<Option<(usize, bool)>> = vec![None; d.cells()];
    let mut sunk_ship = vec![false; layout.ships.len()];
    for (i, shot) in obs.shots.iter().enumerate() {
        let hit = matches!(shot.result, ShotResult::Hit | ShotResult::Sunk { .. });
        shot_at[shot.cell] = Some((i, hit));
    }
    for (i, shot) in obs.shots.iter().enumerate() {
        let at = d.cell_name(shot.cell);
        let covering = owner[shot.cell];
        match &shot.result {
            ShotResult::Miss if covering.is_some() => {
                errs.push(format!("the miss at {at} is on a ship"))
            }
            ShotResult::Hit if covering.is_none() => {
                errs.push(format!("the hit at {at} is on water"))
            }
            ShotResult::Sonar { distance } => {
                let (r, c) = d.row_col(shot.cell);
                let nearest = layout
                    .cells()
                    .map(|x| {
                        let (r2, c2) = d.row_col(x);
                        r.abs_diff(r2) + c.abs_diff(c2)
                    })
                    .min();
                if nearest != Some(*distance) {
                    errs.push(format!(
                        "the sonar at {at} reads {distance}, the nearest ship is at {nearest:?}"
                    ));
                }
            }
            ShotResult::Sunk { ty, cells } => {
                let Some(s) = covering else {
                    errs.push(format!("the sinking at {at} is on water"));
                    continue;
                };
                if sunk_ship[s] {
                    errs.push(format!("the ship sunk at {at} was already reported sunk"));
                }
                sunk_ship[s] = true;
                let ship = &layout.ships[s];
                if ship.ty != *ty {
                    errs.push(format!(
                        "the ship sunk at {at} is not of the announced type"
                    ));
                }
                let before = |x: usize| shot_at[x].is_some_and(|(j, hit)| hit && j <= i);
                if !ship.cells.iter().all(|&x| before(x)) {
                    errs.push(format!("the ship sunk at {at} has a cell not hit by then"));
                }
                if obs.sinking == Sinking::Revealed && *cells != ship.cells {
                    errs.push(format!("the ship sunk at {at} is not the one revealed"));
                }
            }
            _ => {}
        }
    }
    if obs.sinking != Sinking::None {
        for (s, ship) in layout.ships.iter().enumerate() {
            let all_hit = ship.cells.iter().all(|&x| shot_at[x].is_some_and(|o| o.1));
            if all_hit && !sunk_ship[s] {
                errs.push(format!(
                    "the ship at {} is wholly hit but was not reported sunk",
                    d.cell_name(ship.cells[0])
                ));
            }
        }
    }
}
