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
//! counts where the DP does not apply SAT, which gives up once it has seen [`SAT_MODELS`]
//! layouts (blocking clauses cost more per layout than the enumerator's counting, so many
//! layouts mean the enumerator wins). The first complete answer wins; the other engine is
//! cancelled ([`Cancel`]), stops within milliseconds, and is joined before the answer is
//! returned, so no thread outlives the call. The answer names the engine that gave it.
//!
//! **The plan.** Where the DP applies (a full count of a game state), there is no race and
//! no clock: [`plan`] judges from the problem's structure which of the enumerator and the
//! DP is faster, before either runs. The enumerator's work is estimated by random descents
//! of its own search (Knuth's estimator, a fixed seed), the DP's states are predicted from
//! the allowed placements ([`DpEngine::predicted_states`]); each is weighed by its cost per
//! unit, fitted by `cargo bench --bench auto` on every state of simulated games and on
//! states with 1 to 10 misses. The two costs scale nearly alike with the machine and its
//! load; the DP bears a load a little worse, so the enumerator keeps the states where the DP
//! would be only a little faster (`DP_UNDER_LOAD`). The choice reads no clock: it is the
//! same on any machine, idle or loaded.
//!
//! [`Engine::count`]: super::Engine::count

use std::time::{Duration, Instant};

use super::{
    Cancel, CountError, CountOptions, CountResult, DpEngine, EngineKind, Enumerator, SatEngine,
    Stop, Work,
};
use crate::layout::Layout;
use crate::problem::Problem;

/// How long the enumerator runs alone before a rival starts.
pub const HEAD_START: Duration = Duration::from_millis(10);

/// The most layouts SAT counts in a race for a full count before leaving it to the enumerator.
pub const SAT_MODELS: u128 = 2_000;

/// The engine `auto` gives a full count where the DP applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The bitboard enumerator.
    Enumerator,
    /// The transfer-matrix DP.
    Dp,
}

/// What `auto` knows of a full count before any engine runs, and the engine it chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The enumerator's work, estimated by [`ENUM_PROBES`] random descents of its search.
    pub work: Work,
    /// The DP's states, predicted from the placements ([`DpEngine::predicted_states`]);
    /// `None` where the enumerator's work alone settled the choice, or the DP does not apply.
    pub dp_states: Option<f64>,
    /// The engine chosen.
    pub choice: Choice,
}

/// The random descents the enumerator's work is estimated by.
pub const ENUM_PROBES: usize = 128;

/// The weight of a placement a shortcut walks against a search node, in [`Plan::enum_work`].
pub const STEP_WEIGHT: f64 = 1.0 / 50.0;

/// Seconds per unit of the enumerator's work and per DP state, by rule (touch, no-touch) and
/// count (a total, per cell), on one machine: only their ratio matters, and it is nearly the
/// same on an idle machine and on a loaded one (see [`DP_UNDER_LOAD`]). Fitted by `cargo
/// bench --bench auto` on an idle machine (the medians it prints), each count touching its
/// memory afresh as a process of its own does (the DP's first touch of its trails is a good
/// part of its per-cell time). The ratio matters, yet the enumerator's own figure also sets
/// how soon [`SURELY_ENUMERATOR`] applies: so when the DP alone got faster (its steps over
/// two cells), its figures were refitted as the enumerator's as fitted times the ratio the
/// bench printed (the mean of two runs), and the enumerator's kept.
const SECONDS: [[(f64, f64); 2]; 2] = [
    [(1.31e-7, 2.85e-9), (1.96e-7, 3.77e-9)],
    [(2.47e-7, 1.47e-9), (3.93e-7, 1.34e-9)],
];

/// How much more the DP's predicted states weigh than the enumerator's work in the choice:
/// the DP splits each layer evenly between the threads and waits for the slower, while the
/// enumerator's subtrees are shared out as they go, so when another job takes a core the DP
/// slows more (`cargo bench --bench auto` with one core busy: 1.6 times its idle time per
/// state against 1.5 for the enumerator, 1.8 against 1.3 on the states between the two). A
/// choice that must hold on an idle machine and on a loaded one takes the DP over the
/// enumerator only where the DP is clearly faster.
const DP_UNDER_LOAD: f64 = 1.3;

/// Below this predicted time the enumerator is chosen without predicting the DP: however
/// fast the DP, the enumerator is within the 20 ms `auto` allows itself.
const SURELY_ENUMERATOR: f64 = 0.015;

/// The descents a first, rough estimate takes; past [`SURELY_ENUMERATOR`] / 4 it is redone
/// with [`ENUM_PROBES`].
const FIRST_PROBES: usize = 16;

impl Plan {
    /// The enumerator's work in search nodes, the shortcuts' placements weighed in.
    pub fn enum_work(&self) -> f64 {
        self.work.nodes + STEP_WEIGHT * self.work.steps
    }
}

/// Which engine counts `problem` (`per_cell`: with per-cell counts) fastest, judged from
/// its structure before either runs: the enumerator's work, estimated by random descents of
/// its search (a fixed seed, so the same problem always gets the same choice), against the
/// DP's states, predicted from the placements, each weighed by its measured cost per unit
/// (fitted by `cargo bench --bench auto`). No clock is read, so the choice does not depend on
/// the machine or its load.
pub fn plan(problem: &Problem, per_cell: bool) -> Plan {
    match DpEngine::new(problem) {
        Ok(dp) => plan_with(problem, &dp, per_cell),
        Err(_) => {
            let work = Enumerator::new(problem).estimate(ENUM_PROBES, &mut probe_rng());
            Plan {
                work,
                dp_states: None,
                choice: Choice::Enumerator,
            }
        }
    }
}

/// The seconds per unit of the enumerator's work and per DP state for `problem`'s rules.
fn seconds(problem: &Problem, per_cell: bool) -> (f64, f64) {
    let rules = usize::from(problem.rules() != crate::rules::Rules::Touch);
    SECONDS[rules][usize::from(per_cell)]
}

fn probe_rng() -> rand::rngs::StdRng {
    rand::SeedableRng::seed_from_u64(0x5eed)
}

/// [`plan`] with the problem's DP already built.
fn plan_with(problem: &Problem, dp: &DpEngine, per_cell: bool) -> Plan {
    let (per_unit, per_state) = seconds(problem, per_cell);
    let enumerator = Enumerator::new(problem);
    let mut rng = probe_rng();
    let mut p = Plan {
        work: enumerator.estimate(FIRST_PROBES, &mut rng),
        dp_states: None,
        choice: Choice::Enumerator,
    };
    if per_unit * p.enum_work() < SURELY_ENUMERATOR / 4.0 {
        return p;
    }
    // The rest of the descents, on from the same stream: with the first, the estimate of
    // ENUM_PROBES descents.
    let more = ENUM_PROBES - FIRST_PROBES;
    let rest = enumerator.estimate(more, &mut rng);
    let mean = |a: f64, b: f64| (a * FIRST_PROBES as f64 + b * more as f64) / ENUM_PROBES as f64;
    p.work = Work {
        nodes: mean(p.work.nodes, rest.nodes),
        steps: mean(p.work.steps, rest.steps),
    };
    let enumerator = per_unit * p.enum_work();
    if enumerator < SURELY_ENUMERATOR {
        return p;
    }
    let states = dp.predicted_states();
    p.dp_states = Some(states);
    if DP_UNDER_LOAD * per_state * states < enumerator {
        p.choice = Choice::Dp;
    }
    p
}

/// One solution, if any, and the engine that found it: the enumerator's walk, raced by SAT
/// past `head_start` ([`HEAD_START`] for `auto`). `None` if neither had answered at
/// `deadline`, or once `cancel` is raised.
pub fn solve(
    problem: &Problem,
    cancel: Option<&Cancel>,
    head_start: Duration,
    deadline: Option<Instant>,
) -> Option<(Option<Layout>, EngineKind)> {
    let head_start = head_start_for(problem, head_start);
    let stop = cancel.map_or_else(Cancel::new, Cancel::child);
    let started = Instant::now().checked_add(head_start);
    let first_stop = match (started, deadline) {
        (Some(s), Some(d)) => Some(s.min(d)),
        (s, d) => s.or(d),
    };
    let mut walk = Enumerator::new(problem)
        .solutions()
        .until(first_stop, Some(stop.clone()));
    let first = walk.next();
    match walk.stopped() {
        None => return Some((first, EngineKind::Enum)),
        Some(Stop::Time) if deadline.is_none_or(|d| Instant::now() < d) => {}
        Some(_) => return None,
    }
    let (mine, theirs) = race(
        |_| {
            let mut walk = walk.until(deadline, Some(stop.clone()));
            let found = walk.next();
            walk.stopped().is_none().then_some(found)
        },
        |c| SatEngine::new(problem).solve_until(deadline, Some(c)).ok(),
        |r| r.is_some(),
        |r| r.is_some(),
        &stop,
    );
    match (mine, theirs) {
        (Some(found), _) => Some((found, EngineKind::Enum)),
        (None, Some(found)) => Some((found, EngineKind::Sat)),
        // Past the deadline, or cancelled from outside: no answer.
        (None, None) => None,
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
    let head_start = head_start_for(problem, head_start);
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

/// The most cells of cardinality counters (placements of a type times its ships plus one,
/// summed over the types) SAT's encoding may need for it to join a race: past it the encoding
/// alone takes seconds and hundreds of megabytes (64x64 with 500 ships of two cells: 4
/// million, 0.5 GB in its first second; with 2,000 one-cell ships: 8.2 million), and the
/// enumerator goes alone. The hard set's largest (`puzzles/hard`) needs under 40,000.
pub const SAT_MOST_COUNTER_CELLS: usize = 1 << 20;

/// `head_start`, or no end to it (`Duration::MAX`: the enumerator alone) where SAT's
/// encoding of `problem` would be too large to race with ([`SAT_MOST_COUNTER_CELLS`]).
fn head_start_for(problem: &Problem, head_start: Duration) -> Duration {
    let cells: usize = problem
        .fleet()
        .types()
        .iter()
        .enumerate()
        .map(|(t, ty)| problem.placements(t).len().saturating_mul(ty.count + 1))
        .fold(0, usize::saturating_add);
    if cells > SAT_MOST_COUNTER_CELLS {
        Duration::MAX
    } else {
        head_start
    }
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
    let head_start = head_start_for(problem, head_start);
    let alone = head_start == Duration::MAX;
    let first = Enumerator::new(problem).count(&CountOptions {
        time_limit: if alone {
            opts.time_limit
        } else {
            Some(lesser(opts.time_limit, head_start))
        },
        cancel: opts.cancel.clone(),
        progress: if alone { mine.progress.clone() } else { None },
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

/// A full count where the DP applies (game states: straight ships, no row or column counts):
/// by the engine [`plan`] chooses. Where the DP would pass its memory budget, the enumerator
/// counts instead, with the time that is left.
pub fn count_with_dp(
    problem: &Problem,
    dp: DpEngine,
    opts: &CountOptions,
) -> Result<CountResult, CountError> {
    count_planned(problem, dp, opts, None)
}

/// A count for a choice that only asks whether `problem` has at least `enough` layouts: as
/// `Engine::Auto` counts, except that where the enumerator counts it stops once it has
/// counted `enough` ([`Stop::Limit`]); the DP counts everything in any case.
pub fn count_past(
    problem: &Problem,
    enough: u128,
    opts: &CountOptions,
) -> Result<CountResult, CountError> {
    match DpEngine::new(problem) {
        Ok(dp) => count_planned(problem, dp, opts, Some(enough)),
        Err(_) => super::Engine::Auto.count(problem, opts),
    }
}

/// [`count_with_dp`], the enumerator stopping at `enough` layouts when given.
fn count_planned(
    problem: &Problem,
    dp: DpEngine,
    opts: &CountOptions,
    enough: Option<u128>,
) -> Result<CountResult, CountError> {
    let start = Instant::now();
    let enumerator = |time_limit| {
        Enumerator::new(problem).count(&CountOptions {
            limit: enough,
            time_limit,
            per_cell: opts.per_cell,
            parallel: opts.parallel,
            progress: opts.progress.clone(),
            cancel: opts.cancel.clone(),
            ..CountOptions::default()
        })
    };
    let mut p = plan_with(problem, &dp, opts.per_cell);
    // Where the DP's trails over a wider position are at hand, its count may be their replay:
    // weighed against the enumerator as a fresh count is (the plan predicted the DP's states
    // only where the enumerator was not surely sooner). Trails offered but not yet recorded
    // are recorded by the first position the enumerator would not count at once: whoever
    // offers them counts many positions that narrow the wider one (a game's), each then
    // swept from the one before at a fraction of either engine's fresh count.
    if p.choice == Choice::Enumerator
        && p.dp_states.is_some()
        && let Some(replay) = opts.replay.as_ref()
    {
        let (per_unit, per_state) = seconds(problem, opts.per_cell);
        let sooner = match replay.predicted_states(&dp, opts.per_cell) {
            Some(states) => DP_UNDER_LOAD * per_state * states < per_unit * p.enum_work(),
            None => replay.awaits(&dp),
        };
        if sooner {
            p.choice = Choice::Dp;
        }
    }
    // Cut short, the DP has counted nothing, while the enumerator's partial counts hold
    // lower bounds: under a time limit the DP would likely miss, the enumerator counts.
    let likely_late = opts.time_limit.is_some_and(|t| {
        p.dp_states
            .is_some_and(|s| s * seconds(problem, opts.per_cell).1 > t.as_secs_f64() / 2.0)
    });
    if p.choice == Choice::Enumerator || likely_late {
        return enumerator(opts.time_limit);
    }
    match dp.count(&CountOptions {
        per_cell: opts.per_cell,
        parallel: opts.parallel,
        time_limit: opts.time_limit,
        memory_limit: opts.memory_limit,
        progress: opts.progress.clone(),
        cancel: opts.cancel.clone(),
        replay: opts.replay.clone(),
        ..CountOptions::default()
    }) {
        // Past its memory the DP hands back to the enumerator, whose memory is bounded by
        // the board.
        Err(CountError::Memory(_)) => {
            enumerator(opts.time_limit.map(|t| t.saturating_sub(start.elapsed())))
        }
        r => r,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, ProblemSpec, Rules};

    /// The plan's estimate is that of all its descents from one stream, first ones included;
    /// the empty standard board goes to the enumerator (its last three ships counted at
    /// once, it is the sooner: `cargo bench --bench auto`) with the DP's states predicted, a
    /// board with one ship left to the enumerator without predicting the DP.
    #[test]
    fn the_plan_of_an_open_and_of_a_nearly_done_board() {
        let open = ProblemSpec::empty(
            Dims::new(10, 10),
            Fleet::straight(&[5, 4, 3, 3, 2]),
            Rules::Touch,
        )
        .build()
        .unwrap();
        let p = plan(&open, true);
        let whole = Enumerator::new(&open).estimate(ENUM_PROBES, &mut probe_rng());
        assert!(
            (p.work.nodes - whole.nodes).abs() <= 1e-9 * whole.nodes,
            "{p:?} {whole:?}"
        );
        assert!((p.work.steps - whole.steps).abs() <= 1e-9 * whole.steps);
        // Its symmetries leave the enumerator an eighth of its search: surely the sooner,
        // and the DP's states are not predicted.
        assert_eq!((p.choice, p.dp_states), (Choice::Enumerator, None));
        let done = ProblemSpec::empty(Dims::new(10, 10), Fleet::straight(&[2]), Rules::Touch)
            .build()
            .unwrap();
        let p = plan(&done, true);
        assert_eq!((p.choice, p.dp_states), (Choice::Enumerator, None));
    }

    /// Two misses side by side mid-board (10x10, ships 4 3 3 3 2: on the standard fleet the
    /// enumerator is now the sooner even against the replay): counted afresh, the DP is
    /// predicted slower than the enumerator, which the plan takes; with the empty board's
    /// trails recorded (by the count of a position with one miss, which the enumerator would
    /// have taken), their replay is predicted sooner and counts it, and its counts are the
    /// enumerator's. A hit in a corner leaves the enumerator little to search, and it counts
    /// either way.
    #[test]
    fn recorded_trails_take_an_opening_from_the_enumerator() {
        use crate::observe::{Shot, ShotResult};
        use crate::play::Setup;
        let s = Setup {
            fleet: Fleet::straight(&[4, 3, 3, 3, 2]),
            ..Setup::standard()
        };
        let replay = std::sync::Arc::new(crate::engine::DpReplay::new(s.empty().build().unwrap()));
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            replay: Some(replay.clone()),
            ..CountOptions::default()
        };
        let shot = |cell, result| Shot { cell, result };
        let first = s.after(&[shot(99, ShotResult::Miss)]).build().unwrap();
        assert_eq!(plan(&first, true).choice, Choice::Enumerator);
        count_with_dp(&first, DpEngine::new(&first).unwrap(), &opts).unwrap();
        assert!(replay.recorded());
        for (shots, by) in [
            (
                vec![shot(44, ShotResult::Miss), shot(45, ShotResult::Miss)],
                EngineKind::Dp,
            ),
            (vec![shot(0, ShotResult::Hit)], EngineKind::Enum),
        ] {
            let p = s.after(&shots).build().unwrap();
            assert_eq!(plan(&p, true).choice, Choice::Enumerator, "{shots:?}");
            let got = count_with_dp(&p, DpEngine::new(&p).unwrap(), &opts).unwrap();
            let want = Enumerator::new(&p)
                .count(&CountOptions {
                    per_cell: true,
                    ..CountOptions::default()
                })
                .unwrap();
            assert_eq!(got.engine, by, "{shots:?}");
            assert_eq!((got.count, &got.per_cell), (want.count, &want.per_cell));
        }
    }
}
