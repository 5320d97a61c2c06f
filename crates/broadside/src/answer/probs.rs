//! `probs` and `best`: the exact chance of a ship on each cell, and where to fire next
//! (`probs_in` and `best_in` with a book of the game's positions).

use num_bigint::BigUint;
use serde::Serialize;

use super::{Options, rows};
use crate::diagnose::{NoLayout, no_layout};
use crate::engine::{CountInt, CountOptions, Engine, EngineKind};
use crate::error::Error;
use crate::geom::Dims;
use crate::heat::HeatMap;
use crate::observe::{Shot, ShotResult};
use crate::play::{Book, Setup};
use crate::problem::Problem;

/// What [`probs`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ProbsReport {
    /// The heat map.
    Map(HeatReport),
    /// No layout fits, and what can be said of why.
    NoLayout(NoLayout),
    /// The time limit ran out before any per-cell count.
    NoMap(NoMap),
}

/// No map: the count was cut short before it had any per-cell count (the DP counts every
/// layout at its last cell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoMap {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always false.
    pub complete: bool,
    /// What happened, in words.
    pub reason: String,
}

/// A heat map: exact per-cell layout counts and the probabilities they give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatReport {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Consistent layouts (a lower bound when not `complete`); JSON writes it as an exact
    /// integer of any size.
    #[serde(serialize_with = "super::exact")]
    pub layouts: BigUint,
    /// Per row, per cell: the layouts with a ship there.
    #[serde(serialize_with = "super::exact_grid")]
    pub counts: Vec<Vec<BigUint>>,
    /// Per row, per cell: the probability of a ship there.
    pub probabilities: Vec<Vec<f64>>,
    /// The engine that counted.
    pub engine: EngineKind,
    /// Whether every layout was counted; a partial map holds lower bounds and its
    /// probabilities are not exact.
    pub complete: bool,
    /// The map itself, for drawing.
    #[serde(skip)]
    pub map: HeatMap<BigUint>,
}

/// What [`best`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BestReport {
    /// The cells to fire at.
    Best(Best),
    /// No layout fits, and what can be said of why.
    NoLayout(NoLayout),
    /// The time limit ran out before any per-cell count.
    NoMap(NoMap),
}

/// The open cells most likely to hold a ship.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Best {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Consistent layouts (a lower bound when not `complete`).
    #[serde(serialize_with = "super::exact")]
    pub layouts: BigUint,
    /// Their probability; `None` when the count is partial (the maximum of a half-searched
    /// space means nothing).
    pub probability: Option<f64>,
    /// The cells of highest probability, tied; empty when no open cell can hold a ship or the
    /// count is partial.
    pub cells: Vec<BestCell>,
    /// The engine that counted.
    pub engine: EngineKind,
    /// Whether every layout was counted.
    pub complete: bool,
}

/// One best cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BestCell {
    /// Its name, e.g. `E5`.
    pub cell: String,
    /// Its row (0-based).
    pub row: usize,
    /// Its column (0-based).
    pub col: usize,
    /// The layouts with a ship there.
    #[serde(serialize_with = "super::exact")]
    pub count: BigUint,
}

impl ProbsReport {
    /// Whether the answer is a yes: a map, complete or partial.
    pub fn answered(&self) -> bool {
        matches!(self, ProbsReport::Map(_))
    }

    /// Whether the answer is exact (a complete map, or no layout), not cut short by a limit.
    pub fn exact(&self) -> bool {
        match self {
            ProbsReport::Map(h) => h.complete,
            ProbsReport::NoLayout(_) => true,
            ProbsReport::NoMap(_) => false,
        }
    }
}

impl BestReport {
    /// Whether the answer is a yes: a complete count named the best cells.
    pub fn answered(&self) -> bool {
        matches!(self, BestReport::Best(b) if b.complete)
    }

    /// Whether the answer is exact (a complete count, or no layout), not cut short by a limit.
    pub fn exact(&self) -> bool {
        match self {
            BestReport::Best(b) => b.complete,
            BestReport::NoLayout(_) => true,
            BestReport::NoMap(_) => false,
        }
    }
}

/// The heat map of `problem` by `options`' engine (per-cell counts are always asked for; the
/// count options give the limits). A count cut short gives a partial map, not "no layout".
pub fn probs(problem: &Problem, options: &Options) -> Result<ProbsReport, Error> {
    probs_by(problem, options.engine, &options.count)
}

/// [`probs`] by `engine` within `opts`.
fn probs_by(problem: &Problem, engine: Engine, opts: &CountOptions) -> Result<ProbsReport, Error> {
    if !problem.conflicts().is_empty() {
        return Ok(ProbsReport::NoLayout(no_layout(problem)));
    }
    let start = std::time::Instant::now();
    // Counted from the empty board, a position is exact or nothing: under a time limit that
    // count has half of it, and a fresh count, whose partial counts are lower bounds, the rest.
    let map = match (engine == Engine::Auto)
        .then(|| past_misses(problem, &halved(opts)))
        .flatten()
    {
        Some(map) => wide(map),
        None => {
            let opts = CountOptions {
                time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
                ..opts.clone()
            };
            HeatMap::<BigUint>::compute_in(problem, engine, &opts)?
        }
    };
    if map.layouts.is_zero() && map.complete {
        return Ok(ProbsReport::NoLayout(no_layout(problem)));
    }
    if map.per_cell.is_empty() {
        return Ok(ProbsReport::NoMap(NoMap {
            name: problem.spec().meta.name.clone(),
            complete: false,
            reason: format!(
                "the time limit ran out before the {} engine had any per-cell count",
                map.engine.map_or("chosen".to_string(), |e| e.to_string())
            ),
        }));
    }
    Ok(ProbsReport::Map(report(problem, map)))
}

/// The most misses a position with no hit may have for [`probs`] to count it from the empty
/// board, one miss at a time: on the standard game (whole process, five hand clicks of each
/// kind under each rule, 2026-11-28) one miss takes 18-25 ms that way against 47-54 ms
/// afresh, two 29-39 against 43-48, while three take 31-48 against 36-42 afresh: each miss
/// costs a count with a ship required on it, and a fresh count gets quicker with every miss
/// (docs/PERFORMANCE.md).
pub const PAST_MISSES: usize = 2;

/// The heat map of `problem` when it is a position of a game without rocks whose shots all
/// missed, at most [`PAST_MISSES`] of them, and no symmetry of the board but the identity
/// keeps them all: counted from the empty board, whose orbits make its count quick, then one
/// miss at a time ([`Book::past_misses`]), each a count of the position before it with a
/// ship required on the missed cell, which is quick.
fn past_misses(problem: &Problem, opts: &CountOptions) -> Option<HeatMap> {
    let setup = Setup::of(problem.given());
    if !setup.rocks.is_empty() {
        return None;
    }
    let shots = shots_in(problem, &setup)?;
    if shots.is_empty()
        || shots.len() > PAST_MISSES
        || shots.iter().any(|s| s.result != ShotResult::Miss)
    {
        return None;
    }
    // Misses that a symmetry of the board keeps (on a diagonal, say) leave the position
    // orbits of its own: counted afresh it is the sooner.
    let misses: Vec<usize> = shots.iter().map(|s| s.cell).collect();
    if setup.dims.symmetries_keeping(&misses).len() > 1 {
        return None;
    }
    Book::for_one(&setup).past_misses(problem, &shots, shots.len(), opts)
}

/// The shots of `problem` when it is a position of `setup`'s game (its board, fleet, rules,
/// sinking reports and rocks, with shots) that they do not contradict.
fn shots_in(problem: &Problem, setup: &Setup) -> Option<Vec<Shot>> {
    let mut game = problem.given().clone();
    let shots = std::mem::take(&mut game.observations.shots);
    let empty = setup.empty();
    game.meta = empty.meta.clone();
    (game == empty && problem.conflicts().is_empty()).then_some(shots)
}

/// `opts` with half its time limit: for a count that is exact or nothing, ahead of a fresh
/// count whose partial counts are lower bounds.
fn halved(opts: &CountOptions) -> CountOptions {
    CountOptions {
        time_limit: opts.time_limit.map(|t| t / 2),
        ..opts.clone()
    }
}

/// A map in integers of any size.
fn wide(map: HeatMap) -> HeatMap<BigUint> {
    HeatMap {
        layouts: BigUint::from(map.layouts),
        per_cell: map.per_cell.into_iter().map(BigUint::from).collect(),
        width: map.width,
        open: map.open,
        marks: map.marks,
        engine: map.engine,
        complete: map.complete,
    }
}

/// [`probs`] of a position of `book`'s game, from the book when it holds the position (or
/// one of its mirror images, or counted it last) or the position before its last shot, a
/// miss, and `engine` is `auto`, else counted as [`probs`] counts it and
/// kept in the book when the count was exact and took a while ([`Book::keep`]): what a
/// program that asks about position after position of one game wants (a Gym environment,
/// the web server). A problem that is not a position of the book's game (its board, fleet,
/// rules, sinking reports and rocks, with shots) is counted and not kept.
pub fn probs_in(problem: &Problem, book: &Book, options: &Options) -> Result<ProbsReport, Error> {
    let (engine, opts) = (options.engine, &options.count);
    let Some(shots) = shots_in(problem, book.setup()) else {
        return probs_by(problem, engine, opts);
    };
    // An engine named is asked to count (a check of the others, say); `auto` takes any,
    // and counts a position one miss past one known from it ([`Book::after_miss`]): exact or
    // nothing, so with half of a time limit, as `probs` counts from the empty board.
    let start = std::time::Instant::now();
    let kept = (engine == Engine::Auto)
        .then(|| {
            book.lookup(problem, &shots)
                .or_else(|| book.after_miss(problem, &shots, &halved(opts)))
        })
        .flatten();
    if let Some(map) = kept {
        return Ok(ProbsReport::Map(report(problem, wide(map))));
    }
    // A count from the position before that did not finish took some of the time.
    let opts = CountOptions {
        time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
        ..book.counting(engine, opts)
    };
    let answer = probs_by(problem, engine, &opts)?;
    if let ProbsReport::Map(h) = &answer
        && h.complete
        && let Ok(layouts) = u128::try_from(&h.layouts)
        && let Ok(per_cell) = h
            .map
            .per_cell
            .iter()
            .map(u128::try_from)
            .collect::<Result<Vec<_>, _>>()
    {
        book.keep(&shots, layouts, &per_cell, h.map.engine, start.elapsed());
    }
    Ok(answer)
}

/// The report of `problem`'s `map`, which has per-cell counts.
fn report(problem: &Problem, map: HeatMap<BigUint>) -> HeatReport {
    let width = problem.dims().width;
    HeatReport {
        name: problem.spec().meta.name.clone(),
        layouts: map.layouts.clone(),
        counts: rows(width, map.per_cell.iter().cloned()),
        probabilities: rows(width, (0..map.per_cell.len()).map(|c| map.probability(c))),
        engine: map.engine.unwrap_or(EngineKind::Enum),
        complete: map.complete,
        map,
    }
}

/// The open cells of `problem` most likely to hold a ship; see [`probs`].
pub fn best(problem: &Problem, options: &Options) -> Result<BestReport, Error> {
    Ok(best_of(problem, probs(problem, options)?))
}

/// [`best`] from [`probs_in`]: a position of `book`'s game looked up there or kept.
pub fn best_in(problem: &Problem, book: &Book, options: &Options) -> Result<BestReport, Error> {
    Ok(best_of(problem, probs_in(problem, book, options)?))
}

/// The best cells of a report of `problem`'s map.
fn best_of(problem: &Problem, report: ProbsReport) -> BestReport {
    match report {
        ProbsReport::Map(h) => BestReport::Best(h.best(problem.dims())),
        ProbsReport::NoLayout(no) => BestReport::NoLayout(no),
        ProbsReport::NoMap(no) => BestReport::NoMap(no),
    }
}

impl HeatReport {
    /// The open cells most likely to hold a ship on this map of a board of `dims`; none when
    /// the map is partial.
    pub fn best(&self, dims: Dims) -> Best {
        let (cells, probability) = self.map.best();
        let cells = if self.complete { cells } else { Vec::new() };
        Best {
            name: self.name.clone(),
            layouts: self.layouts.clone(),
            probability: self.complete.then_some(probability),
            cells: cells
                .iter()
                .map(|&c| {
                    let (row, col) = dims.row_col(c);
                    BestCell {
                        cell: dims.cell_name(c),
                        row,
                        col,
                        count: self.map.per_cell[c].clone(),
                    }
                })
                .collect(),
            engine: self.engine,
            complete: self.complete,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::fleet::Fleet;
    use crate::observe::{Shot, ShotResult, Sinking};
    use crate::play::Setup;
    use crate::rules::Rules;

    fn problem(setup: &Setup, shots: &[(usize, ShotResult)]) -> Problem {
        let mut spec = setup.empty();
        spec.observations.shots = shots
            .iter()
            .map(|(cell, result)| Shot {
                cell: *cell,
                result: result.clone(),
            })
            .collect();
        crate::answer::build(spec).unwrap()
    }

    /// A position of one or two misses and no hit is counted from the empty board a miss at
    /// a time, and its map is the DP's; misses a symmetry keeps, rocks, a hit, or more
    /// misses: counted afresh.
    #[test]
    fn a_few_misses_are_counted_from_the_empty_board() {
        let miss = ShotResult::Miss;
        for rules in [Rules::Touch, Rules::NoTouch] {
            for sinking in [Sinking::None, Sinking::Announced] {
                let setup = Setup {
                    dims: Dims::new(7, 7),
                    fleet: Fleet::straight(&[4, 3, 2, 2]),
                    rules,
                    sinking,
                    rocks: Vec::new(),
                };
                for shots in [
                    vec![(9, miss.clone())],
                    vec![(10, miss.clone()), (15, miss.clone())],
                    vec![(40, miss.clone()), (3, miss.clone())],
                ] {
                    let p = problem(&setup, &shots);
                    let opts = CountOptions::default();
                    let chained = past_misses(&p, &opts).expect("counted from the empty board");
                    let dp = HeatMap::compute(&p, Engine::Dp).unwrap();
                    let counts = |h: &HeatMap| (h.layouts, h.per_cell.clone(), h.open.clone());
                    assert_eq!(
                        counts(&chained),
                        counts(&dp),
                        "{rules:?} {sinking:?} {shots:?}"
                    );
                    assert!(chained.complete);
                    let ProbsReport::Map(h) =
                        probs(&p, &Options::new().counting(opts.clone())).unwrap()
                    else {
                        panic!("a map");
                    };
                    assert_eq!(h.map.per_cell, wide(dp).per_cell);
                }
                // Out of time, the count from the empty board gives nothing, and the fresh
                // count that follows it is partial, as it says.
                let quick = CountOptions {
                    time_limit: Some(std::time::Duration::from_nanos(1)),
                    ..CountOptions::default()
                };
                let two = problem(&setup, &[(10, miss.clone()), (15, miss.clone())]);
                assert!(
                    !probs(&two, &Options::new().counting(quick.clone()))
                        .unwrap()
                        .exact()
                );
                let three = problem(
                    &setup,
                    &[(1, miss.clone()), (2, miss.clone()), (3, miss.clone())],
                );
                assert!(past_misses(&three, &CountOptions::default()).is_none());
                let hit = problem(&setup, &[(1, ShotResult::Hit), (2, miss.clone())]);
                assert!(past_misses(&hit, &CountOptions::default()).is_none());
                // Misses on the diagonal: the position has orbits of its own.
                let diagonal = problem(&setup, &[(0, miss.clone()), (16, miss.clone())]);
                assert!(past_misses(&diagonal, &CountOptions::default()).is_none());
                let rocky = Setup {
                    rocks: vec![0],
                    ..setup.clone()
                };
                let rock = problem(&rocky, &[(9, miss.clone())]);
                assert!(past_misses(&rock, &CountOptions::default()).is_none());
            }
        }
    }

    /// A position counted into the book is answered from it, its mirror image too, as
    /// `probs` answers them; a problem of another game is counted and not kept.
    #[test]
    fn probs_in_a_book_are_the_counted_ones() {
        let setup = Setup {
            dims: Dims::new(6, 6),
            fleet: Fleet::straight(&[4, 3, 2]),
            rules: Rules::Touch,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        };
        // Every count kept, however quick.
        let book = Book::new(&setup, Duration::ZERO);
        let opts = CountOptions {
            parallel: true,
            ..CountOptions::default()
        };
        let (miss, hit) = (ShotResult::Miss, ShotResult::Hit);
        // B1 miss, C2 hit; mirrored left to right: E1 miss, D2 hit.
        let first = problem(&setup, &[(1, miss.clone()), (8, hit.clone())]);
        let mirror = problem(&setup, &[(4, miss), (9, hit)]);
        let (ProbsReport::Map(a), ProbsReport::Map(b)) = (
            probs_in(&first, &book, &Options::new().counting(opts.clone())).unwrap(),
            probs(&first, &Options::new().counting(opts.clone())).unwrap(),
        ) else {
            panic!("a map");
        };
        assert_eq!((&a.layouts, &a.counts), (&b.layouts, &b.counts));
        assert!(a.layouts > BigUint::ZERO);
        assert_eq!(book.len(), 1);
        // The mirror image is in the book, turned the right way.
        let shots = &mirror.given().observations.shots;
        let kept = book
            .lookup(&mirror, shots)
            .expect("the mirror image is kept");
        let ProbsReport::Map(m) = probs(&mirror, &Options::new().counting(opts.clone())).unwrap()
        else {
            panic!("a map");
        };
        assert_eq!(BigUint::from(kept.layouts), m.layouts);
        assert_eq!(
            kept.per_cell
                .iter()
                .map(|&n| BigUint::from(n))
                .collect::<Vec<_>>(),
            m.map.per_cell
        );
        // A position planted in the book with made-up counts: `auto` answers from the book,
        // an engine named counts.
        let planted = problem(&setup, &[(14, ShotResult::Miss)]);
        let shot = [Shot {
            cell: 14,
            result: ShotResult::Miss,
        }];
        book.keep(&shot, 7, &[1; 36], Some(EngineKind::Sat), Duration::MAX);
        let layouts = |engine: Engine| match probs_in(
            &planted,
            &book,
            &Options::new().engine(engine).counting(opts.clone()),
        ) {
            Ok(ProbsReport::Map(h)) => h.layouts,
            other => panic!("{other:?}"),
        };
        assert_eq!(layouts(Engine::Auto), BigUint::from(7u32));
        assert!(layouts(Engine::Enum) > BigUint::from(1000u32));
        assert_eq!(book.len(), 2);
        // A count cut short by its time limit is answered as partial and not kept.
        let quick = CountOptions {
            time_limit: Some(Duration::from_nanos(1)),
            ..opts.clone()
        };
        let unseen = problem(&setup, &[(0, ShotResult::Miss)]);
        match probs_in(&unseen, &book, &Options::new().counting(quick.clone())).unwrap() {
            ProbsReport::Map(h) => assert!(!h.complete),
            ProbsReport::NoMap(_) => {}
            ProbsReport::NoLayout(no) => panic!("{no:?}"),
        }
        assert_eq!(book.len(), 2);
        // The same board with no-touch rules is another game.
        let other = Setup {
            rules: Rules::NoTouch,
            ..setup.clone()
        };
        let p = problem(&other, &[(1, ShotResult::Miss)]);
        assert_eq!(
            probs_in(&p, &book, &Options::new().counting(opts.clone())).unwrap(),
            probs(&p, &Options::new().counting(opts.clone())).unwrap()
        );
        assert_eq!(book.len(), 2);
    }
}
