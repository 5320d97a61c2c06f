//! A person against the computer: each side hides a fleet and fires at the other's, the
//! person first; whoever sinks the other's fleet first wins.
//!
//! The computer's fleet is hidden by a [`Placer`], and so is the person's (uniformly at
//! random for them, or their own layout from a file with the `file:PATH` placer). The computer fires with any [`ShooterKind`], seeing only the results
//! of its shots under the game's sinking rule, as a shooter always does. Everything random
//! comes from one seed, so a seed replays the same computer. Its next shot depends on its own
//! shots alone, so a caller can have it chosen while the person thinks ([`Versus::ponder`]).
//!
//! ```
//! use broadside::play::{PlacerKind, Setup, ShooterKind, Versus};
//! use broadside::{Dims, Fleet, Rules, Sinking};
//! let setup = Setup {
//!     dims: Dims::new(4, 4),
//!     fleet: Fleet::straight(&[2]),
//!     rules: Rules::Touch,
//!     sinking: Sinking::Announced,
//!     rocks: Vec::new(),
//! };
//! let mut v = Versus::new(&setup, &PlacerKind::Uniform, ShooterKind::Greedy, &PlacerKind::Uniform, 7).unwrap();
//! let mut cell = 0;
//! while v.winner().is_none() {
//!     v.fire(cell).unwrap();
//!     cell += 1;
//!     v.reply();
//! }
//! assert!(v.theirs().shots().len() <= 16 && v.yours().shots().len() <= 16);
//! ```

use std::sync::Arc;

use rand::rngs::StdRng;

use super::book::Book;
use super::game::{Game, Setup};
use super::placer::{Placer, PlacerKind, empty_board};
use super::shooter::{Counting, Shooter, ShooterKind};
use crate::error::Error;
use crate::format::text;
use crate::observe::ShotResult;
use crate::rng::stream;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The person sank the computer's fleet first.
    You,
    /// The computer sank the person's fleet first.
    Computer,
}

/// A game of a person against the computer.
pub struct Versus {
    /// The computer's fleet, at which the person fires.
    theirs: Game,
    /// The person's fleet, at which the computer fires.
    yours: Game,
    shooter_kind: ShooterKind,
    shooter: Box<dyn Shooter>,
    /// The computer's next shot, chosen ahead by [`Versus::ponder`].
    next: Option<usize>,
    rng: StdRng,
    seed: u64,
}

impl Versus {
    /// A new game under `setup`: the computer hides its fleet with `placer` and fires with
    /// `shooter`; `your_placer` places the person's fleet. An error when the fleet does not
    /// fit, a placer gives up, or a layout file cannot be read or breaks the rules.
    pub fn new(
        setup: &Setup,
        placer: &PlacerKind,
        shooter: ShooterKind,
        your_placer: &PlacerKind,
        seed: u64,
    ) -> Result<Versus, Error> {
        Versus::within(setup, placer, shooter, your_placer, seed, None, None)
    }

    /// [`Versus::new`], each placer prepared within `time_limit` (an error past it) and each
    /// exact count of the computer's shooter cut off there (it then fires at any open cell);
    /// the computer's exact shooters look positions up in `book` and keep their counts there
    /// (a book of `setup`'s game shared with other matches; `None`: one of its own).
    pub fn within(
        setup: &Setup,
        placer: &PlacerKind,
        shooter: ShooterKind,
        your_placer: &PlacerKind,
        seed: u64,
        time_limit: Option<std::time::Duration>,
        book: Option<Arc<Book>>,
    ) -> Result<Versus, Error> {
        let empty = empty_board(setup)?;
        let place = |kind: &PlacerKind, k: u64| {
            Placer::within(kind, setup, empty.clone(), time_limit, None)?
                .place(&mut stream(seed, 0, k))
                .ok_or_else(|| {
                    Error::Request(format!("the {kind} placer could not place the fleet"))
                })
        };
        let theirs = place(placer, 0)?;
        let yours = place(your_placer, 1)?;
        Ok(Versus {
            theirs: Game::new(setup.clone(), theirs),
            yours: Game::new(setup.clone(), yours),
            shooter_kind: shooter,
            shooter: shooter.shooter(Counting {
                book: Some(
                    book.filter(|b| b.setup() == setup)
                        .unwrap_or_else(|| Book::for_run(setup)),
                ),
                time_limit,
                cancel: None,
            }),
            next: None,
            rng: stream(seed, 0, 2),
            seed,
        })
    }

    /// The person fires at `cell` of the computer's board; an error when the cell is off the
    /// board or was fired at before, or the game is over.
    pub fn fire(&mut self, cell: usize) -> Result<ShotResult, Error> {
        let d = self.theirs.setup().dims;
        if let Some(w) = self.winner() {
            return Err(Error::Request(format!("the game is over: {}", w.says())));
        }
        if cell >= d.cells() {
            return Err(Error::Request(format!("cell {cell} is off the board")));
        }
        if self.theirs.fired(cell) {
            return Err(Error::Request(format!(
                "{} was fired at already",
                d.cell_name(cell)
            )));
        }
        Ok(self.theirs.fire(cell))
    }

    /// The computer's shot at the person's board and what it reported; `None` when the game
    /// is over. A shot [`Versus::ponder`] chose is fired at once.
    pub fn reply(&mut self) -> Option<(usize, ShotResult)> {
        if self.winner().is_some() {
            return None;
        }
        self.ponder();
        let cell = self.next.take()?;
        Some((cell, self.yours.fire(cell)))
    }

    /// Chooses the computer's next shot now and keeps it for [`Versus::reply`], which then
    /// answers at once: a caller runs this while the person thinks. The computer's choice
    /// depends on its own shots alone, and draws the same random numbers whenever it is
    /// made, so a game is the same pondered or not. Does nothing once the game is over or
    /// the shot is chosen.
    pub fn ponder(&mut self) {
        if self.next.is_none() && self.winner().is_none() {
            let cell = self
                .shooter
                .choose(self.yours.setup(), self.yours.shots(), &mut self.rng);
            self.next = Some(cell);
        }
    }

    /// Whether the computer's next shot is chosen (by [`Versus::ponder`]).
    pub fn pondered(&self) -> bool {
        self.next.is_some()
    }

    /// Who won, once a fleet is sunk. The person fires first, so when the person sinks the
    /// computer's fleet the computer does not fire again.
    pub fn winner(&self) -> Option<Winner> {
        if self.theirs.is_over() {
            Some(Winner::You)
        } else if self.yours.is_over() {
            Some(Winner::Computer)
        } else {
            None
        }
    }

    /// The computer's board and the person's shots at it.
    pub fn theirs(&self) -> &Game {
        &self.theirs
    }

    /// The person's board and the computer's shots at it.
    pub fn yours(&self) -> &Game {
        &self.yours
    }

    /// The computer's shooter.
    pub fn shooter(&self) -> ShooterKind {
        self.shooter_kind
    }

    /// The game as two game records in the text format, separated by `---`: the person's
    /// shots at the computer's board, then the computer's shots at the person's, with the
    /// person's fleet as its recorded solution, and the computer's too when `reveal` (a record
    /// saved during the game does not give the computer's fleet away). Every command reads it
    /// back.
    pub fn record(&self, reveal: bool) -> String {
        let mut mine = if reveal {
            self.theirs.record_with_layout()
        } else {
            self.theirs.record()
        };
        mine.meta.name = Some("your-shots".into());
        mine.meta.source = Some(format!(
            "broadside play, seed {}: your shots at the computer's fleet",
            self.seed
        ));
        let mut its = self.yours.record_with_layout();
        its.meta.name = Some("computer-shots".into());
        its.meta.source = Some(format!(
            "broadside play, seed {}: the {} shooter's shots at your fleet",
            self.seed, self.shooter_kind
        ));
        format!("{}---\n{}", text::print(&mine), text::print(&its))
    }
}

impl Winner {
    /// The result in words.
    pub fn says(self) -> &'static str {
        match self {
            Winner::You => "you sank the computer's fleet first: you win",
            Winner::Computer => "the computer sank your fleet first: it wins",
        }
    }
}
