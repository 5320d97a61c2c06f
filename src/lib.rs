//! broadside: an exact constraint engine for Battleship.
//!
//! It reads a solitaire puzzle (row and column counts, given cells, ships that never touch)
//! or a board state, and answers exactly: a solution, the number of layouts consistent with
//! it, and per-cell layout counts. Two engines share one model and must agree: a bitboard
//! enumerator ([`Enumerator`]) and a SAT encoding solved with varisat ([`SatEngine`]).
//!
//! ```
//! use broadside::{Dims, Fleet, ProblemSpec, Rules, Enumerator};
//! let spec = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch);
//! let problem = spec.build().unwrap();
//! assert_eq!(Enumerator::new(&problem).count_up_to(u128::MAX).count, 524);
//! ```
//!
//! Counting convention: a layout is a set of placements; ships of the same shape are
//! interchangeable, so each layout is counted once ([`Fleet::labelling_factor`] converts to
//! counts that tell identical ships apart).
#![warn(missing_docs)]

pub mod answer;
pub mod bitboard;
pub mod choice;
pub mod clue;
pub mod diagnose;
pub mod engine;
pub mod error;
pub mod fleet;
pub mod format;
pub mod generate;
pub mod geom;
pub mod heat;
pub mod judge;
pub mod layout;
pub mod logic;
pub mod observe;
pub mod placement;
pub mod problem;
pub mod rules;
pub mod sample;
pub mod shape;
pub mod validate;

pub use clue::Clue;
pub use engine::{
    CountError, CountOptions, CountResult, DescentSampler, DpEngine, DpSampler, DpUnsupported,
    Engine, EngineKind, Enumerator, SatEngine, Solutions, Stop,
};
pub use error::Error;
pub use fleet::{Fleet, ShipType};
pub use geom::Dims;
pub use layout::{Layout, LayoutError, Ship};
pub use observe::{Observations, Shot, ShotResult, Sinking};
pub use placement::Placement;
pub use problem::{Conflict, Invalid, Problem, ProblemError, ProblemSpec};
pub use rules::Rules;
pub use shape::{Segment, Shape};
