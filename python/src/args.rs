//! The arguments as Python passes them, read into the library's types: sizes, fleets, cells,
//! engines, numbers that must not be negative, time limits, files; and the `ValueError` of
//! what the command line calls bad input.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use broadside::format;
use broadside::play::Setup;
use broadside::{Dims, Engine, Fleet, ProblemSpec, Rules, Sinking};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A whole number from 0 given for the parameter `name`, as `T`: Python ints arrive as
/// `i128`, so a negative one is a `ValueError` that names the parameter (not the
/// `OverflowError` an unsigned parameter would raise).
pub(crate) fn natural<T: TryFrom<i128>>(v: i128, name: &str) -> PyResult<T> {
    if v < 0 {
        return Err(value_error(format!("{name} must be 0 or more, not {v}")));
    }
    T::try_from(v).map_err(|_| value_error(format!("{name} is too large: {v}")))
}

/// [`natural`] of an optional parameter.
pub(crate) fn natural_opt<T: TryFrom<i128>>(v: Option<i128>, name: &str) -> PyResult<Option<T>> {
    v.map(|v| natural(v, name)).transpose()
}

/// A time limit in seconds, as the command line reads `--time-limit`.
pub(crate) fn duration(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                value_error(format!(
                    "time_limit must be a number of seconds from 0 up, not {s}"
                ))
            })
        })
        .transpose()
}

/// A board size: `(rows, cols)` as numpy shapes are written, one number for a square, or the
/// command line's `"WxH"`.
pub(crate) fn dims_of(size: &Bound<'_, PyAny>) -> PyResult<Dims> {
    // Python's True is the integer 1, which is no size.
    if size.is_instance_of::<pyo3::types::PyBool>() {
        return Err(value_error(
            "size must be (rows, cols), a number for a square board, or \"WxH\"",
        ));
    }
    let dims = if let Ok(s) = size.extract::<String>() {
        Dims::from_str(&s).map_err(value_error)?
    } else if let Ok(n) = size.extract::<usize>() {
        Dims::new(n, n)
    } else if let Ok((rows, cols)) = size.extract::<(usize, usize)>() {
        Dims::new(cols, rows)
    } else {
        return Err(value_error(
            "size must be (rows, cols), a number for a square board, or \"WxH\"",
        ));
    };
    dims.supported().map_err(value_error)
}

/// A fleet: ship lengths (`[5, 4, 3, 3, 2]`) or the command line's `--fleet` text
/// (`"5 4 3 3 2"`, `"1x4 2x3 3x2 4x1"`).
pub(crate) fn fleet_of(fleet: &Bound<'_, PyAny>) -> PyResult<Fleet> {
    let text = if let Ok(s) = fleet.extract::<String>() {
        s
    } else if let Ok(lengths) = fleet.extract::<Vec<usize>>() {
        lengths
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        return Err(value_error(
            "fleet must be a list of ship lengths or a fleet description such as \"5 4 3 3 2\"",
        ));
    };
    Fleet::parse(&text, &[]).map_err(|e| value_error(format!("fleet: {e}")))
}

/// A cell: its name (`"B5"`), `(row, col)` from 0, or its index in reading order.
pub(crate) fn cell_of(dims: Dims, cell: &Bound<'_, PyAny>) -> PyResult<usize> {
    let out_of_board = || value_error(format!("cell {cell} is off the {dims} board"));
    if let Ok(name) = cell.extract::<String>() {
        dims.parse_cell(&name).map_err(value_error)
    } else if let Ok((row, col)) = cell.extract::<(usize, usize)>() {
        (row < dims.height && col < dims.width)
            .then(|| dims.index(row, col))
            .ok_or_else(out_of_board)
    } else if let Ok(index) = cell.extract::<usize>() {
        (index < dims.cells())
            .then_some(index)
            .ok_or_else(out_of_board)
    } else {
        Err(value_error(
            "a cell is a name such as \"B5\", (row, col) from 0, or an index in reading order",
        ))
    }
}

/// A game's setup from the constructor's arguments (the standard game's size and fleet where
/// they are not given).
pub(crate) fn setup_of(
    size: Option<&Bound<'_, PyAny>>,
    fleet: Option<&Bound<'_, PyAny>>,
    rules: &str,
    sinking: &str,
    rocks: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<Setup> {
    let standard = Setup::standard();
    let dims = size.map(dims_of).transpose()?.unwrap_or(standard.dims);
    let mut rocks: Vec<usize> = rocks
        .unwrap_or_default()
        .iter()
        .map(|c| cell_of(dims, c))
        .collect::<PyResult<_>>()?;
    rocks.sort_unstable();
    rocks.dedup();
    Ok(Setup {
        dims,
        fleet: fleet.map(fleet_of).transpose()?.unwrap_or(standard.fleet),
        rules: Rules::from_str(rules).map_err(value_error)?,
        sinking: Sinking::from_str(sinking).map_err(value_error)?,
        rocks,
    })
}

/// The engine a caller names.
pub(crate) fn engine_of(name: &str) -> PyResult<Engine> {
    Engine::from_str(name).map_err(value_error)
}

/// The problems of a file, read as the command line reads them (a puzz.link URL in place of
/// a path is the puzzle itself).
pub(crate) fn read_file(path: &Path) -> PyResult<Vec<ProblemSpec>> {
    let name = path.display().to_string();
    if format::puzlink::is_url(&name) {
        return format::puzlink::parse(&name)
            .map(|spec| vec![spec])
            .map_err(value_error);
    }
    let content = format::input::read_file(path).map_err(value_error)?;
    format::read(&name, &content).map_err(value_error)
}
