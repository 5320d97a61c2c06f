//! Random layouts consistent with a problem: exact-uniform samplers and the biased ones
//! people use, so that [`crate::judge`] can measure them against the exact answer.
//!
//! - [`SamplerKind::Uniform`]: exact. It counts the layouts first; that count gives the
//!   acceptance rate of rejection sampling in closed form (layouts times the ways to label
//!   identical ships, over the product of the ships' placement counts), and when that rate is
//!   at least [`REJECTION_MIN_ACCEPTANCE`] it samples by rejection (exact, and the fastest on
//!   open boards). With at most [`LIST_MAX_LAYOUTS`] layouts it lists them all once and picks
//!   one at random per draw. Otherwise it walks the DP's tables where the DP applies
//!   ([`crate::DpSampler`]), else descends the enumerator's tree guided by exact counts
//!   ([`crate::DescentSampler`]).
//! - [`SamplerKind::Rejection`]: draws every ship independently and uniformly among its own
//!   allowed placements and rejects the whole layout on any conflict. Exactly uniform
//!   (identical ships are drawn as labelled ones, and each layout has the same number of
//!   labellings); fast on open boards, slow where the constraints are tight. Reports its
//!   acceptance rate.
//! - [`SamplerKind::Sequential`]: the common naive method: each ship in turn uniform among
//!   the placements that still fit, starting again when one does not fit or the finished
//!   layout breaks a constraint. Biased.
//! - [`SamplerKind::Weighted`]: Naslausky and Figueiredo's: each ship in turn drawn with
//!   weight `1 + 5D + 4S` (`D` hits it covers, `S` sonar rings it meets), keeping consistent
//!   layouts. Biased.
//!
//! [`estimate()`] turns draws into an estimated heat map with a 95% interval per cell
//! ([`Estimate`], in `estimate.rs`); [`fill_grids`] draws many boards at once on every core
//! (`grids.rs`). Rejection attempts test each ship and the finished layout on word masks of
//! the cells (`draws.rs`).
//!
//! Every sampler takes the caller's RNG, so a seed fixes the draws.

mod draws;
mod estimate;
mod grids;

pub use estimate::{Estimate, cell_counts, estimate};
pub use grids::fill_grids;

use std::sync::Arc;

use rand::{Rng, RngExt};
use serde::Serialize;

use crate::choice::named_choices;
use crate::engine::{CountError, DescentSampler, DpEngine, DpSampler};
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

/// Why a sampler could not be prepared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// The exact count found no layout to draw.
    #[error("no layout is consistent with the problem")]
    NoLayout,
    /// The exact count behind the uniform sampler failed.
    #[error(transparent)]
    Count(#[from] CountError),
    /// The time limit ran out before the sampler was ready.
    #[error(
        "the time limit ran out before the exact count (of the uniform sampler, or of the judge) was made"
    )]
    Time,
}

/// The probability that independent uniform draws of every ship (from its allowed
/// placements) form one of the `layouts` consistent layouts: each layout is drawn as any of
/// its `prod n!` labellings, out of `prod |placements|^n` equally likely draws.
pub fn predicted_acceptance(problem: &Problem, layouts: u128) -> f64 {
    let mut p = layouts as f64;
    for (ty, t) in problem.fleet().types().iter().enumerate() {
        let k = problem.placements(ty).len() as f64;
        for i in 1..=t.count {
            p *= i as f64 / k;
        }
    }
    p.min(1.0)
}

/// The fewest layouts for which [`predicted_acceptance`] reaches
/// [`REJECTION_MIN_ACCEPTANCE`], where the uniform sampler draws by rejection (the
/// acceptance grows with the layouts, so any count from this one on gives the same choice);
/// `u128::MAX` where none does.
pub fn rejection_from(problem: &Problem) -> u128 {
    let enough = |n: u128| predicted_acceptance(problem, n) >= REJECTION_MIN_ACCEPTANCE;
    let per_layout = predicted_acceptance(problem, 1).max(f64::MIN_POSITIVE);
    // A guess from the quotient, then the least such count by doubling and bisection.
    let guess = (REJECTION_MIN_ACCEPTANCE / per_layout).ceil();
    let mut lo = 0u128;
    let mut hi = if guess < 1e36 {
        (guess as u128).max(1)
    } else {
        u128::MAX
    };
    while !enough(hi) {
        if hi == u128::MAX {
            return u128::MAX;
        }
        lo = hi;
        hi = hi.saturating_mul(2);
    }
    // `hi` is enough and `lo` is not (0 never is): the least lies in (lo, hi].
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if enough(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The samplers broadside has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SamplerKind {
    /// Exactly uniform, through exact counts.
    Uniform,
    /// Exactly uniform, by rejection of independent draws.
    Rejection,
    /// One ship at a time, uniform among what still fits (biased).
    Sequential,
    /// One ship at a time, weighted `1 + 5D + 4S` (biased).
    Weighted,
}

named_choices!(SamplerKind, "sampler", {
    SamplerKind::Uniform => "uniform",
    SamplerKind::Rejection => "rejection",
    SamplerKind::Sequential => "sequential",
    SamplerKind::Weighted => "weighted",
});

/// How the exact-uniform sampler draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformMethod {
    /// Rejection of independent draws (any problem; fast when the acceptance is high).
    Rejection,
    /// A walk through the DP's tables (where the DP applies).
    Dp,
    /// Count-guided descent in the enumerator (any problem).
    Descent,
    /// Every layout listed once, then one picked at random per draw (small states).
    List,
}

/// The largest number of layouts the uniform sampler lists in memory.
pub const LIST_MAX_LAYOUTS: u128 = 200_000;

/// The predicted acceptance rate above which the uniform sampler samples by rejection: one
/// rejection attempt costs about a hundredth of a DP walk.
pub const REJECTION_MIN_ACCEPTANCE: f64 = 0.02;

/// How many attempts a rejection-style sampler makes for one layout before giving up.
pub const MAX_ATTEMPTS: u64 = 10_000_000;

/// How many draws in a row a rejection-style sampler makes for one board when a caller wants a
/// heat map soon (the sampled shooter, the accuracy evaluation) rather than every board.
pub const ATTEMPTS_PER_BOARD: u64 = 100_000;

/// The least predicted acceptance at which the uniform sampler draws by rejection when the
/// DP's tables do not fit in memory: about ten layouts per [`MAX_ATTEMPTS`] draws.
pub const REJECTION_FALLBACK_ACCEPTANCE: f64 = 1e-6;

/// How a sampler draws; the tables are shared by a sampler's forks.
#[derive(Clone)]
enum Inner {
    Dp(Arc<DpSampler>),
    Descent(Arc<DescentSampler>),
    List(Arc<Vec<Layout>>),
    Draws,
}

/// A sampler for one problem, which it keeps (shared, so that its forks and its caller can
/// hold the same problem); see the module documentation. [`Sampler::fork`] gives another
/// thread a sampler of its own over the same tables.
pub struct Sampler {
    problem: Arc<Problem>,
    kind: SamplerKind,
    inner: Inner,
    /// Layouts drawn before rejection (rejection-style samplers), and those accepted.
    attempts: u64,
    accepted: u64,
    /// The problem's cell sets for rejection attempts, made at the first attempt.
    masks: Option<Arc<draws::Masks>>,
    /// A rejection attempt's scratch.
    scratch: draws::Scratch,
    /// When a sampler made [`Sampler::within`] a time limit stops drawing, and whether it has.
    deadline: Option<std::time::Instant>,
    timed_out: bool,
}

impl Sampler {
    /// Prepares a sampler. For the uniform sampler this computes the exact tables (the DP's
    /// forward and backward passes) where the DP applies.
    ///
    /// The uniform sampler counts first, so it refuses a problem that no layout fits with
    /// [`SampleError::NoLayout`]; the others find out by drawing nothing.
    pub fn new(
        problem: impl Into<Arc<Problem>>,
        kind: SamplerKind,
    ) -> Result<Sampler, SampleError> {
        Sampler::within(problem, kind, None)
    }

    /// [`Sampler::new`], preparing for at most `time_limit` ([`SampleError::Time`] past it).
    pub fn within(
        problem: impl Into<Arc<Problem>>,
        kind: SamplerKind,
        time_limit: Option<std::time::Duration>,
    ) -> Result<Sampler, SampleError> {
        Sampler::within_or_cancelled(problem, kind, time_limit, None)
    }

    /// [`Sampler::within`], whose exact count also stops once `cancel` is raised
    /// ([`SampleError::Time`] then).
    pub fn within_or_cancelled(
        problem: impl Into<Arc<Problem>>,
        kind: SamplerKind,
        time_limit: Option<std::time::Duration>,
        cancel: Option<crate::Cancel>,
    ) -> Result<Sampler, SampleError> {
        let problem = problem.into();
        if kind != SamplerKind::Uniform {
            return Ok(Sampler::with(problem, kind, Inner::Draws, time_limit));
        }
        let start = std::time::Instant::now();
        let opts = crate::CountOptions {
            parallel: true,
            time_limit,
            cancel,
            ..crate::CountOptions::default()
        };
        // Rejection is chosen from a number of layouts on: where the enumerator is the
        // engine that counts, it stops there, which is all the choice needs (an early state
        // of a game has billions of layouts, and rejection draws it well).
        let enough = rejection_from(&problem);
        let r = crate::engine::portfolio::count_past(&problem, enough, &opts)?;
        if r.stopped == Some(crate::Stop::Limit) && r.count >= enough {
            return Ok(Sampler::with(problem, kind, Inner::Draws, time_limit));
        }
        if !r.complete {
            return Err(SampleError::Time);
        }
        let left = time_limit.map(|t| t.saturating_sub(start.elapsed()));
        Sampler::uniform_given(problem, r.count, left)
    }

    /// The exact-uniform sampler of a problem whose number of layouts is already known
    /// (`layouts`, exact: a wrong count would bias the choice of method, not the draws, but
    /// is refused by nothing), prepared within `time_limit`.
    pub fn uniform_given(
        problem: impl Into<Arc<Problem>>,
        layouts: u128,
        time_limit: Option<std::time::Duration>,
    ) -> Result<Sampler, SampleError> {
        let problem = problem.into();
        if layouts == 0 {
            return Err(SampleError::NoLayout);
        }
        let acceptance = predicted_acceptance(&problem, layouts);
        let inner = if acceptance >= REJECTION_MIN_ACCEPTANCE {
            Inner::Draws
        } else if layouts <= LIST_MAX_LAYOUTS {
            Inner::List(Arc::new(
                crate::Enumerator::new(&problem).solutions().collect(),
            ))
        } else {
            match DpEngine::new(&problem).map(|dp| dp.sampler_within(time_limit)) {
                Ok(Ok(Some(s))) => Inner::Dp(Arc::new(s)),
                Ok(Ok(None)) => return Err(SampleError::Time),
                // Where the DP's tables do not fit in its memory (or the DP does not
                // apply): rejection while it accepts often enough to draw, else the
                // descent, which keeps nothing but costs a count per draw.
                Ok(Err(CountError::Memory(_))) | Err(_)
                    if acceptance >= REJECTION_FALLBACK_ACCEPTANCE =>
                {
                    Inner::Draws
                }
                Ok(Err(CountError::Memory(_))) | Err(_) => {
                    Inner::Descent(Arc::new(DescentSampler::new(&problem)))
                }
                Ok(Err(e)) => return Err(e.into()),
            }
        };
        Ok(Sampler::with(
            problem,
            SamplerKind::Uniform,
            inner,
            time_limit,
        ))
    }

    fn with(
        problem: Arc<Problem>,
        kind: SamplerKind,
        inner: Inner,
        time_limit: Option<std::time::Duration>,
    ) -> Sampler {
        Sampler {
            masks: None,
            scratch: draws::Scratch::default(),
            problem,
            kind,
            inner,
            attempts: 0,
            accepted: 0,
            deadline: time_limit.and_then(|t| std::time::Instant::now().checked_add(t)),
            timed_out: false,
        }
    }

    /// A sampler of the same kind drawing the same way, sharing this one's tables (the DP's,
    /// the list), with its own scratch and tallies: one per thread. Its time limit is this
    /// one's.
    pub fn fork(&self) -> Sampler {
        Sampler {
            inner: self.inner.clone(),
            masks: self.masks.clone(),
            deadline: self.deadline,
            ..Sampler::with(self.problem.clone(), self.kind, Inner::Draws, None)
        }
    }

    /// Whether the sampler stopped drawing because its time limit ran out.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// Draws from now on stop at `deadline` (`None`: never), whatever the time limit it was
    /// prepared within: a sampler kept from one task to the next takes each task's own.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
        self.timed_out = false;
    }

    /// The exact-uniform sampler drawing by a chosen method; `None` when the DP is asked
    /// for and does not apply, or the list for a state of more than [`LIST_MAX_LAYOUTS`].
    pub fn uniform_by(
        problem: impl Into<Arc<Problem>>,
        method: UniformMethod,
    ) -> Result<Option<Sampler>, CountError> {
        let problem = problem.into();
        let inner = match method {
            UniformMethod::Rejection => Inner::Draws,
            UniformMethod::Descent => Inner::Descent(Arc::new(DescentSampler::new(&problem))),
            UniformMethod::List => {
                let all: Vec<Layout> = crate::Enumerator::new(&problem).solutions().collect();
                if all.len() as u128 > LIST_MAX_LAYOUTS {
                    return Ok(None);
                }
                Inner::List(Arc::new(all))
            }
            UniformMethod::Dp => match DpEngine::new(&problem) {
                Ok(dp) => Inner::Dp(Arc::new(dp.sampler()?)),
                Err(_) => return Ok(None),
            },
        };
        Ok(Some(Sampler::with(
            problem,
            SamplerKind::Uniform,
            inner,
            None,
        )))
    }

    /// Which sampler this is.
    pub fn kind(&self) -> SamplerKind {
        self.kind
    }

    /// For the rejection-style samplers, the share of drawn layouts kept so far.
    pub fn acceptance(&self) -> Option<f64> {
        (self.attempts > 0).then(|| self.accepted as f64 / self.attempts as f64)
    }

    /// One layout, or `None` when there is none (or, for the rejection-style samplers, when
    /// [`MAX_ATTEMPTS`] draws in a row were all rejected, or past the time limit of
    /// [`Sampler::within`], which [`Sampler::timed_out`] then says). One draw of the descent
    /// is not interrupted: on a large, tight board it can pass the limit.
    pub fn sample<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Layout> {
        self.sample_within(rng, MAX_ATTEMPTS)
    }

    /// As [`Sampler::sample`], but a rejection-style sampler gives up after `attempts` draws
    /// in a row were rejected (so a caller can watch the clock or switch method).
    pub fn sample_within<R: Rng + ?Sized>(&mut self, rng: &mut R, attempts: u64) -> Option<Layout> {
        let late =
            |d: &Option<std::time::Instant>| d.is_some_and(|d| std::time::Instant::now() >= d);
        if late(&self.deadline) {
            self.timed_out = true;
            return None;
        }
        match &self.inner {
            Inner::Dp(s) => s.sample(rng),
            Inner::Descent(s) => s.sample(rng),
            Inner::List(all) => {
                (!all.is_empty()).then(|| all[rng.random_range(0..all.len())].clone())
            }
            Inner::Draws => {
                for i in 0..attempts {
                    if i & 0xfff == 0xfff && late(&self.deadline) {
                        self.timed_out = true;
                        return None;
                    }
                    self.attempts += 1;
                    // A rejection attempt checks its own layout; the others' are checked here.
                    let drawn = match self.kind {
                        SamplerKind::Rejection | SamplerKind::Uniform => self.independent(rng),
                        SamplerKind::Sequential => self
                            .one_at_a_time(rng, false)
                            .filter(|l| self.consistent(l)),
                        _ => self.one_at_a_time(rng, true).filter(|l| self.consistent(l)),
                    };
                    if let Some(layout) = drawn {
                        self.accepted += 1;
                        return Some(layout);
                    }
                }
                None
            }
        }
    }

    /// How the uniform sampler draws: `"rejection"`, `"list"`, `"dp"` or `"descent"`; for the other
    /// samplers, their own method.
    pub fn method(&self) -> &'static str {
        match (&self.inner, self.kind) {
            (Inner::Dp(_), _) => "dp",
            (Inner::Descent(_), _) => "descent",
            (Inner::List(_), _) => "list",
            (Inner::Draws, SamplerKind::Uniform | SamplerKind::Rejection) => "rejection",
            (Inner::Draws, SamplerKind::Sequential) => "sequential",
            (Inner::Draws, SamplerKind::Weighted) => "weighted",
        }
    }

    /// A rejection attempt ([`draws::Masks::attempt`]): every ship drawn independently
    /// among its type's allowed placements, kept only if the layout meets every constraint.
    fn independent<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Layout> {
        let masks = self
            .masks
            .get_or_insert_with(|| Arc::new(draws::Masks::new(&self.problem)));
        let drawn = masks.attempt(&self.problem, rng, &mut self.scratch);
        debug_assert!(drawn.as_ref().is_none_or(|l| self.consistent(l)));
        drawn
    }

    /// Ships in fleet order, each among the placements that still fit, uniformly or with
    /// the weights `1 + 5D + 4S`.
    fn one_at_a_time<R: Rng + ?Sized>(&self, rng: &mut R, weighted: bool) -> Option<Layout> {
        let p = &self.problem;
        let cells = p.dims().cells();
        let mut blocked = vec![false; cells];
        let hits: Vec<bool> = (0..cells)
            .map(|c| p.spec().clue(c).is_some_and(crate::Clue::is_ship))
            .collect();
        let mut ships = Vec::new();
        let mut fits = Vec::new();
        for (ty, t) in p.fleet().types().iter().enumerate() {
            for _ in 0..t.count {
                fits.clear();
                let mut total = 0u64;
                for (i, pl) in p.placements(ty).iter().enumerate() {
                    if pl.cells.iter().any(|&c| blocked[c]) {
                        continue;
                    }
                    let w = if weighted {
                        let d = pl.cells.iter().filter(|&&c| hits[c]).count() as u64;
                        let s = p
                            .any_of()
                            .iter()
                            .filter(|ring| ring.iter().any(|c| pl.cells.contains(c)))
                            .count() as u64;
                        1 + 5 * d + 4 * s
                    } else {
                        1
                    };
                    total += w;
                    fits.push((i, w));
                }
                if total == 0 {
                    return None;
                }
                let mut r = rng.random_range(0..total);
                let &(i, _) = fits
                    .iter()
                    .find(|&&(_, w)| {
                        if r < w {
                            true
                        } else {
                            r -= w;
                            false
                        }
                    })
                    .expect("r is below the total");
                let pl = &p.placements(ty)[i];
                for &c in &pl.cells {
                    blocked[c] = true;
                }
                if p.rules() == Rules::NoTouch {
                    for &c in &pl.halo {
                        blocked[c] = true;
                    }
                }
                ships.push(Ship {
                    ty,
                    cells: pl.cells.clone(),
                });
            }
        }
        Some(Layout { ships })
    }

    /// Whether a layout of allowed placements meets the rest: no overlap, no touching under
    /// that rule, every ship clue covered, every count exact, every sonar ring met.
    fn consistent(&self, layout: &Layout) -> bool {
        let p = &self.problem;
        let d = p.dims();
        let mut owner = vec![usize::MAX; d.cells()];
        for (i, s) in layout.ships.iter().enumerate() {
            for &c in &s.cells {
                if owner[c] != usize::MAX {
                    return false;
                }
                owner[c] = i;
            }
        }
        if p.rules() == Rules::NoTouch {
            for (i, s) in layout.ships.iter().enumerate() {
                for &c in &s.cells {
                    if d.neighbours8(c)
                        .any(|n| owner[n] != usize::MAX && owner[n] != i)
                    {
                        return false;
                    }
                }
            }
        }
        let spec = p.spec();
        let covered = |c: usize| owner[c] != usize::MAX;
        // A line's number: its covered cells, weighed (by their digits in Digital Battleships).
        let meets = |count: Option<usize>, cells: &mut dyn Iterator<Item = usize>| {
            count.is_none_or(|k| {
                cells
                    .filter(|&c| covered(c))
                    .map(|c| spec.weight(c))
                    .sum::<usize>()
                    == k
            })
        };
        (0..d.cells()).all(|c| !spec.clue(c).is_some_and(crate::Clue::is_ship) || covered(c))
            && p.any_of()
                .iter()
                .all(|ring| ring.iter().any(|&c| covered(c)))
            && (0..d.height)
                .all(|r| meets(spec.row_count(r), &mut (0..d.width).map(|c| d.index(r, c))))
            && (0..d.width)
                .all(|c| meets(spec.col_count(c), &mut (0..d.height).map(|r| d.index(r, c))))
    }
}

/// A sampler that gave up: a rejection-style sampler saw every one of [`MAX_ATTEMPTS`] draws
/// in a row rejected (which says nothing about whether a layout exists), or a time limit ran
/// out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GaveUp {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Layouts drawn before giving up.
    pub drawn: u64,
    /// What happened, in words.
    pub gave_up: String,
}
