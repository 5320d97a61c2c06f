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

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::{
    Cancel, CountError, CountOptions, CountResult, DpEngine, EngineKind, Enumerator, SatEngine,
    Stop,
};
use crate::layout::Layout;
use crate::problem::Problem;

/// How long the enumerator runs alone before a rival starts.
pub const HEAD_START: Duration = Duration::from_millis(10);

/// The most layouts SAT counts in a race for a full count before leaving it to the enumerator.
pub const SAT_MODELS: u128 = 2_000;

/// How long the enumerator counts a total alone where the DP applies before `auto` judges, by
/// its progress, whether it will finish within [`DP_HEAD_START`].
pub const JUDGE_AFTER: Duration = Duration::from_millis(40);

/// The longest the enumerator counts a total where the DP applies before the DP takes over.
pub const DP_HEAD_START: Duration = Duration::from_millis(500);

/// The enumerator's head start on per-cell counts where the DP applies.
pub const DP_HEAD_START_PER_CELL: Duration = Duration::from_millis(30);

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
/// past `head_start`. To a limit of at most [`WALK_LIMIT`] the enumerator walks its solutions
/// one by one, so the race takes its walk over from where the head start left it.
pub fn count_to_limit(
    problem: &Problem,
    opts: &CountOptions,
    head_start: Duration,
) -> Result<CountResult, CountError> {
    let limited = CountOptions {
        limit: opts.limit,
        per_cell: opts.per_cell,
        ..CountOptions::default()
    };
    let limit = opts.limit.unwrap_or(u128::MAX);
    if limit > WALK_LIMIT {
        return enumerator_then_sat(problem, opts, head_start, limited.clone(), limited, true);
    }
    let start = Instant::now();
    let deadline = |t: Duration| start.checked_add(t);
    let stop = opts.cancel.as_ref().map_or_else(Cancel::new, Cancel::child);
    let first = lesser(opts.time_limit, head_start);
    let mut walk = Walked::new(problem, opts.per_cell, deadline(first), &stop);
    let r = walk.to(limit);
    if r.stopped != Some(Stop::Time) || opts.time_limit.is_some_and(|t| t <= head_start) {
        return Ok(r);
    }
    let (mine, theirs) = race(
        |c| {
            walk.solutions = walk
                .solutions
                .until(opts.time_limit.and_then(deadline), Some(c));
            Ok(walk.to(limit))
        },
        |c| {
            SatEngine::new(problem).count(&CountOptions {
                time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
                cancel: Some(c),
                ..limited
            })
        },
        |r| done(r, true),
        |r| done(r, true),
        &stop,
    );
    pick(mine, theirs, true)
}

/// The largest count limit `auto` counts to by walking solutions one at a time.
pub const WALK_LIMIT: u128 = 64;

/// A count by walking the enumerator's solutions, which a race can take over.
struct Walked {
    solutions: crate::engine::Solutions,
    found: u128,
    per_cell: Option<Vec<u128>>,
}

impl Walked {
    fn new(problem: &Problem, per_cell: bool, deadline: Option<Instant>, stop: &Cancel) -> Walked {
        Walked {
            solutions: Enumerator::new(problem)
                .solutions()
                .until(deadline, Some(stop.clone())),
            found: 0,
            per_cell: per_cell.then(|| vec![0; problem.dims().cells()]),
        }
    }

    /// Walks on until `limit` solutions are found, the walk ends, or it is stopped.
    fn to(&mut self, limit: u128) -> CountResult {
        while self.found < limit {
            let Some(layout) = self.solutions.next() else {
                break;
            };
            self.found += 1;
            if let Some(pc) = self.per_cell.as_mut() {
                for c in layout.cells() {
                    pc[c] += 1;
                }
            }
        }
        let stopped = if self.found >= limit {
            Some(Stop::Limit)
        } else {
            self.solutions.stopped()
        };
        CountResult {
            count: self.found,
            complete: stopped.is_none(),
            stopped,
            per_cell: self.per_cell.clone(),
            engine: EngineKind::Enum,
        }
    }
}

/// A full count (per-cell counts too, if asked) where the DP does not apply: the enumerator
/// on every core, raced by SAT up to [`SAT_MODELS`] layouts past `head_start`.
pub fn count_all(
    problem: &Problem,
    opts: &CountOptions,
    head_start: Duration,
) -> Result<CountResult, CountError> {
    let mine = CountOptions {
        per_cell: opts.per_cell,
        parallel: opts.parallel,
        progress: opts.progress.clone(),
        ..CountOptions::default()
    };
    // One layout more than it may count tells "too many" from "exactly that many".
    let theirs = CountOptions {
        limit: Some(SAT_MODELS + 1),
        per_cell: opts.per_cell,
        ..CountOptions::default()
    };
    enumerator_then_sat(problem, opts, head_start, mine, theirs, false)
}

/// The enumerator counting with `mine` alone for `head_start`, then again raced by SAT
/// counting with `theirs`, both within `opts`' time limit and cancellation; `at_limit` says
/// whether a count stopped at its limit is an answer (it is for the caller's limit, not for
/// SAT's own cap in a full count).
fn enumerator_then_sat(
    problem: &Problem,
    opts: &CountOptions,
    head_start: Duration,
    mine: CountOptions,
    theirs: CountOptions,
    at_limit: bool,
) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let first = Enumerator::new(problem).count(&CountOptions {
        time_limit: Some(lesser(opts.time_limit, head_start)),
        cancel: opts.cancel.clone(),
        progress: None,
        ..mine.clone()
    })?;
    if first.stopped != Some(Stop::Time) || opts.time_limit.is_some_and(|t| t <= head_start) {
        return Ok(first);
    }
    let left = opts.time_limit.map(|t| t.saturating_sub(start.elapsed()));
    let stop = opts.cancel.as_ref().map_or_else(Cancel::new, Cancel::child);
    let (a, b) = race(
        |c| {
            Enumerator::new(problem).count(&CountOptions {
                time_limit: left,
                cancel: Some(c),
                ..mine
            })
        },
        |c| {
            SatEngine::new(problem).count(&CountOptions {
                time_limit: left,
                cancel: Some(c),
                ..theirs
            })
        },
        |r| done(r, at_limit),
        |r| done(r, at_limit),
        &stop,
    );
    pick(a, b, at_limit)
}

/// A full count where the DP applies (game states: straight ships, no row or column counts).
///
/// The enumerator goes first: its counting shortcuts win where few ships are left or the
/// board is small. For per-cell counts it has [`DP_HEAD_START_PER_CELL`]. For a total it is
/// watched: after [`JUDGE_AFTER`], and every 20 ms after that, its share of subtrees counted
/// projects its finish, and it is stopped as soon as that projection passes
/// [`DP_HEAD_START`] (or it reaches it). Then the DP counts, unless it would pass its memory
/// budget, when the enumerator counts again with the time that is left.
pub fn count_with_dp(
    problem: &Problem,
    dp: DpEngine,
    opts: &CountOptions,
) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let first = if opts.per_cell {
        Enumerator::new(problem).count(&CountOptions {
            per_cell: true,
            parallel: opts.parallel,
            time_limit: Some(lesser(opts.time_limit, DP_HEAD_START_PER_CELL)),
            cancel: opts.cancel.clone(),
            ..CountOptions::default()
        })?
    } else {
        watched(problem, opts)?
    };
    if first.stopped != Some(Stop::Time) {
        return Ok(first);
    }
    let left = opts.time_limit.map(|t| t.saturating_sub(start.elapsed()));
    if left.is_some_and(|l| l.is_zero()) {
        return Ok(first);
    }
    let r = match dp.count(&CountOptions {
        per_cell: opts.per_cell,
        parallel: opts.parallel,
        time_limit: left,
        memory_limit: opts.memory_limit,
        cancel: opts.cancel.clone(),
        ..CountOptions::default()
    }) {
        // Past its memory the DP hands back to the enumerator, whose memory is bounded by
        // the board, with the time that is left.
        Err(CountError::Memory(_)) => {
            let left = opts.time_limit.map(|t| t.saturating_sub(start.elapsed()));
            if left.is_some_and(|l| l.is_zero()) {
                return Ok(first);
            }
            return Enumerator::new(problem).count(&CountOptions {
                time_limit: left,
                per_cell: opts.per_cell,
                parallel: opts.parallel,
                progress: opts.progress.clone(),
                cancel: opts.cancel.clone(),
                ..CountOptions::default()
            });
        }
        r => r?,
    };
    // The DP's layouts are complete only at the last cell: cut short, it has counted
    // nothing, while the enumerator's partial count holds lower bounds.
    Ok(if r.complete { r } else { first })
}

/// The enumerator's total on its own thread, stopped early (a partial count, as
/// [`Stop::Time`]) when its progress says it will not finish within [`DP_HEAD_START`]; see
/// [`count_with_dp`].
fn watched(problem: &Problem, opts: &CountOptions) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let stop = opts.cancel.as_ref().map_or_else(Cancel::new, Cancel::child);
    let seen = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    let progress = {
        let seen = seen.clone();
        let theirs = opts.progress.clone();
        Arc::new(move |done, total| {
            seen.0.store(done, Ordering::Relaxed);
            seen.1.store(total, Ordering::Relaxed);
            if let Some(p) = &theirs {
                p(done, total);
            }
        })
    };
    std::thread::scope(|s| {
        let (tx, rx) = channel();
        let count = CountOptions {
            parallel: opts.parallel,
            time_limit: Some(lesser(opts.time_limit, DP_HEAD_START)),
            progress: Some(progress),
            cancel: Some(stop.clone()),
            ..CountOptions::default()
        };
        let handle = racer(s, move || {
            let _ = tx.send(Enumerator::new(problem).count(&count));
        });
        let mut wait = JUDGE_AFTER;
        let r = loop {
            match rx.recv_timeout(wait) {
                Ok(r) => break r,
                Err(RecvTimeoutError::Timeout) => {
                    let (done, total) = (
                        seen.0.load(Ordering::Relaxed),
                        seen.1.load(Ordering::Relaxed),
                    );
                    let hopeless = done == 0
                        || start.elapsed().mul_f64(total as f64 / done as f64) > DP_HEAD_START;
                    if hopeless {
                        stop.cancel();
                    }
                    wait = Duration::from_millis(20);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let panic = handle
                        .join()
                        .expect_err("the count ended without an answer");
                    std::panic::resume_unwind(panic)
                }
            }
        };
        let outside = opts.cancel.as_ref().is_some_and(Cancel::is_cancelled);
        r.map(|mut r| {
            if r.stopped == Some(Stop::Cancelled) && !outside {
                r.stopped = Some(Stop::Time);
            }
            r
        })
    })
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

/// The name of the threads a race starts (so a test can see that none outlives it).
pub const RACER_THREAD: &str = "broadside-racer";

/// Starts `f` on a named thread of scope `s`.
fn racer<'s, 'e, T: Send + 's>(
    s: &'s std::thread::Scope<'s, 'e>,
    f: impl FnOnce() -> T + Send + 's,
) -> std::thread::ScopedJoinHandle<'s, T> {
    std::thread::Builder::new()
        .name(RACER_THREAD.into())
        .spawn_scoped(s, f)
        .expect("the system can start a thread")
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
        let handle = racer(s, move || {
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
