//! Exact uniform sampling through the DP's layers.

use super::DpEngine;
use super::forward::{Layer, SHIP, unlink};
use super::state::{Dir, Move};
use crate::layout::{Layout, Ship};

/// Exact uniform sampling of layouts through the DP's layers: from the first cell on, each
/// transition is taken with probability proportional to the completions of the state it
/// reaches, so every layout is drawn with probability exactly 1 / (number of layouts).
///
/// The walk follows the forward pass's trails: a state's successors are the edges of its
/// trail, in the order the DP makes its moves, so no state is searched for.
pub struct DpSampler {
    pub(super) dp: DpEngine,
    /// Per layer, its pieces of sorted keys with each state's completions.
    pub(super) layers: Vec<Layer>,
    /// Per layer and piece, where each state's edges start in the trail of the worker that
    /// met it; that worker is the one whose stretches hold the state.
    pub(super) links: Vec<Vec<Vec<u64>>>,
    /// Per cell and worker, the edges of the forward trail.
    pub(super) edges: Vec<Vec<Vec<u32>>>,
    pub(super) total: u128,
}

impl DpSampler {
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
        // The state: its piece and index in the layer.
        let (mut q, mut i) = (0, 0);
        let mut ships = Vec::new();
        let mut options: Vec<((usize, usize), Move, u64)> = Vec::with_capacity(8);
        for cell in 0..d.cells() {
            options.clear();
            let key = self.layers[cell].pieces[q].keys[i];
            let (worker, at) = unlink(self.links[cell][q][i]);
            let edges = &self.edges[cell][worker][at..];
            let next = &self.layers[cell + 1].pieces[worker];
            // The moves come in the order the forward pass recorded their edges.
            let mut k = 0;
            self.dp.step(key, cell, |_, mv| {
                let j = (edges[k] & !SHIP) as usize;
                options.push(((worker, j), mv, next.counts[j]));
                k += 1;
            });
            let sum: u64 = options.iter().map(|o| o.2).sum();
            let mut r = rng.random_range(0..sum);
            let &(state, mv, _) = options
                .iter()
                .find(|o| {
                    if r < o.2 {
                        true
                    } else {
                        r -= o.2;
                        false
                    }
                })
                .expect("r is below the sum");
            if let Move::Start(ty, dir) = mv {
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
            (q, i) = state;
        }
        Some(Layout { ships })
    }
}
