//! `Game`: what one side knows of a board, answering the exact questions, checking a
//! person's progress and giving hints.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use broadside::answer::{self, CountReport, HeatReport, NoLayout, ProbsReport, SolveReport};
use broadside::format;
use broadside::observe::{ShotResult, parse_shot, print_shot};
use broadside::play::Book;
use broadside::sample::Sampler;
use broadside::{BigUint, Clue, CountOptions, Dims, Engine, Problem, ProblemSpec};
use numpy::PyArray2;
use pyo3::exceptions::{PyOSError, PyTimeoutError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::args::{cell_of, duration, engine_of, natural_opt, read_file, setup_of, value_error};
use crate::progress;

/// A built problem and what has been worked out about it, dropped whole when the problem
/// changes. The sampler shares the problem.
pub(crate) struct Known {
    pub(crate) problem: Arc<Problem>,
    pub(crate) sampler: Option<Sampler>,
    pub(crate) layouts: Option<BigUint>,
    pub(crate) heat: Option<HeatReport>,
    /// The heat maps of the board's positions, when the game is a view of a `Board`: shared
    /// by its views, so an episode after another finds its openings counted.
    pub(crate) book: Option<Arc<Book>>,
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
                match answer::count(&self.problem, &answer::Options::new().parallel())
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
        let asked = answer::Options::new()
            .engine(engine)
            .parallel()
            .time_limit(time_limit);
        let report = match &self.book {
            Some(book) => answer::probs_in(&self.problem, book, &asked),
            None => answer::probs(&self.problem, &asked),
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
    pub(crate) fn sampler(&mut self) -> PyResult<&Sampler> {
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
pub(crate) struct Game {
    pub(crate) known: Known,
}

impl Game {
    pub(crate) fn from_spec(spec: ProblemSpec) -> PyResult<Game> {
        Ok(Game {
            known: Known::new(spec)?,
        })
    }

    /// The problem as given (the engines' spec also holds the clues the shots imply).
    fn spec(&self) -> &ProblemSpec {
        self.known.problem.given()
    }

    pub(crate) fn dims(&self) -> Dims {
        self.known.problem.dims()
    }

    /// A game (not a file's problem, which may ask whether a puzzle has a solution) refuses
    /// a board or a shot that leaves it with an obvious conflict, saying why.
    pub(crate) fn refuse_conflicts(self) -> PyResult<Game> {
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
    pub(crate) fn load(path: PathBuf) -> PyResult<Game> {
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
    pub(crate) fn count(
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
        let asked = answer::Options::new()
            .engine(engine)
            .counting(CountOptions {
                limit,
                time_limit,
                parallel: limit.is_none(),
                ..CountOptions::default()
            });
        let problem = &*known.problem;
        let report = py
            .detach(|| answer::count(problem, &asked))
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
            .detach(|| {
                answer::check(
                    &problem,
                    &answer::Options::new().engine(engine).time_limit(time_limit),
                )
            })
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
            .detach(|| {
                answer::hint(
                    &problem,
                    &answer::Options::new().engine(engine).time_limit(time_limit),
                    all,
                )
            })
            .map_err(progress::error)?;
        progress::dict(py, &report)
    }

    /// One layout consistent with what is known, as rows of the layout picture (`<`, `>`,
    /// `^`, `v`, `o`, `#` for ship cells, `.` for water), or `None` when there is none.
    #[pyo3(signature = (engine="auto"))]
    pub(crate) fn solve(&self, py: Python<'_>, engine: &str) -> PyResult<Option<Vec<String>>> {
        let engine = engine_of(engine)?;
        let problem = &*self.known.problem;
        match py
            .detach(|| answer::solve(problem, &answer::Options::new().engine(engine)))
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
