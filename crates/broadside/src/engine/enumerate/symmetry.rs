//! The board's symmetries that map a problem onto itself, and what they save a count: the
//! search's first ship, when it is the only one of its type, is placed only at one placement of
//! each orbit, the layouts under it weighed by the orbit's size, and the per-cell counts are
//! made whole again by averaging them over the symmetries.
//!
//! A problem is mapped onto itself by a symmetry when the symmetry maps its water onto itself
//! and each type's allowed placements onto the type's allowed placements (so the shot facts
//! that narrow the placements are kept too), without row or column counts, required cells or
//! sonar rings (which the search treats otherwise). The empty board of a square game has all
//! eight symmetries, a rectangle four; one miss on a diagonal keeps two.
//!
//! Why the count is exact: the layouts whose first ship is a placement `q` are the images of
//! those whose first ship is its orbit's representative `r` under any symmetry taking `r` to
//! `q`, so they are as many, and the orbit's layouts are its size times the representative's.
//! Per cell, the sum over all symmetries `g` of `g` applied to the representative's counts is
//! each placement of the orbit's counts as often as `r`'s stabiliser has symmetries (the
//! representative's counts are the same seen through any of them); the orbit's size times
//! the stabiliser's is the group's, so the per-cell counts are the sum over `g` of the images of
//! the weighed counts, divided by the group's size, exactly.

use std::collections::HashMap;

use super::tables::{Cand, Tables};
use crate::bitboard::Bits;
use crate::geom::Dims;

/// A problem's symmetries, for a count: see the module documentation.
pub(super) struct Symmetric {
    /// Per symmetry (the identity included), where each cell goes.
    maps: Vec<Vec<usize>>,
    /// Per placement of the search's first type, its orbit's size if it is the least of its
    /// orbit, else 0.
    weight: Vec<u64>,
    /// The search's first type.
    ty: usize,
}

impl Symmetric {
    /// The layouts each layout under the search's first move `c` stands for: its orbit's size
    /// when it places the first ship at its orbit's representative, 0 (the move is not made)
    /// at another placement of the orbit, 1 for a move of another type.
    pub(super) fn weight(&self, c: &Cand) -> u64 {
        if c.ty as usize == self.ty {
            self.weight[c.idx as usize]
        } else {
            1
        }
    }

    /// The per-cell counts of the whole search from those of the representatives weighed by
    /// their orbits' sizes: their images under every symmetry, summed, over the group's size.
    /// Each image is divided before the sum (and the remainders summed apart), so that no sum
    /// passes what the answer does.
    pub(super) fn spread(&self, weighed: &[u128]) -> Option<Vec<u128>> {
        let g = self.maps.len() as u128;
        (0..weighed.len())
            .map(|c| {
                let (whole, rest) =
                    self.maps
                        .iter()
                        .fold((Some(0u128), 0u128), |(whole, rest), m| {
                            let x = weighed[m[c]];
                            (whole.and_then(|w| w.checked_add(x / g)), rest + x % g)
                        });
                whole?.checked_add(rest / g)
            })
            .collect()
    }
}

impl<const N: usize> Tables<N> {
    /// The symmetries of `dims` that map the problem onto itself, when there are any besides
    /// the identity and the search's first move is a ship that is the only one of its type.
    pub(super) fn symmetric(&self, dims: Dims) -> Option<Symmetric> {
        if self.has_caps || !self.any_of.is_empty() || !self.required.is_empty() {
            return None;
        }
        let ty = self.types.iter().position(|t| t.count > 0)?;
        if self.types[ty].count != 1 {
            return None;
        }
        // Water first: a game's misses rarely keep a symmetry, and this is cheap.
        let kept: Vec<Vec<usize>> = dims
            .symmetries()
            .into_iter()
            .map(|g| {
                (0..dims.cells())
                    .map(|c| g.apply(dims, c))
                    .collect::<Vec<_>>()
            })
            .filter(|map| Bits::from_cells(self.water.iter().map(|c| map[c])) == self.water)
            .collect();
        if kept.len() < 2 {
            return None;
        }
        let index: Vec<HashMap<Bits<N>, u32>> = self
            .types
            .iter()
            .map(|t| {
                t.plcs
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.mask, i as u32))
                    .collect()
            })
            .collect();
        let mut maps = Vec::new();
        let mut images: Vec<Vec<u32>> = Vec::new();
        'symmetry: for map in kept {
            let image = |b: Bits<N>| Bits::from_cells(b.iter().map(|c| map[c]));
            let mut first = Vec::new();
            for (t, ty_t) in self.types.iter().enumerate() {
                for p in &ty_t.plcs {
                    let Some(&i) = index[t].get(&image(p.mask)) else {
                        continue 'symmetry;
                    };
                    if t == ty {
                        first.push(i);
                    }
                }
            }
            maps.push(map);
            images.push(first);
        }
        if maps.len() < 2 {
            return None;
        }
        let n = self.types[ty].plcs.len();
        let weight = (0..n)
            .map(|i| {
                let mut orbit: Vec<u32> = images.iter().map(|m| m[i]).collect();
                orbit.sort_unstable();
                orbit.dedup();
                if orbit[0] as usize == i {
                    orbit.len() as u64
                } else {
                    0
                }
            })
            .collect();
        Some(Symmetric { maps, weight, ty })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{CountOptions, CountResult};
    use crate::{Clue, Dims, Fleet, ProblemSpec, Rules, Shape};

    /// The count of the whole search on one thread, and the count of the subtrees with the
    /// first ship placed by orbits (what a parallel count past its first moments does), and
    /// how many symmetries keep the problem.
    fn counts(problem: &crate::Problem) -> (CountResult, CountResult, usize) {
        let opts = CountOptions {
            per_cell: true,
            ..CountOptions::default()
        };
        let whole = super::super::Enumerator::new(problem).count(&opts).unwrap();
        crate::with_words!(problem.dims().cells(), N => {
            let t = Tables::<N>::new(problem);
            let sym = t.symmetric(problem.dims());
            let stop = std::sync::atomic::AtomicBool::new(false);
            let f = t.frontier(256, sym.as_ref());
            let orbits = t.count_subtrees(f, &opts, None, &stop, None, sym.as_ref()).unwrap();
            (whole, orbits, sym.map_or(1, |s| s.maps.len()))
        })
    }

    /// Counts whose first ship is placed by orbits are the counts of the whole search, cell
    /// by cell: square and oblong boards, both rules, L-shaped ships (four orientations of
    /// eight), water kept by some of the symmetries or by none; the symmetries found are
    /// those that keep the problem.
    #[test]
    fn orbits_count_what_the_whole_search_counts() {
        let ell = Shape::parse_art("#./##").unwrap();
        let l_fleet = || {
            Fleet::new([
                (ell.clone(), 1, "L".into()),
                (Shape::straight(3), 1, "3".into()),
                (Shape::straight(2), 2, "2".into()),
            ])
        };
        let cases: Vec<(Dims, Fleet, Vec<usize>, usize)> = vec![
            (Dims::new(7, 7), Fleet::straight(&[4, 3, 2, 2]), vec![], 8),
            (Dims::new(8, 6), Fleet::straight(&[4, 3, 3, 2]), vec![], 4),
            // A miss on the diagonal: kept by the diagonal reflection.
            (Dims::new(7, 7), Fleet::straight(&[4, 3, 2]), vec![8], 2),
            // Misses in the corners of one side: kept by the flip across the middle column.
            (Dims::new(7, 7), Fleet::straight(&[4, 3, 2]), vec![0, 6], 2),
            (Dims::new(7, 7), Fleet::straight(&[4, 3, 2]), vec![3], 2),
            (Dims::new(7, 7), Fleet::straight(&[4, 3, 2]), vec![1], 1),
            (Dims::new(6, 6), l_fleet(), vec![], 8),
        ];
        for (dims, fleet, water, group) in cases {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let mut spec = ProblemSpec::empty(dims, fleet.clone(), rules);
                spec.clues = vec![None; dims.cells()];
                for &c in &water {
                    spec.clues[c] = Some(Clue::Water);
                }
                let problem = spec.build().unwrap();
                let (whole, orbits, found) = counts(&problem);
                assert_eq!(found, group, "{dims:?} {water:?}");
                assert!(whole.complete && orbits.complete);
                assert_eq!(
                    (orbits.count, &orbits.per_cell),
                    (whole.count, &whole.per_cell),
                    "{dims:?} {rules:?} {water:?}"
                );
            }
        }
    }
}
