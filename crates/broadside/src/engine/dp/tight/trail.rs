//! What the tight passes record for the backward pass and the sampler: a worker's trail at a
//! step (its states' forward counts and edges), and the backward step along one.

use super::{INDEX_BITS, PAIR_INDEX_BITS, SHIP, SHIP_TOO};

/// What one worker records at a step for the backward pass: per state met, in order, its
/// forward count and its number of edges; per edge, its successor's place (list and index
/// in the worker's list) with [`SHIP`] (and, over a pair of cells, `SHIP_TOO`); and where
/// each of the worker's lists starts in the next layer.
/// For the sampler, per edge its move's [`Move::code`](super::state::Move::code) as well, and no count.
pub(in crate::engine::dp) struct Trail {
    pub(in crate::engine::dp) counts: Counts,
    pub(in crate::engine::dp) degrees: Vec<u8>,
    pub(in crate::engine::dp) edges: Vec<u32>,
    pub(in crate::engine::dp) starts: Vec<u32>,
    pub(in crate::engine::dp) moves: Option<Vec<u16>>,
    /// The cells the step covers: 1, or 2 (a trail of the per-cell counts alone).
    pub(in crate::engine::dp) cells: u8,
}

impl Default for Trail {
    fn default() -> Self {
        Trail {
            counts: Counts::default(),
            degrees: Vec::new(),
            edges: Vec::new(),
            starts: Vec::new(),
            moves: None,
            cells: 1,
        }
    }
}

/// What the forward pass keeps of the cells it keeps trails for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::dp) enum Record {
    /// A trail of each cell, with the forward counts.
    Cells,
    /// The forward counts, a trail covering two cells of a row where it can: the per-cell
    /// counts alone read them.
    Pairs,
    /// A trail of each cell, with the moves and without the counts: the sampler's.
    Moves,
}

/// A trail's forward counts, one a state met: 32 bits while each fits (every layer of the
/// standard game but its last dozen, so a quarter fewer bytes for the per-cell pass to
/// write), else 64; none for the sampler, which draws from the completions alone.
#[derive(Default)]
pub(in crate::engine::dp) enum Counts {
    #[default]
    None,
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Counts {
    #[inline]
    pub(super) fn push(&mut self, n: u64) {
        match self {
            Counts::None => {}
            Counts::Wide(v) => v.push(n),
            Counts::Narrow(v) => match u32::try_from(n) {
                Ok(n) => v.push(n),
                Err(_) => {
                    let mut wide = Vec::with_capacity(v.capacity());
                    wide.extend(v.iter().map(|&n| u64::from(n)));
                    wide.push(n);
                    *self = Counts::Wide(wide);
                }
            },
        }
    }

    /// The bytes they take.
    pub(super) fn bytes(&self) -> usize {
        match self {
            Counts::None => 0,
            Counts::Narrow(v) => 4 * v.len(),
            Counts::Wide(v) => 8 * v.len(),
        }
    }
}

impl Trail {
    /// The index in the next layer of the state edge `e` leads to.
    #[inline]
    pub(in crate::engine::dp) fn successor(&self, e: usize) -> usize {
        self.successor_of(self.edges[e])
    }

    /// The index in the next layer of the state `edge` leads to.
    #[inline]
    pub(in crate::engine::dp) fn successor_of(&self, edge: u32) -> usize {
        let bits = self.index_bits();
        let e = edge & !self.flags();
        (self.starts[(e >> bits) as usize] + (e & ((1 << bits) - 1))) as usize
    }

    /// The flags of its edges: [`SHIP`], and over a pair of cells `SHIP_TOO` (in a trail of
    /// one cell, that bit is its list's).
    #[inline]
    pub(super) fn flags(&self) -> u32 {
        if self.cells == 2 {
            SHIP | SHIP_TOO
        } else {
            SHIP
        }
    }

    /// The bits of an edge's index within its list.
    #[inline]
    pub(super) fn index_bits(&self) -> u32 {
        index_bits(u32::from(self.cells))
    }
}

/// The bits of an edge's index within its list, in the trail of a step over `cells` cells.
#[inline]
pub(super) fn index_bits(cells: u32) -> u32 {
    if cells == 2 {
        PAIR_INDEX_BITS
    } else {
        INDEX_BITS
    }
}

/// A worker's backward step: per state of its trail, its completions (from `after`, the
/// next layer's) into `here`; and the layouts with a ship on the step's cell (on each of its
/// two cells, for a pair's) through its states, `None` where a sum passes its range.
pub(super) fn backward(tr: &Trail, after: &[u64], here: &mut [u64]) -> Option<[u128; 2]> {
    match &tr.counts {
        Counts::Narrow(c) => backward_by(tr, c.iter().map(|&n| u64::from(n)), after, here),
        Counts::Wide(c) => backward_by(tr, c.iter().copied(), after, here),
        // The sampler's pass: its per-cell counts are not asked for.
        Counts::None => backward_by(tr, std::iter::repeat(0), after, here),
    }
}

/// [`backward`] with the trail's forward `counts`.
#[inline]
fn backward_by(
    tr: &Trail,
    counts: impl Iterator<Item = u64>,
    after: &[u64],
    here: &mut [u64],
) -> Option<[u128; 2]> {
    let mut totals: Option<[u128; 2]> = Some([0; 2]);
    let mut k = 0;
    let mut overflow = false;
    let (bits, flags) = (tr.index_bits(), tr.flags());
    let too = flags & SHIP_TOO;
    for ((n, &d), out) in counts.zip(&tr.degrees).zip(here) {
        let (mut all, mut ship, mut ship_too) = (0u64, 0u64, 0u64);
        for &e in &tr.edges[k..k + usize::from(d)] {
            let place = e & !flags;
            let c =
                after[(tr.starts[(place >> bits) as usize] + (place & ((1 << bits) - 1))) as usize];
            let (a, o) = all.overflowing_add(c);
            all = a;
            overflow |= o;
            if e & SHIP != 0 {
                ship = ship.wrapping_add(c);
            }
            if e & too != 0 {
                ship_too = ship_too.wrapping_add(c);
            }
        }
        k += usize::from(d);
        *out = all;
        totals = totals.and_then(|[a, b]| {
            Some([
                a.checked_add(u128::from(n) * u128::from(ship))?,
                b.checked_add(u128::from(n) * u128::from(ship_too))?,
            ])
        });
    }
    if overflow { None } else { totals }
}
