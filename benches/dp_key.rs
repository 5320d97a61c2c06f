//! A route for the DP measured beside the engine: its forward and backward passes as one
//! short loop (docs/PERFORMANCE.md, "A route measured for the DP targets").
//!
//! The state is keyed with its youngest label on top and the oldest just above the ship
//! running across and the fleet counters: a group (every label but the oldest) is one stretch
//! of the sorted layer, and its successors, whose new label becomes the top, go to one list per
//! new label, each filled in order; the next layer is the lists one after another. A cell's
//! transitions are looked up by the key's low bits in a table built once, in the order the
//! engine's `step` makes them, and a group's successors are summed in a small table read back
//! through two levels of bitmask. Touching rule, straight ships, no clues: the empty board.
//! Each run is checked against the engine's answer, count and per-cell counts, on one thread
//! each.

use std::hint::black_box;

use broadside::{CountOptions, Dims, Engine, Fleet, ProblemSpec, Rules};
use criterion::{Criterion, criterion_group, criterion_main};

/// Bits of a label: 0 free, `k + 1` for a ship that goes on with `k >= 1` cells left.
const LABEL: u32 = 3;
/// Flag of a successor that puts a ship on its cell, in a table entry and a trail's edge.
const SHIP: u32 = 1 << 31;

/// The board and fleet, and the layout of a key: from the top, the labels of the last
/// `width` cells, youngest first; then the ship across (a label); then the fleet counters.
struct Pass {
    width: usize,
    height: usize,
    /// Per ship type: its length, how many the fleet has, its counter's shift and width.
    types: Vec<(u32, u32, u32, u32)>,
    counter_bits: u32,
    /// Per cell, per value of the key's low bits (oldest label, ship across, counters): the
    /// range of its successors in `succs`.
    ranges: Vec<Vec<Range>>,
    /// Per cell, its successors: the slot of the successor in a group's table less the
    /// counters (new label, ship across, counters added), with [`SHIP`]; and the length of
    /// a ship across that starts, which the row above may block (0 for none).
    succs: Vec<Vec<Succ>>,
}

/// Where a key's successors start and end in its cell's list.
type Range = (u32, u32);
/// A successor: its slot less the counters, with [`SHIP`]; the length of a ship across that
/// starts (0 for none).
type Succ = (u32, u32);

/// A label's place among the labels a slot table distinguishes: free, then 2, 3, ...
fn rank(label: u32) -> u32 {
    label.saturating_sub(1)
}

impl Pass {
    fn new(width: usize, height: usize, fleet: &[(u32, u32)]) -> Pass {
        let mut types = Vec::new();
        let mut shift = 0;
        for &(len, count) in fleet {
            let bits = u32::BITS - count.leading_zeros();
            types.push((len, count, shift, bits));
            shift += bits;
        }
        let counter_bits = shift;
        let mut pass = Pass {
            width,
            height,
            types,
            counter_bits,
            ranges: Vec::new(),
            succs: Vec::new(),
        };
        for cell in 0..width * height {
            let (ranges, succs) = pass.cell_table(cell);
            pass.ranges.push(ranges);
            pass.succs.push(succs);
        }
        pass
    }

    /// Bits below the labels.
    fn low(&self) -> u32 {
        LABEL + self.counter_bits
    }

    /// Slots of a group's table: per new label and ship across, every counter value.
    fn slots(&self) -> usize {
        let labels = 1 << LABEL;
        (labels * labels) << self.counter_bits
    }

    fn slot(&self, label: u32, across: u32, counters: u32) -> u32 {
        ((rank(label) << LABEL | rank(across)) << self.counter_bits) | counters
    }

    /// One cell's transition table.
    fn cell_table(&self, cell: usize) -> (Vec<Range>, Vec<Succ>) {
        let (row, col) = (cell / self.width, cell % self.width);
        let last = col + 1 == self.width;
        let mut ranges = Vec::new();
        let mut succs = Vec::new();
        for low in 0..1u32 << (self.low() + LABEL) {
            let start = succs.len() as u32;
            let up = low >> (LABEL + self.counter_bits);
            let across = (low >> self.counter_bits) & ((1 << LABEL) - 1);
            let counters = low & ((1 << self.counter_bits) - 1);
            let up_goes_on = up >= 2;
            let across_goes_on = across >= 2;
            if up_goes_on && across_goes_on {
            } else if up_goes_on {
                let k = up - 1;
                let label = if k > 1 { k } else { 0 };
                succs.push((self.slot(label, 0, 0) | SHIP, 0));
            } else if across_goes_on {
                let k = across - 1;
                let next = if k > 1 && !last { k } else { 0 };
                succs.push((self.slot(0, next, 0) | SHIP, 0));
            } else {
                succs.push((self.slot(0, 0, 0), 0));
                for &(len, count, shift, bits) in &self.types {
                    if (counters >> shift) & ((1 << bits) - 1) >= count {
                        continue;
                    }
                    let one = 1 << shift;
                    if col + len as usize <= self.width {
                        let next = if len > 1 { len } else { 0 };
                        succs.push(((self.slot(0, next, 0) + one) | SHIP, len));
                    }
                    if len > 1 && row + len as usize <= self.height {
                        succs.push(((self.slot(len, 0, 0) + one) | SHIP, 0));
                    }
                }
            }
            ranges.push((start, succs.len() as u32));
        }
        (ranges, succs)
    }

    /// The key of a slot's successor, less its group.
    fn slot_key(&self, slot: usize) -> u64 {
        let counters = slot as u64 & ((1 << self.counter_bits) - 1);
        let across = (slot >> self.counter_bits) as u64 & ((1 << LABEL) - 1);
        let label = (slot >> (self.counter_bits + LABEL)) as u64;
        let unrank = |r: u64| if r == 0 { 0 } else { r + 1 };
        (unrank(label) << (self.low() + (self.width as u32 - 1) * LABEL))
            | (unrank(across) << self.counter_bits)
            | counters
    }

    /// The layouts, and with `per_cell` the layouts covering each cell.
    fn count(&self, per_cell: bool) -> (u128, Vec<u128>) {
        let low = self.low();
        let group_shift = low + LABEL;
        let slots = self.slots();
        let slot_keys: Vec<u64> = (0..slots).map(|s| self.slot_key(s)).collect();
        let list_of = |slot: usize| slot >> (self.counter_bits + LABEL);
        let lists = 1 << LABEL;
        let mut layer: Vec<Vec<(u64, u64)>> = vec![vec![(0, 1)]];
        let mut next: Vec<Vec<(u64, u64)>> = (0..lists).map(|_| Vec::new()).collect();
        let mut sums = vec![0u64; slots];
        // The slots in use, and the words of `used` with any.
        let mut used = vec![0u64; slots.div_ceil(64)];
        assert!(used.len() <= 64, "a word of `words` per word of `used`");
        let mut words = 0u64;
        let mut place = vec![0u32; slots];
        // Per cell, for the backward pass: the forward counts, each state's number of
        // successors, and each successor's index in the next layer with SHIP.
        let mut trails: Vec<(Vec<u64>, Vec<u8>, Vec<u32>)> = Vec::new();
        for cell in 0..self.width * self.height {
            let col = cell % self.width;
            let (ranges, succs) = (&self.ranges[cell], &self.succs[cell]);
            let mut degrees = Vec::new();
            let mut edges: Vec<u32> = Vec::new();
            let mut counts = Vec::new();
            for piece in &layer {
                let mut i = 0;
                while i < piece.len() {
                    let group = piece[i].0 >> group_shift;
                    // How far right the first ship still going down is, in the row above.
                    let block = (1..self.width - col)
                        .find(|&j| (piece[i].0 >> (low + j as u32 * LABEL)) & 0b110 != 0)
                        .unwrap_or(usize::MAX);
                    let first_edge = edges.len();
                    while i < piece.len() && piece[i].0 >> group_shift == group {
                        let (key, n) = piece[i];
                        let counters = key & ((1 << self.counter_bits) - 1);
                        let (from, to) = ranges[(key & ((1 << group_shift) - 1)) as usize];
                        let before = edges.len();
                        for &(slot, across) in &succs[from as usize..to as usize] {
                            if across as usize > block {
                                continue;
                            }
                            let s = ((slot & !SHIP) as u64 + counters) as usize;
                            sums[s] += n;
                            used[s / 64] |= 1 << (s % 64);
                            words |= 1 << (s / 64);
                            if per_cell {
                                edges.push(s as u32 | (slot & SHIP));
                            }
                        }
                        if per_cell {
                            degrees.push((edges.len() - before) as u8);
                            counts.push(n);
                        }
                        i += 1;
                    }
                    // The group's successors, in order of their slots, to their lists.
                    let prefix = group << low;
                    while words != 0 {
                        let w = words.trailing_zeros() as usize;
                        words &= words - 1;
                        let mut word = std::mem::take(&mut used[w]);
                        while word != 0 {
                            let s = w * 64 + word.trailing_zeros() as usize;
                            word &= word - 1;
                            let list = &mut next[list_of(s)];
                            if per_cell {
                                place[s] = (list_of(s) as u32) << 27 | list.len() as u32;
                            }
                            list.push((slot_keys[s] | prefix, sums[s]));
                            sums[s] = 0;
                        }
                    }
                    for e in &mut edges[first_edge..] {
                        *e = place[(*e & !SHIP) as usize] | (*e & SHIP);
                    }
                }
            }
            if per_cell {
                // Each list's index in the next layer.
                let mut starts = vec![0u32; lists];
                for l in 1..lists {
                    starts[l] = starts[l - 1] + next[l - 1].len() as u32;
                }
                for e in &mut edges {
                    let list = ((*e & !SHIP) >> 27) as usize;
                    *e = (starts[list] + (*e & ((1 << 27) - 1))) | (*e & SHIP);
                }
                trails.push((counts, degrees, edges));
            }
            let spent = std::mem::replace(&mut layer, std::mem::take(&mut next));
            next = spent;
            next.iter_mut().for_each(Vec::clear);
            next.resize_with(lists, Vec::new);
        }
        let full: u64 = self
            .types
            .iter()
            .map(|&(_, count, shift, _)| u64::from(count) << shift)
            .sum();
        let last: Vec<(u64, u64)> = layer.into_iter().flatten().collect();
        let finished = |k: u64| k & ((1 << self.counter_bits) - 1) == full;
        let total = last
            .iter()
            .filter(|&&(k, _)| finished(k))
            .map(|&(_, n)| u128::from(n))
            .sum();
        let mut cells = Vec::new();
        if per_cell {
            cells = vec![0u128; self.width * self.height];
            // A finished layout's one completion: none to add.
            let mut after: Vec<u64> = last.iter().map(|&(k, _)| u64::from(finished(k))).collect();
            for (cell, (counts, degrees, edges)) in trails.iter().enumerate().rev() {
                let mut here = Vec::with_capacity(degrees.len());
                let mut k = 0;
                for (&n, &d) in counts.iter().zip(degrees) {
                    let (mut all, mut ship) = (0u64, 0u64);
                    for &e in &edges[k..k + usize::from(d)] {
                        let c = after[(e & !SHIP) as usize];
                        all += c;
                        if e & SHIP != 0 {
                            ship += c;
                        }
                    }
                    k += usize::from(d);
                    here.push(all);
                    cells[cell] += u128::from(n) * u128::from(ship);
                }
                after = here;
            }
        }
        (total, cells)
    }
}

fn bench(c: &mut Criterion) {
    let problem = ProblemSpec::empty(
        Dims::new(10, 10),
        Fleet::straight(&[5, 4, 3, 3, 2]),
        Rules::Touch,
    )
    .build()
    .unwrap();
    let one_thread = |per_cell| CountOptions {
        per_cell,
        parallel: false,
        ..Default::default()
    };
    let engine = Engine::Dp.count(&problem, &one_thread(true)).unwrap();
    let pass = Pass::new(10, 10, &[(5, 1), (4, 1), (3, 2), (2, 1)]);
    let (total, cells) = pass.count(true);
    assert_eq!(total, 15_046_987_768);
    assert_eq!(total, engine.count);
    assert_eq!(
        Some(&cells),
        engine.per_cell.as_ref(),
        "the engine's per-cell counts"
    );
    let mut g = c.benchmark_group("dp_key");
    g.sample_size(10);
    g.bench_function("10x10 {5,4,3,3,2} touch, count, engine, 1 thread", |b| {
        b.iter(|| {
            let r = Engine::Dp.count(&problem, &one_thread(false)).unwrap();
            assert_eq!(r.count, total);
            black_box(r)
        })
    });
    g.bench_function(
        "10x10 {5,4,3,3,2} touch, count, youngest first, 1 thread",
        |b| {
            b.iter(|| {
                let r = pass.count(false);
                assert_eq!(r.0, total);
                black_box(r)
            })
        },
    );
    g.bench_function("10x10 {5,4,3,3,2} touch, per-cell, engine, 1 thread", |b| {
        b.iter(|| {
            let r = Engine::Dp.count(&problem, &one_thread(true)).unwrap();
            assert_eq!(r.count, total);
            black_box(r)
        })
    });
    g.bench_function(
        "10x10 {5,4,3,3,2} touch, per-cell, youngest first, 1 thread",
        |b| {
            b.iter(|| {
                let r = pass.count(true);
                assert_eq!(r.1, cells);
                black_box(r)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
