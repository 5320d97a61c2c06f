//! The count split across cores and machines: the search's first levels cut into subtrees
//! (the frontier), counted on every core, a part of them for a count in parts, and deep
//! searches on a thread whose stack fits them.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::count::{Ctl, PerCell};
use super::symmetry::Symmetric;
use super::tables::{Cand, State, Tables};
use crate::engine::{CountError, CountOptions, CountResult, Stop};

/// The fewest subtrees of the search a part of a count in parts ([`Tables::count_part`])
/// gets, so that the parts are alike in size.
const SUBTREES_PER_PART: usize = 16;

/// The most states a level of the frontier keeps: the next level's subtrees are then the moves
/// from this one, made by the workers, however many parts were asked for (whose count may pass
/// the subtrees there are: a part beyond them is empty, and the parts still add up).
const MOST_FRONTIER_STATES: usize = 1 << 18;

/// How long a parallel count first tries on the calling thread alone.
const SEQUENTIAL_TRIAL: std::time::Duration = std::time::Duration::from_micros(300);

/// What one parallel subtree count returns: count, stop reason, overflow.
pub(super) type TaskResult = (u128, Option<Stop>, bool);

/// A worker's per-cell counts, one set per weight of its subtrees.
pub(super) type ByWeight = Vec<(u64, Vec<u128>)>;

/// The first levels of a search split into subtrees: the states of the level above the
/// last, and per subtree its parent there and the move from it (`None`: the parent is the
/// subtree), in search order, with the layouts each of its layouts stands for (more than one
/// under a first ship placed at one placement of each orbit of the problem's symmetries).
pub(super) struct Frontier<const N: usize> {
    pub(super) parents: Vec<State<N>>,
    pub(super) tasks: Vec<(usize, Option<Cand>)>,
    pub(super) weights: Vec<u64>,
}

impl<const N: usize> Tables<N> {
    /// Splits the root into independent subtrees for the threads.
    pub(super) fn frontier(&self, want: usize, sym: Option<&Symmetric>) -> Frontier<N> {
        self.frontier_of(want, |_| true, sym, &|| false)
            .expect("a frontier that is never stopped")
    }

    /// The subtrees of the search's first levels (at most three), down to the first level
    /// with at least `want` of them, in search order; of that last level, only those whose
    /// index `keep` accepts. The last level is not built: each subtree is its parent and
    /// the move from it, made by the worker that counts it. Under `sym`, the first ship is
    /// placed at its orbits' representatives only, each weighed by its orbit's size. No level
    /// of more than [`MOST_FRONTIER_STATES`] states is built. `None` once `stop` says so
    /// (looked at every 64 states).
    pub(super) fn frontier_of(
        &self,
        want: usize,
        keep: impl Fn(usize) -> bool,
        sym: Option<&Symmetric>,
        stop: &dyn Fn() -> bool,
    ) -> Option<Frontier<N>> {
        let mut looked = 0usize;
        let mut halted = || {
            looked += 1;
            looked.is_multiple_of(64) && stop()
        };
        let mut layer = vec![self.root()];
        let mut weights = vec![1u64];
        let mut cands = Vec::new();
        // A move's weight: its orbit's size for the first ship under `sym`, else 1 (0: the
        // move is not made).
        let weight = |level: usize, c: &Cand| match sym {
            Some(sym) if level == 0 => sym.weight(c),
            _ => 1,
        };
        let leafish = |st: &State<N>| {
            st.rem.iter().all(|&r| r == 0)
                || !self.viable(st)
                || (!self.has_caps
                    && self.required.is_subset(st.ships)
                    && st.rem.iter().sum::<usize>() <= 3)
        };
        for level in 0..3 {
            if layer.len() >= want {
                break;
            }
            // How many subtrees the next level has: if it is the last, it is left as moves.
            // (The third level is the last whatever its size.)
            let mut size = 0usize;
            if level < 2 {
                for st in &layer {
                    if halted() {
                        return None;
                    }
                    size += if leafish(st) {
                        1
                    } else {
                        self.candidates(st, &mut cands);
                        cands.iter().filter(|c| weight(level, c) > 0).count()
                    };
                }
            }
            let last = size >= want || level == 2 || size > MOST_FRONTIER_STATES;
            if last {
                let mut tasks = Vec::new();
                let mut task_weights = Vec::new();
                let mut index = 0;
                for (i, st) in layer.iter().enumerate() {
                    if halted() {
                        return None;
                    }
                    if leafish(st) {
                        if keep(index) {
                            tasks.push((i, None));
                            task_weights.push(weights[i]);
                        }
                        index += 1;
                        continue;
                    }
                    self.candidates(st, &mut cands);
                    for c in &cands {
                        let w = weight(level, c);
                        if w == 0 {
                            continue;
                        }
                        if keep(index) {
                            tasks.push((i, Some(*c)));
                            task_weights.push(weights[i] * w);
                        }
                        index += 1;
                    }
                }
                return Some(Frontier {
                    parents: layer,
                    tasks,
                    weights: task_weights,
                });
            }
            let mut next = Vec::new();
            let mut next_weights = Vec::new();
            for (st, &parent) in layer.into_iter().zip(&weights) {
                if leafish(&st) {
                    next.push(st);
                    next_weights.push(parent);
                    continue;
                }
                self.candidates(&st, &mut cands);
                for c in &cands {
                    let w = weight(level, c);
                    if w == 0 {
                        continue;
                    }
                    let mut s = st.clone();
                    self.place(&mut s, *c);
                    if c.type_step {
                        s.floor[c.ty as usize] = c.idx as usize + 1;
                    }
                    next.push(s);
                    next_weights.push(parent * w);
                }
            }
            layer = next;
            weights = next_weights;
        }
        // The root already had `want` subtrees (it is one): keep it if asked.
        let tasks: Vec<(usize, Option<Cand>)> = (0..layer.len())
            .filter(|&i| keep(i))
            .map(|i| (i, None))
            .collect();
        Some(Frontier {
            weights: tasks.iter().map(|&(i, _)| weights[i]).collect(),
            parents: layer,
            tasks,
        })
    }

    /// The state of subtree `task` of `f`, made in `into` (its vectors reused).
    pub(super) fn subtree<'s>(
        &self,
        f: &Frontier<N>,
        task: usize,
        into: &'s mut Option<State<N>>,
    ) -> &'s mut State<N> {
        let (parent, c) = f.tasks[task];
        let st = match into {
            Some(st) => {
                st.clone_from(&f.parents[parent]);
                st
            }
            None => into.insert(f.parents[parent].clone()),
        };
        if let Some(c) = c {
            self.place(st, c);
            if c.type_step {
                st.floor[c.ty as usize] = c.idx as usize + 1;
            }
        }
        st
    }

    /// How deep [`Tables::count_rec`] goes: one level per ship.
    pub(super) fn depth(&self) -> usize {
        self.types.iter().map(|t| t.count).sum()
    }

    pub(super) fn run_count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        // The recursion is as deep as the fleet is large (4,096 one-cell ships fit on a 64x64
        // board): it runs on threads whose stacks are sized for it.
        on_deep_stack(self.depth(), || self.count_on_this_thread(opts))
    }

    pub(super) fn count_on_this_thread(
        &self,
        opts: &CountOptions,
    ) -> Result<CountResult, CountError> {
        let start = Instant::now();
        // A limit too far off to be an instant is no limit.
        let deadline = opts.time_limit.and_then(|t| start.checked_add(t));
        let stop = AtomicBool::new(false);
        let ncells = self.board.len() as usize;
        let want_cells = opts.per_cell;
        let new_ctl = |limit| Ctl {
            limit,
            deadline,
            cancel: opts.cancel.as_ref(),
            ..Ctl::new(&stop)
        };
        let sequential = |ctl: &mut Ctl| -> Result<CountResult, CountError> {
            let mut cells = want_cells.then(|| PerCell::new(self, ncells));
            let mut st = self.root();
            self.count_from(&mut st, ctl, cells.as_mut());
            if ctl.overflow {
                return Err(CountError::Overflow);
            }
            let count = match opts.limit {
                Some(l) => ctl.found.min(l),
                None => ctl.found,
            };
            Ok(CountResult {
                count,
                complete: ctl.reason.is_none(),
                stopped: ctl.reason,
                per_cell: cells.map(|c| c.spread(self)),
                engine: crate::engine::EngineKind::Enum,
            })
        };
        // Per-cell counts under a limit must be those of exactly the layouts reported, which
        // only a search on one thread knows.
        if (opts.limit.is_some() && want_cells) || !opts.parallel {
            return sequential(&mut new_ctl(opts.limit));
        }
        // A small count is over before threads would start on it (they cost tens of
        // microseconds): it is tried on this thread first, for a moment.
        let trial_stop = AtomicBool::new(false);
        let trial = start + SEQUENTIAL_TRIAL;
        let r = sequential(&mut Ctl {
            deadline: Some(deadline.map_or(trial, |d| d.min(trial))),
            stop: &trial_stop,
            ..new_ctl(opts.limit)
        })?;
        if r.complete || r.stopped == Some(Stop::Limit) {
            return Ok(r);
        }
        // The board's symmetries that keep the problem save the search most of its first
        // ship's placements (the empty board's eight of them, nearly eight times).
        let sym = self.symmetric(self.dims);
        self.count_subtrees(
            self.frontier(256, sym.as_ref()),
            opts,
            deadline,
            &stop,
            opts.limit,
            sym.as_ref(),
        )
    }

    /// Counts the layouts under subtrees `part`, `part + parts`, `part + 2 * parts`, ... of
    /// the search's first levels, split into at least [`SUBTREES_PER_PART`] subtrees a part:
    /// the parts partition the layouts (a subtree is the layouts whose first ships are its
    /// placements; the search finds each layout once), so their counts add up to the count
    /// for any number of parts, and taking every `parts`-th subtree spreads the large ones.
    ///
    /// `part` is a range of parts counted together in one setup (the parts' layouts summed):
    /// how many parts a task counts, where a run has more parts than tasks.
    pub(super) fn count_part(
        &self,
        opts: &CountOptions,
        part: Range<usize>,
        parts: usize,
    ) -> Result<CountResult, CountError> {
        let parts = parts.max(1);
        let deadline = opts.time_limit.and_then(|t| Instant::now().checked_add(t));
        // Setting the part up walks the search's first levels: within the limit too.
        let stopped = || {
            deadline.is_some_and(|d| Instant::now() >= d)
                || opts.cancel.as_ref().is_some_and(|c| c.is_cancelled())
        };
        // A part's per-cell counts are not made whole by the symmetries alone: no orbits.
        let Some(tasks) = self.frontier_of(
            parts.saturating_mul(SUBTREES_PER_PART),
            |i| part.contains(&(i % parts)),
            None,
            &stopped,
        ) else {
            let cancelled = opts.cancel.as_ref().is_some_and(|c| c.is_cancelled());
            return Ok(CountResult {
                count: 0,
                complete: false,
                stopped: Some(if cancelled {
                    Stop::Cancelled
                } else {
                    Stop::Time
                }),
                per_cell: opts
                    .per_cell
                    .then(|| vec![0u128; self.board.len() as usize]),
                engine: super::super::EngineKind::Enum,
            });
        };
        let stop = AtomicBool::new(false);
        on_deep_stack(self.depth(), || {
            self.count_subtrees(tasks, opts, deadline, &stop, None, None)
        })
    }

    /// Counts the completions of the subtrees of `f` on every core, summed, each weighed by
    /// the layouts it stands for; per-cell counts made whole by `sym`'s symmetries when the
    /// frontier placed the first ship by its orbits.
    ///
    /// Under a `limit`, the subtrees stop once those counted reach it (no subtree starts, the
    /// ones under way stop), and the count is the limit.
    pub(super) fn count_subtrees(
        &self,
        f: Frontier<N>,
        opts: &CountOptions,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        limit: Option<u128>,
        sym: Option<&Symmetric>,
    ) -> Result<CountResult, CountError> {
        let counted = std::sync::Mutex::new(0u128);
        let ncells = self.board.len() as usize;
        let want_cells = opts.per_cell;
        let new_ctl = |spare| Ctl {
            deadline,
            cancel: opts.cancel.as_ref(),
            spare,
            ..Ctl::new(stop)
        };
        let done = AtomicU64::new(0);
        let total = f.tasks.len() as u64;
        let depth = self.depth();
        // Per-cell counts are gathered per worker and weight, not per subtree: spreading a
        // placement's counts over its cells costs a pass over every placement. A worker makes
        // each of its subtrees in one state, and keeps its candidate lists from one to the
        // next.
        type Weighed = Vec<(u64, PerCell)>;
        let parts: Vec<(ByWeight, Vec<TaskResult>)> = (0..f.tasks.len())
            .into_par_iter()
            .fold(
                || (Weighed::new(), Vec::new(), None, Vec::new()),
                |(mut by_weight, mut results, mut st, spare), task| {
                    let w = f.weights[task];
                    let mut ctl = new_ctl(spare);
                    let cells = want_cells.then(|| {
                        let at = match by_weight.iter().position(|(v, _)| *v == w) {
                            Some(at) => at,
                            None => {
                                by_weight.push((w, PerCell::new(self, ncells)));
                                by_weight.len() - 1
                            }
                        };
                        &mut by_weight[at].1
                    });
                    // Past the deadline (or once stopped) a subtree is not started: a deep
                    // one would start a thread for its stack only to stop at once.
                    if !ctl.should_stop() {
                        let st = self.subtree(&f, task, &mut st);
                        on_deep_stack(depth, || self.count_from(st, &mut ctl, cells));
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(p) = &opts.progress {
                        p(d, total);
                    }
                    let found = ctl.found.checked_mul(u128::from(w));
                    if let Some(l) = limit {
                        let mut c = counted.lock().unwrap_or_else(|e| e.into_inner());
                        *c = c.saturating_add(found.unwrap_or(u128::MAX));
                        if *c >= l {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    let overflow = ctl.overflow || found.is_none();
                    results.push((found.unwrap_or(0), ctl.reason, overflow));
                    (by_weight, results, st, ctl.spare)
                },
            )
            .map(|(by_weight, results, _, _)| {
                let cells = by_weight
                    .into_iter()
                    .map(|(w, c)| (w, c.spread(self)))
                    .collect();
                (cells, results)
            })
            .collect();
        let mut count = 0u128;
        let mut stopped = None;
        let mut per_cell = want_cells.then(|| vec![0u128; ncells]);
        for (by_weight, results) in parts {
            for (n, reason, overflow) in results {
                if overflow {
                    return Err(CountError::Overflow);
                }
                count = count.checked_add(n).ok_or(CountError::Overflow)?;
                stopped = stopped.or(reason);
            }
            if let Some(acc) = per_cell.as_mut() {
                for (w, c) in by_weight {
                    for (a, b) in acc.iter_mut().zip(c) {
                        *a = b
                            .checked_mul(u128::from(w))
                            .and_then(|b| a.checked_add(b))
                            .ok_or(CountError::Overflow)?;
                    }
                }
            }
        }
        if let (Some(sym), Some(acc)) = (sym, per_cell.as_mut()) {
            *acc = sym.spread(acc).ok_or(CountError::Overflow)?;
        }
        if let Some(l) = limit
            && count >= l
        {
            count = l;
            stopped = Some(Stop::Limit);
        }
        Ok(CountResult {
            count,
            complete: stopped.is_none(),
            stopped,
            per_cell,
            engine: crate::engine::EngineKind::Enum,
        })
    }
}

/// Recursion a thread's stack takes as it is (a spawned thread's 2 MiB hold some 1,000 levels
/// of [`Tables::count_rec`]).
const INLINE_DEPTH: usize = 256;

/// Stack bytes per level of [`Tables::count_rec`], with room to spare (a level takes 1 to 2
/// KiB).
const FRAME: usize = 8 << 10;

/// Runs `f`, which recurses `depth` levels deep, here when the depth is small, else on a thread
/// of its own whose stack is sized for it (a stack overflow would abort the process, a server's
/// included).
pub(super) fn on_deep_stack<R: Send>(depth: usize, f: impl FnOnce() -> R + Send) -> R {
    if depth <= INLINE_DEPTH {
        return f();
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("broadside-deep".into())
            .stack_size(depth * FRAME + (1 << 20))
            .spawn_scoped(scope, f)
            .expect("a thread for a deep search")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}
