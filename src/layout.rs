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

/// One placed ship.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ship {
    /// Index of its type in the fleet.
    pub ty: usize,
    /// Covered cells, increasing.
    pub cells: Vec<usize>,
}

/// A set of placed ships. Two layouts are equal when they hold the same ships, in any order.
#[derive(Clone, Debug, Eq, Default)]
pub struct Layout {
    /// The ships, in no particular order.
    pub ships: Vec<Ship>,
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
    /// [`crate::validate`] checks the rest).
    pub fn fits(&self, dims: Dims, fleet: &Fleet) -> Result<(), String> {
        for s in &self.ships {
            if s.cells.iter().any(|&c| c >= dims.cells()) {
                return Err("a ship lies off the board".into());
            }
            let Some(t) = fleet.types().get(s.ty) else {
                return Err(format!("ship type {} is not in the fleet", s.ty));
            };
            let shape =
                Shape::new(s.cells.iter().map(|&c| dims.row_col(c))).map_err(|e| e.to_string())?;
            if shape.canonical() != t.shape {
                return Err(format!("a ship of type {} has the wrong shape", t.name));
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
    pub fn from_rows(rows: &[String], dims: Dims, fleet: &Fleet) -> Result<Layout, String> {
        if rows.len() != dims.height {
            return Err(format!(
                "{} solution rows for a height of {}",
                rows.len(),
                dims.height
            ));
        }
        let mut grid = Vec::with_capacity(dims.cells());
        for (r, row) in rows.iter().enumerate() {
            let syms: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if syms.len() != dims.width {
                return Err(format!(
                    "solution row {r} has {} symbols for a width of {}",
                    syms.len(),
                    dims.width
                ));
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
            let cells: Vec<usize> = if ch.is_ascii_alphabetic()
                && Segment::from_symbol(ch).is_none()
            {
                (0..dims.cells()).filter(|&c| grid[c] == ch).collect()
            } else {
                let (r, c) = dims.row_col(start);
                let step = match Segment::from_symbol(ch) {
                    Some(Segment::Single) => 0,
                    Some(Segment::Left) => 1,
                    Some(Segment::Top) => dims.width,
                    _ => {
                        return Err(format!(
                            "solution symbol {ch:?} at row {r}, column {c} does not start a ship"
                        ));
                    }
                };
                let mut cells = vec![start];
                if step > 0 {
                    let end = if step == 1 { '>' } else { 'v' };
                    let mut at = start;
                    loop {
                        let (r2, c2) = dims.row_col(at);
                        let next = if step == 1 {
                            dims.checked(r2 as isize, c2 as isize + 1)
                        } else {
                            dims.checked(r2 as isize + 1, c2 as isize)
                        };
                        let Some(n) = next else {
                            return Err(format!(
                                "the ship starting at row {r}, column {c} runs off the board"
                            ));
                        };
                        cells.push(n);
                        at = n;
                        match grid[n] {
                            'm' => continue,
                            s if s == end => break,
                            _ => {
                                return Err(format!(
                                    "the ship starting at row {r}, column {c} does not end properly"
                                ));
                            }
                        }
                    }
                }
                cells
            };
            for &c in &cells {
                used[c] = true;
            }
            let shape = Shape::new(cells.iter().map(|&c| dims.row_col(c)))
                .map_err(|e| e.to_string())?
                .canonical();
            let ty = fleet
                .types()
                .iter()
                .position(|t| t.shape == shape)
                .ok_or_else(|| {
                    let (r, c) = dims.row_col(cells[0]);
                    format!("the ship at row {r}, column {c} has no type in the fleet")
                })?;
            ships.push(Ship { ty, cells });
        }
        Ok(Layout { ships })
    }
}
