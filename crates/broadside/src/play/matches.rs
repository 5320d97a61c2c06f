//! Matches: two sides each place a fleet and shoot at the other's, in turn; whoever sinks the
//! other's fleet first wins.
//!
//! Neither side's shots depend on the other's, so a game is decided by how many shots each
//! needs on the other's board: the side to start wins when it needs no more than the other.
//! Each pair of boards is played twice, each side starting once; a pair scores 1 for the first
//! side when it needs fewer shots, 1/2 when they need as many (each wins the game it starts),
//! 0 otherwise. The win rate is the mean score, with a 95% interval over the pairs.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::book::Book;
use super::game::{Game, Setup};
use super::placer::{Placer, PlacerKind, empty_board};
use super::shooter::{ShooterKind, play_until};
use super::simulate::{CHUNK, MAX_GAMES};
use crate::engine::Cancel;
use crate::error::Error;
use crate::rng::stream;
use crate::sample::SampleError;
use crate::stats::{Z95, mean_sd};

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Side {
    /// Who shoots for it.
    pub shooter: ShooterKind,
    /// Who places its fleet.
    pub placer: PlacerKind,
}

/// The result of a match, from the first side's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchSummary {
    /// The first side.
    pub a: Side,
    /// The second side.
    pub b: Side,
    /// Games played (two per pair of boards): all those asked for when `complete`.
    pub games: u64,
    /// Whether every game asked for was played (a stopped match counts the pairs it
    /// finished).
    pub complete: bool,
    /// The share of games the first side won, 0 to 1.
    pub win_rate: f64,
    /// Its 95% confidence interval, over the pairs.
    pub ci95: [f64; 2],
    /// Mean shots the first side needed to sink the second's fleet.
    pub mean_shots_a: f64,
    /// Mean shots the second side needed.
    pub mean_shots_b: f64,
}

/// A match to play: `pairs` pairs of boards under `setup`, reproducibly from `seed`.
#[derive(Clone, Debug)]
pub struct Match {
    /// The game both sides play.
    pub setup: Setup,
    /// The first side.
    pub a: Side,
    /// The second side.
    pub b: Side,
    /// Pairs of boards, each played twice (each side starting once).
    pub pairs: u64,
    /// The seed: pair `i`'s boards and shots come from it and `i` alone, so a pair plays the
    /// same on any number of threads and in a run cut short as in the whole run.
    pub seed: u64,
    /// Pairs played before, by a run that was cut short: empty, or an entry per pair, `Some`
    /// for those not to be played again. They count in the summary as if played now.
    pub kept: Vec<Option<PairShots>>,
}

/// The shots each side needed on the other's board of one pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairShots {
    /// The first side's shots at the second's fleet.
    pub a: usize,
    /// The second side's shots at the first's fleet.
    pub b: usize,
}

/// Plays the match `run` on every core. Once `stop` is raised no pair starts, the pairs
/// under way are given up (their counts stop), and the summary is of the pairs finished
/// (`complete` false); stopped before any, it is an error. `played(i, shots, done)` is called
/// as each pair `i` (from 0) is played, in the order they finish, with the number of pairs
/// done so far (the kept ones too): where a caller keeps them as they come.
pub fn play_match(
    run: &Match,
    stop: &AtomicBool,
    played: &(dyn Fn(u64, PairShots, u64) + Sync),
) -> Result<MatchSummary, Error> {
    let pairs = run.pairs;
    if pairs == 0 {
        return Err(Error::Request("there must be at least one game".into()));
    }
    if pairs > MAX_GAMES / 2 {
        return Err(Error::Request(format!(
            "at most {MAX_GAMES} games in one run (each game's shots are kept)"
        )));
    }
    if !run.kept.is_empty() && run.kept.len() as u64 != pairs {
        return Err(Error::Request(format!(
            "{pairs} pairs asked for, but {} kept: an entry per pair",
            run.kept.len()
        )));
    }
    let shots = super::cancelled_by(stop, |cancel| pairs_played(run, stop, played, cancel))?;
    let n = shots.len() as f64;
    let scores: Vec<f64> = shots
        .iter()
        .map(|s| match s.a.cmp(&s.b) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        })
        .collect();
    let (mean, sd) = mean_sd(&scores);
    let half = Z95 * sd / n.sqrt();
    Ok(MatchSummary {
        a: run.a.clone(),
        b: run.b.clone(),
        games: 2 * shots.len() as u64,
        complete: shots.len() as u64 == pairs,
        win_rate: mean,
        ci95: [(mean - half).max(0.0), (mean + half).min(1.0)],
        mean_shots_a: shots.iter().map(|s| s.a).sum::<usize>() as f64 / n,
        mean_shots_b: shots.iter().map(|s| s.b).sum::<usize>() as f64 / n,
    })
}

/// The games of [`play_match`], in the order of the pairs: per pair kept or played, the
/// shots of a and of b.
fn pairs_played(
    run: &Match,
    stop: &AtomicBool,
    played: &(dyn Fn(u64, PairShots, u64) + Sync),
    cancel: &Cancel,
) -> Result<Vec<PairShots>, Error> {
    let (setup, a, b, pairs, seed) = (&run.setup, &run.a, &run.b, run.pairs, run.seed);
    let empty = empty_board(setup)?;
    // Side a's fleet (which b shoots at) from stream 0, b's from stream 2.
    let placer = |kind: &PlacerKind, empty| {
        Placer::within(kind, setup, empty, None, Some(cancel.clone())).map_err(|e| match e {
            Error::Sample(SampleError::Time) if cancel.is_cancelled() => Error::Stopped(
                format!(
                    "the match was stopped before a pair of games finished (the {kind} placer was still counting the empty board)"
                ),
            ),
            e => e,
        })
    };
    let mut placer_a = placer(&a.placer, empty.clone())?;
    let mut placer_b = placer(&b.placer, empty)?;
    let book = Book::for_run(setup);
    let mut shots: Vec<PairShots> = Vec::new();
    let kept = |i: u64| run.kept.get(i as usize).copied().flatten();
    let done = AtomicU64::new(run.kept.iter().flatten().count() as u64);
    // Boards are drawn a chunk at a time, so memory holds a chunk's layouts, not the run's.
    let mut from = 0;
    while from < pairs {
        let to = pairs.min(from + CHUNK);
        let mut boards = Vec::with_capacity((to - from) as usize);
        for i in from..to {
            // Drawing can take long too (a sequential placer on a large board). Placers may keep
            // state from one layout to the next, so the boards of kept pairs are drawn too.
            if cancel.is_cancelled() {
                break;
            }
            let gave_up =
                |p: &PlacerKind| Error::Request(format!("the {p} placer could not place"));
            let la = placer_a
                .place(&mut stream(seed, i, 0))
                .ok_or_else(|| gave_up(&a.placer))?;
            let lb = placer_b
                .place(&mut stream(seed, i, 2))
                .ok_or_else(|| gave_up(&b.placer))?;
            boards.push((la, lb));
        }
        let now: Vec<Option<PairShots>> = super::on_game_threads(|| {
            boards
                .into_par_iter()
                .enumerate()
                .map(|(k, (la, lb))| {
                    let i = from + k as u64;
                    if let Some(shots) = kept(i) {
                        return Some(shots);
                    }
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    // A pair is kept whole or not at all: given up at a stop.
                    let na = play_until(
                        &mut Game::new(setup.clone(), lb),
                        a.shooter,
                        Some(&book),
                        &mut stream(seed, i, 1),
                        Some(cancel),
                    )?;
                    let nb = play_until(
                        &mut Game::new(setup.clone(), la),
                        b.shooter,
                        Some(&book),
                        &mut stream(seed, i, 3),
                        Some(cancel),
                    )?;
                    let shots = PairShots { a: na, b: nb };
                    played(i, shots, done.fetch_add(1, Ordering::Relaxed) + 1);
                    Some(shots)
                })
                .collect()
        });
        shots.extend(now.into_iter().flatten());
        from = to;
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    if shots.is_empty() {
        return Err(Error::Stopped(
            "the match was stopped before a pair of games finished".into(),
        ));
    }
    Ok(shots)
}
