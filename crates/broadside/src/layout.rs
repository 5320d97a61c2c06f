//! Layouts: a whole fleet placed on a board, and their picture as a grid of symbols.
//!
//! A [`Layout`] is a list of ships, each a ship type and the cells it covers. Its grid form
//! ([`Layout::to_rows`], [`Layout::from_rows`]) writes straight ships with the segment symbols
//! `o < > ^ v m` (unambiguous even when ships touch: `<><>` is two ships) and polyomino ships
//! with a letter per ship (`a`-`z`, then `A`-`Z`); `.` is water.

use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::placement::segment_at;
use crate::shape::{Segment, Shape};

/// Why a layout does not fit its board and fleet, or why its picture cannot be read.
/// Rows and columns are 1-based, cells named as on the board (`A1`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// A ship covers a cell off the board.
    #[error("a ship lies off the board")]
    OffBoard,
    /// A ship's type is not in the fleet.
    #[error("ship type {0} is not in the fleet")]
    UnknownType(usize),
    /// A ship's cells are not a shape (not connected, or empty).
    #[error("a ship's cells are not a shape: {0}")]
    NotAShape(String),
    /// A ship's shape is not its type's.
    #[error("a ship of type {0} has the wrong shape")]
    WrongShape(String),
    /// The picture has the wrong number of rows.
    #[error("{rows} solution rows for a height of {height}")]
    Height {
        /// Rows given.
        rows: usize,
        /// Rows on the board.
        height: usize,
    },
    /// A row of the picture has the wrong number of symbols.
    #[error("solution row {row} has {symbols} symbols for a width of {width}")]
    Width {
        /// The row (1-based).
        row: usize,
        /// Symbols in it.
        symbols: usize,
        /// Columns on the board.
        width: usize,
    },
    /// A symbol that cannot start a ship where it stands.
    #[error("solution symbol {symbol:?} at {cell} does not start a ship")]
    BadStart {
        /// The symbol.
        symbol: char,
        /// Its cell.
        cell: String,
    },
    /// A straight ship that runs off the board or does not end with its end symbol.
    #[error("the ship starting at {0} does not end properly")]
    Unended(String),
    /// A ship whose shape no fleet type has.
    #[error("the ship at {0} has no type in the fleet")]
    NoType(String),
}

/// One placed ship.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ship {
    /// Index of its type in the fleet.
    pub ty: usize,
    /// Covered cells, increasing.
    pub cells: Vec<usize>,
}

/// A set of placed ships. Two layouts are equal when they hold the same ships, in any order.
#[derive(Debug, Eq, Default)]
pub struct Layout {
    /// The ships, in no particular order.
    pub ships: Vec<Ship>,
}

// Copies reuse the buffers they overwrite: a rollout copies one layout into many games.
impl Clone for Ship {
    fn clone(&self) -> Ship {
        Ship {
            ty: self.ty,
            cells: self.cells.clone(),
        }
    }

    fn clone_from(&mut self, source: &Ship) {
        self.ty = source.ty;
        self.cells.clone_from(&source.cells);
    }
}

impl Clone for Layout {
    fn clone(&self) -> Layout {
        Layout {
            ships: self.ships.clone(),
        }
    }

    fn clone_from(&mut self, source: &Layout) {
        self.ships.clone_from(&source.ships);
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Self) -> bool {
        self.canonical_ships() == other.canonical_ships()
    }
}

impl Layout {
    /// The ships sorted, for comparisons.
    pub fn canonical_ships(&self) -> Vec<Ship> {
        let mut v = self.ships.clone();
        v.sort();
        v
    }

    /// Whether each ship is on the board and matches a fleet type's shape (a structural check:
    /// [`crate::check`] checks the rest).
    pub fn fits(&self, dims: Dims, fleet: &Fleet) -> Result<(), LayoutError> {
        for s in &self.ships {
            if s.cells.iter().any(|&c| c >= dims.cells()) {
                return Err(LayoutError::OffBoard);
            }
            let Some(t) = fleet.types().get(s.ty) else {
                return Err(LayoutError::UnknownType(s.ty));
            };
            let shape = Shape::new(s.cells.iter().map(|&c| dims.row_col(c)))
                .map_err(|e| LayoutError::NotAShape(e.to_string()))?;
            if shape.canonical() != t.shape {
                return Err(LayoutError::WrongShape(t.name.clone()));
            }
        }
        Ok(())
    }

    /// All covered cells.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.ships.iter().flat_map(|s| s.cells.iter().copied())
    }

    /// The grid form, one string per row.
    pub fn to_rows(&self, dims: Dims, fleet: &Fleet) -> Vec<String> {
        let mut grid = vec!['.'; dims.cells()];
        let mut letters = ('a'..='z').chain('A'..='Z');
        for s in &self.ships {
            let straight = fleet.types()[s.ty].shape.straight_len().is_some();
            let letter = if straight { None } else { letters.next() };
            for &c in &s.cells {
                grid[c] = match letter {
                    Some(l) => l,
                    None => segment_at(dims, &s.cells, c).map_or('?', Segment::symbol),
                };
            }
        }
        grid.chunks(dims.width)
            .map(|r| r.iter().collect())
            .collect()
    }

    /// Reads the grid form. Each row must have `dims.width` symbols (spaces are ignored).
    pub fn from_rows(rows: &[String], dims: Dims, fleet: &Fleet) -> Result<Layout, LayoutError> {
        if rows.len() != dims.height {
            return Err(LayoutError::Height {
                rows: rows.len(),
                height: dims.height,
            });
        }
        let mut grid = Vec::with_capacity(dims.cells());
        for (r, row) in rows.iter().enumerate() {
            let syms: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if syms.len() != dims.width {
                return Err(LayoutError::Width {
                    row: r + 1,
                    symbols: syms.len(),
                    width: dims.width,
                });
            }
            grid.extend(syms);
        }
        let mut used = vec![false; dims.cells()];
        let mut ships = Vec::new();
        for start in 0..dims.cells() {
            if used[start] || grid[start] == '.' || grid[start] == '~' {
                continue;
            }
            let ch = grid[start];
            let cells: Vec<usize> =
                if ch.is_ascii_alphabetic() && Segment::from_symbol(ch).is_none() {
                    (0..dims.cells()).filter(|&c| grid[c] == ch).collect()
                } else {
                    // Whether the ship runs along its row: on a board one cell wide a step down
                    // is one cell too, so the direction is said, not read from the step.
                    let (step, horizontal) = match Segment::from_symbol(ch) {
                        Some(Segment::Single) => (0, false),
                        Some(Segment::Left) => (1, true),
                        Some(Segment::Top) => (dims.width, false),
                        _ => {
                            return Err(LayoutError::BadStart {
                                symbol: ch,
                                cell: dims.cell_name(start),
                            });
                        }
                    };
                    let mut cells = vec![start];
                    if step > 0 {
                        let end = if horizontal { '>' } else { 'v' };
                        let mut at = start;
                        loop {
                            let (r2, c2) = dims.row_col(at);
                            let next = if horizontal {
                                dims.checked(r2 as isize, c2 as isize + 1)
                            } else {
                                dims.checked(r2 as isize + 1, c2 as isize)
                            };
                            let Some(n) = next else {
                                return Err(LayoutError::Unended(dims.cell_name(start)));
                            };
                            cells.push(n);
                            at = n;
                            match grid[n] {
                                'm' => continue,
                                s if s == end => break,
                                _ => return Err(LayoutError::Unended(dims.cell_name(start))),
                            }
                        }
                    }
                    cells
                };
            for &c in &cells {
                used[c] = true;
            }
            let shape = Shape::new(cells.iter().map(|&c| dims.row_col(c)))
                .map_err(|e| LayoutError::NotAShape(e.to_string()))?
                .canonical();
            let ty = fleet
                .types()
                .iter()
                .position(|t| t.shape == shape)
                .ok_or_else(|| LayoutError::NoType(dims.cell_name(cells[0])))?;
            ships.push(Ship { ty, cells });
        }
        Ok(Layout { ships })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_one_cell_wide_or_tall_read_back() {
        let fleet = Fleet::straight(&[3, 1]);
        for (dims, rows) in [
            (Dims::new(1, 5), vec!["^", "m", "v", ".", "o"]),
            (Dims::new(5, 1), vec!["<m>.o"]),
            (Dims::new(1, 1), vec!["o"]),
        ] {
            let rows: Vec<String> = rows.into_iter().map(String::from).collect();
            let fleet = if dims.cells() == 1 {
                Fleet::straight(&[1])
            } else {
                fleet.clone()
            };
            let layout = Layout::from_rows(&rows, dims, &fleet).unwrap();
            assert_eq!(layout.to_rows(dims, &fleet), rows, "{dims}");
        }
    }
}
