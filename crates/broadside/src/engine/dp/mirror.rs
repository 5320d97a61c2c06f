//! The board's left-right mirror, which halves the tight pass on a problem it maps onto
//! itself.
//!
//! Where the mirror maps every placement the problem allows, and every water and ship clue,
//! onto one it allows (the empty board, and any position whose shots are symmetric), the
//! layouts that complete a state at the start of a row are, mirrored, the layouts that
//! complete its mirror image: the rows below are the same problem either way round. So the
//! forward pass may keep one state of each mirror pair at every row's start (the smaller
//! key) with the partial layouts of both, as if those that reached the other had been
//! mirrored: every layout is still counted once, now with some of its rows mirrored. On the
//! empty 10x10 board this keeps about half the states (8.7 of 17.4 million touching, 6.5 of
//! 14.0 million not; docs/PERFORMANCE.md).
//!
//! The count is the same. A cell's count is not, but a row mirrored moves a ship from a cell
//! to the mirrored cell of the same row, so a cell's count and its mirror's add up to the
//! same sum as before; on a problem the mirror maps onto itself the two counts are equal, so
//! each is half that sum ([`unfold_cells`]).

use super::DpEngine;
use super::state::{ACROSS, DOWN, Key, SINGLE};

/// The most key bits a [`Mirror`] reverses with one table lookup.
const CHUNK_BITS: u32 = 12;

impl DpEngine {
    /// Whether the left-right mirror maps the problem onto itself: every water and ship clue
    /// onto one of its kind, every placement the problem allows onto one it allows.
    pub(super) fn mirror_symmetric(&self) -> bool {
        let w = self.dims.width;
        let types = self.lens.len();
        (0..self.dims.cells()).all(|cell| {
            let (r, c) = self.dims.row_col(cell);
            let m = self.dims.index(r, w - 1 - c);
            if self.water[cell] != self.water[m] || self.ship[cell] != self.ship[m] {
                return false;
            }
            (0..types).all(|t| {
                let start = self.starts[cell * types + t];
                let has = |cell: usize, bit: u8| self.starts[cell * types + t] & bit != 0;
                let single = start & SINGLE == 0 || has(m, SINGLE);
                let down = start & DOWN == 0 || has(m, DOWN);
                // A ship across from column c ends at c + len - 1, which mirrors to the
                // start of the mirrored ship.
                let across = start & ACROSS == 0
                    || (c + self.lens[t] <= w
                        && has(self.dims.index(r, w - c - self.lens[t]), ACROSS));
                single && down && across
            })
        })
    }
}

/// A state key at the start of a row, mirrored: its labels in reverse order, the bits below
/// them (the fleet counters; the ship across and the diagonal are clear there) kept.
pub(super) struct Mirror {
    width: usize,
    label_bits: u32,
    /// The bits below the labels.
    low: u32,
    /// Labels reversed per table lookup.
    per: usize,
    /// Per value of `per` labels: the labels in reverse order.
    reversed: Vec<Key>,
}

impl Mirror {
    /// The mirror of keys with `width` labels of `label_bits` bits above `low` other bits.
    pub(super) fn new(width: usize, label_bits: u32, low: u32) -> Self {
        let per = ((CHUNK_BITS / label_bits) as usize).clamp(1, width);
        let mask: Key = (1 << label_bits) - 1;
        let reversed = (0..1 << (per as u32 * label_bits))
            .map(|x: Key| {
                (0..per).fold(0, |r, i| {
                    r | ((x >> (i as u32 * label_bits)) & mask)
                        << ((per - 1 - i) as u32 * label_bits)
                })
            })
            .collect();
        Mirror {
            width,
            label_bits,
            low,
            per,
            reversed,
        }
    }

    /// The mirror image of `key`.
    #[inline]
    pub(super) fn of(&self, key: Key) -> Key {
        let (w, lb, per) = (self.width, self.label_bits, self.per);
        let labels = key >> self.low;
        let mut out = key & ((1 << self.low) - 1);
        let mut start = 0;
        while start < w {
            let len = per.min(w - start);
            let chunk = (labels >> (start as u32 * lb)) & ((1 << (len as u32 * lb)) - 1);
            let back = self.reversed[chunk as usize] >> ((per - len) as u32 * lb);
            out |= back << (self.low + (w - start - len) as u32 * lb);
            start += len;
        }
        out
    }

    /// Folds a layer at the start of a row, its `states` in key order (equal keys side by
    /// side): each state whose mirror image has a smaller key is summed into that image (which
    /// comes into the layer if it was not there), into `out`, cleared first, in key order
    /// with equal keys summed; `moved` is scratch. With `map`, each state's index in `out`,
    /// in the order of `states`. `None` where a sum passes 64 bits.
    pub(super) fn fold<'a>(
        &self,
        states: impl Iterator<Item = &'a (Key, u64)> + Clone,
        moved: &mut Vec<(Key, u64, u32)>,
        out: &mut Vec<(Key, u64)>,
        mut map: Option<&mut Vec<u32>>,
    ) -> Option<()> {
        moved.clear();
        out.clear();
        let mut n = 0u32;
        for &(k, c) in states.clone() {
            let m = self.of(k);
            if m < k {
                moved.push((m, c, n));
            }
            n += 1;
        }
        moved.sort_unstable_by_key(|x| x.0);
        if let Some(map) = map.as_deref_mut() {
            map.clear();
            map.resize(n as usize, 0);
        }
        let mut overflow = false;
        // Puts a state into `out`, summed with the last when the keys are equal; its index.
        let mut put = |out: &mut Vec<(Key, u64)>, (k, c): (Key, u64)| -> u32 {
            match out.last_mut() {
                Some(last) if last.0 == k => {
                    let (sum, o) = last.1.overflowing_add(c);
                    last.1 = sum;
                    overflow |= o;
                }
                _ => out.push((k, c)),
            }
            out.len() as u32 - 1
        };
        let mut j = 0;
        for (i, &(k, c)) in states.enumerate() {
            if self.of(k) < k {
                continue;
            }
            while j < moved.len() && moved[j].0 < k {
                let at = put(out, (moved[j].0, moved[j].1));
                if let Some(map) = map.as_deref_mut() {
                    map[moved[j].2 as usize] = at;
                }
                j += 1;
            }
            let at = put(out, (k, c));
            if let Some(map) = map.as_deref_mut() {
                map[i] = at;
            }
        }
        for &(m, c, i) in &moved[j..] {
            let at = put(out, (m, c));
            if let Some(map) = map.as_deref_mut() {
                map[i as usize] = at;
            }
        }
        (!overflow).then_some(())
    }
}

/// The per-cell counts of a pass that folded its rows (`folded`, row by row, `width` wide):
/// each cell's count and its mirror's, halved.
pub(super) fn unfold_cells(folded: &[u128], width: usize) -> Vec<u128> {
    (0..folded.len())
        .map(|cell| {
            let (r, c) = (cell / width, cell % width);
            let m = r * width + width - 1 - c;
            // Both counts are at most the total, which is below 2^64 · 2^64 here.
            (folded[cell] + folded[m]) / 2
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key's mirror reverses its labels and keeps the bits below them, for widths that are
    /// and are not a multiple of the labels a lookup reverses.
    #[test]
    fn the_mirror_reverses_the_labels() {
        for (width, lb, low) in [(10, 3, 9), (7, 3, 5), (5, 4, 2), (1, 2, 3), (13, 3, 4)] {
            let mirror = Mirror::new(width, lb, low);
            let labels: Vec<Key> = (0..width as Key).map(|i| (i * 5 + 1) % (1 << lb)).collect();
            let pack = |ls: &[Key]| {
                ls.iter()
                    .enumerate()
                    .fold(0b101 & ((1 << low) - 1), |k, (i, &l)| {
                        k | l << (low + i as u32 * lb)
                    })
            };
            let back: Vec<Key> = labels.iter().rev().copied().collect();
            assert_eq!(mirror.of(pack(&labels)), pack(&back), "{width} {lb} {low}");
            assert_eq!(mirror.of(mirror.of(pack(&labels))), pack(&labels));
        }
    }

    /// The fold sums each state into the smaller of it and its mirror image, in key order, and
    /// maps every state to its place.
    #[test]
    fn the_fold_sums_mirror_pairs() {
        let mirror = Mirror::new(3, 2, 1);
        let key = |a: Key, b: Key, c: Key| (a | b << 2 | c << 4) << 1;
        // (1,0,0) and (0,0,1) are a pair, (1,2,1) its own mirror, (2,0,0) the smaller of
        // its pair and alone.
        let mut states = [
            (key(1, 0, 0), 3),
            (key(2, 0, 0), 4),
            (key(1, 2, 1), 5),
            (key(0, 0, 1), 7),
        ];
        states.sort_unstable();
        let (mut moved, mut out, mut map) = (Vec::new(), Vec::new(), Vec::new());
        mirror
            .fold(states.iter(), &mut moved, &mut out, Some(&mut map))
            .unwrap();
        let mut want = vec![(key(1, 0, 0), 10), (key(2, 0, 0), 4), (key(1, 2, 1), 5)];
        want.sort_unstable();
        assert_eq!(out, want);
        for (i, &(k, _)) in states.iter().enumerate() {
            assert_eq!(out[map[i] as usize].0, k.min(mirror.of(k)));
        }
        assert_eq!(
            mirror.fold(
                [(key(1, 0, 0), u64::MAX), (key(0, 0, 1), 1)].iter(),
                &mut moved,
                &mut out,
                None
            ),
            None
        );
    }
}
