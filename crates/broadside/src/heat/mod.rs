//! Hit probabilities: per-cell layout counts turned into a heat map, the best shots, and the
//! map drawn for a terminal or as SVG (`render.rs`).
//!
//! A [`HeatMap`] holds the exact number of layouts and, per cell, the exact number of those
//! with a ship there; a cell's probability is their ratio (every consistent layout equally
//! likely). [`HeatMap::best`] lists the open cells (no clue: not shot, not a rock) of highest
//! probability.
//!
//! ```
//! use broadside::{Dims, Fleet, ProblemSpec, Rules, heat::HeatMap, Engine};
//! let p = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch)
//!     .build()
//!     .unwrap();
//! let h = HeatMap::compute(&p, Engine::Auto).unwrap();
//! assert_eq!(h.layouts, 524);
//! assert_eq!(h.best().0, vec![2, 10, 14, 22]); // the middles of the edges, 126/524
//! ```

mod render;

pub use render::heat_colour;

use crate::engine::{CountError, CountInt, CountOptions, Engine, EngineKind};
use crate::problem::Problem;

/// Exact per-cell layout counts for one problem, in `u128` or (`HeatMap<BigUint>`) in
/// integers of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeatMap<N = u128> {
    /// Board width (cells are row-major).
    pub width: usize,
    /// The number of consistent layouts.
    pub layouts: N,
    /// Per cell, the layouts with a ship there.
    pub per_cell: Vec<N>,
    /// Whether each cell is open: no clue (not shot, no rock).
    pub open: Vec<bool>,
    /// The clue symbol of each cell that is not open (`*` or a segment for a hit, `~` a miss,
    /// `#` a rock), for drawing.
    pub marks: Vec<Option<char>>,
    /// The engine that counted; `None` for a map estimated from samples or read from a
    /// book file (see [`crate::play::Book`]).
    pub engine: Option<EngineKind>,
    /// Whether every layout was counted. A map cut short by a limit holds lower bounds, and
    /// its probabilities are not exact.
    pub complete: bool,
}

impl HeatMap {
    /// Counts with `engine` (per-cell counts included).
    pub fn compute(problem: &Problem, engine: Engine) -> Result<HeatMap, CountError> {
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            ..CountOptions::default()
        };
        Self::compute_with(problem, engine, &opts)
    }

    /// [`HeatMap::compute`] within `time_limit`: a map cut short is not
    /// [`HeatMap::complete`].
    pub fn compute_within(
        problem: &Problem,
        engine: Engine,
        time_limit: Option<std::time::Duration>,
    ) -> Result<HeatMap, CountError> {
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            time_limit,
            ..CountOptions::default()
        };
        Self::compute_with(problem, engine, &opts)
    }

    /// Counts with `engine` and the given options (`per_cell` is forced on). A count cut
    /// short by a limit gives a map whose [`HeatMap::complete`] is false. Counts past 2^128
    /// are [`CountError::Overflow`]; [`HeatMap::compute_in`] with [`BigUint`] takes them.
    ///
    /// [`BigUint`]: crate::BigUint
    pub fn compute_with(
        problem: &Problem,
        engine: Engine,
        opts: &CountOptions,
    ) -> Result<HeatMap, CountError> {
        Self::compute_in(problem, engine, opts)
    }
}

impl<N: CountInt> HeatMap<N> {
    /// [`HeatMap::compute_with`], counting in `N` ([`CountInt`]).
    pub fn compute_in(
        problem: &Problem,
        engine: Engine,
        opts: &CountOptions,
    ) -> Result<HeatMap<N>, CountError> {
        let opts = CountOptions {
            per_cell: true,
            limit: opts.limit,
            time_limit: opts.time_limit,
            parallel: opts.parallel,
            progress: None,
            memory_limit: opts.memory_limit,
            cancel: opts.cancel.clone(),
            replay: opts.replay.clone(),
        };
        let r = N::count(engine, problem, &opts)?;
        let mut heat = HeatMap::of_counts(
            problem,
            r.count,
            r.per_cell.unwrap_or_default(),
            Some(r.engine),
        );
        heat.complete = r.complete;
        Ok(heat)
    }

    /// The map of `problem` from its exact counts, counted by `engine` (`None`: not said,
    /// e.g. counts kept from before).
    pub fn of_counts(
        problem: &Problem,
        layouts: N,
        per_cell: Vec<N>,
        engine: Option<EngineKind>,
    ) -> HeatMap<N> {
        let spec = problem.spec();
        HeatMap {
            width: problem.dims().width,
            layouts,
            per_cell,
            open: (0..problem.dims().cells())
                .map(|c| spec.clue(c).is_none())
                .collect(),
            marks: (0..problem.dims().cells())
                .map(|c| spec.clue(c).map(crate::clue::Clue::symbol))
                .collect(),
            engine,
            complete: true,
        }
    }

    /// The probability of a ship at `cell` (0 when no layout is consistent).
    pub fn probability(&self, cell: usize) -> f64 {
        self.per_cell[cell].ratio(&self.layouts)
    }

    /// The open cells of highest probability, and that probability. Empty when no open cell
    /// can hold a ship.
    pub fn best(&self) -> (Vec<usize>, f64) {
        let Some(top) = (0..self.per_cell.len())
            .filter(|&c| self.open[c])
            .map(|c| &self.per_cell[c])
            .max()
            .filter(|top| !top.is_zero())
        else {
            return (Vec::new(), 0.0);
        };
        let cells = (0..self.per_cell.len())
            .filter(|&c| self.open[c] && self.per_cell[c] == *top)
            .collect();
        (cells, top.ratio(&self.layouts))
    }
}
