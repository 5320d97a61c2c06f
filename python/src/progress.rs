//! A person's progress on a puzzle in Python: the marks read from a grid string, a list of row
//! strings or an integer array, and the reports of `check` and `hint` as dictionaries with the
//! fields of the command line's `--json` (`docs/JSON.md`).

use broadside::{Dims, Error, Know};
use numpy::PyReadonlyArray2;
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;

/// The integer codes of marks, those of `Game.grid()`: 0 open, 1 water, 2 a ship cell.
pub fn code(k: Know) -> i8 {
    match k {
        Know::Unknown => 0,
        Know::Water => 1,
        Know::Ship => 2,
    }
}

/// The marks `progress` gives, one per cell: a string of the text format's progress symbols
/// (`.`, `~`, `*` and the segment symbols; spaces and line breaks ignored), a list of row
/// strings, or a (rows, cols) integer array of [`code`]s.
pub fn marks_of(d: Dims, progress: &Bound<'_, PyAny>) -> PyResult<Vec<Know>> {
    let text = match progress.extract::<String>() {
        Ok(s) => Some(s),
        Err(_) => progress.extract::<Vec<String>>().ok().map(|r| r.join("\n")),
    };
    if let Some(text) = text {
        let mut marks = Vec::with_capacity(d.cells());
        for (i, ch) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
            marks.push(Know::from_symbol(ch).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "progress: unknown symbol {ch:?} at cell {} (expected . ~ * or a segment symbol)",
                    i + 1
                ))
            })?);
        }
        if marks.len() != d.cells() {
            return Err(PyValueError::new_err(format!(
                "progress: {} cells for a {d} board of {}",
                marks.len(),
                d.cells()
            )));
        }
        return Ok(marks);
    }
    let array: PyReadonlyArray2<'_, i64> = progress
        .call_method1("astype", ("int64",))
        .and_then(|a| a.extract())
        .map_err(|_| {
            PyValueError::new_err(
                "progress: expected a string of . ~ * symbols, a list of row strings, or a 2-D integer array",
            )
        })?;
    let shape = array.as_array().shape().to_vec();
    if shape != [d.height, d.width] {
        return Err(PyValueError::new_err(format!(
            "progress: an array of shape {shape:?} for a board of {} rows and {} columns",
            d.height, d.width
        )));
    }
    array
        .as_array()
        .iter()
        .map(|&v| match v {
            0 => Ok(Know::Unknown),
            1 => Ok(Know::Water),
            2 => Ok(Know::Ship),
            _ => Err(PyValueError::new_err(format!(
                "progress: {v} is not a mark (0 open, 1 water, 2 a ship cell)"
            ))),
        })
        .collect()
}

/// A report as the dictionary `--json` prints.
pub fn dict<'py, R: Serialize>(py: Python<'py>, report: &R) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).expect("reports always serialise");
    py.import("json")?.call_method1("loads", (text,))
}

/// The Python exception of a library error: `TimeoutError` for a time limit run out,
/// `ValueError` for the rest.
pub fn error(e: Error) -> PyErr {
    match e {
        Error::Stopped(why) => PyTimeoutError::new_err(why),
        e => PyValueError::new_err(e.to_string()),
    }
}
