//! The bitboard enumerator: depth-first search over ship placements.
//!
//! Each ship type's allowed placements (from [`Problem::placements`]) become two bitboards,
//! the cells it covers and the cells it *blocks* (its cells, plus its halo under the no-touch
//! rule). A search node holds the covered cells, the blocked cells, the ships left of each type
//! and the ship cells used in each row and column.
//!
//! **Branching, and why each layout is found once.** At each node the search either takes a
//! *cell step*, when a ship clue is not yet covered: it branches on which placement covers the
//! clue cell with the fewest candidates (exactly one ship covers it in any layout); or a *type
//! step*: it places the next ship of the first type with ships left, choosing among
//! placements whose index is at least a per-type floor, and raises the floor past the choice.
//! In every layout the next ship of a type step is the one of least index not yet placed, so
//! the path to a layout is unique and identical ships need no further symmetry breaking.
//!
//! **Counting shortcuts.** Without row or column counts and with every clue covered, the
//! completions of a node depend only on the free cells. When one ship is left, its placements
//! are counted at once: for each orientation, the anchors whose cells are all free are the
//! intersection of shifted copies of the free set, and a popcount counts them. When two ships
//! are left (of two types, or two of one type), the pairs are `sum over q of (N(free) -
//! conflicts(q))`, where the conflicts of a placement `q` with the other ship's anchors are a
//! precomputed mask per orientation (built for a pair of types when first needed), so each `q`
//! costs a few word operations. Per-cell counts come the same way: `q`'s cells are in as many
//! layouts as `q` has partners, and the other ship's placements are weighed from its side;
//! two ships of one type count each pair from both ends, and the sum is halved. This is what
//! makes the positions of a game fast: with four ships afloat in the standard game the search
//! places two and counts the rest at once (about 15 ms against the DP's 0.2 s).
//!
//! **Cost.** Exact counting is exponential in the worst case; [`Enumerator::count_up_to`]
//! stops as soon as it has seen `limit` layouts, which is what a uniqueness check needs.
//!
//! The placement tables and the search's moves are in `tables.rs`; counting, with its
//! control and per-cell counts, in `count.rs`; the shortcuts that count the last one, two or
//! three ships at once in `shortcut.rs`; the split between cores and into parts in
//! `split.rs`; the lazy list of solutions and the count-guided sampler in `search.rs`.

mod count;
mod search;
mod shortcut;
mod split;
mod symmetry;
mod tables;

pub use count::Work;
pub use search::{DescentSampler, Solutions};

use crate::layout::Layout;
use crate::problem::Problem;
use crate::with_words;

use super::{CountError, CountOptions, CountResult};
use tables::Tables;

/// The enumerator engine for one problem.
pub struct Enumerator<'p> {
    problem: &'p Problem,
}

impl<'p> Enumerator<'p> {
    /// An enumerator for `problem`. Building the tables is cheap; each call rebuilds them.
    pub fn new(problem: &'p Problem) -> Self {
        Enumerator { problem }
    }

    /// One solution, if there is any.
    pub fn solve(&self) -> Option<Layout> {
        self.solutions().next()
    }

    /// All solutions, lazily, in search order.
    pub fn solutions(&self) -> Solutions {
        Solutions::new(self.problem)
    }

    /// Counts solutions, stopping once `limit` are seen (the result then says so).
    /// `count_up_to(2)` decides uniqueness.
    pub fn count_up_to(&self, limit: u128) -> CountResult {
        self.count(&CountOptions {
            limit: Some(limit),
            ..CountOptions::default()
        })
        .expect("a limited count cannot overflow")
    }

    /// Whether there is exactly one solution.
    pub fn is_unique(&self) -> bool {
        let r = self.count_up_to(2);
        r.count == 1 && r.complete
    }

    /// Counts part `part` of `parts` of the layouts (and its per-cell counts, if asked): the
    /// layouts under every `parts`-th subtree of the search's first levels. The parts
    /// partition the layouts, so their counts add up to [`Enumerator::count`]'s for any
    /// number of parts; each is counted on every core, and takes `opts`' time limit and
    /// cancellation (a count limit is ignored). What a cluster counts a hard problem in.
    pub fn count_part(
        &self,
        opts: &CountOptions,
        part: usize,
        parts: usize,
    ) -> Result<CountResult, CountError> {
        with_words!(self.problem.dims().cells(), N => {
            Tables::<N>::new(self.problem).count_part(opts, part..part + 1, parts)
        })
    }

    /// Counts parts `first..last` of `parts` together, in one setup of the search: their
    /// layouts summed, the count [`Enumerator::count_part`] gives each, added up. How a run
    /// of more parts than tasks batches them: setting up a part walks the search's first
    /// levels, whatever the number of parts it keeps.
    pub fn count_parts(
        &self,
        opts: &CountOptions,
        parts: std::ops::Range<usize>,
        of: usize,
    ) -> Result<CountResult, CountError> {
        with_words!(self.problem.dims().cells(), N => {
            Tables::<N>::new(self.problem).count_part(opts, parts, of)
        })
    }

    /// The work a full count would take, estimated by `probes` random descents of the search
    /// (Knuth's estimator): machine-independent, in microseconds for a few hundred probes.
    pub fn estimate(&self, probes: usize, rng: &mut impl rand::Rng) -> Work {
        with_words!(self.problem.dims().cells(), N => {
            Tables::<N>::new(self.problem).estimate(probes, rng)
        })
    }

    /// Counts solutions (and, if asked, per-cell counts) with the given limits. Uses every
    /// core rayon gives it unless a count limit is set.
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        with_words!(self.problem.dims().cells(), N => {
            let t = Tables::<N>::new(self.problem);
            t.run_count(opts)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, ProblemSpec, Rules};

    /// Parts add up to the count, per cell too, for any number of parts: identical ships,
    /// both rules, a puzzle with row and column counts.
    #[test]
    fn parts_add_up_to_the_count() {
        let mut problems: Vec<Problem> = [
            (Rules::Touch, vec![3, 3, 2, 2]),
            (Rules::NoTouch, vec![4, 3, 2, 1, 1]),
        ]
        .into_iter()
        .map(|(rules, fleet)| {
            ProblemSpec::empty(Dims::new(6, 6), Fleet::straight(&fleet), rules)
                .build()
                .unwrap()
        })
        .collect();
        let puzzle = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../puzzles/6x6/luke-0.txt"
        ))
        .unwrap();
        let mut spec = crate::format::read("luke-0", &puzzle).unwrap().remove(0);
        spec.clues = vec![None; spec.dims.cells()];
        problems.push(spec.build().unwrap());
        for problem in &problems {
            let opts = CountOptions {
                per_cell: true,
                parallel: true,
                ..CountOptions::default()
            };
            let whole = Enumerator::new(problem).count(&opts).unwrap();
            assert!(whole.count > 1);
            for parts in [1, 2, 7, 64] {
                let mut count = 0;
                let mut cells = vec![0u128; problem.dims().cells()];
                for part in 0..parts {
                    let r = Enumerator::new(problem)
                        .count_part(&opts, part, parts)
                        .unwrap();
                    assert!(r.complete);
                    count += r.count;
                    for (c, n) in cells.iter_mut().zip(r.per_cell.unwrap()) {
                        *c += n;
                    }
                }
                assert_eq!(count, whole.count, "{parts} parts");
                assert_eq!(Some(cells), whole.per_cell, "{parts} parts");
            }
        }
    }
}
