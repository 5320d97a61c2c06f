//! `Board`: a hidden layout placed by one of the library's placers, to fire at.

use std::str::FromStr;
use std::sync::Arc;

use broadside::format;
use broadside::observe::print_shot;
use broadside::play::{Book, Game as Played, Placer, PlacerKind, Setup};
use numpy::PyArray2;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::args::{cell_of, natural_opt, setup_of, value_error};
use crate::game::Game;

/// A hidden layout to fire at, placed by one of broadside's placers.
#[pyclass(module = "broadside", name = "Board")]
pub(crate) struct Board {
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
