//! A person against the computer: each side hides a fleet and fires at the other's, the
//! person first; whoever sinks the other's fleet first wins.
//!
//! The computer's fleet is hidden by a [`Placer`], and so is the person's (uniformly at
//! random for them, or their own layout from a file with the `file:PATH` placer). The computer fires with any [`ShooterKind`], seeing only the results
//! of its shots under the game's sinking rule, as a shooter always does. Everything random
//! comes from one seed, so a seed replays the same computer. Its shots depend on its own
//! shots alone, so a caller can have them chosen ahead, several at a time, while the person
//! thinks ([`Versus::ponderer`]): a slow choice is then made up by the quick ones around it.
//!
//! For the same reason the person may fire before the computer has answered their last shots
//! ([`Versus::owed`]): neither side learns anything from the other's shots, so the game is the
//! one played in turn, settled by the two sides' counts of shots. The person fires first, so
//! they win when their shot k sinks the computer's fleet and none of the computer's first
//! k - 1 shots sinks theirs; when the computer's shot k sinks theirs first, the person's shots
//! after their k-th are void and dropped ([`Versus::voided`]).
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

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

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
    /// The computer's shooter and the shots it chose ahead, shared with [`Ponderer`]s.
    computer: Arc<Computer>,
    seed: u64,
    /// The person's shots dropped as void ([`Versus::voided`]).
    voided: usize,
}

/// The computer's side of a match: what chooses its shots, and the shots chosen ahead.
struct Computer {
    thinker: Mutex<Thinker>,
    /// The shots chosen ahead. A lock of its own, so that a reply takes a shot chosen ahead
    /// while the next is being chosen.
    ahead: Mutex<Ahead>,
    /// Raised when a shot is chosen ahead or the pondering stops.
    chosen: Condvar,
    /// Whether the match is over or gone, when no more shots are worth choosing.
    done: AtomicBool,
}

/// The shots chosen and not yet fired, in order, and whether some [`Ponderer::ponder`] is
/// choosing more now.
#[derive(Default)]
struct Ahead {
    cells: VecDeque<usize>,
    pondering: bool,
}

/// What chooses the computer's shots: its shooter, its dice, and the person's board as the
/// computer's shots so far leave it (those fired and those chosen ahead).
struct Thinker {
    shooter: Box<dyn Shooter>,
    rng: StdRng,
    board: Game,
}

/// A lock taken whatever a panicking holder left: the computer's state is whole between
/// choices (a choice that panics pushes nothing).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Computer {
    /// Chooses the computer's next shot after those chosen ahead and keeps it; false once
    /// its game (on its own copy of the person's board) is over.
    fn choose_next(&self) -> bool {
        let mut t = lock(&self.thinker);
        self.choose_locked(&mut t)
    }

    fn choose_locked(&self, t: &mut Thinker) -> bool {
        if t.board.is_over() {
            return false;
        }
        let Thinker {
            shooter,
            rng,
            board,
        } = t;
        let cell = shooter.choose(board.setup(), board.shots(), rng);
        board.fire(cell);
        lock(&self.ahead).cells.push_back(cell);
        self.chosen.notify_all();
        true
    }

    /// Returns once a shot is chosen ahead: at once if one is, else when the pondering
    /// thread chooses it, else once it is chosen on this thread. Returns with none chosen
    /// when the computer's game is over.
    fn wait_chosen(&self) {
        let mut ahead = lock(&self.ahead);
        loop {
            if !ahead.cells.is_empty() {
                return;
            }
            if !ahead.pondering {
                break;
            }
            // Woken by the shot chosen, not by the lock on the chooser: a pondering thread
            // takes that lock again at once for the shot after.
            ahead = self.chosen.wait(ahead).unwrap_or_else(|e| e.into_inner());
        }
        drop(ahead);
        let mut t = lock(&self.thinker);
        // A pondering thread may have started, and chosen, meanwhile.
        if lock(&self.ahead).cells.is_empty() {
            self.choose_locked(&mut t);
        }
    }

    /// The next shot to fire: the first chosen ahead, else the next a pondering thread
    /// chooses (waited for), else chosen now; `None` once the computer's game is over.
    fn take(&self) -> Option<usize> {
        self.wait_chosen();
        lock(&self.ahead).cells.pop_front()
    }
}

/// A handle on a match's computer that chooses its shots ahead on another thread, without
/// holding the match: see [`Versus::ponderer`].
#[derive(Clone)]
pub struct Ponderer(Arc<Computer>);

impl Ponderer {
    /// Chooses the computer's shots ahead until `most` are chosen and not yet fired, or its
    /// game is over, or the match is (the person sank its fleet, or the [`Versus`] is
    /// dropped), one at a time; [`Versus::reply`] takes them as they come and meanwhile
    /// waits only for a shot not yet chosen. Returns at once where another thread is
    /// pondering the same match. The shots are those the computer would fire unpondered.
    pub fn ponder(&self, most: usize) {
        /// Says the pondering stopped however it ends, a panic in the shooter included, and
        /// wakes a reply waiting for it.
        struct Stopped<'a>(&'a Computer);
        impl Drop for Stopped<'_> {
            fn drop(&mut self) {
                lock(&self.0.ahead).pondering = false;
                self.0.chosen.notify_all();
            }
        }
        let c = &*self.0;
        if std::mem::replace(&mut lock(&c.ahead).pondering, true) {
            return;
        }
        let _stopped = Stopped(c);
        while !c.done.load(Ordering::Acquire) && lock(&c.ahead).cells.len() < most {
            if !c.choose_next() {
                break;
            }
        }
    }

    /// Returns once the computer's next shot is chosen (by a pondering thread, waited for,
    /// else on this thread), or its game is over, for [`Versus::reply_ready`] to fire at once.
    /// A caller waits here without holding the match, so the person's shots are taken
    /// meanwhile.
    pub fn wait_chosen(&self) {
        self.0.wait_chosen();
    }
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
            computer: Arc::new(Computer {
                thinker: Mutex::new(Thinker {
                    shooter: shooter.shooter(Counting {
                        book: Some(
                            book.filter(|b| b.setup() == setup)
                                .unwrap_or_else(|| Book::for_run(setup)),
                        ),
                        time_limit,
                        cancel: None,
                    }),
                    rng: stream(seed, 0, 2),
                    board: Game::new(setup.clone(), yours.clone()),
                }),
                ahead: Mutex::new(Ahead::default()),
                chosen: Condvar::new(),
                done: AtomicBool::new(false),
            }),
            yours: Game::new(setup.clone(), yours),
            shooter_kind: shooter,
            seed,
            voided: 0,
        })
    }

    /// The person fires at `cell` of the computer's board; an error when the cell is off the
    /// board or was fired at before, or the game is over, or the person's shots have sunk the
    /// computer's fleet and only its answers are still to come. The computer need not have
    /// answered the person's earlier shots ([`Versus::owed`]).
    pub fn fire(&mut self, cell: usize) -> Result<ShotResult, Error> {
        let d = self.theirs.setup().dims;
        if let Some(w) = self.winner() {
            return Err(Error::Request(format!("the game is over: {}", w.says())));
        }
        if self.theirs.is_over() {
            return Err(Error::Request(
                "your shots sank the computer's fleet: its answers to them are still to come"
                    .into(),
            ));
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
        let result = self.theirs.fire(cell);
        self.settle();
        Ok(result)
    }

    /// The computer's answer to the person's first shot it has not answered: its shot at the
    /// person's board and what it reported; `None` when no shot is owed ([`Versus::owed`]). A
    /// shot chosen ahead ([`Versus::ponder`], [`Ponderer::ponder`]) is fired at once, else the
    /// shot is waited for or chosen now.
    pub fn reply(&mut self) -> Option<(usize, ShotResult)> {
        if self.owed() == 0 {
            return None;
        }
        let cell = self.computer.take()?;
        Some(self.computer_fires(cell))
    }

    /// [`Versus::reply`] where the computer's shot is already chosen ahead; `None`, without
    /// waiting, where it is not (or no shot is owed).
    pub fn reply_ready(&mut self) -> Option<(usize, ShotResult)> {
        if self.owed() == 0 {
            return None;
        }
        let cell = lock(&self.computer.ahead).cells.pop_front()?;
        Some(self.computer_fires(cell))
    }

    /// How many of the person's shots the computer has still to answer: its shot k follows
    /// the person's shot k, unless that shot sank the computer's fleet; none once the
    /// computer's game is over.
    pub fn owed(&self) -> usize {
        if self.yours.is_over() {
            return 0;
        }
        let fired = self.theirs.shots().len();
        let due = if self.theirs.is_over() {
            fired - 1
        } else {
            fired
        };
        due.saturating_sub(self.yours.shots().len())
    }

    /// How many of the person's shots were void: fired ahead of the computer's answers, after
    /// the computer's shot that sank the person's fleet.
    pub fn voided(&self) -> usize {
        self.voided
    }

    /// Fires the computer's shot at `cell`, and drops the person's shots after it when it sank
    /// the person's fleet.
    fn computer_fires(&mut self, cell: usize) -> (usize, ShotResult) {
        let result = self.yours.fire(cell);
        let last = self.yours.shots().len();
        if self.yours.is_over() && self.theirs.shots().len() > last {
            let mut kept = Game::new(self.theirs.setup().clone(), self.theirs.layout().clone());
            for shot in &self.theirs.shots()[..last] {
                kept.fire(shot.cell);
            }
            self.voided = self.theirs.shots().len() - last;
            self.theirs = kept;
        }
        self.settle();
        (cell, result)
    }

    /// Stops the computer's pondering once the game is settled.
    fn settle(&self) {
        if self.winner().is_some() {
            self.computer.done.store(true, Ordering::Release);
        }
    }

    /// Chooses the computer's shots ahead until `most` are chosen and not yet fired (or its
    /// game is over), for [`Versus::reply`] to fire at once: a caller runs this while the
    /// person thinks. The computer's choices depend on its own shots alone, and draw the
    /// same random numbers whenever they are made, so a game is the same pondered or not.
    pub fn ponder(&self, most: usize) {
        self.ponderer().ponder(most);
    }

    /// A handle that ponders this match's computer from another thread while the match is
    /// played ([`Ponderer::ponder`]); it keeps the computer alive, not the match.
    pub fn ponderer(&self) -> Ponderer {
        Ponderer(self.computer.clone())
    }

    /// How many of the computer's shots are chosen ahead and not yet fired.
    pub fn pondered(&self) -> usize {
        lock(&self.computer.ahead).cells.len()
    }

    /// Who won, once a fleet is sunk and the computer has answered every shot the person
    /// fired before. The person fires first, so when the person's shot k sinks the computer's
    /// fleet the computer fires k - 1 shots, and wins if one of them sinks the person's.
    pub fn winner(&self) -> Option<Winner> {
        if self.yours.is_over() {
            Some(Winner::Computer)
        } else if self.theirs.is_over() && self.owed() == 0 {
            Some(Winner::You)
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

impl Drop for Versus {
    /// A match given up stops its computer's pondering at the shot under way.
    fn drop(&mut self) {
        self.computer.done.store(true, Ordering::Release);
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
