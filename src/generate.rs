//! Puzzle generation: a hidden layout drawn uniformly at random, its row and column counts,
//! and a minimal set of clues that makes it the only solution.
//!
//! 1. The hidden layout is drawn by rejection sampling ([`crate::sample`]), which is exactly
//!    uniform among all layouts of the fleet on the board (not the naive one-ship-at-a-time
//!    placement, which is biased).
//! 2. The counts are the layout's; `hidden_counts` of them, chosen at random, are withheld.
//! 3. While the puzzle has a second solution, a clue is added at a cell where that solution
//!    and the hidden layout differ (so the second solution is ruled out): water, or the
//!    hidden layout's segment there (`o < > ^ v m`, or `*` when segments are not allowed).
//!    Under the no-touch rule two layouts with the same ship cells are the same layout, so
//!    such a cell always exists.
//! 4. Every clue not needed is removed, in random order: dropping any clue of the result
//!    gives a second solution (the puzzle is minimal).
//!
//! Uniqueness is decided by [`crate::Enumerator::is_unique`], the fastest exact engine for
//! puzzles; the tests re-prove generated puzzles with the SAT engine.

use std::time::{Duration, Instant};

use rand::{Rng, RngExt};

use crate::clue::Clue;
use crate::engine::Enumerator;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::problem::{Meta, ProblemSpec, segment_at};
use crate::rules::Rules;
use crate::sample::{Sampler, SamplerKind};

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Board size.
    pub dims: Dims,
    /// The fleet; [`default_fleet`] when `None`.
    pub fleet: Option<Fleet>,
    /// How many row and column counts to withhold.
    pub hidden_counts: usize,
    /// Whether clues may show segment kinds (else ship clues are `*`).
    pub segments: bool,
    /// Whether water clues may be given.
    pub water: bool,
    /// When to give up.
    pub time_limit: Duration,
}

impl GenerateOptions {
    /// Defaults for a board: the magazine fleet, all counts shown, every clue kind, 60 s.
    pub fn new(dims: Dims) -> GenerateOptions {
        GenerateOptions {
            dims,
            fleet: None,
            hidden_counts: 0,
            segments: true,
            water: true,
            time_limit: Duration::from_secs(60),
        }
    }
}

/// Why no puzzle was generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The fleet cannot be placed on the board at all.
    #[error("the fleet does not fit on a {0} board under the no-touch rule")]
    NoLayout(Dims),
    /// The time budget ran out.
    #[error("gave up after {0:.1} s: {1}")]
    Budget(f64, &'static str),
    /// The request is inconsistent.
    #[error("{0}")]
    Request(String),
}

/// The fleet the puzzle magazines use for a board of this size: {3,2,2,1,1,1} up to 7 cells
/// wide, the classic {4,3,3,2,2,2,1,1,1,1} up to 12, {5,4,4,3,3,3,2,2,2,2,1,1,1,1} up to 15,
/// and that fleet repeated in proportion to the area on larger boards.
pub fn default_fleet(dims: Dims) -> Fleet {
    let side = dims.width.min(dims.height);
    let big = [5, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1];
    match side {
        0..=7 => Fleet::straight(&[3, 2, 2, 1, 1, 1]),
        8..=12 => Fleet::straight(&[4, 3, 3, 2, 2, 2, 1, 1, 1, 1]),
        13..=15 => Fleet::straight(&big),
        _ => {
            let times = (dims.cells() / 225).max(1);
            let lengths: Vec<usize> = big
                .iter()
                .flat_map(|&l| std::iter::repeat_n(l, times))
                .collect();
            Fleet::straight(&lengths)
        }
    }
}

/// Generates one puzzle with a unique solution and a minimal set of clues.
pub fn generate<R: Rng + ?Sized>(
    opts: &GenerateOptions,
    rng: &mut R,
) -> Result<ProblemSpec, GenerateError> {
    let start = Instant::now();
    let d = opts.dims.supported().map_err(GenerateError::Request)?;
    let fleet = opts.fleet.clone().unwrap_or_else(|| default_fleet(d));
    if opts.hidden_counts > d.width + d.height {
        return Err(GenerateError::Request(format!(
            "a {d} board has {} counts to hide, not {}",
            d.width + d.height,
            opts.hidden_counts
        )));
    }
    let out_of_time = || start.elapsed() >= opts.time_limit;
    let empty = ProblemSpec::empty(d, fleet.clone(), Rules::NoTouch)
        .build()
        .map_err(|e| GenerateError::Request(e.to_string()))?;
    if !empty.conflicts().is_empty() {
        return Err(GenerateError::NoLayout(d));
    }
    // A fleet that cannot be placed at all would leave rejection drawing until the budget
    // runs out; the enumerator usually proves that at once.
    let probe = Enumerator::new(&empty).count(&crate::CountOptions {
        limit: Some(1),
        time_limit: Some(opts.time_limit.min(Duration::from_secs(2))),
        ..crate::CountOptions::default()
    });
    if probe.is_ok_and(|r| r.complete && r.count == 0) {
        return Err(GenerateError::NoLayout(d));
    }
    let mut sampler = Sampler::new(&empty, SamplerKind::Rejection)
        .map_err(|e| GenerateError::Request(e.to_string()))?;
    let hidden = loop {
        if out_of_time() {
            return Err(GenerateError::Budget(
                start.elapsed().as_secs_f64(),
                "no layout of the fleet was drawn in time",
            ));
        }
        if let Some(l) = sampler.sample(rng) {
            break l;
        }
    };
    let mut spec = ProblemSpec::empty(d, fleet, Rules::NoTouch);
    let occupied: Vec<bool> = {
        let mut v = vec![false; d.cells()];
        for c in hidden.cells() {
            v[c] = true;
        }
        v
    };
    spec.rows = (0..d.height)
        .map(|r| Some((0..d.width).filter(|&c| occupied[d.index(r, c)]).count()))
        .collect();
    spec.cols = (0..d.width)
        .map(|c| Some((0..d.height).filter(|&r| occupied[d.index(r, c)]).count()))
        .collect();
    let mut lines: Vec<usize> = (0..d.width + d.height).collect();
    shuffle(&mut lines, rng);
    for &l in &lines[..opts.hidden_counts] {
        if l < d.height {
            spec.rows[l] = None;
        } else {
            spec.cols[l - d.height] = None;
        }
    }
    spec.clues = vec![None; d.cells()];
    let clue_at = |cell: usize| -> Clue {
        if !occupied[cell] {
            return Clue::Water;
        }
        let ship = hidden
            .ships
            .iter()
            .find(|s| s.cells.contains(&cell))
            .expect("a ship");
        match (opts.segments, segment_at(d, &ship.cells, cell)) {
            (true, Some(s)) => Clue::Segment(s),
            _ => Clue::Ship,
        }
    };
    // Add clues until the hidden layout is the only solution.
    loop {
        if out_of_time() {
            return Err(GenerateError::Budget(
                start.elapsed().as_secs_f64(),
                "the puzzle was not unique yet",
            ));
        }
        let p = spec
            .clone()
            .build()
            .map_err(|e| GenerateError::Request(e.to_string()))?;
        let Some(other) = Enumerator::new(&p).solutions().find(|l| *l != hidden) else {
            break;
        };
        let other_cells: Vec<bool> = {
            let mut v = vec![false; d.cells()];
            for c in other.cells() {
                v[c] = true;
            }
            v
        };
        let differ: Vec<usize> = (0..d.cells())
            .filter(|&c| occupied[c] != other_cells[c] && (opts.water || occupied[c]))
            .collect();
        if differ.is_empty() {
            return Err(GenerateError::Request(
                "without water clues these counts cannot single out the layout".into(),
            ));
        }
        let cell = differ[rng.random_range(0..differ.len())];
        spec.clues[cell] = Some(clue_at(cell));
    }
    // Remove every clue that is not needed.
    let mut given: Vec<usize> = (0..d.cells())
        .filter(|&c| spec.clues[c].is_some())
        .collect();
    shuffle(&mut given, rng);
    for cell in given {
        if out_of_time() {
            return Err(GenerateError::Budget(
                start.elapsed().as_secs_f64(),
                "the clues were not minimal yet",
            ));
        }
        let kept = spec.clues[cell].take();
        let p = spec
            .clone()
            .build()
            .map_err(|e| GenerateError::Request(e.to_string()))?;
        if !Enumerator::new(&p).is_unique() {
            spec.clues[cell] = kept;
        }
    }
    if spec.clues.iter().all(Option::is_none) {
        spec.clues.clear();
    }
    spec.solution = Some(hidden);
    Ok(spec)
}

/// Fisher-Yates with the caller's RNG.
fn shuffle<T, R: Rng + ?Sized>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

/// The attribution a generated puzzle carries.
pub fn meta(name: String, seed: u64) -> Meta {
    Meta {
        name: Some(name),
        source: Some(format!(
            "generated by broadside (seed {seed}): a uniformly drawn layout, its counts, and a minimal set of clues"
        )),
    }
}

/// Whether `layout` is the only solution of `spec`.
pub fn is_unique_solution(spec: &ProblemSpec, layout: &Layout) -> bool {
    spec.clone().build().is_ok_and(|p| {
        let e = Enumerator::new(&p);
        e.is_unique() && e.solve().as_ref() == Some(layout)
    })
}
