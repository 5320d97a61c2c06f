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

use std::ops::Range;

use crate::clue::Clue;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

use super::{CountError, CountOptions, CountResult};

mod gather;
use gather::Gather;

/// A state key: the packed state.
type Key = u64;

/// A sorted stretch of a layer: keys and, beside them, a number per state (the partial
/// layouts reaching it in the forward pass, its completions in the backward pass).
#[derive(Default)]
struct Piece {
    keys: Vec<Key>,
    counts: Vec<u64>,
}

/// The states before one cell in pieces that follow one another in key order, one per
/// worker that made them.
struct Layer {
    pieces: Vec<Piece>,
}

impl Layer {
    fn len(&self) -> usize {
        self.pieces.iter().map(|p| p.keys.len()).sum()
    }
}

/// A run of a layer's states: its piece and index range.
type Run = (usize, Range<usize>);

/// What the forward pass records for the backward pass, per layer and worker, in the order
/// it met the states: which of the worker's stretches each state is in (within a stretch the
/// states come in order), its number of successors, and per successor its index in the
/// worker's next piece, with [`SHIP`] set when the move puts a ship on the cell. The
/// backward pass replays it without the keys.
#[derive(Default)]
struct Trail {
    stretches: Vec<u8>,
    degrees: Vec<u8>,
    edges: Vec<u32>,
}

/// What the forward pass keeps of the layers it has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keep {
    /// Nothing: the total is all that is wanted.
    Nothing,
    /// The counts and the trails, for the backward pass.
    Trails,
    /// The keys as well, for the sampler, which steps states again.
    Keys,
}

/// The edge flag of a move that puts a ship on its cell.
const SHIP: u32 = 1 << 31;

/// Exact uniform sampling of layouts through the DP's layers: from the first cell on, each
/// transition is taken with probability proportional to the completions of the state it
/// reaches, so every layout is drawn with probability exactly 1 / (number of layouts).
///
/// The walk follows the forward pass's trails: a state's successors are the edges of its
/// trail, in the order the DP makes its moves, so no state is searched for.
pub struct DpSampler<'p> {
    dp: DpEngine<'p>,
    /// Per layer, its pieces of sorted keys with each state's completions.
    layers: Vec<Layer>,
    /// Per layer and piece, where each state's edges start in the trail of the worker that
    /// met it; that worker is the one whose stretches hold the state.
    links: Vec<Vec<Vec<u64>>>,
    /// Per cell and worker, the edges of the forward trail.
    edges: Vec<Vec<Vec<u32>>>,
    total: u128,
}

impl DpSampler<'_> {
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
        let d = self.dp.problem.dims();
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

/// Why the DP cannot take a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DpUnsupported {
    /// Row or column counts constrain whole lines.
    #[error("row and column counts are global constraints")]
    Counts,
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

/// Field layout of a packed state, from the most significant bits down: the labels of the
/// last `width` cells, oldest first; the horizontal label; the diagonal bit; the fleet
/// counters.
#[derive(Clone, Debug)]
struct Packing {
    label_bits: u32,
    width: usize,
    /// The bits below the labels.
    low: u32,
    horiz_shift: u32,
    diag_shift: u32,
    /// Per bit of a key at or above `low`, the age of the label holding it.
    ages: [u8; 64],
}

impl Packing {
    #[inline]
    fn label_mask(&self) -> Key {
        (1 << self.label_bits) - 1
    }
    /// The label `age` cells back from the youngest (0: the cell to the left).
    #[inline]
    fn label(&self, key: Key, age: usize) -> u32 {
        ((key >> (self.low + age as u32 * self.label_bits)) & self.label_mask()) as u32
    }
    /// The age of the label holding bit `bit` of a key.
    #[inline]
    fn age_of_bit(&self, bit: u32) -> usize {
        self.ages[bit as usize] as usize
    }
    /// The oldest label: the cell above.
    #[inline]
    fn up(&self, key: Key) -> u32 {
        self.label(key, self.width - 1)
    }
    #[inline]
    fn horiz(&self, key: Key) -> u32 {
        ((key >> self.horiz_shift) & self.label_mask()) as u32
    }
    #[inline]
    fn diag(&self, key: Key) -> bool {
        (key >> self.diag_shift) & 1 == 1
    }
    /// The labels but the oldest, of a state before its cell: its group.
    #[inline]
    fn group_in(&self, key: Key) -> Key {
        (key >> self.low) & ((1 << ((self.width as u32 - 1) * self.label_bits)) - 1)
    }
    /// The state after a cell labelled `label`: the oldest label dropped, the fleet counters
    /// kept, the horizontal label and diagonal bit replaced.
    #[inline]
    fn shift(&self, key: Key, label: u32, horiz: u32, diag: bool) -> Key {
        let labels = (self.group_in(key) << self.label_bits) | label as Key;
        let used = key & ((1 << self.diag_shift) - 1);
        (labels << self.low)
            | ((horiz as Key) << self.horiz_shift)
            | ((diag as Key) << self.diag_shift)
            | used
    }
}

/// What a transition does at its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    /// The cell is water.
    Water,
    /// A ship already started covers the cell.
    Continue,
    /// A ship of this type starts at the cell.
    Start(usize, Dir),
}

/// The direction a ship starting at a cell runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    /// A one-cell ship.
    Single,
    /// To the right.
    Across,
    /// Downwards.
    Down,
}

/// Labels: 0 free, 1 occupied and finished, then `k + 1` for "continues, `k >= 1` cells left".
const FREE: u32 = 0;
const DONE: u32 = 1;

/// The starts a problem allows at a cell, per type: a one-cell ship, a ship across, a ship
/// down.
const SINGLE: u8 = 1;
const ACROSS: u8 = 2;
const DOWN: u8 = 4;

/// The DP for one problem.
pub struct DpEngine<'p> {
    problem: &'p Problem,
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

impl<'p> DpEngine<'p> {
    /// Whether the DP can count `problem`, and why not.
    pub fn supports(problem: &Problem) -> Result<(), DpUnsupported> {
        DpEngine::<'_>::new(problem).map(|_| ())
    }

    /// The DP for `problem`, if it applies.
    pub fn new(problem: &'p Problem) -> Result<Self, DpUnsupported> {
        let spec = problem.spec();
        if spec.rows.iter().chain(&spec.cols).any(Option::is_some) {
            return Err(DpUnsupported::Counts);
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
                starts[a * types + t] |= if p.cells.len() == 1 {
                    SINGLE
                } else if p.cells[1] == a + 1 {
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
            problem,
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

    #[inline]
    fn occupied(&self, label: u32) -> bool {
        label != FREE
    }

    /// The label of a finished ship cell: under the touch rule nothing needs to know it is
    /// occupied, so it merges with free and halves the states.
    #[inline]
    fn done(&self) -> u32 {
        if self.no_touch { DONE } else { FREE }
    }

    /// Calls `f(next_key, move)` for every transition out of `key` at `cell`.
    #[inline]
    fn step(&self, key: Key, cell: usize, mut f: impl FnMut(Key, Move)) {
        let pk = &self.pack;
        let w = pk.width;
        let c = self.columns[cell] as usize;
        // Before the first row the labels are free: no row above to check.
        let up = pk.up(key);
        let horiz = pk.horiz(key);
        let left_occ = c > 0 && self.occupied(pk.label(key, 0));
        let ul = c > 0 && pk.diag(key);
        let ur = c + 1 < w && self.occupied(pk.label(key, w - 2));
        // The next cell's diagonal is this column's cell of the previous row.
        let next_diag = self.no_touch && c + 1 < w && self.occupied(up);
        let finish = |k: Key, horiz_label: u32, label: u32| {
            pk.shift(
                k,
                label,
                if c + 1 < w { horiz_label } else { FREE },
                next_diag,
            )
        };
        let up_continues = up >= 2;
        let horiz_continues = horiz >= 2;
        if up_continues || horiz_continues {
            if (up_continues && horiz_continues) || self.water[cell] {
                return;
            }
            if up_continues {
                if self.no_touch && left_occ {
                    return;
                }
                let k = up - 1;
                let label = if k > 1 { k } else { self.done() };
                f(finish(key, FREE, label), Move::Continue);
            } else {
                if self.no_touch && (self.occupied(up) || ur || ul) {
                    return;
                }
                let k = horiz - 1;
                let h = if k > 1 { k } else { FREE };
                f(finish(key, h, self.done()), Move::Continue);
            }
            return;
        }
        if !self.ship[cell] {
            f(finish(key, FREE, FREE), Move::Water);
        }
        if self.water[cell] || (self.no_touch && (left_occ || ul || ur || self.occupied(up))) {
            return;
        }
        // A ship across is cut short by the row above: it may not run under a vertical ship
        // still running down, nor under the no-touch rule run beside any ship there. `block`
        // is how far right the first such cell above is; the nearer, the higher its label.
        let above = key & self.above_right[c];
        let block = if above == 0 {
            usize::MAX
        } else {
            w - 1 - pk.age_of_bit(63 - above.leading_zeros())
        };
        let types = self.lens.len();
        let starts = &self.starts[cell * types..(cell + 1) * types];
        for (t, (&start, &(mask, full, one))) in starts.iter().zip(&self.counters).enumerate() {
            if start == 0 || key & mask >= full {
                continue;
            }
            let k = key + one;
            let l = self.lens[t];
            if l == 1 {
                if start & SINGLE != 0 {
                    f(finish(k, FREE, self.done()), Move::Start(t, Dir::Single));
                }
                continue;
            }
            // A ship of length l starting here: l - 1 cells left after this one.
            let cont = l as u32;
            // Under no-touch the cell above the end's right neighbour matters too.
            let fits = if self.no_touch { l < block } else { l <= block };
            if start & ACROSS != 0 && fits {
                f(finish(k, cont, self.done()), Move::Start(t, Dir::Across));
            }
            if start & DOWN != 0 {
                f(finish(k, FREE, cont), Move::Start(t, Dir::Down));
            }
        }
    }

    /// How many workers a pass over `layer` uses: every thread of the pool when
    /// `opts.parallel` and the layer is large enough to share, else one.
    fn parts(&self, opts: &CountOptions, layer: &Layer) -> usize {
        if opts.parallel && layer.len() >= 4096 {
            // A worker's stretches, one per piece and label, are numbered in a byte.
            let most = (256 >> self.pack.label_bits).max(1);
            rayon::current_num_threads().clamp(1, most)
        } else {
            1
        }
    }

    /// Prepares exact uniform sampling: the forward and backward passes, keeping every
    /// layer's keys, completions and trails (about 30 bytes a state; the empty 10x10 board
    /// has some 1.7e7 states).
    pub fn sampler(self) -> Result<DpSampler<'p>, CountError> {
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            ..CountOptions::default()
        };
        // Without a time limit the forward pass cannot stop early.
        let (mut layers, trails, total) = self
            .forward(&opts, Keep::Keys)
            .map_err(|e| e.unwrap_or(CountError::Overflow))?;
        let (_, completions, links) = self.marginals(&layers, &trails, true)?;
        for (layer, b) in layers.iter_mut().zip(completions) {
            for (piece, b) in layer.pieces.iter_mut().zip(b) {
                piece.counts = b;
            }
        }
        let edges = trails
            .into_iter()
            .map(|(_, t)| t.into_iter().map(|t| t.edges).collect())
            .collect();
        Ok(DpSampler {
            dp: self,
            layers,
            links,
            edges,
            total,
        })
    }

    fn is_final(&self, key: Key) -> bool {
        self.counters
            .iter()
            .all(|&(mask, full, _)| key & mask == full)
    }

    /// Counts layouts, and per-cell counts when `opts.per_cell`, on every core when
    /// `opts.parallel`. A count limit is ignored: the DP takes time polynomial in the number
    /// of states, not in the count.
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        let keep = if opts.per_cell {
            Keep::Trails
        } else {
            Keep::Nothing
        };
        let (layers, trails, total) = match self.forward(opts, keep) {
            Ok(x) => x,
            Err(None) => {
                // A partial DP has no meaningful count: say so rather than guess.
                return Ok(CountResult {
                    count: 0,
                    complete: false,
                    stopped: Some(super::Stop::Time),
                    per_cell: None,
                    engine: super::EngineKind::Dp,
                });
            }
            Err(Some(e)) => return Err(e),
        };
        let per_cell = if opts.per_cell {
            let (per_cell, _, _) = self.marginals(&layers, &trails, false)?;
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

    /// The runs of a layer, one per piece and oldest label (the keys are sorted, so each is
    /// contiguous), each cut into `parts` stretches at common group pivots: `cuts[p]` lists
    /// the stretches worker `p` takes, run by run. The groups of worker `p` all come before
    /// those of worker `p + 1`.
    fn cuts(&self, layer: &Layer, parts: usize) -> Vec<Vec<Run>> {
        let pk = &self.pack;
        let labels = 1usize << pk.label_bits;
        let mut runs: Vec<Run> = Vec::with_capacity(labels * layer.pieces.len());
        for (q, piece) in layer.pieces.iter().enumerate() {
            let mut at = 0;
            for l in 0..labels {
                let end = at + piece.keys[at..].partition_point(|&k| pk.up(k) as usize <= l);
                if end > at {
                    runs.push((q, at..end));
                }
                at = end;
            }
        }
        // Pivots at the quantiles of an even sample of every run's groups.
        let total: usize = runs.iter().map(|r| r.1.len()).sum();
        let every = (total / 4096).max(1);
        let mut sample: Vec<Key> = runs
            .iter()
            .flat_map(|(q, r)| {
                let keys = &layer.pieces[*q].keys[r.clone()];
                keys.iter().step_by(every).map(|&k| pk.group_in(k))
            })
            .collect();
        sample.sort_unstable();
        let mut pivots: Vec<Key> = (1..parts)
            .map(|p| {
                sample
                    .get(sample.len() * p / parts)
                    .copied()
                    .unwrap_or(Key::MAX)
            })
            .collect();
        pivots.push(Key::MAX);
        let mut cuts = vec![Vec::with_capacity(runs.len()); parts];
        for (q, run) in &runs {
            let keys = &layer.pieces[*q].keys;
            let mut from = run.start;
            for (p, &pivot) in pivots.iter().enumerate() {
                let to = if pivot == Key::MAX {
                    run.end
                } else {
                    from + keys[from..run.end].partition_point(|&k| pk.group_in(k) < pivot)
                };
                cuts[p].push((*q, from..to));
                from = to;
            }
        }
        cuts
    }

    /// Calls `f(members)` for each group of the stretches `runs` of `layer`, in increasing
    /// order; `members` lists, per stretch holding states of the group, the stretch's index
    /// in `runs` and the states' index range in its piece.
    fn for_each_group(&self, layer: &Layer, runs: &[Run], mut f: impl FnMut(&[Run])) {
        let pk = &self.pack;
        // The stretches with states left: their index in `runs`, keys, next index, and the
        // group of that next state.
        let mut open: Vec<(usize, &[Key], usize, Key)> = runs
            .iter()
            .enumerate()
            .filter(|(_, (_, r))| !r.is_empty())
            .map(|(i, (q, r))| {
                let keys = &layer.pieces[*q].keys[..r.end];
                (i, keys, r.start, pk.group_in(keys[r.start]))
            })
            .collect();
        let mut members: Vec<Run> = Vec::with_capacity(runs.len());
        while !open.is_empty() {
            let group = open.iter().map(|o| o.3).min().expect("a stretch is open");
            members.clear();
            for (i, keys, at, head) in open.iter_mut() {
                if *head != group {
                    continue;
                }
                let start = *at;
                *at += 1;
                while *at < keys.len() && pk.group_in(keys[*at]) == group {
                    *at += 1;
                }
                *head = keys.get(*at).map_or(Key::MAX, |&k| pk.group_in(k));
                members.push((*i, start..*at));
            }
            f(&members);
            if open.iter().any(|o| o.3 == Key::MAX) {
                open.retain(|o| o.3 != Key::MAX);
            }
        }
    }

    /// One worker's share of the forward step at `cell`: the successors of its stretches of
    /// `layer`, sorted, with their counts, written to `out` through `gather`; with `trail`,
    /// what the backward pass needs. False on overflow.
    fn forward_part(
        &self,
        cell: usize,
        layer: &Layer,
        runs: &[Run],
        out: &mut Piece,
        gather: &mut Gather,
        mut trail: Option<&mut Trail>,
    ) -> bool {
        let n: usize = runs.iter().map(|r| r.1.len()).sum();
        out.keys.clear();
        out.counts.clear();
        out.keys.reserve(n + n / 4);
        out.counts.reserve(n + n / 4);
        if let Some(t) = trail.as_deref_mut() {
            t.stretches.reserve(n);
            t.degrees.reserve(n);
            t.edges.reserve(2 * n);
        }
        // Per successor in the order it came in: its slot in `gather`, and whether its move
        // puts a ship on the cell.
        let mut slots: Vec<(u32, bool)> = Vec::with_capacity(64);
        let mut ok = true;
        let record = trail.is_some();
        self.for_each_group(layer, runs, |members| {
            slots.clear();
            for (r, range) in members {
                let piece = &layer.pieces[runs[*r].0];
                for i in range.clone() {
                    let n = piece.counts[i];
                    let before = slots.len();
                    if let Some(t) = trail.as_deref_mut() {
                        debug_assert!(*r < 256, "parts() keeps the stretches in a byte");
                        t.stretches.push(*r as u8);
                    }
                    self.step(piece.keys[i], cell, |k, mv| {
                        let slot = gather.push(k, n);
                        if record {
                            slots.push((slot, mv != Move::Water));
                        }
                    });
                    if let Some(t) = trail.as_deref_mut() {
                        // At most one successor per type and direction, plus water: the
                        // fleet counters' bits keep the types well under 127.
                        t.degrees.push((slots.len() - before) as u8);
                    }
                }
            }
            ok &= gather.write(out, record);
            if let Some(t) = trail.as_deref_mut() {
                t.edges.extend(slots.iter().map(|&(slot, ship)| {
                    let i = gather.position(slot);
                    if ship { i | SHIP } else { i }
                }));
            }
        });
        ok
    }

    /// The forward pass: the layers (as `keep` says; the last always whole), the trails the
    /// backward pass follows (per cell, the cuts and each worker's trail) unless `keep` is
    /// [`Keep::Nothing`], and the total. `Err(None)` when the time limit ran out.
    #[allow(clippy::type_complexity)]
    fn forward(
        &self,
        opts: &CountOptions,
        what: Keep,
    ) -> Result<(Vec<Layer>, Vec<(Vec<Vec<Run>>, Vec<Trail>)>, u128), Option<CountError>> {
        let keep = what != Keep::Nothing;
        let cells = self.problem.dims().cells();
        // Only per-cell counts need the layers kept for the backward pass.
        let mut layers: Vec<Layer> = Vec::with_capacity(if keep { cells + 1 } else { 0 });
        let mut trails = Vec::with_capacity(if keep { cells } else { 0 });
        let mut current = Layer {
            pieces: vec![Piece {
                keys: vec![0],
                counts: vec![1],
            }],
        };
        // Spent keys and counts, reused for the next layers; one gatherer per worker.
        let mut spare_keys: Vec<Vec<Key>> = Vec::new();
        let mut spare_counts: Vec<Vec<u64>> = Vec::new();
        let bits = self.pack.low + self.pack.label_bits;
        let mut gathers: Vec<Gather> = Vec::new();
        let deadline = opts.time_limit.map(|t| std::time::Instant::now() + t);
        for cell in 0..cells {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(None);
            }
            let parts = self.parts(opts, &current);
            let cuts = self.cuts(&current, parts);
            while gathers.len() < parts {
                gathers.push(Gather::new(bits, self.table_bits));
            }
            let work: Vec<_> = cuts
                .iter()
                .zip(gathers.drain(..))
                .map(|(runs, g)| {
                    let piece = Piece {
                        keys: spare_keys.pop().unwrap_or_default(),
                        counts: spare_counts.pop().unwrap_or_default(),
                    };
                    (runs, g, piece, Trail::default())
                })
                .collect();
            let done = run(work, |(runs, mut gather, mut piece, mut trail)| {
                let ok = self.forward_part(
                    cell,
                    &current,
                    runs,
                    &mut piece,
                    &mut gather,
                    keep.then_some(&mut trail),
                );
                (ok, gather, piece, trail)
            });
            if done.iter().any(|d| !d.0) {
                return Err(Some(CountError::Overflow));
            }
            if let Some(p) = &opts.progress {
                p(cell as u64 + 1, 2 * cells as u64);
            }
            let mut pieces = Vec::with_capacity(parts);
            let mut cell_trails = Vec::with_capacity(parts);
            for (_, g, p, t) in done {
                gathers.push(g);
                pieces.push(p);
                cell_trails.push(t);
            }
            let mut previous = std::mem::replace(&mut current, Layer { pieces });
            if what != Keep::Keys {
                // The backward pass follows the trails, without the keys.
                spare_keys.extend(
                    previous
                        .pieces
                        .iter_mut()
                        .map(|p| std::mem::take(&mut p.keys)),
                );
            }
            if keep {
                layers.push(previous);
                trails.push((cuts, cell_trails));
            } else {
                spare_counts.extend(previous.pieces.into_iter().map(|p| p.counts));
            }
        }
        let total: u128 = current
            .pieces
            .iter()
            .flat_map(|p| p.keys.iter().zip(&p.counts))
            .filter(|(k, _)| self.is_final(**k))
            .map(|(_, &n)| n as u128)
            .sum();
        layers.push(current);
        Ok((layers, trails, total))
    }

    /// One worker's share of the backward step, following its forward `trail`: the
    /// completions of its stretches `runs` of `layer` written to `into` (one slice per
    /// stretch), from the completions `after` of its piece of the next layer; returns the
    /// layouts with a ship on the cell among them, or `None` on overflow. With `links`,
    /// also writes each state's link into the trail (see [`link`]).
    #[allow(clippy::too_many_arguments)]
    fn backward_part(
        &self,
        worker: usize,
        layer: &Layer,
        runs: &[Run],
        trail: &Trail,
        after: &[u64],
        into: &mut [&mut [u64]],
        mut links: Option<&mut [&mut [u64]]>,
    ) -> Option<u128> {
        let mut ships = 0u128;
        let mut ok = true;
        let mut at = 0;
        // The next state of each stretch.
        let mut next: Vec<usize> = runs.iter().map(|r| r.1.start).collect();
        for (&r, &degree) in trail.stretches.iter().zip(&trail.degrees) {
            let (r, degree) = (r as usize, degree as usize);
            let (q, run) = &runs[r];
            let i = next[r];
            next[r] += 1;
            let fwd = layer.pieces[*q].counts[i] as u128;
            let mut b = 0u64;
            for &e in &trail.edges[at..at + degree] {
                let bn = after[(e & !SHIP) as usize];
                match b.checked_add(bn) {
                    Some(x) => b = x,
                    None => ok = false,
                }
                if e & SHIP != 0 {
                    // fwd * bn counts layouts, so it is at most the total.
                    ships += fwd * bn as u128;
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
    #[allow(clippy::type_complexity)]
    fn marginals(
        &self,
        layers: &[Layer],
        trails: &[(Vec<Vec<Run>>, Vec<Trail>)],
        keep: bool,
    ) -> Result<(Vec<u128>, Vec<Vec<Vec<u64>>>, Vec<Vec<Vec<u64>>>), CountError> {
        let cells = layers.len() - 1;
        let mut per_cell = vec![0u128; cells];
        let mut after: Vec<Vec<u64>> = layers[cells]
            .pieces
            .iter()
            .map(|p| p.keys.iter().map(|&k| self.is_final(k) as u64).collect())
            .collect();
        let mut kept = Vec::new();
        let mut kept_links = Vec::new();
        // Spent completions, reused when not kept: every state's entry is written.
        let mut spare: Vec<Vec<u64>> = Vec::new();
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
            let mut here: Vec<Vec<u64>> = layer
                .pieces
                .iter()
                .map(|p| {
                    let mut v = spare.pop().unwrap_or_default();
                    v.resize(p.counts.len(), 0);
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
                .sum::<Option<u128>>()
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
        Ok((per_cell, kept, kept_links))
    }
}

/// A state's link into the trails: the worker that met it (and so the trail, and the piece
/// of the next layer its successors are in), and where its edges start in that trail.
fn link(worker: usize, at: usize) -> u64 {
    ((worker as u64) << 40) | at as u64
}

/// The worker and edge offset of a [`link`].
fn unlink(link: u64) -> (usize, usize) {
    ((link >> 40) as usize, (link & ((1 << 40) - 1)) as usize)
}

/// Each worker's slices of `bufs` (one buffer per piece of a layer), stretch by stretch as
/// `cuts` lists them: the runs of a piece, and the workers' stretches of a run, follow one
/// another.
fn split<'a>(cuts: &[Vec<Run>], bufs: &'a mut [Vec<u64>]) -> Vec<Vec<&'a mut [u64]>> {
    let mut slices: Vec<Vec<&mut [u64]>> = cuts.iter().map(|_| Vec::new()).collect();
    let mut rest: Vec<&mut [u64]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
    for r in 0..cuts[0].len() {
        for (p, cut) in cuts.iter().enumerate() {
            let (q, run) = &cut[r];
            let (s, tail) = std::mem::take(&mut rest[*q]).split_at_mut(run.len());
            slices[p].push(s);
            rest[*q] = tail;
        }
    }
    slices
}

/// `f` over each owned item, on the pool's threads when there are several.
fn run<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    if items.len() == 1 {
        items.into_iter().map(f).collect()
    } else {
        items.into_par_iter().map(f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, ProblemSpec};

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
