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

use super::DpEngine;
use super::forward;
use super::state::{ACROSS, DOWN, Key, SINGLE, Stretch, stretch};

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
    #[cfg(test)]
    fn of(&self, key: Key) -> Key {
        self.of_by::<0>(key)
    }

    /// [`Mirror::of`] with labels of `LB` bits (of the mirror's, with 0).
    #[inline(always)]
    fn of_by<const LB: u32>(&self, key: Key) -> Key {
        let lb = if LB == 0 { self.label_bits } else { LB };
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
        let shares: Vec<usize> = (0..=parts).map(|p| n * p / parts).collect();
        let Folding {
            found,
            indices,
            runs,
        } = scratch;
        // Each worker splits the states of its share: those whose image is smaller, as their
        // images, from the start of its room on, the others from its end back. Its room,
        // from `starts[p]` on, has one place more than its states.
        let starts: Vec<usize> = (0..=parts).map(|p| shares[p] + p).collect();
        if found.len() < n + parts {
            found.resize(n + parts, (0, 0));
            indices.resize(n + parts, 0);
        }
        let mut work = Vec::new();
        let (mut found_rest, mut indices_rest) = (&mut found[..], &mut indices[..]);
        for p in 0..parts {
            let room = starts[p + 1] - starts[p];
            let (f, f_rest) = std::mem::take(&mut found_rest).split_at_mut(room);
            let (i, i_rest) = std::mem::take(&mut indices_rest).split_at_mut(room);
            (found_rest, indices_rest) = (f_rest, i_rest);
            work.push((shares[p], stretch(layer, shares[p], shares[p + 1]), f, i));
        }
        // The mirror's loop over a label's bits unrolled for the usual widths halves the time.
        let find = match self.label_bits {
            1 => Self::find::<1>,
            2 => Self::find::<2>,
            3 => Self::find::<3>,
            4 => Self::find::<4>,
            _ => Self::find::<0>,
        };
        let lens = forward::run(work, |(first, states, found, indices)| {
            find(self, &states, first, found, indices)
        });
        let (found, indices) = (&found[..], &indices[..]);
        // The states each worker kept (from the place after its images to its room's end).
        let kept_room = |p: usize| starts[p] + lens[p] + 1..starts[p + 1];
        // Each worker sorts an equal part of them all by image (the shares find very
        // different numbers: images skew to small keys), as their images and places in
        // `found`. Sorted in one, after a copy of each worker's into it, they took longer.
        let total: usize = lens.iter().sum();
        if runs.len() < parts {
            runs.resize_with(parts, Run::default);
        }
        let work: Vec<_> = runs[..parts]
            .iter_mut()
            .enumerate()
            .map(|(r, run)| {
                let (from, to) = (total * r / parts, total * (r + 1) / parts);
                // The places of those images: of each share's, those that fall in the part.
                let mut places = Vec::new();
                let mut before = 0;
                for (p, &len) in lens.iter().enumerate() {
                    let (a, b) = (
                        from.clamp(before, before + len),
                        to.clamp(before, before + len),
                    );
                    if a < b {
                        places.push(starts[p] + a - before..starts[p] + b - before);
                    }
                    before += len;
                }
                (run, places)
            })
            .collect();
        // An image and its place packed in one word, where they fit, sort in half the time
        // (and its count, read after, out of order, costs less than the difference).
        let place_bits = Key::BITS - ((n + parts) as u64).leading_zeros();
        let packed = self.low + self.bits + place_bits <= Key::BITS;
        forward::run(work, |(run, places)| {
            run.sorted.clear();
            if packed {
                run.packed.clear();
                for g in places.into_iter().flatten() {
                    run.packed.push(found[g].0 << place_bits | g as Key);
                }
                run.packed.sort_unstable();
                run.sorted.extend(run.packed.iter().map(|&x| {
                    let g = (x & ((1 << place_bits) - 1)) as usize;
                    (x >> place_bits, found[g].1, g as u32)
                }));
            } else {
                for g in places.into_iter().flatten() {
                    run.sorted.push((found[g].0, found[g].1, g as u32));
                }
                run.sorted.sort_unstable_by_key(|x| x.0);
            }
        });
        let runs = &mut runs[..parts];
        // Each worker merges the states of a range of keys, cut where a key begins: its
        // stretch of the layer and, of each run, the images that fall in it.
        let key_at = |mut i: usize| {
            for piece in layer {
                if i < piece.len() {
                    return piece[i].0;
                }
                i -= piece.len();
            }
            unreachable!("an index within the layer")
        };
        let mut cuts: Vec<(usize, Vec<usize>)> = vec![(0, vec![0; parts])];
        for p in 1..parts {
            let mut i = (n * p / parts).max(cuts[p - 1].0);
            if i < n {
                let k = key_at(i);
                while i > cuts[p - 1].0 && key_at(i - 1) == k {
                    i -= 1;
                }
            }
            let js = runs
                .iter()
                .zip(&cuts[p - 1].1)
                .map(|(run, &before)| {
                    let j = if i < n {
                        let k = key_at(i);
                        run.sorted.partition_point(|x| x.0 < k)
                    } else {
                        run.sorted.len()
                    };
                    j.max(before)
                })
                .collect();
            cuts.push((i, js));
        }
        cuts.push((n, runs.iter().map(|run| run.sorted.len()).collect()));
        if let Some(map) = map.as_deref_mut() {
            map.clear();
            map.resize(n, 0);
        }
        // Per worker: its states' places in `map`, its part of each run with the images'
        // places in its output, and of the states kept, those in its range (last first).
        let mut work: Vec<_> = (0..parts)
            .map(|p| {
                let (i, i2) = (cuts[p].0 as u32, cuts[p + 1].0 as u32);
                let kept: Vec<_> = (0..parts)
                    .map(|q| {
                        let share = &indices[kept_room(q)];
                        let (a, b) = (
                            share.partition_point(|&x| x >= i2),
                            share.partition_point(|&x| x >= i),
                        );
                        let from = kept_room(q).start;
                        (&found[from + a..from + b], &share[a..b])
                    })
                    .collect();
                (
                    cuts[p].0,
                    Vec::new(),
                    Vec::new(),
                    None,
                    kept,
                    std::mem::take(&mut outs[p]),
                )
            })
            .collect();
        let mut rest = map.as_deref_mut().map(|m| &mut m[..]);
        for (p, w) in work.iter_mut().enumerate() {
            let len = cuts[p + 1].0 - cuts[p].0;
            w.3 = rest.take().map(|r| {
                let (here, tail) = r.split_at_mut(len);
                rest = Some(tail);
                here
            });
        }
        for (r, run) in runs.iter_mut().enumerate() {
            run.at.clear();
            run.at.resize(run.sorted.len(), 0);
            let mut at_rest = &mut run.at[..];
            for (p, w) in work.iter_mut().enumerate() {
                let (j, j2) = (cuts[p].1[r], cuts[p + 1].1[r]);
                let (here, tail) = std::mem::take(&mut at_rest).split_at_mut(j2 - j);
                at_rest = tail;
                w.1.push(&run.sorted[j..j2]);
                w.2.push(here);
            }
        }
        let done = forward::run(work, |(first, sorted, mut at, mut place, kept, mut out)| {
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
            let mut heads = vec![0; sorted.len()];
            let mut next = first_image(&sorted, &heads);
            let mut kept = kept.iter().flat_map(|(f, i)| f.iter().zip(i.iter()).rev());
            loop {
                let state = kept.next();
                // The images before this state (all that are left, after the last).
                let below = state.map(|(&(k, _), _)| k);
                while let Some((m, r)) = next
                    && below.is_none_or(|k| m < k)
                {
                    at[r][heads[r]] = put(&mut out, (m, sorted[r][heads[r]].1));
                    heads[r] += 1;
                    next = first_image(&sorted, &heads);
                }
                let Some((&(k, c), &i)) = state else {
                    break;
                };
                let here = put(&mut out, (k, c));
                if let Some(place) = place.as_deref_mut() {
                    place[i as usize - first] = here;
                }
            }
            (out, overflow)
        });
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
            for (r, run) in runs.iter().enumerate() {
                for (p, &offset) in offsets.iter().enumerate() {
                    let (j, j2) = (cuts[p].1[r], cuts[p + 1].1[r]);
                    for (&(.., g), &a) in run.sorted[j..j2].iter().zip(&run.at[j..j2]) {
                        map[indices[g as usize] as usize] = a + offset;
                    }
                }
            }
        }
        Some(outs)
    }

    /// Writes the states of `states` (from index `first` of the layer on) to `found`, with
    /// their indices to `indices`, both one place longer: those whose image is smaller as
    /// their images and counts from the start on, how many it returns, and the others from
    /// the end back. Each state is written to both ends, and each end moves on only if the
    /// state is its: a branch on it, taken half the time at random, cost more. Its labels
    /// have `LB` bits (the mirror's, with 0).
    fn find<const LB: u32>(
        &self,
        states: &Stretch<'_>,
        first: usize,
        found: &mut [(Key, u64)],
        indices: &mut [u32],
    ) -> usize {
        // Before each state, `end - len` is two or more: the places ahead of the two ends
        // differ.
        let (mut len, mut end, mut i) = (0, found.len(), first as u32);
        for piece in states {
            for &(k, c) in piece.iter() {
                let m = self.of_by::<LB>(k);
                let smaller = m < k;
                found[len] = (m, c);
                indices[len] = i;
                found[end - 1] = (k, c);
                indices[end - 1] = i;
                len += usize::from(smaller);
                end -= usize::from(!smaller);
                i += 1;
            }
        }
        len
    }
}

/// The next image of the runs (`heads` says how far each is through) and its run.
fn first_image(sorted: &[&[Image]], heads: &[usize]) -> Option<(Key, usize)> {
    let mut first: Option<(Key, usize)> = None;
    for (r, (run, &head)) in sorted.iter().zip(heads).enumerate() {
        if let Some(&(m, ..)) = run.get(head)
            && first.is_none_or(|f| m < f.0)
        {
            first = Some((m, r));
        }
    }
    first
}

/// The fold's scratch, kept from row to row (with the lengths it reached): the states split
/// by whether their image is smaller, as images and counts (or keys and counts) and indices
/// in the layer; and each worker's run.
#[derive(Default)]
pub(super) struct Folding {
    found: Vec<(Key, u64)>,
    indices: Vec<u32>,
    runs: Vec<Run>,
}

/// An image: its key, the count of the state it is the image of and that state's place in
/// [`Folding::found`].
type Image = (Key, u64, u32);

/// A worker's part of the images, sorted (with their counts, which the merge reads from
/// here: from [`Folding::found`], out of order, they took longer), and then their places
/// in the folded layer.
#[derive(Default)]
struct Run {
    sorted: Vec<Image>,
    packed: Vec<Key>,
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
    /// maps every state to its place: with keys narrow enough to sort packed with their
    /// places, and with keys of all 64 bits.
    #[test]
    fn the_fold_sums_mirror_pairs() {
        the_fold_sums_mirror_pairs_of(3, 2);
        the_fold_sums_mirror_pairs_of(21, 3);
    }

    /// [`the_fold_sums_mirror_pairs`] with keys of `width` labels of `lb` bits above one
    /// bit, three of them set: the first, the middle one and the last.
    fn the_fold_sums_mirror_pairs_of(width: usize, lb: u32) {
        let mirror = Mirror::new(width, lb, 1);
        let last = (width as u32 - 1) * lb;
        let key = |a: Key, b: Key, c: Key| (a | b << (last / 2) | c << last) << 1;
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
