//! Heat maps estimated from a sampler's draws, with a Wilson 95% interval per cell: what
//! `sample --probs` prints, and what the sampled shooters and the accuracy evaluation read.

use rand::Rng;
use serde::Serialize;

use super::{MAX_ATTEMPTS, Sampler, SamplerKind};
use crate::heat::HeatMap;
use crate::problem::Problem;
use crate::stats::wilson;

/// The estimated chance of a ship on each cell from draws of a sampler, with Wilson 95%
/// intervals: what `sample --probs` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Layouts drawn.
    pub samples: u64,
    /// The sampler.
    pub sampler: SamplerKind,
    /// The seed of the draws, when the caller gives it.
    pub seed: Option<u64>,
    /// For rejection-style samplers, the share of draws kept.
    pub acceptance: Option<f64>,
    /// Per row, per cell: the share of samples with a ship there.
    pub estimates: Vec<Vec<f64>>,
    /// Per row, per cell: the Wilson 95% interval of that share.
    pub intervals95: Vec<Vec<[f64; 2]>>,
    /// Per cell (row-major), the samples with a ship there.
    #[serde(skip)]
    pub counts: Vec<u64>,
    /// How the sampler drew ([`Sampler::method`]).
    #[serde(skip)]
    pub method: &'static str,
}

impl Estimate {
    /// The estimate as a heat map (its counts out of [`Estimate::samples`] layouts; no
    /// engine), to draw like an exact one.
    pub fn heat_map(&self, problem: &Problem) -> HeatMap {
        let spec = problem.spec();
        let cells = problem.dims().cells();
        HeatMap {
            width: problem.dims().width,
            layouts: self.samples as u128,
            per_cell: self.counts.iter().map(|&c| c as u128).collect(),
            open: (0..cells).map(|c| spec.clue(c).is_none()).collect(),
            marks: (0..cells)
                .map(|c| spec.clue(c).map(crate::clue::Clue::symbol))
                .collect(),
            engine: None,
            complete: true,
        }
    }

    /// The largest half-width of the cells' intervals.
    pub fn widest_half_interval(&self) -> f64 {
        self.intervals95
            .iter()
            .flatten()
            .map(|[lo, hi]| (hi - lo) / 2.0)
            .fold(0.0, f64::max)
    }
}

/// Draws up to `n` layouts from `sampler` and estimates each cell's chance of a ship. Fewer
/// are drawn when a rejection-style sampler gives up ([`Estimate::samples`] says how many).
pub fn estimate<R: Rng + ?Sized>(sampler: &mut Sampler, n: u64, rng: &mut R) -> Estimate {
    let d = sampler.problem.dims();
    let (counts, drawn) = cell_counts(sampler, n, MAX_ATTEMPTS, rng);
    let share = |k: u64| {
        if drawn == 0 {
            0.0
        } else {
            k as f64 / drawn as f64
        }
    };
    let rows = counts.chunks(d.width);
    Estimate {
        name: sampler.problem.spec().meta.name.clone(),
        samples: drawn,
        sampler: sampler.kind,
        seed: None,
        acceptance: sampler.acceptance(),
        estimates: rows
            .clone()
            .map(|r| r.iter().map(|&k| share(k)).collect())
            .collect(),
        intervals95: rows
            .map(|r| r.iter().map(|&k| wilson(k, drawn).into()).collect())
            .collect(),
        counts,
        method: sampler.method(),
    }
}

/// Draws up to `n` layouts from `sampler` and counts, per cell, those with a ship there; also
/// says how many were drawn (fewer when a rejection-style sampler gives up after `attempts`
/// draws in a row were rejected, or its time runs out).
pub fn cell_counts<R: Rng + ?Sized>(
    sampler: &mut Sampler,
    n: u64,
    attempts: u64,
    rng: &mut R,
) -> (Vec<u64>, u64) {
    let mut counts = vec![0u64; sampler.problem.dims().cells()];
    let mut drawn = 0;
    while drawn < n {
        let Some(layout) = sampler.sample_within(rng, attempts) else {
            break;
        };
        drawn += 1;
        for c in layout.cells() {
            counts[c] += 1;
        }
    }
    (counts, drawn)
}
