//! The transfer-matrix engine: a broken-profile dynamic program over cells.
//!
//! Cells are scanned row-major. The state before a cell holds the labels of the last `W`
//! cells scanned, oldest first, so the oldest is the cell above and the youngest the cell to
//! the left. A label is free, occupied (by a ship that does not continue down), or "a
//! vertical ship continues below with `k` cells left". The state also holds the horizontal
//! ship running into the cell (cells left), if any; under the no-touch rule whether the cell
//! diagonally up-left is occupied; and how many ships of each type are already used (a ship
//! is charged when it starts, so ships of different types share labels). At each cell the
//! ship either continues (forced), a new ship starts (only at a placement the problem allows,
//! which carries every clue and per-placement observation), or the cell is water. Hits,
//! misses and rocks are local to the cell.
//!
//! A state is packed into a `u64` key, the labels in its most significant bits, oldest
//! first. Each transition drops the oldest label and appends one, so it shifts the key; the
//! states of a layer are kept *sorted*, and the states that share their labels but the oldest
//! (a *group*) have successors that share a prefix. Grouping is a merge of at most eight
//! sorted runs (one per oldest label), and the successors of a group, summed and put in order
//! in a small table indexed by their low bits ([`gather`]), follow those of the groups
//! before it: each layer is built in order, in one sequential sweep, with no hash table.
//! Counts live in arrays beside the sorted keys.
//!
//! One forward pass keeps the count of partial layouts reaching each state; one backward pass
//! counts completions, and a cell's count is the sum, over transitions that put a ship on it,
//! of forward times backward. The backward pass replays a trail the forward pass records, so
//! it needs no keys. Both passes split the groups between the cores at pivots, so each core
//! writes its own sorted stretch. The DP applies when the state fits in 63 bits: straight
//! fleets, no row or column counts (those are global), and boards up to about 20 columns for
//! the classic fleets. [`DpEngine::supports`] says why not.
//!
//! Counts and per-cell counts that fit in 64 bits take a tighter road to the same answer
//! (`tight/`): the same states keyed the other way round, youngest label on top, so a
//! group is one stretch and its successors go to one list per new label with no merge, each
//! cell's transitions looked up by the key's low bits in a table made at the cell from
//! [`step`]. It takes 0.6 to 0.7 of their time, and the sampler is made from it too (its
//! trails then keep each transition's move); the passes above remain for counts past 64 bits
//! and tables too large.
//!
//! The state, its packing into a key and the transition at one cell are in `state.rs`; the
//! layers and the forward pass, split between the cores, in `forward.rs`; the backward pass
//! and the per-cell counts in `marginals.rs`; the uniform sampler in `sample.rs`; the tight
//! pass in `tight/`, which on a problem the left-right mirror maps onto itself keeps one
//! state of each mirror pair at the start of every row, and on one the up-down flip maps onto
//! itself works out the per-cell counts of the rows from the middle down alone (`mirror.rs`);
//! the replay of a wider position's trails for positions that narrow it (a game's over its
//! empty board) in `replay.rs`.
//!
//! [`step`]: DpEngine::step

mod forward;
mod gather;
mod marginals;
mod mirror;
mod predict;
mod replay;
mod sample;
mod state;
mod tight;

pub use replay::{DpReplay, KEPT_SWEEPS, REPLAY_MEMORY, SWEEPS_MEMORY};
pub use sample::DpSampler;

use crate::geom::Dims;
use crate::problem::Problem;
use crate::rules::Rules;

use super::{CountError, CountOptions, CountResult};
use crate::clue::Clue;
use forward::{Keep, Pass};
use num_bigint::BigUint;
use state::{ACROSS, DONE, DOWN, Key, Packing, SINGLE};

/// Why a pass ended without its answer: an error of the count, or its time limit or
/// cancellation.
#[derive(Debug)]
pub(super) enum Halt {
    /// The count cannot be had this way (overflow, memory).
    Failed(CountError),
    /// The time limit ran out or the count was cancelled.
    Stopped(super::Stop),
}

/// Why the DP cannot take a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DpUnsupported {
    /// Row or column counts constrain whole lines.
    #[error("row and column counts are global constraints")]
    Counts,
    /// A Digital Battleships puzzle's lines are sums of digits, global constraints too.
    #[error("a Digital Battleships puzzle's row and column sums are global constraints")]
    Digital,
    /// A polyomino ship.
    #[error("the fleet has a ship that is not straight")]
    Polyomino,
    /// A sonar reading constrains a whole ring of cells.
    #[error("sonar readings constrain rings of cells, not single cells")]
    Sonar,
    /// The state does not fit in 63 bits.
    #[error("the board is too wide for the DP's 63-bit state")]
    TooWide,
}

/// The DP for one problem.
pub struct DpEngine {
    /// The board's size.
    dims: Dims,
    pack: Packing,
    /// For each type: its length.
    lens: Vec<usize>,
    /// Per type, its fleet counter in the key: the counter's mask, the counter's value
    /// when the fleet has no more of the type, and one.
    counters: Vec<(Key, Key, Key)>,
    /// The starts the problem allows, at index `cell * types + type`: [`SINGLE`], [`ACROSS`]
    /// and [`DOWN`] bits for the placements anchored at the cell.
    starts: Vec<u8>,
    /// Per cell, its column.
    columns: Vec<u16>,
    water: Vec<bool>,
    ship: Vec<bool>,
    no_touch: bool,
    /// Per column, the bits of the labels of the cells above to the right that a ship
    /// across starting there could reach and that would block it: those of any occupied
    /// label under no-touch, else those of labels that continue down.
    above_right: Vec<Key>,
    /// The most low key bits a worker sums successors in a table for (see [`Gather`]).
    table_bits: u32,
}
impl DpEngine {
    /// Whether the DP can count `problem`, and why not.
    pub fn supports(problem: &Problem) -> Result<(), DpUnsupported> {
        DpEngine::new(problem).map(|_| ())
    }

    /// The DP for `problem`, if it applies.
    pub fn new(problem: &Problem) -> Result<Self, DpUnsupported> {
        let spec = problem.spec();
        if spec.rows.iter().chain(&spec.cols).any(Option::is_some) {
            return Err(match spec.is_digital() {
                true => DpUnsupported::Digital,
                false => DpUnsupported::Counts,
            });
        }
        if !problem.any_of().is_empty() {
            return Err(DpUnsupported::Sonar);
        }
        let fleet = problem.fleet();
        let mut lens = Vec::new();
        let mut counts = Vec::new();
        for t in fleet.types() {
            lens.push(t.shape.straight_len().ok_or(DpUnsupported::Polyomino)?);
            counts.push(t.count);
        }
        // Labels FREE, DONE, then "continues with k cells left" as k + 1.
        let max_len = lens.iter().copied().max().unwrap_or(1) as u32;
        let nlabels = max_len + 1;
        let label_bits = (32 - (nlabels - 1).leading_zeros()).max(1);
        let d = problem.dims();
        let mut used_shift = Vec::new();
        let mut used_bits = Vec::new();
        let mut at = 0;
        for &n in &counts {
            let b = (usize::BITS - n.leading_zeros()).max(1);
            used_shift.push(at);
            used_bits.push(b);
            at += b;
        }
        let diag_shift = at;
        let horiz_shift = diag_shift + 1;
        let low = horiz_shift + label_bits;
        if low as usize + d.width * label_bits as usize > 63 {
            return Err(DpUnsupported::TooWide);
        }
        let cells = d.cells();
        let types = lens.len();
        let mut starts = vec![0u8; cells * types];
        for t in 0..types {
            for p in problem.placements(t) {
                let a = p.cells[0];
                // By rows, not by `cells[1] == a + 1`: on a board one cell wide the next cell
                // down is also the next index.
                starts[a * types + t] |= if p.cells.len() == 1 {
                    SINGLE
                } else if d.row_col(p.cells[1]).0 == d.row_col(a).0 {
                    ACROSS
                } else {
                    DOWN
                };
            }
        }
        let counters = (0..types)
            .map(|t| {
                let mask = ((1 << used_bits[t]) - 1) << used_shift[t];
                (
                    mask,
                    (counts[t] as Key) << used_shift[t],
                    1 << used_shift[t],
                )
            })
            .collect();
        let water = (0..cells)
            .map(|c| matches!(spec.clue(c), Some(Clue::Water | Clue::Blocked)))
            .collect();
        let ship = (0..cells)
            .map(|c| spec.clue(c).is_some_and(Clue::is_ship))
            .collect();
        Ok(DpEngine {
            dims: d,
            pack: Packing {
                label_bits,
                width: d.width,
                low,
                horiz_shift,
                diag_shift,
                ages: std::array::from_fn(|b| ((b as u32).saturating_sub(low) / label_bits) as u8),
            },
            lens,
            counters,
            starts,
            columns: (0..cells).map(|c| (c % d.width) as u16).collect(),
            water,
            ship,
            no_touch: problem.rules() == Rules::NoTouch,
            above_right: (0..d.width)
                .map(|c| {
                    let no_touch = problem.rules() == Rules::NoTouch;
                    let label =
                        ((1 << label_bits) - 1) & if no_touch { !0 } else { !(DONE as Key) };
                    // The cells j = 1..=n to the right, at ages w - 1 - j.
                    let n = (max_len as usize).min(d.width - 1 - c);
                    (1..=n).fold(0, |m, j| {
                        m | label << (low + (d.width - 1 - j) as u32 * label_bits)
                    })
                })
                .collect(),
            table_bits: gather::MAX_TABLE_BITS,
        })
    }

    /// Prepares exact uniform sampling: the forward and backward passes, keeping every
    /// transition that leads to some layout with the number of layouts it leads to (16
    /// bytes a transition, about 30 a state; the empty 10x10 board has some 1.7e7 states, a
    /// game's later positions far fewer with a layout ahead). The passes themselves hold
    /// every state until the sampler is made.
    ///
    /// Past the DP's memory limit ([`crate::engine::limits::DP_MEMORY_LIMIT`]) this is
    /// [`CountError::Memory`].
    pub fn sampler(self) -> Result<DpSampler, CountError> {
        Ok(self
            .sampler_within(None)?
            .expect("without a time limit the forward pass runs to the end"))
    }

    /// [`DpEngine::sampler`] in at most `time_limit`: `None` when it ran out.
    pub fn sampler_within(
        self,
        time_limit: Option<std::time::Duration>,
    ) -> Result<Option<DpSampler>, CountError> {
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            time_limit,
            ..CountOptions::default()
        };
        // The tight passes where they apply (the same transitions in the same order, so the
        // same layouts); the general ones past what their edges can name.
        match self.tight_sampling(&opts) {
            Ok(Some(tight)) => return Ok(Some(DpSampler::from_tight(self, tight))),
            Err(Halt::Stopped(_)) => return Ok(None),
            Err(Halt::Failed(CountError::Memory(budget))) => {
                return Err(CountError::Memory(budget));
            }
            Ok(None) | Err(Halt::Failed(_)) => {}
        }
        let Pass {
            layers,
            trails,
            total,
        } = match self.forward::<u64>(&opts, Keep::Moves) {
            Ok(x) => x,
            Err(Halt::Stopped(_)) => return Ok(None),
            Err(Halt::Failed(e)) => return Err(e),
        };
        let marginals::Marginals {
            completions, links, ..
        } = self.marginals(&layers, &trails, true)?;
        drop(layers);
        Ok(Some(
            DpSampler::new(self, trails, completions, links, total).live(),
        ))
    }

    /// Counts layouts, and per-cell counts when `opts.per_cell`, on every core when
    /// `opts.parallel`. A count limit is ignored: the DP takes time polynomial in the number
    /// of states, not in the count.
    ///
    /// States keep their counts in 64 bits (the tight pass, where its tables fit); where one
    /// passes 2^64 the general passes run again with 128 bits (twice the memory for the
    /// counts). A count past 2^128 is [`CountError::Overflow`].
    ///
    /// With `opts.replay`, a position that narrows the replay's wider one is counted by
    /// replaying its trails ([`DpReplay`]).
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        if let Some(replay) = &opts.replay
            && let Some(r) = replay.count(self, opts)
        {
            return r;
        }
        let general = match self.tight_count(opts) {
            Ok(Some(r)) => return Ok(r),
            Ok(None) => self.count_in::<u64>(opts),
            Err(e) => Err(e),
        };
        match general {
            Err(CountError::Overflow) => self.count_in::<u128>(opts),
            r => r,
        }
    }

    /// [`DpEngine::count`] in integers of any size: where a state's count passes 2^128 the
    /// passes run a third time with big integers, slower and with more memory per state
    /// than the 64- and 128-bit passes.
    pub fn count_big(&self, opts: &CountOptions) -> Result<CountResult<BigUint>, CountError> {
        match self.count(opts) {
            Err(CountError::Overflow) => self.count_past_128(opts),
            r => r.map(CountResult::into_big),
        }
    }

    /// The big-integer pass alone, for a count already known to pass 2^128.
    pub(super) fn count_past_128(
        &self,
        opts: &CountOptions,
    ) -> Result<CountResult<BigUint>, CountError> {
        self.count_in::<BigUint>(opts)
    }

    fn count_in<C: state::Tally>(
        &self,
        opts: &CountOptions,
    ) -> Result<CountResult<C::Wide>, CountError> {
        let keep = if opts.per_cell {
            Keep::Trails
        } else {
            Keep::Nothing
        };
        let Pass {
            layers,
            trails,
            total,
        } = match self.forward::<C>(opts, keep) {
            Ok(x) => x,
            Err(Halt::Stopped(stop)) => {
                // A partial DP has no meaningful count: say so rather than guess.
                return Ok(CountResult {
                    count: C::Wide::default(),
                    complete: false,
                    stopped: Some(stop),
                    per_cell: None,
                    engine: super::EngineKind::Dp,
                });
            }
            Err(Halt::Failed(e)) => return Err(e),
        };
        let per_cell = if opts.per_cell {
            let per_cell = self.marginals(&layers, &trails, false)?.per_cell;
            if let Some(p) = &opts.progress {
                let cells = per_cell.len() as u64;
                p(2 * cells, 2 * cells);
            }
            Some(per_cell)
        } else {
            None
        };
        Ok(CountResult {
            count: total,
            complete: true,
            stopped: None,
            per_cell,
            engine: super::EngineKind::Dp,
        })
    }
}

/// For the unit tests: the problem of a `w`x`h` board with ships of the lengths `fleet` and
/// `clues` under `rules`.
#[cfg(test)]
pub(super) fn test_problem(
    w: usize,
    h: usize,
    fleet: &[usize],
    rules: Rules,
    clues: &[(usize, Clue)],
) -> Problem {
    let mut spec = crate::ProblemSpec::empty(Dims::new(w, h), crate::Fleet::straight(fleet), rules);
    if !clues.is_empty() {
        spec.clues = vec![None; w * h];
        for &(c, clue) in clues {
            spec.clues[c] = Some(clue);
        }
    }
    spec.build().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, ProblemSpec};

    /// The big-integer pass counts what the 64-bit pass counts, per cell too, on boards
    /// where every kind of move happens (touching or not, ships across and down).
    #[test]
    fn big_integers_count_as_machine_words_do() {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let spec =
                ProblemSpec::empty(Dims::new(6, 5), Fleet::straight(&[4, 3, 2, 2, 1]), rules);
            let problem = spec.build().unwrap();
            let dp = DpEngine::new(&problem).unwrap();
            for parallel in [false, true] {
                let opts = CountOptions {
                    per_cell: true,
                    parallel,
                    ..CountOptions::default()
                };
                let small = dp.count_in::<u64>(&opts).unwrap();
                let big = dp.count_in::<BigUint>(&opts).unwrap();
                assert!(small.count > 1000);
                assert_eq!(small.into_big(), big);
            }
        }
    }

    /// Summing successors by sorting, as wide states must, gives what the table gives.
    #[test]
    fn sorting_successors_agrees_with_the_table() {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let spec =
                ProblemSpec::empty(Dims::new(6, 5), Fleet::straight(&[4, 3, 2, 2, 1]), rules);
            let problem = spec.build().unwrap();
            let table = DpEngine::new(&problem).unwrap();
            let mut sort = DpEngine::new(&problem).unwrap();
            sort.table_bits = 0;
            for parallel in [false, true] {
                let opts = CountOptions {
                    per_cell: true,
                    parallel,
                    ..CountOptions::default()
                };
                let (a, b) = (table.count(&opts).unwrap(), sort.count(&opts).unwrap());
                assert!(a.count > 0);
                assert_eq!(a.count, b.count);
                assert_eq!(a.per_cell, b.per_cell);
            }
        }
    }
}
