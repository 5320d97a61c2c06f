//! `check` and `hint`: a person's progress on a puzzle (the marks of its `progress:` section)
//! judged against the puzzle's solutions, and the next logical step from it.
//!
//! A mark is wrong when no solution of the puzzle has it: for a puzzle with one solution, a
//! mark that differs from that solution; for one with several, a mark for which a search with
//! that mark as a clue finds no solution. Marks each of which some solution allows may still
//! fit no one solution together; the first mark, in reading order, that no solution shares
//! with the marks before it is then the *conflict*.
//!
//! A hint is the logical solver's next step ([`logic::next_step`]) from the clues and the
//! marks: the lowest tier that decides an undecided cell, with the sentence `solve --explain`
//! gives it. Mistakes come first (a step is never built on a wrong mark). Where the rules
//! decide nothing more (a puzzle that needs search, or a model the rules do not cover), the
//! hint is a search step: one cell's value in the solution, the cell whose value lets the rules
//! decide the most cells, marked as search.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::NoSolution;
use crate::clue::Clue;
use crate::engine::{CountOptions, Engine};
use crate::error::Error;
use crate::logic::{self, Know};
use crate::problem::Problem;

/// The tier a search step reports: past the rules' four.
pub const SEARCH_TIER: u8 = 5;

/// What [`check`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Whether nothing is wrong: no mistake and no conflict (and the puzzle has a solution).
    pub correct: bool,
    /// Whether every cell is decided (by a clue or a mark) and the whole is a solution.
    pub solved: bool,
    /// The marks no solution allows, by cell name, in reading order.
    pub mistakes: Vec<String>,
    /// A mark that some solution allows, but no solution together with the marks before it
    /// (in reading order): the marks fit no one solution. `None` when they do, or when there
    /// are mistakes.
    pub conflict: Option<String>,
    /// Cells marked.
    pub marked: usize,
    /// Cells neither a clue nor a mark decides.
    pub open: usize,
    /// The puzzle's solutions: 0, 1, or 2 for two or more.
    pub solutions: u8,
    /// Why the puzzle has no solution, when that is evident from its clues (empty otherwise).
    pub reasons: Vec<String>,
}

impl CheckReport {
    /// Whether the answer is a yes: nothing is wrong.
    pub fn answered(&self) -> bool {
        self.correct
    }
}

/// What [`hint`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintReport {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Whether every cell is decided and the whole is a solution: nothing left to hint.
    pub solved: bool,
    /// The marks to fix first: the first one in reading order, or all of them when asked.
    pub mistakes: Vec<String>,
    /// A mark that fits no one solution with the marks before it (see [`CheckReport`]).
    pub conflict: Option<String>,
    /// The next step, when the marks are right and the puzzle is not yet solved.
    pub step: Option<HintStep>,
    /// Cells neither a clue nor a mark decides.
    pub open: usize,
    /// The puzzle's solutions: 0, 1, or 2 for two or more.
    pub solutions: u8,
    /// Why the puzzle has no solution, when that is evident from its clues (empty otherwise).
    pub reasons: Vec<String>,
}

impl HintReport {
    /// Whether the answer is a yes: a step, or a solved puzzle.
    pub fn answered(&self) -> bool {
        self.mistakes.is_empty() && self.conflict.is_none() && self.solutions > 0
    }
}

/// One step of a hint: what it decides and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintStep {
    /// The rule, as `solve --explain` names it; `search` for a search step.
    pub rule: &'static str,
    /// Its tier, 1 to 4; [`SEARCH_TIER`] for a search step.
    pub tier: u8,
    /// Whether the rules decide nothing more, and this is one cell of the solution.
    pub search: bool,
    /// The sentence that explains it.
    pub text: String,
    /// The cells it decides to hold a ship, by name.
    pub ship: Vec<String>,
    /// The cells it decides to be water, by name.
    pub water: Vec<String>,
}

/// The marks of `problem` judged against its solutions: the part [`check`] and [`hint`]
/// share.
struct Verdict {
    marks: Vec<Know>,
    solutions: u8,
    reasons: Vec<String>,
    mistakes: Vec<usize>,
    conflict: Option<usize>,
    /// A solution that agrees with every mark, when the marks are right: ship cells.
    truth: Option<Vec<bool>>,
}

impl Verdict {
    /// Whether the clues and marks decide every cell, agreeing with the solution.
    fn solved(&self, problem: &Problem) -> bool {
        let Some(truth) = &self.truth else {
            return false;
        };
        (0..truth.len()).all(|c| match decided(problem, &self.marks, c) {
            Know::Unknown => false,
            k => (k == Know::Ship) == truth[c],
        })
    }

    fn open(&self, problem: &Problem) -> usize {
        (0..problem.dims().cells())
            .filter(|&c| decided(problem, &self.marks, c) == Know::Unknown)
            .count()
    }

    fn names(&self, problem: &Problem, cells: &[usize]) -> Vec<String> {
        let d = problem.dims();
        cells.iter().map(|&c| d.cell_name(c)).collect()
    }
}

/// What the clue or, failing one, the mark at `cell` says of it.
fn decided(problem: &Problem, marks: &[Know], cell: usize) -> Know {
    match problem.spec().clue(cell) {
        Some(clue) => Know::of_clue(clue),
        None => marks.get(cell).copied().unwrap_or(Know::Unknown),
    }
}

/// The marks of `problem`, one per cell (none marked when it has no progress).
fn marks_of(problem: &Problem) -> Vec<Know> {
    let spec = problem.spec();
    match spec.progress.is_empty() {
        true => vec![Know::Unknown; problem.dims().cells()],
        false => spec.progress.clone(),
    }
}

/// `problem` with `marks` (those of `cells`) as clues: ship marks as ship cells, water marks
/// as water. A mark on a cell with a clue keeps the clue.
fn with_marks(problem: &Problem, marks: &[Know], cells: &[usize]) -> Result<Problem, Error> {
    let mut spec = problem.spec().clone();
    spec.progress.clear();
    if spec.clues.is_empty() {
        spec.clues = vec![None; problem.dims().cells()];
    }
    for &c in cells {
        if spec.clues[c].is_none() {
            spec.clues[c] = match marks[c] {
                Know::Ship => Some(Clue::Ship),
                Know::Water => Some(Clue::Water),
                Know::Unknown => None,
            };
        }
    }
    Ok(spec.build()?)
}

fn stopped(time_limit: Option<Duration>) -> Error {
    super::unanswered(time_limit)
}

/// Judges the marks of `problem` against its solutions within `deadline`.
fn verdict(
    problem: &Problem,
    engine: Engine,
    deadline: Option<Instant>,
    time_limit: Option<Duration>,
) -> Result<Verdict, Error> {
    let marks = marks_of(problem);
    let mut v = Verdict {
        marks,
        solutions: 0,
        reasons: Vec::new(),
        mistakes: Vec::new(),
        conflict: None,
        truth: None,
    };
    if let Some(no) = NoSolution::of(problem) {
        v.reasons = no.reasons;
        return Ok(v);
    }
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let to_two = CountOptions {
        limit: Some(2),
        time_limit: left(),
        ..CountOptions::default()
    };
    let r = engine.count(problem, &to_two)?;
    if !r.complete && r.count < 2 {
        return Err(stopped(time_limit));
    }
    v.solutions = r.count.min(2) as u8;
    let cells = problem.dims().cells();
    let marked: Vec<usize> = (0..cells)
        .filter(|&c| v.marks[c] != Know::Unknown)
        .collect();
    match v.solutions {
        0 => return Ok(v),
        1 => {
            let layout = engine
                .solve_until(problem, deadline)
                .ok_or_else(|| stopped(time_limit))?
                .0
                .ok_or_else(|| Error::Internal("a puzzle counted once has no solution".into()))?;
            let mut truth = vec![false; cells];
            for c in layout.cells() {
                truth[c] = true;
            }
            v.mistakes = marked
                .iter()
                .copied()
                .filter(|&c| (v.marks[c] == Know::Ship) != truth[c])
                .collect();
            v.truth = v.mistakes.is_empty().then_some(truth);
            return Ok(v);
        }
        _ => {}
    }
    let solve = |cells: &[usize]| -> Result<Option<Vec<bool>>, Error> {
        let p = with_marks(problem, &v.marks, cells)?;
        let found = engine
            .solve_until(&p, deadline)
            .ok_or_else(|| stopped(time_limit))?
            .0;
        Ok(found.map(|l| {
            let mut truth = vec![false; p.dims().cells()];
            for c in l.cells() {
                truth[c] = true;
            }
            truth
        }))
    };
    if let Some(truth) = solve(&marked)? {
        v.truth = Some(truth);
        return Ok(v);
    }
    // Some mark is wrong, or the marks fit no one solution together. A mark is right when a
    // solution has it: each solution found covers every mark it agrees with, so most marks
    // need no search of their own.
    let mut covered = vec![false; cells];
    for &c in &marked {
        if covered[c] {
            continue;
        }
        match solve(&[c])? {
            Some(truth) => {
                for &m in &marked {
                    covered[m] |= (v.marks[m] == Know::Ship) == truth[m];
                }
            }
            None => v.mistakes.push(c),
        }
    }
    if v.mistakes.is_empty() {
        // The first mark that no solution shares with the marks before it. Each mark alone
        // fits some solution, so the search ends at a mark past the first.
        for k in 1..marked.len() {
            if solve(&marked[..=k])?.is_none() {
                v.conflict = Some(marked[k]);
                break;
            }
        }
    }
    Ok(v)
}

/// Judges a person's marks (the problem's progress) against the puzzle's solutions: the marks
/// no solution allows, or that the marks are right so far, or that they solve the puzzle; a
/// puzzle with no solution says so. `options`' engine counts and solves, within its time
/// limit ([`Error::Stopped`] past it). A puzzle with one solution costs a count to two and a solve;
/// one with several, a solve with the marks as clues and, when that finds none, a solve for
/// each mark no solution found so far agrees with.
pub fn check(problem: &Problem, options: &super::Options) -> Result<CheckReport, Error> {
    let (engine, time_limit) = (options.engine, options.count.time_limit);
    let deadline = time_limit.and_then(|t| Instant::now().checked_add(t));
    let v = verdict(problem, engine, deadline, time_limit)?;
    Ok(CheckReport {
        name: problem.spec().meta.name.clone(),
        correct: v.solutions > 0 && v.mistakes.is_empty() && v.conflict.is_none(),
        solved: v.solved(problem),
        mistakes: v.names(problem, &v.mistakes),
        conflict: v.conflict.map(|c| problem.dims().cell_name(c)),
        marked: v.marks.iter().filter(|&&k| k != Know::Unknown).count(),
        open: v.open(problem),
        solutions: v.solutions,
        reasons: v.reasons.clone(),
    })
}

/// The next step from a person's marks (the problem's progress): their mistakes first (the
/// first in reading order, or `all` of them), else the logical solver's next deduction, else
/// (where the rules decide nothing more) a search step revealing one cell of the solution.
/// Costs what [`check`] does, and one logical step (a few rule passes; a contradiction step
/// tries each open cell under tiers 1 to 3).
pub fn hint(problem: &Problem, options: &super::Options, all: bool) -> Result<HintReport, Error> {
    let (engine, time_limit) = (options.engine, options.count.time_limit);
    let deadline = time_limit.and_then(|t| Instant::now().checked_add(t));
    let v = verdict(problem, engine, deadline, time_limit)?;
    let shown = if all {
        &v.mistakes[..]
    } else {
        &v.mistakes[..v.mistakes.len().min(1)]
    };
    let solved = v.solved(problem);
    let step = match (&v.truth, solved) {
        (Some(truth), false) => Some(next_step(problem, &v.marks, truth, v.solutions == 1)),
        _ => None,
    };
    Ok(HintReport {
        name: problem.spec().meta.name.clone(),
        solved,
        mistakes: v.names(problem, shown),
        conflict: v.conflict.map(|c| problem.dims().cell_name(c)),
        step,
        open: v.open(problem),
        solutions: v.solutions,
        reasons: v.reasons.clone(),
    })
}

/// The logical solver's next step from `marks`, or a search step from `truth` (a solution
/// that agrees with every mark; `unique` when it is the puzzle's only one).
fn next_step(problem: &Problem, marks: &[Know], truth: &[bool], unique: bool) -> HintStep {
    let d = problem.dims();
    let names = |cells: &mut dyn Iterator<Item = usize>| -> Vec<String> {
        cells.map(|c| d.cell_name(c)).collect()
    };
    let rules = logic::supports(problem).is_ok();
    if rules
        && let Ok(o) = logic::next_step(problem, marks)
        && let Some(s) = o.steps.first()
    {
        let of = |k: Know| names(&mut s.cells.iter().filter(|c| c.1 == k).map(|c| c.0));
        return HintStep {
            rule: s.rule,
            tier: s.tier,
            search: false,
            text: s.why.clone(),
            ship: of(Know::Ship),
            water: of(Know::Water),
        };
    }
    let open: Vec<usize> = (0..d.cells())
        .filter(|&c| decided(problem, marks, c) == Know::Unknown)
        .collect();
    let cell = if rules {
        best_reveal(problem, marks, truth, &open)
    } else {
        // No rules to measure by: the first open ship cell, else the first open cell.
        open.iter()
            .copied()
            .find(|&c| truth[c])
            .or(open.first().copied())
            .unwrap_or(0)
    };
    let what = if truth[cell] { "a ship" } else { "water" };
    let why = match (rules, problem.spec().rules) {
        (true, _) => "the rules decide nothing more from here",
        (false, _) if !problem.fleet().is_straight() => {
            "the logical rules are for straight ships, and this fleet has other shapes"
        }
        (false, crate::Rules::Touch) => {
            "the logical rules are for ships that never touch, and these may"
        }
        (false, _) => "the logical rules do not take this puzzle",
    };
    let whose = if unique {
        "the solution"
    } else {
        "one of its solutions that fits your marks"
    };
    let (ship, water) = if truth[cell] {
        (vec![d.cell_name(cell)], Vec::new())
    } else {
        (Vec::new(), vec![d.cell_name(cell)])
    };
    HintStep {
        rule: "search",
        tier: SEARCH_TIER,
        search: true,
        text: format!(
            "{why}; search says {} is {what} in {whose}",
            d.cell_name(cell)
        ),
        ship,
        water,
    }
}

/// The open cell whose value in `truth`, added to the marks, lets tiers 1 to 3 decide the most
/// cells: the search step that helps most.
fn best_reveal(problem: &Problem, marks: &[Know], truth: &[bool], open: &[usize]) -> usize {
    let trials: Vec<(usize, Know)> = open
        .iter()
        .map(|&c| (c, if truth[c] { Know::Ship } else { Know::Water }))
        .collect();
    logic::most_telling(problem, 3, marks, &trials)
        .ok()
        .flatten()
        .map_or(open.first().copied().unwrap_or(0), |t| t.0)
}
