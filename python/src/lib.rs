//! Python bindings of broadside: a thin layer over the library, so that a game state, a
//! puzzle file or a sampler answers in Python exactly what the command line answers.
//!
//! - [`Game`]: what one side knows of a board (size, fleet, rules, sinking rule, shots, or any
//!   problem file the command line reads), answering `count`, `counts`, `probs`, `best` and
//!   `solve` with the library's engines, each answer kept until the next shot.
//! - [`Board`]: a hidden layout placed by one of the library's placers, to fire at (the
//!   Gymnasium environment's opponent).
//! - [`sample`]: exactly uniform boards as a numpy array, drawn on every core.
//! - [`solve`] and [`count`]: the puzzle questions for a file (or a `Game`); a puzzle's
//!   `Game` also checks a person's progress and gives hints ([`progress`]).
//!
//! Long computations release the GIL. Every failure the command line reports as bad input
//! raises `ValueError` with the command line's message.

mod progress;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use broadside::answer::{
    self, CountReport, HeatReport, Identical, NoLayout, ProbsReport, SolveReport,
};

use broadside::format;
use broadside::observe::{ShotResult, parse_shot, print_shot};
use broadside::play::vocabulary::{PLACERS, SHOOTERS};
use broadside::play::{
    Book, Game as Played, Placer, PlacerKind, Setup, ShooterKind, Simulation, simulate_each,
};
use broadside::sample::{Sampler, fill_grids};
use broadside::{
    BigUint, Clue, CountOptions, Dims, Engine, Fleet, Problem, ProblemSpec, Rules, Sinking,
};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyOSError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A whole number from 0 given for the parameter `name`, as `T`: Python ints arrive as
/// `i128`, so a negative one is a `ValueError` that names the parameter (not the
/// `OverflowError` an unsigned parameter would raise).
fn natural<T: TryFrom<i128>>(v: i128, name: &str) -> PyResult<T> {
    if v < 0 {
        return Err(value_error(format!("{name} must be 0 or more, not {v}")));
    }
    T::try_from(v).map_err(|_| value_error(format!("{name} is too large: {v}")))
}

/// [`natural`] of an optional parameter.
fn natural_opt<T: TryFrom<i128>>(v: Option<i128>, name: &str) -> PyResult<Option<T>> {
    v.map(|v| natural(v, name)).transpose()
}

/// A time limit in seconds, as the command line reads `--time-limit`.
fn duration(seconds: Option<f64>) -> PyResult<Option<Duration>> {
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
fn dims_of(size: &Bound<'_, PyAny>) -> PyResult<Dims> {
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
fn fleet_of(fleet: &Bound<'_, PyAny>) -> PyResult<Fleet> {
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
fn cell_of(dims: Dims, cell: &Bound<'_, PyAny>) -> PyResult<usize> {
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
fn setup_of(
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
fn engine_of(name: &str) -> PyResult<Engine> {
    Engine::from_str(name).map_err(value_error)
}

/// The problems of a file, read as the command line reads them (a puzz.link URL in place of
/// a path is the puzzle itself).
fn read_file(path: &Path) -> PyResult<Vec<ProblemSpec>> {
    let name = path.display().to_string();
    if format::puzlink::is_url(&name) {
        return format::puzlink::parse(&name)
            .map(|spec| vec![spec])
            .map_err(value_error);
    }
    let content = format::input::read_file(path).map_err(value_error)?;
    format::read(&name, &content).map_err(value_error)
}

/// A built problem and what has been worked out about it, dropped whole when the problem
/// changes. The sampler shares the problem.
struct Known {
    problem: Arc<Problem>,
    sampler: Option<Sampler>,
    layouts: Option<BigUint>,
    heat: Option<HeatReport>,
    /// The heat maps of the board's positions, when the game is a view of a `Board`: shared
    /// by its views, so an episode after another finds its openings counted.
    book: Option<Arc<Book>>,
}

impl Known {
    fn new(spec: ProblemSpec) -> PyResult<Known> {
        Ok(Known {
            sampler: None,
            layouts: None,
            heat: None,
            book: None,
            problem: Arc::new(answer::build(spec).map_err(value_error)?),
        })
    }

    /// The exact number of layouts (counted once).
    fn layouts(&mut self) -> PyResult<BigUint> {
        if let Some(n) = &self.layouts {
            return Ok(n.clone());
        }
        let n = match &self.heat {
            Some(h) => h.layouts.clone(),
            None => {
                let opts = CountOptions {
                    parallel: true,
                    ..CountOptions::default()
                };
                match answer::count(
                    &self.problem,
                    Engine::Auto,
                    &opts,
                    Identical::Interchangeable,
                )
                .map_err(value_error)?
                {
                    CountReport::Counted(c) => c.count,
                    CountReport::NoSolution(_) => BigUint::ZERO,
                }
            }
        };
        self.layouts = Some(n.clone());
        Ok(n)
    }

    /// The exact heat map by `engine` within `time_limit` (the `auto` one is kept).
    fn heat(&mut self, engine: Engine, time_limit: Option<Duration>) -> PyResult<HeatReport> {
        if engine == Engine::Auto
            && let Some(h) = &self.heat
        {
            return Ok(h.clone());
        }
        let opts = CountOptions {
            parallel: true,
            time_limit,
            ..CountOptions::default()
        };
        let report = match &self.book {
            Some(book) => answer::probs_in(&self.problem, engine, book, &opts),
            None => answer::probs(&self.problem, engine, &opts),
        };
        let h = match report.map_err(value_error)? {
            ProbsReport::Map(h) if h.complete => h,
            ProbsReport::Map(h) => {
                return Err(PyTimeoutError::new_err(format!(
                    "the time limit ran out after {} layouts; the map would be partial",
                    h.layouts
                )));
            }
            ProbsReport::NoMap(no) => return Err(PyTimeoutError::new_err(no.reason)),
            ProbsReport::NoLayout(no) => return Err(value_error(no)),
        };
        if engine == Engine::Auto {
            self.layouts = Some(h.layouts.clone());
            self.heat = Some(h.clone());
        }
        Ok(h)
    }

    /// The exact-uniform sampler (prepared once).
    fn sampler(&mut self) -> PyResult<&Sampler> {
        if self.sampler.is_none() {
            let layouts = self.layouts()?;
            if layouts == BigUint::ZERO {
                return Err(value_error(NoLayout::HEADLINE));
            }
            let layouts = u128::try_from(&layouts).map_err(|_| {
                value_error("the samplers take at most 2^128 layouts; these are more")
            })?;
            let s =
                Sampler::uniform_given(self.problem.clone(), layouts, None).map_err(value_error)?;
            self.sampler = Some(s);
        }
        Ok(self.sampler.as_ref().expect("prepared above"))
    }
}

/// What one side knows of a board: size, fleet, rules, how sinkings are reported and the
/// shots so far (or any problem a file holds, puzzles included).
#[pyclass(module = "broadside", name = "Game")]
struct Game {
    known: Known,
}

impl Game {
    fn from_spec(spec: ProblemSpec) -> PyResult<Game> {
        Ok(Game {
            known: Known::new(spec)?,
        })
    }

    /// The problem as given (the engines' spec also holds the clues the shots imply).
    fn spec(&self) -> &ProblemSpec {
        self.known.problem.given()
    }

    fn dims(&self) -> Dims {
        self.known.problem.dims()
    }

    /// A game (not a file's problem, which may ask whether a puzzle has a solution) refuses
    /// a board or a shot that leaves it with an obvious conflict, saying why.
    fn refuse_conflicts(self) -> PyResult<Game> {
        let conflicts = self.known.problem.conflicts();
        if conflicts.is_empty() {
            return Ok(self);
        }
        let why: Vec<String> = conflicts.iter().map(|c| format!("; because {c}")).collect();
        Err(value_error(format!(
            "{}{}",
            NoLayout::HEADLINE,
            why.concat()
        )))
    }

    /// Replaces the shots by `shots` when the result is a possible record; else the error.
    fn set_shots(&mut self, shots: Vec<broadside::Shot>) -> PyResult<()> {
        let mut spec = self.spec().clone();
        spec.observations.shots = shots;
        *self = self.sibling(spec)?.refuse_conflicts()?;
        Ok(())
    }

    /// The problem with `progress` as its marks (its own when `None`).
    fn with_progress(&self, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Problem> {
        let Some(progress) = progress else {
            return Ok((*self.known.problem).clone());
        };
        let mut spec = self.spec().clone();
        spec.progress = progress::marks_of(self.dims(), progress)?;
        answer::build(spec).map_err(value_error)
    }

    /// A game of `spec` that shares this one's counted positions (a `Board` view's book).
    fn sibling(&self, spec: ProblemSpec) -> PyResult<Game> {
        let mut game = Game::from_spec(spec)?;
        game.known.book = self.known.book.clone();
        Ok(game)
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (size=None, fleet=None, rules="touch", sinking="announced", rocks=None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        fleet: Option<&Bound<'_, PyAny>>,
        rules: &str,
        sinking: &str,
        rocks: Option<Vec<Bound<'_, PyAny>>>,
    ) -> PyResult<Game> {
        let setup = setup_of(size, fleet, rules, sinking, rocks)?;
        Game::from_spec(setup.empty())?.refuse_conflicts()
    }

    /// The one problem of a file, in any format the command line reads.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Game> {
        let mut specs = read_file(&path)?;
        if specs.len() != 1 {
            return Err(value_error(format!(
                "{} holds {} problems; Game.load_all reads them all",
                path.display(),
                specs.len()
            )));
        }
        Game::from_spec(specs.remove(0))
    }

    /// Every problem of a file.
    #[staticmethod]
    fn load_all(path: PathBuf) -> PyResult<Vec<Game>> {
        read_file(&path)?.into_iter().map(Game::from_spec).collect()
    }

    /// The one problem of a text, in any format the command line reads (`name`, a file name,
    /// helps tell formats apart).
    #[staticmethod]
    #[pyo3(signature = (text, name="<text>"))]
    fn parse(text: &str, name: &str) -> PyResult<Game> {
        let mut specs = format::read(name, text).map_err(value_error)?;
        if specs.len() != 1 {
            return Err(value_error(format!(
                "{name} holds {} problems, not one",
                specs.len()
            )));
        }
        Game::from_spec(specs.remove(0))
    }

    /// Records one shot: `result` is "miss", "hit", "sunk" (with `ship`, a length or a type's
    /// name, and under the revealed rule its `cells`) or "sonar" (with `distance`). A shot that
    /// is malformed, repeats a cell or leaves an obvious conflict raises `ValueError` and
    /// leaves the game as it was.
    #[pyo3(signature = (cell, result, ship=None, cells=None, distance=None))]
    fn shoot(
        &mut self,
        cell: &Bound<'_, PyAny>,
        result: &str,
        ship: Option<&Bound<'_, PyAny>>,
        cells: Option<Vec<Bound<'_, PyAny>>>,
        distance: Option<i128>,
    ) -> PyResult<()> {
        let d = self.dims();
        // One shot: a result, or a ship's name, that holds a line break would be two.
        if result.contains(['\n', '\r']) {
            return Err(value_error(format!(
                "{result:?}: a result is one word (miss, hit, sunk or sonar)"
            )));
        }
        let mut line = format!("{} {result}", d.cell_name(cell_of(d, cell)?));
        if let Some(ship) = ship {
            let name = ship.str()?.to_cow()?.into_owned();
            if name.contains(['\n', '\r']) {
                return Err(value_error(format!("{name:?}: not a ship's name")));
            }
            line.push(' ');
            line.push_str(&name);
        }
        for c in cells.unwrap_or_default() {
            line.push(' ');
            line.push_str(&d.cell_name(cell_of(d, &c)?));
        }
        if let Some(distance) = natural_opt::<usize>(distance, "distance")? {
            line.push_str(&format!(" {distance}"));
        }
        self.record(&line)
    }

    /// Records shots written as a game record writes them, one a line (`"B5 miss"`,
    /// `"C5 sunk 3"`); all of them or, on an error, none.
    fn record(&mut self, lines: &str) -> PyResult<()> {
        let d = self.dims();
        let mut shots = self.spec().observations.shots.clone();
        for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let shot = parse_shot(d, self.known.problem.fleet(), line)
                .map_err(|e| value_error(format!("{line:?}: {e}")))?;
            shots.push(shot);
        }
        self.set_shots(shots)
    }

    /// Takes back the last shot.
    fn undo(&mut self) -> PyResult<()> {
        let mut spec = self.spec().clone();
        if spec.observations.shots.pop().is_none() {
            return Err(value_error("there is no shot to take back"));
        }
        *self = self.sibling(spec)?;
        Ok(())
    }

    /// The shots so far, as a game record writes them.
    #[getter]
    fn shots(&self) -> Vec<String> {
        let (d, fleet) = (self.dims(), self.known.problem.fleet());
        let obs = &self.spec().observations;
        obs.shots.iter().map(|s| print_shot(d, fleet, s)).collect()
    }

    /// `(rows, cols)`.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.dims().height, self.dims().width)
    }

    /// The fleet, as the command line's `--fleet` writes it.
    #[getter]
    fn fleet(&self) -> String {
        self.known.problem.fleet().describe()
    }

    /// `"touch"` or `"no-touch"`.
    #[getter]
    fn rules(&self) -> String {
        self.known.problem.rules().to_string()
    }

    /// `"none"`, `"announced"` or `"revealed"`.
    #[getter]
    fn sinking(&self) -> String {
        self.spec().observations.sinking.to_string()
    }

    /// The problem's name, when its file gives one.
    #[getter]
    fn name(&self) -> Option<String> {
        self.spec().meta.name.clone()
    }

    /// What is known of each cell, as an int8 array (rows, cols): 0 not fired at, 1 water (a
    /// miss, a sonar reading or a given water cell), 2 a hit (or given ship cell), 3 a cell of
    /// a ship reported sunk (the sinking shot, or every cell when they are revealed), 4 a rock.
    fn grid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let d = self.dims();
        let spec = self.spec();
        let mut grid = vec![0i8; d.cells()];
        for (c, g) in grid.iter_mut().enumerate() {
            *g = match spec.clue(c) {
                None => 0,
                Some(Clue::Blocked) => 4,
                Some(Clue::Water) => 1,
                Some(_) => 2,
            };
        }
        for s in &spec.observations.shots {
            match &s.result {
                ShotResult::Miss | ShotResult::Sonar { .. } => grid[s.cell] = 1,
                ShotResult::Hit => grid[s.cell] = 2,
                ShotResult::Sunk { cells, .. } => {
                    for &c in cells.iter().chain([&s.cell]) {
                        grid[c] = 3;
                    }
                }
            }
        }
        let rows: Vec<Vec<i8>> = grid.chunks(d.width).map(<[i8]>::to_vec).collect();
        PyArray2::from_vec2(py, &rows).map_err(value_error)
    }

    /// The exact number of layouts consistent with what is known (a Python int: no
    /// overflow). `limit` stops counting there (the answer is then at most `limit`);
    /// `time_limit` (seconds) raises `TimeoutError` when it runs out.
    #[pyo3(signature = (engine="auto", limit=None, time_limit=None))]
    fn count(
        &mut self,
        py: Python<'_>,
        engine: &str,
        limit: Option<i128>,
        time_limit: Option<f64>,
    ) -> PyResult<BigUint> {
        let engine = engine_of(engine)?;
        let time_limit = duration(time_limit)?;
        let limit: Option<u128> = natural_opt(limit, "limit")?;
        let known = &mut self.known;
        if engine == Engine::Auto && limit.is_none() && time_limit.is_none() {
            return py.detach(|| known.layouts());
        }
        let opts = CountOptions {
            limit,
            time_limit,
            parallel: limit.is_none(),
            ..CountOptions::default()
        };
        let problem = &*known.problem;
        let report = py
            .detach(|| answer::count(problem, engine, &opts, Identical::Interchangeable))
            .map_err(value_error)?;
        match report {
            CountReport::NoSolution(_) => Ok(BigUint::ZERO),
            CountReport::Counted(c) if c.complete || limit.is_some_and(|l| c.count >= l.into()) => {
                Ok(c.count)
            }
            CountReport::Counted(c) => Err(PyTimeoutError::new_err(format!(
                "the time limit ran out after {} layouts",
                c.count
            ))),
        }
    }

    /// Per cell, the exact number of layouts with a ship there: uint64 (rows, cols), or an
    /// array of Python ints (dtype object) when a count passes 2^64.
    #[pyo3(signature = (engine="auto", time_limit=None))]
    fn counts<'py>(
        &mut self,
        py: Python<'py>,
        engine: &str,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (engine, time_limit) = (engine_of(engine)?, duration(time_limit)?);
        let known = &mut self.known;
        let h = py.detach(|| known.heat(engine, time_limit))?;
        if h.layouts <= u64::MAX.into() {
            let rows: Vec<Vec<u64>> = h
                .counts
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|x| u64::try_from(x).unwrap_or(u64::MAX))
                        .collect()
                })
                .collect();
            return Ok(PyArray2::from_vec2(py, &rows)
                .map_err(value_error)?
                .into_any());
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "object")?;
        py.import("numpy")?
            .call_method("array", (PyList::new(py, &h.counts)?,), Some(&kwargs))
    }

    /// Per cell, the exact probability of a ship there: float64 (rows, cols).
    #[pyo3(signature = (engine="auto", time_limit=None))]
    fn probs<'py>(
        &mut self,
        py: Python<'py>,
        engine: &str,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let (engine, time_limit) = (engine_of(engine)?, duration(time_limit)?);
        let known = &mut self.known;
        let h = py.detach(|| known.heat(engine, time_limit))?;
        PyArray2::from_vec2(py, &h.probabilities).map_err(value_error)
    }

    /// A cell not fired at of highest probability (the first in reading order when several
    /// tie; `probs()` shows them all), or `None` when no open cell can hold a ship.
    #[pyo3(signature = (engine="auto", time_limit=None))]
    fn best(
        &mut self,
        py: Python<'_>,
        engine: &str,
        time_limit: Option<f64>,
    ) -> PyResult<Option<String>> {
        let (engine, time_limit) = (engine_of(engine)?, duration(time_limit)?);
        let known = &mut self.known;
        let h = py.detach(|| known.heat(engine, time_limit))?;
        let (cells, _) = h.map.best();
        Ok(cells.first().map(|&c| self.dims().cell_name(c)))
    }

    /// A person's marks on this puzzle (its file's `progress:` section), as an int8 array
    /// (rows, cols): 0 open, 1 water, 2 a ship cell (the codes of `grid()`).
    #[getter]
    fn progress<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let d = self.dims();
        let spec = self.spec();
        let rows: Vec<Vec<i8>> = (0..d.height)
            .map(|r| {
                (0..d.width)
                    .map(|c| progress::code(spec.mark(d.index(r, c))))
                    .collect()
            })
            .collect();
        PyArray2::from_vec2(py, &rows).map_err(value_error)
    }

    /// Checks a person's marks against the puzzle's solutions: a dict with the fields of
    /// `broadside check --json` (`correct`, `solved`, `mistakes` as cell names such as "B7",
    /// `conflict`, `marked`, `open`, `solutions`, `reasons`). `progress` is a string of the
    /// text format's symbols (`.` open, `~` water, `*` a ship cell; spaces and line breaks
    /// ignored), a list of row strings, or an integer array as `progress` returns; `None`
    /// checks the puzzle's own progress. `time_limit` (seconds) raises `TimeoutError`.
    #[pyo3(signature = (progress=None, engine="auto", time_limit=None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
        engine: &str,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (engine, time_limit) = (engine_of(engine)?, duration(time_limit)?);
        let problem = self.with_progress(progress)?;
        let report = py
            .detach(|| answer::check(&problem, engine, time_limit))
            .map_err(progress::error)?;
        progress::dict(py, &report)
    }

    /// The next step from a person's marks: a dict with the fields of `broadside hint
    /// --json` (`solved`, `mistakes`, `conflict`, and `step` with `rule`, `tier`, `search`,
    /// `text`, `ship` and `water` as cell names). Mistakes come first (the first, or `all`);
    /// `progress` as for `check`.
    #[pyo3(signature = (progress=None, all=false, engine="auto", time_limit=None))]
    fn hint<'py>(
        &self,
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
        all: bool,
        engine: &str,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (engine, time_limit) = (engine_of(engine)?, duration(time_limit)?);
        let problem = self.with_progress(progress)?;
        let report = py
            .detach(|| answer::hint(&problem, engine, all, time_limit))
            .map_err(progress::error)?;
        progress::dict(py, &report)
    }

    /// One layout consistent with what is known, as rows of the layout picture (`<`, `>`,
    /// `^`, `v`, `o`, `#` for ship cells, `.` for water), or `None` when there is none.
    #[pyo3(signature = (engine="auto"))]
    fn solve(&self, py: Python<'_>, engine: &str) -> PyResult<Option<Vec<String>>> {
        let engine = engine_of(engine)?;
        let problem = &*self.known.problem;
        match py
            .detach(|| answer::solve(problem, engine, None))
            .map_err(value_error)?
        {
            SolveReport::Solved(s) => Ok(Some(s.solution)),
            SolveReport::NoSolution(_) => Ok(None),
        }
    }

    /// The state as a game record in the text format (what `broadside probs` reads).
    fn to_text(&self) -> String {
        format::text::print(self.spec())
    }

    /// The state in the JSON format.
    fn to_json(&self) -> String {
        format::json::print(self.spec())
    }

    /// Writes the state to `path`: JSON when the name ends in `.json`, else the text format.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let body = if path.extension().is_some_and(|e| e == "json") {
            self.to_json()
        } else {
            self.to_text()
        };
        // A file that cannot be written is an OSError, as Python's own writes raise.
        broadside::output::write_whole(&path, body).map_err(|e| PyOSError::new_err(e.to_string()))
    }

    /// An independent copy (a view of a `Board` shares the board's counted positions).
    fn copy(&self) -> PyResult<Game> {
        self.sibling(self.spec().clone())
    }

    fn __copy__(&self) -> PyResult<Game> {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.copy()
    }

    /// Pickles as its JSON state, read back by `Game.parse` (so a `Game` goes to Dask
    /// workers and other processes).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let parse = py.get_type::<Game>().getattr("parse")?;
        Ok((parse, (self.to_json(), "pickle.json")))
    }

    fn __repr__(&self) -> String {
        let p = &self.known.problem;
        let shots = self.spec().observations.shots.len();
        format!(
            "Game({}, {}, {}, sinking {}, {shots} shot{})",
            p.dims(),
            p.fleet().describe(),
            p.rules(),
            self.spec().observations.sinking,
            if shots == 1 { "" } else { "s" }
        )
    }
}

/// A hidden layout to fire at, placed by one of broadside's placers.
#[pyclass(module = "broadside", name = "Board")]
struct Board {
    placer: Placer,
    played: Played,
    rng: StdRng,
    /// The exact heat maps of positions its views counted (without sinking reports, and
    /// only those that took at least 5 ms), kept for its later views: every episode of an
    /// environment starts from the same empty board, and mirror images share an entry. It
    /// also keeps the DP's trails over the empty board once the DP has counted a position
    /// (about 0.2 GiB on the standard game), which later positions with a miss or two replay,
    /// and the sweeps of the last two positions it counted (0.28 GiB each), from which the
    /// position one shot on is counted.
    book: Arc<Book>,
    /// What rebuilds the board, for a copy or a pickle: the placer's word, the seed of the
    /// RNG and the layouts placed since it was seeded, and a layout hidden by `hide`.
    placer_word: String,
    seed: u64,
    draws: u64,
    hidden: Option<Vec<String>>,
}

impl Board {
    /// A board of `setup` whose `placer` (its word) places the layouts, from `seed`, with the
    /// first layout placed.
    fn make(py: Python<'_>, setup: Setup, placer: &str, seed: u64) -> PyResult<Board> {
        let empty = Game::from_spec(setup.empty())?
            .refuse_conflicts()?
            .known
            .problem;
        let kind = PlacerKind::from_str(placer).map_err(value_error)?;
        let placed = py
            .detach(|| Placer::new(&kind, &setup, empty))
            .map_err(value_error)?;
        let mut board = Board {
            placer: placed,
            book: Book::for_run(&setup),
            played: Played::new(setup, broadside::Layout { ships: Vec::new() }),
            rng: StdRng::seed_from_u64(seed),
            placer_word: placer.to_string(),
            seed,
            draws: 0,
            hidden: None,
        };
        board.reset(None)?;
        Ok(board)
    }

    /// What rebuilds this board: its game (the text format of its empty board), its placer,
    /// seed and layouts placed, a hidden layout, and its shots (cell names).
    fn state(&self) -> (String, String, u64, u64, Option<Vec<String>>, Vec<String>) {
        let setup = self.played.setup();
        let shots = self
            .played
            .shots()
            .iter()
            .map(|s| setup.dims.cell_name(s.cell))
            .collect();
        (
            format::text::print(&setup.empty()),
            self.placer_word.clone(),
            self.seed,
            self.draws,
            self.hidden.clone(),
            shots,
        )
    }

    /// The board `state` describes, in the same state: the same layout, the same shots, and
    /// the same layouts to come.
    fn restore(
        py: Python<'_>,
        (game, placer, seed, draws, hidden, shots): (
            String,
            String,
            u64,
            u64,
            Option<Vec<String>>,
            Vec<String>,
        ),
    ) -> PyResult<Board> {
        let spec = format::text::parse(&game).map_err(value_error)?;
        let mut board = Board::make(py, Setup::of(&spec), &placer, seed)?;
        for _ in 1..draws {
            board.reset(None)?;
        }
        if let Some(rows) = hidden {
            board.hide(rows)?;
        }
        let d = board.played.setup().dims;
        for name in shots {
            let cell = d.parse_cell(&name).map_err(value_error)?;
            board.played.fire(cell);
        }
        Ok(board)
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (size=None, fleet=None, rules="touch", sinking="announced", placer="uniform", seed=None))]
    fn new(
        py: Python<'_>,
        size: Option<&Bound<'_, PyAny>>,
        fleet: Option<&Bound<'_, PyAny>>,
        rules: &str,
        sinking: &str,
        placer: &str,
        seed: Option<i128>,
    ) -> PyResult<Board> {
        let seed: Option<u64> = natural_opt(seed, "seed")?;
        let setup = setup_of(size, fleet, rules, sinking, None)?;
        Board::make(py, setup, placer, seed.unwrap_or_else(rand::random))
    }

    /// Rebuilds a pickled board (see `__reduce__`).
    #[staticmethod]
    #[allow(
        clippy::type_complexity,
        reason = "the plain tuple is the pickle's own"
    )]
    fn _restore(
        py: Python<'_>,
        state: (String, String, u64, u64, Option<Vec<String>>, Vec<String>),
    ) -> PyResult<Board> {
        Board::restore(py, state)
    }

    /// Pickles as what rebuilds it (its game, placer, seed, layouts placed since, a hidden
    /// layout, its shots), so that a copy in another process hides the same layout, holds the
    /// same shots and places the same layouts next: vectorised environments, Dask and Ray
    /// workers take boards.
    #[allow(
        clippy::type_complexity,
        reason = "the plain tuple is the pickle's own"
    )]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        ((String, String, u64, u64, Option<Vec<String>>, Vec<String>),),
    )> {
        let restore = py.get_type::<Board>().getattr("_restore")?;
        Ok((restore, (self.state(),)))
    }

    /// An independent copy in the same state.
    fn __copy__(&self, py: Python<'_>) -> PyResult<Board> {
        Board::restore(py, self.state())
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Board> {
        Board::restore(py, self.state())
    }

    /// Hides a new layout (the RNG reseeded with `seed` when given) and clears the shots.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<i128>) -> PyResult<()> {
        if let Some(seed) = natural_opt::<u64>(seed, "seed")? {
            self.rng = StdRng::seed_from_u64(seed);
            self.seed = seed;
            self.draws = 0;
        }
        self.draws += 1;
        self.hidden = None;
        let layout = self
            .placer
            .place(&mut self.rng)
            .ok_or_else(|| value_error("the placer found no layout of this fleet on this board"))?;
        self.played = Played::new(self.played.setup().clone(), layout);
        Ok(())
    }

    /// Hides `layout` (rows of the layout picture: `.` water, `<m>` and `^m v` straight ships,
    /// `o` a one-cell ship, a letter per polyomino ship) instead of a placed one, and clears
    /// the shots. A layout that does not fit the fleet or the rules raises `ValueError`.
    fn hide(&mut self, layout: Vec<String>) -> PyResult<()> {
        let setup = self.played.setup().clone();
        let hidden =
            broadside::Layout::from_rows(&layout, setup.dims, &setup.fleet).map_err(value_error)?;
        broadside::check::layout(&setup.empty(), &hidden)
            .map_err(|errs| value_error(errs.join("; ")))?;
        self.played = Played::new(setup, hidden);
        self.hidden = Some(layout);
        Ok(())
    }

    /// Fires at `cell` and says what the shot reported, as a game record writes it
    /// (`"B5 miss"`, `"B5 hit"`, `"B5 sunk 3"`); a cell fired at before reports the same
    /// again and does not count as a new shot.
    fn fire(&mut self, cell: &Bound<'_, PyAny>) -> PyResult<String> {
        let setup = self.played.setup();
        let (d, fleet) = (setup.dims, setup.fleet.clone());
        let c = cell_of(d, cell)?;
        let result = self.played.fire(c);
        Ok(print_shot(d, &fleet, &broadside::Shot { cell: c, result }))
    }

    /// Whether every ship has been sunk.
    #[getter]
    fn over(&self) -> bool {
        self.played.is_over()
    }

    /// Shots fired so far.
    #[getter]
    fn shots(&self) -> usize {
        self.played.shots().len()
    }

    /// The hidden ships, as a bool array (rows, cols).
    fn ships<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let d = self.played.setup().dims;
        let mut rows = vec![vec![false; d.width]; d.height];
        for c in self.played.layout().cells() {
            let (r, col) = d.row_col(c);
            rows[r][col] = true;
        }
        PyArray2::from_vec2(py, &rows).map_err(value_error)
    }

    /// What the shooter knows: the shots so far as a `Game`. The board's views share the
    /// heat maps they count (exact, whichever view counted them), so a position met again, in
    /// this episode or a later one, or its mirror image, costs a look-up.
    fn view(&self) -> PyResult<Game> {
        let mut game = Game::from_spec(self.played.record())?;
        game.known.book = Some(self.book.clone());
        Ok(game)
    }
}

/// `n` boards drawn exactly uniformly from the layouts consistent with `game`, as a bool
/// array (n, rows, cols): true where a ship lies. Drawn on every core without the GIL; the
/// same seed gives the same boards.
#[pyfunction]
#[pyo3(signature = (game, n, seed=None))]
fn sample<'py>(
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
fn game_of(puzzle: &Bound<'_, PyAny>) -> PyResult<Py<Game>> {
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
fn solve(py: Python<'_>, puzzle: &Bound<'_, PyAny>, engine: &str) -> PyResult<Option<Vec<String>>> {
    game_of(puzzle)?.borrow(py).solve(py, engine)
}

/// The exact number of solutions of a puzzle (a file's path or a `Game`); `limit` stops
/// counting there.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, engine="auto", time_limit=None))]
fn count(
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
#[allow(clippy::too_many_arguments)]
fn simulate_chunk<'py>(
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
fn count_part(
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
fn thread_pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
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
fn word_of(kind: &str, word: &str) -> PyResult<String> {
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
fn shooters(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    progress::dict(
        py,
        &serde_json::json!({ "shooters": &SHOOTERS, "placers": &PLACERS }),
    )
}

#[pymodule]
fn _broadside(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Board>()?;
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
