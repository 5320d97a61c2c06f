//! Puzzle generation: a hidden layout drawn uniformly at random, its row and column counts,
//! and a minimal set of clues that makes it the only solution, optionally of a given grade.
//!
//! 1. The hidden layout is drawn exactly uniformly among all layouts of the fleet on the
//!    board ([`crate::sample`]): by rejection while its acceptance rate is workable, else by
//!    the uniform sampler that counts first (list, DP walk or count-guided descent). Never by
//!    the naive one-ship-at-a-time placement, which is biased.
//! 2. The counts are the layout's; `hidden_counts` of them, chosen at random, are withheld.
//! 3. Clues are added at random among the cells the logical solver ([`crate::logic`]) cannot
//!    decide, until it solves the puzzle with the tiers the grade allows (all four when no
//!    grade is asked): water, or the hidden layout's segment there (`o < > ^ v m`, or `*` when
//!    segments are not allowed). A puzzle the rules solve has exactly one solution, so no
//!    search is needed while clues are still few. Where the logical solver does not apply
//!    (polyomino fleets) a clue is instead added where a second solution differs from the
//!    hidden layout, until there is none.
//! 4. Clues are removed in random order while the rules still solve the puzzle, then every
//!    clue whose removal keeps the solution unique (decided by the enumerator, the fastest
//!    exact engine for puzzles) is removed too: dropping any clue of the result gives a
//!    second solution (the puzzle is minimal).
//! 5. With a grade asked for, the result is graded; attempts with fresh layouts continue
//!    until one has exactly that grade or the time budget runs out.
//!
//! A Digital Battleships puzzle (`digital`) draws a digit from 1 to 9 for every cell and gives
//! each line's sum of digits under the hidden ships in place of its count; the logical rules
//! count ship cells, so its clues are added where a second solution differs (as for
//! polyominoes) and it takes no grade.
//!
//! The tests re-prove generated puzzles with the SAT engine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, RngExt};

use crate::clue::Clue;
use crate::engine::{CountOptions, Enumerator};
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::logic::{self, Grade, Know};
use crate::placement::segment_at;
use crate::problem::{Meta, Problem, ProblemSpec};
use crate::rules::Rules;
use crate::sample::{Sampler, SamplerKind, UniformMethod};

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
    /// The grade the puzzle must have; any when `None`.
    pub difficulty: Option<Grade>,
    /// A Digital Battleships puzzle: digits on the cells, and the lines' numbers their sums
    /// under the ships.
    pub digital: bool,
    /// When to give up.
    pub time_limit: Duration,
}

impl GenerateOptions {
    /// Defaults for a board: the magazine fleet, all counts shown, every clue kind, any
    /// grade, 60 s.
    pub fn new(dims: Dims) -> GenerateOptions {
        GenerateOptions {
            dims,
            fleet: None,
            hidden_counts: 0,
            segments: true,
            water: true,
            difficulty: None,
            digital: false,
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
    Budget(f64, String),
    /// The request is inconsistent.
    #[error("{0}")]
    Request(String),
}

/// The fleet the puzzle magazines use for a board of this size: {3,2,2,1,1,1} up to 7 cells
/// wide, the classic {4,3,3,2,2,2,1,1,1,1} up to 12, {5,4,4,3,3,3,2,2,2,2,1,1,1,1} up to 15,
/// and on larger boards that fleet repeated once per 450 cells (rounded up), which keeps the
/// exactly uniform draw of the hidden layout fast (see `docs/GENERATION.md`).
pub fn default_fleet(dims: Dims) -> Fleet {
    let side = dims.width.min(dims.height);
    let big = [5, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1];
    match side {
        0..=7 => Fleet::straight(&[3, 2, 2, 1, 1, 1]),
        8..=12 => Fleet::straight(&[4, 3, 3, 2, 2, 2, 1, 1, 1, 1]),
        13..=15 => Fleet::straight(&big),
        _ => {
            let times = dims.cells().div_ceil(450).max(1);
            let lengths: Vec<usize> = big
                .iter()
                .flat_map(|&l| std::iter::repeat_n(l, times))
                .collect();
            Fleet::straight(&lengths)
        }
    }
}

/// Rejection draws tried before switching to a sampler that counts the layouts first.
const REJECTION_TRIES: u64 = 50_000;

/// How many times one graded attempt trades a clue uniqueness does without for clues the
/// rules need.
const MAX_SWAPS: usize = 20;

/// The clock and the attempts of one generation.
struct Budget {
    start: Instant,
    limit: Duration,
}

impl Budget {
    /// Giving up on a grade: how many attempts, and the grades they made instead.
    fn no_grade(&self, want: Grade, attempts: u64, seen: &[u64; 4]) -> GenerateError {
        let tally: Vec<String> = Grade::ALL
            .iter()
            .filter(|g| seen[**g as usize] > 0)
            .map(|g| format!("{} {g}", seen[*g as usize]))
            .collect();
        let instead = if tally.is_empty() {
            "none finished".to_string()
        } else {
            format!("made {} instead", tally.join(", "))
        };
        self.gave_up(format!(
            "no {want} puzzle in {attempts} attempts ({instead})"
        ))
    }

    fn left(&self) -> Option<Duration> {
        self.limit.checked_sub(self.start.elapsed())
    }

    fn gave_up(&self, why: impl Into<String>) -> GenerateError {
        GenerateError::Budget(self.start.elapsed().as_secs_f64(), why.into())
    }
}

/// Draws hidden layouts exactly uniformly: rejection first, then the counting sampler.
struct Hidden {
    empty: Arc<Problem>,
    sampler: Sampler,
    counting: bool,
}

impl Hidden {
    fn new(empty: Arc<Problem>) -> Result<Self, GenerateError> {
        Ok(Hidden {
            sampler: Sampler::new(empty.clone(), SamplerKind::Rejection)
                .map_err(|e| GenerateError::Request(e.to_string()))?,
            empty,
            counting: false,
        })
    }

    fn draw<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        budget: &Budget,
    ) -> Result<Layout, GenerateError> {
        loop {
            if budget.left().is_none() {
                return Err(budget.gave_up(format!(
                    "no layout of the fleet was drawn in time: the fleet is too dense on this board to draw one uniformly at random (rejection acceptance {:.1e})",
                    self.sampler.acceptance().unwrap_or(0.0)
                )));
            }
            if let Some(l) = self.sampler.sample_within(rng, REJECTION_TRIES) {
                return Ok(l);
            }
            // Rejection is not working here. The counting sampler is exact too; it needs the
            // number of layouts, which the DP (narrow boards) or the enumerator (small ones)
            // gives quickly where rejection fails for being too constrained.
            if !self.counting {
                self.counting = true;
                let err = |e: crate::engine::CountError| GenerateError::Request(e.to_string());
                if let Some(dp) =
                    Sampler::uniform_by(self.empty.clone(), UniformMethod::Dp).map_err(err)?
                {
                    self.sampler = dp;
                } else if self.empty.dims().cells() <= 100 {
                    self.sampler = Sampler::new(self.empty.clone(), SamplerKind::Uniform)
                        .map_err(|e| GenerateError::Request(e.to_string()))?;
                }
            }
        }
    }
}

/// Generates one puzzle with a unique solution and a minimal set of clues (of the asked
/// grade, when one is asked).
pub fn generate<R: Rng + ?Sized>(
    opts: &GenerateOptions,
    rng: &mut R,
) -> Result<ProblemSpec, GenerateError> {
    let budget = Budget {
        start: Instant::now(),
        limit: opts.time_limit,
    };
    let d = opts
        .dims
        .supported()
        .map_err(|e| GenerateError::Request(e.to_string()))?;
    let fleet = opts.fleet.clone().unwrap_or_else(|| default_fleet(d));
    if opts.hidden_counts > d.width + d.height {
        return Err(GenerateError::Request(format!(
            "a {d} board has {} counts to hide, not {}",
            d.width + d.height,
            opts.hidden_counts
        )));
    }
    let empty = ProblemSpec::empty(d, fleet.clone(), Rules::NoTouch)
        .build()
        .map_err(|e| GenerateError::Request(e.to_string()))?;
    if !empty.conflicts().is_empty() {
        return Err(GenerateError::NoLayout(d));
    }
    let logic_applies = logic::supports(&empty).is_ok() && !opts.digital;
    if opts.difficulty.is_some() && !logic_applies {
        return Err(GenerateError::Request(match opts.digital {
            true => "difficulty grades come from the logical rules, which count ship cells; a Digital Battleships puzzle takes none".into(),
            false => "difficulty grades are for fleets of straight ships".into(),
        }));
    }
    // A fleet that cannot be placed at all would leave rejection drawing until the budget
    // runs out; the enumerator usually proves that at once.
    let probe = Enumerator::new(&empty).count(&CountOptions {
        limit: Some(1),
        time_limit: Some(opts.time_limit.min(Duration::from_secs(2))),
        ..CountOptions::default()
    });
    if probe.is_ok_and(|r| r.complete && r.count == 0) {
        return Err(GenerateError::NoLayout(d));
    }
    let mut hidden = Hidden::new(Arc::new(empty))?;
    let mut attempts = 0u64;
    let mut seen = [0u64; 4];
    loop {
        let layout = hidden.draw(rng, &budget)?;
        attempts += 1;
        let attempt = Attempt::new(opts, d, fleet.clone(), layout, rng);
        let spec = match (
            attempt.run(opts, logic_applies, &budget, rng),
            opts.difficulty,
        ) {
            (Ok(spec), _) => spec,
            (Err(GenerateError::Budget(..)), Some(want)) => {
                return Err(budget.no_grade(want, attempts, &seen));
            }
            (Err(e), _) => return Err(e),
        };
        let Some(want) = opts.difficulty else {
            return Ok(spec);
        };
        let got = spec
            .clone()
            .build()
            .ok()
            .and_then(|p| logic::grade(&p).ok())
            .expect("a generated puzzle is graded");
        if got == want {
            return Ok(spec);
        }
        seen[got as usize] += 1;
        if budget.left().is_none() {
            return Err(budget.no_grade(want, attempts, &seen));
        }
    }
}

/// One hidden layout being turned into a puzzle.
struct Attempt {
    spec: ProblemSpec,
    hidden: Layout,
    occupied: Vec<bool>,
    segments: bool,
    water: bool,
}

impl Attempt {
    fn new<R: Rng + ?Sized>(
        opts: &GenerateOptions,
        d: Dims,
        fleet: Fleet,
        hidden: Layout,
        rng: &mut R,
    ) -> Attempt {
        let mut occupied = vec![false; d.cells()];
        for c in hidden.cells() {
            occupied[c] = true;
        }
        let mut spec = ProblemSpec::empty(d, fleet, Rules::NoTouch);
        if opts.digital {
            spec.digits = (0..d.cells()).map(|_| rng.random_range(1..=9)).collect();
        }
        let sum = |cells: &mut dyn Iterator<Item = usize>| -> usize {
            cells.filter(|&c| occupied[c]).map(|c| spec.weight(c)).sum()
        };
        let rows = (0..d.height)
            .map(|r| Some(sum(&mut (0..d.width).map(|c| d.index(r, c)))))
            .collect();
        let cols = (0..d.width)
            .map(|c| Some(sum(&mut (0..d.height).map(|r| d.index(r, c)))))
            .collect();
        (spec.rows, spec.cols) = (rows, cols);
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
        Attempt {
            spec,
            hidden,
            occupied,
            segments: opts.segments,
            water: opts.water,
        }
    }

    /// The clue the hidden layout gives at a cell.
    fn clue_at(&self, cell: usize) -> Clue {
        if !self.occupied[cell] {
            return Clue::Water;
        }
        let ship = self
            .hidden
            .ships
            .iter()
            .find(|s| s.cells.contains(&cell))
            .expect("a ship");
        match (self.segments, segment_at(self.spec.dims, &ship.cells, cell)) {
            (true, Some(s)) => Clue::Segment(s),
            _ => Clue::Ship,
        }
    }

    fn problem(&self) -> Result<Problem, GenerateError> {
        self.spec
            .clone()
            .build()
            .map_err(|e| GenerateError::Request(e.to_string()))
    }

    /// What the rules up to `tier` decide (continuing from `known`, what they decided with
    /// fewer clues, when given), and the cells they leave open that may take a clue.
    fn deduce(
        &self,
        tier: u8,
        known: Option<&[Know]>,
    ) -> Result<(Vec<Know>, Vec<usize>), GenerateError> {
        let p = self.problem()?;
        let out = match known {
            Some(k) => logic::deduce_from(&p, tier, k),
            None => logic::deduce(&p, tier),
        }
        .map_err(|e| GenerateError::Request(e.to_string()))?;
        assert!(
            !out.contradiction,
            "the logical solver contradicted a puzzle with a known solution"
        );
        let open = (0..out.grid.len())
            .filter(|&c| out.grid[c] == Know::Unknown && (self.water || self.occupied[c]))
            .collect();
        Ok((out.grid, open))
    }

    /// Whether the hidden layout is the only solution; an error when the budget runs out.
    fn unique(&self, budget: &Budget) -> Result<bool, GenerateError> {
        let left = budget
            .left()
            .ok_or_else(|| budget.gave_up("the clues were not minimal yet"))?;
        let r = Enumerator::new(&self.problem()?)
            .count(&CountOptions {
                limit: Some(2),
                time_limit: Some(left),
                ..CountOptions::default()
            })
            .map_err(|e| GenerateError::Request(e.to_string()))?;
        if !r.complete && r.count < 2 {
            return Err(budget.gave_up("the clues were not minimal yet"));
        }
        Ok(r.count == 1)
    }

    fn run<R: Rng + ?Sized>(
        mut self,
        opts: &GenerateOptions,
        logic_applies: bool,
        budget: &Budget,
        rng: &mut R,
    ) -> Result<ProblemSpec, GenerateError> {
        // With no grade asked, the cheap tiers: they only have to prove uniqueness while
        // clues are added and taken away; the enumerator then removes what is left to remove.
        // For hard puzzles the rules steer with tiers 1 to 3: the contradiction tier costs
        // far more per call, and the final grade still counts it.
        let tier = opts
            .difficulty
            .and_then(Grade::max_tier)
            .map_or(2, |t| t.min(3));
        // Keeping the rules able to solve the puzzle is the point unless it is to be extreme.
        let keep_solvable = opts.difficulty != Some(Grade::Extreme);
        if logic_applies {
            self.add_until_solved(tier, budget, rng)?;
            if keep_solvable {
                self.remove_while_solved(tier, budget, rng)?;
            }
        } else {
            self.add_until_unique(budget, rng)?;
        }
        // Remove every clue uniqueness does without. For a graded puzzle such a clue is one
        // the rules need, so removing it would make the puzzle harder: instead the rules get
        // other clues where they are now stuck, and the pass starts again (a few times).
        let mut swaps = if logic_applies && keep_solvable && opts.difficulty.is_some() {
            MAX_SWAPS
        } else {
            0
        };
        'pass: loop {
            for cell in self.given(rng) {
                let kept = self.spec.clues[cell].take();
                if !self.unique(budget)? {
                    self.spec.clues[cell] = kept;
                } else if swaps > 0 {
                    swaps -= 1;
                    self.add_until_solved(tier, budget, rng)?;
                    self.remove_while_solved(tier, budget, rng)?;
                    continue 'pass;
                }
            }
            break;
        }
        let mut spec = self.spec;
        if spec.clues.iter().all(Option::is_none) {
            spec.clues.clear();
        }
        spec.solution = Some(self.hidden);
        Ok(spec)
    }

    /// Adds clues where the rules up to `tier` are stuck until they solve the puzzle.
    fn add_until_solved<R: Rng + ?Sized>(
        &mut self,
        tier: u8,
        budget: &Budget,
        rng: &mut R,
    ) -> Result<(), GenerateError> {
        let mut known: Option<Vec<Know>> = None;
        loop {
            if budget.left().is_none() {
                return Err(budget.gave_up("the puzzle was not unique yet"));
            }
            let (grid, open) = self.deduce(tier, known.as_deref())?;
            if grid.iter().all(|&k| k != Know::Unknown) {
                return Ok(());
            }
            if open.is_empty() {
                // Only water clues would help the rules; search may still do without.
                return self.add_until_unique(budget, rng);
            }
            let cell = open[rng.random_range(0..open.len())];
            self.spec.clues[cell] = Some(self.clue_at(cell));
            known = Some(grid);
        }
    }

    /// Removes, in random order, the clues the rules up to `tier` solve the puzzle without.
    fn remove_while_solved<R: Rng + ?Sized>(
        &mut self,
        tier: u8,
        budget: &Budget,
        rng: &mut R,
    ) -> Result<(), GenerateError> {
        for cell in self.given(rng) {
            if budget.left().is_none() {
                return Err(budget.gave_up("the clues were not minimal yet"));
            }
            let kept = self.spec.clues[cell].take();
            if self.deduce(tier, None)?.0.contains(&Know::Unknown) {
                self.spec.clues[cell] = kept;
            }
        }
        Ok(())
    }

    /// The cells with a clue, in random order.
    fn given<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<usize> {
        let mut given: Vec<usize> = (0..self.spec.clues.len())
            .filter(|&c| self.spec.clues[c].is_some())
            .collect();
        shuffle(&mut given, rng);
        given
    }

    /// Adds a clue where a second solution differs from the hidden layout, until there is
    /// none (for fleets the logical solver does not take).
    fn add_until_unique<R: Rng + ?Sized>(
        &mut self,
        budget: &Budget,
        rng: &mut R,
    ) -> Result<(), GenerateError> {
        let cells = self.spec.dims.cells();
        loop {
            if budget.left().is_none() {
                return Err(budget.gave_up("the puzzle was not unique yet"));
            }
            let p = self.problem()?;
            let Some(other) = Enumerator::new(&p).solutions().find(|l| *l != self.hidden) else {
                return Ok(());
            };
            let mut other_cells = vec![false; cells];
            for c in other.cells() {
                other_cells[c] = true;
            }
            // Under the no-touch rule two layouts with the same ship cells are the same
            // layout, so such a cell always exists.
            let differ: Vec<usize> = (0..cells)
                .filter(|&c| self.occupied[c] != other_cells[c] && (self.water || self.occupied[c]))
                .collect();
            if differ.is_empty() {
                return Err(GenerateError::Request(
                    "without water clues these counts cannot single out the layout".into(),
                ));
            }
            let cell = differ[rng.random_range(0..differ.len())];
            self.spec.clues[cell] = Some(self.clue_at(cell));
        }
    }
}

/// Fisher-Yates with the caller's RNG.
fn shuffle<T, R: Rng + ?Sized>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

/// The attribution a generated puzzle carries.
pub fn meta(name: String, seed: u64, grade: Option<Grade>) -> Meta {
    let graded = grade.map(|g| format!(", graded {g}")).unwrap_or_default();
    Meta {
        name: Some(name),
        source: Some(format!(
            "generated by broadside (seed {seed}{graded}): a uniformly drawn layout, its counts, and a minimal set of clues"
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
