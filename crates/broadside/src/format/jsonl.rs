//! The JSON-lines puzzle records of the external puzzle collections (one puzzle per line).
//!
//! Fields: `id`, `source`, `height`, `width`, `rows`, `cols` (ship cells per row and column),
//! `fleet` (length to count, e.g. `{"1": 4, "2": 3}`), `hints` (`[row, col, code]`, 0-based,
//! codes `W` water, `S` single, `M` middle, `U` top end, `D` bottom end, `L` left end, `R` right
//! end, `X` unknown segment) and `solution` (rows of `. o ^ v < > m`). Other fields are
//! ignored. The rules are always no-touch.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::problem::{Meta, ProblemSpec};
use crate::rules::Rules;
use crate::shape::{Segment, Shape};

use super::ParseError;

#[derive(Deserialize)]
struct Record {
    id: Option<String>,
    source: Option<String>,
    height: usize,
    width: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    fleet: BTreeMap<String, usize>,
    #[serde(default)]
    hints: Vec<(usize, usize, String)>,
    #[serde(default)]
    solution: Vec<String>,
}

/// The clue of a hint code.
fn hint(code: &str) -> Option<Clue> {
    Some(match code {
        "W" => Clue::Water,
        "S" => Clue::Segment(Segment::Single),
        "M" => Clue::Segment(Segment::Middle),
        "U" => Clue::Segment(Segment::Top),
        "D" => Clue::Segment(Segment::Bottom),
        "L" => Clue::Segment(Segment::Left),
        "R" => Clue::Segment(Segment::Right),
        "X" => Clue::Ship,
        _ => return None,
    })
}

fn record(line: &str, ln: usize) -> Result<ProblemSpec, ParseError> {
    let r: Record = serde_json::from_str(line).map_err(|e| ParseError::from_json(&e, ln - 1))?;
    let err = |m: String| ParseError::new(ln, 1, m);
    let dims = Dims::new(r.width, r.height)
        .supported()
        .map_err(|e| ParseError::new(ln, 1, e))?;
    let mut entries = Vec::new();
    for (len, n) in &r.fleet {
        let l: usize = len
            .parse()
            .ok()
            .filter(|&l| l > 0 && l <= 4096)
            .ok_or_else(|| err(format!("fleet: {len:?} is not a ship length")))?;
        entries.push((Shape::straight(l), *n, l.to_string()));
    }
    let fleet = Fleet::new(entries);
    let mut clues = vec![None; if r.hints.is_empty() { 0 } else { dims.cells() }];
    for (row, col, code) in &r.hints {
        if *row >= r.height || *col >= r.width {
            return Err(err(format!("hint at ({row}, {col}) is off the board")));
        }
        let c = hint(code).ok_or_else(|| err(format!("unknown hint code {code:?}")))?;
        clues[dims.index(*row, *col)] = Some(c);
    }
    let solution = if r.solution.is_empty() {
        None
    } else {
        Some(
            Layout::from_rows(&r.solution, dims, &fleet)
                .map_err(|e| err(format!("solution: {e}")))?,
        )
    };
    Ok(ProblemSpec {
        dims,
        fleet,
        rules: Rules::NoTouch,
        rows: r.rows.into_iter().map(Some).collect(),
        cols: r.cols.into_iter().map(Some).collect(),
        clues,
        solution,
        observations: Default::default(),
        progress: Vec::new(),
        digits: Vec::new(),
        meta: Meta {
            name: r.id,
            source: r.source,
        },
    })
}

/// Parses every record; blank lines are skipped.
pub fn parse(input: &str) -> Result<Vec<ProblemSpec>, ParseError> {
    input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| record(l, i + 1).and_then(|spec| super::described(spec, i + 1)))
        .collect()
}
