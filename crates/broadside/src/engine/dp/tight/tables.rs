//! The tight passes' tables: per cell (or pair of cells), the transitions of each value of
//! a key's low bits, numbered by the successors' slots, made by running [`DpEngine::step`]
//! on keys whose other labels are free.

use super::super::DpEngine;
use super::super::state::{DONE, Key, Move};
use super::{LEFT_FREE, MOST_TABLE_BITS, SHIP, SHIP_TOO, UP_RIGHT_FREE, set};

/// One transition out of a value of the low bits.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    /// The successor's low bits and new labels (its slot), with [`SHIP`] (and over a pair of
    /// cells `SHIP_TOO`); in a [`StepTable`], the slot's number among the step's slots.
    pub(super) slot: u32,
    /// [`LEFT_FREE`] and [`UP_RIGHT_FREE`]: what the group must have free.
    pub(super) needs: u8,
    /// For a ship across that starts: how far right the row above must let it reach (the
    /// first blocking cell above is at least this far); 0 otherwise.
    pub(super) reach: u8,
    /// The move's [`Move::code`], for the sampler.
    pub(super) code: u16,
}

/// The layout of a key and the transition tables.
pub(super) struct Tables {
    pub(super) width: usize,
    pub(super) label_bits: u32,
    /// Bits below the labels: the ship across, the diagonal bit (under no-touch) and the
    /// counters.
    pub(super) low: u32,
    pub(super) counter_bits: u32,
    pub(super) diag_bits: u32,
    /// Per step of one cell and of two, per column: the bits of the group's labels above to
    /// the right that block a ship across.
    pub(super) above_right: [Vec<Key>; 2],
    /// Whether a step may take two cells at once (its tables fit).
    pub(super) pairs: bool,
}

impl Tables {
    /// The bits of a table's index (the key's low bits and its `cells` oldest labels) and of
    /// a slot, for a step over `cells` cells.
    pub(super) fn table_bits(&self, cells: u32) -> u32 {
        self.low + cells * self.label_bits
    }
}

/// One step's transitions: per value of a key's low `low + cells * label_bits` bits, the
/// range of its entries (empty for a value not tabled).
pub(super) struct CellTable {
    pub(super) ranges: Vec<(u32, u32)>,
    pub(super) entries: Vec<Entry>,
    /// The step's (first) cell.
    pub(super) cell: usize,
    /// The cells the step covers: one, or two side by side in a row.
    pub(super) cells: u32,
}

/// A step's table as the pass reads it: its entries' slots numbered in order among the slots
/// the step has (a few hundred on the empty 10x10 board, of up to 2^16), so that the sums of
/// a group's successors, and the words marking those in use, are as many and sit close.
pub(super) struct StepTable {
    /// The table, each entry's slot replaced by its number.
    pub(super) table: CellTable,
    /// Per slot number, in order: the successor's key less its group's labels, and its list
    /// (its new labels).
    pub(super) slots: Vec<(Key, u32)>,
}

impl CellTable {
    /// The table with its slots numbered in order, for the pass.
    pub(super) fn numbered(mut self, t: &Tables) -> StepTable {
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

impl DpEngine {
    /// The tables of the tight pass, `None` when the problem's keys are too wide for them.
    pub(super) fn tight_tables(&self) -> Option<Tables> {
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
    pub(super) fn cell_table(&self, t: &Tables, cell: usize, only: Option<&[u64]>) -> CellTable {
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
                        let reach = if dir == super::super::state::Dir::Across {
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
    pub(super) fn pair_table(&self, t: &Tables, cell: usize, only: Option<&[u64]>) -> CellTable {
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
}
