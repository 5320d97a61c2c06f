//! An independent check that a layout solves a problem.
//!
//! [`check`] reads only the [`ProblemSpec`] (never the placement tables the engines share),
//! so it re-checks the engines rather than agreeing with them by construction.

use crate::clue::Clue;
use crate::layout::Layout;
use crate::problem::{ProblemSpec, segment_at};
use crate::rules::Rules;
use crate::shape::Shape;

/// Every way `layout` breaks `spec`; `Ok` when it is a solution.
pub fn check(spec: &ProblemSpec, layout: &Layout) -> Result<(), Vec<String>> {
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
    for r in 0..d.height {
        if let Some(k) = spec.row_count(r) {
            let n = (0..d.width)
                .filter(|&c| owner[d.index(r, c)].is_some())
                .count();
            if n != k {
                errs.push(format!("row {r} has {n} ship cells, not {k}"));
            }
        }
    }
    for c in 0..d.width {
        if let Some(k) = spec.col_count(c) {
            let n = (0..d.height)
                .filter(|&r| owner[d.index(r, c)].is_some())
                .count();
            if n != k {
                errs.push(format!("column {c} has {n} ship cells, not {k}"));
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
    errs.dedup();
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}
