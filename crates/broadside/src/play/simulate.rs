//! Self-play: many games of one shooter against one placer, and their statistics.
//!
//! Game `i`'s hidden layout and its shooter's choices come from RNGs derived from the seed and
//! `i` alone, so a seed gives the same games whatever the number of threads. Layouts are drawn
//! in order, a few thousand at a time; those games are played in parallel on every core and
//! handed on in order as they finish ([`simulate_each`]), so a long run streams its games and
//! keeps in memory only the shots of each.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::book::Book;
use super::game::{Game, Setup};
use super::placer::{Placer, PlacerKind, empty_board};
use super::shooter::{ShooterKind, play_until};
use crate::engine::Cancel;
use crate::error::Error;
use crate::problem::ProblemSpec;
use crate::rng::stream;
use crate::sample::SampleError;
use crate::stats::Moments;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The game's rules.
    pub setup: Setup,
    /// Who shoots.
    pub shooter: ShooterKind,
    /// Who places.
    pub placer: PlacerKind,
    /// How many games.
    pub games: u64,
    /// The games played are those numbered `first + 1` to `first + games` of the seed: a long
    /// run can be played in parts, each the same games as in the whole run.
    pub first: u64,
    /// The seed every game's randomness derives from.
    pub seed: u64,
    /// The book of exact heat maps the games share (one read from a file, or kept for a later
    /// run); `None`: a new one for this run.
    pub book: Option<Arc<Book>>,
}

/// One game played.
#[derive(Clone, Debug)]
pub struct Played {
    /// Shots to sink the whole fleet.
    pub shots: usize,
    /// The game as a record, with the hidden layout as its solution.
    pub record: ProblemSpec,
}

/// The statistics of a simulation: shots per game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The shooter.
    pub shooter: ShooterKind,
    /// The placer.
    pub placer: PlacerKind,
    /// Games played.
    pub games: u64,
    /// Mean shots per game.
    pub mean: f64,
    /// Their standard deviation.
    pub sd: f64,
    /// Their median.
    pub median: f64,
    /// The 95% confidence interval of the mean (normal approximation).
    pub ci95: [f64; 2],
    /// The fewest shots.
    pub min: usize,
    /// The most shots.
    pub max: usize,
    /// Hits over shots, all games together.
    pub hit_ratio: f64,
    /// Wall time per game.
    pub seconds_per_game: f64,
    /// Whether every game asked for was played (false when the run was stopped early).
    pub complete: bool,
}

/// Plays the games of `sim`, calling `progress` with the games done so far.
pub fn simulate(
    sim: &Simulation,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Summary, Vec<Played>), Error> {
    let mut played = Vec::new();
    let summary = simulate_each(sim, progress, &AtomicBool::new(false), &mut |p| {
        played.push(p);
        true
    })?;
    Ok((summary, played))
}

/// Games drawn and played at a time: what bounds the memory of a long run (a game's record
/// is kept only until `each` has it).
pub(super) const CHUNK: u64 = 4096;

/// The most games one run plays: each game's shots are kept for the summary (a longer table is
/// played in parts, with `first`).
pub const MAX_GAMES: u64 = 100_000_000;

/// Plays the games of `sim` and hands each to `each` in the order of their numbers, as soon as
/// it and every game before it are done (so a file written from `each` holds whole games, in
/// order, from the start of the run); `progress` is called with the games handed on so far.
///
/// The run stops early when `stop` is set (by a signal handler or a time limit, say) or `each`
/// returns false (a write that failed): the games under way are given up (their counts stop),
/// and the summary is that of the games handed to `each`, with [`Summary::complete`] false. A
/// stop while the uniform placer is still counting its empty board is [`Error::Stopped`].
pub fn simulate_each(
    sim: &Simulation,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
    each: &mut dyn FnMut(Played) -> bool,
) -> Result<Summary, Error> {
    if sim.games == 0 {
        return Err(Error::Request("there must be at least one game".into()));
    }
    if sim.games > MAX_GAMES {
        return Err(Error::Request(format!(
            "at most {MAX_GAMES} games in one run: play a longer table in parts (--first)"
        )));
    }
    // The layouts of the games skipped are drawn (see below): a bound on them bounds the
    // time before the first game.
    if sim.first > MAX_GAMES {
        return Err(Error::Request(format!(
            "the first game must be at most game {} (the layouts of the games before it are drawn to reach it)",
            MAX_GAMES + 1
        )));
    }
    super::cancelled_by(stop, |cancel| play_games(sim, progress, stop, each, cancel))
}

/// The games of [`simulate_each`], whose counts stop once `cancel` is raised.
fn play_games(
    sim: &Simulation,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
    each: &mut dyn FnMut(Played) -> bool,
    cancel: &Cancel,
) -> Result<Summary, Error> {
    let mut placer = placer_for(sim, cancel)?;
    let end = sim
        .first
        .checked_add(sim.games)
        .ok_or_else(|| Error::Request("the games are numbered past 2^64".into()))?;
    let mut place = |i: u64| {
        placer.place(&mut stream(sim.seed, i, 0)).ok_or_else(|| {
            Error::Request(format!(
                "the {} placer could not place the fleet (it is too tight for it)",
                sim.placer
            ))
        })
    };
    // Placers may keep state from one layout to the next, so the layouts before the first
    // game are drawn too (placing is cheap beside playing).
    for i in 0..sim.first {
        // A stop while skipping is heard (every 65,536 layouts): no game was played yet.
        if i % 65_536 == 0 && stop.load(Ordering::Relaxed) {
            return Ok(summarize(sim, &[], 0.0));
        }
        place(i)?;
    }
    // The time a game is that of the games played, not of the layouts drawn to skip.
    let start = Instant::now();
    let book = sim
        .book
        .clone()
        .unwrap_or_else(|| Book::for_run(&sim.setup));
    let mut shots = Vec::new();
    let mut refused = false;
    let mut from = sim.first;
    while from < end && !stop.load(Ordering::Relaxed) {
        let to = end.min(from + CHUNK);
        // Drawing a chunk's layouts can take long too (a sequential placer on a large board):
        // a stop is heard between layouts.
        let mut layouts = Vec::new();
        for i in from..to {
            if cancel.is_cancelled() {
                break;
            }
            layouts.push(place(i)?);
        }
        let (sender, received) = std::sync::mpsc::channel::<(u64, Played)>();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                super::on_game_threads(|| {
                    // Games start in the order of their numbers (a worker takes the next
                    // one when it is free), so the games finished are nearly all handed on:
                    // a chunk split in halves would leave the second half's games waiting
                    // for the first's, lost if the run is killed and missing from progress.
                    layouts.into_iter().enumerate().par_bridge().for_each_with(
                        sender,
                        |sender, (k, layout)| {
                            let i = from + k as u64;
                            if stop.load(Ordering::Relaxed) {
                                return;
                            }
                            // A game given up at a stop is not handed on.
                            let Some(played) = play_one(sim, &book, layout, i, cancel) else {
                                return;
                            };
                            let _ = sender.send((i, played));
                        },
                    )
                })
            });
            // Games arrive as they finish; each goes on once every game before it has (after
            // a stop, the games finished in order still do: they are work done).
            let mut waiting = std::collections::BTreeMap::new();
            let mut next = from;
            for (i, played) in received {
                waiting.insert(i, played);
                while !refused && let Some(p) = waiting.remove(&next) {
                    next += 1;
                    shots.push(p.shots);
                    progress(shots.len() as u64);
                    if !each(p) {
                        refused = true;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        from = to;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(summarize(sim, &shots, seconds))
}

/// The placer of the last run in this process that was not of a layout file, kept so that a
/// run in many parts (the chunks of a table on a cluster worker) counts its empty board once.
static LAST_PLACER: std::sync::Mutex<Option<Placer>> = std::sync::Mutex::new(None);

/// A new placer for `sim`: one made afresh, or a fresh copy of the last one when it was for
/// the same setup and kind (the same layouts either way).
fn placer_for(sim: &Simulation, cancel: &Cancel) -> Result<Placer, Error> {
    let cacheable = !matches!(sim.placer, PlacerKind::File(_));
    if cacheable {
        let last = LAST_PLACER.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = last.as_ref().filter(|p| p.is_for(&sim.placer, &sim.setup)) {
            return Ok(p.fresh());
        }
    }
    let empty = empty_board(&sim.setup)?;
    let placer = Placer::within(&sim.placer, &sim.setup, empty, None, Some(cancel.clone()));
    let placer = placer.map_err(|e| match e {
        Error::Sample(SampleError::Time) if cancel.is_cancelled() => Error::Stopped(format!(
            "the run was stopped before any game finished (the {} placer was still counting the empty board)",
            sim.placer
        )),
        Error::Sample(SampleError::NoLayout) => Error::Request(format!(
            "the fleet {} does not fit on a {} board under the {} rule",
            sim.setup.fleet.describe(),
            sim.setup.dims,
            sim.setup.rules
        )),
        e => e,
    })?;
    if cacheable {
        *LAST_PLACER.lock().unwrap_or_else(|e| e.into_inner()) = Some(placer.fresh());
    }
    Ok(placer)
}

/// Game `i` of `sim` played on `layout`; `None` if `cancel` is raised before it ends.
fn play_one(
    sim: &Simulation,
    book: &Arc<Book>,
    layout: crate::layout::Layout,
    i: u64,
    cancel: &Cancel,
) -> Option<Played> {
    let mut game = Game::new(sim.setup.clone(), layout);
    let shots = play_until(
        &mut game,
        sim.shooter,
        Some(book),
        &mut stream(sim.seed, i, 1),
        Some(cancel),
    )?;
    let mut record = game.record_with_layout();
    record.meta = crate::problem::Meta {
        name: Some(format!("game-{}", i + 1)),
        source: Some(sim.source()),
    };
    Some(Played { shots, record })
}

impl Simulation {
    /// What the records of the run's games say they come from.
    pub fn source(&self) -> String {
        format!(
            "broadside simulate: {} against the {} placer, seed {}",
            self.shooter, self.placer, self.seed
        )
    }

    /// How many of `records` (the lines of an earlier run's `--out` file, in order) are the
    /// run's first games, to go on from there: each must be game `first + i + 1` of this run
    /// (its name, its source, its board and rules), hide the layout this run's seed draws for
    /// it, and replay on it to the end ([`super::replays`]). An error names the first that is
    /// not.
    pub fn kept_games(&self, records: &[ProblemSpec]) -> Result<u64, Error> {
        self.same_run(records)?;
        if records.is_empty() {
            return Ok(0);
        }
        for (i, r) in records.iter().enumerate() {
            super::replays(r).map_err(|e| {
                Error::Request(format!(
                    "record {} (game-{}): {e}",
                    i + 1,
                    self.first + i as u64 + 1
                ))
            })?;
        }
        // The layouts this run draws, up to the last record's.
        let cancel = Cancel::new();
        let mut placer = placer_for(self, &cancel)?;
        let end = self.first + records.len() as u64;
        for i in 0..end {
            let layout = placer.place(&mut stream(self.seed, i, 0));
            if i < self.first {
                continue;
            }
            let r = &records[(i - self.first) as usize];
            if layout.as_ref() != r.solution.as_ref() {
                return Err(Error::Request(format!(
                    "record {} (game-{}) hides another layout than this run's seed draws for it: not a game of this run",
                    i - self.first + 1,
                    i + 1
                )));
            }
        }
        Ok(records.len() as u64)
    }

    /// That `records` are named and sourced as this run's games from `first` on.
    fn same_run(&self, records: &[ProblemSpec]) -> Result<(), Error> {
        for (i, r) in records.iter().enumerate() {
            let want = format!("game-{}", self.first + i as u64 + 1);
            let source = self.source();
            let same = r.meta.name.as_deref() == Some(want.as_str())
                && r.meta.source.as_deref() == Some(source.as_str())
                && r.solution.is_some()
                && Setup::of(r) == self.setup;
            if !same {
                return Err(Error::Request(format!(
                    "record {} is not {want} of this run ({source}, {} {} {}): resume a run with the arguments it was started with",
                    i + 1,
                    self.setup.dims,
                    self.setup.fleet.describe(),
                    self.setup.rules
                )));
            }
        }
        Ok(())
    }
}

fn summarize(sim: &Simulation, shots: &[usize], seconds: f64) -> Summary {
    let n = shots.len() as f64;
    let shots: Vec<f64> = shots.iter().map(|&s| s as f64).collect();
    let m = Moments::of(&shots);
    let hits = sim.setup.fleet.cell_count() as f64 * n;
    Summary {
        shooter: sim.shooter,
        placer: sim.placer.clone(),
        games: m.n,
        mean: m.mean,
        sd: m.sd,
        median: m.median,
        ci95: m.ci95,
        min: m.min as usize,
        max: m.max as usize,
        // No game played (a stop before the first): no ratio, no time a game.
        hit_ratio: if n > 0.0 {
            hits / shots.iter().sum::<f64>()
        } else {
            0.0
        },
        seconds_per_game: if n > 0.0 { seconds / n } else { 0.0 },
        complete: m.n == sim.games,
    }
}
