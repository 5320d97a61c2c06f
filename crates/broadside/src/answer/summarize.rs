//! `summarize`: the games of a simulation, read back from the game records `simulate --out`
//! writes or from the compact [`ShotsFile`]s `simulate --shots` writes (a run played in parts
//! summed as one), and two shooters compared game by game on the same hidden layouts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::layout::Layout;
use crate::play::{PlacerKind, ShooterKind};
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
    /// Hits over shots, all games together (not known from a [`ShotsFile`], which keeps
    /// only the shots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_ratio: Option<f64>,
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
/// of a simulation (no name, or a game that does not replay on its hidden layout:
/// [`crate::play::replays`]) or a name met twice (a game in two parts), and when there is no
/// game at all.
fn by_name(records: &[ProblemSpec]) -> Result<BTreeMap<&str, Finished<'_>>, Error> {
    let mut games = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let name = r.meta.name.as_deref().ok_or_else(|| {
            Error::Request(format!(
                "record {} has no name: not a game that simulate --out wrote",
                i + 1
            ))
        })?;
        crate::play::replays(r).map_err(|e| Error::Request(format!("{name}: {e}")))?;
        let layout = r
            .solution
            .as_ref()
            .expect("a game that replays has its layout");
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
    Ok(GamesSummary::of(
        &shots,
        Some(hits as f64 / shots.iter().sum::<f64>()),
    ))
}

impl GamesSummary {
    /// The summary of games that took `shots` shots each.
    fn of(shots: &[f64], hit_ratio: Option<f64>) -> GamesSummary {
        let m = Moments::of(shots);
        GamesSummary {
            games: m.n,
            mean: m.mean,
            ci95: m.ci95,
            sd: m.sd,
            median: m.median,
            min: m.min as usize,
            max: m.max as usize,
            hit_ratio,
        }
    }
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
    Ok(paired(&pairs.0, &pairs.1))
}

/// The paired summary of `run` against `baseline`, game for game.
fn paired(baseline: &[f64], run: &[f64]) -> PairedSummary {
    let pairs = (baseline, run);
    let d = Paired::of(pairs.0, pairs.1);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    PairedSummary {
        games: d.n,
        mean: mean(pairs.1),
        baseline_mean: mean(pairs.0),
        difference: d.mean,
        ci95: d.ci95,
        sd: d.sd,
        fewer: d.fewer,
        more: d.more,
        equal: d.equal,
    }
}

/// The shots of a run's games and the command that plays them again: the compact record of a
/// table row (`docs/results/`), a few bytes a game. `broadside` run with `argv`, then
/// `--first K --games 1`, plays game `K + 1` again and takes `shots[K - first]` shots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotsFile {
    /// The `broadside` arguments that play the run, without `--games`, `--first` and the
    /// output options (e.g. `["simulate", "--shooter", "density:50", "--seed", "1"]`).
    pub argv: Vec<String>,
    /// The run's seed (also in `argv`).
    pub seed: u64,
    /// Games before the first one here (0 for a run from its start).
    pub first: u64,
    /// How many games, in order from game `first + 1`.
    pub games: u64,
    /// The shots each game took.
    pub shots: Vec<u32>,
}

impl ShotsFile {
    /// Reads one from JSON, checked: as many shots as games. `name` is the file's, for
    /// messages.
    pub fn parse(name: &str, text: &str) -> Result<ShotsFile, Error> {
        let f: ShotsFile = serde_json::from_str(text).map_err(|e| {
            Error::Request(format!(
                "{name}:{}:{}: not a shots file: {e}",
                e.line(),
                e.column()
            ))
        })?;
        if f.shots.len() as u64 != f.games {
            return Err(Error::Request(format!(
                "{name}: {} games but {} shot counts",
                f.games,
                f.shots.len()
            )));
        }
        if f.first.checked_add(f.games).is_none() {
            return Err(Error::Request(format!("{name}: first + games overflows")));
        }
        Ok(f)
    }

    /// Whether `other` plays the same games: the same seed and arguments, the shooter's and
    /// placer's words compared as what they name (`pilot:3200.8` is
    /// `pilot:layouts=3200,candidates=8`), so the parts of a run written before and after the
    /// named forms belong together.
    pub fn same_run(&self, other: &ShotsFile) -> bool {
        self.seed == other.seed && written(&self.argv) == written(&other.argv)
    }

    /// The parts of one run (the same `argv` and seed) as one run: they must meet end to end
    /// once sorted, no game in two parts and none missing between them.
    pub fn merge(mut parts: Vec<ShotsFile>) -> Result<ShotsFile, Error> {
        parts.sort_by_key(|p| p.first);
        let mut parts = parts.into_iter();
        let mut all = parts
            .next()
            .ok_or_else(|| Error::Request("no game to summarise".into()))?;
        for p in parts {
            if !p.same_run(&all) {
                return Err(Error::Request(format!(
                    "the parts are of different runs: `{}` and `{}`",
                    all.argv.join(" "),
                    p.argv.join(" ")
                )));
            }
            let end = all.first + all.games;
            if p.first != end {
                return Err(Error::Request(format!(
                    "the parts do not meet: games {}-{} then {}-{} ({})",
                    all.first + 1,
                    end,
                    p.first + 1,
                    p.first + p.games,
                    if p.first < end {
                        "a game in two parts"
                    } else {
                        "games missing between them"
                    }
                )));
            }
            all.games += p.games;
            all.shots.extend(p.shots);
        }
        Ok(all)
    }

    /// The summary of the run's shots, as `simulate` prints it (without the hit ratio).
    pub fn summary(&self) -> GamesSummary {
        let shots: Vec<f64> = self.shots.iter().map(|&s| f64::from(s)).collect();
        GamesSummary::of(&shots, None)
    }

    /// The run against `baseline` on the games both hold. They must be runs on the same
    /// boards: the same arguments but for the shooter (and its sampler), so game `i` of both
    /// hides the same layout.
    pub fn compare(&self, baseline: &ShotsFile) -> Result<PairedSummary, Error> {
        let boards = |f: &ShotsFile| -> Vec<String> {
            let mut out = Vec::new();
            let argv = written(&f.argv);
            let mut words = argv.iter();
            while let Some(w) = words.next() {
                if w == "--shooter" || w == "--sampler" {
                    words.next();
                } else if !w.starts_with("--shooter=") && !w.starts_with("--sampler=") {
                    out.push(w.clone());
                }
            }
            out
        };
        if boards(self) != boards(baseline) {
            return Err(Error::Request(format!(
                "the runs are not on the same boards: `{}` and `{}` differ in more than the shooter",
                self.argv.join(" "),
                baseline.argv.join(" ")
            )));
        }
        let from = self.first.max(baseline.first);
        let to = (self.first + self.games).min(baseline.first + baseline.games);
        if from >= to {
            return Err(Error::Request("no game is in both runs".into()));
        }
        let part = |f: &ShotsFile| -> Vec<f64> {
            f.shots[(from - f.first) as usize..(to - f.first) as usize]
                .iter()
                .map(|&s| f64::from(s))
                .collect()
        };
        Ok(paired(&part(baseline), &part(self)))
    }
}

/// `argv` with the words of `--shooter` and `--placer` as the vocabulary writes them (those
/// it cannot read as they are).
fn written(argv: &[String]) -> Vec<String> {
    fn rewrite<T: std::str::FromStr + std::fmt::Display>(word: &str) -> String {
        word.parse::<T>()
            .map_or_else(|_| word.to_string(), |k| k.to_string())
    }
    let mut out = Vec::with_capacity(argv.len());
    let mut words = argv.iter();
    while let Some(w) = words.next() {
        out.push(if let Some(x) = w.strip_prefix("--shooter=") {
            format!("--shooter={}", rewrite::<ShooterKind>(x))
        } else if let Some(x) = w.strip_prefix("--placer=") {
            format!("--placer={}", rewrite::<PlacerKind>(x))
        } else {
            w.clone()
        });
        let next = match w.as_str() {
            "--shooter" => words.next().map(|x| rewrite::<ShooterKind>(x)),
            "--placer" => words.next().map(|x| rewrite::<PlacerKind>(x)),
            _ => None,
        };
        out.extend(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ShotsFile;

    fn part(shooter: &str, first: u64, shots: &[u32]) -> ShotsFile {
        ShotsFile {
            argv: ["simulate", "--shooter", shooter, "--seed", "1"]
                .map(String::from)
                .to_vec(),
            seed: 1,
            first,
            games: shots.len() as u64,
            shots: shots.to_vec(),
        }
    }

    #[test]
    fn parts_meet_end_to_end_and_pair_by_game() {
        let whole = ShotsFile::merge(vec![part("a", 2, &[5, 6]), part("a", 0, &[3, 4])]).unwrap();
        assert_eq!(whole.shots, [3, 4, 5, 6]);
        assert_eq!((whole.first, whole.games), (0, 4));
        let e = ShotsFile::merge(vec![part("a", 0, &[3, 4]), part("a", 1, &[5])]).unwrap_err();
        assert!(e.to_string().contains("a game in two parts"), "{e}");
        let e = ShotsFile::merge(vec![part("a", 0, &[3]), part("a", 2, &[5])]).unwrap_err();
        assert!(e.to_string().contains("games missing"), "{e}");
        let e = ShotsFile::merge(vec![part("a", 0, &[3]), part("b", 1, &[5])]).unwrap_err();
        assert!(e.to_string().contains("different runs"), "{e}");
        // Paired on the games both hold (2 to 4), game by game.
        let d = part("b", 1, &[7, 5, 9]).compare(&whole).unwrap();
        assert_eq!(d.games, 3);
        assert!((d.difference - (7.0 - 4.0 + 5.0 - 5.0 + 9.0 - 6.0) / 3.0).abs() < 1e-12);
        let mut other = part("b", 0, &[1]);
        other.argv.push("--rules".into());
        other.argv.push("no-touch".into());
        let e = other.compare(&whole).unwrap_err();
        assert!(e.to_string().contains("not on the same boards"), "{e}");
        let e = ShotsFile::parse(
            "x.json",
            "{\"argv\": [], \"seed\": 1, \"first\": 0, \"games\": 2, \"shots\": [1]}",
        )
        .unwrap_err();
        assert!(e.to_string().contains("x.json: 2 games but 1"), "{e}");
        let e = ShotsFile::parse("x.json", "{\"argv\": [],\n \"seed\": -1}").unwrap_err();
        assert!(e.to_string().starts_with("x.json:2:"), "{e}");
    }

    /// A run's parts written with the older and the named forms of its shooter are one run.
    #[test]
    fn parts_of_one_run_in_either_form_merge() {
        let old = part("pilot:3200.8", 0, &[40, 41]);
        let named = part("pilot:layouts=3200,candidates=8", 2, &[42]);
        assert!(old.same_run(&named));
        let all = ShotsFile::merge(vec![named, old]).unwrap();
        assert_eq!(all.shots, [40, 41, 42]);
        assert!(!part("pilot:1600.8", 0, &[1]).same_run(&part("pilot:3200.8", 0, &[1])));
    }
}
