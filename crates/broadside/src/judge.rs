//! Judging a sampler: its samples measured against the exact answer.
//!
//! [`Judge`] takes the samples of any sampler (drawn here by [`judge_sampler`], or read from a
//! file) and gives a [`Judgement`]; two tests, each able to fail:
//! - **per cell** ([`CellReport`]): each cell's share of samples with a ship against its exact
//!   probability: the largest and mean absolute error, and how many cells fall outside their
//!   99% binomial interval `p ± 2.576 sqrt(p (1 - p) / n)`. About 1% may by chance; a cell of
//!   probability 0 or 1 may never. The test fails when clearly more fall outside than chance
//!   allows (more than `1% of cells + 3 sqrt(1% of cells) + 2`).
//! - **layouts** ([`FitReport`], for states of at most [`MAX_LAYOUTS_FOR_FIT`] layouts): a
//!   chi-square goodness-of-fit of the layouts' frequencies against uniform, with its
//!   p-value, and the total variation distance between the two distributions. The test fails
//!   when the p-value is below 0.01. It needs at least 5 expected samples per layout.
//!
//! A sample that is not a consistent layout fails the judgement by itself. [`Verdict`]
//! combines the tests.
//!
//! ```
//! use broadside::{Dims, Fleet, ProblemSpec, Rules, judge::judge_sampler, sample::SamplerKind};
//! use rand::SeedableRng;
//! let p = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch)
//!     .build()
//!     .unwrap();
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let j = judge_sampler(&p, SamplerKind::Uniform, 20_000, None, &mut rng);
//! let j = j.unwrap().unwrap();
//! assert!(j.pass && j.layouts == 524);
//! ```

use std::collections::HashMap;

use rand::Rng;
use serde::Serialize;

use crate::check;
use crate::engine::{Engine, Enumerator};
use crate::heat::HeatMap;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::sample::{SampleError, Sampler, SamplerKind};
use crate::stats::gamma_q;

/// The largest number of layouts for which [`chi_square`] is computed.
pub const MAX_LAYOUTS_FOR_FIT: usize = 100_000;

/// Per-cell frequencies against exact probabilities.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellReport {
    /// Samples.
    #[serde(skip)]
    pub samples: u64,
    /// The largest absolute difference between frequency and probability.
    pub max_error: f64,
    /// The mean absolute difference over the cells.
    pub mean_error: f64,
    /// Cells whose frequency is outside the 99% interval.
    #[serde(rename = "outside_99")]
    pub outside: usize,
    /// Cells tested.
    #[serde(rename = "tested")]
    pub cells: usize,
    /// Cells outside that chance alone allows.
    pub allowed: usize,
}

impl CellReport {
    /// Whether the cells pass.
    pub fn passes(&self) -> bool {
        self.outside <= self.allowed
    }
}

/// Compares per-cell ship counts over `samples` draws with the exact map.
pub fn per_cell(exact: &HeatMap, counts: &[u64], samples: u64) -> CellReport {
    let n = samples.max(1) as f64;
    let mut max_error: f64 = 0.0;
    let mut sum = 0.0;
    let mut outside = 0;
    for (c, &k) in counts.iter().enumerate() {
        let p = exact.probability(c);
        let f = k as f64 / n;
        let err = (f - p).abs();
        max_error = max_error.max(err);
        sum += err;
        let half = 2.576 * (p * (1.0 - p) / n).sqrt();
        // A tiny slack for floating point when p is 0 or 1.
        if err > half + 1e-12 {
            outside += 1;
        }
    }
    let cells = counts.len();
    let chance = 0.01 * cells as f64;
    CellReport {
        samples,
        max_error,
        mean_error: sum / cells.max(1) as f64,
        outside,
        cells,
        allowed: (chance + 3.0 * chance.sqrt() + 2.0).floor() as usize,
    }
}

/// A chi-square goodness-of-fit of layout frequencies against uniform.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitReport {
    /// Layouts (categories).
    #[serde(skip)]
    pub layouts: usize,
    /// Samples.
    #[serde(skip)]
    pub samples: u64,
    /// The statistic.
    pub chi2: f64,
    /// Degrees of freedom (`layouts - 1`).
    pub df: usize,
    /// The probability of a statistic at least this large under uniform sampling.
    pub p_value: f64,
    /// Total variation distance between the sample frequencies and uniform.
    pub tv: f64,
}

impl FitReport {
    /// Whether the fit passes at level 0.01.
    pub fn passes(&self) -> bool {
        self.p_value >= 0.01
    }
}

/// The chi-square test of `freqs` (samples per layout, zeros included) against uniform.
pub fn chi_square(freqs: &[u64]) -> FitReport {
    let layouts = freqs.len();
    let samples: u64 = freqs.iter().sum();
    let e = samples as f64 / layouts as f64;
    let chi2: f64 = freqs.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
    let tv = 0.5
        * freqs
            .iter()
            .map(|&o| (o as f64 / samples as f64 - 1.0 / layouts as f64).abs())
            .sum::<f64>();
    let df = layouts.saturating_sub(1);
    let p_value = if df == 0 {
        1.0
    } else {
        gamma_q(df as f64 / 2.0, chi2 / 2.0)
    };
    FitReport {
        layouts,
        samples,
        chi2,
        df,
        p_value,
        tv,
    }
}

/// Indexes every layout of a problem, to count samples per layout.
pub struct LayoutIndex {
    index: HashMap<Vec<Ship>, usize>,
}

impl LayoutIndex {
    /// Indexes the given layouts.
    pub fn new(all: impl IntoIterator<Item = Layout>) -> LayoutIndex {
        let index = all
            .into_iter()
            .enumerate()
            .map(|(i, l)| (l.canonical_ships(), i))
            .collect();
        LayoutIndex { index }
    }

    /// How many layouts.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The index of a layout, if it is one of them.
    pub fn get(&self, l: &Layout) -> Option<usize> {
        self.index.get(&l.canonical_ships()).copied()
    }
}

/// The overall judgement of a sampler.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Whether it passes every test that was run.
    pub pass: bool,
    /// One line per test, saying what was found.
    pub lines: Vec<String>,
}

/// Combines the reports; `invalid` is the number of samples that were not consistent layouts
/// (each one a failure by itself).
pub fn verdict(cells: &CellReport, fit: Option<&FitReport>, invalid: u64) -> Verdict {
    let mut lines = Vec::new();
    let mut pass = true;
    if invalid > 0 {
        pass = false;
        lines.push(format!(
            "FAIL: {invalid} samples are not layouts consistent with the state"
        ));
    }
    lines.push(format!(
        "{}: per cell over {} samples, max error {:.5}, mean error {:.5}, {} of {} cells outside their 99% interval (chance allows {})",
        if cells.passes() { "pass" } else { "FAIL" },
        cells.samples,
        cells.max_error,
        cells.mean_error,
        cells.outside,
        cells.cells,
        cells.allowed
    ));
    pass &= cells.passes();
    if let Some(f) = fit {
        lines.push(format!(
            "{}: layouts, chi-square {:.1} on {} degrees of freedom, p-value {:.4}, total variation distance {:.4}",
            if f.passes() { "pass" } else { "FAIL" },
            f.chi2,
            f.df,
            f.p_value,
            f.tv
        ));
        pass &= f.passes();
    }
    Verdict { pass, lines }
}

/// Samples of one problem being judged against its exact answer; see the module
/// documentation.
pub struct Judge<'p> {
    problem: &'p Problem,
    exact: HeatMap,
    /// Every layout, numbered, when there are few enough for the layout test.
    index: Option<LayoutIndex>,
    counts: Vec<u64>,
    freqs: Vec<u64>,
    invalid: u64,
    samples: u64,
}

/// What a [`Judge`] found: the figures of each test and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Where the samples came from, in words ("uniform sampler by dp, seed 7").
    pub source: String,
    /// Samples judged.
    pub samples: u64,
    /// The exact number of layouts.
    pub layouts: u128,
    /// Whether every test that ran passed.
    pub pass: bool,
    /// Samples that are not layouts consistent with the problem.
    pub invalid: u64,
    /// The per-cell test.
    pub cells: CellReport,
    /// The layout test, when it ran.
    pub fit: Option<FitReport>,
    /// One line per test, saying what was found.
    #[serde(skip)]
    pub lines: Vec<String>,
    /// Why the layout test did not run, when it did not.
    #[serde(skip)]
    pub fit_skipped: Option<String>,
}

impl<'p> Judge<'p> {
    /// Prepares the exact answer: the heat map, and every layout when there are at most
    /// [`MAX_LAYOUTS_FOR_FIT`]. `None` when no layout is consistent with the problem.
    pub fn new(problem: &'p Problem) -> Result<Option<Judge<'p>>, SampleError> {
        Judge::within(problem, None)
    }

    /// [`Judge::new`], its exact count made within `time_limit` ([`SampleError::Time`] past
    /// it).
    pub fn within(
        problem: &'p Problem,
        time_limit: Option<std::time::Duration>,
    ) -> Result<Option<Judge<'p>>, SampleError> {
        let opts = crate::engine::CountOptions {
            parallel: true,
            time_limit,
            ..Default::default()
        };
        let exact = HeatMap::compute_with(problem, Engine::Auto, &opts)?;
        if !exact.complete {
            return Err(SampleError::Time);
        }
        if exact.layouts == 0 {
            return Ok(None);
        }
        let index = (exact.layouts <= MAX_LAYOUTS_FOR_FIT as u128)
            .then(|| LayoutIndex::new(Enumerator::new(problem).solutions()));
        let freqs = vec![0; index.as_ref().map_or(0, LayoutIndex::len)];
        Ok(Some(Judge {
            problem,
            exact,
            index,
            counts: vec![0; problem.dims().cells()],
            freqs,
            invalid: 0,
            samples: 0,
        }))
    }

    /// The exact heat map the samples are judged against.
    pub fn exact(&self) -> &HeatMap {
        &self.exact
    }

    /// Counts one sample.
    pub fn add(&mut self, layout: &Layout) {
        self.samples += 1;
        let valid = match &self.index {
            Some(ix) => ix.get(layout).map(|i| self.freqs[i] += 1).is_some(),
            None => check::layout(self.problem.spec(), layout).is_ok(),
        };
        if valid {
            for c in layout.cells() {
                self.counts[c] += 1;
            }
        } else {
            self.invalid += 1;
        }
    }

    /// Samples counted so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The judgement of the samples counted, which came from `source` (in words).
    pub fn finish(&self, source: String) -> Judgement {
        let cells = per_cell(&self.exact, &self.counts, self.samples);
        let fit = self
            .index
            .as_ref()
            .filter(|ix| self.samples >= 5 * ix.len() as u64)
            .map(|_| chi_square(&self.freqs));
        let fit_skipped = match (&fit, &self.index) {
            (Some(_), _) => None,
            (None, Some(ix)) => Some(format!(
                "layout test skipped: it needs at least {} samples, 5 per layout",
                5 * ix.len()
            )),
            (None, None) => Some(format!(
                "layout test skipped: more than {MAX_LAYOUTS_FOR_FIT} layouts"
            )),
        };
        let v = verdict(&cells, fit.as_ref(), self.invalid);
        Judgement {
            name: self.problem.spec().meta.name.clone(),
            source,
            samples: self.samples,
            layouts: self.exact.layouts,
            pass: v.pass,
            invalid: self.invalid,
            cells,
            fit,
            lines: v.lines,
            fit_skipped,
        }
    }
}

/// Draws `n` samples from a sampler of `kind` (fewer if `time_limit` runs out first; the
/// judgement says how many) and judges them. `None` when no layout is consistent with the
/// problem.
pub fn judge_sampler<R: Rng + ?Sized>(
    problem: &Problem,
    kind: SamplerKind,
    n: u64,
    time_limit: Option<std::time::Duration>,
    rng: &mut R,
) -> Result<Option<Judgement>, SampleError> {
    judge_sampler_with(problem, kind, n, time_limit, rng, &|_| {})
}

/// [`judge_sampler`], telling `progress` how many samples are drawn after each one (a long
/// run's bar and time estimate).
pub fn judge_sampler_with<R: Rng + ?Sized>(
    problem: &Problem,
    kind: SamplerKind,
    n: u64,
    time_limit: Option<std::time::Duration>,
    rng: &mut R,
    progress: &dyn Fn(u64),
) -> Result<Option<Judgement>, SampleError> {
    let start = std::time::Instant::now();
    let Some(mut judge) = Judge::within(problem, time_limit)? else {
        return Ok(None);
    };
    let left = time_limit.map(|t| t.saturating_sub(start.elapsed()));
    let mut sampler = Sampler::within(problem.clone(), kind, left)?;
    for i in 0..n {
        match sampler.sample(rng) {
            Some(l) => judge.add(&l),
            None => break,
        }
        progress(i + 1);
    }
    let source = format!("{kind:?} sampler by {}", sampler.method()).to_lowercase();
    Ok(Some(judge.finish(source)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_frequencies_fit_and_skewed_ones_do_not() {
        let fair = chi_square(&[100, 98, 103, 99]);
        assert!(fair.passes() && fair.tv < 0.02);
        let skewed = chi_square(&[150, 50, 100, 100]);
        assert!(!skewed.passes());
    }
}
