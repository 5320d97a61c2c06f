//! `Shooter`: any of the library's shooters, asked for one shot at a time: an opponent for an
//! agent, or a baseline to play beside it.

use std::str::FromStr;
use std::sync::Mutex;

use broadside::observe::{Shot, ShotResult};
use broadside::play::{Counting, Setup, Shooter as Shoots, ShooterKind};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::args::{duration, natural, value_error};
use crate::game::Game;

/// One of broadside's shooters by its word (`broadside.shooters()` lists them): `choose(game)`
/// is the cell it fires at next given the shots a `Game` records.
#[pyclass(module = "broadside", name = "Shooter")]
pub(crate) struct Shooter {
    kind: ShooterKind,
    time_limit: Option<std::time::Duration>,
    /// In a mutex only to be shared between threads, as a Python object may be; `choose`
    /// takes it mutably.
    shooter: Mutex<Box<dyn Shoots>>,
    rng: StdRng,
    /// The shots of the last `choose`: a game that does not go on from them is a new one.
    seen: Vec<Shot>,
}

impl Shooter {
    fn fresh(kind: ShooterKind, time_limit: Option<std::time::Duration>) -> Box<dyn Shoots> {
        kind.shooter(Counting {
            time_limit,
            ..Counting::default()
        })
    }
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
        let seed: u64 = natural(seed, "seed")?;
        let time_limit = duration(time_limit)?;
        Ok(Shooter {
            kind,
            time_limit,
            shooter: Mutex::new(Shooter::fresh(kind, time_limit)),
            rng: StdRng::seed_from_u64(seed),
            seen: Vec::new(),
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
        let d = setup.dims;
        let mut fired = vec![false; d.cells()];
        let mut hit = vec![false; d.cells()];
        for s in shots {
            fired[s.cell] = true;
            hit[s.cell] |= matches!(s.result, ShotResult::Hit | ShotResult::Sunk { .. });
        }
        if hit.iter().filter(|&&h| h).count() >= setup.fleet.cell_count() {
            return Err(value_error("the game is over: every ship cell is hit"));
        }
        if (0..d.cells()).all(|c| fired[c] || setup.rocks.contains(&c)) {
            return Err(value_error("no cell is left to fire at"));
        }
        let shooter = self.shooter.get_mut().unwrap_or_else(|e| e.into_inner());
        if !shots.starts_with(&self.seen) {
            *shooter = Shooter::fresh(self.kind, self.time_limit);
        }
        let rng = &mut self.rng;
        let cell = py.detach(|| shooter.choose(&setup, shots, rng));
        self.seen.clone_from(shots);
        Ok(cell)
    }

    /// The shooter's word, with its parameters by name.
    #[getter]
    fn word(&self) -> String {
        self.kind.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Shooter('{}')", self.kind)
    }
}
