//! broadside: an exact constraint engine for Battleship.
//!
//! It reads a solitaire puzzle (row and column counts, given cells, ships that never touch)
//! or a board state of the two-player game, and answers exactly: a solution, the number of
//! layouts consistent with it (and so whether it is unique), the number with a ship on each
//! cell, uniformly random layouts, and puzzles with a unique solution. Three engines share one
//! model and must agree: a bitboard enumerator ([`Enumerator`]), a SAT encoding solved with
//! varisat ([`SatEngine`]) and a transfer-matrix DP for game states ([`DpEngine`]).
//!
//! # Start here
//!
//! A puzzle or a board state is read from one of the formats of [`mod@format`] (or built as a
//! [`ProblemSpec`]), built into a [`Problem`] with [`answer::build`], and asked a question of
//! [`answer`]: each returns a typed report, the same one the command line prints as JSON.
//! [`answer::Options`] names the engine and the limits when the defaults (`auto`, no limit)
//! will not do.
//!
//! ```
//! use broadside::answer::{self, CountReport, Options, SolveReport};
//! use broadside::{Dims, Engine, Fleet, ProblemSpec, Rules};
//! use std::time::Duration;
//!
//! // A puzzle in the text format (docs/FORMAT.md): counts beside the rows and above the
//! // columns, a ship's end given as `<`, water as `~`.
//! let text = "size: 6x6\nfleet: 3 2 2 1 1 1\nrules: no-touch\ngrid:\n\
//!     \x20  2 1 2 2 0 3\n2  . < . . . .\n1  . . . . . .\n3  . . ~ . . .\n\
//!     1  . . . . . .\n1  . . . . . .\n2  ~ . . . . ~\n";
//! let puzzle = answer::problems("puzzle.txt", text).unwrap().next().unwrap().unwrap();
//! let SolveReport::Solved(s) = answer::solve(&puzzle, &Options::new()).unwrap() else {
//!     panic!("no solution")
//! };
//! assert_eq!(s.solution[0], ".<>...");
//! // Unique: counting to two finds one.
//! let unique = answer::count(&puzzle, &Options::new().limit(2)).unwrap();
//! assert!(matches!(unique, CountReport::Counted(c) if c.count == 1u8.into()));
//!
//! // The game: every layout of a fleet on an empty board, by SAT within a second, and the
//! // chance of a ship on each cell.
//! let game = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch);
//! let game = answer::build(game).unwrap();
//! let by_sat = Options::new().engine(Engine::Sat).time_limit(Duration::from_secs(1));
//! let report = serde_json::to_value(answer::count(&game, &by_sat).unwrap()).unwrap();
//! assert_eq!(report["count"], 524);
//! // The likeliest cells: the middles of the edges, each in 126 of the 524 layouts.
//! let best = serde_json::to_value(answer::best(&game, &Options::new()).unwrap()).unwrap();
//! assert_eq!(best["cells"][0]["cell"], "C1");
//! assert_eq!(best["cells"][0]["count"], 126);
//! ```
//!
//! The engines answer the same questions at a lower level ([`Enumerator`], [`SatEngine`],
//! [`DpEngine`], through [`Engine`]); the jobs ([`play`], [`generate`], [`sample`], ...) have
//! their own modules.
//!
//! # Modules, from the ground up
//!
//! Each layer uses only the layers below it. The vocabulary (dimensions, fleets, rules, clues,
//! shots, layouts, problems, the engines and the error) is re-exported here at the root; the
//! modules that hold only such types are private.
//!
//! - The board and the fleet: [`bitboard`] (sets of cells), [`geom`] (dimensions, cells and
//!   their names such as `A1`), [`Shape`] and [`Fleet`] (ship shapes and fleets), [`Rules`]
//!   (touch or no-touch).
//! - What is known: [`Clue`] (given cells), [`observe`] (the shots of a game), [`Placement`]
//!   (a ship at one spot, with its halo), [`Layout`] (a whole fleet placed), [`ProblemSpec`]
//!   (a problem as given) and the validated [`Problem`] the engines run on.
//! - Reading and checking: [`mod@format`] (text, JSON, JSON lines, MiniZinc, XCSP3, sample
//!   files), [`check`] (an independent check that a layout solves a problem).
//! - The engines: [`engine`] (the enumerator, SAT and the DP, and [`Engine`] to choose one).
//! - Tools every job shares: [`stats`] (means, intervals, paired differences, Wilson, gamma
//!   functions), [`rng`] (the random streams a seed gives a parallel run) and [`output`] (files
//!   written whole, or line by line, so that no run loses work).
//! - The jobs built on them: [`heat`] (hit probabilities and heat maps), [`publish`]
//!   (puzzles drawn for print, and puzzle books' pages), [`diagnose`] (why no layout fits), [`logic`] (the human-style logical solver, one file per rule tier),
//!   [`sample`] (uniform and biased samplers), [`judge`] (a sampler measured against the exact
//!   answer), [`generate`] (puzzles with a unique solution), [`play`] (games, shooters, placers
//!   and self-play).
//! - The questions, answered as typed reports: [`answer`] (solve, count, probs, best, explain,
//!   grade, summarize; their JSON is `docs/JSON.md`), with [`Error`] for what cannot be
//!   answered.
//!
//! The `broadside` command line (a crate of its own) is a thin layer over [`answer`] and the
//! jobs.
//!
//! Counting convention: a layout is a set of placements; ships of the same shape are
//! interchangeable, so each layout is counted once ([`Fleet::labelling_factor`] converts to
//! counts that tell identical ships apart).
#![warn(missing_docs)]

pub mod answer;
pub mod bitboard;
pub mod check;
mod choice;
mod clue;
mod conflict;
pub mod diagnose;
pub mod engine;
mod error;
mod fleet;
pub mod format;
pub mod generate;
pub mod geom;
pub mod heat;
pub mod judge;
mod layout;
pub mod logic;
pub mod observe;
pub mod output;
mod placement;
pub mod play;
mod problem;
pub mod progress;
pub mod publish;
pub mod rng;
mod rules;
pub mod sample;
mod shape;
pub mod stats;

pub use choice::UnknownChoice;
pub use clue::Clue;
pub use conflict::Conflict;
pub use engine::{
    Cancel, CountError, CountInt, CountOptions, CountResult, DescentSampler, DpEngine, DpReplay,
    DpSampler, DpUnsupported, Engine, EngineKind, Enumerator, SatEngine, Solutions, Stop,
};
pub use error::Error;
pub use fleet::{Fleet, FleetError, ShipType};
pub use geom::Dims;
pub use layout::{Layout, LayoutError, Ship};
/// Big integers, for counts past 2^128 ([`Engine::count_big`]).
pub use num_bigint::BigUint;
pub use observe::{Observations, Shot, ShotResult, Sinking};
pub use placement::Placement;
pub use problem::{Invalid, Meta, Problem, ProblemError, ProblemSpec};
pub use progress::Know;
pub use rules::Rules;
pub use shape::{Segment, Shape, ShapeError};
