//! `summarize`: the games of a simulation, read back from the game records `simulate --out`
//! writes (a run played in parts summed as one), and two shooters compared game by game on the
//! same hidden layouts.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::Error;
use crate::layout::Layout;
use crate::problem::ProblemSpec;
use crate::stats::{Moments, Paired};

/// The shots a run's games took, as `simulate --json` summarises a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamesSummary {
    /// Games read.
    pub games: u64,
    /// Mean shots per game.
    pub mean: f64,
    /// The 95% interval of the mean (normal approximation).
    pub ci95: [f64; 2],
    /// The standard deviation of the shots.
    pub sd: f64,
    /// Their median.
    pub median: f64,
    /// The fewest shots.
    pub min: usize,
    /// The most shots.
    pub max: usize,
    /// Hits over shots, all games together.
    pub hit_ratio: f64,
}

/// A run compared with a baseline run on the games both hold (the same seed hides the same
/// layout in game `i` of both): the run's shots minus the baseline's, game by game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedSummary {
    /// Games in both runs.
    pub games: u64,
    /// Mean shots of the run on those games.
    pub mean: f64,
    /// Mean shots of the baseline on those games.
    pub baseline_mean: f64,
    /// The mean of the run's shots minus the baseline's, game by game.
    pub difference: f64,
    /// Its 95% interval (normal approximation): one that excludes 0 is a difference
    /// significant at the 5% level.
    pub ci95: [f64; 2],
    /// The standard deviation of the differences.
    pub sd: f64,
    /// Games where the run needed fewer shots than the baseline.
    pub fewer: u64,
    /// Games where it needed more.
    pub more: u64,
    /// Games where both needed the same.
    pub equal: u64,
}

/// A finished game: its shots and hidden layout.
struct Finished<'a> {
    shots: usize,
    layout: &'a Layout,
}

/// The games of a run by name, each once; an error for a record that is not a finished game
/// of a simulation (no name or no hidden layout) or a name met twice (a game in two parts).
fn by_name(records: &[ProblemSpec]) -> Result<BTreeMap<&str, Finished<'_>>, Error> {
    let mut games = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let name = r.meta.name.as_deref().ok_or_else(|| {
            Error::Request(format!(
                "record {} has no name: not a game that simulate --out wrote",
                i + 1
            ))
        })?;
        let layout = r.solution.as_ref().ok_or_else(|| {
            Error::Request(format!(
                "{name} has no hidden layout (solution): not a game that simulate --out wrote"
            ))
        })?;
        let game = Finished {
            shots: r.observations.shots.len(),
            layout,
        };
        if games.insert(name, game).is_some() {
            return Err(Error::Request(format!(
                "{name} is there twice: are two parts of the run the same part?"
            )));
        }
    }
    if games.is_empty() {
        return Err(Error::Request("no game to summarise".into()));
    }
    Ok(games)
}

/// The summary of the games in `records` (the parts of one run, together), as `simulate`
/// prints it for a whole run.
pub fn summarize(records: &[ProblemSpec]) -> Result<GamesSummary, Error> {
    let games = by_name(records)?;
    let shots: Vec<f64> = games.values().map(|g| g.shots as f64).collect();
    let hits: usize = games.values().map(|g| g.layout.cells().count()).sum();
    let m = Moments::of(&shots);
    Ok(GamesSummary {
        games: m.n,
        mean: m.mean,
        ci95: m.ci95,
        sd: m.sd,
        median: m.median,
        min: m.min as usize,
        max: m.max as usize,
        hit_ratio: hits as f64 / shots.iter().sum::<f64>(),
    })
}

/// The games of `run` against those of `baseline`, on the games both hold; an error when a game
/// hides different layouts in the two (the runs are not paired: another seed, size or fleet)
/// or none is in both.
pub fn compare(run: &[ProblemSpec], baseline: &[ProblemSpec]) -> Result<PairedSummary, Error> {
    let (a, b) = (by_name(baseline)?, by_name(run)?);
    let mut pairs = (Vec::new(), Vec::new());
    for (name, ga) in &a {
        let Some(gb) = b.get(name) else { continue };
        if ga.layout != gb.layout {
            return Err(Error::Request(format!(
                "{name} hides different layouts: the runs are not paired (the same seed and game?)"
            )));
        }
        pairs.0.push(ga.shots as f64);
        pairs.1.push(gb.shots as f64);
    }
    if pairs.0.is_empty() {
        return Err(Error::Request("no game is in both runs".into()));
    }
    let d = Paired::of(&pairs.0, &pairs.1);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    Ok(PairedSummary {
        games: d.n,
        mean: mean(&pairs.1),
        baseline_mean: mean(&pairs.0),
        difference: d.mean,
        ci95: d.ci95,
        sd: d.sd,
        fewer: d.fewer,
        more: d.more,
        equal: d.equal,
    })
}
