//! Ship shapes: straight ships and arbitrary polyominoes, with their distinct orientations.
//!
//! A [`Shape`] is a set of cells normalised to touch row 0 and column 0. Its cells must be
//! connected orthogonally or diagonally. [`Shape::orientations`] lists the distinct images
//! under the eight rotations and reflections, which is what a ship may look like on the board;
//! a straight ship of length `k > 1` has two, a single cell one. Straight ships are not a
//! special case anywhere in the engines: they are the shapes whose cells form one line.
//!
//! ```
//! use broadside::Shape;
//! assert_eq!(Shape::straight(3).orientations().len(), 2);
//! let ell = Shape::parse_art("#./##").unwrap();
//! assert_eq!(ell.orientations().len(), 4);
//! ```

use std::collections::BTreeSet;

/// A ship shape: a non-empty, connected set of `(row, col)` offsets, normalised so the least
/// row and the least column are 0 and the cells are sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    cells: Vec<(usize, usize)>,
}

/// The kind of a straight-ship segment, as the puzzle clues name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A one-cell ship (`o`).
    Single,
    /// The left end of a horizontal ship (`<`): the ship continues to the right.
    Left,
    /// The right end of a horizontal ship (`>`).
    Right,
    /// The top end of a vertical ship (`^`): the ship continues down.
    Top,
    /// The bottom end of a vertical ship (`v`).
    Bottom,
    /// A middle segment (`m`): the ship continues on two opposite sides.
    Middle,
}

impl Segment {
    /// The segment a ship cell is, from which of its orthogonal neighbours (up, down, left,
    /// right) belong to the same ship; `None` for a polyomino's corner (a turn with no
    /// straight run through the cell). A middle is any cell the ship runs through, in a
    /// line, including one where a polyomino branches off that line.
    pub fn from_neighbours(up: bool, down: bool, left: bool, right: bool) -> Option<Segment> {
        match (up, down, left, right) {
            (false, false, false, false) => Some(Segment::Single),
            (false, false, false, true) => Some(Segment::Left),
            (false, false, true, false) => Some(Segment::Right),
            (false, true, false, false) => Some(Segment::Top),
            (true, false, false, false) => Some(Segment::Bottom),
            // A cell the ship passes through, also where a polyomino branches off the run
            // (pzprjs reads its middle clue so too).
            (_, _, true, true) | (true, true, _, _) => Some(Segment::Middle),
            _ => None,
        }
    }

    /// The clue symbol: one of `o < > ^ v m`.
    pub fn symbol(self) -> char {
        match self {
            Segment::Single => 'o',
            Segment::Left => '<',
            Segment::Right => '>',
            Segment::Top => '^',
            Segment::Bottom => 'v',
            Segment::Middle => 'm',
        }
    }

    /// The segment of a clue symbol.
    pub fn from_symbol(c: char) -> Option<Segment> {
        Some(match c {
            'o' | 'O' => Segment::Single,
            '<' => Segment::Left,
            '>' => Segment::Right,
            '^' => Segment::Top,
            'v' | 'V' => Segment::Bottom,
            'm' | 'M' => Segment::Middle,
            _ => return None,
        })
    }
}

/// Why a set of cells is not a shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// No cells.
    #[error("a shape needs at least one cell")]
    Empty,
    /// The cells fall apart into pieces.
    #[error("the cells of a shape must be connected (orthogonally or diagonally)")]
    Disconnected,
    /// Art with a character other than `#` and `.`.
    #[error("shape art may hold only '#' (ship) and '.' (empty), rows separated by '/'")]
    BadArt,
}

impl Shape {
    /// A shape from cells (any offsets); it is normalised.
    pub fn new(cells: impl IntoIterator<Item = (usize, usize)>) -> Result<Shape, ShapeError> {
        let set: BTreeSet<(usize, usize)> = cells.into_iter().collect();
        if set.is_empty() {
            return Err(ShapeError::Empty);
        }
        let shape = Shape::normalised(set.into_iter().map(|(r, c)| (r as isize, c as isize)));
        if !shape.is_connected() {
            return Err(ShapeError::Disconnected);
        }
        Ok(shape)
    }

    /// A horizontal straight ship of `len >= 1` cells.
    ///
    /// # Panics
    /// If `len` is 0.
    pub fn straight(len: usize) -> Shape {
        assert!(len > 0, "a ship has at least one cell");
        Shape {
            cells: (0..len).map(|c| (0, c)).collect(),
        }
    }

    /// Parses ASCII art: rows of `#` (ship) and `.` (empty) separated by `/` or newlines,
    /// e.g. `"#./##"` for an L of three cells.
    pub fn parse_art(art: &str) -> Result<Shape, ShapeError> {
        let mut cells = Vec::new();
        for (r, row) in art.split(['/', '\n']).enumerate() {
            for (c, ch) in row.trim().chars().enumerate() {
                match ch {
                    '#' => cells.push((r, c)),
                    '.' => {}
                    _ => return Err(ShapeError::BadArt),
                }
            }
        }
        Shape::new(cells)
    }

    /// The art form that [`Shape::parse_art`] reads.
    pub fn art(&self) -> String {
        let (h, w) = self.extent();
        (0..h)
            .map(|r| {
                (0..w)
                    .map(|c| {
                        if self.cells.contains(&(r, c)) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn normalised(cells: impl Iterator<Item = (isize, isize)>) -> Shape {
        let v: Vec<(isize, isize)> = cells.collect();
        let r0 = v.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = v.iter().map(|p| p.1).min().unwrap_or(0);
        let mut cells: Vec<(usize, usize)> = v
            .iter()
            .map(|&(r, c)| ((r - r0) as usize, (c - c0) as usize))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        Shape { cells }
    }

    fn is_connected(&self) -> bool {
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let (r, c) = self.cells[i];
            for (j, &(r2, c2)) in self.cells.iter().enumerate() {
                if !seen[j] && r.abs_diff(r2) <= 1 && c.abs_diff(c2) <= 1 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|s| s)
    }

    /// The cells, sorted, as `(row, col)` offsets from the top-left of the bounding box.
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// Height and width of the bounding box.
    pub fn extent(&self) -> (usize, usize) {
        let h = self.cells.iter().map(|p| p.0).max().unwrap_or(0) + 1;
        let w = self.cells.iter().map(|p| p.1).max().unwrap_or(0) + 1;
        (h, w)
    }

    /// The length if the shape is a straight line of cells.
    pub fn straight_len(&self) -> Option<usize> {
        let (h, w) = self.extent();
        (h.min(w) == 1 && h.max(w) == self.cells.len()).then_some(self.cells.len())
    }

    /// The distinct orientations (rotations and reflections), in a fixed order.
    pub fn orientations(&self) -> Vec<Shape> {
        let mut out: Vec<Shape> = Vec::new();
        for t in 0..8 {
            let img = Shape::normalised(self.cells.iter().map(|&(r, c)| {
                let (r, c) = (r as isize, c as isize);
                match t {
                    0 => (r, c),
                    1 => (c, -r),
                    2 => (-r, -c),
                    3 => (-c, r),
                    4 => (r, -c),
                    5 => (-r, c),
                    6 => (c, r),
                    _ => (-c, -r),
                }
            }));
            if !out.contains(&img) {
                out.push(img);
            }
        }
        out
    }

    /// The canonical representative among the orientations: two shapes are the same ship
    /// exactly when their canonical forms are equal.
    pub fn canonical(&self) -> Shape {
        self.orientations()
            .into_iter()
            .min()
            .expect("a shape has an orientation")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_counts() {
        assert_eq!(Shape::straight(1).orientations().len(), 1);
        assert_eq!(Shape::straight(4).orientations().len(), 2);
        assert_eq!(Shape::parse_art("##/##").unwrap().orientations().len(), 1);
        assert_eq!(Shape::parse_art("###/.#.").unwrap().orientations().len(), 4);
        assert_eq!(Shape::parse_art("##./.##").unwrap().orientations().len(), 4);
        assert_eq!(Shape::parse_art("###/#..").unwrap().orientations().len(), 8);
        // Diagonal connection is allowed.
        assert_eq!(Shape::parse_art("#./.#").unwrap().orientations().len(), 2);
    }

    #[test]
    fn bad_shapes() {
        assert_eq!(Shape::parse_art("#.#"), Err(ShapeError::Disconnected));
        assert_eq!(Shape::parse_art("..."), Err(ShapeError::Empty));
        assert_eq!(Shape::parse_art("#x"), Err(ShapeError::BadArt));
    }

    #[test]
    fn canonical_merges_rotations() {
        let a = Shape::parse_art("#/#/#").unwrap();
        assert_eq!(a.canonical(), Shape::straight(3).canonical());
        assert_eq!(a.straight_len(), Some(3));
        assert_eq!(Shape::parse_art("#./##").unwrap().straight_len(), None);
    }
}
