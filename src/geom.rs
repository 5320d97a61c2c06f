//! Board geometry: dimensions, cells and their neighbourhoods.
//!
//! Cells are numbered row-major from the top-left corner, `row * width + col`, which is the
//! order every engine and file format uses.

use serde::{Deserialize, Serialize};

/// The size of a board: `width` columns and `height` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dims {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
}

impl Dims {
    /// A board of `width` columns and `height` rows.
    pub fn new(width: usize, height: usize) -> Self {
        Dims { width, height }
    }

    /// Number of cells (saturating, so an absurd size cannot overflow).
    pub fn cells(self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// The size if the engines support it: both sides at least 1 and at most
    /// [`MAX_CELLS`](crate::bitboard::MAX_CELLS) cells. Readers call this before allocating
    /// anything per cell.
    pub fn supported(self) -> Result<Dims, String> {
        if self.width == 0 || self.height == 0 || self.cells() > crate::bitboard::MAX_CELLS {
            Err(format!(
                "board size {self} is not supported (each side at least 1, at most {} cells)",
                crate::bitboard::MAX_CELLS
            ))
        } else {
            Ok(self)
        }
    }

    /// The index of the cell at `row`, `col`.
    #[inline]
    pub fn index(self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// The row and column of a cell index.
    #[inline]
    pub fn row_col(self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// Whether a signed position lies on the board; its index if so.
    #[inline]
    pub fn checked(self, row: isize, col: isize) -> Option<usize> {
        (row >= 0 && col >= 0 && (row as usize) < self.height && (col as usize) < self.width)
            .then(|| self.index(row as usize, col as usize))
    }

    /// The up to eight cells around `cell` (orthogonal and diagonal neighbours).
    pub fn neighbours8(self, cell: usize) -> impl Iterator<Item = usize> {
        let (r, c) = self.row_col(cell);
        let (r, c) = (r as isize, c as isize);
        (-1..=1)
            .flat_map(move |dr| (-1..=1).map(move |dc| (dr, dc)))
            .filter(|&d| d != (0, 0))
            .filter_map(move |(dr, dc)| self.checked(r + dr, c + dc))
    }
}

impl std::fmt::Display for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl std::str::FromStr for Dims {
    type Err = String;
    /// Parses `WxH` (width first, as in `10x8` for 10 columns and 8 rows).
    fn from_str(s: &str) -> Result<Self, String> {
        let (w, h) = s
            .trim()
            .split_once(['x', 'X', '×'])
            .ok_or_else(|| format!("expected a size like 10x10, found {s:?}"))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("expected a size like 10x10, found {s:?}"))
        };
        Ok(Dims::new(parse(w)?, parse(h)?))
    }
}
