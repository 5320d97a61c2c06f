//! Fixed-size sets of cells, stored as `N` 64-bit words.
//!
//! [`Bits<N>`] is a small `Copy` type whose operators are set operations: `|` union,
//! `&` intersection, `^` symmetric difference, `-` difference and `!` complement (within all
//! `64 * N` bits; mask with the board when that matters). Cells are numbered row-major,
//! `row * width + col`, so a board of `w * h` cells needs `N >= ceil(w * h / 64)` words. The
//! engines are generic over `N` and [`with_words!`](crate::with_words) picks the smallest `N`
//! that fits a board, so small boards pay for one or two words while 32 x 32 boards still work.
//!
//! ```
//! use broadside::bitboard::Bits;
//! let a = Bits::<2>::from_cells([0, 5, 100]);
//! let b = Bits::<2>::from_cells([5]);
//! assert_eq!((a - b).len(), 2);
//! assert!(b.is_subset(a));
//! assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![5]);
//! ```

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// A set of cell indices below `64 * N`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> Bits<N> {
    /// The empty set.
    pub const EMPTY: Self = Bits([0; N]);
    /// How many cells the type can hold.
    pub const CAPACITY: usize = 64 * N;

    /// The set of the given cells.
    ///
    /// # Panics
    /// If a cell is not below [`Self::CAPACITY`].
    pub fn from_cells(cells: impl IntoIterator<Item = usize>) -> Self {
        let mut b = Self::EMPTY;
        for c in cells {
            b.insert(c);
        }
        b
    }

    /// The cells `0..n`.
    pub fn first(n: usize) -> Self {
        let mut b = Self::EMPTY;
        for (i, w) in b.0.iter_mut().enumerate() {
            let lo = i * 64;
            if n >= lo + 64 {
                *w = !0;
            } else if n > lo {
                *w = (1u64 << (n - lo)) - 1;
            }
        }
        b
    }

    /// Adds a cell.
    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn has(self, cell: usize) -> bool {
        cell < Self::CAPACITY && self.0[cell / 64] >> (cell % 64) & 1 == 1
    }

    /// The number of cells in the set.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the two sets share no cell.
    #[inline]
    pub fn is_disjoint(self, other: Self) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & b == 0)
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(self, other: Self) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn lowest(self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The set shifted towards lower indices by `k` cells (`cell - k`), dropping cells below 0.
    #[inline]
    pub fn shift_down(self, k: usize) -> Self {
        let (words, bits) = (k / 64, k % 64);
        let mut out = Self::EMPTY;
        for i in 0..N {
            let src = i + words;
            if src >= N {
                break;
            }
            let mut w = self.0[src] >> bits;
            if bits != 0 && src + 1 < N {
                w |= self.0[src + 1] << (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }

    /// The set shifted towards higher indices by `k` cells (`cell + k`), dropping overflow.
    #[inline]
    pub fn shift_up(self, k: usize) -> Self {
        let (words, bits) = (k / 64, k % 64);
        let mut out = Self::EMPTY;
        for i in (0..N).rev() {
            if i < words {
                break;
            }
            let src = i - words;
            let mut w = self.0[src] << bits;
            if bits != 0 && src >= 1 {
                w |= self.0[src - 1] >> (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }

    /// The cells in increasing order.
    pub fn iter(self) -> Iter<N> {
        Iter {
            bits: self,
            word: 0,
        }
    }
}

/// Iterator over the cells of a [`Bits`], lowest first.
pub struct Iter<const N: usize> {
    bits: Bits<N>,
    word: usize,
}

impl<const N: usize> Iterator for Iter<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < N {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let t = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + t);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<const N: usize> $tr for Bits<N> {
            type Output = Self;
            #[inline]
            fn $f(mut self, rhs: Self) -> Self {
                for i in 0..N {
                    self.0[i] $op rhs.0[i];
                }
                self
            }
        }
    };
}
binop!(BitOr, bitor, |=);
binop!(BitAnd, bitand, &=);
binop!(BitXor, bitxor, ^=);

impl<const N: usize> Sub for Bits<N> {
    type Output = Self;
    #[inline]
    fn sub(mut self, rhs: Self) -> Self {
        for i in 0..N {
            self.0[i] &= !rhs.0[i];
        }
        self
    }
}

impl<const N: usize> Not for Bits<N> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for w in &mut self.0 {
            *w = !*w;
        }
        self
    }
}

impl<const N: usize> BitOrAssign for Bits<N> {
    #[inline]
    fn bitor_assign(&mut self, rhs: Self) {
        *self = *self | rhs;
    }
}

impl<const N: usize> BitAndAssign for Bits<N> {
    #[inline]
    fn bitand_assign(&mut self, rhs: Self) {
        *self = *self & rhs;
    }
}

impl<const N: usize> std::fmt::Debug for Bits<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The largest board, in cells, that the engines handle (64 x 64).
pub const MAX_CELLS: usize = 64 * 64;

/// Runs `$body` with `$n` bound to the smallest supported word count whose bitboard holds
/// `$cells` cells. The word counts are 1, 2, 4, 16 and 64 (up to 4,096 cells).
///
/// # Panics
/// If `$cells` exceeds [`MAX_CELLS`]; validated problems never do.
#[macro_export]
macro_rules! with_words {
    ($cells:expr, $n:ident => $body:expr) => {{
        let cells: usize = $cells;
        if cells <= 64 {
            const $n: usize = 1;
            $body
        } else if cells <= 128 {
            const $n: usize = 2;
            $body
        } else if cells <= 256 {
            const $n: usize = 4;
            $body
        } else if cells <= 1024 {
            const $n: usize = 16;
            $body
        } else if cells <= $crate::bitboard::MAX_CELLS {
            const $n: usize = 64;
            $body
        } else {
            panic!("board of {cells} cells exceeds the supported maximum")
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_word_boundaries() {
        let a = Bits::<2>::from_cells([0, 63, 64, 127]);
        assert_eq!(a.shift_up(1).iter().collect::<Vec<_>>(), vec![1, 64, 65]);
        assert_eq!(
            a.shift_down(1).iter().collect::<Vec<_>>(),
            vec![62, 63, 126]
        );
        assert_eq!(a.shift_down(64).iter().collect::<Vec<_>>(), vec![0, 63]);
        assert_eq!(a.shift_up(70).iter().collect::<Vec<_>>(), vec![70]);
    }

    #[test]
    fn set_algebra() {
        let a = Bits::<1>::from_cells([1, 2, 3]);
        let b = Bits::<1>::from_cells([3, 4]);
        assert_eq!((a | b).len(), 4);
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!((a - b).len(), 2);
        assert!(!a.is_disjoint(b));
        assert_eq!(Bits::<2>::first(70).len(), 70);
        assert_eq!(a.lowest(), Some(1));
        assert!(!a.has(1000));
    }
}
