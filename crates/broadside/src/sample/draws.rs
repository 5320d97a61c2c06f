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
    /// Each row or column with a count: its cells by weight, and the weighted number of them
    /// ships cover.
    lines: Vec<(Vec<Weighed>, u32)>,
}

/// Cells of a line that weigh the same: one part of weight 1, or in Digital Battleships a part
/// per digit.
type Weighed = (u32, Vec<u64>);

/// What an attempt keeps between attempts: the taken and covered cells, and the placements
/// chosen.
#[derive(Default)]
pub(super) struct Scratch {
    words: Vec<u64>,
    chosen: Vec<(usize, usize)>,
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
        let parts = |cells: Vec<usize>| -> Vec<(u32, Vec<u64>)> {
            let weights: std::collections::BTreeSet<usize> =
                cells.iter().map(|&c| spec.weight(c)).collect();
            weights
                .into_iter()
                .filter(|&w| w > 0)
                .map(|w| {
                    let of_weight = cells.iter().copied().filter(|&c| spec.weight(c) == w);
                    (w as u32, row_of(words, of_weight))
                })
                .collect()
        };
        let mut lines = Vec::new();
        for r in 0..d.height {
            if let Some(k) = spec.row_count(r) {
                lines.push((
                    parts((0..d.width).map(|c| d.index(r, c)).collect()),
                    k as u32,
                ));
            }
        }
        for c in 0..d.width {
            if let Some(k) = spec.col_count(c) {
                lines.push((
                    parts((0..d.height).map(|r| d.index(r, c)).collect()),
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
    /// layout breaks a constraint. `scratch` is kept between attempts.
    pub(super) fn attempt<R: Rng + ?Sized>(
        &self,
        problem: &Problem,
        rng: &mut R,
        scratch: &mut Scratch,
    ) -> Option<Layout> {
        let w = self.words;
        scratch.words.clear();
        scratch.words.resize(2 * w, 0);
        let (taken, covered) = scratch.words.split_at_mut(w);
        let chosen = &mut scratch.chosen;
        chosen.clear();
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
                chosen.push((ty, i));
            }
        }
        let meets = |set: &[u64]| set.iter().zip(covered.iter()).any(|(s, c)| s & c != 0);
        let kept = self
            .must
            .iter()
            .zip(covered.iter())
            .all(|(m, c)| m & !c == 0)
            && self.rings.iter().all(|ring| meets(ring))
            && self.lines.iter().all(|(parts, k)| {
                parts
                    .iter()
                    .map(|(w, line)| {
                        w * line
                            .iter()
                            .zip(covered.iter())
                            .map(|(l, c)| (l & c).count_ones())
                            .sum::<u32>()
                    })
                    .sum::<u32>()
                    == *k
            });
        kept.then(|| Layout {
            ships: chosen
                .iter()
                .map(|&(ty, i)| Ship {
                    ty,
                    cells: problem.placements(ty)[i].cells.clone(),
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    /// An attempt's draws replayed by hand, cell by cell: `None` at the first ship that
    /// overlaps or (under no-touch) touches one drawn before it, else every ship drawn.
    fn replay(p: &Problem, rng: &mut StdRng) -> Option<Layout> {
        let d = p.dims();
        let mut owner = vec![false; d.cells()];
        let mut ships = Vec::new();
        for (ty, t) in p.fleet().types().iter().enumerate() {
            let ps = p.placements(ty);
            if ps.is_empty() {
                return None;
            }
            for _ in 0..t.count {
                let cells = &ps[rng.random_range(0..ps.len())].cells;
                let near = |c: usize| {
                    owner[c] || (p.rules() == Rules::NoTouch && d.neighbours8(c).any(|n| owner[n]))
                };
                if cells.iter().any(|&c| near(c)) {
                    return None;
                }
                for &c in cells {
                    owner[c] = true;
                }
                ships.push(Ship {
                    ty,
                    cells: cells.clone(),
                });
            }
        }
        Some(Layout { ships })
    }

    /// Row and column counts, a sunk ship and hits, a sonar ring: an attempt keeps exactly
    /// the draws the validator accepts, and uses the same random numbers.
    #[test]
    fn attempts_keep_exactly_the_draws_the_validator_accepts() {
        let counts = "size: 4x4\nfleet: 2 1\nrules: no-touch\ngrid:\n   1 ? ? ?\n?  . . . .\n?  . . . .\n?  . . . .\n0  . . . .\n";
        let sunk = "size: 5x3\nfleet: 2 2 1\nrules: touch\nsinking: announced\nshots:\nA1 hit\nB1 sunk 2\nC2 hit\nE3 miss\n";
        let sonar = "size: 5x5\nfleet: 2 1\nrules: no-touch\nshots:\nC3 sonar 2\nA1 miss\n";
        let large = "size: 12x11\nfleet: 4 3 2\nrules: no-touch\nshots:\nF6 hit\nA1 miss\n";
        for src in [counts, sunk, sonar, large] {
            let p = crate::format::text::parse(src).unwrap().build().unwrap();
            let masks = Masks::new(&p);
            let mut scratch = Scratch::default();
            let (mut a, mut b) = (StdRng::seed_from_u64(9), StdRng::seed_from_u64(9));
            let (mut kept, mut refused) = (0, 0);
            for _ in 0..20_000 {
                let got = masks.attempt(&p, &mut a, &mut scratch);
                let drawn = replay(&p, &mut b);
                let valid = drawn
                    .clone()
                    .filter(|l| crate::check::layout(p.spec(), l).is_ok());
                assert_eq!(got, valid, "{src}");
                kept += usize::from(got.is_some());
                refused += usize::from(got.is_none() && drawn.is_some());
            }
            assert!(
                kept > 0 && refused > 0,
                "{src}: {kept} kept, {refused} refused"
            );
        }
    }
}
