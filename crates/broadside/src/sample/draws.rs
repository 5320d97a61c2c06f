//! Rejection draws on word masks: every placement's cells (and, under the no-touch rule, its
//! halo) as a row of 64-bit words, so that an attempt tests a ship against the ships drawn
//! before it with a few word operations and checks the finished layout against the
//! problem's constraints the same way, building a [`Layout`] only for an attempt that is
//! kept.
//!
//! The draws are those of [`super::Sampler`]'s rejection sampler, one random number per ship
//! in fleet order, stopping at the first ship that overlaps (or touches) an earlier one; the
//! checks are those of its consistency test. The masks are sized to the board, whatever its
//! size.

use rand::{Rng, RngExt};

use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

/// The cell sets of one problem that a rejection attempt needs, as rows of `words` words.
pub(super) struct Masks {
    /// Words a cell set takes.
    words: usize,
    /// Per ship type, its placements' cells, one row each.
    body: Vec<Vec<u64>>,
    /// Per ship type, the cells its placements keep from later ships: their cells, and under
    /// the no-touch rule their halos too.
    reach: Vec<Vec<u64>>,
    /// The cells a ship must cover (ship clues).
    must: Vec<u64>,
    /// Each any-of ring: a layout covers at least one of its cells.
    rings: Vec<Vec<u64>>,
    /// Each row or column with a count: its cells and how many of them ships cover.
    lines: Vec<(Vec<u64>, u32)>,
}

/// The set of `cells` as `words` words.
fn row_of(words: usize, cells: impl IntoIterator<Item = usize>) -> Vec<u64> {
    let mut row = vec![0; words];
    for c in cells {
        row[c / 64] |= 1 << (c % 64);
    }
    row
}

impl Masks {
    /// The masks of `problem`.
    pub(super) fn new(problem: &Problem) -> Masks {
        let d = problem.dims();
        let words = d.cells().div_ceil(64).max(1);
        let no_touch = problem.rules() == Rules::NoTouch;
        let types = problem.fleet().types().len();
        let rows = |halo: bool| -> Vec<Vec<u64>> {
            (0..types)
                .map(|ty| {
                    problem
                        .placements(ty)
                        .iter()
                        .flat_map(|p| {
                            let extra: &[usize] = if halo { &p.halo } else { &[] };
                            row_of(words, p.cells.iter().chain(extra).copied())
                        })
                        .collect()
                })
                .collect()
        };
        let spec = problem.spec();
        let mut lines = Vec::new();
        for r in 0..d.height {
            if let Some(k) = spec.row_count(r) {
                lines.push((row_of(words, (0..d.width).map(|c| d.index(r, c))), k as u32));
            }
        }
        for c in 0..d.width {
            if let Some(k) = spec.col_count(c) {
                lines.push((
                    row_of(words, (0..d.height).map(|r| d.index(r, c))),
                    k as u32,
                ));
            }
        }
        Masks {
            words,
            body: rows(false),
            reach: rows(no_touch),
            must: row_of(
                words,
                (0..d.cells()).filter(|&c| spec.clue(c).is_some_and(crate::Clue::is_ship)),
            ),
            rings: problem
                .any_of()
                .iter()
                .map(|ring| row_of(words, ring.iter().copied()))
                .collect(),
            lines,
        }
    }

    /// One rejection attempt: every ship drawn independently among its type's placements,
    /// `None` at the first that overlaps or touches one drawn before it or when the finished
    /// layout breaks a constraint. `scratch` keeps the placements chosen between attempts.
    pub(super) fn attempt<R: Rng + ?Sized>(
        &self,
        problem: &Problem,
        rng: &mut R,
        scratch: &mut Vec<(usize, usize)>,
    ) -> Option<Layout> {
        let w = self.words;
        // Up to two words on the stack (boards of up to 128 cells); larger boards allocate.
        let mut small = [0u64; 4];
        let mut large = Vec::new();
        let (taken, covered) = if w <= 2 {
            small.split_at_mut(2)
        } else {
            large.resize(2 * w, 0);
            large.split_at_mut(w)
        };
        let (taken, covered) = (&mut taken[..w], &mut covered[..w]);
        scratch.clear();
        for (ty, t) in problem.fleet().types().iter().enumerate() {
            let n = problem.placements(ty).len();
            if n == 0 {
                return None;
            }
            for _ in 0..t.count {
                let i = rng.random_range(0..n);
                let body = &self.body[ty][i * w..(i + 1) * w];
                if body.iter().zip(taken.iter()).any(|(b, t)| b & t != 0) {
                    return None;
                }
                let reach = &self.reach[ty][i * w..(i + 1) * w];
                for k in 0..w {
                    taken[k] |= reach[k];
                    covered[k] |= body[k];
                }
                scratch.push((ty, i));
            }
        }
        let meets = |set: &[u64]| set.iter().zip(covered.iter()).any(|(s, c)| s & c != 0);
        let kept = self
            .must
            .iter()
            .zip(covered.iter())
            .all(|(m, c)| m & !c == 0)
            && self.rings.iter().all(|ring| meets(ring))
            && self.lines.iter().all(|(line, k)| {
                line.iter()
                    .zip(covered.iter())
                    .map(|(l, c)| (l & c).count_ones())
                    .sum::<u32>()
                    == *k
            });
        kept.then(|| Layout {
            ships: scratch
                .iter()
                .map(|&(ty, i)| Ship {
                    ty,
                    cells: problem.placements(ty)[i].cells.clone(),
                })
                .collect(),
        })
    }
}
