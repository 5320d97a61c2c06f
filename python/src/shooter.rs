//! `Shooter`: any of the library's shooters, asked for one shot at a time: an opponent for an
//! agent, or a baseline to play beside it.

use std::str::FromStr;
use std::sync::Mutex;

use broadside::play::{Adviser, Counting, Setup, ShooterKind};
use pyo3::prelude::*;

use crate::args::{duration, natural, value_error};
use crate::game::Game;

/// One of broadside's shooters by its word (`broadside.shooters()` lists them): `choose(game)`
/// is the cell it fires at next given the shots a `Game` records.
#[pyclass(module = "broadside", name = "Shooter")]
pub(crate) struct Shooter {
    /// In a mutex only to be shared between threads, as a Python object may be; `choose`
    /// takes it mutably.
    adviser: Mutex<Adviser>,
}

#[pymethods]
impl Shooter {
    /// A shooter from its word (`"strongest"`, `"pilot:800"`, `"greedy"`, ...), its random
    /// numbers from `seed`; `time_limit` (seconds) bounds each exact count of a shot (past
    /// it the shooter fires as without a map).
    #[new]
    #[pyo3(signature = (word="strongest", seed=0, time_limit=None))]
    fn new(word: &str, seed: i128, time_limit: Option<f64>) -> PyResult<Shooter> {
        let kind = ShooterKind::from_str(word).map_err(value_error)?;
        let counting = Counting {
            time_limit: duration(time_limit)?,
            ..Counting::default()
        };
        Ok(Shooter {
            adviser: Mutex::new(Adviser::new(kind, counting, natural(seed, "seed")?)),
        })
    }

    /// The cell it fires at next after `game`'s shots, as an index (`row * cols + col`, the
    /// Gymnasium environment's action; `Game.shoot` takes it too). One game at a time:
    /// shots that do not go on from those of the last call start a new game. `ValueError`
    /// when the game is over or no cell is left open. The same seed and the same calls give
    /// the same cells.
    fn choose(&mut self, py: Python<'_>, game: &Game) -> PyResult<usize> {
        let spec = game.known.problem.given();
        let setup = Setup::of(spec);
        let shots = &spec.observations.shots;
        let adviser = self.adviser.get_mut().unwrap_or_else(|e| e.into_inner());
        py.detach(|| adviser.choose(&setup, shots)).ok_or_else(|| {
            value_error("the game is over: every ship cell is hit, or no cell is left to fire at")
        })
    }

    /// The shooter's word, with its parameters by name.
    #[getter]
    fn word(&self) -> String {
        self.adviser
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .kind()
            .to_string()
    }

    fn __repr__(&self) -> String {
        format!("Shooter('{}')", self.word())
    }
}
