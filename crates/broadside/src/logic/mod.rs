//! A human-style logical solver for solitaire puzzles, and difficulty grades.
//!
//! The solver knows, per cell, water, ship or nothing, and applies named deduction rules in
//! tiers, always the lowest tier that decides something:
//!
//! 1. **basics**: water diagonally around every ship cell (ships never touch); the shape a
//!    segment clue implies (`<` has a ship cell to its right and water on its other sides,
//!    `o` water all round, `m` continues on two opposite sides); a row or column with all its
//!    ship cells is water elsewhere, and one whose open cells are all needed is ship there.
//! 2. **fleet accounting**: which ships are complete and which are still to be found; a run
//!    as long as the longest ship left is a whole ship (its ends are water); the ships that can
//!    still hold a partly found ship decide the cells they all cover and rule out the ones none
//!    reaches; a cell no remaining ship can cover is water; when a ship length has exactly as
//!    many places left as ships, they are all ships (one ship left: the cells all its places
//!    share).
//! 3. **line overlap**: every way to fill a row or column with its count, made of pieces the
//!    remaining fleet can supply (runs along the line are whole ships of a length still to be
//!    found, single cells a one-cell ship or a ship crossing the line), agrees on a cell.
//! 4. **contradiction**: assuming a cell is a ship (or water) and applying tiers 1 to 3 leads
//!    to a contradiction, so it is the other.
//!
//! A puzzle's grade is the highest tier its solution needs: easy (tier 1), medium (tier 2),
//! hard (tier 3 or 4), extreme (the tiers do not finish it: search is needed). [`solve`]
//! returns every step with its rule and the cells it decided, which is what `solve --explain`
//! prints; [`grade`] reaches the same grade faster by recording nothing.
//!
//! The solver's board (what is known of each cell, the rows, columns and ship places, and the
//! checks every rule relies on) is in `solver.rs`; each tier's rules are in a file of their
//! own: `basics.rs` (1), `fleet.rs` (2), `overlap.rs` (3) and `contradiction.rs` (4).

mod basics;
mod contradiction;
mod fleet;
mod overlap;
mod solver;

use crate::choice::named_choices;
use crate::problem::Problem;
use crate::rules::Rules;

use solver::{Out, Solver};

pub use crate::progress::Know;

/// A difficulty grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// Tier 1 rules suffice.
    Easy,
    /// Tier 2 (fleet accounting) is needed.
    Medium,
    /// Tier 3 (line overlap) or tier 4 (contradiction) is needed.
    Hard,
    /// The tiers do not finish the puzzle: search is needed.
    Extreme,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Extreme];

    /// The highest tier a puzzle of this grade may need; `None` for extreme (the tiers are
    /// not enough).
    pub fn max_tier(self) -> Option<u8> {
        match self {
            Grade::Easy => Some(1),
            Grade::Medium => Some(2),
            Grade::Hard => Some(4),
            Grade::Extreme => None,
        }
    }
}

named_choices!(Grade, "grade", {
    Grade::Easy => "easy",
    Grade::Medium => "medium",
    Grade::Hard => "hard",
    Grade::Extreme => "extreme",
});

/// One deduction: the rule, its tier, the cells it decided, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The rule's name.
    pub rule: &'static str,
    /// Its tier (1 to 4).
    pub tier: u8,
    /// The cells decided, and what.
    pub cells: Vec<(usize, Know)>,
    /// The reason, in words.
    pub why: String,
}

/// The result of a logical solve.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The steps, in order (empty when the solve recorded none, as [`grade_outcome`] does).
    pub steps: Vec<Step>,
    /// What is known at the end.
    pub grid: Vec<Know>,
    /// Whether every cell was decided (and the decided grid holds exactly the fleet).
    pub solved: bool,
    /// Whether the rules met a contradiction: the puzzle has no solution.
    pub contradiction: bool,
    /// The highest tier that decided a cell (0 when the clues decide everything).
    pub top_tier: u8,
    /// Cells decided by each tier (index 0 is tier 1).
    pub decided_by_tier: [usize; 4],
    /// The grade: from the highest tier used, or extreme when unsolved.
    pub grade: Grade,
}

/// Why the logical solver does not take a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogicUnsupported {
    /// It reasons about straight ships under the no-touch rule.
    #[error("the logical solver handles straight ships that never touch, without sonar shots")]
    Model,
}

/// The logical solver on `problem` with the tiers up to `max_tier`, from the clues and the
/// cells in `known`; `steps` is how many steps to record (0 records none, and goes to the end).
fn run(
    problem: &Problem,
    max_tier: u8,
    steps: usize,
    known: Option<&[Know]>,
) -> Result<Outcome, LogicUnsupported> {
    Ok(run_on(&Solver::new(problem)?, max_tier, steps, known))
}

/// [`run`] on a solver already made.
fn run_on(s: &Solver, max_tier: u8, steps: usize, known: Option<&[Know]>) -> Outcome {
    let mut g = s.start.clone();
    let mut contradiction = false;
    if let Some(known) = known {
        for (c, &k) in known.iter().enumerate().take(g.len()) {
            match (g[c], k) {
                (_, Know::Unknown) => {}
                (Know::Unknown, k) => g[c] = k,
                (a, b) => contradiction |= a != b,
            }
        }
    }
    let max_steps = steps;
    let mut steps = Vec::new();
    let mut out = Out {
        steps: (max_steps > 0).then_some(&mut steps),
        changed: false,
        tier: 1,
        per_tier: [0; 4],
        max_steps,
    };
    let contradiction =
        contradiction || s.propagate(&mut g, max_tier.clamp(1, 4), &mut out).is_err();
    let per_tier = out.per_tier;
    let solved = !contradiction && !g.contains(&Know::Unknown);
    let top_tier = (1..=4u8)
        .rev()
        .find(|&t| per_tier[usize::from(t) - 1] > 0)
        .unwrap_or(0);
    let grade = match (solved, top_tier) {
        (false, _) => Grade::Extreme,
        (true, 3..) => Grade::Hard,
        (true, 2) => Grade::Medium,
        _ => Grade::Easy,
    };
    Outcome {
        steps,
        grid: g,
        solved,
        contradiction,
        top_tier,
        decided_by_tier: per_tier,
        grade,
    }
}

/// Whether the logical solver takes the problem: straight ships that never touch, no sonar.
pub fn supports(p: &Problem) -> Result<(), LogicUnsupported> {
    if p.rules() != Rules::NoTouch || !p.fleet().is_straight() || !p.any_of().is_empty() {
        return Err(LogicUnsupported::Model);
    }
    Ok(())
}

/// Solves `problem` with the tiers up to `max_tier` (1 to 4), recording every step.
pub fn solve(problem: &Problem, max_tier: u8) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, usize::MAX, None)
}

/// The next deduction from the clues and the cells in `known` (one per cell, row-major: a
/// person's marks, say): the step of the lowest tier that decides an undecided cell, as
/// [`solve`] would record it from there. The outcome's `steps` holds that one step, or none
/// when the rules decide nothing more (or meet a contradiction: `contradiction` says which);
/// its grid is what is known after the step.
pub fn next_step(problem: &Problem, known: &[Know]) -> Result<Outcome, LogicUnsupported> {
    run(problem, 4, 1, Some(known))
}

/// Solves `problem` with the tiers up to `max_tier` as fast as possible, recording no steps;
/// the grid and the grade are those of [`solve`].
pub fn deduce(problem: &Problem, max_tier: u8) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, 0, None)
}

/// [`deduce`] starting from cells already known to follow from the problem (a grid an
/// earlier call returned for the same problem with fewer clues): the same final grid, less
/// work. The counts in `decided_by_tier` then cover only the new deductions.
pub fn deduce_from(
    problem: &Problem,
    max_tier: u8,
    known: &[Know],
) -> Result<Outcome, LogicUnsupported> {
    run(problem, max_tier, 0, Some(known))
}

/// Of the assumptions `trials` (a cell and its value), the one that, added to the clues and
/// the cells in `known`, lets the tiers up to `max_tier` decide the most cells, without a
/// contradiction (the earliest of equals); `None` when every trial meets one. A search hint
/// reveals such a cell: the one that helps the rules most.
pub fn most_telling(
    problem: &Problem,
    max_tier: u8,
    known: &[Know],
    trials: &[(usize, Know)],
) -> Result<Option<(usize, Know)>, LogicUnsupported> {
    let s = Solver::new(problem)?;
    let mut g = known.to_vec();
    let mut best: Option<(usize, (usize, Know))> = None;
    for &(cell, k) in trials {
        let old = std::mem::replace(&mut g[cell], k);
        let o = run_on(&s, max_tier, 0, Some(&g));
        g[cell] = old;
        let decided = o.grid.iter().filter(|&&k| k != Know::Unknown).count();
        if !o.contradiction && best.is_none_or(|b| decided > b.0) {
            best = Some((decided, (cell, k)));
        }
    }
    Ok(best.map(|b| b.1))
}

/// [`deduce`] with every tier: what [`grade`] reports.
pub fn grade_outcome(problem: &Problem) -> Result<Outcome, LogicUnsupported> {
    deduce(problem, 4)
}

/// The grade of a puzzle: from the highest tier its logical solution needs.
pub fn grade(problem: &Problem) -> Result<Grade, LogicUnsupported> {
    grade_outcome(problem).map(|o| o.grade)
}
