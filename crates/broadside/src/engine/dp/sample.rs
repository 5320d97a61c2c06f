//! Exact uniform sampling through the DP's layers.

use super::DpEngine;
use super::forward::{Run, SHIP, Trail, run, unlink};
use super::state::{Dir, Move};
use crate::layout::{Layout, Ship};

/// A transition as the sampler keeps it: the number of layouts it leads to, where the
/// transitions of the state it reaches start in the next cell's list (or, past `skip` forced
/// cells, in that cell's list), the ship it starts ([`Move::code`]), whether it is its state's
/// last, and how many cells after it are forced.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Edge {
    weight: u64,
    next: u32,
    ship: u16,
    last: bool,
    /// The cells after this one whose state has a single transition, which starts no ship:
    /// a draw takes them without reading them (see [`DpSampler::live`]).
    skip: u8,
}

/// Exact uniform sampling of layouts through the DP's layers: from the first cell on, each
/// transition is taken with probability proportional to the completions of the state it
/// reaches, so every layout is drawn with probability exactly 1 / (number of layouts).
///
/// Per cell, the transitions of every state are kept side by side, each with all a step
/// needs (the state it reaches is the place where that state's transitions start), so a
/// step reads one place in memory and steps no state again.
pub struct DpSampler {
    dp: DpEngine,
    /// Per cell, the transitions of its states, state by state.
    edges: Vec<Vec<Edge>>,
    /// Where the first state's transitions start.
    first: u32,
    total: u128,
    /// The ships of every layout.
    ships: usize,
}

impl DpSampler {
    /// The sampler of the forward pass's `trails` (with their moves), the backward pass's
    /// `completions` and `links` of every layer, and the `total`. Each cell's trails and the
    /// next layer's completions and links are let go once the cell is built.
    pub(super) fn new(
        dp: DpEngine,
        trails: Vec<(Vec<Vec<Run>>, Vec<Trail>)>,
        completions: Vec<Vec<Vec<u64>>>,
        links: Vec<Vec<Vec<u64>>>,
        total: u128,
    ) -> DpSampler {
        // Where each worker's transitions start in a cell's list.
        let starts: Vec<Vec<usize>> = trails
            .iter()
            .map(|(_, workers)| {
                let mut at = 0;
                workers
                    .iter()
                    .map(|t| {
                        at += t.edges.len();
                        at - t.edges.len()
                    })
                    .collect()
            })
            .collect();
        let place = |cell: usize, link: u64| {
            let (worker, at) = unlink(link);
            u32::try_from(starts[cell][worker] + at)
                .expect("a cell's transitions fit the memory limit")
        };
        let first = links
            .first()
            .and_then(|layer| layer.first())
            .and_then(|piece| piece.first())
            .map_or(0, |&link| place(0, link));
        // Each cell with its trails, and the completions and links of the next layer; the
        // cells are built on every core, each letting go of its part once built.
        let cells = trails.len();
        let next_links = links
            .into_iter()
            .skip(1)
            .map(Some)
            .chain(std::iter::repeat_with(|| None));
        let work: Vec<_> = trails
            .into_iter()
            .zip(completions.into_iter().skip(1))
            .zip(next_links)
            .take(cells)
            .enumerate()
            .collect();
        let edges = run(work, |(cell, (((_, workers), counts), next_links))| {
            let mut out = Vec::with_capacity(workers.iter().map(|t| t.edges.len()).sum());
            // Worker `w` made piece `w` of the next layer, where all its successors are.
            for (w, t) in workers.into_iter().enumerate() {
                let moves = t
                    .moves
                    .expect("the sampler's forward pass records the moves");
                lay(&mut out, &t.degrees, &moves, false, |k| {
                    let j = (t.edges[k] & !SHIP) as usize;
                    let next = next_links
                        .as_ref()
                        .map_or(0, |l: &Vec<Vec<u64>>| place(cell + 1, l[w][j]));
                    (counts[w][j], next)
                });
            }
            out
        });
        DpSampler::of_edges(dp, edges, first, total)
    }

    /// The sampler of the tight passes with its live transitions alone (see
    /// [`DpSampler::new`] and [`DpSampler::live`]): each state's transitions in the order
    /// [`DpEngine::step`] makes them, as the general passes keep them, so the same draws give
    /// the same layouts. The lists are laid out live from the start: most transitions lead
    /// to states no layout goes through, and laying them out to drop them cost as much again.
    pub(super) fn from_tight(dp: DpEngine, tight: super::tight::Tight) -> DpSampler {
        let super::tight::Tight {
            trails,
            completions,
            total,
        } = tight;
        // Per layer, where each state's live transitions start in its cell's list
        // (`u32::MAX`: it has none, no layout goes through it).
        let starts: Vec<Vec<u32>> = run(trails.iter().enumerate().collect(), |(cell, workers)| {
            let after = &completions[cell + 1];
            let mut at = 0u32;
            let mut out = Vec::with_capacity(workers.iter().map(|t| t.degrees.len()).sum());
            for t in workers {
                let mut k = 0;
                for &d in &t.degrees {
                    let live = (k..k + usize::from(d))
                        .filter(|&e| after[t.successor(e)] > 0)
                        .count() as u32;
                    out.push(if live > 0 { at } else { u32::MAX });
                    at += live;
                    k += usize::from(d);
                }
            }
            out
        });
        let first = starts.first().and_then(|s| s.first()).copied().unwrap_or(0);
        let work: Vec<_> = trails.into_iter().enumerate().collect();
        let edges = run(work, |(cell, workers)| {
            let after = &completions[cell + 1];
            let next = starts.get(cell + 1);
            let mut out = Vec::new();
            for t in &workers {
                let moves = t
                    .moves
                    .as_ref()
                    .expect("the sampler's pass records the moves");
                lay(&mut out, &t.degrees, moves, true, |k| {
                    let j = t.successor(k);
                    (after[j], next.map_or(0, |n| n[j]))
                });
            }
            out
        });
        DpSampler::of_edges(dp, forced(edges), first, total)
    }

    /// The sampler of each cell's `edges`, the first state's at `first`.
    fn of_edges(dp: DpEngine, edges: Vec<Vec<Edge>>, first: u32, total: u128) -> DpSampler {
        let ships = dp
            .counters
            .iter()
            .map(|&(_, full, one)| (full / one) as usize)
            .sum();
        DpSampler {
            ships,
            dp,
            edges,
            first,
            total,
        }
    }

    /// The sampler with only the transitions that lead to some layout, of the states that
    /// have any. Every other transition leads to a state no layout goes through (a weight of
    /// 0, never drawn), and most states are such dead ends (70-90% of them on the positions a
    /// game samples from). Each state keeps its transitions in their order, so a draw takes
    /// the same steps and the same random numbers as through the whole lists, in a fraction
    /// of the memory: a draw is a chain of reads, one per cell, each waiting on the last, and
    /// the fewer the lists' bytes the more of them the caches hold.
    ///
    /// Fewer reads still: where the state a transition reaches has a single transition left,
    /// which starts no ship (a ship going on, a shot's miss), the draw there is forced, and
    /// so on along a chain of such states (about half the steps of a draw on the positions a
    /// game samples from). The transition into the chain points past it, with its length; a
    /// draw takes the chain's random numbers without reading its states. Each forced state's
    /// one transition leads to all its layouts, so every state of the chain has the weight of
    /// the transition into it: the numbers drawn are those the step by step walk draws.
    pub(super) fn live(self) -> DpSampler {
        let DpSampler {
            dp,
            edges,
            first,
            total,
            ships,
        } = self;
        // Per cell: the kept transitions, and for each state's old start its new one.
        let kept = run(edges.into_iter().collect(), |old: Vec<Edge>| {
            let mut out: Vec<Edge> = Vec::new();
            let mut moved = vec![u32::MAX; old.len()];
            let mut start = 0;
            for (i, e) in old.iter().enumerate() {
                if !e.last {
                    continue;
                }
                let state = &old[start..=i];
                if state.iter().any(|e| e.weight > 0) {
                    moved[start] = out.len() as u32;
                    out.extend(state.iter().filter(|e| e.weight > 0).copied());
                    out.last_mut().expect("a state kept has a transition").last = true;
                }
                start = i + 1;
            }
            (out, moved)
        });
        let (lists, moved): (Vec<Vec<Edge>>, Vec<Vec<u32>>) = kept.into_iter().unzip();
        let first = moved
            .first()
            .and_then(|m| m.get(first as usize))
            .copied()
            .unwrap_or(0);
        let nexts = moved.iter().skip(1).map(Some).chain([None]);
        // A transition of weight above 0 leads to a state with a layout, which is kept.
        let edges = run(
            lists.into_iter().zip(nexts).collect(),
            |(mut list, next): (Vec<Edge>, Option<&Vec<u32>>)| {
                if let Some(moved) = next {
                    for e in &mut list {
                        e.next = moved[e.next as usize];
                    }
                }
                list
            },
        );
        let edges = forced(edges);
        DpSampler {
            dp,
            edges,
            first,
            total,
            ships,
        }
    }

    /// The number of layouts sampled from.
    pub fn count(&self) -> u128 {
        self.total
    }

    /// One layout drawn uniformly at random; `None` when there is none.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Layout> {
        use rand::RngExt;
        if self.total == 0 {
            return None;
        }
        let d = self.dp.dims;
        let mut at = self.first as usize;
        let mut ships = Vec::with_capacity(self.ships);
        let mut cell = 0;
        while let Some(edges) = self.edges.get(cell) {
            let edges = &edges[at..];
            let degree = edges
                .iter()
                .position(|e| e.last)
                .map_or(edges.len(), |k| k + 1);
            let options = &edges[..degree];
            let sum: u64 = options.iter().map(|e| e.weight).sum();
            let mut r = rng.random_range(0..sum);
            let e = options
                .iter()
                .find(|e| {
                    if r < e.weight {
                        true
                    } else {
                        r -= e.weight;
                        false
                    }
                })
                .expect("r is below the sum");
            if let Some((ty, dir)) = Move::start_of(e.ship) {
                let len = self.dp.lens[ty];
                let step = match dir {
                    Dir::Single | Dir::Across => 1,
                    Dir::Down => d.width,
                };
                ships.push(Ship {
                    ty,
                    cells: (0..len).map(|i| cell + i * step).collect(),
                });
            }
            // The forced cells after it: each draws from its one transition, of this weight.
            for _ in 0..e.skip {
                rng.random_range(0..e.weight);
            }
            at = e.next as usize;
            cell += 1 + usize::from(e.skip);
        }
        Some(Layout { ships })
    }
}

/// Appends a trail's transitions to `out` as the sampler keeps them, state by state (`degrees`),
/// each with its move from `moves` and, from `edge` (given its index in the trail), the
/// layouts it leads to and where the transitions of the state it reaches start. When `live`,
/// only the transitions of weight above 0, and no state left without one: the lists
/// [`DpSampler::live`] keeps, before [`forced`].
fn lay(
    out: &mut Vec<Edge>,
    degrees: &[u8],
    moves: &[u16],
    live: bool,
    mut edge: impl FnMut(usize) -> (u64, u32),
) {
    let mut k = 0;
    for &degree in degrees {
        let before = out.len();
        for _ in 0..degree {
            let (weight, next) = edge(k);
            if weight > 0 || !live {
                out.push(Edge {
                    weight,
                    next,
                    ship: moves[k],
                    last: false,
                    skip: 0,
                });
            }
            k += 1;
        }
        if out.len() > before {
            out.last_mut().expect("a transition was laid").last = true;
        }
    }
}

/// The lists with each transition pointing past the chain of forced states after it (see
/// [`DpSampler::live`]), cell by cell from the last: a state's chain is known once the next
/// cell's are.
fn forced(mut edges: Vec<Vec<Edge>>) -> Vec<Vec<Edge>> {
    // Per state of the cell after the one at hand, by where its transitions start: the
    // forced cells from it on and where the state after them starts; `None` past the last.
    let mut after: Option<Vec<(u8, u32)>> = None;
    for list in edges.iter_mut().rev() {
        if let Some(chains) = &after {
            for e in list.iter_mut() {
                (e.skip, e.next) = chains[e.next as usize];
            }
        }
        let mut chains = vec![(0, 0); list.len()];
        let mut start = 0;
        for (i, e) in list.iter().enumerate() {
            if !e.last {
                continue;
            }
            chains[start] = if start == i && e.ship == 0 && e.skip < u8::MAX {
                (e.skip + 1, e.next)
            } else {
                (0, start as u32)
            };
            start = i + 1;
        }
        after = Some(chains);
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clue::Clue;
    use crate::engine::CountOptions;
    use crate::engine::dp::forward::Keep;
    use crate::rng::stream;
    use crate::{Dims, Fleet, ProblemSpec, Rules};

    /// The tight passes' sampler with the whole lists, every transition of every state.
    fn whole_of_tight(dp: DpEngine, tight: super::super::tight::Tight) -> DpSampler {
        let super::super::tight::Tight {
            trails,
            completions,
            total,
        } = tight;
        let starts: Vec<Vec<u32>> = trails
            .iter()
            .skip(1)
            .map(|workers| {
                let mut at = 0u32;
                let mut out = Vec::new();
                for t in workers {
                    for &d in &t.degrees {
                        out.push(at);
                        at += u32::from(d);
                    }
                }
                out
            })
            .collect();
        let edges = trails
            .iter()
            .enumerate()
            .map(|(cell, workers)| {
                let mut out = Vec::new();
                for t in workers {
                    let moves = t.moves.as_ref().expect("the moves");
                    lay(&mut out, &t.degrees, moves, false, |k| {
                        let j = t.successor(k);
                        (
                            completions[cell + 1][j],
                            starts.get(cell).map_or(0, |n| n[j]),
                        )
                    });
                }
                out
            })
            .collect();
        DpSampler::of_edges(dp, edges, 0, total)
    }

    /// The sampler of a position, with its whole lists or with the live transitions alone.
    fn sampler(spec: &ProblemSpec, live: bool) -> DpSampler {
        let dp = DpEngine::new(&spec.clone().build().unwrap()).unwrap();
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            ..CountOptions::default()
        };
        let Ok(crate::engine::dp::forward::Pass {
            layers,
            trails,
            total,
        }) = dp.forward::<u64>(&opts, Keep::Moves)
        else {
            panic!("the forward pass runs to the end");
        };
        let crate::engine::dp::marginals::Marginals {
            completions, links, ..
        } = dp.marginals(&layers, &trails, true).unwrap();
        let whole = DpSampler::new(dp, trails, completions, links, total);
        if live { whole.live() } else { whole }
    }

    /// Keeping only the transitions that lead to a layout, and stepping over forced states,
    /// draws seed for seed the very layouts the whole lists draw, from fewer transitions,
    /// each of weight above 0.
    #[test]
    fn the_live_transitions_draw_what_the_whole_lists_draw() {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let d = Dims::new(8, 7);
            let mut spec = ProblemSpec::empty(d, Fleet::straight(&[4, 3, 3, 2, 1]), rules);
            spec.clues = vec![None; d.cells()];
            for c in [3, 17, 30, 44, 50] {
                spec.clues[c] = Some(Clue::Water);
            }
            spec.clues[21] = Some(Clue::Ship);
            let (whole, live) = (sampler(&spec, false), sampler(&spec, true));
            assert_eq!(whole.count(), live.count());
            assert!(live.count() > 1000);
            let edges = |s: &DpSampler| s.edges.iter().map(Vec::len).sum::<usize>();
            assert!(edges(&live) < edges(&whole), "some transitions are dead");
            assert!(live.edges.iter().flatten().all(|e| e.weight > 0));
            assert!(
                live.edges.iter().flatten().any(|e| e.skip > 1),
                "draws step over chains of forced states"
            );
            let (mut a, mut b) = (stream(5, 0, 0), stream(5, 0, 0));
            for _ in 0..500 {
                let layout = live.sample(&mut a).unwrap();
                assert_eq!(Some(layout), whole.sample(&mut b));
            }
        }
    }

    /// The sampler made by the tight passes draws seed for seed what the general passes'
    /// draws, on boards whose layers the workers split, with clues, under both rules.
    #[test]
    fn the_tight_passes_sample_what_the_general_passes_sample() {
        // A board, its fleet, water clues and one ship clue, and fewer layouts than it has.
        type Board = (Dims, &'static [usize], &'static [usize], usize, u64);
        // The second board's labels take four bits: its trails' lists reach bit 30.
        let boards: [Board; 2] = [
            (
                Dims::new(9, 8),
                &[5, 4, 3, 3, 2],
                &[4, 20, 33, 47, 61],
                40,
                100_000,
            ),
            (Dims::new(7, 9), &[8, 3, 2], &[20], 30, 1_000),
        ];
        for ((d, fleet, water, ship, most), rules) in boards
            .into_iter()
            .flat_map(|b| [(b, Rules::Touch), (b, Rules::NoTouch)])
        {
            let mut spec = ProblemSpec::empty(d, Fleet::straight(fleet), rules);
            spec.clues = vec![None; d.cells()];
            for &c in water {
                spec.clues[c] = Some(Clue::Water);
            }
            spec.clues[ship] = Some(Clue::Ship);
            let general = sampler(&spec, true);
            let dp = DpEngine::new(&spec.clone().build().unwrap()).unwrap();
            let opts = CountOptions {
                per_cell: true,
                parallel: true,
                ..CountOptions::default()
            };
            let tight_passes = |dp: &DpEngine| match dp.tight_sampling(&opts) {
                Ok(Some(tight)) => tight,
                _ => panic!("the tight passes apply and run to the end"),
            };
            // Laid out live from the start, the lists are those of the whole lists made live.
            let other = DpEngine::new(&spec.clone().build().unwrap()).unwrap();
            let passes = tight_passes(&other);
            let whole = whole_of_tight(other, passes).live();
            let passes = tight_passes(&dp);
            let tight = DpSampler::from_tight(dp, passes);
            assert_eq!((tight.first, &tight.edges), (whole.first, &whole.edges));
            assert_eq!(tight.count(), general.count());
            assert!(tight.count() > u128::from(most), "{}", tight.count());
            let (mut a, mut b) = (stream(9, 0, 0), stream(9, 0, 0));
            for _ in 0..2000 {
                assert_eq!(tight.sample(&mut a), general.sample(&mut b));
            }
        }
    }
}
