//! A person's progress on a puzzle: what they have marked on each cell so far.
//!
//! A mark is a [`Know`]: water, a ship cell, or nothing yet. A puzzle file carries the marks
//! in a `progress:` section (`docs/FORMAT.md`), one symbol a cell: `.` nothing yet, `~` water,
//! `*` (or any segment symbol, `o < > ^ v m`) a ship cell. The engines ignore the marks;
//! [`crate::answer::check`] finds those no solution allows, and [`crate::answer::hint`] the next
//! logical step from them. The logical solver ([`crate::logic`]) uses the same type for what it
//! has decided.
//!
//! ```
//! use broadside::Know;
//! let row: Vec<Know> = "..~*<".chars().map(|c| Know::from_symbol(c).unwrap()).collect();
//! assert_eq!(row, [Know::Unknown, Know::Unknown, Know::Water, Know::Ship, Know::Ship]);
//! let written: String = row.iter().map(|k| k.symbol()).collect();
//! assert_eq!(written, "..~**");
//! ```

use crate::clue::Clue;

/// What is known of a cell: a person's mark, or what the logical solver has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Know {
    /// Nothing yet.
    Unknown,
    /// No ship.
    Water,
    /// A ship cell.
    Ship,
}

impl Know {
    /// The symbol the text format writes for it: `.`, `~` or `*`.
    pub fn symbol(self) -> char {
        match self {
            Know::Unknown => '.',
            Know::Water => '~',
            Know::Ship => '*',
        }
    }

    /// The mark a grid symbol makes: `.` nothing yet, `~` (or `w`) water, `*` (or `x`) and the
    /// segment symbols a ship cell; `None` for anything else (a rock, `#`, is not a mark).
    pub fn from_symbol(c: char) -> Option<Know> {
        match c {
            '.' => Some(Know::Unknown),
            _ => match Clue::from_symbol(c)? {
                Clue::Water => Some(Know::Water),
                Clue::Blocked => None,
                _ => Some(Know::Ship),
            },
        }
    }

    /// What a clue says of its cell: water for water and a rock, a ship cell for the rest.
    pub fn of_clue(clue: Clue) -> Know {
        match clue {
            Clue::Water | Clue::Blocked => Know::Water,
            Clue::Ship | Clue::Segment(_) => Know::Ship,
        }
    }
}

/// The cells of `marks` (one per cell, row-major) as the text format's rows, one string a row.
pub fn rows(marks: &[Know], width: usize) -> Vec<String> {
    marks
        .chunks(width.max(1))
        .map(|r| r.iter().map(|k| k.symbol()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_reads_back_to_its_mark() {
        for k in [Know::Unknown, Know::Water, Know::Ship] {
            assert_eq!(Know::from_symbol(k.symbol()), Some(k));
        }
        for c in "o<>^vm*xX".chars() {
            assert_eq!(Know::from_symbol(c), Some(Know::Ship), "{c}");
        }
        for c in "#?1a ".chars() {
            assert_eq!(Know::from_symbol(c), None, "{c:?}");
        }
        assert_eq!(
            rows(&[Know::Water, Know::Ship, Know::Unknown, Know::Ship], 2),
            ["~*", ".*"]
        );
    }
}
