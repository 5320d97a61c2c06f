//! Summing the successors of one group of states into sorted, distinct keys.
//!
//! The successors of a group share every field but the lowest `bits` of their keys (the
//! youngest label and the fields below it). When those bits are few, the successors are
//! summed in a table indexed by them, and a three-level bitmap of the entries in use reads
//! them back in increasing order: no comparison sort. Otherwise they are sorted.

use super::state::{Key, Piece, Tally};

/// The most low bits a table is kept for: 2^18 entries, 3 MiB per worker.
pub(super) const MAX_TABLE_BITS: u32 = 18;

/// Sums successors pushed one by one, then writes the distinct keys in order with their
/// sums. Each push gets a slot; once written, [`Gather::position`] says where the slot's key
/// went.
pub(super) enum Gather<C = u64> {
    Table(Table<C>),
    Sort(Sort<C>),
}

impl<C: Tally> Gather<C> {
    /// A gatherer for successors differing in their lowest `bits` bits: a table when
    /// `bits` is at most `table_bits`.
    pub(super) fn new(bits: u32, table_bits: u32) -> Gather<C> {
        if bits <= table_bits {
            Gather::Table(Table::new(bits))
        } else {
            Gather::Sort(Sort::default())
        }
    }

    /// Adds `n` to the successor `key`; returns its slot.
    #[inline]
    pub(super) fn push(&mut self, key: Key, n: C) -> u32 {
        match self {
            Gather::Table(t) => t.push(key, n),
            Gather::Sort(s) => s.push(key, n),
        }
    }

    /// Appends the distinct successors pushed since the last call, in key order, with their
    /// sums, to `out`; false if a sum overflowed. With `positions`, [`Gather::position`]
    /// then answers for this batch's slots.
    pub(super) fn write(&mut self, out: &mut Piece<C>, positions: bool) -> bool {
        match self {
            Gather::Table(t) => t.write(out, positions),
            Gather::Sort(s) => s.write(out, positions),
        }
    }

    /// Where the successor of `slot` went in the piece last written to.
    #[inline]
    pub(super) fn position(&self, slot: u32) -> u32 {
        match self {
            Gather::Table(t) => t.index[slot as usize],
            Gather::Sort(s) => s.index[slot as usize],
        }
    }
}

/// Sums in a table indexed by the low bits, with a bitmap of the entries in use.
pub(super) struct Table<C> {
    bits: u32,
    /// The high bits the batch's keys share.
    high: Key,
    sums: Vec<C>,
    /// Per entry, its position in the piece last written to.
    index: Vec<u32>,
    /// Entries in use; words of `used` in use; words of `words` in use.
    used: Vec<u64>,
    words: Vec<u64>,
    top: u64,
    ok: bool,
}

impl<C: Tally> Table<C> {
    fn new(bits: u32) -> Table<C> {
        let entries = 1usize << bits;
        let used = entries.div_ceil(64);
        Table {
            bits,
            high: 0,
            sums: vec![C::default(); entries],
            index: vec![0; entries],
            used: vec![0; used],
            words: vec![0; used.div_ceil(64)],
            top: 0,
            ok: true,
        }
    }

    #[inline]
    fn push(&mut self, key: Key, n: C) -> u32 {
        let s = (key & ((1 << self.bits) - 1)) as usize;
        self.high = key >> self.bits;
        let (w, b) = (s / 64, s % 64);
        if self.used[w] & (1 << b) == 0 {
            self.used[w] |= 1 << b;
            self.words[w / 64] |= 1 << (w % 64);
            self.top |= 1 << (w / 64);
            self.sums[s] = n;
        } else {
            match self.sums[s].checked_add(&n) {
                Some(x) => self.sums[s] = x,
                None => self.ok = false,
            }
        }
        s as u32
    }

    fn write(&mut self, out: &mut Piece<C>, positions: bool) -> bool {
        let high = self.high << self.bits;
        let mut top = std::mem::take(&mut self.top);
        while top != 0 {
            let v = top.trailing_zeros() as usize;
            top &= top - 1;
            let mut words = std::mem::take(&mut self.words[v]);
            while words != 0 {
                let w = v * 64 + words.trailing_zeros() as usize;
                words &= words - 1;
                let mut used = std::mem::take(&mut self.used[w]);
                while used != 0 {
                    let s = w * 64 + used.trailing_zeros() as usize;
                    used &= used - 1;
                    if positions {
                        self.index[s] = out.keys.len() as u32;
                    }
                    out.keys.push(high | s as Key);
                    out.counts.push(std::mem::take(&mut self.sums[s]));
                }
            }
        }
        std::mem::replace(&mut self.ok, true)
    }
}

/// Sums by sorting: (key, count, slot) per push.
pub(super) struct Sort<C> {
    buf: Vec<(Key, C, u32)>,
    index: Vec<u32>,
}

impl<C> Default for Sort<C> {
    fn default() -> Self {
        Sort {
            buf: Vec::new(),
            index: Vec::new(),
        }
    }
}

impl<C: Tally> Sort<C> {
    #[inline]
    fn push(&mut self, key: Key, n: C) -> u32 {
        let slot = self.buf.len() as u32;
        self.buf.push((key, n, slot));
        slot
    }

    fn write(&mut self, out: &mut Piece<C>, positions: bool) -> bool {
        self.buf.sort_unstable_by_key(|e| e.0);
        self.index.clear();
        if positions {
            self.index.resize(self.buf.len(), 0);
        }
        let mut ok = true;
        let mut entries = self.buf.drain(..);
        if let Some((mut key, mut n, slot)) = entries.next() {
            if positions {
                self.index[slot as usize] = out.keys.len() as u32;
            }
            for (k, m, slot) in entries {
                if k == key {
                    match n.checked_add(&m) {
                        Some(x) => n = x,
                        None => ok = false,
                    }
                } else {
                    out.keys.push(key);
                    out.counts.push(n);
                    (key, n) = (k, m);
                }
                if positions {
                    self.index[slot as usize] = out.keys.len() as u32;
                }
            }
            out.keys.push(key);
            out.counts.push(n);
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of gathering give the same sorted sums and positions.
    #[test]
    fn table_and_sort_agree() {
        let high: Key = 0b1011 << 12;
        let pushes: Vec<(Key, u64)> = (0..500u64)
            .map(|i| (high | ((i * 2654435761) % 4096 % 300), i + 1))
            .collect();
        let mut results = Vec::new();
        for mut g in [
            Gather::new(12, MAX_TABLE_BITS),
            Gather::Sort(Sort::default()),
        ] {
            let mut out = Piece::default();
            let slots: Vec<u32> = pushes.iter().map(|&(k, n)| g.push(k, n)).collect();
            assert!(g.write(&mut out, true));
            let positions: Vec<u32> = slots.iter().map(|&s| g.position(s)).collect();
            for (&(k, _), &p) in pushes.iter().zip(&positions) {
                assert_eq!(out.keys[p as usize], k);
            }
            assert!(out.keys.windows(2).all(|w| w[0] < w[1]));
            let total: u64 = out.counts.iter().sum();
            assert_eq!(total, pushes.iter().map(|p| p.1).sum::<u64>());
            results.push((out.keys, out.counts));
        }
        assert_eq!(results[0], results[1]);
    }

    /// An overflowing sum is reported, and the next batch starts clean.
    #[test]
    fn overflow_is_reported() {
        for mut g in [
            Gather::new(4, MAX_TABLE_BITS),
            Gather::Sort(Sort::default()),
        ] {
            let mut out = Piece::default();
            g.push(3, u64::MAX);
            g.push(3, 1);
            assert!(!g.write(&mut out, false));
            g.push(3, 1);
            assert!(g.write(&mut out, false));
            assert_eq!(out.counts.last(), Some(&1));
        }
    }
}
