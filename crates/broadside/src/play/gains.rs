//! What a shooter's departures from `density:50.1` are worth, measured shot by shot.
//!
//! Playing two shooters out on the same layouts tells their means apart only to about a tenth
//! of a shot over 20,000 games: after their first different shot the two games go their own
//! ways, and their lengths differ by about 8 shots from board to board. The performance
//! difference lemma measures the same difference another way. Along a shooter's games, at
//! every shot where it leaves the base policy (`density:50.1`, the pilot's base), play both
//! shots out with the base to the end of the game on layouts drawn exactly uniformly among
//! those the shots allow: the base's expected game after its own shot less that after the
//! shooter's is that departure's gain, and the gains of a game's departures add up, in
//! expectation, to the shots the shooter saves on the base over the games like it. Each
//! departure is measured on layouts of its own, so a choice made on lucky draws is not
//! credited with their luck.
//!
//! [`gains`] reads the games as `simulate --out` writes them (any shooter's), and gives the
//! gain per game with its 95% interval, where in the game it comes from (by ships sunk
//! before the departure), and each departure's figure.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::game::Setup;
use super::shooter::{BASE_SMALL, BASE_WEIGHT, ShooterKind, departure};
use crate::engine::Enumerator;
use crate::error::Error;
use crate::observe::ShotResult;
use crate::problem::ProblemSpec;
use crate::rng::stream;
use crate::stats::Moments;

/// The most layouts a departure may be played out on (where no more are left, they are
/// listed, and kept, before they are played).
pub const MAX_LAYOUTS: usize = 100_000;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Gains {
    /// The games, as `simulate --out` writes them: each record's shots, in order, are the
    /// shooter's (its hidden layout is not used).
    pub games: Vec<ProblemSpec>,
    /// Layouts each departure is played out on (every one the shots allow where there are
    /// no more).
    pub layouts: usize,
    /// The seed the draws derive from: a game's from the seed and the game's own shots, so
    /// the same seed gives a game the same figures on any number of threads and wherever the
    /// game sits among the others (a game measured alone is measured as in its whole run).
    pub seed: u64,
    /// Games measured before, by a run that was cut short: empty, or an entry per game of
    /// `games`, `Some` for those not to be measured again. They count in the table as if
    /// measured now (a game's figures depend only on its shots and the seed).
    pub kept: Vec<Option<GameGains>>,
}

/// One departure: a shot that was not the base's choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Departure {
    /// The shot's number in its game (1 for the first).
    pub shot: usize,
    /// Ships reported sunk before it.
    pub sunk: usize,
    /// The base's choice there.
    pub base: String,
    /// The cell the shooter fired at.
    pub fired: String,
    /// The base's expected shots to the end after its own choice, less those after the
    /// shooter's (both played on by the base): positive where the shooter's is better.
    pub gain: f64,
    /// The standard error of `gain` (0 where it is exact).
    pub se: f64,
    /// The layouts played out.
    pub layouts: usize,
    /// Whether those are every layout the shots allow.
    pub exact: bool,
}

/// One game's departures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameGains {
    /// The record's name (`game-K` in a `simulate --out` file).
    pub name: Option<String>,
    /// The shots the game took.
    pub shots: usize,
    /// The sum of its departures' gains.
    pub gain: f64,
    /// Its departures, in the order of the game.
    pub departures: Vec<Departure>,
}

/// The gains of a run's games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GainsTable {
    /// The base policy the departures are measured against.
    pub base: String,
    /// Games measured.
    pub games: u64,
    /// Whether every game given was measured (false when the run was stopped early).
    pub complete: bool,
    /// Layouts a departure is played out on, at most.
    pub layouts: usize,
    /// The seed of the draws.
    pub seed: u64,
    /// The mean gain per game: shots saved on the base, by the lemma.
    pub gain: f64,
    /// Its 95% interval (normal approximation, over the games).
    pub ci95: [f64; 2],
    /// The standard deviation of a game's gain.
    pub sd: f64,
    /// Departures per game.
    pub departures: f64,
    /// The mean gain per game of the departures made after `k` sinkings, for `k` from 0.
    pub by_sinkings: Vec<f64>,
    /// Each game measured, in the order given (left out of the JSON when emptied).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub each: Vec<GameGains>,
}

/// Measures every departure from `density:50.1` in the games of `run` (but those it has
/// [`Gains::kept`]), on every core; the run stops early when `stop` is set (its time limit, a
/// Ctrl-C): the games under way are given up, and the table is of the games measured, with
/// [`GainsTable::complete`] false. `measured(i, game)` is called as each game `i` (its index
/// in [`Gains::games`]) is measured, in the order they finish, with the number measured so
/// far (the kept ones too): where a caller keeps them as they come. An error names a game
/// whose shots no layout allows.
pub fn gains(
    run: &Gains,
    stop: &AtomicBool,
    measured: &(dyn Fn(usize, &GameGains, u64) + Sync),
) -> Result<GainsTable, Error> {
    if run.games.is_empty() {
        return Err(Error::Request("there must be at least one game".into()));
    }
    if !run.kept.is_empty() && run.kept.len() != run.games.len() {
        return Err(Error::Request(format!(
            "{} games given, but {} kept: an entry per game",
            run.games.len(),
            run.kept.len()
        )));
    }
    let kept = |i: usize| run.kept.get(i).and_then(Option::as_ref);
    if !(2..=MAX_LAYOUTS).contains(&run.layouts) {
        return Err(Error::Request(format!(
            "a departure is played out on 2 to {MAX_LAYOUTS} layouts"
        )));
    }
    let mut names = std::collections::HashSet::new();
    for (i, r) in run.games.iter().enumerate() {
        let name = || {
            r.meta
                .name
                .clone()
                .unwrap_or_else(|| format!("game {}", i + 1))
        };
        // A game given twice would count twice, and narrow the interval for nothing.
        if let Some(n) = &r.meta.name
            && !names.insert(n.as_str())
        {
            return Err(Error::Request(format!(
                "{n} is there twice: are two files the same part of a run?"
            )));
        }
        if r.observations.shots.is_empty() {
            return Err(Error::Request(format!(
                "{}: it has no shots: not a game that simulate --out wrote",
                name()
            )));
        }
        if r.solution.is_some() {
            super::replays(r).map_err(|e| Error::Request(format!("{}: {e}", name())))?;
        }
        if kept(i).is_some() {
            continue;
        }
        let position = Setup::of(r).after(&r.observations.shots).build();
        let fits = position.is_ok_and(|p| Enumerator::new(&p).solutions().next().is_some());
        if !fits {
            return Err(Error::Request(format!(
                "{}: no layout allows its shots",
                name()
            )));
        }
    }
    let done = AtomicU64::new(run.kept.iter().flatten().count() as u64);
    let games: Vec<Option<GameGains>> = super::cancelled_by(stop, |cancel| {
        super::on_game_threads(|| {
            run.games
                .par_iter()
                .enumerate()
                .map(|(i, record)| {
                    if let Some(game) = kept(i) {
                        return Some(game.clone());
                    }
                    let game = measure(record, run.layouts, run.seed, cancel)?;
                    measured(i, &game, done.fetch_add(1, Ordering::Relaxed) + 1);
                    Some(game)
                })
                .collect()
        })
    });
    let each: Vec<GameGains> = games.into_iter().flatten().collect();
    if each.is_empty() {
        return Err(Error::Stopped(
            "the run was stopped before a game was measured".into(),
        ));
    }
    let per_game: Vec<f64> = each.iter().map(|g| g.gain).collect();
    let m = Moments::of(&per_game);
    let n = each.len() as f64;
    let most = each
        .iter()
        .flat_map(|g| g.departures.iter().map(|d| d.sunk + 1))
        .max()
        .unwrap_or(0);
    let mut by_sinkings = vec![0.0; most];
    for d in each.iter().flat_map(|g| &g.departures) {
        by_sinkings[d.sunk] += d.gain / n;
    }
    let departures = each.iter().map(|g| g.departures.len()).sum::<usize>() as f64 / n;
    Ok(GainsTable {
        base: ShooterKind::Density {
            weight: BASE_WEIGHT,
            small: BASE_SMALL,
            lattice: 0,
        }
        .to_string(),
        games: m.n,
        complete: each.len() == run.games.len(),
        layouts: run.layouts,
        seed: run.seed,
        gain: m.mean,
        ci95: m.ci95,
        sd: m.sd,
        departures,
        by_sinkings,
        each,
    })
}

/// The departures of the game `record`; `None` once `cancel` is raised.
fn measure(
    record: &ProblemSpec,
    layouts: usize,
    seed: u64,
    cancel: &crate::engine::Cancel,
) -> Option<GameGains> {
    let setup = Setup::of(record);
    let shots = &record.observations.shots;
    let mut rng = stream(seed, fingerprint(shots), 0);
    let mut departures = Vec::new();
    let mut sunk = 0;
    for (t, shot) in shots.iter().enumerate() {
        if cancel.is_cancelled() {
            return None;
        }
        let before = &shots[..t];
        if let Some(d) = departure(&setup, before, shot.cell, layouts, &mut rng, cancel) {
            departures.push(Departure {
                shot: t + 1,
                sunk,
                base: setup.dims.cell_name(d.base),
                fired: setup.dims.cell_name(shot.cell),
                gain: d.gain,
                se: d.se,
                layouts: d.layouts,
                exact: d.exact,
            });
        }
        if cancel.is_cancelled() {
            return None;
        }
        if matches!(shot.result, ShotResult::Sunk { .. }) {
            sunk += 1;
        }
    }
    Some(GameGains {
        name: record.meta.name.clone(),
        shots: shots.len(),
        // From +0 (an empty sum of floats is -0).
        gain: departures.iter().fold(0.0, |sum, d| sum + d.gain),
        departures,
    })
}

/// A number that names a game by its shots (FNV-1a over the cells fired at, in order).
fn fingerprint(shots: &[crate::observe::Shot]) -> u64 {
    shots.iter().fold(0xcbf2_9ce4_8422_2325, |h, s| {
        (h ^ s.cell as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
