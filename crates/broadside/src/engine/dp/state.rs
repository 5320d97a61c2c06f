//! The DP's state: the labels of the last row of cells, the ship running across, the
//! diagonal bit and the ships used of each type, packed into one `u64` key; and the
//! transition at one cell (a ship continues, a new one starts, or the cell is water). States
//! are kept in sorted stretches ([`Piece`]) with a number beside each.

use num_bigint::BigUint;

use super::DpEngine;

/// A state key: the packed state.
pub(super) type Key = u64;

/// A sorted stretch of a layer: keys and, beside them, a number per state (the partial
/// layouts reaching it in the forward pass, its completions in the backward pass).
#[derive(Default)]
pub(super) struct Piece<C = u64> {
    pub(super) keys: Vec<Key>,
    pub(super) counts: Vec<C>,
}

/// A number of partial layouts or of completions kept per state: `u64`; `u128` for the
/// boards where some state's count passes 2^64, and a big integer where one passes 2^128 (the
/// pass is then run again with the wider type).
pub(super) trait Tally:
    Clone + Default + PartialEq + Send + Sync + std::fmt::Debug + 'static
{
    /// What sums of products of two counts are kept in: per-cell counts and the total.
    type Wide: Clone + Default + Send + Sync + std::fmt::Debug + Into<BigUint> + 'static;
    /// 1 for true, 0 for false.
    fn of(b: bool) -> Self;
    /// The sum, `None` past the type's range.
    fn checked_add(&self, other: &Self) -> Option<Self>;
    fn wide(&self) -> Self::Wide;
    /// `acc + a * b`, `None` past the wide type's range.
    fn mul_add(acc: &Self::Wide, a: &Self::Wide, b: &Self) -> Option<Self::Wide>;
    /// `a + b`, `None` past the wide type's range.
    fn add_wide(a: &Self::Wide, b: &Self::Wide) -> Option<Self::Wide>;
}

impl Tally for u64 {
    type Wide = u128;
    #[inline]
    fn of(b: bool) -> Self {
        b as u64
    }
    #[inline]
    fn checked_add(&self, other: &Self) -> Option<Self> {
        u64::checked_add(*self, *other)
    }
    #[inline]
    fn wide(&self) -> u128 {
        *self as u128
    }
    #[inline]
    fn mul_add(acc: &u128, a: &u128, b: &u64) -> Option<u128> {
        // Both factors are below 2^64 and the products count layouts, so they sum to at
        // most the total, which a 128-bit count of 64-bit states holds.
        Some(acc + a * *b as u128)
    }
    #[inline]
    fn add_wide(a: &u128, b: &u128) -> Option<u128> {
        u128::checked_add(*a, *b)
    }
}

impl Tally for u128 {
    type Wide = u128;
    #[inline]
    fn of(b: bool) -> Self {
        b as u128
    }
    #[inline]
    fn checked_add(&self, other: &Self) -> Option<Self> {
        u128::checked_add(*self, *other)
    }
    #[inline]
    fn wide(&self) -> u128 {
        *self
    }
    #[inline]
    fn mul_add(acc: &u128, a: &u128, b: &u128) -> Option<u128> {
        a.checked_mul(*b).and_then(|x| u128::checked_add(*acc, x))
    }
    #[inline]
    fn add_wide(a: &u128, b: &u128) -> Option<u128> {
        u128::checked_add(*a, *b)
    }
}

impl Tally for BigUint {
    type Wide = BigUint;
    fn of(b: bool) -> Self {
        BigUint::from(b as u8)
    }
    fn checked_add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn wide(&self) -> BigUint {
        self.clone()
    }
    fn mul_add(acc: &BigUint, a: &BigUint, b: &BigUint) -> Option<BigUint> {
        Some(acc + a * b)
    }
    fn add_wide(a: &BigUint, b: &BigUint) -> Option<BigUint> {
        Some(a + b)
    }
}

/// Field layout of a packed state, from the most significant bits down: the labels of the
/// last `width` cells, oldest first; the horizontal label; the diagonal bit; the fleet
/// counters.
#[derive(Clone, Debug)]
pub(super) struct Packing {
    pub(super) label_bits: u32,
    pub(super) width: usize,
    /// The bits below the labels.
    pub(super) low: u32,
    pub(super) horiz_shift: u32,
    pub(super) diag_shift: u32,
    /// Per bit of a key at or above `low`, the age of the label holding it.
    pub(super) ages: [u8; 64],
}

impl Packing {
    #[inline]
    pub(super) fn label_mask(&self) -> Key {
        (1 << self.label_bits) - 1
    }
    /// The label `age` cells back from the youngest (0: the cell to the left).
    #[inline]
    pub(super) fn label(&self, key: Key, age: usize) -> u32 {
        ((key >> (self.low + age as u32 * self.label_bits)) & self.label_mask()) as u32
    }
    /// The age of the label holding bit `bit` of a key.
    #[inline]
    pub(super) fn age_of_bit(&self, bit: u32) -> usize {
        self.ages[bit as usize] as usize
    }
    /// The oldest label: the cell above.
    #[inline]
    pub(super) fn up(&self, key: Key) -> u32 {
        self.label(key, self.width - 1)
    }
    #[inline]
    pub(super) fn horiz(&self, key: Key) -> u32 {
        ((key >> self.horiz_shift) & self.label_mask()) as u32
    }
    #[inline]
    pub(super) fn diag(&self, key: Key) -> bool {
        (key >> self.diag_shift) & 1 == 1
    }
    /// The labels but the oldest, of a state before its cell: its group.
    #[inline]
    pub(super) fn group_in(&self, key: Key) -> Key {
        (key >> self.low) & ((1 << ((self.width as u32 - 1) * self.label_bits)) - 1)
    }
    /// The state after a cell labelled `label`: the oldest label dropped, the fleet counters
    /// kept, the horizontal label and diagonal bit replaced.
    #[inline]
    pub(super) fn shift(&self, key: Key, label: u32, horiz: u32, diag: bool) -> Key {
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
pub(super) enum Move {
    /// The cell is water.
    Water,
    /// A ship already started covers the cell.
    Continue,
    /// A ship of this type starts at the cell.
    Start(usize, Dir),
}

impl Move {
    /// The move in 16 bits, as the sampler keeps it: 0 for no ship starting here, else
    /// `1 + 3 * type + direction`.
    pub(super) fn code(self) -> u16 {
        match self {
            Move::Water | Move::Continue => 0,
            Move::Start(ty, dir) => 1 + 3 * ty as u16 + dir as u16,
        }
    }

    /// The ship a [`Move::code`] starts: its type and direction.
    pub(super) fn start_of(code: u16) -> Option<(usize, Dir)> {
        let c = code.checked_sub(1)?;
        let dir = [Dir::Single, Dir::Across, Dir::Down][usize::from(c % 3)];
        Some((usize::from(c / 3), dir))
    }
}

/// The direction a ship starting at a cell runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    /// A one-cell ship.
    Single,
    /// To the right.
    Across,
    /// Downwards.
    Down,
}

/// Labels: 0 free, 1 occupied and finished, then `k + 1` for "continues, `k >= 1` cells left".
pub(super) const FREE: u32 = 0;
pub(super) const DONE: u32 = 1;

/// The starts a problem allows at a cell, per type: a one-cell ship, a ship across, a ship
/// down.
pub(super) const SINGLE: u8 = 1;
pub(super) const ACROSS: u8 = 2;
pub(super) const DOWN: u8 = 4;

impl DpEngine {
    #[inline]
    pub(super) fn occupied(&self, label: u32) -> bool {
        label != FREE
    }

    /// The label of a finished ship cell: under the touch rule nothing needs to know it is
    /// occupied, so it merges with free and halves the states.
    #[inline]
    pub(super) fn done(&self) -> u32 {
        if self.no_touch { DONE } else { FREE }
    }

    /// Calls `f(next_key, move)` for every transition out of `key` at `cell`.
    #[inline]
    pub(super) fn step(&self, key: Key, cell: usize, mut f: impl FnMut(Key, Move)) {
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

    pub(super) fn is_final(&self, key: Key) -> bool {
        self.counters
            .iter()
            .all(|&(mask, full, _)| key & mask == full)
    }
}

/// A worker's share of a layer of the tight passes: slices of its stretches, in order.
pub(super) type Stretch<'a> = Vec<&'a [(Key, u64)]>;

/// The states from index `from` to `to` of `layer`, as slices of its stretches.
pub(super) fn stretch(layer: &[Vec<(Key, u64)>], from: usize, to: usize) -> Stretch<'_> {
    let mut out = Vec::new();
    let mut at = 0;
    for piece in layer {
        let (a, b) = (at, at + piece.len());
        at = b;
        let (s, e) = (from.max(a), to.min(b));
        if s < e {
            out.push(&piece[s - a..e - a]);
        }
    }
    out
}
