//! The reasons a well-formed problem has no solution that are found without search
//! ([`Conflict`]): the sums of its counts, a ship type left no room, a clue no ship can cover,
//! shots that disagree. [`Problem::conflicts`](crate::Problem::conflicts) finds them (module
//! `diagnose`); the problem's own checks of its shots report them too, which is why they live
//! below both.

/// A reason a well-formed problem has no solution, found without search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Conflict {
    /// The row counts and column counts (all given) add up differently.
    #[error("the row counts add up to {rows} but the column counts to {cols}")]
    RowColSums {
        /// Sum of row counts.
        rows: usize,
        /// Sum of column counts.
        cols: usize,
    },
    /// All row (or column) counts are given and they do not add up to the fleet's cells.
    #[error("the {what} counts add up to {sum} but the fleet has {fleet} ship cells")]
    FleetSum {
        /// "row" or "column".
        what: &'static str,
        /// Their sum.
        sum: usize,
        /// Ship cells in the fleet.
        fleet: usize,
    },
    /// A ship type has fewer allowed placements than ships.
    #[error("only {placements} place(s) left for {count} ship(s) of type {name}")]
    NoRoom {
        /// The type's name.
        name: String,
        /// Ships of that type.
        count: usize,
        /// Placements the clues and counts allow.
        placements: usize,
    },
    /// A ship clue that no allowed placement covers.
    #[error("no ship of the fleet can cover the {clue} clue at {}", crate::geom::name_at(*row, *col))]
    Uncoverable {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The clue's symbol.
        clue: char,
    },
    /// A hit (or a sinking) that no allowed placement covers: the shots together leave its
    /// ship no place.
    #[error("no ship of the fleet fits the shot {0} together with the other shots")]
    UncoverableShot(String),
    /// A row needs more ship cells than it has cells that may hold one.
    #[error(
        "{} needs {count} ship cells but only {room} of its cells can hold one",
        line_name(what, *index)
    )]
    LineTooFull {
        /// "row" or "column".
        what: &'static str,
        /// Its index (0-based).
        index: usize,
        /// The count.
        count: usize,
        /// Cells that some allowed placement covers.
        room: usize,
    },
    /// A row whose clues already hold more ship cells than its count.
    #[error(
        "{} has {clued} ship clues but a count of {count}",
        line_name(what, *index)
    )]
    LineOverfull {
        /// "row" or "column".
        what: &'static str,
        /// Its index (0-based).
        index: usize,
        /// The count.
        count: usize,
        /// Ship clues in it.
        clued: usize,
    },
    /// Two ship clues touch diagonally, which the no-touch rule forbids for one ship or two.
    #[error(
        "ship clues at {} and {} touch diagonally, which the no-touch rule forbids",
        crate::geom::name_at(*.0, *.1),
        crate::geom::name_at(*.2, *.3)
    )]
    DiagonalClues(usize, usize, usize, usize),
    /// A sonar reading says a cell within its distance is water, but another observation puts
    /// a ship there.
    #[error(
        "the sonar reading at {sonar} rules out a ship at {cell}, where another observation puts one"
    )]
    SonarHit {
        /// The sonar cell's name.
        sonar: String,
        /// The hit cell's name.
        cell: String,
    },
    /// Two observations disagree about a cell: one makes it water, the other a ship (a miss
    /// inside a ship revealed sunk, say).
    #[error("the shots disagree about {0}: one makes it water, another a ship")]
    ShotsDisagree(String),
    /// Under the no-touch rule, the fleet needs more of the board's 2x2 blocks than there
    /// are: two ships never have cells in one block (any two cells of a block touch), and each
    /// ship covers at least so many blocks of a tiling of the board by 2x2 blocks.
    #[error(
        "the fleet needs at least {needed} of the board's 2x2 blocks, but only {blocks} can hold a ship: ships that never touch share no block"
    )]
    Packing {
        /// Blocks the fleet's ships cover at least, together.
        needed: usize,
        /// Blocks with a cell some ship may cover.
        blocks: usize,
    },
    /// A sonar reading whose ring of cells at its distance can hold no ship.
    #[error("no ship can lie at distance {distance} from the sonar reading at {sonar}")]
    SonarRing {
        /// The sonar cell's name.
        sonar: String,
        /// The reported distance.
        distance: usize,
    },
}

/// A line's name as a person reads the board: `row 3` (counted from 1), `column C`.
fn line_name(what: &str, index: usize) -> String {
    if what == "row" {
        format!("row {}", index + 1)
    } else {
        format!("column {}", crate::geom::column_name(index))
    }
}
