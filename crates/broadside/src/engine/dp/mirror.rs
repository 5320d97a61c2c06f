//! The board's left-right mirror, which halves the tight pass on a problem it maps onto
//! itself, and its up-down flip, which halves the per-cell counts' trails and backward pass
//! on a problem it maps onto itself.
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
//!
//! The flip cannot fold a row-major pass (a row's states are not the flips of another's), but
//! on a problem it maps onto itself a cell's count is its flipped cell's: every layout
//! flipped is one of the problem's. So the per-cell counts need working out for the rows
//! from the middle down alone ([`first_unflipped`]), whose layers are the smaller (the
//! fleet's last ships are forced there): the forward pass keeps its trails for those rows
//! only, the backward pass stops at the middle, and the rows above are copied
//! ([`unflip_cells`]). On the empty 10x10 board that leaves 3.4 of the 8.7 million states'
//! trails touching (docs/PERFORMANCE.md).

use rayon::slice::ParallelSliceMut;

use super::DpEngine;
use super::forward;
use super::state::{ACROSS, DOWN, Key, SINGLE};
use super::tight::stretch;

impl DpEngine {
    /// Whether the left-right mirror maps the problem onto itself: every water and ship clue
    /// onto one of its kind, every placement the problem allows onto one it allows.
    pub(super) fn mirror_symmetric(&self) -> bool {
        let w = self.dims.width;
        self.maps_onto_itself(|r, c| (r, w - 1 - c))
    }

    /// Whether the up-down flip maps the problem onto itself, as
    /// [`DpEngine::mirror_symmetric`] asks of the left-right mirror.
    pub(super) fn flip_symmetric(&self) -> bool {
        let h = self.dims.height;
        self.maps_onto_itself(|r, c| (h - 1 - r, c))
    }

    /// Whether `image` (a cell's row and column to its image's) maps every water and ship
    /// clue onto one of its kind and every placement the problem allows onto one it allows.
    fn maps_onto_itself(&self, image: impl Fn(usize, usize) -> (usize, usize)) -> bool {
        let (w, h) = (self.dims.width, self.dims.height);
        let types = self.lens.len();
        let image_of = |r: usize, c: usize| {
            let (r, c) = image(r, c);
            self.dims.index(r, c)
        };
        (0..self.dims.cells()).all(|cell| {
            let (r, c) = self.dims.row_col(cell);
            let m = image_of(r, c);
            if self.water[cell] != self.water[m] || self.ship[cell] != self.ship[m] {
                return false;
            }
            (0..types).all(|t| {
                let (start, len) = (self.starts[cell * types + t], self.lens[t]);
                // A placement's image starts at the image of whichever of its two ends comes
                // first in reading order.
                let maps = |bit: u8, (dr, dc): (usize, usize)| {
                    let (er, ec) = (r + dr * (len - 1), c + dc * (len - 1));
                    start & bit == 0
                        || (er < h
                            && ec < w
                            && self.starts[m.min(image_of(er, ec)) * types + t] & bit != 0)
                };
                maps(SINGLE, (0, 0)) && maps(ACROSS, (0, 1)) && maps(DOWN, (1, 0))
            })
        })
    }
}

/// The first cell whose count a problem the up-down flip maps onto itself needs worked
/// out: that of the middle row (or of the row below the middle), the counts of the rows
/// above being those of the rows they flip to ([`unflip_cells`]).
pub(super) fn first_unflipped(width: usize, height: usize) -> usize {
    height / 2 * width
}

/// The per-cell counts of the whole board from those of its rows from
/// [`first_unflipped`] on (`bottom`), on a problem the up-down flip maps onto itself: a
/// cell's count is its flipped cell's, as every layout flipped is one of the problem's.
pub(super) fn unflip_cells(bottom: &[u128], width: usize, height: usize) -> Vec<u128> {
    let first = first_unflipped(width, height);
    debug_assert_eq!(first + bottom.len(), width * height);
    (0..width * height)
        .map(|cell| {
            let (r, c) = (cell / width, cell % width);
            let r = r.max(height - 1 - r);
            bottom[r * width + c - first]
        })
        .collect()
}

/// A state key at the start of a row, mirrored: its labels in reverse order, the bits below
/// them (the fleet counters; the ship across and the diagonal are clear there) kept.
pub(super) struct Mirror {
    label_bits: u32,
    /// The bits below the labels.
    low: u32,
    /// The bits of the labels.
    bits: u32,
    /// The lowest bit of every label.
    ones: Key,
}

impl Mirror {
    /// The mirror of keys with `width` labels of `label_bits` bits above `low` other bits.
    pub(super) fn new(width: usize, label_bits: u32, low: u32) -> Self {
        let bits = width as u32 * label_bits;
        debug_assert!(bits >= 1 && low + bits <= Key::BITS);
        Mirror {
            label_bits,
            low,
            bits,
            ones: (0..width as u32).fold(0, |m, i| m | 1 << (i * label_bits)),
        }
    }

    /// The mirror image of `key`: its label bits reversed, which reverses the labels' order
    /// and each label's bits, then each label's bits put back in order (a few register
    /// operations; by table lookups this was most of the fold's time).
    #[inline]
    pub(super) fn of(&self, key: Key) -> Key {
        let lb = self.label_bits;
        let r = (key >> self.low).reverse_bits() >> (Key::BITS - self.bits);
        let mut labels = 0;
        for j in 0..lb {
            labels |= ((r >> j) & self.ones) << (lb - 1 - j);
        }
        (labels << self.low) | (key & ((1 << self.low) - 1))
    }

    /// Folds a layer at the start of a row, its states in key order (equal keys side by side)
    /// through its stretches: each state whose mirror image has a smaller key is summed into
    /// that image (which comes into the layer if it was not there). The folded layer comes
    /// out in key order, equal keys summed, as one stretch for each of `outs` (cleared
    /// first), made side by side by as many workers. With `map`, each state's index in it,
    /// in the layer's order. `None` where a sum passes 64 bits.
    pub(super) fn fold(
        &self,
        layer: &[Vec<(Key, u64)>],
        scratch: &mut Folding,
        mut outs: Vec<Vec<(Key, u64)>>,
        mut map: Option<&mut Vec<u32>>,
    ) -> Option<Vec<Vec<(Key, u64)>>> {
        let n: usize = layer.iter().map(Vec::len).sum();
        if outs.is_empty() {
            outs.push(Vec::new());
        }
        let parts = outs.len();
        // The states whose image is smaller, each worker those of its share, with their
        // indices; then all of them in key order.
        scratch.pieces.resize_with(parts, Vec::new);
        let work: Vec<_> = std::mem::take(&mut scratch.pieces)
            .into_iter()
            .enumerate()
            .map(|(p, piece)| {
                (
                    n * p / parts,
                    stretch(layer, n * p / parts, n * (p + 1) / parts),
                    piece,
                )
            })
            .collect();
        scratch.pieces = forward::run(work, |(first, states, mut piece)| {
            piece.clear();
            let all = states.iter().flat_map(|s| s.iter());
            for (i, &(k, c)) in all.enumerate() {
                let m = self.of(k);
                if m < k {
                    piece.push((m, c, (first + i) as u32));
                }
            }
            piece
        });
        let (moved, skips) = (&mut scratch.moved, &mut scratch.skips);
        moved.clear();
        skips.clear();
        for piece in &scratch.pieces {
            moved.extend_from_slice(piece);
            // Their indices, in the layer's order: the merge passes over them.
            skips.extend(piece.iter().map(|x| x.2));
        }
        moved.par_sort_unstable_by_key(|x| x.0);
        // Each worker merges the states of a range of keys, cut where a key begins.
        let key_at = |mut i: usize| {
            for piece in layer {
                if i < piece.len() {
                    return piece[i].0;
                }
                i -= piece.len();
            }
            unreachable!("an index within the layer")
        };
        let mut cuts = vec![(0, 0)];
        for p in 1..parts {
            let mut i = (n * p / parts).max(cuts[p - 1].0);
            if i < n {
                let k = key_at(i);
                while i > cuts[p - 1].0 && key_at(i - 1) == k {
                    i -= 1;
                }
            }
            let j = if i < n {
                let k = key_at(i);
                moved.partition_point(|x| x.0 < k)
            } else {
                moved.len()
            };
            cuts.push((i, j.max(cuts[p - 1].1)));
        }
        cuts.push((n, moved.len()));
        let at = &mut scratch.at;
        at.clear();
        at.resize(moved.len(), 0);
        if let Some(map) = map.as_deref_mut() {
            map.clear();
            map.resize(n, 0);
        }
        let mut places: Vec<Option<&mut [u32]>> = Vec::new();
        let mut rest = map.as_deref_mut().map(|m| &mut m[..]);
        let mut ats: Vec<&mut [u32]> = Vec::new();
        let mut at_rest = &mut at[..];
        for p in 0..parts {
            let len = cuts[p + 1].0 - cuts[p].0;
            places.push(rest.take().map(|r| {
                let (here, tail) = r.split_at_mut(len);
                rest = Some(tail);
                here
            }));
            let (here, tail) = at_rest.split_at_mut(cuts[p + 1].1 - cuts[p].1);
            ats.push(here);
            at_rest = tail;
        }
        let work: Vec<_> = (0..parts)
            .zip(places)
            .zip(ats)
            .map(|((p, place), at)| {
                let (i, j) = cuts[p];
                let (i2, j2) = cuts[p + 1];
                let skip_from = skips.partition_point(|&x| (x as usize) < i);
                let skip_to = skips.partition_point(|&x| (x as usize) < i2);
                (
                    (stretch(layer, i, i2), i),
                    (&moved[j..j2], &skips[skip_from..skip_to]),
                    place,
                    at,
                    std::mem::take(&mut outs[p]),
                )
            })
            .collect();
        let done = forward::run(
            work,
            |((states, first), (moved, skips), mut place, at, mut out)| {
                out.clear();
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
                let (mut j, mut skip) = (0, 0);
                for (i, &(k, c)) in states.iter().flat_map(|s| s.iter()).enumerate() {
                    if skips.get(skip) == Some(&((first + i) as u32)) {
                        skip += 1;
                        continue;
                    }
                    while j < moved.len() && moved[j].0 < k {
                        at[j] = put(&mut out, (moved[j].0, moved[j].1));
                        j += 1;
                    }
                    let here = put(&mut out, (k, c));
                    if let Some(place) = place.as_deref_mut() {
                        place[i] = here;
                    }
                }
                while j < moved.len() {
                    at[j] = put(&mut out, (moved[j].0, moved[j].1));
                    j += 1;
                }
                (out, overflow)
            },
        );
        if done.iter().any(|d| d.1) {
            return None;
        }
        let outs: Vec<Vec<(Key, u64)>> = done.into_iter().map(|d| d.0).collect();
        if let Some(map) = map {
            // Each worker's indices were its own: past the stretches before its. The states
            // kept first, then those summed into their images (which may lie in any range).
            let offsets: Vec<u32> = outs
                .iter()
                .scan(0, |sum, out| {
                    let at = *sum;
                    *sum += out.len() as u32;
                    Some(at)
                })
                .collect();
            for (p, &offset) in offsets.iter().enumerate() {
                map[cuts[p].0..cuts[p + 1].0]
                    .iter_mut()
                    .for_each(|x| *x += offset);
            }
            for (p, &offset) in offsets.iter().enumerate() {
                let (j, j2) = (cuts[p].1, cuts[p + 1].1);
                for (m, &a) in moved[j..j2].iter().zip(&at[j..j2]) {
                    map[m.2 as usize] = a + offset;
                }
            }
        }
        Some(outs)
    }
}

/// The fold's scratch, kept from row to row: the states each worker found with a smaller
/// image, all of them in key order, their indices in the layer's order, and their places
/// in the folded layer.
#[derive(Default)]
pub(super) struct Folding {
    pieces: Vec<Vec<(Key, u64, u32)>>,
    moved: Vec<(Key, u64, u32)>,
    skips: Vec<u32>,
    at: Vec<u32>,
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
        let mut want = vec![(key(1, 0, 0), 10), (key(2, 0, 0), 4), (key(1, 2, 1), 5)];
        want.sort_unstable();
        // In one stretch or cut among workers, from a layer in one stretch or two.
        let (mut scratch, mut map) = (Folding::default(), Vec::new());
        for workers in 1..=3 {
            for layer in [
                vec![states.to_vec()],
                vec![states[..1].to_vec(), states[1..].to_vec()],
            ] {
                let outs = vec![Vec::new(); workers];
                let folded = mirror
                    .fold(&layer, &mut scratch, outs, Some(&mut map))
                    .unwrap();
                assert_eq!(folded.len(), workers);
                let out: Vec<(Key, u64)> = folded.concat();
                assert_eq!(out, want, "{workers} workers");
                for (i, &(k, _)) in states.iter().enumerate() {
                    assert_eq!(out[map[i] as usize].0, k.min(mirror.of(k)));
                }
            }
        }
        let overflowing = vec![vec![(key(1, 0, 0), u64::MAX), (key(0, 0, 1), 1)]];
        let folded = mirror.fold(&overflowing, &mut scratch, vec![Vec::new()], None);
        assert_eq!(folded, None);
    }
}
