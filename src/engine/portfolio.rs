//! `auto`: the portfolio of engines, so that nobody has to know which engine is fast.
//!
//! No engine wins everywhere. The enumerator answers most problems in microseconds, but on
//! puzzles dense with ships and counts (15x15 with 21 ships and no given cell) its search
//! can take minutes where SAT's clause learning finds a layout in milliseconds; on open game
//! states the DP counts in time polynomial in its states where the enumerator's work grows with
//! the number of layouts.
//!
//! **The race.** The enumerator runs alone first, for [`HEAD_START`]: what it answers by
//! then (nearly everything a person types) costs no thread. Then a rival starts on a thread
//! of its own and the enumerator goes on: for a solution or a count to a limit SAT (both are
//! single-threaded, so on two cores neither slows the other); for a full count or per-cell
//! counts the DP where it applies (after a longer head start, see [`Engine::count`]) and else
//! SAT, which gives up once it has seen [`SAT_MODELS`] layouts (blocking clauses cost more
//! per layout than the enumerator's counting, so many layouts mean the enumerator wins). The
//! first complete answer wins; the other engine is cancelled ([`Cancel`]), stops within
//! milliseconds, and is joined before the answer is returned, so no thread outlives the
//! call. The answer names the engine that gave it.
//!
//! [`Engine::count`]: super::Engine::count

use std::time::{Duration, Instant};

use super::{
    Cancel, CountError, CountOptions, CountResult, EngineKind, Enumerator, SatEngine, Stop,
};
use crate::layout::Layout;
use crate::problem::Problem;

/// How long the enumerator runs alone before a rival starts.
pub const HEAD_START: Duration = Duration::from_millis(10);

/// The most layouts SAT counts in a race for a full count before leaving it to the enumerator.
pub const SAT_MODELS: u128 = 2_000;

/// One solution, if any, and the engine that found it: the enumerator's walk, raced by SAT
/// past `head_start` ([`HEAD_START`] for `auto`). Raising `cancel` stops both (and gives
/// `None`).
pub fn solve(
    problem: &Problem,
    cancel: Option<&Cancel>,
    head_start: Duration,
) -> (Option<Layout>, EngineKind) {
    let stop = cancel.map_or_else(Cancel::new, Cancel::child);
    let mut walk = Enumerator::new(problem)
        .solutions()
        .until(Instant::now().checked_add(head_start), Some(stop.clone()));
    let first = walk.next();
    if walk.stopped() != Some(Stop::Time) {
        return (first, EngineKind::Enum);
    }
    let (mine, theirs) = race(
        |_| {
            let mut walk = walk.until(None, Some(stop.clone()));
            let found = walk.next();
            walk.stopped().is_none().then_some(found)
        },
        |c| SatEngine::new(problem).solve_until(None, Some(c)).ok(),
        |r| r.is_some(),
        |r| r.is_some(),
        &stop,
    );
    match (mine, theirs) {
        (Some(found), _) => (found, EngineKind::Enum),
        (None, Some(found)) => (found, EngineKind::Sat),
        // Cancelled from outside: nothing was found.
        (None, None) => (None, EngineKind::Enum),
    }
}

/// A count to `opts.limit` (a uniqueness check counts to two): the enumerator, raced by SAT
/// past `head_start`.
pub fn count_to_limit(
    problem: &Problem,
    opts: &CountOptions,
    head_start: Duration,
) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let enumerate = |time_limit, cancel| {
        Enumerator::new(problem).count(&CountOptions {
            limit: opts.limit,
            time_limit,
            per_cell: opts.per_cell,
            cancel,
            ..CountOptions::default()
        })
    };
    let first = enumerate(
        Some(lesser(opts.time_limit, head_start)),
        opts.cancel.clone(),
    )?;
    if first.stopped != Some(Stop::Time) || opts.time_limit.is_some_and(|t| t <= head_start) {
        return Ok(first);
    }
    let left = opts.time_limit.map(|t| t.saturating_sub(start.elapsed()));
    let stop = opts.cancel.as_ref().map_or_else(Cancel::new, Cancel::child);
    let (mine, theirs) = race(
        |c| enumerate(left, Some(c)),
        |c| {
            SatEngine::new(problem).count(&CountOptions {
                limit: opts.limit,
                time_limit: left,
                per_cell: opts.per_cell,
                cancel: Some(c),
                ..CountOptions::default()
            })
        },
        |r| done(r, true),
        |r| done(r, true),
        &stop,
    );
    pick(mine, theirs, true)
}

/// A full count (per-cell counts too, if asked) where the DP does not apply: the enumerator
/// on every core, raced by SAT up to [`SAT_MODELS`] layouts past `head_start`.
pub fn count_all(
    problem: &Problem,
    opts: &CountOptions,
    head_start: Duration,
) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let enumerate = |time_limit, cancel| {
        Enumerator::new(problem).count(&CountOptions {
            time_limit,
            per_cell: opts.per_cell,
            parallel: opts.parallel,
            cancel,
            ..CountOptions::default()
        })
    };
    let first = enumerate(
        Some(lesser(opts.time_limit, head_start)),
        opts.cancel.clone(),
    )?;
    if first.stopped != Some(Stop::Time) || opts.time_limit.is_some_and(|t| t <= head_start) {
        return Ok(first);
    }
    let left = opts.time_limit.map(|t| t.saturating_sub(start.elapsed()));
    let stop = opts.cancel.as_ref().map_or_else(Cancel::new, Cancel::child);
    let (mine, theirs) = race(
        |c| {
            Enumerator::new(problem).count(&CountOptions {
                time_limit: left,
                per_cell: opts.per_cell,
                parallel: opts.parallel,
                progress: opts.progress.clone(),
                cancel: Some(c),
                ..CountOptions::default()
            })
        },
        |c| {
            // One layout more than it may count tells "too many" from "exactly that many".
            SatEngine::new(problem).count(&CountOptions {
                limit: Some(SAT_MODELS + 1),
                time_limit: left,
                per_cell: opts.per_cell,
                cancel: Some(c),
                ..CountOptions::default()
            })
        },
        |r| done(r, false),
        |r| done(r, false),
        &stop,
    );
    pick(mine, theirs, false)
}

/// Whether a count ends a race: an error, a complete count, or (`at_limit`) a count that
/// reached the caller's limit.
fn done(r: &Result<CountResult, CountError>, at_limit: bool) -> bool {
    match r {
        Ok(r) => r.complete || (at_limit && r.stopped == Some(Stop::Limit)),
        Err(_) => true,
    }
}

/// The answer of a race: the enumerator's when it is done, else SAT's when it is, else the
/// larger partial count of the two stopped by the time limit (both are lower bounds).
fn pick(
    mine: Result<CountResult, CountError>,
    theirs: Result<CountResult, CountError>,
    at_limit: bool,
) -> Result<CountResult, CountError> {
    if done(&mine, at_limit) {
        return mine;
    }
    if done(&theirs, at_limit) {
        return theirs;
    }
    match (mine, theirs) {
        (Ok(m), Ok(t)) if t.stopped == Some(Stop::Time) && t.count > m.count => Ok(t),
        (m, _) => m,
    }
}

/// The lesser of a time limit and a duration.
fn lesser(limit: Option<Duration>, d: Duration) -> Duration {
    limit.map_or(d, |t| t.min(d))
}

/// Runs `here` on this thread and `rival` on a thread of its own, each given a flag that
/// stops it; the first whose result `here_won` / `rival_won` accepts cancels the other. Both
/// results are returned once both have ended: no thread outlives the race.
fn race<A, B: Send>(
    here: impl FnOnce(Cancel) -> A,
    rival: impl FnOnce(Cancel) -> B + Send,
    here_won: impl Fn(&A) -> bool,
    rival_won: impl Fn(&B) -> bool + Send,
    stop: &Cancel,
) -> (A, B) {
    std::thread::scope(|s| {
        let theirs = stop.clone();
        let handle = s.spawn(move || {
            let r = rival(theirs.clone());
            if rival_won(&r) {
                theirs.cancel();
            }
            r
        });
        let a = here(stop.clone());
        if here_won(&a) {
            stop.cancel();
        }
        let b = handle
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    })
}
