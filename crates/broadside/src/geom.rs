//! Board geometry: dimensions, cells and their neighbourhoods.
//!
//! Cells are numbered row-major from the top-left corner, `row * width + col`, which is the
//! order every engine and file format uses.

use serde::{Deserialize, Serialize};

/// A symmetry of a board (see [`Dims::symmetries`]): rows and columns swapped (square boards
/// only), then rows and columns each read backwards or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// Where `cell` of a board of size `dims` goes.
    #[inline]
    pub fn apply(self, dims: Dims, cell: usize) -> usize {
        let (r, c) = dims.row_col(cell);
        let (r, c) = if self.transpose { (c, r) } else { (r, c) };
        let r = if self.flip_rows {
            dims.height - 1 - r
        } else {
            r
        };
        let c = if self.flip_cols {
            dims.width - 1 - c
        } else {
            c
        };
        dims.index(r, c)
    }
}

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
    pub fn supported(self) -> Result<Dims, SizeError> {
        if self.width == 0 || self.height == 0 || self.cells() > crate::bitboard::MAX_CELLS {
            Err(SizeError::Unsupported(self))
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

    /// The reflections and rotations that map the board onto itself: eight on a square
    /// board, four otherwise; the identity first.
    pub fn symmetries(self) -> Vec<Symmetry> {
        let transposes: &[bool] = if self.width == self.height {
            &[false, true]
        } else {
            &[false]
        };
        let mut out = Vec::new();
        for &transpose in transposes {
            for flip_rows in [false, true] {
                for flip_cols in [false, true] {
                    out.push(Symmetry {
                        transpose,
                        flip_rows,
                        flip_cols,
                    });
                }
            }
        }
        out
    }

    /// The symmetries of the board ([`Dims::symmetries`]) that map the set `cells` onto
    /// itself, the identity first.
    pub fn symmetries_keeping(self, cells: &[usize]) -> Vec<Symmetry> {
        let mut set = cells.to_vec();
        set.sort_unstable();
        self.symmetries()
            .into_iter()
            .filter(|g| {
                let mut moved: Vec<usize> = set.iter().map(|&c| g.apply(self, c)).collect();
                moved.sort_unstable();
                moved == set
            })
            .collect()
    }

    /// Whether a signed position lies on the board; its index if so.
    #[inline]
    pub fn checked(self, row: isize, col: isize) -> Option<usize> {
        (row >= 0 && col >= 0 && (row as usize) < self.height && (col as usize) < self.width)
            .then(|| self.index(row as usize, col as usize))
    }

    /// A cell's name: column letter and row number, `A1` at the top left (`AA1` after `Z1`).
    /// Shots, heat maps and messages all name cells this way.
    pub fn cell_name(self, cell: usize) -> String {
        let (r, c) = self.row_col(cell);
        name_at(r, c)
    }

    /// Parses a cell name (`A1`, `j10`, `AA3`) into a cell of this board.
    pub fn parse_cell(self, s: &str) -> Result<usize, CellError> {
        let letters: String = s.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let digits = &s[letters.len()..];
        if letters.is_empty() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(CellError::Malformed(s.to_string()));
        }
        let mut col = 0usize;
        for ch in letters.to_ascii_uppercase().chars() {
            col = col
                .saturating_mul(26)
                .saturating_add((ch as u8 - b'A') as usize + 1);
        }
        let col = col - 1;
        let row: usize = digits
            .parse()
            .map_err(|_| CellError::Malformed(s.to_string()))?;
        if row == 0 || row > self.height || col >= self.width {
            return Err(CellError::OffBoard {
                cell: s.to_string(),
                dims: self,
            });
        }
        Ok(self.index(row - 1, col))
    }

    /// Cells as names, runs along a row or down a column joined: `"A1-C1 E4"`.
    pub fn cell_list(self, cells: &[usize]) -> String {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        let mut parts: Vec<String> = Vec::new();
        let mut used = vec![false; cells.len()];
        for i in 0..cells.len() {
            if used[i] {
                continue;
            }
            used[i] = true;
            // Extend along the row, else down the column.
            let mut last = cells[i];
            for step in [1, self.width] {
                let mut run = vec![];
                let mut next = last + step;
                while let Some(j) = cells.iter().position(|&c| c == next) {
                    if used[j] || (step == 1 && next.is_multiple_of(self.width)) {
                        break;
                    }
                    run.push(j);
                    next += step;
                }
                if let Some(&end) = run.last() {
                    for &j in &run {
                        used[j] = true;
                    }
                    last = cells[end];
                    break;
                }
            }
            parts.push(if last == cells[i] {
                self.cell_name(last)
            } else {
                format!("{}-{}", self.cell_name(cells[i]), self.cell_name(last))
            });
        }
        parts.join(" ")
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

/// A column's name: A, B, ..., Z, AA, AB, ...
pub fn column_name(mut c: usize) -> String {
    let mut s = String::new();
    loop {
        s.insert(0, (b'A' + (c % 26) as u8) as char);
        if c < 26 {
            return s;
        }
        c = c / 26 - 1;
    }
}

/// The name of the cell at `row`, `col` (0-based), as [`Dims::cell_name`] gives it.
pub fn name_at(row: usize, col: usize) -> String {
    format!("{}{}", column_name(col), row + 1)
}

/// A cell name that does not name a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellError {
    /// Not a column letter followed by a row number.
    #[error("expected a cell like B5 (column letter, row number), found {0:?}")]
    Malformed(String),
    /// A well-formed name outside the board.
    #[error("cell {cell} is off the {dims} board")]
    OffBoard {
        /// The name as given.
        cell: String,
        /// The board.
        dims: Dims,
    },
}

/// A board size that is not `WxH` or that the engines do not support.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SizeError {
    /// Not of the form `WxH`.
    #[error("expected a size like 10x10, found {0:?}")]
    Malformed(String),
    /// A side too large to be a number of cells at all.
    #[error(
        "board size {0} is far too large (at most {max} cells)",
        max = crate::bitboard::MAX_CELLS
    )]
    TooLarge(String),
    /// Zero rows or columns, or more cells than the engines take.
    #[error(
        "board size {0} is not supported (each side at least 1, at most {max} cells)",
        max = crate::bitboard::MAX_CELLS
    )]
    Unsupported(Dims),
}

impl std::fmt::Display for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl std::str::FromStr for Dims {
    type Err = SizeError;
    /// Parses `WxH` (width first, as in `10x8` for 10 columns and 8 rows).
    fn from_str(s: &str) -> Result<Self, SizeError> {
        let bad = || SizeError::Malformed(s.to_string());
        let (w, h) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let parse = |t: &str| {
            let t = t.trim();
            t.parse::<usize>().map_err(|_| {
                if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
                    SizeError::TooLarge(s.trim().to_string())
                } else {
                    bad()
                }
            })
        };
        Ok(Dims::new(parse(w)?, parse(h)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_columns_and_cells() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(27), "AB");
        let d = Dims::new(30, 12);
        for cell in 0..d.cells() {
            assert_eq!(d.parse_cell(&d.cell_name(cell)), Ok(cell));
        }
        assert_eq!(d.parse_cell("ab12"), Ok(d.index(11, 27)));
        assert!(matches!(
            d.parse_cell("A13"),
            Err(CellError::OffBoard { .. })
        ));
        assert!(matches!(d.parse_cell("13"), Err(CellError::Malformed(_))));
        let d = Dims::new(5, 5);
        assert_eq!(d.cell_list(&[2, 0, 1, 4, 9, 14, 24]), "A1-C1 E1-E3 E5");
    }
}
