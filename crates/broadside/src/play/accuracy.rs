//! Naslausky & Figueiredo's evaluation (its Algorithm 2): how often the likeliest cells hold a ship, turn by
//! turn, for a heat map computed exactly or estimated from sampled boards.
//!
//! Each game hides a fleet (uniformly over the legal layouts) on a board: by default Naslausky & Figueiredo's
//! setting, an 8x8 map with randomly placed rocks and four ships of shapes drawn from a
//! catalogue of polyominoes; or a fixed board read from a game file. At every turn the heat map
//! ranks the open cells (ties in random order) and the top-1, top-3 and top-5 accuracies are the
//! shares of the first 1, 3 and 5 cells that hold a ship. Then, with the sonar's chance, a sonar
//! goes off at a random open cell (on a miss it reports the distance to the nearest ship cell),
//! else a shot is fired at the top cell. The exact map is the ceiling a sampled one is measured
//! against: at every position, no ranking of the cells has a higher expected accuracy.

use rand::Rng;
use rand::RngExt;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::game::{Game, Setup};
use crate::engine::{Cancel, CountOptions, Engine};
use crate::error::Error;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::heat::HeatMap;
use crate::observe::Sinking;
use crate::rng::stream;
use crate::rules::Rules;
use crate::sample::{ATTEMPTS_PER_BOARD, Sampler, SamplerKind, cell_counts};
use crate::shape::Shape;
use crate::stats::mean_sd;

/// How the heat map of each turn is obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimator {
    /// Exactly (every consistent layout counted).
    Exact,
    /// From `boards` layouts drawn by `sampler` (Naslausky & Figueiredo's method with the weighted sampler).
    Sampled {
        /// Boards drawn per turn.
        boards: u64,
        /// The sampler.
        sampler: SamplerKind,
    },
}

impl std::str::FromStr for Estimator {
    type Err = crate::choice::UnknownChoice;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            crate::choice::UnknownChoice::new(
                "estimator",
                s,
                "exact, sampled:N or sampled:N:SAMPLER (e.g. sampled:1000:weighted)",
            )
        };
        match s.trim() {
            "exact" => Ok(Estimator::Exact),
            word => {
                let rest = word.strip_prefix("sampled:").ok_or_else(bad)?;
                let (n, sampler) = match rest.split_once(':') {
                    Some((n, k)) => (n, k.parse().map_err(|_| bad())?),
                    None => (rest, SamplerKind::Uniform),
                };
                let boards = n.parse().ok().filter(|&b| b > 0).ok_or_else(bad)?;
                Ok(Estimator::Sampled { boards, sampler })
            }
        }
    }
}

impl std::fmt::Display for Estimator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Estimator::Exact => f.write_str("exact"),
            Estimator::Sampled { boards, sampler } => write!(f, "sampled:{boards}:{sampler}"),
        }
    }
}

impl Serialize for Estimator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The boards the games are played on.
#[derive(Clone, Debug)]
pub enum Boards {
    /// Naslausky & Figueiredo's setting: a `dims` board with `rocks` rocks at random, and `ships` ships whose
    /// shapes are drawn (with repetition) from [`catalogue`]; ships may touch.
    Random {
        /// The board.
        dims: Dims,
        /// Rocks per map.
        rocks: usize,
        /// Ships per fleet.
        ships: usize,
    },
    /// One board, rocks and fleet for every game.
    Fixed(Setup),
}

impl Boards {
    /// Naslausky & Figueiredo's setting: 8x8, 12 rocks (their maps leave "more than 50" cells open), 4 ships.
    pub fn naslausky() -> Boards {
        Boards::Random {
            dims: Dims::new(8, 8),
            rocks: 12,
            ships: 4,
        }
    }
}

/// The polyominoes Naslausky & Figueiredo's fleets are drawn from: straight ships of 2 to 5 cells, and the
/// L, T, S and square tetrominoes and the L tromino (the seed's figure 2 is not in its text;
/// these average 3.7 cells a ship, near the 15 cells it gives for four ships).
pub fn catalogue() -> Vec<(String, Shape)> {
    let art = [
        ("ell", "#./##"),
        ("ell4", "#./#./##"),
        ("tee", "###/.#."),
        ("ess", ".##/##."),
        ("square", "##/##"),
    ];
    let mut shapes: Vec<(String, Shape)> = (2..=5)
        .map(|l| (l.to_string(), Shape::straight(l)))
        .collect();
    for (name, a) in art {
        shapes.push((
            name.to_string(),
            Shape::parse_art(a).expect("the catalogue's shapes are valid"),
        ));
    }
    shapes
}

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Accuracy {
    /// The boards.
    pub boards: Boards,
    /// How many games.
    pub games: u64,
    /// Turns played per game (accuracies are measured before each, and after the last).
    pub turns: usize,
    /// The chance that a turn is a sonar at a random open cell rather than a shot at the top
    /// cell (Naslausky & Figueiredo: 0.2).
    pub sonar: f64,
    /// The heat map.
    pub estimator: Estimator,
    /// The seed: game `i`'s board, fleet and turns come from it and `i` alone, so a game
    /// plays the same on any number of threads and in a run cut short as in the whole run.
    pub seed: u64,
    /// Games measured before, by a run that was cut short: empty, or an entry per game, `Some`
    /// for those not to be played again. They count in the table as if measured now.
    pub kept: Vec<Option<GameAccuracy>>,
}

/// One game's measurements, turn by turn (before each turn, and after the last while ships
/// are left).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAccuracy {
    /// Per turn: how many of the 1, 3 and 5 likeliest open cells hold a ship.
    pub hits: Vec<[u8; 3]>,
    /// Per turn: the boards behind the map (layouts counted, or drawn).
    pub boards: Vec<f64>,
}

/// How many cells each accuracy looks at.
const TOP: [usize; 3] = [1, 3, 5];

/// The accuracies of one turn, over the games still going.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turn {
    /// Turns played before (0: the empty board).
    pub turn: usize,
    /// Games measured at this turn.
    pub games: u64,
    /// Mean top-1, top-3 and top-5 accuracy.
    pub top: [f64; 3],
    /// Their standard deviations over the games.
    pub sd: [f64; 3],
    /// Mean boards behind the map: layouts counted (exact) or drawn (sampled).
    pub boards: f64,
}

/// The evaluation's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccuracyTable {
    /// The heat map evaluated.
    pub estimator: Estimator,
    /// Games played: all those asked for when `complete`.
    pub games: u64,
    /// Whether every game asked for was played (a stopped evaluation measures the games it
    /// finished).
    pub complete: bool,
    /// The seed.
    pub seed: u64,
    /// Per turn.
    pub turns: Vec<Turn>,
}

/// Runs the evaluation (but for the games it has [`Accuracy::kept`]) on every core. Once
/// `stop` is raised no game starts, the games under way are given up (their counts stop), and
/// the table is of the games finished (`complete` false); stopped before any, it is an error.
/// `measured(i, game, done)` is called as each game `i` (from 0) is measured, in the order
/// they finish, with the number done so far (the kept ones too): where a caller keeps them as
/// they come.
pub fn accuracy(
    run: &Accuracy,
    stop: &std::sync::atomic::AtomicBool,
    measured: &(dyn Fn(u64, &GameAccuracy, u64) + Sync),
) -> Result<AccuracyTable, Error> {
    if run.games == 0 {
        return Err(Error::Request("there must be at least one game".into()));
    }
    if !(0.0..=1.0).contains(&run.sonar) {
        return Err(Error::Request(
            "the sonar's chance must be from 0 to 1".into(),
        ));
    }
    if !run.kept.is_empty() && run.kept.len() as u64 != run.games {
        return Err(Error::Request(format!(
            "{} games asked for, but {} kept: an entry per game",
            run.games,
            run.kept.len()
        )));
    }
    let kept = |i: u64| run.kept.get(i as usize).and_then(Option::as_ref);
    let done = std::sync::atomic::AtomicU64::new(run.kept.iter().flatten().count() as u64);
    let games: Vec<Option<GameAccuracy>> = super::cancelled_by(stop, |cancel| {
        super::on_game_threads(|| {
            (0..run.games)
                .into_par_iter()
                .map(|i| {
                    if let Some(game) = kept(i) {
                        return Ok(Some(game.clone()));
                    }
                    if cancel.is_cancelled() {
                        return Ok(None);
                    }
                    let mut rng = stream(run.seed, i, 0);
                    let Some(game) = hide(&run.boards, &mut rng, cancel)? else {
                        return Ok(None);
                    };
                    let m = measure(run, game, &mut stream(run.seed, i, 1), cancel)?;
                    if let Some(game) = &m {
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        measured(i, game, n);
                    }
                    Ok(m)
                })
                .collect::<Result<_, Error>>()
        })
    })?;
    let games: Vec<GameAccuracy> = games.into_iter().flatten().collect();
    if games.is_empty() {
        return Err(Error::Stopped(
            "the evaluation was stopped before a game finished".into(),
        ));
    }
    // Games end: no turn past the longest game is measured.
    let longest = games.iter().map(|g| g.hits.len()).max().unwrap_or(0);
    let turns = (0..longest)
        .filter_map(|t| {
            let at: Vec<(&[u8; 3], f64)> = games
                .iter()
                .filter_map(|g| Some((g.hits.get(t)?, *g.boards.get(t)?)))
                .collect();
            let n = at.len() as f64;
            if at.is_empty() {
                return None;
            }
            let moments: [(f64, f64); 3] = std::array::from_fn(|k| {
                let shares: Vec<f64> = at
                    .iter()
                    .map(|x| f64::from(x.0[k]) / TOP[k] as f64)
                    .collect();
                mean_sd(&shares)
            });
            Some(Turn {
                turn: t,
                games: at.len() as u64,
                top: moments.map(|m| m.0),
                sd: moments.map(|m| m.1),
                boards: at.iter().map(|x| x.1).sum::<f64>() / n,
            })
        })
        .collect();
    Ok(AccuracyTable {
        estimator: run.estimator,
        games: games.len() as u64,
        complete: games.len() as u64 == run.games,
        seed: run.seed,
        turns,
    })
}

/// A game on a board of `boards`, its fleet hidden uniformly; `None` if `cancel` is raised
/// while the uniform sampler counts.
fn hide(boards: &Boards, rng: &mut dyn Rng, cancel: &Cancel) -> Result<Option<Game>, Error> {
    /// No layout fits, or the count was cancelled.
    enum Drawn {
        Game(Box<Game>),
        None,
        Cancelled,
    }
    let draw = |setup: Setup, rng: &mut dyn Rng| -> Result<Drawn, Error> {
        let empty = setup.empty().build()?;
        let sampler =
            Sampler::within_or_cancelled(empty, SamplerKind::Uniform, None, Some(cancel.clone()));
        Ok(match sampler {
            Ok(mut s) => s
                .sample(rng)
                .map_or(Drawn::None, |l| Drawn::Game(Box::new(Game::new(setup, l)))),
            Err(crate::sample::SampleError::NoLayout) => Drawn::None,
            Err(crate::sample::SampleError::Time) if cancel.is_cancelled() => Drawn::Cancelled,
            Err(e) => return Err(e.into()),
        })
    };
    match boards {
        Boards::Fixed(setup) => match draw(setup.clone(), rng)? {
            Drawn::Game(game) => Ok(Some(*game)),
            Drawn::Cancelled => Ok(None),
            Drawn::None => Err(Error::Request(
                "the fleet does not fit on the board with its rocks".into(),
            )),
        },
        &Boards::Random { dims, rocks, ships } => {
            let shapes = catalogue();
            for _ in 0..100 {
                let mut cells: Vec<usize> = (0..dims.cells()).collect();
                super::shooter::shuffle(&mut cells, rng);
                cells.truncate(rocks.min(dims.cells()));
                cells.sort_unstable();
                let fleet = Fleet::new((0..ships).map(|_| {
                    let (name, shape) = &shapes[rng.random_range(0..shapes.len())];
                    (shape.clone(), 1, name.clone())
                }));
                let setup = Setup {
                    dims,
                    fleet,
                    rules: Rules::Touch,
                    sinking: Sinking::Announced,
                    rocks: cells,
                };
                match draw(setup, rng)? {
                    Drawn::Game(game) => return Ok(Some(*game)),
                    Drawn::Cancelled => return Ok(None),
                    Drawn::None => {}
                }
            }
            Err(Error::Request(format!(
                "{ships} ships do not fit among {rocks} rocks on a {dims} board"
            )))
        }
    }
}

/// Plays one game's turns, measuring before each and after the last (while ships are left);
/// `None` if `cancel` is raised before the game ends.
fn measure(
    run: &Accuracy,
    mut game: Game,
    rng: &mut dyn Rng,
    cancel: &Cancel,
) -> Result<Option<GameAccuracy>, Error> {
    let mut out = GameAccuracy {
        hits: Vec::new(),
        boards: Vec::new(),
    };
    let setup = game.setup().clone();
    for turn in 0..=run.turns {
        if game.is_over() {
            break;
        }
        if cancel.is_cancelled() {
            return Ok(None);
        }
        let problem = game.record().build()?;
        let (scores, boards): (Vec<f64>, f64) = match run.estimator {
            Estimator::Exact => {
                let opts = CountOptions {
                    per_cell: true,
                    parallel: true,
                    cancel: Some(cancel.clone()),
                    ..CountOptions::default()
                };
                let h = HeatMap::compute_with(&problem, Engine::Auto, &opts)?;
                if !h.complete {
                    return Ok(None);
                }
                (
                    h.per_cell.iter().map(|&k| k as f64).collect(),
                    h.layouts as f64,
                )
            }
            Estimator::Sampled { boards, sampler } => {
                let (counts, drawn) = match Sampler::within_or_cancelled(
                    problem.clone(),
                    sampler,
                    None,
                    Some(cancel.clone()),
                ) {
                    Ok(mut s) => cell_counts(&mut s, boards, ATTEMPTS_PER_BOARD, rng),
                    Err(_) => (vec![0; setup.dims.cells()], 0),
                };
                (counts.iter().map(|&k| k as f64).collect(), drawn as f64)
            }
        };
        let mut open: Vec<usize> = (0..setup.dims.cells())
            .filter(|&c| !game.fired(c) && !setup.rocks.contains(&c))
            .collect();
        super::shooter::shuffle(&mut open, rng);
        open.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let ships: Vec<bool> = {
            let mut v = vec![false; setup.dims.cells()];
            for c in game.layout().cells() {
                v[c] = true;
            }
            v
        };
        // At most 5 cells: the count fits a byte.
        let hits = |i: usize| open.iter().take(i).filter(|&&c| ships[c]).count() as u8;
        out.hits.push(TOP.map(hits));
        out.boards.push(boards);
        if turn == run.turns {
            break;
        }
        if rng.random_bool(run.sonar) {
            let cell = open[rng.random_range(0..open.len())];
            game.sonar(cell);
        } else {
            game.fire(open[0]);
        }
    }
    Ok(Some(out))
}
