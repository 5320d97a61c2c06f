//! What is known about a single cell before solving.

use crate::shape::Segment;

/// A given cell. Cells without a clue are unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clue {
    /// No ship here (`~` in the text format).
    Water,
    /// Some ship covers this cell; which part is not said (`*`).
    Ship,
    /// A ship covers this cell and it is this kind of segment (`o < > ^ v m`).
    Segment(Segment),
    /// A rock: no ship, and known to both players (`#`).
    Blocked,
}

impl Clue {
    /// Whether the clue says a ship covers the cell.
    pub fn is_ship(self) -> bool {
        matches!(self, Clue::Ship | Clue::Segment(_))
    }

    /// The text-format symbol.
    pub fn symbol(self) -> char {
        match self {
            Clue::Water => '~',
            Clue::Ship => '*',
            Clue::Segment(s) => s.symbol(),
            Clue::Blocked => '#',
        }
    }

    /// The clue of a text-format symbol; `.` (no clue) is `None` and so is anything unknown.
    pub fn from_symbol(c: char) -> Option<Clue> {
        match c {
            '~' | 'w' | 'W' => Some(Clue::Water),
            '*' | 'x' | 'X' => Some(Clue::Ship),
            '#' => Some(Clue::Blocked),
            _ => Segment::from_symbol(c).map(Clue::Segment),
        }
    }
}
