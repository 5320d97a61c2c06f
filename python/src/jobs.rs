//! The module's functions: uniform boards, solving and counting a file, self-play chunks and
//! count parts for a cluster, and the shooter vocabulary.

use std::path::PathBuf;
use std::str::FromStr;

use broadside::format;
use broadside::play::vocabulary::{PLACERS, SHOOTERS};
use broadside::play::{Placer, PlacerKind, ShooterKind, Simulation, simulate_each};
use broadside::sample::fill_grids;
use broadside::{BigUint, CountOptions};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use crate::args::{natural, natural_opt, setup_of, value_error};
use crate::game::Game;
use crate::progress;

/// `n` boards drawn exactly uniformly from the layouts consistent with `game`, as a bool
/// array (n, rows, cols): true where a ship lies. Drawn on every core without the GIL; the
/// same seed gives the same boards.
#[pyfunction]
#[pyo3(signature = (game, n, seed=None))]
pub(crate) fn sample<'py>(
    py: Python<'py>,
    mut game: PyRefMut<'_, Game>,
    n: i128,
    seed: Option<i128>,
) -> PyResult<Bound<'py, PyArray3<bool>>> {
    let n: usize = natural(n, "n")?;
    let seed: Option<u64> = natural_opt(seed, "seed")?;
    let d = game.dims();
    // Allocated by numpy itself, so that a size past the memory raises MemoryError (numpy's
    // own) instead of ending in a panic.
    let boards = py
        .import("numpy")?
        .call_method1("zeros", ((n, d.height, d.width), "bool"))?
        .cast_into::<PyArray3<bool>>()
        .map_err(PyErr::from)?;
    if n == 0 {
        return Ok(boards);
    }
    let seed = seed.unwrap_or_else(rand::random);
    let known = &mut game.known;
    {
        let mut out = boards.readwrite();
        let out = out.as_slice_mut().map_err(value_error)?;
        py.detach(|| -> PyResult<()> {
            let sampler = known.sampler()?;
            fill_grids(sampler, seed, out).map_err(|e| {
                value_error(format!(
                    "the sampler gave up after {} boards: {}",
                    e.drawn, e.gave_up
                ))
            })
        })?;
    }
    Ok(boards)
}

/// The `Game` a function is given, or the one problem of a file.
pub(crate) fn game_of(puzzle: &Bound<'_, PyAny>) -> PyResult<Py<Game>> {
    if let Ok(g) = puzzle.cast::<Game>() {
        return Ok(g.clone().unbind());
    }
    let path: PathBuf = puzzle
        .extract()
        .map_err(|_| value_error("expected a Game or a path to a problem file"))?;
    Py::new(puzzle.py(), Game::load(path)?)
}

/// A solution of a puzzle (a file's path or a `Game`) as rows of the layout picture, or
/// `None` when it has none.
#[pyfunction]
#[pyo3(signature = (puzzle, engine="auto"))]
pub(crate) fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    engine: &str,
) -> PyResult<Option<Vec<String>>> {
    game_of(puzzle)?.borrow(py).solve(py, engine)
}

/// The exact number of solutions of a puzzle (a file's path or a `Game`); `limit` stops
/// counting there.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, engine="auto", time_limit=None))]
pub(crate) fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: Option<i128>,
    engine: &str,
    time_limit: Option<f64>,
) -> PyResult<BigUint> {
    game_of(puzzle)?
        .borrow_mut(py)
        .count(py, engine, limit, time_limit)
}

/// The extension module `broadside._broadside`; `broadside` re-exports it.
/// Plays games `first + 1` to `first + games` of a simulation (the same games as
/// `broadside simulate` with these arguments and `--first first`) and returns the shots each
/// took, in order, as a numpy `uint32` array (none for `games=0`, the arguments checked). `threads` sizes the thread pool the games run on
/// (`None`: one thread a core). The building block of `broadside.simulate`, which runs chunks
/// of a table on a Dask cluster or any executor; it takes only plain values.
#[pyfunction]
#[pyo3(signature = (shooter, games, first=0, seed=0, size=None, fleet=None, rules="touch", sinking="announced", placer="uniform", threads=None))]
#[allow(
    clippy::too_many_arguments,
    reason = "Python's keyword arguments, one a parameter"
)]
pub(crate) fn simulate_chunk<'py>(
    py: Python<'py>,
    shooter: &str,
    games: i128,
    first: i128,
    seed: i128,
    size: Option<&Bound<'py, PyAny>>,
    fleet: Option<&Bound<'py, PyAny>>,
    rules: &str,
    sinking: &str,
    placer: &str,
    threads: Option<i128>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let (games, first, seed): (u64, u64, u64) = (
        natural(games, "games")?,
        natural(first, "first")?,
        natural(seed, "seed")?,
    );
    let threads = natural_opt(threads, "threads")?;
    let sim = Simulation {
        setup: setup_of(size, fleet, rules, sinking, None)?,
        shooter: ShooterKind::from_str(shooter).map_err(value_error)?,
        placer: PlacerKind::from_str(placer).map_err(value_error)?,
        games,
        first,
        seed,
        book: None,
    };
    let pool = thread_pool(threads)?;
    if games == 0 {
        // No game: the arguments are checked as a run checks them, the placer included
        // (a fleet that does not fit the board).
        let empty = broadside::play::empty_board(&sim.setup).map_err(value_error)?;
        py.detach(|| Placer::new(&sim.placer, &sim.setup, empty))
            .map_err(value_error)?;
        return Ok(PyArray1::from_vec(py, Vec::new()));
    }
    let shots = py.detach(|| {
        pool.install(|| {
            let mut shots = Vec::new();
            simulate_each(
                &sim,
                &|_| {},
                &std::sync::atomic::AtomicBool::new(false),
                &mut |p| {
                    shots.push(p.shots as u32);
                    true
                },
            )
            .map(|_| shots)
        })
    });
    Ok(PyArray1::from_vec(py, shots.map_err(value_error)?))
}

/// Part `part` of `parts` of the exact count of the layouts of the problem `text` (a problem
/// in any format `Game.parse` reads), with its per-cell counts when `per_cell`: the layouts
/// under every `parts`-th subtree of the enumerator's search (`Enumerator::count_part`). The
/// parts add up to the count for any `parts`. With `upto`, parts `part` to `upto - 1`
/// together, in one setup (`Enumerator::count_parts`): how a run of many parts batches them.
/// `threads` sizes the thread pool (`None`: one thread a core). The building block of
/// `broadside.count(..., shards=K)`; it takes only plain values.
#[pyfunction]
#[pyo3(signature = (text, part, parts, per_cell=false, threads=None, upto=None))]
pub(crate) fn count_part(
    py: Python<'_>,
    text: &str,
    part: i128,
    parts: i128,
    per_cell: bool,
    threads: Option<i128>,
    upto: Option<i128>,
) -> PyResult<(BigUint, Option<Vec<BigUint>>)> {
    let (part, parts): (usize, usize) = (natural(part, "part")?, natural(parts, "parts")?);
    let threads = natural_opt(threads, "threads")?;
    let upto = natural_opt(upto, "upto")?.unwrap_or(part.saturating_add(1));
    if parts == 0 || part >= parts {
        return Err(value_error(format!(
            "part {part} of {parts}: a part is 0 to parts - 1"
        )));
    }
    if upto <= part || upto > parts {
        return Err(value_error(format!(
            "parts {part} up to {upto} of {parts}: upto is part + 1 to parts"
        )));
    }
    let mut specs = format::read("<part>", text).map_err(value_error)?;
    if specs.len() != 1 {
        return Err(value_error("a part counts one problem"));
    }
    let problem = specs.remove(0).build().map_err(value_error)?;
    let pool = thread_pool(threads)?;
    py.detach(|| {
        pool.install(|| {
            let opts = CountOptions {
                per_cell,
                parallel: true,
                ..CountOptions::default()
            };
            let r = broadside::Enumerator::new(&problem)
                .count_parts(&opts, part..upto, parts)
                .map_err(value_error)?;
            Ok((
                BigUint::from(r.count),
                r.per_cell
                    .map(|v| v.into_iter().map(BigUint::from).collect()),
            ))
        })
    })
}

/// A thread pool of `threads` threads (`None`: one a core).
pub(crate) fn thread_pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(value_error)
}

/// A shooter's or placer's word as the command line writes it back (its parameters by
/// name, those at their defaults left out: `density:50.1` is `density:hunt=1`);
/// `ValueError` for an unknown one.
#[pyfunction]
pub(crate) fn word_of(kind: &str, word: &str) -> PyResult<String> {
    match kind {
        "shooter" => ShooterKind::from_str(word).map(|k| k.to_string()),
        "placer" => PlacerKind::from_str(word).map(|k| k.to_string()),
        _ => return Err(value_error("kind is shooter or placer")),
    }
    .map_err(value_error)
}

/// The shooters and placers, as `broadside shooters --json` prints them: a dict with
/// `shooters` and `placers`, each with its `entries` (name, summary, source, cost and
/// `params`, each with its values, default and meaning) and `presets`.
#[pyfunction]
pub(crate) fn shooters(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    progress::dict(
        py,
        &serde_json::json!({ "shooters": &SHOOTERS, "placers": &PLACERS }),
    )
}
