//! The DP's counts, per-cell counts and sampler's trails as one short loop over small tables.
//!
//! The same states and transitions as [`DpEngine::step`], keyed the other way round: the
//! youngest label (the cell to the left) in the most significant bits and the oldest (the
//! cell above) just above the ship across, the diagonal bit under no-touch and the fleet
//! counters. A *group* (the states that share every label but the oldest) is then one
//! stretch of a layer, in order; its successors, whose new label becomes the top, share the
//! group's labels below it. So the successors of a group are summed in a table indexed by
//! their low bits and written, in order, to one list per new label, and the next layer is the
//! lists one after another: sorted by group, with no merge.
//!
//! What a state does at a cell is fixed by its low bits (the cell above, the ship across,
//! the diagonal, the counters) up to three facts about its group: whether the cell to the
//! left and the one above to the right are occupied (under no-touch a ship may not start or
//! run on beside them), and how far right the first cell above is that a ship across may
//! not pass. At each cell the transitions are tabled per value of the low bits (every value,
//! or those the layer has when it has fewer states than values) by running
//! [`DpEngine::step`] on a key whose other labels are free, each with what it needs of the
//! group; the pass looks them up. Each table numbers, in order, the successors' slots it
//! has (a few hundred on the empty 10x10 board, of up to 2^16), and a group's successors are
//! summed by those numbers, so the sums sit in a few KB.
//!
//! Except for the sampler and the replay of a game, whose trails take one cell at a time, a
//! step covers two cells of a row at once: its table is indexed by the low bits
//! and the two oldest labels, each entry one of the first cell's moves followed by one of
//! the second's (what the first needs of the cell above to the right, and the second of the
//! cell to its left, the index tells), a group is the states that share every label but
//! those two, and its successors go to one list per pair of new labels. The layers between
//! the two cells are never written: on the empty 10x10 board the pass meets 4.2 of the 8.7
//! million states touching (docs/PERFORMANCE.md). The step over a pair notes the values of
//! the next pair's index its successors have, so the next table is made for those alone.
//! A pair's trail flags each edge with a ship on either cell, and the backward pass sums
//! both cells' counts from it.
//!
//! Counts are 64-bit here; where one would pass 2^64 (or a table would be too large) the
//! engine's general passes take over. Workers split each layer into equal stretches of
//! states; a group cut in two by a stretch's end (or by the end of one worker's list) is
//! summed as two, its successors appearing twice side by side, which the next cell's table
//! sums again: the counts are the same. The uniform sampler is made from these passes too:
//! every predecessor's edge leads to one of the twins, each state's edges come in the order
//! `step` makes them, and the twins have the same completions, so a draw takes the steps and
//! random numbers it takes through the general passes.

mod tables;
mod trail;

use super::state::{Key, Stretch, stretch};
use super::{DpEngine, Halt};
use crate::engine::{Cancel, CountError, CountOptions, CountResult, EngineKind, Stop};
use tables::{StepTable, Tables};
pub(super) use trail::{Counts, Record, Trail};
use trail::{backward, index_bits};

/// A successor that needs the cell to the left free (under no-touch).
const LEFT_FREE: u8 = 1;
/// A successor that needs the cell above to the right free (under no-touch).
const UP_RIGHT_FREE: u8 = 2;
/// An edge's flag: the move puts a ship on its cell (on the first cell of a pair's).
pub(super) const SHIP: u32 = 1 << 31;
/// An edge's flag in a trail of a pair of cells: the move puts a ship on the second cell.
const SHIP_TOO: u32 = 1 << 30;
/// Bits of an edge's index within its list, below the list's number.
pub(super) const INDEX_BITS: u32 = 27;
/// The same in a trail of a pair of cells, whose lists are numbered in the six bits between
/// it and the flags: a pass whose labels take more than three bits keeps one cell a step
/// where it keeps trails.
const PAIR_INDEX_BITS: u32 = 24;
/// Room for edges per state a trail starts with (it grows past them if it must): the empty
/// 10x10 board has 1.4 a state touching and 1.2 not, 4.5 at most at a cell.
const EDGES_A_STATE: usize = 2;
/// The most bits of a cell's table index (the key's low bits and its oldest label).
const MOST_TABLE_BITS: u32 = 16;

/// A worker's scratch: the successor sums of a group, the slots in use, and the lists of the
/// next layer (one per new label) with each slot's place in them.
struct Scratch {
    sums: Vec<u64>,
    used: Vec<u64>,
    /// The words of `used` with a slot in use: one bit each, 64 words of `used` a word.
    words: Box<Words>,
    place: Vec<u32>,
    lists: Vec<Vec<(Key, u64)>>,
    /// The values of the next step's index the successors have, a bit each, when asked.
    seen: Vec<u64>,
}

/// What the tight passes leave the sampler: per cell, each worker's trail (with the moves),
/// and per layer, each state's completions; and the total.
pub(super) struct Tight {
    pub(super) trails: Vec<Vec<Trail>>,
    pub(super) completions: Vec<Vec<u64>>,
    pub(super) total: u128,
}

/// The words of a scratch's `used` words with a slot in use (`2^MOST_TABLE_BITS` slots),
/// aligned apart from everything else: written at every edge, they must not share a cache
/// line with another worker's (which halved the speed of two workers).
#[repr(align(128))]
struct Words([u64; WORDS]);
const WORDS: usize = 1 << (MOST_TABLE_BITS - 12);

/// A layer: stretches of states, in key order of their groups.
type Layer = Vec<Vec<(Key, u64)>>;

/// What the tight forward pass leaves.
pub(super) struct TightForward {
    /// Per cell from the first kept on, each worker's trail.
    pub trails: Vec<Vec<Trail>>,
    /// The last layer.
    pub last: Vec<(Key, u64)>,
    /// The count.
    pub total: u128,
}

impl DpEngine {
    /// The forward pass: the trails of the cells from `keep_from` on when it is given (as
    /// `record` asks), the last layer and the total; `None` when the pass does not apply
    /// (keys too wide for its tables). With `fold`, on a problem the mirror maps onto itself,
    /// each row starts with one state of each mirror pair (`mirror.rs`): the count is the
    /// same, the per-cell counts are to be unfolded, and the trails lead through the folded
    /// layers.
    /// [`CountError::Overflow`] where a count passes 64 bits or, with trails, a layer passes
    /// the 2^27 states an edge can name (2^24 in a pair's trail; the general passes take
    /// both); `Err(Halt::Stopped(stop))` when the time limit ran out or the count was cancelled.
    pub(super) fn tight_forward(
        &self,
        opts: &CountOptions,
        keep_from: Option<usize>,
        record: Record,
        fold: bool,
    ) -> Result<Option<TightForward>, Halt> {
        let moves = record == Record::Moves;
        let Some(t) = self.tight_tables() else {
            return Ok(None);
        };
        let mirror = fold.then(|| super::mirror::Mirror::new(t.width, t.label_bits, t.low));
        let (mut folding, mut map) = (super::mirror::Folding::default(), Vec::new());
        let cells = self.dims.cells();
        let most = if t.pairs { 2 } else { 1 };
        let slots = 1usize << t.table_bits(most);
        let scratch = || Scratch {
            sums: vec![0; slots],
            used: vec![0; slots.div_ceil(64)],
            words: Box::new(Words([0; WORDS])),
            place: vec![0; slots],
            lists: (0..1usize << (most * t.label_bits))
                .map(|_| Vec::new())
                .collect(),
            seen: vec![0; slots.div_ceil(64)],
        };
        // The cells a step covers from `cell` on: two cells of a row at once where no trail
        // is kept for either (half the layers are never written), or where the trail is
        // for the per-cell counts alone; else one.
        let kept = |cell: usize| keep_from.is_some_and(|first| cell >= first);
        let stride = |cell: usize| -> u32 {
            let pair = t.pairs
                && cell % t.width + 1 < t.width
                && kept(cell) == kept(cell + 1)
                && (!kept(cell)
                    || (record == Record::Pairs && 2 * t.label_bits + PAIR_INDEX_BITS <= 30));
            if pair { 2 } else { 1 }
        };
        // The values of the next step's index its layer has, where the step that made the
        // layer noted them.
        let mut seen: Option<Vec<u64>> = None;
        let deadline = opts
            .time_limit
            .and_then(|d| std::time::Instant::now().checked_add(d));
        let budget = opts
            .memory_limit
            .unwrap_or(crate::engine::limits::DP_MEMORY_LIMIT);
        let threads = if opts.parallel {
            rayon::current_num_threads().max(1)
        } else {
            1
        };
        let mut layer: Layer = vec![vec![(0, 1)]];
        let mut spare: Vec<Vec<(Key, u64)>> = Vec::new();
        let mut scratches: Vec<Scratch> = Vec::new();
        // Per worker and new label, the length of its list at the last cell.
        let mut lengths: Vec<usize> = Vec::new();
        // Per cell, per worker: its trail.
        let mut trails: Vec<Vec<Trail>> = Vec::new();
        let mut held = 0usize;
        let mut cell = 0;
        while cell < cells {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(Halt::Stopped(Stop::Time));
            }
            if opts.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                return Err(Halt::Stopped(Stop::Cancelled));
            }
            let keep = keep_from.is_some_and(|first| cell >= first);
            if let Some(mirror) = mirror.as_ref().filter(|_| cell > 0 && cell % t.width == 0) {
                let n: usize = layer.iter().map(Vec::len).sum();
                let parts = if n >= 4096 { threads } else { 1 };
                // The largest spare lists take the folded layer.
                spare.sort_unstable_by_key(Vec::capacity);
                let outs = (0..parts)
                    .map(|_| spare.pop().unwrap_or_default())
                    .collect();
                // The last cell's trail, if it was kept, is remapped.
                let places = keep_from
                    .is_some_and(|first| cell > first)
                    .then_some(&mut map);
                let Some(folded) = mirror.fold(&layer, &mut folding, outs, places) else {
                    return Err(Halt::Failed(CountError::Overflow));
                };
                spare.extend(std::mem::replace(&mut layer, folded));
                // The last cell's edges lead to the folded layer, one list.
                for tr in trails.last_mut().into_iter().flatten() {
                    let (bits, flags) = (tr.index_bits(), tr.flags());
                    for e in &mut tr.edges {
                        let place = *e & !flags;
                        let to = map[(tr.starts[(place >> bits) as usize]
                            + (place & ((1 << bits) - 1)))
                            as usize];
                        *e = to | (*e & flags);
                    }
                    tr.starts.iter_mut().for_each(|s| *s = 0);
                }
            }
            let n: usize = layer.iter().map(Vec::len).sum();
            let parts = if n >= 4096 { threads } else { 1 };
            let step = stride(cell);
            let bits = t.table_bits(step);
            // A step over two cells, or over a layer with fewer states than values of the
            // index, gets a table of the values the layer has: made for every value, a
            // small problem's tables cost more than its pass, and a pair's more than a
            // cell's.
            let index_mask: Key = (1 << bits) - 1;
            let only = (step == 2 || n < 1 << bits).then(|| {
                seen.take()
                    .unwrap_or_else(|| present(&layer, parts, index_mask))
            });
            // A pair of cells ahead, not across a fold: this step notes its index values.
            let next = cell + step as usize;
            let folds = mirror.is_some() && next.is_multiple_of(t.width);
            let note = (next < cells && !folds && stride(next) == 2)
                .then_some(((1 as Key) << t.table_bits(2)) - 1);
            let table = if step == 2 {
                self.pair_table(&t, cell, only.as_deref())
            } else {
                self.cell_table(&t, cell, only.as_deref())
            }
            .numbered(&t);
            let lists = 1usize << (step * t.label_bits);
            while scratches.len() < parts {
                scratches.push(scratch());
            }
            let mut taken: Vec<Scratch> = (0..parts)
                .map(|_| scratches.pop().expect("one scratch per worker"))
                .collect();
            // The largest spare buffers go to the lists that were longest at the last cell
            // (a label's share of a layer changes little from cell to cell): a list that
            // outgrows its buffer is copied to fresh pages, each a page fault.
            let mut wants: Vec<(usize, usize, usize)> = (0..parts)
                .flat_map(|p| (0..lists).map(move |l| (p, l)))
                .map(|(p, l)| (lengths.get(p * lists + l).copied().unwrap_or(0), p, l))
                .collect();
            wants.sort_unstable_by_key(|w| std::cmp::Reverse(w.0));
            spare.sort_unstable_by_key(Vec::capacity);
            for &(_, p, l) in &wants {
                let list = &mut taken[p].lists[l];
                if list.capacity() == 0 {
                    *list = spare.pop().unwrap_or_default();
                }
                list.clear();
            }
            let work: Vec<(Stretch, Scratch)> = taken
                .into_iter()
                .enumerate()
                .map(|(p, s)| (stretch(&layer, n * p / parts, n * (p + 1) / parts), s))
                .collect();
            let done = super::forward::run(work, |(states, mut s)| {
                // Sized once: grown, the trails were copied and remapped as they doubled.
                let met: usize = states.iter().map(|x| x.len()).sum();
                let mut trail = keep.then(|| Trail {
                    counts: if moves {
                        Counts::None
                    } else {
                        Counts::Narrow(Vec::with_capacity(met))
                    },
                    degrees: Vec::with_capacity(met),
                    edges: Vec::with_capacity(EDGES_A_STATE * met),
                    starts: Vec::new(),
                    moves: moves.then(|| Vec::with_capacity(EDGES_A_STATE * met)),
                    cells: step as u8,
                });
                let ok = self.tight_step(&t, &table, &states, &mut s, trail.as_mut(), note);
                (ok, s, trail)
            });
            if done.iter().any(|d| !d.0) {
                return Err(Halt::Failed(CountError::Overflow));
            }
            // The next layer: each label's lists, worker by worker.
            let mut offsets = vec![vec![0u32; parts]; lists];
            let mut at = 0u64;
            for (l, offs) in offsets.iter_mut().enumerate() {
                for (p, off) in offs.iter_mut().enumerate() {
                    *off = at as u32;
                    at += done[p].1.lists[l].len() as u64;
                }
            }
            if at >= 1 << index_bits(step) && keep {
                return Err(Halt::Failed(CountError::Overflow));
            }
            let mut next: Layer = Vec::with_capacity(lists * parts);
            let mut cell_trails = Vec::new();
            let mut done: Vec<(Scratch, Option<Trail>)> = done
                .into_iter()
                .enumerate()
                .map(|(p, (_, s, tr))| {
                    let tr = tr.map(|mut tr| {
                        tr.starts = offsets.iter().map(|o| o[p]).collect();
                        tr
                    });
                    (s, tr)
                })
                .collect();
            lengths.clear();
            lengths.resize(parts * lists, 0);
            for l in 0..lists {
                for (p, (s, _)) in done.iter_mut().enumerate() {
                    let list = std::mem::take(&mut s.lists[l]);
                    lengths[p * lists + l] = list.len();
                    if list.is_empty() {
                        spare.push(list);
                    } else {
                        next.push(list);
                    }
                }
            }
            if note.is_some() {
                let mut all = vec![0u64; slots.div_ceil(64)];
                for (s, _) in &mut done {
                    for (a, b) in all.iter_mut().zip(&mut s.seen) {
                        *a |= std::mem::take(b);
                    }
                }
                seen = Some(all);
            }
            for (s, tr) in done {
                scratches.push(s);
                if let Some(tr) = tr {
                    held += tr.counts.bytes() + tr.degrees.len() + 4 * tr.edges.len();
                    cell_trails.push(tr);
                }
            }
            if held > budget {
                return Err(Halt::Failed(CountError::Memory(budget)));
            }
            if keep {
                trails.push(cell_trails);
            }
            spare.extend(std::mem::replace(&mut layer, next));
            cell += step as usize;
            if let Some(p) = &opts.progress {
                p(cell as u64, 2 * cells as u64);
            }
        }
        let last: Vec<(Key, u64)> = layer.into_iter().flatten().collect();
        let total: u128 = last
            .iter()
            .filter(|&&(k, _)| self.is_final(k))
            .map(|&(_, n)| u128::from(n))
            .sum();
        Ok(Some(TightForward {
            trails,
            last,
            total,
        }))
    }

    /// The count, and the per-cell counts when `opts.per_cell`, by the tight passes: `None`
    /// when they do not apply, [`CountError::Overflow`] where the general passes must take
    /// over (see [`DpEngine::tight_forward`]).
    pub(super) fn tight_count(
        &self,
        opts: &CountOptions,
    ) -> Result<Option<CountResult>, CountError> {
        let fold = self.mirror_symmetric();
        // On a problem the up-down flip maps onto itself, the top rows' counts are the
        // bottom rows': only the bottom rows' trails are kept and walked back.
        let (w, h) = (self.dims.width, self.dims.height);
        let flip = opts.per_cell && self.flip_symmetric();
        let first = if flip {
            super::mirror::first_unflipped(w, h)
        } else {
            0
        };
        let keep = opts.per_cell.then_some(first);
        let TightForward {
            trails,
            last,
            total,
        } = match self.tight_forward(opts, keep, Record::Pairs, fold) {
            Ok(Some(x)) => x,
            Ok(None) => return Ok(None),
            Err(Halt::Stopped(stop)) => return Ok(Some(stopped(stop))),
            Err(Halt::Failed(e)) => return Err(e),
        };
        let per_cell = if opts.per_cell {
            let (mut out, _) = self.tight_backward(&trails, &last, false)?;
            if flip {
                out = super::mirror::unflip_cells(&out, w, h);
            }
            if fold {
                out = super::mirror::unfold_cells(&out, self.dims.width);
            }
            if let Some(p) = &opts.progress {
                let cells = out.len() as u64;
                p(2 * cells, 2 * cells);
            }
            Some(out)
        } else {
            None
        };
        Ok(Some(CountResult {
            count: total,
            complete: true,
            stopped: None,
            per_cell,
            engine: EngineKind::Dp,
        }))
    }

    /// What the sampler is made of, by the tight passes: `None` when they do not apply,
    /// errors as [`DpEngine::tight_forward`]'s.
    pub(super) fn tight_sampling(&self, opts: &CountOptions) -> Result<Option<Tight>, Halt> {
        let Some(TightForward {
            trails,
            last,
            total,
        }) = self.tight_forward(opts, Some(0), Record::Moves, false)?
        else {
            return Ok(None);
        };
        let (_, completions) = self
            .tight_backward(&trails, &last, true)
            .map_err(Halt::Failed)?;
        Ok(Some(Tight {
            trails,
            completions,
            total,
        }))
    }

    /// The backward pass over `trails` from the `last` layer: the per-cell counts of the
    /// cells the trails were kept for, and when `keep` every layer's completions, first to
    /// last.
    fn tight_backward(
        &self,
        trails: &[Vec<Trail>],
        last: &[(Key, u64)],
        keep: bool,
    ) -> Result<(Vec<u128>, Vec<Vec<u64>>), CountError> {
        let cells: usize = trails
            .iter()
            .map(|w| w.first().map_or(1, |t| usize::from(t.cells)))
            .sum();
        let mut after: Vec<u64> = last
            .iter()
            .map(|&(k, _)| u64::from(self.is_final(k)))
            .collect();
        let mut out = vec![0u128; cells];
        let mut kept: Vec<Vec<u64>> = Vec::new();
        // Two buffers of completions, this layer's and the next's, taken in turn: fresh
        // ones each cell cost a page fault every 4 KiB.
        let most = trails
            .iter()
            .map(|w| w.iter().map(|t| t.degrees.len()).sum::<usize>())
            .max()
            .unwrap_or(0);
        let mut here: Vec<u64> = Vec::with_capacity(most);
        after.reserve(most.saturating_sub(after.len()));
        let mut cell = cells;
        for workers in trails.iter().rev() {
            cell -= workers.first().map_or(1, |t| usize::from(t.cells));
            here.clear();
            here.resize(workers.iter().map(|t| t.degrees.len()).sum(), 0);
            let mut shares = Vec::with_capacity(workers.len());
            let mut rest = &mut here[..];
            for tr in workers {
                let (share, tail) = rest.split_at_mut(tr.degrees.len());
                shares.push((tr, share));
                rest = tail;
            }
            let ships = super::forward::run(shares, |(tr, share)| backward(tr, &after, share));
            for ship in ships {
                let ship = ship.ok_or(CountError::Overflow)?;
                for (c, n) in ship.iter().enumerate().take(out.len() - cell) {
                    out[cell + c] = out[cell + c].checked_add(*n).ok_or(CountError::Overflow)?;
                }
            }
            if keep {
                kept.push(std::mem::replace(&mut after, std::mem::take(&mut here)));
                here.reserve(most);
            } else {
                std::mem::swap(&mut after, &mut here);
            }
        }
        let mut completions = Vec::new();
        if keep {
            kept.push(after);
            kept.reverse();
            completions = kept;
        }
        Ok((out, completions))
    }

    /// One worker's share of the step `step` tables (over one cell or two): the successors
    /// of `states` summed per group into `s.lists`, with the trail when asked, and with
    /// `note` the values of the next step's index (the bits of `note`) they have, in
    /// `s.seen`. False where a sum passes 64 bits.
    fn tight_step(
        &self,
        t: &Tables,
        step: &StepTable,
        states: &[&[(Key, u64)]],
        s: &mut Scratch,
        mut trail: Option<&mut Trail>,
        note: Option<Key>,
    ) -> bool {
        let (w, lb, low) = (t.width, t.label_bits, t.low);
        let table = &step.table;
        let col = table.cell % w;
        let cells = table.cells;
        let index_bits = index_bits(cells);
        let group_shift = t.table_bits(cells);
        let index_mask: Key = (1 << group_shift) - 1;
        let lmask: Key = (1 << lb) - 1;
        let top = low + (w as u32 - 1) * lb;
        let (ranges, entries) = (&table.ranges[..], &table.entries[..]);
        let word_words = step.slots.len().div_ceil(64 * 64);
        let above_right = t.above_right[cells as usize - 1][col];
        let slots = &step.slots[..];
        let mut overflow = false;
        let record = trail.is_some();
        let mut first_edge = 0;
        let mut current: Option<Key> = None;
        let (mut needs_free, mut block) = (0u8, u8::MAX);
        // Sums a group's successors into the lists, in order of their slots.
        let flush = |s: &mut Scratch, group: Key, trail: Option<&mut Trail>, first_edge: usize| {
            let prefix = group << low;
            for wi in 0..word_words {
                let mut words = std::mem::take(&mut s.words.0[wi]);
                while words != 0 {
                    let u = wi * 64 + words.trailing_zeros() as usize;
                    words &= words - 1;
                    let mut word = std::mem::take(&mut s.used[u]);
                    while word != 0 {
                        let slot = u * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let (key, l) = slots[slot];
                        let list = &mut s.lists[l as usize];
                        if record {
                            s.place[slot] = l << index_bits | list.len() as u32;
                        }
                        let key = key | prefix;
                        if let Some(mask) = note {
                            set(&mut s.seen, (key & mask) as usize);
                        }
                        list.push((key, std::mem::take(&mut s.sums[slot])));
                    }
                }
            }
            if let Some(tr) = trail {
                for e in &mut tr.edges[first_edge..] {
                    *e = s.place[(*e & !(SHIP | SHIP_TOO)) as usize] | (*e & (SHIP | SHIP_TOO));
                }
            }
        };
        for piece in states {
            for &(key, n) in piece.iter() {
                let group = key >> group_shift;
                if current != Some(group) {
                    if let Some(g) = current {
                        flush(s, g, trail.as_deref_mut(), first_edge);
                    }
                    current = Some(group);
                    first_edge = trail.as_ref().map_or(0, |tr| tr.edges.len());
                    let left = col > 0 && (key >> top) & lmask != 0;
                    // The cell above to the right of the step's last cell.
                    let up_right = col + (cells as usize) < w && (key >> group_shift) & lmask != 0;
                    needs_free =
                        (u8::from(left) * LEFT_FREE) | (u8::from(up_right) * UP_RIGHT_FREE);
                    let above = key & above_right;
                    block = if above == 0 {
                        u8::MAX
                    } else {
                        ((above.trailing_zeros() - low) / lb).min(255) as u8
                    };
                }
                let (from, to) = ranges[(key & index_mask) as usize];
                let before = trail.as_ref().map_or(0, |tr| tr.edges.len());
                for e in &entries[from as usize..to as usize] {
                    if e.needs & needs_free != 0 || e.reach > block {
                        continue;
                    }
                    let slot = (e.slot & !(SHIP | SHIP_TOO)) as usize;
                    let (sum, o) = s.sums[slot].overflowing_add(n);
                    s.sums[slot] = sum;
                    overflow |= o;
                    s.used[slot / 64] |= 1 << (slot % 64);
                    s.words.0[slot / 4096] |= 1 << ((slot / 64) % 64);
                    if let Some(tr) = trail.as_deref_mut() {
                        tr.edges.push(e.slot);
                        if let Some(moves) = &mut tr.moves {
                            moves.push(e.code);
                        }
                    }
                }
                if let Some(tr) = trail.as_deref_mut() {
                    tr.counts.push(n);
                    tr.degrees.push((tr.edges.len() - before) as u8);
                }
            }
        }
        if let Some(g) = current {
            flush(s, g, trail, first_edge);
        }
        !overflow
    }
}

/// Sets bit `i` of `bits`.
#[inline]
fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The values of the index (the bits of `index_mask`) that the states of `layer` have, a bit
/// per value, found by `parts` workers.
fn present(layer: &[Vec<(Key, u64)>], parts: usize, index_mask: Key) -> Vec<u64> {
    let n: usize = layer.iter().map(Vec::len).sum();
    let words = (index_mask as usize + 1).div_ceil(64);
    let shares = (0..parts)
        .map(|p| stretch(layer, n * p / parts, n * (p + 1) / parts))
        .collect();
    let found = super::forward::run(shares, |states: Stretch| {
        let mut bits = vec![0u64; words];
        for &(k, _) in states.iter().flat_map(|s| s.iter()) {
            set(&mut bits, (k & index_mask) as usize);
        }
        bits
    });
    found
        .into_iter()
        .reduce(|mut all, bits| {
            all.iter_mut().zip(bits).for_each(|(a, b)| *a |= b);
            all
        })
        .unwrap_or_else(|| vec![0; words])
}

/// The answer of a pass stopped early: no count.
pub(super) fn stopped(stop: Stop) -> CountResult {
    CountResult {
        count: 0,
        complete: false,
        stopped: Some(stop),
        per_cell: None,
        engine: EngineKind::Dp,
    }
}

#[cfg(test)]
mod tests;
