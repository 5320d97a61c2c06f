//! What the DP will cost, known before it runs: a bound on the frontiers of each layer,
//! from the placements the problem allows and the fleet.
//!
//! A layer's states differ in their labels (the last row of cells scanned), the ship running
//! across, and the fleet counters. The labels that can stand at a cell are those the allowed
//! placements give it: "a ship down continues `k` more cells" only where a ship of some type
//! starts far enough above, along allowed cells, to leave `k` below. A frontier is a choice of
//! such a label per cell (and of the ship across) whose ships in progress the fleet can supply:
//! no more of them at least `m` long than the fleet has ships of length `m` or more. Counting
//! those frontiers is a small DP along the frontier over how many ships in progress there are
//! of each length class; each frontier then counts once per vector of fleet counters that has
//! used enough ships for those in progress.

use super::DpEngine;
use super::state::{ACROSS, DOWN};

/// The largest number of (ships in progress per length class) tuples the count tracks; past
/// it the classes merge into one.
const MOST_TUPLES: usize = 4096;

/// The most fleet counter vectors the count weighs its frontiers by.
const MOST_COUNTERS: usize = 1 << 12;

impl DpEngine {
    /// An upper bound on the states the forward pass visits, summed over its layers: per
    /// layer, the frontiers the placements and the fleet allow, each weighed by the fleet
    /// counters that can stand with its ships in progress. Measured, it is 1.3 to 1.6 times
    /// the states under the touch rule and 2.5 to 3.4 times under no-touch. It costs about a
    /// millisecond on the standard game.
    pub fn predicted_states(&self) -> f64 {
        let w = self.dims.width;
        let cells = self.dims.cells();
        let types = self.lens.len();
        let max_len = self.lens.iter().copied().max().unwrap_or(1);
        if max_len < 2 {
            // One-cell ships leave no label behind: one frontier a layer (two under no-touch).
            return (cells * if self.no_touch { 2 } else { 1 }) as f64;
        }
        if max_len >= 64 {
            // Labels past a word's bits: only a board a cell or two wide takes such a ship,
            // and its layers hold a few states each.
            return (cells * max_len) as f64;
        }
        // Per cell, the labels "continues v - 1 more cells down" (bit v) it can hold; per
        // boundary, the labels of the ship across running into the next cell.
        let mut down = vec![0u64; cells];
        let mut across = vec![0u64; cells + 1];
        for t in 0..types {
            let l = self.lens[t];
            if l < 2 {
                continue;
            }
            for s in 0..cells {
                let start = self.starts[s * types + t];
                if start & DOWN != 0 {
                    // The cell `m` below the top (m = 0..l-2) has l - m - 1 cells to go.
                    for m in 0..l - 1 {
                        down[s + m * w] |= 1 << (l - m) as u64;
                    }
                }
                if start & ACROSS != 0 {
                    // Before cell s + m + 1 (m = 0..l-2), l - m - 1 cells to go.
                    for m in 0..l - 1 {
                        across[s + m + 1] |= 1 << (l - m) as u64;
                    }
                }
            }
        }
        // Length classes: the distinct lengths, ascending; a ship going down with v - 1 cells
        // to go is in the class of the least length at or past v, a finished ship cell under
        // no-touch in the first class, and the fleet has `supply[c]` ships at least as long
        // as class c's length.
        let mut lens: Vec<usize> = self.lens.clone();
        lens.sort_unstable();
        lens.dedup();
        let counts: Vec<usize> = self
            .counters
            .iter()
            .map(|&(_, full, one)| (full / one) as usize)
            .collect();
        let mut supply: Vec<usize> = lens
            .iter()
            .map(|&m| {
                (0..types)
                    .filter(|&t| self.lens[t] >= m)
                    .map(|t| counts[t])
                    .sum()
            })
            .collect();
        let mut class_of: Vec<usize> = (0..=max_len)
            .map(|v| lens.iter().position(|&m| m >= v).unwrap_or(0))
            .collect();
        let radix = |supply: &[usize]| supply.iter().map(|s| s + 1).product::<usize>();
        if radix(&supply) > MOST_TUPLES {
            supply.truncate(1);
            class_of.iter_mut().for_each(|c| *c = 0);
        }
        let classes = supply.len();
        let stride: Vec<usize> = (0..classes)
            .map(|c| supply[..c].iter().map(|s| s + 1).product())
            .collect();
        let tuples = radix(&supply);
        // The tuple with one more ship of class `c`, if the fleet supplies it.
        let digit = |x: usize, c: usize| x / stride[c] % (supply[c] + 1);
        let add = |x: usize, c: usize| -> Option<usize> {
            if digit(x, c) == supply[c] {
                return None;
            }
            let y = x + stride[c];
            let mut above = 0;
            for k in (0..classes).rev() {
                above += digit(y, k);
                if above > supply[k] {
                    return None;
                }
            }
            Some(y)
        };
        let labels: Vec<(u32, usize)> = (2..=max_len as u32)
            .map(|v| (v, class_of[v as usize]))
            .collect();
        // Per tuple, the fleet counters it can stand with: those that have used enough ships
        // of each class for the ships in progress (past MOST_COUNTERS of them, one).
        let vectors: usize = counts.iter().map(|n| n + 1).product();
        let compat: Vec<f64> = (0..tuples)
            .map(|x| {
                if vectors > MOST_COUNTERS {
                    return 1.0;
                }
                (0..vectors)
                    .filter(|&u| {
                        let mut rest = u;
                        let used: Vec<usize> = counts
                            .iter()
                            .map(|n| {
                                let d = rest % (n + 1);
                                rest /= n + 1;
                                d
                            })
                            .collect();
                        let mut need = 0;
                        (0..classes).rev().all(|c| {
                            need += digit(x, c);
                            let least = if classes == 1 { 0 } else { lens[c] };
                            let have: usize = (0..types)
                                .filter(|&t| self.lens[t] >= least)
                                .map(|t| used[t])
                                .sum();
                            need <= have
                        })
                    })
                    .count() as f64
            })
            .collect();
        // The frontier's cells are taken from the youngest back, per tuple and what the cell
        // just taken (the one to the right) holds: free, a finished ship cell (no-touch),
        // a ship going down (no-touch).
        const FREE: usize = 0;
        const DONE: usize = 1;
        const GOING: usize = 2;
        let going = if self.no_touch { GOING } else { FREE };
        let mut now = vec![0f64; 3 * tuples];
        let mut next = vec![0f64; 3 * tuples];
        let mut total = 0.0;
        for (i, &across) in across.iter().enumerate().take(cells) {
            now.iter_mut().for_each(|x| *x = 0.0);
            now[FREE] = 1.0;
            for j in (i.saturating_sub(w)..i).rev() {
                next.iter_mut().for_each(|x| *x = 0.0);
                let beside = j + 1 < i && (j + 1) % w != 0;
                for x in 0..tuples {
                    for right in [FREE, DONE, GOING] {
                        let n = now[3 * x + right];
                        if n == 0.0 {
                            continue;
                        }
                        let right = if beside { right } else { FREE };
                        next[3 * x + FREE] += n;
                        if right == GOING {
                            continue;
                        }
                        // Under no-touch a finished cell is one ship with the finished cells
                        // beside it in its row (a ship across), and a ship going down has
                        // nothing beside it.
                        if self.no_touch && !self.water[j] {
                            let y = if right == DONE { Some(x) } else { add(x, 0) };
                            if let Some(y) = y {
                                next[3 * y + DONE] += n;
                            }
                        }
                        if right == DONE {
                            continue;
                        }
                        for &(v, c) in &labels {
                            if down[j] >> v & 1 == 1
                                && let Some(y) = add(x, c)
                            {
                                next[3 * y + going] += n;
                            }
                        }
                    }
                }
                // The ship across running into cell i covers cell i - 1: a finished cell of
                // it, charged once.
                if j + 1 == i && i % w != 0 {
                    let done = if self.no_touch { DONE } else { FREE };
                    for &(v, c) in &labels {
                        if across >> v & 1 == 1 {
                            next[3 * add(0, c).expect("one ship the fleet has") + done] += 1.0;
                        }
                    }
                }
                std::mem::swap(&mut now, &mut next);
            }
            total += (0..tuples)
                .map(|x| (now[3 * x] + now[3 * x + 1] + now[3 * x + 2]) * compat[x])
                .sum::<f64>();
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CountOptions;
    use crate::engine::dp::forward::Keep;
    use crate::{Dims, Fleet, ProblemSpec, Rules};

    /// A ship longer than a word has bits, on a board one cell wide, is predicted without
    /// overflowing.
    #[test]
    fn long_ships_on_thin_boards() {
        for len in [63, 64, 100] {
            let spec = ProblemSpec::empty(Dims::new(1, len), Fleet::straight(&[len]), Rules::Touch);
            let dp = DpEngine::new(&spec.build().unwrap()).unwrap();
            assert!(dp.predicted_states() >= 1.0);
        }
    }

    /// The prediction bounds the states the forward pass visits, within a factor of 2 under
    /// the touch rule and 4 under no-touch, on boards empty and with shots.
    #[test]
    fn the_prediction_is_near_the_states() {
        for rules in [Rules::Touch, Rules::NoTouch] {
            for (w, h, fleet, misses) in [
                (6, 5, vec![4, 3, 2, 2, 1], vec![]),
                (7, 7, vec![5, 4, 3, 3, 2], vec![]),
                (8, 8, vec![5, 4, 3, 3, 2], vec![3, 17, 30, 45, 50, 61]),
                (9, 6, vec![4, 3, 3, 2, 2, 2], vec![10, 11, 12, 40]),
            ] {
                let mut spec = ProblemSpec::empty(Dims::new(w, h), Fleet::straight(&fleet), rules);
                spec.clues = vec![None; w * h];
                for m in misses {
                    spec.clues[m] = Some(crate::Clue::Water);
                }
                let dp = DpEngine::new(&spec.build().unwrap()).unwrap();
                let layers = dp
                    .forward::<u64>(&CountOptions::default(), Keep::Trails)
                    .unwrap_or_else(|_| panic!("the forward pass runs"))
                    .layers;
                let states: usize = layers[..layers.len() - 1]
                    .iter()
                    .flat_map(|l| &l.pieces)
                    .map(|p| p.counts.len())
                    .sum();
                let predicted = dp.predicted_states();
                let ratio = predicted / states as f64;
                assert!(
                    (1.0..=if rules == Rules::Touch { 2.0 } else { 4.0 }).contains(&ratio),
                    "{w}x{h} {rules:?}: {states} states, {predicted} predicted"
                );
            }
        }
    }
}
