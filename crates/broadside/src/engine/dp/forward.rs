//! The DP's layers and its forward pass: the states before each cell, sorted, with the
//! number of partial layouts reaching each; the trails the backward pass and the sampler
//! replay; and the split of each layer between the cores.

use std::ops::Range;

use super::gather::Gather;
use super::state::{Key, Move, Piece, Tally};
use super::{DpEngine, Halt};
use crate::engine::{Cancel, CountError, CountOptions, Stop};

/// The states before one cell in pieces that follow one another in key order, one per
/// worker that made them.
pub(super) struct Layer<C = u64> {
    pub(super) pieces: Vec<Piece<C>>,
}

impl<C> Layer<C> {
    pub(super) fn len(&self) -> usize {
        self.pieces.iter().map(|p| p.keys.len()).sum()
    }
}

/// A run of a layer's states: its piece and index range.
pub(super) type Run = (usize, Range<usize>);

/// A cell's trails in the general passes: its cuts, and each worker's trail.
pub(super) type CellTrails = (Vec<Vec<Run>>, Vec<Trail>);

/// What the general forward pass leaves.
pub(super) struct Pass<C: Tally> {
    /// The layers, as the pass was asked to keep them (the last always whole).
    pub layers: Vec<Layer<C>>,
    /// Per cell, the trails the backward pass follows (none when nothing is kept).
    pub trails: Vec<CellTrails>,
    /// The count.
    pub total: C::Wide,
}

/// What the forward pass records for the backward pass, per layer and worker, in the order
/// it met the states: which of the worker's stretches each state is in (within a stretch the
/// states come in order), its number of successors, and per successor its index in the
/// worker's next piece, with [`SHIP`] set when the move puts a ship on the cell; for the
/// sampler, per successor its [`Move::code`] too. The backward pass replays it without the
/// keys.
#[derive(Default)]
pub(super) struct Trail {
    pub(super) stretches: Vec<u8>,
    pub(super) degrees: Vec<u8>,
    pub(super) edges: Vec<u32>,
    pub(super) moves: Option<Vec<u16>>,
}

/// What the forward pass keeps of the layers it has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// Nothing: the total is all that is wanted.
    Nothing,
    /// The counts and the trails, for the backward pass.
    Trails,
    /// The trails with each edge's move as well, for the sampler.
    Moves,
}

/// The edge flag of a move that puts a ship on its cell.
pub(super) const SHIP: u32 = 1 << 31;

impl DpEngine {
    /// How many workers a pass over `layer` uses: every thread of the pool when
    /// `opts.parallel` and the layer is large enough to share, else one.
    pub(super) fn parts<C>(&self, opts: &CountOptions, layer: &Layer<C>) -> usize {
        if opts.parallel && layer.len() >= 4096 {
            // A worker's stretches, one per piece and label, are numbered in a byte.
            let most = (256 >> self.pack.label_bits).max(1);
            rayon::current_num_threads().clamp(1, most)
        } else {
            1
        }
    }

    /// The runs of a layer, one per piece and oldest label (the keys are sorted, so each is
    /// contiguous), each cut into `parts` stretches at common group pivots: `cuts[p]` lists
    /// the stretches worker `p` takes, run by run. The groups of worker `p` all come before
    /// those of worker `p + 1`.
    pub(super) fn cuts<C>(&self, layer: &Layer<C>, parts: usize) -> Vec<Vec<Run>> {
        let pk = &self.pack;
        let labels = 1usize << pk.label_bits;
        let mut runs: Vec<Run> = Vec::with_capacity(labels * layer.pieces.len());
        for (q, piece) in layer.pieces.iter().enumerate() {
            let mut at = 0;
            for l in 0..labels {
                let end = at + piece.keys[at..].partition_point(|&k| pk.up(k) as usize <= l);
                if end > at {
                    runs.push((q, at..end));
                }
                at = end;
            }
        }
        // Pivots at the quantiles of an even sample of every run's groups.
        let total: usize = runs.iter().map(|r| r.1.len()).sum();
        let every = (total / 4096).max(1);
        let mut sample: Vec<Key> = runs
            .iter()
            .flat_map(|(q, r)| {
                let keys = &layer.pieces[*q].keys[r.clone()];
                keys.iter().step_by(every).map(|&k| pk.group_in(k))
            })
            .collect();
        sample.sort_unstable();
        let mut pivots: Vec<Key> = (1..parts)
            .map(|p| {
                sample
                    .get(sample.len() * p / parts)
                    .copied()
                    .unwrap_or(Key::MAX)
            })
            .collect();
        pivots.push(Key::MAX);
        let mut cuts = vec![Vec::with_capacity(runs.len()); parts];
        for (q, run) in &runs {
            let keys = &layer.pieces[*q].keys;
            let mut from = run.start;
            for (p, &pivot) in pivots.iter().enumerate() {
                let to = if pivot == Key::MAX {
                    run.end
                } else {
                    from + keys[from..run.end].partition_point(|&k| pk.group_in(k) < pivot)
                };
                cuts[p].push((*q, from..to));
                from = to;
            }
        }
        cuts
    }

    /// Calls `f(members)` for each group of the stretches `runs` of `layer`, in increasing
    /// order; `members` lists, per stretch holding states of the group, the stretch's index
    /// in `runs` and the states' index range in its piece.
    pub(super) fn for_each_group<C>(
        &self,
        layer: &Layer<C>,
        runs: &[Run],
        mut f: impl FnMut(&[Run]),
    ) {
        let pk = &self.pack;
        // The stretches with states left: their index in `runs`, keys, next index, and the
        // group of that next state.
        let mut open: Vec<(usize, &[Key], usize, Key)> = runs
            .iter()
            .enumerate()
            .filter(|(_, (_, r))| !r.is_empty())
            .map(|(i, (q, r))| {
                let keys = &layer.pieces[*q].keys[..r.end];
                (i, keys, r.start, pk.group_in(keys[r.start]))
            })
            .collect();
        let mut members: Vec<Run> = Vec::with_capacity(runs.len());
        while !open.is_empty() {
            let group = open.iter().map(|o| o.3).min().expect("a stretch is open");
            members.clear();
            for (i, keys, at, head) in open.iter_mut() {
                if *head != group {
                    continue;
                }
                let start = *at;
                *at += 1;
                while *at < keys.len() && pk.group_in(keys[*at]) == group {
                    *at += 1;
                }
                *head = keys.get(*at).map_or(Key::MAX, |&k| pk.group_in(k));
                members.push((*i, start..*at));
            }
            f(&members);
            if open.iter().any(|o| o.3 == Key::MAX) {
                open.retain(|o| o.3 != Key::MAX);
            }
        }
    }

    /// One worker's share of the forward step at `cell`: the successors of its stretches of
    /// `layer`, sorted, with their counts, written to `out` through `gather`; with `trail`,
    /// what the backward pass needs. False on overflow.
    pub(super) fn forward_part<C: Tally>(
        &self,
        cell: usize,
        layer: &Layer<C>,
        runs: &[Run],
        out: &mut Piece<C>,
        gather: &mut Gather<C>,
        mut trail: Option<&mut Trail>,
    ) -> bool {
        let n: usize = runs.iter().map(|r| r.1.len()).sum();
        out.keys.clear();
        out.counts.clear();
        out.keys.reserve(n + n / 4);
        out.counts.reserve(n + n / 4);
        if let Some(t) = trail.as_deref_mut() {
            t.stretches.reserve(n);
            t.degrees.reserve(n);
            t.edges.reserve(2 * n);
        }
        // Per successor in the order it came in: its slot in `gather`, and its move.
        let mut slots: Vec<(u32, Move)> = Vec::with_capacity(64);
        let mut ok = true;
        let record = trail.is_some();
        self.for_each_group(layer, runs, |members| {
            slots.clear();
            for (r, range) in members {
                let piece = &layer.pieces[runs[*r].0];
                for i in range.clone() {
                    let n = &piece.counts[i];
                    let before = slots.len();
                    if let Some(t) = trail.as_deref_mut() {
                        debug_assert!(*r < 256, "parts() keeps the stretches in a byte");
                        t.stretches.push(*r as u8);
                    }
                    self.step(piece.keys[i], cell, |k, mv| {
                        let slot = gather.push(k, n.clone());
                        if record {
                            slots.push((slot, mv));
                        }
                    });
                    if let Some(t) = trail.as_deref_mut() {
                        // At most one successor per type and direction, plus water: the
                        // fleet counters' bits keep the types well under 127.
                        t.degrees.push((slots.len() - before) as u8);
                    }
                }
            }
            ok &= gather.write(out, record);
            if let Some(t) = trail.as_deref_mut() {
                t.edges.extend(slots.iter().map(|&(slot, mv)| {
                    let i = gather.position(slot);
                    if mv != Move::Water { i | SHIP } else { i }
                }));
                if let Some(moves) = &mut t.moves {
                    moves.extend(slots.iter().map(|&(_, mv)| mv.code()));
                }
            }
        });
        ok
    }

    /// The forward pass: the layers (as `keep` says; the last always whole), the trails the
    /// backward pass follows (per cell, the cuts and each worker's trail) unless `keep` is
    /// [`Keep::Nothing`], and the total. `Err(Halt::Stopped(stop))` when the time limit ran out or the
    /// count was cancelled.
    pub(super) fn forward<C: Tally>(
        &self,
        opts: &CountOptions,
        what: Keep,
    ) -> Result<Pass<C>, Halt> {
        let keep = what != Keep::Nothing;
        let cells = self.dims.cells();
        // Only per-cell counts need the layers kept for the backward pass.
        let mut layers: Vec<Layer<C>> = Vec::with_capacity(if keep { cells + 1 } else { 0 });
        let mut trails = Vec::with_capacity(if keep { cells } else { 0 });
        let mut current = Layer {
            pieces: vec![Piece {
                keys: vec![0],
                counts: vec![C::of(true)],
            }],
        };
        // Spent keys and counts, reused for the next layers; one gatherer per worker.
        let mut spare_keys: Vec<Vec<Key>> = Vec::new();
        let mut spare_counts: Vec<Vec<C>> = Vec::new();
        let bits = self.pack.low + self.pack.label_bits;
        let mut gathers: Vec<Gather<C>> = Vec::new();
        // A limit too far off to be an instant is no limit.
        let deadline = opts
            .time_limit
            .and_then(|t| std::time::Instant::now().checked_add(t));
        let budget = opts
            .memory_limit
            .unwrap_or(crate::engine::limits::DP_MEMORY_LIMIT);
        // Bytes of the layers and trails kept for the backward pass, and of the last layer.
        let mut held = 0usize;
        let mut last = 0usize;
        for cell in 0..cells {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(Halt::Stopped(Stop::Time));
            }
            if opts.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                return Err(Halt::Stopped(Stop::Cancelled));
            }
            // The next layer is about as much bigger than this one as this one was than the
            // last: stop before it would pass the budget, kept layers or not.
            let live = layer_bytes(&current);
            let next = live.saturating_mul(live.max(1)) / last.max(1);
            if held.saturating_add(live).saturating_add(next) > budget {
                return Err(Halt::Failed(CountError::Memory(budget)));
            }
            last = live;
            let parts = self.parts(opts, &current);
            let cuts = self.cuts(&current, parts);
            while gathers.len() < parts {
                gathers.push(Gather::new(bits, self.table_bits));
            }
            let work: Vec<_> = cuts
                .iter()
                .zip(gathers.drain(..))
                .map(|(runs, g)| {
                    let piece = Piece {
                        keys: spare_keys.pop().unwrap_or_default(),
                        counts: spare_counts.pop().unwrap_or_default(),
                    };
                    let moves = (what == Keep::Moves).then(Vec::new);
                    let trail = Trail {
                        moves,
                        ..Trail::default()
                    };
                    (runs, g, piece, trail)
                })
                .collect();
            let done = run(work, |(runs, mut gather, mut piece, mut trail)| {
                let ok = self.forward_part(
                    cell,
                    &current,
                    runs,
                    &mut piece,
                    &mut gather,
                    keep.then_some(&mut trail),
                );
                (ok, gather, piece, trail)
            });
            if done.iter().any(|d| !d.0) {
                return Err(Halt::Failed(CountError::Overflow));
            }
            if let Some(p) = &opts.progress {
                p(cell as u64 + 1, 2 * cells as u64);
            }
            let mut pieces = Vec::with_capacity(parts);
            let mut cell_trails = Vec::with_capacity(parts);
            for (_, g, p, t) in done {
                gathers.push(g);
                pieces.push(p);
                cell_trails.push(t);
            }
            let mut previous = std::mem::replace(&mut current, Layer { pieces });
            // The backward pass follows the trails, without the keys.
            spare_keys.extend(
                previous
                    .pieces
                    .iter_mut()
                    .map(|p| std::mem::take(&mut p.keys)),
            );
            if keep {
                held += layer_bytes(&previous)
                    + cell_trails
                        .iter()
                        .map(|t| {
                            t.stretches.capacity()
                                + t.degrees.capacity()
                                + 4 * t.edges.capacity()
                                + t.moves.as_ref().map_or(0, |m| 2 * m.capacity())
                        })
                        .sum::<usize>();
                if held > budget {
                    return Err(Halt::Failed(CountError::Memory(budget)));
                }
                layers.push(previous);
                trails.push((cuts, cell_trails));
            } else {
                spare_counts.extend(previous.pieces.into_iter().map(|p| p.counts));
            }
        }
        let total = current
            .pieces
            .iter()
            .flat_map(|p| p.keys.iter().zip(&p.counts))
            .filter(|(k, _)| self.is_final(**k))
            .try_fold(C::Wide::default(), |t, (_, n)| C::add_wide(&t, &n.wide()))
            .ok_or(Halt::Failed(CountError::Overflow))?;
        layers.push(current);
        Ok(Pass {
            layers,
            trails,
            total,
        })
    }
}

/// The bytes a layer's keys and counts take.
fn layer_bytes<C>(layer: &Layer<C>) -> usize {
    layer
        .pieces
        .iter()
        .map(|p| {
            p.keys.capacity() * std::mem::size_of::<Key>()
                + p.counts.capacity() * std::mem::size_of::<C>()
        })
        .sum()
}

/// A state's link into the trails: the worker that met it (and so the trail, and the piece
/// of the next layer its successors are in), and where its edges start in that trail.
pub(super) fn link(worker: usize, at: usize) -> u64 {
    ((worker as u64) << 40) | at as u64
}

/// The worker and edge offset of a [`link`].
pub(super) fn unlink(link: u64) -> (usize, usize) {
    ((link >> 40) as usize, (link & ((1 << 40) - 1)) as usize)
}

/// Each worker's slices of `bufs` (one buffer per piece of a layer), stretch by stretch as
/// `cuts` lists them: the runs of a piece, and the workers' stretches of a run, follow one
/// another.
pub(super) fn split<'a, T>(cuts: &[Vec<Run>], bufs: &'a mut [Vec<T>]) -> Vec<Vec<&'a mut [T]>> {
    let mut slices: Vec<Vec<&mut [T]>> = cuts.iter().map(|_| Vec::new()).collect();
    let mut rest: Vec<&mut [T]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
    for r in 0..cuts[0].len() {
        for (p, cut) in cuts.iter().enumerate() {
            let (q, run) = &cut[r];
            let (s, tail) = std::mem::take(&mut rest[*q]).split_at_mut(run.len());
            slices[p].push(s);
            rest[*q] = tail;
        }
    }
    slices
}

/// `f` over each owned item, on the pool's threads when there are several.
pub(super) fn run<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    if items.len() == 1 {
        items.into_iter().map(f).collect()
    } else {
        items.into_par_iter().map(f).collect()
    }
}
