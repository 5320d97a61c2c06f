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

use super::DpEngine;
use super::state::{DONE, Key, Move};
use crate::engine::{Cancel, CountError, CountOptions, CountResult, EngineKind, Stop};

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

/// One transition out of a value of the low bits.
#[derive(Clone, Copy)]
struct Entry {
    /// The successor's low bits and new labels (its slot), with [`SHIP`] (and over a pair of
    /// cells `SHIP_TOO`); in a [`StepTable`], the slot's number among the step's slots.
    slot: u32,
    /// [`LEFT_FREE`] and [`UP_RIGHT_FREE`]: what the group must have free.
    needs: u8,
    /// For a ship across that starts: how far right the row above must let it reach (the
    /// first blocking cell above is at least this far); 0 otherwise.
    reach: u8,
    /// The move's [`Move::code`], for the sampler.
    code: u16,
}

/// The layout of a key and the transition tables.
struct Tables {
    width: usize,
    label_bits: u32,
    /// Bits below the labels: the ship across, the diagonal bit (under no-touch) and the
    /// counters.
    low: u32,
    counter_bits: u32,
    diag_bits: u32,
    /// Per step of one cell and of two, per column: the bits of the group's labels above to
    /// the right that block a ship across.
    above_right: [Vec<Key>; 2],
    /// Whether a step may take two cells at once (its tables fit).
    pairs: bool,
}

impl Tables {
    /// The bits of a table's index (the key's low bits and its `cells` oldest labels) and of
    /// a slot, for a step over `cells` cells.
    fn table_bits(&self, cells: u32) -> u32 {
        self.low + cells * self.label_bits
    }
}

/// One step's transitions: per value of a key's low `low + cells * label_bits` bits, the
/// range of its entries (empty for a value not tabled).
struct CellTable {
    ranges: Vec<(u32, u32)>,
    entries: Vec<Entry>,
    /// The step's (first) cell.
    cell: usize,
    /// The cells the step covers: one, or two side by side in a row.
    cells: u32,
}

/// A step's table as the pass reads it: its entries' slots numbered in order among the slots
/// the step has (a few hundred on the empty 10x10 board, of up to 2^16), so that the sums of
/// a group's successors, and the words marking those in use, are as many and sit close.
struct StepTable {
    /// The table, each entry's slot replaced by its number.
    table: CellTable,
    /// Per slot number, in order: the successor's key less its group's labels, and its list
    /// (its new labels).
    slots: Vec<(Key, u32)>,
}

impl CellTable {
    /// The table with its slots numbered in order, for the pass.
    fn numbered(mut self, t: &Tables) -> StepTable {
        let flags = SHIP | SHIP_TOO;
        let mut slots: Vec<u32> = self.entries.iter().map(|e| e.slot & !flags).collect();
        slots.sort_unstable();
        slots.dedup();
        for e in &mut self.entries {
            let number = slots.partition_point(|&s| s < e.slot & !flags) as u32;
            e.slot = number | (e.slot & flags);
        }
        // The new labels are the slot's top bits, and the key's top bits.
        let low = t.low;
        let new_labels = low + (t.width as u32 - self.cells) * t.label_bits;
        let slots = slots
            .into_iter()
            .map(|s| {
                let s = Key::from(s);
                (
                    ((s >> low) << new_labels) | (s & ((1 << low) - 1)),
                    (s >> low) as u32,
                )
            })
            .collect();
        StepTable { table: self, slots }
    }
}

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

/// What one worker records at a step for the backward pass: per state met, in order, its
/// forward count and its number of edges; per edge, its successor's place (list and index
/// in the worker's list) with [`SHIP`] (and, over a pair of cells, `SHIP_TOO`); and where
/// each of the worker's lists starts in the next layer.
/// For the sampler, per edge its move's [`Move::code`] as well, and no count.
pub(super) struct Trail {
    pub(super) counts: Counts,
    pub(super) degrees: Vec<u8>,
    pub(super) edges: Vec<u32>,
    pub(super) starts: Vec<u32>,
    pub(super) moves: Option<Vec<u16>>,
    /// The cells the step covers: 1, or 2 (a trail of the per-cell counts alone).
    pub(super) cells: u8,
}

impl Default for Trail {
    fn default() -> Self {
        Trail {
            counts: Counts::default(),
            degrees: Vec::new(),
            edges: Vec::new(),
            starts: Vec::new(),
            moves: None,
            cells: 1,
        }
    }
}

/// What the forward pass keeps of the cells it keeps trails for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Record {
    /// A trail of each cell, with the forward counts.
    Cells,
    /// The forward counts, a trail covering two cells of a row where it can: the per-cell
    /// counts alone read them.
    Pairs,
    /// A trail of each cell, with the moves and without the counts: the sampler's.
    Moves,
}

/// A trail's forward counts, one a state met: 32 bits while each fits (every layer of the
/// standard game but its last dozen, so a quarter fewer bytes for the per-cell pass to
/// write), else 64; none for the sampler, which draws from the completions alone.
#[derive(Default)]
pub(super) enum Counts {
    #[default]
    None,
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Counts {
    #[inline]
    fn push(&mut self, n: u64) {
        match self {
            Counts::None => {}
            Counts::Wide(v) => v.push(n),
            Counts::Narrow(v) => match u32::try_from(n) {
                Ok(n) => v.push(n),
                Err(_) => {
                    let mut wide = Vec::with_capacity(v.capacity());
                    wide.extend(v.iter().map(|&n| u64::from(n)));
                    wide.push(n);
                    *self = Counts::Wide(wide);
                }
            },
        }
    }

    /// The bytes they take.
    fn bytes(&self) -> usize {
        match self {
            Counts::None => 0,
            Counts::Narrow(v) => 4 * v.len(),
            Counts::Wide(v) => 8 * v.len(),
        }
    }
}

impl Trail {
    /// The index in the next layer of the state edge `e` leads to.
    #[inline]
    pub(super) fn successor(&self, e: usize) -> usize {
        self.successor_of(self.edges[e])
    }

    /// The index in the next layer of the state `edge` leads to.
    #[inline]
    pub(super) fn successor_of(&self, edge: u32) -> usize {
        let bits = self.index_bits();
        let e = edge & !self.flags();
        (self.starts[(e >> bits) as usize] + (e & ((1 << bits) - 1))) as usize
    }

    /// The flags of its edges: [`SHIP`], and over a pair of cells `SHIP_TOO` (in a trail of
    /// one cell, that bit is its list's).
    #[inline]
    fn flags(&self) -> u32 {
        if self.cells == 2 {
            SHIP | SHIP_TOO
        } else {
            SHIP
        }
    }

    /// The bits of an edge's index within its list.
    #[inline]
    fn index_bits(&self) -> u32 {
        index_bits(u32::from(self.cells))
    }
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
/// A worker's share of a layer: slices of its stretches, in order.
pub(super) type Stretch<'a> = Vec<&'a [(Key, u64)]>;

impl DpEngine {
    /// The tables of the tight pass, `None` when the problem's keys are too wide for them.
    fn tight_tables(&self) -> Option<Tables> {
        let pk = &self.pack;
        let (w, lb) = (pk.width, pk.label_bits);
        let counter_bits = pk.diag_shift;
        let diag_bits = u32::from(self.no_touch);
        let low = counter_bits + diag_bits + lb;
        let bits = low + lb;
        if bits > MOST_TABLE_BITS || lb > 4 {
            return None;
        }
        let lmask: Key = (1 << lb) - 1;
        // A step over two cells indexes its table by two labels.
        let pairs = w >= 2 && bits + lb <= MOST_TABLE_BITS;
        let label_mask = if self.no_touch {
            lmask
        } else {
            lmask & !(DONE as Key)
        };
        let max_len = self.lens.iter().copied().max().unwrap_or(1);
        // The cells j to the right of the step's first cell sit j labels above the oldest;
        // those the step's table holds (j < cells) are checked there. A ship across that
        // starts on the second cell reaches one further.
        let above_right = |cells: usize| -> Vec<Key> {
            (0..w)
                .map(|c| {
                    let n = (max_len + cells - 1).min(w - 1 - c);
                    (cells..=n).fold(0, |m, j| m | label_mask << (low + j as u32 * lb))
                })
                .collect()
        };
        Some(Tables {
            width: w,
            label_bits: lb,
            low,
            counter_bits,
            diag_bits,
            above_right: [above_right(1), above_right(2)],
            pairs,
        })
    }

    /// The transitions at `cell` of the values of the low bits `only` has (a bit per value),
    /// or of every value: each made by [`DpEngine::step`] on the engine's key with those low
    /// bits and every other label free, with what it needs of its group.
    fn cell_table(&self, t: &Tables, cell: usize, only: Option<&[u64]>) -> CellTable {
        let pk = &self.pack;
        let (w, lb, low) = (t.width, t.label_bits, t.low);
        let (counter_bits, diag_bits) = (t.counter_bits, t.diag_bits);
        let lmask: Key = (1 << lb) - 1;
        let slot_of = |next: Key| -> u32 {
            let label = pk.label(next, 0) as Key;
            let across = pk.horiz(next) as Key;
            let diag = Key::from(pk.diag(next));
            debug_assert!(self.no_touch || !pk.diag(next));
            let counters = next & ((1 << counter_bits) - 1);
            ((label << low)
                | (across << (counter_bits + diag_bits))
                | (diag << counter_bits)
                | counters) as u32
        };
        let size = 1usize << t.table_bits(1);
        let mut ranges = vec![(0, 0); size];
        let mut entries = Vec::new();
        for (index, range) in ranges.iter_mut().enumerate() {
            if only.is_some_and(|bits| bits[index / 64] >> (index % 64) & 1 == 0) {
                continue;
            }
            let index = index as Key;
            let up = index >> low;
            let across = (index >> (counter_bits + diag_bits)) & lmask;
            let diag = if self.no_touch {
                (index >> counter_bits) & 1
            } else {
                0
            };
            let counters = index & ((1 << counter_bits) - 1);
            // The engine's key with the same low bits and every other label free.
            let key = (up << (pk.low + (w as u32 - 1) * lb))
                | (across << pk.horiz_shift)
                | (diag << pk.diag_shift)
                | counters;
            let start = entries.len() as u32;
            self.step(key, cell, |next, mv| {
                let (needs, reach) = match mv {
                    Move::Water => (0, 0),
                    Move::Continue if up >= 2 => (LEFT_FREE, 0),
                    Move::Continue => (UP_RIGHT_FREE, 0),
                    Move::Start(ty, dir) => {
                        let reach = if dir == super::state::Dir::Across {
                            self.lens[ty] + usize::from(self.no_touch)
                        } else {
                            0
                        };
                        (LEFT_FREE | UP_RIGHT_FREE, reach.min(255) as u8)
                    }
                };
                let ship = if mv == Move::Water { 0 } else { SHIP };
                entries.push(Entry {
                    slot: slot_of(next) | ship,
                    needs: if self.no_touch { needs } else { 0 },
                    reach,
                    code: mv.code(),
                });
            });
            *range = (start, entries.len() as u32);
        }
        CellTable {
            ranges,
            entries,
            cell,
            cells: 1,
        }
    }

    /// The transitions over `cell` and the cell to its right, in one row, of the values of
    /// the low bits and two oldest labels `only` has (a bit per value), or of every value:
    /// each of the first cell's transitions followed by each of the second's, from their
    /// own tables. What the first cell's moves need of the cell above to the right, and the
    /// second's of the cell to their left, the index tells; what they need of the rest of
    /// the group is kept. Each entry flags a ship on either cell ([`SHIP`], `SHIP_TOO`); the
    /// moves are not kept (the sampler takes one cell a step).
    fn pair_table(&self, t: &Tables, cell: usize, only: Option<&[u64]>) -> CellTable {
        let (lb, low) = (t.label_bits, t.low);
        let lmask: Key = (1 << lb) - 1;
        let low_mask: u32 = (1 << low) - 1;
        let blocking = if self.no_touch {
            lmask
        } else {
            lmask & !(DONE as Key)
        };
        fn moves(table: &CellTable, index: usize) -> &[Entry] {
            let (from, to) = table.ranges[index];
            &table.entries[from as usize..to as usize]
        }
        let size = 1usize << t.table_bits(2);
        let one = (1usize << t.table_bits(1)) - 1;
        let indices: Vec<usize> = (0..size)
            .filter(|&i| only.is_none_or(|bits| bits[i / 64] >> (i % 64) & 1 == 1))
            .collect();
        // The first cell's moves that the cell above the second allows, and the second
        // cell's index after each: its table holds those alone.
        let allowed = |index: usize, a: &Entry| -> Option<(u32, usize)> {
            // The label above the second cell.
            let up = (index as Key >> (low + lb)) & lmask;
            if (a.needs & UP_RIGHT_FREE != 0 && up != 0) || (a.reach > 0 && up & blocking != 0) {
                return None;
            }
            let a_slot = a.slot & !SHIP;
            Some((
                a_slot >> low,
                ((up as u32) << low | (a_slot & low_mask)) as usize,
            ))
        };
        let mut firsts = vec![0u64; (one + 1).div_ceil(64)];
        indices.iter().for_each(|&i| set(&mut firsts, i & one));
        let first = self.cell_table(t, cell, Some(&firsts));
        let mut seconds = vec![0u64; (one + 1).div_ceil(64)];
        for &i in &indices {
            for (_, between) in moves(&first, i & one).iter().filter_map(|a| allowed(i, a)) {
                set(&mut seconds, between);
            }
        }
        let second = self.cell_table(t, cell + 1, Some(&seconds));
        let mut ranges = vec![(0, 0); size];
        let mut entries = Vec::new();
        for index in indices {
            let start = entries.len() as u32;
            for a in moves(&first, index & one) {
                let Some((label, between)) = allowed(index, a) else {
                    continue;
                };
                for b in moves(&second, between) {
                    if b.needs & LEFT_FREE != 0 && label != 0 {
                        continue;
                    }
                    let b_slot = b.slot & !SHIP;
                    let reach = if b.reach > 0 {
                        a.reach.max(b.reach.saturating_add(1))
                    } else {
                        a.reach
                    };
                    let ships = (a.slot & SHIP) | if b.slot & SHIP != 0 { SHIP_TOO } else { 0 };
                    entries.push(Entry {
                        slot: ((b_slot >> low) << (low + lb))
                            | (label << low)
                            | (b_slot & low_mask)
                            | ships,
                        needs: (a.needs & LEFT_FREE) | (b.needs & UP_RIGHT_FREE),
                        reach,
                        code: 0,
                    });
                }
            }
            ranges[index] = (start, entries.len() as u32);
        }
        CellTable {
            ranges,
            entries,
            cell,
            cells: 2,
        }
    }

    /// The forward pass: the trails of the cells from `keep_from` on when it is given (as
    /// `record` asks), the last layer and the total; `None` when the pass does not apply
    /// (keys too wide for its tables). With `fold`, on a problem the mirror maps onto itself,
    /// each row starts with one state of each mirror pair (`mirror.rs`): the count is the
    /// same, the per-cell counts are to be unfolded, and the trails lead through the folded
    /// layers.
    /// [`CountError::Overflow`] where a count passes 64 bits or, with trails, a layer passes
    /// the 2^27 states an edge can name (2^24 in a pair's trail; the general passes take
    /// both); `Err(Err(stop))` when the time limit ran out or the count was cancelled.
    #[allow(clippy::type_complexity)]
    pub(super) fn tight_forward(
        &self,
        opts: &CountOptions,
        keep_from: Option<usize>,
        record: Record,
        fold: bool,
    ) -> Result<Option<(Vec<Vec<Trail>>, Vec<(Key, u64)>, u128)>, Result<CountError, Stop>> {
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
        let budget = opts.memory_limit.unwrap_or(crate::engine::DP_MEMORY_LIMIT);
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
                return Err(Err(Stop::Time));
            }
            if opts.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                return Err(Err(Stop::Cancelled));
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
                    return Err(Ok(CountError::Overflow));
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
                return Err(Ok(CountError::Overflow));
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
                return Err(Ok(CountError::Overflow));
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
                return Err(Ok(CountError::Memory(budget)));
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
        Ok(Some((trails, last, total)))
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
        let (trails, last, total) = match self.tight_forward(opts, keep, Record::Pairs, fold) {
            Ok(Some(x)) => x,
            Ok(None) => return Ok(None),
            Err(Err(stop)) => return Ok(Some(stopped(stop))),
            Err(Ok(e)) => return Err(e),
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
    pub(super) fn tight_sampling(
        &self,
        opts: &CountOptions,
    ) -> Result<Option<Tight>, Result<CountError, Stop>> {
        let Some((trails, last, total)) =
            self.tight_forward(opts, Some(0), Record::Moves, false)?
        else {
            return Ok(None);
        };
        let (_, completions) = self.tight_backward(&trails, &last, true).map_err(Ok)?;
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

/// The bits of an edge's index within its list, in the trail of a step over `cells` cells.
#[inline]
fn index_bits(cells: u32) -> u32 {
    if cells == 2 {
        PAIR_INDEX_BITS
    } else {
        INDEX_BITS
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

/// The states from index `from` to `to` of `layer`, as slices of its stretches.
pub(super) fn stretch(layer: &[Vec<(Key, u64)>], from: usize, to: usize) -> Stretch<'_> {
    let mut out = Vec::new();
    let mut at = 0;
    for piece in layer {
        let (a, b) = (at, at + piece.len());
        at = b;
        let (s, e) = (from.max(a), to.min(b));
        if s < e {
            out.push(&piece[s - a..e - a]);
        }
    }
    out
}

/// A worker's backward step: per state of its trail, its completions (from `after`, the
/// next layer's) into `here`; and the layouts with a ship on the step's cell (on each of its
/// two cells, for a pair's) through its states, `None` where a sum passes its range.
fn backward(tr: &Trail, after: &[u64], here: &mut [u64]) -> Option<[u128; 2]> {
    match &tr.counts {
        Counts::Narrow(c) => backward_by(tr, c.iter().map(|&n| u64::from(n)), after, here),
        Counts::Wide(c) => backward_by(tr, c.iter().copied(), after, here),
        // The sampler's pass: its per-cell counts are not asked for.
        Counts::None => backward_by(tr, std::iter::repeat(0), after, here),
    }
}

/// [`backward`] with the trail's forward `counts`.
#[inline]
fn backward_by(
    tr: &Trail,
    counts: impl Iterator<Item = u64>,
    after: &[u64],
    here: &mut [u64],
) -> Option<[u128; 2]> {
    let mut totals: Option<[u128; 2]> = Some([0; 2]);
    let mut k = 0;
    let mut overflow = false;
    let (bits, flags) = (tr.index_bits(), tr.flags());
    let too = flags & SHIP_TOO;
    for ((n, &d), out) in counts.zip(&tr.degrees).zip(here) {
        let (mut all, mut ship, mut ship_too) = (0u64, 0u64, 0u64);
        for &e in &tr.edges[k..k + usize::from(d)] {
            let place = e & !flags;
            let c =
                after[(tr.starts[(place >> bits) as usize] + (place & ((1 << bits) - 1))) as usize];
            let (a, o) = all.overflowing_add(c);
            all = a;
            overflow |= o;
            if e & SHIP != 0 {
                ship = ship.wrapping_add(c);
            }
            if e & too != 0 {
                ship_too = ship_too.wrapping_add(c);
            }
        }
        k += usize::from(d);
        *out = all;
        totals = totals.and_then(|[a, b]| {
            Some([
                a.checked_add(u128::from(n) * u128::from(ship))?,
                b.checked_add(u128::from(n) * u128::from(ship_too))?,
            ])
        });
    }
    if overflow { None } else { totals }
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
mod tests {
    use super::*;
    use crate::clue::Clue;
    use crate::rules::Rules;
    use crate::{Dims, Fleet, ProblemSpec};

    /// The DP of a `w`x`h` board with ships of the lengths `fleet` and `clues` under
    /// `rules`.
    fn engine(
        w: usize,
        h: usize,
        fleet: &[usize],
        rules: Rules,
        clues: &[(usize, Clue)],
    ) -> DpEngine {
        DpEngine::new(&super::super::test_problem(w, h, fleet, rules, clues)).unwrap()
    }

    /// The tight pass against the engine's general passes: the same count and per-cell
    /// counts, on one core and split, under both rules, with water and ship clues.
    fn agree(w: usize, h: usize, fleet: &[usize], clues: &[(usize, Clue)]) {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let dp = engine(w, h, fleet, rules, clues);
            for parallel in [false, true] {
                let opts = CountOptions {
                    per_cell: true,
                    parallel,
                    ..CountOptions::default()
                };
                let general = dp.count_in::<u64>(&opts).unwrap();
                let tight = dp.tight_count(&opts).unwrap().expect("the tables fit");
                assert_eq!(tight.count, general.count, "{w}x{h} {fleet:?} {rules:?}");
                assert_eq!(
                    tight.per_cell, general.per_cell,
                    "{w}x{h} {fleet:?} {rules:?}"
                );
                let alone = CountOptions {
                    per_cell: false,
                    ..opts
                };
                assert_eq!(
                    dp.tight_count(&alone).unwrap().unwrap().count,
                    general.count
                );
            }
        }
    }

    #[test]
    fn the_tight_pass_counts_what_the_general_passes_count() {
        // Layers past 4,096 states, which the workers split.
        agree(9, 8, &[5, 4, 3, 3, 2], &[]);
        agree(
            8,
            9,
            &[4, 3, 3, 2, 2, 1],
            &[(10, Clue::Water), (30, Clue::Ship)],
        );
        // Clues that cut ships across and down, on a board neither square nor wide.
        let clues: Vec<(usize, Clue)> = [3, 17, 22, 40, 41, 58]
            .iter()
            .map(|&c| (c, Clue::Water))
            .chain([(12, Clue::Ship), (50, Clue::Ship)])
            .collect();
        agree(7, 9, &[4, 3, 2, 2], &clues);
        // States whose counts pass 32 bits (3.8e11 layouts touching): they take the trail
        // of its cell to 64 bits.
        agree(8, 8, &[3, 2, 2, 2, 1, 1, 1], &[]);
        let dp = engine(8, 8, &[3, 2, 2, 2, 1, 1, 1], Rules::Touch, &[]);
        let Ok(Some((trails, _, _))) =
            dp.tight_forward(&CountOptions::default(), Some(0), Record::Cells, false)
        else {
            panic!("the tight pass applies");
        };
        let wide = |t: &Trail| matches!(t.counts, Counts::Wide(_));
        assert!(trails.iter().flatten().any(wide));
        assert!(!trails.iter().flatten().all(wide));
        // One column, one row, and one-cell ships alone.
        agree(1, 9, &[3, 2], &[]);
        agree(9, 1, &[3, 2], &[(4, Clue::Water)]);
        agree(5, 5, &[1, 1, 1], &[]);
    }

    /// Steps over two cells at once (the count, and the per-cell counts through their
    /// trails) count what steps over one count: rows of two and three cells, a one-cell ship
    /// beside a ship across that starts on the pair's second cell, clues on either cell of a
    /// pair, and labels of four bits (a pair's 256 lists, more than a pair's trail can name).
    #[test]
    fn steps_over_two_cells_count_what_steps_over_one_count() {
        agree(2, 7, &[2, 1, 1], &[]);
        agree(3, 6, &[3, 2, 1], &[(4, Clue::Ship)]);
        agree(
            6,
            5,
            &[3, 2, 1, 1, 1],
            &[(7, Clue::Ship), (14, Clue::Water)],
        );
        agree(7, 9, &[8, 3, 2], &[(20, Clue::Water)]);
        let t = engine(7, 9, &[8, 3, 2], Rules::NoTouch, &[])
            .tight_tables()
            .expect("the tables fit");
        assert_eq!(t.label_bits, 4);
        // The tables of those boards fit the pairs' (as the standard game's do).
        for (w, h, fleet) in [
            (2, 7, &[2, 1, 1][..]),
            (6, 5, &[3, 2, 1, 1, 1]),
            (7, 9, &[8, 3, 2]),
            (10, 10, &[5, 4, 3, 3, 2]),
        ] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let t = engine(w, h, fleet, rules, &[])
                    .tight_tables()
                    .expect("the tables fit");
                assert!(t.pairs, "{w}x{h} {fleet:?} {rules:?}");
            }
        }
    }

    /// The mirror fold applies to the problems the mirror maps onto themselves, clues and
    /// all, and only to them; folded, the tight pass counts what the general passes count,
    /// with or without its trails, on one core and split.
    #[test]
    fn the_mirror_fold_applies_to_symmetric_problems_and_keeps_the_counts() {
        let (w, h) = (9, 8);
        let mirrored = |cells: &[usize]| -> Vec<usize> {
            cells
                .iter()
                .flat_map(|&c| [c, (c / w) * w + w - 1 - c % w])
                .collect()
        };
        let clue_list = |water: &[usize], ship: &[usize]| -> Vec<(usize, Clue)> {
            let water = water.iter().map(|&c| (c, Clue::Water));
            water.chain(ship.iter().map(|&c| (c, Clue::Ship))).collect()
        };
        let symmetric = clue_list(&mirrored(&[1, 20, 39, 58]), &mirrored(&[12, 47]));
        // One water clue in the middle column is its own mirror; one off it is not.
        let centred = clue_list(&[4 + 2 * w], &[]);
        let lopsided = clue_list(&[1 + 2 * w], &[]);
        for (clues, fold) in [
            (&[][..], true),
            (&symmetric[..], true),
            (&centred[..], true),
            (&lopsided[..], false),
        ] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let dp = engine(w, h, &[4, 3, 3, 2], rules, clues);
                assert_eq!(dp.mirror_symmetric(), fold, "{rules:?} {clues:?}");
                assert!(dp.count(&CountOptions::default()).unwrap().count > 0);
            }
            agree(w, h, &[4, 3, 3, 2], clues);
        }
        // A placement the problem rules out (a sunk report's, say) breaks the symmetry as a
        // clue does: the board's mirror alone is not enough.
        let mut dp = engine(w, h, &[4, 3], Rules::Touch, &[]);
        assert!(dp.mirror_symmetric());
        dp.starts[0] &= !super::super::state::ACROSS;
        assert!(!dp.mirror_symmetric());
    }

    /// The up-down flip applies to the problems it maps onto itself, clues and all, and only
    /// to them; with it the top rows' per-cell counts are the bottom rows', and every one is
    /// the general passes' count, with the mirror fold or without it, on boards of odd
    /// height (whose middle row is its own flip) and of even.
    #[test]
    fn the_up_down_flip_applies_to_symmetric_problems_and_keeps_the_per_cell_counts() {
        for (w, h) in [(8, 9), (7, 8)] {
            let flip = |c: usize| (h - 1 - c / w) * w + c % w;
            let mirror = |c: usize| (c / w) * w + w - 1 - c % w;
            let with = |cells: &[usize], f: &dyn Fn(usize) -> usize| -> Vec<usize> {
                cells.iter().flat_map(|&c| [c, f(c)]).collect()
            };
            let clue_list = |water: Vec<usize>, ship: Vec<usize>| -> Vec<(usize, Clue)> {
                let water = water.into_iter().map(|c| (c, Clue::Water));
                water
                    .chain(ship.into_iter().map(|c| (c, Clue::Ship)))
                    .collect()
            };
            let (water, ship) = ([1, w + 5, 2 * w + 2], [3 * w + 1]);
            let flipped = clue_list(with(&water, &flip), with(&ship, &flip));
            let both = |cells: &[usize]| with(&with(cells, &flip), &mirror);
            let symmetric = clue_list(both(&water), both(&ship));
            let middle = clue_list(vec![(h / 2) * w + 3], vec![]);
            let lopsided = clue_list(vec![w + 2], vec![]);
            for (clues, applies) in [
                (&[][..], true),
                (&flipped[..], true),
                (&symmetric[..], true),
                (&middle[..], h % 2 == 1),
                (&lopsided[..], false),
            ] {
                for rules in [Rules::Touch, Rules::NoTouch] {
                    let dp = engine(w, h, &[4, 3, 2], rules, clues);
                    assert_eq!(dp.flip_symmetric(), applies, "{w}x{h} {rules:?} {clues:?}");
                    assert!(dp.count(&CountOptions::default()).unwrap().count > 0);
                }
                agree(w, h, &[4, 3, 2], clues);
            }
        }
        // A ship down the problem rules out at one end breaks the flip as a clue does.
        let mut dp = engine(6, 7, &[4, 3], Rules::Touch, &[]);
        assert!(dp.flip_symmetric());
        dp.starts[0] &= !super::super::state::DOWN;
        assert!(!dp.flip_symmetric());
    }

    /// Where a state's count passes 64 bits the pass says so, and the engine's count goes on
    /// in 128 bits.
    #[test]
    fn a_count_past_64_bits_falls_to_the_wide_passes() {
        let spec = ProblemSpec::empty(Dims::new(20, 20), Fleet::straight(&[1; 12]), Rules::Touch);
        let dp = DpEngine::new(&spec.build().unwrap()).unwrap();
        let opts = CountOptions::default();
        assert!(matches!(dp.tight_count(&opts), Err(CountError::Overflow)));
        let wide = dp.count_in::<u128>(&opts).unwrap();
        assert!(wide.count > u128::from(u64::MAX));
        assert_eq!(dp.count(&opts).unwrap().count, wide.count);
    }
}
