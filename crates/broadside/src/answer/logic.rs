//! `solve --explain` and `grade`: the logical solver's deductions, and the difficulty they
//! give a puzzle.

use std::collections::BTreeMap;

use serde::Serialize;

use super::NoSolution;
use crate::engine::{CountOptions, Engine};
use crate::error::Error;
use crate::layout::Layout;
use crate::logic::{self, Grade, Know, Outcome};
use crate::problem::Problem;

/// What [`explain`] found.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ExplainReport {
    /// The deductions, and the solution search finished.
    Explained(Box<Explained>),
    /// No solution, from the problem's obvious conflicts.
    NoSolution(NoSolution),
}

/// The rules' deductions, step by step, and the solution.
#[derive(Clone, Debug, Serialize)]
pub struct Explained {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Every deduction, in order.
    pub steps: Vec<StepReport>,
    /// Whether the rules decided every cell.
    pub solved_by_rules: bool,
    /// Cells the rules left open.
    pub open_cells: usize,
    /// The grade the deductions give.
    pub grade: Grade,
    /// Whether a solution exists (search finishes what the rules leave).
    pub solved: bool,
    /// The solution, one string per row.
    pub solution: Option<Vec<String>>,
    /// The logical solver's outcome (steps with cell indices, what is known of each cell).
    #[serde(skip)]
    pub outcome: Outcome,
    /// The solution.
    #[serde(skip)]
    pub layout: Option<Layout>,
}

/// One deduction, with its cells named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// The rule.
    pub rule: &'static str,
    /// Its tier, 1 to 4.
    pub tier: u8,
    /// The reason, in words.
    pub why: String,
    /// The cells it found to be water.
    pub water: Vec<String>,
    /// The cells it found to hold a ship.
    pub ship: Vec<String>,
}

impl ExplainReport {
    /// Whether the answer is a yes: a solution exists.
    pub fn answered(&self) -> bool {
        matches!(self, ExplainReport::Explained(e) if e.solved)
    }
}

/// Solves `problem` with the logical rules, recording each deduction; `options`' engine
/// finishes by search what the rules leave open (and confirms that a solution exists), within
/// its time limit ([`Error::Stopped`] past it). The rules themselves take time polynomial in the
/// board (about 1.5 s on an empty 64x64 board) and are not cut off.
pub fn explain(problem: &Problem, options: &super::Options) -> Result<ExplainReport, Error> {
    let (engine, time_limit) = (options.engine, options.count.time_limit);
    let deadline = time_limit.and_then(|t| std::time::Instant::now().checked_add(t));
    logic::supports(problem)?;
    if let Some(no) = NoSolution::of(problem) {
        return Ok(ExplainReport::NoSolution(no));
    }
    let outcome = logic::solve(problem, 4)?;
    let d = problem.dims();
    // A contradiction proves there is no solution; search would only confirm it.
    let layout = if outcome.contradiction {
        None
    } else {
        engine
            .solve_until(problem, deadline)
            .ok_or_else(|| super::unanswered(time_limit))?
            .0
    };
    let steps = outcome
        .steps
        .iter()
        .map(|s| {
            let of = |k: Know| -> Vec<String> {
                s.cells
                    .iter()
                    .filter(|c| c.1 == k)
                    .map(|c| d.cell_name(c.0))
                    .collect()
            };
            StepReport {
                rule: s.rule,
                tier: s.tier,
                why: s.why.clone(),
                water: of(Know::Water),
                ship: of(Know::Ship),
            }
        })
        .collect();
    Ok(ExplainReport::Explained(Box::new(Explained {
        name: problem.spec().meta.name.clone(),
        steps,
        solved_by_rules: outcome.solved,
        open_cells: outcome.grid.iter().filter(|&&k| k == Know::Unknown).count(),
        grade: outcome.grade,
        solved: layout.is_some(),
        solution: layout.as_ref().map(|l| l.to_rows(d, problem.fleet())),
        outcome,
        layout,
    })))
}

/// What [`grade`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GradeReport {
    /// The grade of a puzzle with one solution.
    Graded(Graded),
    /// Not graded: the puzzle has no solution or more than one.
    NotOne {
        /// The problem's name, when it has one.
        name: Option<String>,
        /// Always `None`.
        grade: Option<Grade>,
        /// Solutions seen (0, or 2 when counting stopped at two).
        solutions_seen: u128,
        /// "no solution" or "not unique".
        reason: &'static str,
    },
    /// No solution, from the problem's obvious conflicts.
    NoSolution(NoSolution),
}

/// A puzzle's grade and how the rules reached it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Graded {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// The grade.
    pub grade: Grade,
    /// Whether the rules decide every cell.
    pub solved_by_rules: bool,
    /// The highest tier that decided a cell (0 when the clues decide everything).
    pub top_tier: u8,
    /// Cells decided by each tier (tier 1 first).
    pub decided_by_tier: [usize; 4],
    /// Cells the rules leave for search.
    pub open_cells: usize,
    /// The first step of the highest tier: "rule (tier t): why".
    pub hardest_step: Option<String>,
    /// Steps the rules took.
    #[serde(skip)]
    pub steps: usize,
    /// Cells on the board.
    #[serde(skip)]
    pub cells: usize,
}

impl GradeReport {
    /// Whether the answer is a yes: a grade.
    pub fn answered(&self) -> bool {
        matches!(self, GradeReport::Graded(_))
    }
}

/// Grades `problem`: uniqueness is proved first (grades are for puzzles with one solution),
/// within `options`' time limit ([`Error::Stopped`] past it; the engine is `auto`'s race), then the logical solver says which tiers
/// of rules it needs (time polynomial in the board, not cut off).
pub fn grade(problem: &Problem, options: &super::Options) -> Result<GradeReport, Error> {
    let time_limit = options.count.time_limit;
    logic::supports(problem)?;
    if let Some(no) = NoSolution::of(problem) {
        return Ok(GradeReport::NoSolution(no));
    }
    let opts = CountOptions {
        limit: Some(2),
        time_limit,
        ..CountOptions::default()
    };
    let r = Engine::Auto.count(problem, &opts)?;
    let n = r.count;
    if !r.complete && n < 2 {
        return Err(super::unanswered(time_limit));
    }
    if n != 1 {
        return Ok(GradeReport::NotOne {
            name: problem.spec().meta.name.clone(),
            grade: None,
            solutions_seen: n,
            reason: if n == 0 { "no solution" } else { "not unique" },
        });
    }
    let o = logic::solve(problem, 4)?;
    let hardest_step = o
        .steps
        .iter()
        .find(|s| s.tier == o.top_tier)
        .map(|s| format!("{} (tier {}): {}", s.rule, s.tier, s.why));
    Ok(GradeReport::Graded(Graded {
        name: problem.spec().meta.name.clone(),
        grade: o.grade,
        solved_by_rules: o.solved,
        top_tier: o.top_tier,
        decided_by_tier: o.decided_by_tier,
        open_cells: o.grid.iter().filter(|&&k| k == Know::Unknown).count(),
        hardest_step,
        steps: o.steps.len(),
        cells: o.grid.len(),
    }))
}

/// Grades of many puzzles, tallied: how many of each grade, and of those the rules solve,
/// how many need each tier.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GradeTally {
    by: BTreeMap<(Grade, u8), usize>,
}

impl GradeTally {
    /// Counts one graded puzzle.
    pub fn add(&mut self, g: &Graded) {
        *self.by.entry((g.grade, g.top_tier)).or_insert(0) += 1;
    }

    /// Puzzles counted.
    pub fn graded(&self) -> usize {
        self.by.values().sum()
    }

    /// Puzzles of grade `grade`.
    pub fn of_grade(&self, grade: Grade) -> usize {
        self.by
            .iter()
            .filter(|(k, _)| k.0 == grade)
            .map(|x| x.1)
            .sum()
    }

    /// Puzzles the rules solve whose highest tier is `tier` (a puzzle the clues alone solve
    /// counts as tier 1).
    pub fn needing_tier(&self, tier: u8) -> usize {
        self.by
            .iter()
            .filter(|(k, _)| k.0 != Grade::Extreme && k.1.max(1) == tier)
            .map(|x| x.1)
            .sum()
    }
}
