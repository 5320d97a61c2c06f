//! Shooters: who picks the next cell. Each sees only the game's rules and the shots so far
//! (never the hidden layout) and takes the caller's RNG.
//!
//! - [`ShooterKind::Random`]: any cell not fired at (Kancko's Random, Sakuta & Iida's R).
//! - [`ShooterKind::HuntTarget`]: hunts at random; after a hit, fires at the hit's neighbours,
//!   and once two hits line up, along their line (Kancko's Human-like, Sakuta & Iida's RNB).
//! - [`ShooterKind::Parity`]: hunt-target, hunting only on one colour of a checkerboard, chosen
//!   at random per game (Kancko's Even).
//! - [`ShooterKind::Checkerboard`]: hunt-target hunting on one checkerboard colour in four
//!   passes, a sparse lattice first, after a random offset (Sakuta & Iida's CB, its figure 4).
//! - [`ShooterKind::Knight`]: hunt-target hunting in Sakuta & Iida's four knight-move passes (KCB, its
//!   figure 5), then anywhere.
//! - [`ShooterKind::Density`]: the probability matrix of the Habr article, each afloat ship slid
//!   over every position the shots allow, one ship at a time, and a cell of most positions
//!   shot; a position covering `k` open hits counts `w^k` (`density:W`; the public mayflower
//!   engine's `density(b=50)` is `density:50`). `density:W.S` hunts with each ship type's
//!   positions counting `1 / length^S`: short ships, the ones found last, weigh more
//!   (`density:50.1` beats the public engine's rule on the standard game). `density:W.S.L`
//!   keeps the hunt on the cells whose row plus column is a multiple of `L` while the
//!   shortest ship afloat has `L` cells (`density:50.1.2` is the strongest cheap shooter on
//!   the standard game).
//! - [`ShooterKind::Habr`]: the Habr article's matrix as it finishes: after a hit, only
//!   positions through the wounded cells count.
//! - [`ShooterKind::Greedy`]: fires at a cell of highest exact probability of a ship, given
//!   every shot so far and the sinking rule (Kancko's Heat-map), ties broken at random.
//! - [`ShooterKind::MinPossible`]: Sakuta & Iida's MP_x: checkerboard until at most four ships are
//!   afloat and at most `x` cells are open, then greedy.
//! - [`ShooterKind::Sampled`]: greedy on a heat map estimated from boards drawn by a sampler
//!   (Naslausky & Figueiredo's method with its weighted sampler).
//! - [`ShooterKind::Lookahead`]: Sakuta & Iida's LA: the cell that gives the most layouts hit within the
//!   next few shots, the later ones assumed to miss.
//! - [`ShooterKind::Endgame`]: greedy until few layouts are consistent, then optimal play on
//!   them (expectimax over belief states, see [`crate::play::Optimal`]).
//! - [`ShooterKind::Rollout`]: greedy until few layouts are consistent, then the rollout of
//!   greedy on them: the cell after which greedy needs the fewest expected shots, computed
//!   exactly (never worse than greedy in expectation, see [`crate::play::Optimal`]).
//! - [`ShooterKind::Pilot`]: `density:50.1` improved by paired Monte Carlo rollouts of itself
//!   on exactly uniform layouts, once a ship is wounded or sunk (`pilot:3200.8` is the strongest
//!   shooter on the standard game; see `pilot.rs`).
//! - [`ShooterKind::Mcts`]: Kancko's Monte Carlo tree search (UCT) over layouts drawn uniformly
//!   from those consistent with the shots.

use rand::Rng;
use rand::RngExt;

use std::sync::Arc;

use super::book::Book;
use super::game::{Game, Setup};
use super::vocabulary::{self, SHOOTERS, Value};
use crate::choice::UnknownChoice;
use crate::engine::Cancel;
use crate::observe::Shot;
use crate::sample::SamplerKind;

mod density;
mod exact;
mod hunt;
mod mcts;
mod pilot;

use density::Density;
use exact::{Endgame, Exact, Finish, Greedy, Lookahead, MinPossible, Sampled};
use hunt::{Hunt, HuntTarget};
use mcts::Mcts;
use pilot::Pilot;
pub(super) use pilot::{BASE_SMALL, BASE_WEIGHT, CANDIDATES as PILOT_CANDIDATES, departure};

/// Picks the next cell to fire at.
pub trait Shooter: Send {
    /// The next cell, one not fired at before, given the shots so far (the game is not over).
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize;
}

/// The shooters broadside has; see the module documentation. As words (`FromStr` and
/// `Display`), the table [`SHOOTERS`](super::vocabulary::SHOOTERS): a name, then its
/// parameters by name (`pilot:layouts=3200,candidates=8`) or by position (`pilot:3200.8`), or
/// a preset (`strongest`); written back with the parameters off their defaults, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShooterKind {
    /// Any cell not fired at.
    Random,
    /// Hunt at random, then target the neighbours and the line of hits.
    HuntTarget,
    /// Hunt-target, hunting on one checkerboard colour.
    Parity,
    /// Hunt-target, hunting on one colour in four passes.
    Checkerboard,
    /// Hunt-target, hunting in four knight-move passes.
    Knight,
    /// The probability matrix of ships slid one at a time, a position covering `k` open hits
    /// counting `weight^k` (`density:W`; `density` is [`DENSITY_WEIGHT`]); while hunting, a
    /// ship type's positions count `1 / length^small` each (`density:W.S`, 0 unless given),
    /// and the hunt keeps to the cells whose row plus column is a multiple of `lattice`
    /// while the shortest ship afloat has that many cells (`density:W.S.L`, none unless
    /// given).
    Density {
        /// What an open hit multiplies a position's weight by (at least 1).
        weight: u32,
        /// How much more a short ship's positions count while hunting (0 to 3).
        small: u32,
        /// The shortest ship's length at which the hunt keeps to a lattice (0: never; else 2
        /// to 9).
        lattice: u32,
    },
    /// The Habr article's probability matrix, finishing only on positions through wounded
    /// cells.
    Habr,
    /// A cell of highest exact probability.
    Greedy,
    /// Checkerboard until at most four ships are afloat and at most `open` cells are not fired
    /// at, then greedy (`mp:X`).
    MinPossible {
        /// The most open cells at which the exact stage starts.
        open: usize,
    },
    /// Greedy on the heat map estimated from `boards` layouts drawn by `sampler` at every
    /// shot (`sampled:N`, `sampled:N:weighted`).
    Sampled {
        /// Boards drawn per shot.
        boards: u64,
        /// The sampler that draws them.
        sampler: SamplerKind,
    },
    /// The cell from which the most layouts are hit within `plies` shots, each later shot
    /// among the `moves` likeliest cells and the shots before it assumed to miss
    /// (`lookahead:D`, Sakuta & Iida's `lookahead:D.Y.X`); checkerboard until at most four ships are
    /// afloat and at most `open` cells are open, when given.
    Lookahead {
        /// Shots looked ahead (1 is greedy).
        plies: usize,
        /// Candidate cells per shot.
        moves: usize,
        /// The most open cells at which the exact stage starts; `None`: from the first shot.
        open: Option<usize>,
    },
    /// Greedy until at most `layouts` layouts are consistent with the shots, then optimal
    /// (`endgame:N`).
    Endgame {
        /// The most consistent layouts at which optimal play takes over.
        layouts: u64,
    },
    /// Greedy until at most `layouts` layouts are consistent with the shots, then the
    /// rollout of greedy, exact (`rollout:N`).
    Rollout {
        /// The most consistent layouts at which the rollout takes over.
        layouts: u64,
    },
    /// `density:50.1`, improved at each shot after the first sinking or with a ship wounded
    /// by paired rollouts of itself from its cell and its next `candidates` heaviest on up to
    /// `samples` exactly uniform layouts (`pilot:N`, `pilot:N.C`; see the module `pilot`);
    /// with `afloat`, only once at most that many ships are left afloat (`pilot:N.C.A`).
    Pilot {
        /// Layouts per shot, at most.
        samples: u64,
        /// Cells weighed against the base's choice (6 unless given).
        candidates: usize,
        /// The most ships afloat (the fleet less the sinkings reported) at which the rollouts
        /// are played; `None`: from the first sinking or wounded ship on.
        afloat: Option<usize>,
    },
    /// UCT with `iterations` playouts per shot (`mcts:N`).
    Mcts {
        /// Playouts per shot.
        iterations: u64,
    },
}

impl std::str::FromStr for ShooterKind {
    type Err = UnknownChoice;

    /// A word of [`SHOOTERS`]: a name, a preset, or a name with its parameters by name or
    /// by position (the older form).
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        let w = SHOOTERS.parse(s)?;
        let whole = |name: &str| w.whole(name).expect("a parameter with a value");
        let maybe = |name: &str| w.whole(name);
        Ok(match w.entry.name {
            "random" => ShooterKind::Random,
            "hunt-target" => ShooterKind::HuntTarget,
            "parity" => ShooterKind::Parity,
            "checkerboard" => ShooterKind::Checkerboard,
            "knight" => ShooterKind::Knight,
            // The table's ranges keep each value within its field.
            "density" => ShooterKind::Density {
                weight: whole("weight") as u32,
                small: whole("hunt") as u32,
                lattice: maybe("lattice").unwrap_or(0) as u32,
            },
            "habr" => ShooterKind::Habr,
            "greedy" => ShooterKind::Greedy,
            "mp" => ShooterKind::MinPossible {
                open: whole("open") as usize,
            },
            "sampled" => ShooterKind::Sampled {
                boards: whole("boards"),
                sampler: vocabulary::SAMPLERS[whole("sampler") as usize]
                    .parse()
                    .expect("the table's samplers are samplers"),
            },
            "lookahead" => ShooterKind::Lookahead {
                plies: whole("plies") as usize,
                moves: whole("moves") as usize,
                open: maybe("open").map(|x| x as usize),
            },
            "endgame" => ShooterKind::Endgame {
                layouts: whole("layouts"),
            },
            "rollout" => ShooterKind::Rollout {
                layouts: whole("layouts"),
            },
            "pilot" => ShooterKind::Pilot {
                samples: whole("layouts"),
                candidates: whole("candidates") as usize,
                afloat: maybe("afloat").map(|a| a as usize),
            },
            "mcts" => ShooterKind::Mcts {
                iterations: whole("playouts"),
            },
            other => unreachable!("the shooter {other} of the table has no kind"),
        })
    }
}

/// The weight of `density` without one: what an open hit multiplies a position's weight by.
pub const DENSITY_WEIGHT: u32 = 50;

impl std::fmt::Display for ShooterKind {
    /// The word of [`SHOOTERS`] that reads back as this shooter, every parameter not at its
    /// default named.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = |x: u64| Value::Whole(x);
        let or_unset = |x: Option<usize>| x.map_or(Value::Unset, |x| n(x as u64));
        let (name, values) = match *self {
            ShooterKind::Random => ("random", vec![]),
            ShooterKind::HuntTarget => ("hunt-target", vec![]),
            ShooterKind::Parity => ("parity", vec![]),
            ShooterKind::Checkerboard => ("checkerboard", vec![]),
            ShooterKind::Knight => ("knight", vec![]),
            ShooterKind::Density {
                weight,
                small,
                lattice,
            } => (
                "density",
                vec![
                    n(weight.into()),
                    n(small.into()),
                    if lattice == 0 {
                        Value::Unset
                    } else {
                        n(lattice.into())
                    },
                ],
            ),
            ShooterKind::Habr => ("habr", vec![]),
            ShooterKind::Greedy => ("greedy", vec![]),
            ShooterKind::MinPossible { open } => ("mp", vec![n(open as u64)]),
            ShooterKind::Sampled { boards, sampler } => (
                "sampled",
                vec![n(boards), n(vocabulary::sampler_index(sampler))],
            ),
            ShooterKind::Lookahead { plies, moves, open } => (
                "lookahead",
                vec![n(plies as u64), n(moves as u64), or_unset(open)],
            ),
            ShooterKind::Endgame { layouts } => ("endgame", vec![n(layouts)]),
            ShooterKind::Rollout { layouts } => ("rollout", vec![n(layouts)]),
            ShooterKind::Pilot {
                samples,
                candidates,
                afloat,
            } => (
                "pilot",
                vec![n(samples), n(candidates as u64), or_unset(afloat)],
            ),
            ShooterKind::Mcts { iterations } => ("mcts", vec![n(iterations)]),
        };
        SHOOTERS.write(f, name, &values)
    }
}

impl serde::Serialize for ShooterKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// How the exact shooters count the positions of a game ([`ShooterKind::shooter`]); the
/// default counts every position afresh, with no limit.
#[derive(Clone, Debug, Default)]
pub struct Counting {
    /// A book of the game's positions to look them up in, when it is for the game's rules
    /// (the games of a run share one): the same choices as counting each, sooner.
    pub book: Option<Arc<Book>>,
    /// Counts cut off at this long a shot (past it the shooter fires as greedy does without
    /// a map: at any open cell). What bounds a server's moves; a run without a limit plays
    /// the same games whatever the machine.
    pub time_limit: Option<std::time::Duration>,
    /// Counts also stop once this is raised (the shooter then fires as without a map;
    /// [`play_until`] gives the game up).
    pub cancel: Option<Cancel>,
}

impl Counting {
    /// Positions looked up in `book`, no limit.
    pub fn in_book(book: Arc<Book>) -> Counting {
        Counting {
            book: Some(book),
            ..Counting::default()
        }
    }
}

impl ShooterKind {
    /// A fresh shooter for one game, whose exact counts are made as `counting` says.
    pub fn shooter(self, counting: Counting) -> Box<dyn Shooter> {
        let Counting {
            book,
            time_limit,
            cancel,
        } = counting;
        let exact = Exact::new(book, time_limit, cancel);
        match self {
            ShooterKind::Random => Box::new(Random { order: Vec::new() }),
            ShooterKind::HuntTarget => Box::new(HuntTarget::new(Hunt::Any)),
            ShooterKind::Parity => Box::new(HuntTarget::new(Hunt::Colour)),
            ShooterKind::Checkerboard => Box::new(HuntTarget::new(Hunt::Passes)),
            ShooterKind::Knight => Box::new(HuntTarget::new(Hunt::Knight)),
            ShooterKind::Density {
                weight,
                small,
                lattice,
            } => Box::new(Density::new(weight, small, lattice)),
            ShooterKind::Habr => Box::new(Density::new(0, 0, 0)),
            ShooterKind::Greedy => Box::new(Greedy(exact)),
            ShooterKind::MinPossible { open } => Box::new(MinPossible::new(exact, open)),
            ShooterKind::Sampled { boards, sampler } => Box::new(Sampled {
                exact,
                boards,
                sampler,
            }),
            ShooterKind::Lookahead { plies, moves, open } => {
                Box::new(Lookahead::new(exact, plies, moves, open))
            }
            ShooterKind::Endgame { layouts } => {
                Box::new(Endgame::new(exact, layouts, Finish::Optimal))
            }
            ShooterKind::Rollout { layouts } => {
                Box::new(Endgame::new(exact, layouts, Finish::Rollout))
            }
            ShooterKind::Pilot {
                samples,
                candidates,
                afloat,
            } => Box::new(Pilot::new(samples, candidates, afloat, exact)),
            ShooterKind::Mcts { iterations } => Box::new(Mcts { exact, iterations }),
        }
    }
}

/// Plays one game of `shooter` against `game`'s hidden layout to the end, with `book` for the
/// exact shooters (see [`ShooterKind::shooter`]).
pub fn play(
    game: &mut Game,
    shooter: ShooterKind,
    book: Option<&Arc<Book>>,
    rng: &mut dyn Rng,
) -> usize {
    play_until(game, shooter, book, rng, None).expect("a game with no cancel is played out")
}

/// [`play`], given up (`None`) once `cancel` is raised: the count under way stops, and no
/// shot is fired after it.
pub fn play_until(
    game: &mut Game,
    shooter: ShooterKind,
    book: Option<&Arc<Book>>,
    rng: &mut dyn Rng,
    cancel: Option<&Cancel>,
) -> Option<usize> {
    let mut s = shooter.shooter(Counting {
        book: book.cloned(),
        time_limit: None,
        cancel: cancel.cloned(),
    });
    let cells = game.setup().dims.cells();
    let cancelled = || cancel.is_some_and(Cancel::is_cancelled);
    // Every shooter picks a cell not fired at, so a game ends within the board's cells.
    for _ in 0..cells {
        if game.is_over() {
            break;
        }
        let cell = s.choose(game.setup(), game.shots(), rng);
        if cancelled() {
            return None;
        }
        game.fire(cell);
    }
    Some(game.shots().len())
}

/// A cell chosen uniformly among `cells`.
fn any(cells: &[usize], rng: &mut dyn Rng) -> usize {
    cells[rng.random_range(0..cells.len())]
}

/// `cells` in a uniformly random order.
pub(super) fn shuffle(cells: &mut [usize], rng: &mut dyn Rng) {
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.random_range(0..=i));
    }
}

/// The cells not fired at (nor rocks).
pub(in crate::play) fn open(setup: &Setup, shots: &[Shot]) -> Vec<usize> {
    let mut fired = vec![false; setup.dims.cells()];
    for &r in &setup.rocks {
        fired[r] = true;
    }
    for s in shots {
        fired[s.cell] = true;
    }
    (0..setup.dims.cells()).filter(|&c| !fired[c]).collect()
}

/// The cells in a random order, drawn at the first shot; each shot takes the next not fired.
struct Random {
    order: Vec<usize>,
}

impl Shooter for Random {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        if self.order.is_empty() && shots.is_empty() {
            self.order = (0..setup.dims.cells())
                .filter(|c| !setup.rocks.contains(c))
                .collect();
            shuffle(&mut self.order, rng);
        }
        let fired = |c: usize| shots.iter().any(|s| s.cell == c);
        while let Some(c) = self.order.pop() {
            if !fired(c) {
                return c;
            }
        }
        // Shots this shooter did not fire (a game handed over mid-way): any open cell.
        any(&open(setup, shots), rng)
    }
}
