//! Counts of a position by replaying the DP's passes over a wider one it narrows: the
//! positions of a game, replayed over the empty board's.
//!
//! A shot narrows one cell: a miss forbids every move that puts a ship there, a hit every
//! move that leaves it water. The moves the DP makes at each cell ([`DpEngine::step`]) are then
//! those it made on the wider position less the forbidden ones, between the same states. So the
//! trails the tight pass records on the empty board (per state its forward count and its
//! edges, each edge flagged when its move puts a ship on the cell) hold every position of the
//! game: a position's counts are the same two sweeps along them with the forbidden edges left
//! out, with no keys, no tables and no merging. The layers before the first narrowed cell keep
//! their forward counts; after it, the forward counts are swept again (scattered along the
//! kept edges); the backward sweep is the tight pass's, its edges filtered. The backward
//! sweep alone costs a fifth of the tight pass that records the trails on the standard game,
//! both sweeps about half; but they walk every state of the wider position, the ones the
//! position rules out included, so [`Trails::sooner`] weighs them against a fresh count.
//!
//! A position applies when it narrows the wider one only by cells and by placements: every
//! water and ship cell of the wider one is one of its own, its allowed placements are among
//! the wider one's, and each placement it drops crosses one of its new water cells or, under
//! no-touch, lies beside one of its ship cells (so the DP's path through it dies anyway).
//! Anything else (a sinking report that rules out placements, another fleet or rule) is
//! counted afresh.
//!
//! A game's positions come one shot at a time, each narrowing the one before. So the replay
//! keeps the sweeps of the positions it counted last ([`KEPT_SWEEPS`] of them: per layer the
//! forward counts and the completions) and counts a position that narrows one of them from
//! it: the forward counts before the first cell the new position narrows are the kept
//! position's, and so are the completions after the last; only the layers from that first
//! cell on are swept forward, and those up to that last cell backward. A shot at one cell
//! costs one sweep over the board's layers, the forward one past the shot and the backward
//! one before it, instead of a forward sweep from the first shot on and a whole backward
//! sweep; the per-cell counts past that last cell come out of the forward sweep, as the
//! completions its ship moves lead to are the kept ones.

use std::sync::{Arc, Mutex};

mod sweep;

use super::state::{ACROSS, DOWN, SINGLE};
use super::tight::{Record, SHIP, Trail, stopped};
use super::{DpEngine, Halt};
use crate::engine::{Cancel, CountError, CountOptions, CountResult, EngineKind, Stop};
use crate::problem::Problem;
use sweep::{counts_of, split_lists};

/// The most memory a replay's trails may take: 1 GiB (the empty 10x10 board's take about
/// 0.2 GiB touching, less without touching). A wider position whose trails would pass it is
/// not replayed.
pub const REPLAY_MEMORY: usize = 1 << 30;

/// How many counted positions' sweeps a replay keeps for positions that narrow them: one for
/// each of two games played at once (each takes 16 bytes a state of the wider position,
/// about 0.28 GiB on the standard game, touching; none are kept past [`SWEEPS_MEMORY`]).
pub const KEPT_SWEEPS: usize = 2;

/// The most memory one position's kept sweeps may take: 0.5 GiB.
pub const SWEEPS_MEMORY: usize = 1 << 29;

/// Which of a cell's edges a narrowed position keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// Every edge: the cell is as in the wider position.
    All,
    /// The cell is water: only moves that leave it water.
    Water,
    /// The cell holds a ship: only moves that put one there.
    Ship,
    /// Both (a contradiction): none.
    None,
}

impl Kept {
    #[inline]
    fn keeps(self, edge: u32) -> bool {
        match self {
            Kept::All => true,
            Kept::Water => edge & SHIP == 0,
            Kept::Ship => edge & SHIP != 0,
            Kept::None => false,
        }
    }
}

/// The DP's trails over a wider position, to count the positions that narrow it by
/// replaying them; see the module documentation. Made for a problem (cheap), the trails are
/// recorded by the first count that asks for them, once, and shared by every thread (counts
/// that come while they are being recorded count afresh).
pub struct DpReplay {
    wide: Problem,
    root: Mutex<Root>,
    /// The sweeps of the positions counted last, the latest last.
    swept: Mutex<Vec<Swept>>,
}

/// The sweeps of one counted position, kept to count the positions that narrow it.
struct Swept {
    /// Whether the sweeps are a position's (else only their memory is kept).
    known: bool,
    /// The edges the position kept at each cell.
    kept: Vec<Kept>,
    /// The layers up to this one hold the wider position's forward counts (the trails');
    /// `fwd` holds those past it.
    first: usize,
    /// Per layer, its states' forward counts (past `first`).
    fwd: Vec<Vec<u64>>,
    /// Per layer but the last, its states' completions, when `backward` (the last layer's are
    /// the trails' finals).
    bwd: Vec<Vec<u64>>,
    /// Whether `bwd` and `per_cell` are the position's: its count asked for per-cell counts.
    backward: bool,
    total: u128,
    per_cell: Vec<u128>,
}

impl Swept {
    /// A position that narrows nothing (the wider one), nothing swept: its buffers reused
    /// from `old`.
    fn wide(t: &Trails, old: Option<Swept>) -> Swept {
        let cells = t.trails.len();
        let (fwd, bwd) = old.map(|o| (o.fwd, o.bwd)).unwrap_or_default();
        Swept {
            known: true,
            kept: vec![Kept::All; cells],
            first: cells,
            fwd,
            bwd,
            backward: false,
            total: t.total,
            per_cell: Vec::new(),
        }
    }

    /// The cells the position `kept` narrows these sweeps' position at, first and last
    /// (`None` when it narrows none); `Err(())` when it does not narrow it.
    fn narrowed_at(&self, kept: &[Kept]) -> Result<Option<(usize, usize)>, ()> {
        let mut span = None;
        for (c, (&was, &now)) in self.kept.iter().zip(kept).enumerate() {
            if was == now {
                continue;
            }
            if was != Kept::All && now != Kept::None {
                return Err(());
            }
            span = Some(span.map_or((c, c), |(a, _): (usize, usize)| (a, c)));
        }
        Ok(span)
    }

    /// The layers the sweeps of the position `kept` take from these: the forward one from
    /// the first returned, the backward one up to the second (`None`: none); `None` where it
    /// does not narrow this position.
    fn sweeps_for(&self, kept: &[Kept], per_cell: bool) -> Option<(usize, Option<usize>)> {
        if !self.known {
            return None;
        }
        let cells = kept.len();
        let span = self.narrowed_at(kept).ok()?;
        let from = span.map_or(cells, |s| s.0);
        let to = if !per_cell {
            None
        } else if !self.backward {
            cells.checked_sub(1)
        } else {
            span.map(|s| s.1)
        };
        Some((from, to))
    }
}

/// The trails, once recorded.
enum Root {
    Unmade,
    /// A count is recording them. No lock is held meanwhile: the recording shares its work
    /// with the thread pool, whose threads may take up other counts (of other games of a
    /// run), and a count that finds the trails being recorded counts afresh rather than wait
    /// on a thread that may be its own.
    Recording,
    Made(Arc<Trails>),
    /// The tight pass does not apply to the wider position, or its trails pass
    /// [`REPLAY_MEMORY`].
    Unfit,
}

/// The wider position's DP and the trails of its tight pass.
struct Trails {
    dp: DpEngine,
    /// Per cell, each worker's trail.
    trails: Vec<Vec<Trail>>,
    /// Per state of the last layer: 1 when its fleet is complete.
    finals: Vec<u64>,
    /// Per layer, its states.
    sizes: Vec<usize>,
    /// Per layer, the states of the layers before it.
    before: Vec<usize>,
    /// The wider position's layouts.
    total: u128,
}

impl std::fmt::Debug for DpReplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let made = matches!(
            *self.root.lock().unwrap_or_else(|e| e.into_inner()),
            Root::Made(_)
        );
        f.debug_struct("DpReplay").field("recorded", &made).finish()
    }
}

impl DpReplay {
    /// A replay over `wide`; nothing is recorded until a count needs it.
    pub fn new(wide: Problem) -> DpReplay {
        DpReplay {
            wide,
            root: Mutex::new(Root::Unmade),
            swept: Mutex::new(Vec::new()),
        }
    }

    /// Whether the trails have been recorded (they then take memory while the replay lives).
    pub fn recorded(&self) -> bool {
        matches!(
            *self.root.lock().unwrap_or_else(|e| e.into_inner()),
            Root::Made(_)
        )
    }

    /// Forgets the positions counted last: the next position is replayed from the wider
    /// one's trails alone (in the kept sweeps' memory, which stays).
    pub fn forget_positions(&self) {
        for sw in self
            .swept
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            sw.known = false;
        }
    }

    /// What replaying the position `dp` was made for would cost, in states of a fresh count
    /// of it (each at a fresh count's cost: comparable with [`DpEngine::predicted_states`]);
    /// `None` until the trails are recorded, or where the position does not narrow the
    /// wider one. `auto` weighs it against the enumerator as it weighs a fresh count.
    pub fn predicted_states(&self, dp: &DpEngine, per_cell: bool) -> Option<f64> {
        let trails = match &*self.root.lock().unwrap_or_else(|e| e.into_inner()) {
            Root::Made(t) => t.clone(),
            _ => return None,
        };
        let kept = trails.dp.narrowed_by(dp)?;
        let pool = self.swept.lock().unwrap_or_else(|e| e.into_inner());
        let (_, (from, to)) = trails.best(&pool, &kept, per_cell);
        Some(trails.as_states(dp, (from, to), per_cell))
    }

    /// Whether the trails are still to be recorded and the position `dp` was made for
    /// narrows the wider one: its count would record them.
    pub fn awaits(&self, dp: &DpEngine) -> bool {
        matches!(
            *self.root.lock().unwrap_or_else(|e| e.into_inner()),
            Root::Unmade
        ) && self.wide_narrowed_by(dp).is_some()
    }

    /// The wider position's DP and the edges the position `dp` was made for keeps at each
    /// cell; `None` where it does not narrow the wider one (another game's).
    fn wide_narrowed_by(&self, dp: &DpEngine) -> Option<(DpEngine, Vec<Kept>)> {
        let wide = DpEngine::new(&self.wide).ok()?;
        let kept = wide.narrowed_by(dp)?;
        Some((wide, kept))
    }

    /// The count of the position `dp` was made for (per-cell counts as `opts` asks) by
    /// replay; `None` when the position does not narrow the wider one (count it afresh).
    /// The first count records the trails, within `opts`' time limit and cancellation.
    pub(super) fn count(
        &self,
        dp: &DpEngine,
        opts: &CountOptions,
    ) -> Option<Result<CountResult, CountError>> {
        self.count_if(dp, opts, true)
    }

    /// [`DpReplay::count`]; with `choose` false it replays even where a fresh count would
    /// be sooner.
    fn count_if(
        &self,
        dp: &DpEngine,
        opts: &CountOptions,
        choose: bool,
    ) -> Option<Result<CountResult, CountError>> {
        let lock = || self.root.lock().unwrap_or_else(|e| e.into_inner());
        let mut root = lock();
        let (trails, kept) = match &*root {
            Root::Made(t) => {
                let t = t.clone();
                drop(root);
                let kept = t.dp.narrowed_by(dp)?;
                (t, kept)
            }
            Root::Unfit | Root::Recording => return None,
            Root::Unmade => {
                // Another game needs no trails: refused before any are recorded.
                let (wide, kept) = self.wide_narrowed_by(dp)?;
                *root = Root::Recording;
                drop(root);
                let recorded = record(wide, opts);
                let mut root = lock();
                match recorded {
                    Ok(Some(t)) => {
                        *root = Root::Made(t.clone());
                        (t, kept)
                    }
                    Ok(None) => {
                        *root = Root::Unfit;
                        return None;
                    }
                    // Recorded again by the next count.
                    Err(stop) => {
                        *root = Root::Unmade;
                        return Some(Ok(stopped(stop)));
                    }
                }
            }
        };
        if choose {
            let pool = self.swept.lock().unwrap_or_else(|e| e.into_inner());
            let (_, (from, to)) = trails.best(&pool, &kept, opts.per_cell);
            if trails.as_states(dp, (from, to), opts.per_cell) >= dp.predicted_states() {
                return None;
            }
        }
        Some(self.replay(&trails, kept, opts))
    }

    /// The two sweeps along the trails with the edges `kept` allows, from the kept sweeps of
    /// a position it narrows where that is sooner; its own sweeps are kept in turn.
    fn replay(
        &self,
        t: &Trails,
        kept: Vec<Kept>,
        opts: &CountOptions,
    ) -> Result<CountResult, CountError> {
        let cells = t.trails.len();
        let (mut sw, (from, to)) = self.take(t, &kept, opts.per_cell);
        let deadline = opts
            .time_limit
            .and_then(|d| std::time::Instant::now().checked_add(d));
        let halt = || -> Option<Stop> {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                Some(Stop::Time)
            } else if opts.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                Some(Stop::Cancelled)
            } else {
                None
            }
        };
        let parallel = opts.parallel;
        // The layers up to `first` keep the wider position's forward counts; a sweep cut
        // short leaves its buffers half made, so it is not kept.
        let first = sw.first.min(from);
        // The kept per-cell counts stay for the cells neither sweep reaches (all of them,
        // when the position is the kept one).
        let mut out = if opts.per_cell {
            std::mem::take(&mut sw.per_cell)
        } else {
            Vec::new()
        };
        out.resize(if opts.per_cell { cells } else { 0 }, 0);
        sw.fwd.resize_with(cells + 1, Vec::new);
        for cell in from..cells {
            if let Some(stop) = halt() {
                return Ok(stopped(stop));
            }
            let (before, after) = sw.fwd.split_at_mut(cell + 1);
            let next = &mut after[0];
            next.clear();
            next.resize(t.sizes[cell + 1], 0);
            let workers = &t.trails[cell];
            let lists = split_lists(workers, next);
            let src = counts_of(workers, (cell > first).then(|| &before[cell][..]));
            let kept = kept[cell];
            // Past the last cell the backward sweep takes, the completions are the kept
            // ones, so the layouts with a ship on the cell come out of this sweep.
            let dot = to
                .is_some_and(|to| cell > to)
                .then(|| completions(t, &sw.bwd, cell + 1));
            let ships = run(
                parallel,
                workers.iter().zip(src).zip(lists).collect(),
                |((tr, src), mut lists)| src.scatter(tr, kept, &mut lists, dot),
            );
            if dot.is_some() {
                out[cell] = ships.into_iter().sum();
            }
        }
        let total: u128 = if from < cells {
            sw.fwd[cells]
                .iter()
                .zip(&t.finals)
                .map(|(&n, &f)| u128::from(n * f))
                .sum()
        } else {
            sw.total
        };
        if let Some(to) = to {
            sw.bwd.resize_with(cells, Vec::new);
            for cell in (0..=to).rev() {
                if let Some(stop) = halt() {
                    return Ok(stopped(stop));
                }
                let (lower, upper) = sw.bwd.split_at_mut(cell + 1);
                let after: &[u64] = if cell + 1 == cells {
                    &t.finals
                } else {
                    &upper[0]
                };
                let here = &mut lower[cell];
                // Every state's completions are written: no need to clear them first.
                here.resize(t.sizes[cell], 0);
                let workers = &t.trails[cell];
                let mut shares = Vec::with_capacity(workers.len());
                let mut rest = &mut here[..];
                for tr in workers {
                    let (share, tail) = rest.split_at_mut(tr.degrees.len());
                    shares.push(share);
                    rest = tail;
                }
                let src = counts_of(workers, (cell > first).then(|| &sw.fwd[cell][..]));
                let kept = kept[cell];
                let ships = run(
                    opts.parallel,
                    workers.iter().zip(src).zip(shares).collect(),
                    |((tr, src), share)| src.gather(tr, kept, after, share),
                );
                out[cell] = ships.into_iter().sum();
            }
        }
        if let Some(p) = &opts.progress {
            p(2 * cells as u64, 2 * cells as u64);
        }
        let per_cell = opts.per_cell.then(|| out.clone());
        if opts.per_cell {
            sw.backward = true;
            sw.per_cell = out;
        } else if from < cells {
            sw.backward = false;
        }
        sw.kept = kept;
        sw.first = first;
        sw.total = total;
        self.put(t, sw);
        Ok(CountResult {
            count: total,
            complete: true,
            stopped: None,
            per_cell,
            engine: EngineKind::Dp,
        })
    }

    /// The kept sweeps the position `kept` is counted from most cheaply (taken from the
    /// pool), or the wider position's (in the buffers of the oldest kept ones when the pool
    /// is full), and the layers to sweep from them.
    fn take(&self, t: &Trails, kept: &[Kept], per_cell: bool) -> (Swept, Sweeps) {
        let mut pool = self.swept.lock().unwrap_or_else(|e| e.into_inner());
        match t.best(&pool, kept, per_cell) {
            (Some(i), sweeps) => (pool.remove(i), sweeps),
            (None, sweeps) => {
                // The memory of forgotten sweeps first, then the oldest's when the pool is full.
                let old = pool
                    .iter()
                    .position(|sw| !sw.known)
                    .or((pool.len() >= KEPT_SWEEPS).then_some(0))
                    .map(|i| pool.remove(i));
                (Swept::wide(t, old), sweeps)
            }
        }
    }

    /// Keeps `sw` as the latest sweeps, dropping the oldest past [`KEPT_SWEEPS`] (none past
    /// [`SWEEPS_MEMORY`]).
    fn put(&self, t: &Trails, sw: Swept) {
        if 16 * t.before[t.trails.len() + 1] > SWEEPS_MEMORY {
            return;
        }
        let mut pool = self.swept.lock().unwrap_or_else(|e| e.into_inner());
        pool.push(sw);
        while pool.len() > KEPT_SWEEPS {
            pool.remove(0);
        }
    }
}

/// The layers a count sweeps: forward from the first, backward down from the second (none
/// for `None`).
type Sweeps = (usize, Option<usize>);

/// The completions of the states of `layer`: kept in `bwd`, the finals for the last.
fn completions<'a>(t: &'a Trails, bwd: &'a [Vec<u64>], layer: usize) -> &'a [u64] {
    if layer == t.trails.len() {
        &t.finals
    } else {
        &bwd[layer]
    }
}

/// The tight pass over the wider position `dp`, its trails kept: `Ok(None)` when it does
/// not apply or its trails pass [`REPLAY_MEMORY`], `Err(stop)` when `opts` stopped it.
fn record(dp: DpEngine, opts: &CountOptions) -> Result<Option<Arc<Trails>>, Stop> {
    let record = CountOptions {
        per_cell: true,
        parallel: true,
        time_limit: opts.time_limit,
        cancel: opts.cancel.clone(),
        memory_limit: Some(REPLAY_MEMORY),
        ..CountOptions::default()
    };
    let super::tight::TightForward {
        trails,
        last,
        total,
    } = match dp.tight_forward(&record, Some(0), Record::Cells, false) {
        Ok(Some(x)) => x,
        Ok(None) | Err(Halt::Failed(_)) => return Ok(None),
        Err(Halt::Stopped(stop)) => return Err(stop),
    };
    let finals: Vec<u64> = last
        .iter()
        .map(|&(k, _)| u64::from(dp.is_final(k)))
        .collect();
    let sizes: Vec<usize> = trails
        .iter()
        .map(|w| w.iter().map(|t| t.degrees.len()).sum())
        .chain([finals.len()])
        .collect();
    let before = std::iter::once(0)
        .chain(sizes.iter().scan(0, |sum, &n| {
            *sum += n;
            Some(*sum)
        }))
        .collect();
    Ok(Some(Arc::new(Trails {
        dp,
        trails,
        finals,
        sizes,
        before,
        total,
    })))
}

/// Seconds a state of the wider position's layers costs the replay's backward sweep, and
/// its forward sweep (2 cores, both rules alike); and a counted afresh per state the DP
/// predicts ([`DpEngine::predicted_states`]), by rule (touch, no-touch) and count (a total,
/// per cell). Measured in one process on the standard game's positions with 0 to 8 misses
/// (2-core Intel Xeon; see docs/PERFORMANCE.md): only their ratios matter.
const SWEEP_SECONDS: (f64, f64) = (2.5e-9, 3.2e-9);
const FRESH_SECONDS: [[f64; 2]; 2] = [[5.9e-9, 11.3e-9], [2.8e-9, 5.5e-9]];

impl Trails {
    /// Of the kept sweeps in `pool` and the wider position's, those the position `kept` is
    /// counted from soonest (its index in `pool`, `None` for the wider position's) and the
    /// layers to sweep.
    fn best(&self, pool: &[Swept], kept: &[Kept], per_cell: bool) -> (Option<usize>, Sweeps) {
        let cost = |sweeps| self.seconds(sweeps);
        // From the trails alone: forward from the first narrowed cell, backward in full.
        let cells = self.trails.len();
        let first = kept.iter().position(|&k| k != Kept::All).unwrap_or(cells);
        let wide = (first, cells.checked_sub(1).filter(|_| per_cell));
        pool.iter()
            .enumerate()
            .filter_map(|(i, sw)| Some((Some(i), sw.sweeps_for(kept, per_cell)?)))
            .fold((None, wide), |best, next| {
                if cost(next.1) < cost(best.1) {
                    next
                } else {
                    best
                }
            })
    }

    /// The replay's cost for the position of `dp`, swept forward from the layer `from` and
    /// backward down from `to`, in states of a fresh count of it (each at a fresh count's
    /// cost): the sweeps walk every state of the wider position in their layers, while a
    /// fresh count walks only the states left, so past a few misses the fresh count wins.
    fn as_states(&self, dp: &DpEngine, sweeps: Sweeps, per_cell: bool) -> f64 {
        self.seconds(sweeps) / FRESH_SECONDS[usize::from(dp.no_touch)][usize::from(per_cell)]
    }

    /// The seconds the sweeps take (at [`SWEEP_SECONDS`] a state).
    fn seconds(&self, (from, to): Sweeps) -> f64 {
        let cells = self.trails.len();
        let (backward, forward) = SWEEP_SECONDS;
        forward * (self.before[cells] - self.before[from]) as f64
            + backward * to.map_or(0, |to| self.before[to + 1]) as f64
    }
}

/// The cells around `cells` (theirs among them), on the board.
fn halo(d: crate::geom::Dims, cells: &[usize]) -> impl Iterator<Item = usize> + '_ {
    cells.iter().flat_map(move |&c| {
        let (r, col) = d.row_col(c);
        (r.saturating_sub(1)..(r + 2).min(d.height)).flat_map(move |rr| {
            (col.saturating_sub(1)..(col + 2).min(d.width)).map(move |cc| rr * d.width + cc)
        })
    })
}

/// `f` over each item, on the pool's threads when `parallel` and there are several.
fn run<T: Send, R: Send>(
    parallel: bool,
    items: Vec<T>,
    f: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    if parallel {
        super::forward::run(items, f)
    } else {
        items.into_iter().map(f).collect()
    }
}

impl DpEngine {
    /// Which edges of each cell the position of `narrow` keeps of this (wider) position's,
    /// `None` when it does not narrow this one by cells and placements alone (see the module
    /// documentation).
    fn narrowed_by(&self, narrow: &DpEngine) -> Option<Vec<Kept>> {
        if self.dims != narrow.dims
            || self.lens != narrow.lens
            || self.counters != narrow.counters
            || self.no_touch != narrow.no_touch
        {
            return None;
        }
        let cells = self.dims.cells();
        let mut kept = Vec::with_capacity(cells);
        for c in 0..cells {
            if (self.water[c] && !narrow.water[c]) || (self.ship[c] && !narrow.ship[c]) {
                return None;
            }
            let water = narrow.water[c] && !self.water[c];
            let ship = narrow.ship[c] && !self.ship[c];
            kept.push(match (water, ship) {
                (false, false) => Kept::All,
                (true, false) => Kept::Water,
                (false, true) => Kept::Ship,
                (true, true) => Kept::None,
            });
        }
        let types = self.lens.len();
        let w = self.dims.width;
        for (i, (&wide, &narrowed)) in self.starts.iter().zip(&narrow.starts).enumerate() {
            if narrowed & !wide != 0 {
                return None;
            }
            let (anchor, t) = (i / types, i % types);
            for dir in [SINGLE, ACROSS, DOWN] {
                if wide & dir == 0 || narrowed & dir != 0 {
                    continue;
                }
                let step = if dir == DOWN { w } else { 1 };
                let len = if dir == SINGLE { 1 } else { self.lens[t] };
                let cells: Vec<usize> = (0..len).map(|j| anchor + j * step).collect();
                let water = |&c: &usize| matches!(kept[c], Kept::Water | Kept::None);
                // Under no-touch a ship beside the placement touches it, whatever covers it.
                let beside_ship = self.no_touch
                    && halo(self.dims, &cells).any(|c| narrow.ship[c] && !cells.contains(&c));
                if !cells.iter().any(water) && !beside_ship {
                    return None;
                }
            }
        }
        Some(kept)
    }
}

#[cfg(test)]
mod tests;
