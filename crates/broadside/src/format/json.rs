//! broadside's JSON problem format: the text format's content as one object.
//!
//! ```json
//! {"name": "tiny", "width": 4, "height": 3, "rules": "no-touch", "fleet": "2 1",
//!  "rows": [2, 0, 1], "cols": [1, 1, null, 1],
//!  "grid": ["<...", "....", "...."], "solution": ["<>..", "....", "...o"]}
//! ```
//!
//! `grid` rows use the text format's cell symbols; `rows` and `cols` may hold `null` for an
//! unknown count, and may be omitted, like `grid`, `progress` (a person's marks, one string
//! per row, as the text format's `progress:` section), `solution`, `name`, `source` and
//! `shapes` (an object from polyomino name to art, e.g. `{"L": "#./##"}`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::problem::{Meta, ProblemSpec};
use crate::progress::Know;
use crate::rules::Rules;
use crate::shape::Shape;

use super::ParseError;

/// The serialised form of a [`ProblemSpec`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct JsonProblem {
    /// Identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Attribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `touch` or `no-touch`.
    #[serde(default)]
    pub rules: Rules,
    /// The fleet syntax.
    pub fleet: String,
    /// Polyomino declarations, name to art.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub shapes: BTreeMap<String, String>,
    /// Row counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<Option<usize>>,
    /// Column counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cols: Vec<Option<usize>>,
    /// Clue symbols, one string per row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grid: Vec<String>,
    /// How sinkings are reported: `none`, `announced` or `revealed`.
    #[serde(default, skip_serializing_if = "is_none_sinking")]
    pub sinking: String,
    /// The shots in order, as the text format writes them (`"B5 hit"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shots: Vec<String>,
    /// A person's marks, one string per row of `.`, `~` and `*` (segment symbols read as `*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<String>,
    /// Digital Battleships: one string per row of its cells' digits (`"716265"`, spaces
    /// allowed); `rows` and `cols` are then sums of the digits under the ships.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub digits: Vec<String>,
    /// A solution in the layout grid form.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solution: Vec<String>,
}

impl JsonProblem {
    /// The serialised form of a spec.
    pub fn from_spec(spec: &ProblemSpec) -> JsonProblem {
        let d = spec.dims;
        let grid = if spec.clues.is_empty() {
            Vec::new()
        } else {
            (0..d.height)
                .map(|r| {
                    (0..d.width)
                        .map(|c| spec.clue(d.index(r, c)).map_or('.', Clue::symbol))
                        .collect()
                })
                .collect()
        };
        JsonProblem {
            name: spec.meta.name.clone(),
            source: spec.meta.source.clone(),
            width: d.width,
            height: d.height,
            rules: spec.rules,
            fleet: spec.fleet.describe(),
            shapes: spec
                .fleet
                .polyominoes()
                .map(|t| (t.name.clone(), t.shape.art()))
                .collect(),
            rows: spec.rows.clone(),
            cols: spec.cols.clone(),
            grid,
            sinking: spec.observations.sinking.to_string(),
            shots: spec
                .observations
                .shots
                .iter()
                .map(|s| crate::observe::print_shot(d, &spec.fleet, s))
                .collect(),
            progress: crate::progress::rows(&spec.progress, d.width),
            digits: spec
                .digits
                .chunks(d.width)
                .map(|row| row.iter().map(u8::to_string).collect())
                .collect(),
            solution: spec
                .solution
                .as_ref()
                .map(|s| s.to_rows(d, &spec.fleet))
                .unwrap_or_default(),
        }
    }

    /// The spec; errors name the field at fault (a JSON problem is one value, so they are
    /// placed at its start).
    pub fn into_spec(self) -> Result<ProblemSpec, ParseError> {
        self.spec().map_err(|m| ParseError::new(1, 1, m))
    }

    fn spec(self) -> Result<ProblemSpec, String> {
        let dims = Dims::new(self.width, self.height)
            .supported()
            .map_err(|e| e.to_string())?;
        let shapes = self
            .shapes
            .iter()
            .map(|(n, art)| {
                Shape::parse_art(art)
                    .map(|s| (n.clone(), s))
                    .map_err(|e| format!("shape {n}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let fleet = Fleet::parse(&self.fleet, &shapes).map_err(|e| format!("fleet: {e}"))?;
        let mut clues = symbol_rows(&self.grid, dims, "grid", "cells", |ch| match ch {
            '.' => Ok(None),
            _ => Clue::from_symbol(ch)
                .map(Some)
                .ok_or_else(|| format!("unknown cell symbol {ch:?}")),
        })?;
        if clues.iter().all(Option::is_none) {
            clues.clear();
        }
        let progress = symbol_rows(&self.progress, dims, "progress", "cells", |ch| {
            Know::from_symbol(ch).ok_or_else(|| format!("unknown progress symbol {ch:?}"))
        })?;
        let digits = symbol_rows(&self.digits, dims, "digits", "digits", |ch| {
            ch.to_digit(10)
                .map(|d| d as u8)
                .ok_or_else(|| format!("expected a digit 0 to 9, found {ch:?}"))
        })?;
        let solution = if self.solution.is_empty() {
            None
        } else {
            Some(
                Layout::from_rows(&self.solution, dims, &fleet)
                    .map_err(|e| format!("solution: {e}"))?,
            )
        };
        let observations = crate::observe::Observations {
            sinking: if self.sinking.is_empty() {
                Default::default()
            } else {
                self.sinking
                    .parse()
                    .map_err(|e: crate::choice::UnknownChoice| e.to_string())?
            },
            shots: self
                .shots
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    crate::observe::parse_shot(dims, &fleet, s)
                        .map_err(|e| format!("shots[{i}]: {e}"))
                })
                .collect::<Result<_, _>>()?,
        };
        Ok(ProblemSpec {
            dims,
            fleet,
            rules: self.rules,
            rows: self.rows,
            cols: self.cols,
            clues,
            solution,
            observations,
            progress,
            digits,
            meta: Meta {
                name: self.name,
                source: self.source,
            },
        })
    }
}

/// The values of a field of one string per row of one-character cells (`progress`,
/// `digits`), each read by `value`; none when the field is empty. `what` names the field and
/// `unit` its cells in the messages.
fn symbol_rows<T>(
    rows: &[String],
    dims: Dims,
    what: &str,
    unit: &str,
    value: impl Fn(char) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    if rows.len() != dims.height {
        return Err(format!(
            "{what}: {} rows for a height of {}",
            rows.len(),
            dims.height
        ));
    }
    let mut out = Vec::with_capacity(dims.cells());
    for (r, row) in rows.iter().enumerate() {
        let syms: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        if syms.len() != dims.width {
            return Err(format!(
                "{what} row {r}: {} {unit} for a width of {}",
                syms.len(),
                dims.width
            ));
        }
        for ch in syms {
            out.push(value(ch).map_err(|m| format!("{what} row {r}: {m}"))?);
        }
    }
    Ok(out)
}

fn is_none_sinking(s: &str) -> bool {
    s.is_empty() || s == "none"
}

/// Parses one problem in the JSON format.
pub fn parse(input: &str) -> Result<ProblemSpec, ParseError> {
    let jp: JsonProblem = serde_json::from_str(input).map_err(|e| ParseError::from_json(&e, 0))?;
    jp.into_spec()
}

/// Parses one or more problems in the JSON format, one after another (as `convert --to json`
/// writes several, a line each). Errors in a later problem give its own line.
pub fn parse_many(input: &str) -> Result<Vec<ProblemSpec>, ParseError> {
    if input.trim_start().starts_with('[') {
        // An array of problems: each is named by its place in the array in errors.
        let all: Vec<JsonProblem> =
            serde_json::from_str(input).map_err(|e| ParseError::from_json(&e, 0))?;
        return all
            .into_iter()
            .enumerate()
            .map(|(i, jp)| {
                let at = |message: String| {
                    ParseError::new(1, 1, format!("problem {} of the array: {message}", i + 1))
                };
                let spec = jp.into_spec().map_err(|e| at(e.message))?;
                super::described(spec, 1).map_err(|e| at(e.to_string()))
            })
            .collect();
    }
    let mut out = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(input).into_iter::<JsonProblem>();
    loop {
        // The line the next value starts on, for errors found after it was read.
        let start = input[..stream.byte_offset()].matches('\n').count()
            + input[stream.byte_offset()..]
                .chars()
                .take_while(|c| c.is_whitespace())
                .filter(|&c| c == '\n')
                .count();
        match stream.next() {
            None => break,
            Some(Err(e)) => return Err(ParseError::from_json(&e, 0)),
            Some(Ok(jp)) => out.push(super::described(
                jp.into_spec()
                    .map_err(|e| ParseError::new(start + 1, 1, e.message))?,
                start + 1,
            )?),
        }
    }
    Ok(out)
}

/// Prints a problem in the JSON format (pretty).
pub fn print(spec: &ProblemSpec) -> String {
    serde_json::to_string_pretty(&JsonProblem::from_spec(spec)).expect("a problem serialises")
}
