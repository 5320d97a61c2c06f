//! The DP's backward pass and per-cell counts: completions of each state, replayed along the
//! forward pass's trails, and for each cell the sum over moves that put a ship on it of
//! partial layouts times completions.

use super::DpEngine;
use super::forward::{CellTrails, Layer, Run, SHIP, Trail, link, run, split};
use super::state::Tally;
use crate::engine::CountError;

/// What the backward pass leaves.
pub(super) struct Marginals<C: Tally> {
    /// Per cell, the layouts with a ship there.
    pub per_cell: Vec<C::Wide>,
    /// Per layer, piece by piece, each state's completions (when kept).
    pub completions: Vec<Vec<Vec<C>>>,
    /// Per layer, piece by piece, each state's link into the trails (when kept).
    pub links: Vec<Vec<Vec<u64>>>,
}

impl DpEngine {
    /// One worker's share of the backward step, following its forward `trail`: the
    /// completions of its stretches `runs` of `layer` written to `into` (one slice per
    /// stretch), from the completions `after` of its piece of the next layer; returns the
    /// layouts with a ship on the cell among them, or `None` on overflow. With `links`,
    /// also writes each state's link into the trail (see [`link`]).
    #[allow(
        clippy::too_many_arguments,
        reason = "one worker's share of the hot backward step: its parts passed apart, not bundled per call"
    )]
    pub(super) fn backward_part<C: Tally>(
        &self,
        worker: usize,
        layer: &Layer<C>,
        runs: &[Run],
        trail: &Trail,
        after: &[C],
        into: &mut [&mut [C]],
        mut links: Option<&mut [&mut [u64]]>,
    ) -> Option<C::Wide> {
        let mut ships = C::Wide::default();
        let mut ok = true;
        let mut at = 0;
        // The next state of each stretch.
        let mut next: Vec<usize> = runs.iter().map(|r| r.1.start).collect();
        for (&r, &degree) in trail.stretches.iter().zip(&trail.degrees) {
            let (r, degree) = (r as usize, degree as usize);
            let (q, run) = &runs[r];
            let i = next[r];
            next[r] += 1;
            let fwd = layer.pieces[*q].counts[i].wide();
            let mut b = C::default();
            for &e in &trail.edges[at..at + degree] {
                let bn = &after[(e & !SHIP) as usize];
                match b.checked_add(bn) {
                    Some(x) => b = x,
                    None => ok = false,
                }
                if e & SHIP != 0 {
                    match C::mul_add(&ships, &fwd, bn) {
                        Some(x) => ships = x,
                        None => ok = false,
                    }
                }
            }
            into[r][i - run.start] = b;
            if let Some(l) = links.as_deref_mut() {
                l[r][i - run.start] = link(worker, at);
            }
            at += degree;
        }
        ok.then_some(ships)
    }

    /// The backward pass, along the forward trails: completions per state, and per cell the
    /// layouts with a ship there. With `keep`, also returns per layer, piece by piece (index
    /// `i`: the states before cell `i`), each state's completions and the link from it into
    /// the trails, which is what uniform sampling walks.
    pub(super) fn marginals<C: Tally>(
        &self,
        layers: &[Layer<C>],
        trails: &[CellTrails],
        keep: bool,
    ) -> Result<Marginals<C>, CountError> {
        let cells = layers.len() - 1;
        let mut per_cell = vec![C::Wide::default(); cells];
        let mut after: Vec<Vec<C>> = layers[cells]
            .pieces
            .iter()
            .map(|p| p.keys.iter().map(|&k| C::of(self.is_final(k))).collect())
            .collect();
        let mut kept = Vec::new();
        let mut kept_links = Vec::new();
        // Spent completions, reused when not kept: every state's entry is written.
        let mut spare: Vec<Vec<C>> = Vec::new();
        for cell in (0..cells).rev() {
            let layer = &layers[cell];
            let (cuts, cell_trails) = &trails[cell];
            let zeros = || -> Vec<Vec<u64>> {
                layer
                    .pieces
                    .iter()
                    .map(|p| vec![0u64; p.counts.len()])
                    .collect()
            };
            let mut here: Vec<Vec<C>> = layer
                .pieces
                .iter()
                .map(|p| {
                    let mut v = spare.pop().unwrap_or_default();
                    v.resize(p.counts.len(), C::default());
                    v
                })
                .collect();
            let mut links = if keep { zeros() } else { Vec::new() };
            let into = split(cuts, &mut here);
            let mut link_slices: Vec<Option<Vec<&mut [u64]>>> = if keep {
                split(cuts, &mut links).into_iter().map(Some).collect()
            } else {
                cuts.iter().map(|_| None).collect()
            };
            // Worker `p` made piece `p` of the next layer, where all its successors are.
            let work: Vec<_> = cuts
                .iter()
                .zip(cell_trails)
                .zip(into)
                .zip(link_slices.drain(..))
                .zip(&after)
                .enumerate()
                .collect();
            let ships = run(
                work,
                |(worker, ((((runs, trail), mut into), links), after))| {
                    let mut links = links;
                    self.backward_part(
                        worker,
                        layer,
                        runs,
                        trail,
                        after,
                        &mut into,
                        links.as_deref_mut(),
                    )
                },
            );
            per_cell[cell] = ships
                .into_iter()
                .try_fold(C::Wide::default(), |t, s| C::add_wide(&t, &s?))
                .ok_or(CountError::Overflow)?;
            let done = std::mem::replace(&mut after, here);
            if keep {
                kept.push(done);
                kept_links.push(links);
            } else {
                spare.extend(done);
            }
        }
        if keep {
            kept.push(after);
            kept.reverse();
            kept_links.reverse();
        }
        Ok(Marginals {
            per_cell,
            completions: kept,
            links: kept_links,
        })
    }
}
