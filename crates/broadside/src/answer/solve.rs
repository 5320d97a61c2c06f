//! `solve`: one solution, checked by the independent validator and against the recorded one.

use std::time::Instant;

use serde::Serialize;

use super::NoSolution;
use crate::check::{self, RecordedMismatch};
use crate::engine::EngineKind;
use crate::error::Error;
use crate::layout::Layout;
use crate::problem::Problem;

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SolveReport {
    /// A solution.
    Solved(Solved),
    /// No solution: the obvious conflicts, or none when search found it.
    NoSolution(NoSolution),
}

/// A solution found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solved {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always true.
    pub solved: bool,
    /// The solution in the layout picture form, one string per row.
    pub solution: Vec<String>,
    /// Whether it equals the solution recorded with the problem (`None`: none recorded). A game
    /// state has many layouts, and the one found need not be the recorded one.
    pub matches_recorded: Option<bool>,
    /// The engine that solved.
    pub engine: EngineKind,
    /// Time taken by the engine.
    pub seconds: f64,
    /// The solution.
    #[serde(skip)]
    pub layout: Layout,
    /// How the recorded solution disagrees, when it does.
    #[serde(
        rename = "recorded_mismatch",
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::sentence"
    )]
    pub mismatch: Option<RecordedMismatch>,
}

impl SolveReport {
    /// Whether the answer is a yes: solved, and the recorded solution (if any) agrees.
    pub fn answered(&self) -> bool {
        matches!(self, SolveReport::Solved(s) if s.mismatch.is_none())
    }
}

/// One solution of `problem` by `options`' engine, re-checked by [`check::layout`] and
/// compared with the recorded solution; [`Error::Stopped`] if the search has not answered (a
/// solution, or the proof that there is none) within the time limit.
pub fn solve(problem: &Problem, options: &super::Options) -> Result<SolveReport, Error> {
    let (engine, time_limit) = (options.engine, options.count.time_limit);
    if let Some(no) = NoSolution::of(problem) {
        return Ok(SolveReport::NoSolution(no));
    }
    let start = Instant::now();
    let (found, solver) = engine
        .solve_until(problem, time_limit.and_then(|t| start.checked_add(t)))
        .ok_or_else(|| super::unanswered(time_limit))?;
    let seconds = start.elapsed().as_secs_f64();
    let Some(layout) = found else {
        return Ok(SolveReport::NoSolution(NoSolution::searched(problem)));
    };
    if let Err(e) = check::layout(problem.spec(), &layout) {
        return Err(Error::Internal(format!(
            "the engine's solution fails the check: {}",
            e.join("; ")
        )));
    }
    let recorded = problem.spec().solution.as_ref();
    Ok(SolveReport::Solved(Solved {
        name: problem.spec().meta.name.clone(),
        solved: true,
        solution: layout.to_rows(problem.dims(), problem.fleet()),
        matches_recorded: recorded.map(|r| *r == layout),
        mismatch: super::recorded_mismatch(problem),
        engine: solver,
        seconds,
        layout,
    }))
}
