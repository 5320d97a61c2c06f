//! Python bindings of broadside: a thin layer over the library, so that a game state, a
//! puzzle file or a sampler answers in Python exactly what the command line answers.
//!
//! - [`Game`]: what one side knows of a board (size, fleet, rules, sinking rule, shots, or any
//!   problem file the command line reads), answering `count`, `counts`, `probs`, `best` and
//!   `solve` with the library's engines, each answer kept until the next shot.
//! - [`Board`]: a hidden layout placed by one of the library's placers, to fire at (the
//!   Gymnasium environment's opponent).
//! - [`Shooter`]: any of the library's shooters, asked for one shot at a time given a
//!   `Game` (an opponent for an agent, or a baseline beside it).
//! - [`sample`]: exactly uniform boards as a numpy array, drawn on every core.
//! - [`solve`] and [`count`]: the puzzle questions for a file (or a `Game`); a puzzle's
//!   `Game` also checks a person's progress and gives hints ([`progress`]).
//!
//! Long computations release the GIL. Every failure the command line reports as bad input
//! raises `ValueError` with the command line's message.

mod args;
mod board;
mod game;
mod jobs;
mod progress;
mod shooter;

use pyo3::prelude::*;

use board::Board;
use game::Game;
use jobs::{count, count_part, sample, shooters, simulate_chunk, solve, word_of};
use shooter::Shooter;

#[pymodule]
fn _broadside(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Board>()?;
    m.add_class::<Shooter>()?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(count_part, m)?)?;
    m.add_function(wrap_pyfunction!(word_of, m)?)?;
    m.add_function(wrap_pyfunction!(shooters, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
