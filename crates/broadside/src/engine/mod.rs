//! The exact engines and what they share: count options and results.
//!
//! - [`Enumerator`]: depth-first search over bitboard placements; the fast general engine.
//! - [`SatEngine`]: a CNF encoding solved with varisat; independent of the enumerator's
//!   search, used to cross-check it and to export DIMACS for external counters.
//! - [`DpEngine`]: a transfer-matrix dynamic program; counts, with per-cell counts, in time
//!   polynomial in its states, for straight fleets without row or column counts.
//!
//! Both answer the same questions ([`Engine::solve`], [`Engine::count`]) and must agree.

mod dp;
mod enumerate;
pub mod limits;
pub mod portfolio;
mod sat;

pub use dp::{DpEngine, DpReplay, DpSampler, DpUnsupported};
pub use enumerate::{DescentSampler, Enumerator, Solutions, Work};
pub use sat::{Encoding, SatEngine};

use crate::choice::named_choices;

use std::time::Duration;

use num_bigint::BigUint;

use crate::layout::Layout;
use crate::problem::Problem;

/// Why a count stopped before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stop {
    /// The count limit was reached.
    Limit,
    /// The time limit ran out.
    Time,
    /// A count would have exceeded 128 bits.
    Overflow,
    /// It was cancelled ([`Cancel`]): another engine of `auto`'s race answered first.
    Cancelled,
}

/// Asks running engines to stop: shared by every engine of a race, checked by each as often
/// as it checks its time limit (the enumerator every thousand nodes, the DP between cells,
/// SAT every few kilobytes of its search). Cloning shares the flag; [`Cancel::child`] makes
/// one that is also raised with its parent.
#[derive(Clone, Debug, Default)]
pub struct Cancel(std::sync::Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    raised: std::sync::atomic::AtomicBool,
    parent: Option<Cancel>,
}

impl Cancel {
    /// A flag not yet raised.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A new flag, raised by itself or whenever this one is.
    pub fn child(&self) -> Cancel {
        Cancel(std::sync::Arc::new(Flag {
            raised: Default::default(),
            parent: Some(self.clone()),
        }))
    }

    /// Raises the flag: every engine holding it (or a child of it) stops soon after.
    pub fn cancel(&self) {
        self.0
            .raised
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the flag, or a parent of it, is raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.raised.load(std::sync::atomic::Ordering::Relaxed)
            || self.0.parent.as_ref().is_some_and(Cancel::is_cancelled)
    }
}

/// How to count.
#[derive(Clone, Default)]
pub struct CountOptions {
    /// Stop once this many solutions are seen.
    pub limit: Option<u128>,
    /// Stop after this long, with a partial count.
    pub time_limit: Option<Duration>,
    /// Also count, for each cell, the solutions with a ship on it.
    pub per_cell: bool,
    /// Use all cores (ignored when a count limit is set).
    pub parallel: bool,
    /// Called with (subtrees done, subtrees in all) as a parallel count progresses.
    pub progress: Option<std::sync::Arc<dyn Fn(u64, u64) + Sync + Send>>,
    /// The most memory the DP may keep for per-cell counts and sampling (its layers), in
    /// bytes; `None` is [`limits::DP_MEMORY_LIMIT`]. Past it the DP stops with
    /// [`CountError::Memory`], and `auto` counts with the enumerator instead.
    pub memory_limit: Option<usize>,
    /// Stops the count (as [`Stop::Cancelled`]) once raised.
    pub cancel: Option<Cancel>,
    /// Where the DP counts, the trails of a wider position to replay when this one narrows
    /// it (a game's positions over its empty board; [`DpReplay`]): the same counts, sooner.
    pub replay: Option<std::sync::Arc<DpReplay>>,
}

/// The answer of a count, in 128-bit integers ([`Engine::count`]) or in big integers of any
/// size ([`Engine::count_big`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountResult<N = u128> {
    /// Solutions counted: exact when `complete`, else a lower bound.
    pub count: N,
    /// Whether every solution was counted.
    pub complete: bool,
    /// Why the count stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Per cell (row-major), the solutions with a ship there, when asked for.
    pub per_cell: Option<Vec<N>>,
    /// The engine that counted.
    pub engine: EngineKind,
}

impl CountResult {
    /// The same answer in big integers.
    pub fn into_big(self) -> CountResult<BigUint> {
        CountResult {
            count: self.count.into(),
            complete: self.complete,
            stopped: self.stopped,
            per_cell: self
                .per_cell
                .map(|v| v.into_iter().map(BigUint::from).collect()),
            engine: self.engine,
        }
    }
}

/// The integer a count is kept in: `u128`, the fast path every engine counts in, or
/// [`BigUint`], of any size ([`Engine::count_big`]). Heat maps and reports are generic over
/// it.
pub trait CountInt:
    Clone + Ord + Default + std::fmt::Display + std::fmt::Debug + Send + Sync + 'static
{
    /// Counts `problem` with `engine` in this type: [`Engine::count`] or
    /// [`Engine::count_big`].
    fn count(
        engine: Engine,
        problem: &Problem,
        opts: &CountOptions,
    ) -> Result<CountResult<Self>, CountError>;
    /// `self / whole` as a float, to within rounding whatever their size (0 when `whole` is
    /// 0).
    fn ratio(&self, whole: &Self) -> f64;
    /// Whether this is 0.
    fn is_zero(&self) -> bool;
}

impl CountInt for u128 {
    fn count(
        engine: Engine,
        problem: &Problem,
        opts: &CountOptions,
    ) -> Result<CountResult, CountError> {
        engine.count(problem, opts)
    }
    fn ratio(&self, whole: &u128) -> f64 {
        if *whole == 0 {
            0.0
        } else {
            *self as f64 / *whole as f64
        }
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
}

impl CountInt for BigUint {
    fn count(
        engine: Engine,
        problem: &Problem,
        opts: &CountOptions,
    ) -> Result<CountResult<BigUint>, CountError> {
        engine.count_big(problem, opts)
    }
    fn ratio(&self, whole: &BigUint) -> f64 {
        if whole.bits() == 0 {
            return 0.0;
        }
        // The top 64 bits of each and their scales: a float of either alone could pass
        // f64's range, their ratio cannot.
        let top = |n: &BigUint| {
            let shift = n.bits().saturating_sub(64);
            let head = u64::try_from(n >> shift).expect("64 bits after the shift");
            (head as f64, shift as i64)
        };
        let ((a, sa), (b, sb)) = (top(self), top(whole));
        let scale = (sa - sb).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        a / b * 2f64.powi(scale)
    }
    fn is_zero(&self) -> bool {
        self.bits() == 0
    }
}

/// An engine that answered, as reports name it: `enum`, `sat` or `dp` (never `auto`, which
/// is a way of choosing one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The bitboard enumerator.
    Enum,
    /// The SAT encoding with varisat.
    Sat,
    /// The transfer-matrix DP.
    Dp,
}

named_choices!(EngineKind, "engine", {
    EngineKind::Enum => "enum",
    EngineKind::Sat => "sat",
    EngineKind::Dp => "dp",
});

/// A count that could not be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// The count exceeds 128 bits: [`Engine::count_big`] gives it.
    #[error("the count exceeds 2^128")]
    Overflow,
    /// The DP would need more memory than it may keep.
    #[error(
        "the dp engine would need more than its {} MiB of memory for this (choose another engine, or auto)",
        .0 >> 20
    )]
    Memory(usize),
    /// The DP was asked for and does not take the problem.
    #[error("the dp engine does not take this problem: {0} (choose another engine, or auto)")]
    Declined(DpUnsupported),
}

/// The engine to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The fastest exact engine that applies: the DP for counting when it supports the
    /// problem, else the enumerator.
    #[default]
    Auto,
    /// The bitboard enumerator.
    Enum,
    /// The SAT encoding with varisat.
    Sat,
    /// The transfer-matrix DP (counting only; solving falls back to the enumerator).
    Dp,
}

named_choices!(Engine, "engine", {
    Engine::Auto => "auto",
    Engine::Enum => "enum",
    Engine::Sat => "sat",
    Engine::Dp => "dp",
});

impl Engine {
    /// One solution, if any.
    pub fn solve(self, problem: &Problem) -> Option<Layout> {
        self.solve_by(problem).0
    }

    /// One solution, if any, and the engine that found it: the enumerator or SAT (the DP
    /// cannot solve, so `dp` solves with the enumerator), and for `auto` whichever of the two
    /// answered first ([`portfolio`]).
    pub fn solve_by(self, problem: &Problem) -> (Option<Layout>, EngineKind) {
        self.solve_until(problem, None)
            .expect("a search with no deadline answers")
    }

    /// [`Engine::solve_by`], given up at `deadline`: `None` if the search had not answered
    /// by then (neither a solution found nor none proved).
    pub fn solve_until(
        self,
        problem: &Problem,
        deadline: Option<std::time::Instant>,
    ) -> Option<(Option<Layout>, EngineKind)> {
        match self {
            Engine::Sat => SatEngine::new(problem)
                .solve_until(deadline, None)
                .ok()
                .map(|found| (found, EngineKind::Sat)),
            Engine::Enum | Engine::Dp => {
                let mut walk = Enumerator::new(problem).solutions().until(deadline, None);
                let found = walk.next();
                walk.stopped()
                    .is_none()
                    .then_some((found, EngineKind::Enum))
            }
            Engine::Auto => portfolio::solve(problem, None, portfolio::HEAD_START, deadline),
        }
    }

    /// Counts solutions with the given options; the result names the engine that counted.
    ///
    /// `Auto` races engines ([`portfolio`]): to a count limit (`--limit 2` decides
    /// uniqueness), the enumerator and SAT; a full count where the DP does not apply, the
    /// enumerator and SAT (up to [`portfolio::SAT_MODELS`] layouts). Where the DP applies,
    /// the enumerator or the DP, whichever the problem's structure says is faster
    /// ([`portfolio::plan`]). `Dp` refuses a problem it does not take ([`CountError::Declined`]); under a count limit it
    /// counts everything and reports the limit as the enumerator would (a count that reaches
    /// the limit is cut to it, with no per-cell counts, which would be those of some other
    /// set of layouts).
    pub fn count(self, problem: &Problem, opts: &CountOptions) -> Result<CountResult, CountError> {
        let dp = DpEngine::new(problem);
        if let (Engine::Dp, Err(why)) = (self, &dp) {
            return Err(CountError::Declined(*why));
        }
        match (self, dp.ok()) {
            (Engine::Sat, _) => SatEngine::new(problem).count(opts),
            (Engine::Dp, Some(dp)) => {
                let mut r = dp.count(opts)?;
                if let Some(limit) = opts.limit
                    && r.complete
                    && r.count >= limit
                {
                    r.count = limit;
                    r.complete = false;
                    r.stopped = Some(Stop::Limit);
                    r.per_cell = None;
                }
                Ok(r)
            }
            (Engine::Auto, _) if opts.limit.is_some() => {
                portfolio::count_to_limit(problem, opts, portfolio::HEAD_START)
            }
            (Engine::Auto, Some(dp)) => portfolio::count_with_dp(problem, dp, opts),
            (Engine::Auto, None) => portfolio::count_all(problem, opts, portfolio::HEAD_START),
            _ => Enumerator::new(problem).count(opts),
        }
    }

    /// [`Engine::count`] with no bound on the count: a count past 2^128 (which only the DP
    /// reaches in any feasible time: the other engines count layouts one or two ships at a
    /// time) is counted again by the DP in big integers, whatever the engine asked for. Where
    /// the DP does not take the problem it stays [`CountError::Overflow`].
    pub fn count_big(
        self,
        problem: &Problem,
        opts: &CountOptions,
    ) -> Result<CountResult<BigUint>, CountError> {
        match self.count(problem, opts) {
            // The count has already passed 2^128 (in the DP's 128-bit pass, or in another
            // engine): straight to the big-integer pass.
            Err(CountError::Overflow) => match DpEngine::new(problem) {
                Ok(dp) => dp.count_past_128(opts),
                Err(_) => Err(CountError::Overflow),
            },
            r => r.map(CountResult::into_big),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ratios of counts far past f64's range are still right, and agree with u128's where
    /// both apply.
    #[test]
    fn ratios_of_big_counts() {
        let big = |n: u128, shift: usize| BigUint::from(n) << shift;
        for (a, b) in [
            (1u128, 3u128),
            (2, 7),
            (5, 5),
            (0, 9),
            (123_456_789, 987_654_321),
        ] {
            let r = a.ratio(&b);
            assert_eq!(BigUint::from(a).ratio(&BigUint::from(b)), r);
            for shift in [0, 100, 5000] {
                let x = big(a, shift).ratio(&big(b, shift));
                assert!((x - r).abs() <= 1e-15 * r, "{a}/{b} << {shift}: {x}");
            }
        }
        // 2^4000 / 2^4010 = 2^-10; 2^10 / 2^3000 underflows to 0 rather than failing.
        assert_eq!(big(1, 4000).ratio(&big(1, 4010)), 1.0 / 1024.0);
        assert_eq!(big(1, 10).ratio(&big(1, 3000)), 0.0);
        assert_eq!(BigUint::from(1u8).ratio(&BigUint::ZERO), 0.0);
        assert!(BigUint::ZERO.is_zero() && !big(1, 200).is_zero());
    }
}
