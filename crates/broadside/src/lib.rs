//! broadside: an exact constraint engine for Battleship.
//!
//! It reads a solitaire puzzle (row and column counts, given cells, ships that never touch)
//! or a board state of the two-player game, and answers exactly: a solution, the number of
//! layouts consistent with it (and so whether it is unique), the number with a ship on each
//! cell, uniformly random layouts, and puzzles with a unique solution. Three engines share one
//! model and must agree: a bitboard enumerator ([`Enumerator`]), a SAT encoding solved with
//! varisat ([`SatEngine`]) and a transfer-matrix DP for game states ([`DpEngine`]).
//!
//! ```
//! use broadside::{Dims, Fleet, ProblemSpec, Rules, Enumerator};
//! let spec = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch);
//! let problem = spec.build().unwrap();
//! assert_eq!(Enumerator::new(&problem).count_up_to(u128::MAX).count, 524);
//! ```
//!
//! # Modules, from the ground up
//!
//! Each layer uses only the layers below it.
//!
//! - The board and the fleet: [`bitboard`] (sets of cells), [`geom`] (dimensions, cells and
//!   their names such as `A1`), [`shape`] and [`fleet`] (ship shapes and fleets), [`rules`]
//!   (touch or no-touch), [`choice`] (the error for an unknown option word).
//! - What is known: [`clue`] (given cells), [`observe`] (the shots of a game),
//!   [`placement`] (a ship at one spot, with its halo), [`layout`] (a whole fleet placed),
//!   [`problem`] (a raw [`ProblemSpec`] and the validated [`Problem`] the engines run on).
//! - Reading and checking: [`mod@format`] (text, JSON, JSON lines, MiniZinc, XCSP3, sample
//!   files), [`validate`] (an independent check that a layout solves a problem).
//! - The engines: [`engine`] (the enumerator, SAT and the DP, and [`Engine`] to choose one).
//! - The jobs built on them: [`heat`] (hit probabilities and heat maps), [`diagnose`] (why
//!   no layout fits), [`logic`] (the human-style logical solver, one file per rule tier),
//!   [`sample`] (uniform and biased samplers), [`judge`] (a sampler measured against the exact
//!   answer), [`generate`] (puzzles with a unique solution), [`play`] (games, shooters, placers
//!   and self-play).
//! - The questions, answered as typed reports: [`answer`] (solve, count, probs, best, explain,
//!   grade; their JSON is `docs/JSON.md`), with [`Error`] ([`error`]) for what cannot be
//!   answered.
//!
//! The `broadside` command line is a thin layer over [`answer`] and the jobs.
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
pub mod play;
pub mod problem;
pub mod rng;
pub mod rules;
pub mod sample;
pub mod shape;
pub mod stats;
pub mod validate;

pub use clue::Clue;
pub use diagnose::Conflict;
pub use engine::{
    Cancel, CountError, CountInt, CountOptions, CountResult, DP_MEMORY_LIMIT, DescentSampler,
    DpEngine, DpSampler, DpUnsupported, Engine, EngineKind, Enumerator, SatEngine, Solutions, Stop,
};
pub use error::Error;
pub use fleet::{Fleet, ShipType};
pub use geom::Dims;
pub use layout::{Layout, LayoutError, Ship};
/// Big integers, for counts past 2^128 ([`Engine::count_big`]).
pub use num_bigint::BigUint;
pub use observe::{Observations, Shot, ShotResult, Sinking};
pub use placement::Placement;
pub use problem::{Invalid, Problem, ProblemError, ProblemSpec};
pub use rules::Rules;
pub use shape::{Segment, Shape};
