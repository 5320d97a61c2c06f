//! The XCSP3/PyCSP3 Battleships JSON.
//!
//! `{"fleet": [{"size": 4, "cnt": 1}, ...], "hints": [{"type": "c", "row": 7, "col": 10}, ...],
//! "rowSums": [...], "colSums": [...]}`: rows and columns are 1-based; hint types `w` water,
//! `c` circle (single), `l`/`r` left/right end, `t`/`b` top/bottom end, `m` middle. The board
//! size comes from the sums. The rules are no-touch.

use serde::Deserialize;

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::problem::{Meta, ProblemSpec};
use crate::rules::Rules;
use crate::shape::{Segment, Shape};

use super::ParseError;

#[derive(Deserialize)]
struct Ship {
    size: usize,
    cnt: usize,
}

#[derive(Deserialize)]
struct Hint {
    #[serde(rename = "type")]
    kind: String,
    row: usize,
    col: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Doc {
    fleet: Vec<Ship>,
    #[serde(default)]
    hints: Vec<Hint>,
    row_sums: Vec<usize>,
    col_sums: Vec<usize>,
}

/// Parses one XCSP3/PyCSP3 Battleships instance.
pub fn parse(input: &str) -> Result<ProblemSpec, ParseError> {
    let doc: Doc = serde_json::from_str(input).map_err(|e| ParseError::from_json(&e, 0))?;
    let err = |m: String| ParseError::new(1, 1, m);
    let dims = Dims::new(doc.col_sums.len(), doc.row_sums.len())
        .supported()
        .map_err(|e| ParseError::new(1, 1, e))?;
    let mut entries = Vec::new();
    for s in &doc.fleet {
        if s.size == 0 || s.size > 4096 {
            return Err(err(format!("fleet: ship size {} is not supported", s.size)));
        }
        entries.push((Shape::straight(s.size), s.cnt, s.size.to_string()));
    }
    let mut clues = if doc.hints.is_empty() {
        Vec::new()
    } else {
        vec![None; dims.cells()]
    };
    for h in &doc.hints {
        if h.row == 0 || h.col == 0 || h.row > dims.height || h.col > dims.width {
            return Err(err(format!(
                "hint at row {}, col {} is off the board (1-based)",
                h.row, h.col
            )));
        }
        let clue = match h.kind.as_str() {
            "w" => Clue::Water,
            "c" => Clue::Segment(Segment::Single),
            "l" => Clue::Segment(Segment::Left),
            "r" => Clue::Segment(Segment::Right),
            "t" => Clue::Segment(Segment::Top),
            "b" => Clue::Segment(Segment::Bottom),
            "m" => Clue::Segment(Segment::Middle),
            k => return Err(err(format!("unknown hint type {k:?}"))),
        };
        clues[dims.index(h.row - 1, h.col - 1)] = Some(clue);
    }
    Ok(ProblemSpec {
        dims,
        fleet: Fleet::new(entries),
        rules: Rules::NoTouch,
        rows: doc.row_sums.into_iter().map(Some).collect(),
        cols: doc.col_sums.into_iter().map(Some).collect(),
        clues,
        solution: None,
        observations: Default::default(),
        progress: Vec::new(),
        digits: Vec::new(),
        meta: Meta::default(),
    })
}
