//! `probs` and `best`: the exact chance of a ship on each cell, and where to fire next.

use num_bigint::BigUint;
use serde::Serialize;

use super::rows;
use crate::diagnose::{NoLayout, no_layout};
use crate::engine::{CountInt, CountOptions, Engine, EngineKind};
use crate::error::Error;
use crate::geom::Dims;
use crate::heat::HeatMap;
use crate::problem::Problem;

/// What [`probs`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ProbsReport {
    /// The heat map.
    Map(HeatReport),
    /// No layout fits, and what can be said of why.
    NoLayout(NoLayout),
    /// The time limit ran out before any per-cell count.
    NoMap(NoMap),
}

/// No map: the count was cut short before it had any per-cell count (the DP counts every
/// layout at its last cell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoMap {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always false.
    pub complete: bool,
    /// What happened, in words.
    pub reason: String,
}

/// A heat map: exact per-cell layout counts and the probabilities they give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatReport {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Consistent layouts (a lower bound when not `complete`); JSON writes it as an exact
    /// integer of any size.
    #[serde(serialize_with = "super::exact")]
    pub layouts: BigUint,
    /// Per row, per cell: the layouts with a ship there.
    #[serde(serialize_with = "super::exact_grid")]
    pub counts: Vec<Vec<BigUint>>,
    /// Per row, per cell: the probability of a ship there.
    pub probabilities: Vec<Vec<f64>>,
    /// The engine that counted.
    pub engine: EngineKind,
    /// Whether every layout was counted; a partial map holds lower bounds and its
    /// probabilities are not exact.
    pub complete: bool,
    /// The map itself, for drawing.
    #[serde(skip)]
    pub map: HeatMap<BigUint>,
}

/// What [`best`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BestReport {
    /// The cells to fire at.
    Best(Best),
    /// No layout fits, and what can be said of why.
    NoLayout(NoLayout),
    /// The time limit ran out before any per-cell count.
    NoMap(NoMap),
}

/// The open cells most likely to hold a ship.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Best {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Consistent layouts (a lower bound when not `complete`).
    #[serde(serialize_with = "super::exact")]
    pub layouts: BigUint,
    /// Their probability; `None` when the count is partial (the maximum of a half-searched
    /// space means nothing).
    pub probability: Option<f64>,
    /// The cells of highest probability, tied; empty when no open cell can hold a ship or the
    /// count is partial.
    pub cells: Vec<BestCell>,
    /// The engine that counted.
    pub engine: EngineKind,
    /// Whether every layout was counted.
    pub complete: bool,
}

/// One best cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BestCell {
    /// Its name, e.g. `E5`.
    pub cell: String,
    /// Its row (0-based).
    pub row: usize,
    /// Its column (0-based).
    pub col: usize,
    /// The layouts with a ship there.
    #[serde(serialize_with = "super::exact")]
    pub count: BigUint,
}

impl ProbsReport {
    /// Whether the answer is a yes: a map, complete or partial.
    pub fn answered(&self) -> bool {
        matches!(self, ProbsReport::Map(_))
    }

    /// Whether the answer is exact (a complete map, or no layout), not cut short by a limit.
    pub fn exact(&self) -> bool {
        match self {
            ProbsReport::Map(h) => h.complete,
            ProbsReport::NoLayout(_) => true,
            ProbsReport::NoMap(_) => false,
        }
    }
}

impl BestReport {
    /// Whether the answer is a yes: a complete count named the best cells.
    pub fn answered(&self) -> bool {
        matches!(self, BestReport::Best(b) if b.complete)
    }

    /// Whether the answer is exact (a complete count, or no layout), not cut short by a limit.
    pub fn exact(&self) -> bool {
        match self {
            BestReport::Best(b) => b.complete,
            BestReport::NoLayout(_) => true,
            BestReport::NoMap(_) => false,
        }
    }
}

/// The heat map of `problem` by `engine` (per-cell counts are always asked for; `opts` gives
/// the limits). A count cut short gives a partial map, not "no layout".
pub fn probs(problem: &Problem, engine: Engine, opts: &CountOptions) -> Result<ProbsReport, Error> {
    if !problem.conflicts().is_empty() {
        return Ok(ProbsReport::NoLayout(no_layout(problem)));
    }
    let map = HeatMap::<BigUint>::compute_in(problem, engine, opts)?;
    if map.layouts.is_zero() && map.complete {
        return Ok(ProbsReport::NoLayout(no_layout(problem)));
    }
    if map.per_cell.is_empty() {
        return Ok(ProbsReport::NoMap(NoMap {
            name: problem.spec().meta.name.clone(),
            complete: false,
            reason: format!(
                "the time limit ran out before the {} engine had any per-cell count",
                map.engine.map_or("chosen".to_string(), |e| e.to_string())
            ),
        }));
    }
    let width = problem.dims().width;
    Ok(ProbsReport::Map(HeatReport {
        name: problem.spec().meta.name.clone(),
        layouts: map.layouts.clone(),
        counts: rows(width, map.per_cell.iter().cloned()),
        probabilities: rows(width, (0..map.per_cell.len()).map(|c| map.probability(c))),
        engine: map.engine.unwrap_or(EngineKind::Enum),
        complete: map.complete,
        map,
    }))
}

/// The open cells of `problem` most likely to hold a ship; see [`probs`].
pub fn best(problem: &Problem, engine: Engine, opts: &CountOptions) -> Result<BestReport, Error> {
    Ok(match probs(problem, engine, opts)? {
        ProbsReport::Map(h) => BestReport::Best(h.best(problem.dims())),
        ProbsReport::NoLayout(no) => BestReport::NoLayout(no),
        ProbsReport::NoMap(no) => BestReport::NoMap(no),
    })
}

impl HeatReport {
    /// The open cells most likely to hold a ship on this map of a board of `dims`; none when
    /// the map is partial.
    pub fn best(&self, dims: Dims) -> Best {
        let (cells, probability) = self.map.best();
        let cells = if self.complete { cells } else { Vec::new() };
        Best {
            name: self.name.clone(),
            layouts: self.layouts.clone(),
            probability: self.complete.then_some(probability),
            cells: cells
                .iter()
                .map(|&c| {
                    let (row, col) = dims.row_col(c);
                    BestCell {
                        cell: dims.cell_name(c),
                        row,
                        col,
                        count: self.map.per_cell[c].clone(),
                    }
                })
                .collect(),
            engine: self.engine,
            complete: self.complete,
        }
    }
}
