//! Playing: games against a hidden layout, shooters and placers from the literature, and
//! self-play simulations with their statistics.
//!
//! - [`Game`] holds a hidden layout and the shots fired at it, reporting each under the game's
//!   sinking rule; [`Game::record`] is the position as a game record any engine reads, so a
//!   position of a simulated game can be replayed into `broadside probs`.
//! - [`Shooter`] picks the next cell; [`ShooterKind`] names the ones broadside has; [`play`]
//!   plays one shooter's game to the end.
//! - [`Placer`] hides the fleet; [`PlacerKind`] names the placers.
//! - [`vocabulary`] is the one table of shooters and placers, their parameters and presets,
//!   from which their words are read and written and every listing of them is made.
//! - [`simulate`] plays many games on every core, reproducibly from a seed, and gives a
//!   [`Summary`] of the shots they took; [`play_match`] pits two sides against each other on
//!   paired boards.
//! - [`Versus`] is a person against the computer, a shot each in turn (the person may fire
//!   ahead of the computer's answers); [`Adviser`] asks a shooter about positions of a game
//!   kept elsewhere (advice, an agent's opponent).
//! - [`Book`] keeps the exact heat maps of positions many games reach (openings, the hunt for
//!   the first ship), once for the games of a run.
//! - [`Optimal`] solves small games exactly: the least expected shots any shooter can reach,
//!   and beside it those of exact greedy and of the rollout of greedy.
//! - [`gains`] measures, shot by shot, what a shooter's departures from `density:50.1` are
//!   worth (the performance difference lemma): a shooter's edge on its base from a few hundred
//!   games instead of tens of thousands played out.
//! - [`accuracy`] is Naslausky & Figueiredo's evaluation: how often the likeliest cells of an exact or a
//!   sampled heat map hold a ship, turn by turn.
//!
//! ```
//! use broadside::play::{PlacerKind, Setup, ShooterKind, Simulation, simulate};
//! use broadside::{Dims, Fleet, Rules, Sinking};
//! let sim = Simulation {
//!     setup: Setup {
//!         dims: Dims::new(5, 5),
//!         fleet: Fleet::straight(&[3, 2]),
//!         rules: Rules::NoTouch,
//!         sinking: Sinking::Announced,
//!         rocks: Vec::new(),
//!     },
//!     shooter: ShooterKind::HuntTarget,
//!     placer: PlacerKind::Uniform,
//!     games: 200,
//!     first: 0,
//!     seed: 7,
//!     book: None,
//! };
//! let (summary, games) = simulate(&sim, &|_| {}).unwrap();
//! assert_eq!(games.len(), 200);
//! assert!(summary.min >= 5 && summary.max <= 25);
//! ```

mod accuracy;
mod adviser;
mod book;
mod gains;
mod game;
mod matches;
mod optimal;
mod placer;
mod shooter;
mod simulate;
mod versus;
pub mod vocabulary;

pub use accuracy::{
    Accuracy, AccuracyTable, Boards, Estimator, GameAccuracy, Turn, accuracy, catalogue,
};
pub use adviser::Adviser;
pub use book::Book;
pub use gains::{Departure, Gains, GainsTable, GameGains, gains};
pub use game::{Game, Setup, replays};
pub use matches::{Match, MatchSummary, PairShots, Side, play_match};
pub use optimal::{Expected, Optimal};
pub use placer::{Placer, PlacerKind, empty_board};
pub use shooter::{Counting, DENSITY_WEIGHT, Shooter, ShooterKind, play, play_until};

use crate::engine::Cancel;
pub use simulate::{Played, Simulation, Summary, simulate, simulate_each};
pub use versus::{Ponderer, Versus, Winner};

/// Runs `f` with a [`Cancel`] raised as soon as `stop` is (a thread looks every 10 ms, and
/// ends with `f`): a run that is stopped then stops the counts of the games under way, whose
/// shooters give up those games, instead of playing them to the end.
pub(crate) fn cancelled_by<R>(
    stop: &std::sync::atomic::AtomicBool,
    f: impl FnOnce(&Cancel) -> R,
) -> R {
    use std::sync::atomic::{AtomicBool, Ordering};
    let cancel = Cancel::new();
    let over = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !over.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    cancel.cancel();
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        let r = f(&cancel);
        over.store(true, Ordering::Relaxed);
        r
    })
}

/// Runs `f`, which plays games in parallel, on a pool of its own, made for this run and as
/// many threads wide as the pool it is called from (rayon's global one, or the caller's). The
/// engines a game calls race on threads of their own that use the global pool: were the games
/// on it too, a game waiting for its race would hold a thread the race needs.
pub(crate) fn on_game_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .thread_name(|i| format!("broadside-game-{i}"))
        .build();
    match pool {
        Ok(p) => p.install(f),
        Err(_) => f(),
    }
}
