//! The transfer-matrix engine: a broken-profile dynamic program over cells.
//!
//! Cells are scanned row-major. The state after a cell is the *profile* of the last `W` cells
//! (one per column: the most recent cell of that column), each labelled free, occupied (by a
//! ship that does not continue down), or "a vertical ship of type `t` continues below with `k`
//! cells left"; the horizontal ship running into the next cell (type and cells left), if any;
//! under the no-touch rule whether the cell diagonally up-left of the next cell is occupied;
//! and how many ships of each type are already used. At each cell the ship either continues
//! (forced), a new ship starts (only at a placement the problem allows, which carries every
//! clue and per-placement observation), or the cell is water. Hits, misses and rocks are
//! local to the cell.
//!
//! One forward pass keeps the count of partial layouts reaching each state; one backward pass
//! counts completions, and a cell's count is the sum, over transitions that put a ship on it,
//! of forward times backward. States are packed into a `u64` key, so the DP applies when the
//! profile fits in 63 bits: straight fleets, no row or column counts (those are global), and
//! boards up to about 20 columns for the classic fleets. [`DpEngine::supports`] says why not.

use crate::clue::Clue;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

use super::{CountError, CountOptions, CountResult};

/// A state key: the packed profile.
type Key = u64;

/// Open-addressing map from state keys to counts: linear probing in a power-of-two table
/// of (key, count) slots, so a probe touches one cache line. Counts are `u64` with checked
/// arithmetic (a count past 2^64 is reported, never wrapped). Inserts come in batches whose
/// slots are prefetched first, so the cache misses of a batch overlap.
struct Table {
    slots: Vec<(Key, u64)>,
    len: usize,
}

/// No state packs to all ones: keys use at most 63 bits.
const VACANT: Key = Key::MAX;

/// Inserts buffered before they are applied (their slots prefetched meanwhile).
const BATCH: usize = 64;

impl Table {
    fn with_capacity(n: usize) -> Table {
        let cap = (n.max(8) * 2).next_power_of_two();
        Table {
            slots: vec![(VACANT, 0); cap],
            len: 0,
        }
    }

    #[inline]
    fn slot(&self, k: Key) -> usize {
        let h = (k ^ (k >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn prefetch(&self, k: Key) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint, and the address lies inside the table.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.slots.as_ptr().add(self.slot(k)) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = k;
    }

    /// Adds `v` to the count of `k`; false on overflow.
    #[inline]
    fn add(&mut self, k: Key, v: u64) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(k);
        loop {
            let (at, n) = &mut self.slots[i];
            if *at == k {
                return match n.checked_add(v) {
                    Some(x) => {
                        *n = x;
                        true
                    }
                    None => false,
                };
            }
            if *at == VACANT {
                *at = k;
                *n = v;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, k: Key) -> Option<u64> {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(k);
        loop {
            let (at, n) = self.slots[i];
            if at == k {
                return Some(n);
            }
            if at == VACANT {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, Table::with_capacity(self.slots.len()));
        for (k, v) in old.entries() {
            self.add(k, v);
        }
    }

    fn entries(&self) -> impl Iterator<Item = (Key, u64)> + '_ {
        self.slots.iter().copied().filter(|(k, _)| *k != VACANT)
    }

    /// Empties the table, sized for about `expected` entries: a table far too small or far
    /// too large is replaced (scans cost its capacity), else cleared in place.
    fn reset(&mut self, expected: usize) {
        let want = (expected.max(8) * 2).next_power_of_two();
        if self.slots.len() < want || self.slots.len() > 4 * want {
            *self = Table::with_capacity(expected);
        } else if self.len > 0 {
            self.slots.fill((VACANT, 0));
            self.len = 0;
        }
    }

    /// Hands every entry to `f` and leaves the table empty: one pass that reads and clears
    /// each slot, so clearing costs no second pass.
    fn drain(&mut self, mut f: impl FnMut(Key, u64)) {
        for slot in &mut self.slots {
            if slot.0 != VACANT {
                f(slot.0, slot.1);
                *slot = (VACANT, 0);
            }
        }
        self.len = 0;
    }
}

/// A batch of pending inserts into a [`Table`].
struct Batch {
    pending: Vec<(Key, u64)>,
    ok: bool,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            pending: Vec::with_capacity(BATCH),
            ok: true,
        }
    }

    #[inline]
    fn push(&mut self, t: &mut Table, k: Key, v: u64) {
        t.prefetch(k);
        self.pending.push((k, v));
        if self.pending.len() == BATCH {
            self.flush(t);
        }
    }

    fn flush(&mut self, t: &mut Table) {
        for &(k, v) in &self.pending {
            self.ok &= t.add(k, v);
        }
        self.pending.clear();
    }
}

/// Exact uniform sampling of layouts through the DP's tables: from the first cell on, each
/// transition is taken with probability proportional to the completions of the state it
/// reaches, so every layout is drawn with probability exactly 1 / (number of layouts).
pub struct DpSampler<'p> {
    dp: DpEngine<'p>,
    /// Per layer, the completions of its states, split by owner.
    tables: Vec<Vec<Table>>,
    total: u128,
}

impl DpSampler<'_> {
    /// The number of layouts sampled from.
    pub fn count(&self) -> u128 {
        self.total
    }

    /// One layout drawn uniformly at random; `None` when there is none.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Layout> {
        use rand::RngExt;
        if self.total == 0 {
            return None;
        }
        let d = self.dp.problem.dims();
        let mut key: Key = 0;
        let mut ships = Vec::new();
        let mut options: Vec<(Key, Move, u64)> = Vec::with_capacity(8);
        for cell in 0..d.cells() {
            options.clear();
            let next = &self.tables[cell + 1];
            self.dp.step(key, cell, |k, mv| {
                if let Some(b) = next[self.dp.owner(cell + 1, k, next.len())].get(k) {
                    options.push((k, mv, b));
                }
            });
            let sum: u64 = options.iter().map(|o| o.2).sum();
            let mut r = rng.random_range(0..sum);
            let &(k, mv, _) = options
                .iter()
                .find(|o| {
                    if r < o.2 {
                        true
                    } else {
                        r -= o.2;
                        false
                    }
                })
                .expect("r is below the sum");
            if let Move::Start(ty, dir) = mv {
                let len = self.dp.lens[ty];
                let step = match dir {
                    Dir::Single | Dir::Across => 1,
                    Dir::Down => d.width,
                };
                ships.push(Ship {
                    ty,
                    cells: (0..len).map(|i| cell + i * step).collect(),
                });
            }
            key = k;
        }
        Some(Layout { ships })
    }
}

/// Why the DP cannot take a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DpUnsupported {
    /// Row or column counts constrain whole lines.
    #[error("row and column counts are global constraints")]
    Counts,
    /// A polyomino ship.
    #[error("the fleet has a ship that is not straight")]
    Polyomino,
    /// A sonar reading constrains a whole ring of cells.
    #[error("sonar readings constrain rings of cells, not single cells")]
    Sonar,
    /// The state does not fit in 63 bits.
    #[error("the board is too wide for the DP's 63-bit state")]
    TooWide,
}

/// Field layout of a packed state.
#[derive(Clone, Debug)]
struct Packing {
    label_bits: u32,
    width: usize,
    horiz_shift: u32,
    diag_shift: u32,
    used_shift: Vec<u32>,
    used_bits: Vec<u32>,
}

impl Packing {
    #[inline]
    fn vert(&self, key: Key, col: usize) -> u32 {
        ((key >> (col as u32 * self.label_bits)) & ((1 << self.label_bits) - 1)) as u32
    }
    #[inline]
    fn set_vert(&self, key: Key, col: usize, label: u32) -> Key {
        let sh = col as u32 * self.label_bits;
        let mask = ((1 << self.label_bits) - 1) << sh;
        (key & !mask) | ((label as Key) << sh)
    }
    #[inline]
    fn horiz(&self, key: Key) -> u32 {
        ((key >> self.horiz_shift) & ((1 << self.label_bits) - 1)) as u32
    }
    #[inline]
    fn set_horiz(&self, key: Key, label: u32) -> Key {
        let mask = ((1 << self.label_bits) - 1) << self.horiz_shift;
        (key & !mask) | ((label as Key) << self.horiz_shift)
    }
    #[inline]
    fn diag(&self, key: Key) -> bool {
        (key >> self.diag_shift) & 1 == 1
    }
    #[inline]
    fn set_diag(&self, key: Key, on: bool) -> Key {
        (key & !(1 << self.diag_shift)) | ((on as Key) << self.diag_shift)
    }
    #[inline]
    fn used(&self, key: Key, t: usize) -> usize {
        ((key >> self.used_shift[t]) & ((1 << self.used_bits[t]) - 1)) as usize
    }
}

/// What a transition does at its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    /// The cell is water.
    Water,
    /// A ship already started covers the cell.
    Continue,
    /// A ship of this type starts at the cell.
    Start(usize, Dir),
}

/// The direction a ship starting at a cell runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    /// A one-cell ship.
    Single,
    /// To the right.
    Across,
    /// Downwards.
    Down,
}

/// Labels: 0 free, 1 occupied and finished, then `k + 1` for "continues, `k >= 1` cells left".
const FREE: u32 = 0;
const DONE: u32 = 1;

/// The DP for one problem.
pub struct DpEngine<'p> {
    problem: &'p Problem,
    pack: Packing,
    /// For each type: length and count.
    lens: Vec<usize>,
    counts: Vec<usize>,
    /// Allowed starts per type: single, horizontal, vertical (indexed by the anchor cell).
    start_one: Vec<Vec<bool>>,
    start_h: Vec<Vec<bool>>,
    start_v: Vec<Vec<bool>>,
    water: Vec<bool>,
    ship: Vec<bool>,
    no_touch: bool,
    /// Per column, the label bits of every other column: what the transition at a cell of
    /// that column leaves unchanged.
    ctx: Vec<Key>,
}

impl<'p> DpEngine<'p> {
    /// Whether the DP can count `problem`, and why not.
    pub fn supports(problem: &Problem) -> Result<(), DpUnsupported> {
        DpEngine::<'_>::new(problem).map(|_| ())
    }

    /// The DP for `problem`, if it applies.
    pub fn new(problem: &'p Problem) -> Result<Self, DpUnsupported> {
        let spec = problem.spec();
        if spec.rows.iter().chain(&spec.cols).any(Option::is_some) {
            return Err(DpUnsupported::Counts);
        }
        if !problem.any_of().is_empty() {
            return Err(DpUnsupported::Sonar);
        }
        let fleet = problem.fleet();
        let mut lens = Vec::new();
        let mut counts = Vec::new();
        for t in fleet.types() {
            lens.push(t.shape.straight_len().ok_or(DpUnsupported::Polyomino)?);
            counts.push(t.count);
        }
        // Labels FREE, DONE, then "continues with k cells left" as k + 1. A ship's type is
        // charged to the fleet when it starts; after that only the cells left matter, so
        // ships of different types in the same stage share a label.
        let max_len = lens.iter().copied().max().unwrap_or(1) as u32;
        let nlabels = max_len + 1;
        let label_bits = 32 - (nlabels - 1).leading_zeros().min(31);
        let label_bits = label_bits.max(1);
        let d = problem.dims();
        let horiz_shift = d.width as u32 * label_bits;
        let diag_shift = horiz_shift + label_bits;
        let mut used_shift = Vec::new();
        let mut used_bits = Vec::new();
        let mut at = diag_shift + 1;
        for &n in &counts {
            let b = (usize::BITS - n.leading_zeros()).max(1);
            used_shift.push(at);
            used_bits.push(b);
            at += b;
        }
        if at > 63 {
            return Err(DpUnsupported::TooWide);
        }
        let cells = d.cells();
        let mut start_one = vec![vec![false; cells]; lens.len()];
        let mut start_h = vec![vec![false; cells]; lens.len()];
        let mut start_v = vec![vec![false; cells]; lens.len()];
        for t in 0..lens.len() {
            for p in problem.placements(t) {
                let a = p.cells[0];
                if p.cells.len() == 1 {
                    start_one[t][a] = true;
                } else if p.cells[1] == a + 1 {
                    start_h[t][a] = true;
                } else {
                    start_v[t][a] = true;
                }
            }
        }
        let water = (0..cells)
            .map(|c| matches!(spec.clue(c), Some(Clue::Water | Clue::Blocked)))
            .collect();
        let ship = (0..cells)
            .map(|c| spec.clue(c).is_some_and(Clue::is_ship))
            .collect();
        Ok(DpEngine {
            problem,
            pack: Packing {
                label_bits,
                width: d.width,
                horiz_shift,
                diag_shift,
                used_shift,
                used_bits,
            },
            lens,
            counts,
            start_one,
            start_h,
            start_v,
            water,
            ship,
            no_touch: problem.rules() == Rules::NoTouch,
            ctx: (0..d.width)
                .map(|c| {
                    let labels: Key = (1 << (d.width as u32 * label_bits)) - 1;
                    labels & !(((1 << label_bits) - 1) << (c as u32 * label_bits))
                })
                .collect(),
        })
    }

    #[inline]
    fn occupied(&self, label: u32) -> bool {
        label != FREE
    }

    /// The label of a finished ship cell: under the touch rule nothing needs to know it is
    /// occupied, so it merges with free and halves the states.
    #[inline]
    fn done(&self) -> u32 {
        if self.no_touch { DONE } else { FREE }
    }

    /// Calls `f(next_key, ship_here)` for every transition out of `key` at `cell`.
    #[inline]
    fn step(&self, key: Key, cell: usize, mut f: impl FnMut(Key, Move)) {
        let pk = &self.pack;
        let w = pk.width;
        let (r, c) = (cell / w, cell % w);
        let up = pk.vert(key, c);
        let horiz = pk.horiz(key);
        let left_occ = c > 0 && self.occupied(pk.vert(key, c - 1));
        let ul = c > 0 && r > 0 && pk.diag(key);
        let ur = r > 0 && c + 1 < w && self.occupied(pk.vert(key, c + 1));
        // The next cell's diagonal is this column's cell of the previous row.
        let next_diag = self.no_touch && c + 1 < w && self.occupied(up);
        let finish = |k: Key, horiz_label: u32, vert_label: u32| {
            let k = pk.set_vert(k, c, vert_label);
            let k = pk.set_horiz(k, if c + 1 < w { horiz_label } else { FREE });
            pk.set_diag(k, next_diag)
        };
        let up_continues = up >= 2;
        let horiz_continues = horiz >= 2;
        if up_continues || horiz_continues {
            if (up_continues && horiz_continues) || self.water[cell] {
                return;
            }
            if up_continues {
                if self.no_touch && left_occ {
                    return;
                }
                let k = up - 1;
                let label = if k > 1 { k } else { self.done() };
                f(finish(key, FREE, label), Move::Continue);
            } else {
                if self.no_touch && r > 0 && (self.occupied(up) || ur || ul) {
                    return;
                }
                let k = horiz - 1;
                let h = if k > 1 { k } else { FREE };
                f(finish(key, h, self.done()), Move::Continue);
            }
            return;
        }
        if !self.ship[cell] {
            f(finish(key, FREE, FREE), Move::Water);
        }
        if self.water[cell] || (self.no_touch && (left_occ || ul || ur || self.occupied(up))) {
            return;
        }
        for t in 0..self.lens.len() {
            let used = pk.used(key, t);
            if used >= self.counts[t] {
                continue;
            }
            let k = key + (1 << pk.used_shift[t]);
            let l = self.lens[t];
            if l == 1 {
                if self.start_one[t][cell] {
                    f(finish(k, FREE, self.done()), Move::Start(t, Dir::Single));
                }
                continue;
            }
            // A ship of length l starting here: l - 1 cells left after this one.
            let cont = l as u32;
            if self.start_h[t][cell] {
                f(finish(k, cont, self.done()), Move::Start(t, Dir::Across));
            }
            if self.start_v[t][cell] {
                f(finish(k, FREE, cont), Move::Start(t, Dir::Down));
            }
        }
    }

    /// Which of `parts` (a power of two) workers owns a state before cell `j`. It hashes
    /// only the labels the transition at `j` leaves alone, so all the successors of the
    /// states one worker owns differ from those of every other worker: each worker fills its
    /// own table, with no locks and nothing to merge.
    #[inline]
    fn owner(&self, j: usize, key: Key, parts: usize) -> usize {
        if parts == 1 {
            return 0;
        }
        let h = (key & self.ctx[j % self.pack.width]).wrapping_mul(0xd6e8_feb8_6659_fd93);
        (h >> (64 - parts.trailing_zeros())) as usize
    }

    /// How many workers a pass uses: every thread of the pool when `opts.parallel`, rounded
    /// down to a power of two, else one.
    fn parts(opts: &CountOptions) -> usize {
        if opts.parallel {
            let n = rayon::current_num_threads().max(1);
            1 << (usize::BITS - 1 - n.leading_zeros())
        } else {
            1
        }
    }

    /// Prepares exact uniform sampling: the forward and backward passes, keeping every
    /// layer's completions. Memory grows with the states (about 32 bytes each; the empty
    /// 10x10 board has some 2e7).
    pub fn sampler(self) -> Result<DpSampler<'p>, CountError> {
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            ..CountOptions::default()
        };
        // Without a time limit the forward pass cannot stop early.
        let (layers, total) = self
            .forward(&opts, true)
            .map_err(|e| e.unwrap_or(CountError::Overflow))?;
        let (_, tables) = self.marginals(&layers, &opts, true)?;
        Ok(DpSampler {
            dp: self,
            tables,
            total,
        })
    }

    fn is_final(&self, key: Key) -> bool {
        (0..self.lens.len()).all(|t| self.pack.used(key, t) == self.counts[t])
    }

    /// Counts layouts, and per-cell counts when `opts.per_cell`, on every core when
    /// `opts.parallel`. A count limit is ignored: the DP takes time polynomial in the number
    /// of states, not in the count.
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        let (layers, total) = match self.forward(opts, opts.per_cell) {
            Ok(x) => x,
            Err(None) => {
                // A partial DP has no meaningful count: say so rather than guess.
                return Ok(CountResult {
                    count: 0,
                    complete: false,
                    stopped: Some(super::Stop::Time),
                    per_cell: None,
                    engine: "dp",
                });
            }
            Err(Some(e)) => return Err(e),
        };
        let per_cell = if opts.per_cell {
            Some(self.marginals(&layers, opts, false)?.0)
        } else {
            None
        };
        Ok(CountResult {
            count: total,
            complete: true,
            stopped: None,
            per_cell,
            engine: "dp",
        })
    }

    /// The forward pass: the states before each cell with their counts (all layers when
    /// `keep`, else only the last), and the total. `Err(None)` when the time limit ran out.
    fn forward(
        &self,
        opts: &CountOptions,
        keep: bool,
    ) -> Result<(Vec<Layer>, u128), Option<CountError>> {
        let cells = self.problem.dims().cells();
        let parts = DpEngine::parts(opts);
        // Only per-cell counts need the layers kept for the backward pass.
        let mut layers: Vec<Layer> = Vec::with_capacity(if keep { cells + 1 } else { 0 });
        let mut current = Layer::new(parts);
        current.chunks[self.owner(0, 0, parts)].push((0, 1));
        let mut workers: Vec<Forward> = (0..parts).map(|_| Forward::new(parts)).collect();
        let deadline = opts.time_limit.map(|t| std::time::Instant::now() + t);
        for cell in 0..cells {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(None);
            }
            let input = &current;
            run(&mut workers, |i, w| {
                let Forward { table, batch, out } = w;
                table.reset(input.part_len(i));
                for chunk in input.part(i) {
                    for &(key, n) in chunk {
                        self.step(key, cell, |k, _| batch.push(table, k, n));
                    }
                }
                batch.flush(table);
                let share = table.len / parts + 16;
                for o in out.iter_mut() {
                    o.reserve(share);
                }
                table.drain(|k, n| out[self.owner(cell + 1, k, parts)].push((k, n)));
            });
            if workers.iter().any(|w| !w.batch.ok) {
                return Err(Some(CountError::Overflow));
            }
            if let Some(p) = &opts.progress {
                p(cell as u64 + 1, 2 * cells as u64);
            }
            let mut next = Layer::new(0);
            next.parts = parts;
            for w in &mut workers {
                next.chunks.append(&mut w.out);
            }
            let previous = std::mem::replace(&mut current, next);
            if keep {
                layers.push(previous);
                for w in &mut workers {
                    w.out = (0..parts).map(|_| Vec::new()).collect();
                }
            } else {
                // The spent layer's buffers take the next one.
                for (j, mut chunk) in previous.chunks.into_iter().enumerate() {
                    chunk.clear();
                    workers[j / parts].out.push(chunk);
                }
            }
        }
        let total: u128 = current
            .chunks
            .iter()
            .flatten()
            .filter(|(k, _)| self.is_final(*k))
            .map(|&(_, n)| n as u128)
            .sum();
        layers.push(current);
        Ok((layers, total))
    }

    /// The backward pass: completions per state, and per cell the layouts with a ship there.
    /// Lookups go in chunks whose slots are prefetched first, like the forward inserts.
    ///
    /// With `keep`, also returns each layer's tables of completions (index `i`: the states
    /// before cell `i`, split by owner), which is what uniform sampling walks.
    #[allow(clippy::type_complexity)]
    fn marginals(
        &self,
        layers: &[Layer],
        opts: &CountOptions,
        keep: bool,
    ) -> Result<(Vec<u128>, Vec<Vec<Table>>), CountError> {
        const CHUNK: usize = 16;
        let cells = layers.len() - 1;
        let parts = layers[cells].parts;
        let mut per_cell = vec![0u128; cells];
        let mut back: Vec<Table> = (0..parts)
            .map(|i| {
                let mut t = Table::with_capacity(layers[cells].part_len(i));
                for chunk in layers[cells].part(i) {
                    for &(k, _) in chunk {
                        if self.is_final(k) {
                            t.add(k, 1);
                        }
                    }
                }
                t
            })
            .collect();
        let mut workers: Vec<Backward> = (0..parts).map(|_| Backward::new()).collect();
        let mut kept = Vec::new();
        for cell in (0..cells).rev() {
            let layer = &layers[cell];
            let next = &back;
            run(&mut workers, |i, w| {
                let Backward {
                    here,
                    batch,
                    succ,
                    ships,
                    ok,
                } = w;
                here.reset(layer.part_len(i));
                *ships = 0;
                for chunk in layer.part(i).flat_map(|c| c.chunks(CHUNK)) {
                    // (index in chunk, successor, its owner, ship on the cell)
                    succ.clear();
                    for (i, &(key, _)) in chunk.iter().enumerate() {
                        self.step(key, cell, |k, mv| {
                            let o = self.owner(cell + 1, k, parts);
                            next[o].prefetch(k);
                            succ.push((i, k, o, mv != Move::Water));
                        });
                    }
                    let mut b = [0u64; CHUNK];
                    for &(i, k, o, ship) in succ.iter() {
                        if let Some(bn) = next[o].get(k) {
                            match b[i].checked_add(bn) {
                                Some(x) => b[i] = x,
                                None => *ok = false,
                            }
                            if ship {
                                // fwd * bn counts layouts, so it is at most the total.
                                *ships += chunk[i].1 as u128 * bn as u128;
                            }
                        }
                    }
                    for (i, &(key, _)) in chunk.iter().enumerate() {
                        if b[i] > 0 {
                            batch.push(here, key, b[i]);
                        }
                    }
                }
                batch.flush(here);
                *ok &= batch.ok;
            });
            if workers.iter().any(|w| !w.ok) {
                return Err(CountError::Overflow);
            }
            per_cell[cell] = workers.iter().map(|w| w.ships).sum();
            for (w, t) in workers.iter_mut().zip(back.iter_mut()) {
                std::mem::swap(&mut w.here, t);
            }
            if keep {
                kept.push(
                    workers
                        .iter_mut()
                        .map(|w| std::mem::replace(&mut w.here, Table::with_capacity(0)))
                        .collect(),
                );
            }
            if let Some(p) = &opts.progress {
                p((2 * cells - cell) as u64, 2 * cells as u64);
            }
        }
        if keep {
            kept.push(back);
            kept.reverse();
        }
        Ok((per_cell, kept))
    }
}

/// The states before one cell with their counts, in `parts * parts` chunks: chunk
/// `w * parts + i` was filled by worker `w` and holds states worker `i` owns.
struct Layer {
    parts: usize,
    chunks: Vec<Vec<(Key, u64)>>,
}

impl Layer {
    fn new(parts: usize) -> Layer {
        Layer {
            parts,
            chunks: (0..parts * parts).map(|_| Vec::new()).collect(),
        }
    }

    /// The chunks of the states worker `i` owns.
    fn part(&self, i: usize) -> impl Iterator<Item = &[(Key, u64)]> {
        (0..self.parts).map(move |w| self.chunks[w * self.parts + i].as_slice())
    }

    fn part_len(&self, i: usize) -> usize {
        self.part(i).map(<[_]>::len).sum()
    }
}

/// One worker of the forward pass: its table of next states and its outgoing chunks.
struct Forward {
    table: Table,
    batch: Batch,
    out: Vec<Vec<(Key, u64)>>,
}

impl Forward {
    fn new(parts: usize) -> Forward {
        Forward {
            table: Table::with_capacity(1 << 10),
            batch: Batch::new(),
            out: (0..parts).map(|_| Vec::new()).collect(),
        }
    }
}

/// One worker of the backward pass.
struct Backward {
    here: Table,
    batch: Batch,
    succ: Vec<(usize, Key, usize, bool)>,
    ships: u128,
    ok: bool,
}

impl Backward {
    fn new() -> Backward {
        Backward {
            here: Table::with_capacity(1 << 10),
            batch: Batch::new(),
            succ: Vec::with_capacity(128),
            ships: 0,
            ok: true,
        }
    }
}

/// Runs `f(i, worker)` for every worker, on the pool's threads when there are several.
fn run<W: Send>(workers: &mut [W], f: impl Fn(usize, &mut W) + Sync) {
    use rayon::prelude::*;
    if let [only] = workers {
        f(0, only);
    } else {
        workers
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, w)| f(i, w));
    }
}
