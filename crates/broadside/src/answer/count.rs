//! `count`: how many layouts fit a problem (and so whether it is unique), optionally per
//! cell and with identical ships told apart.

use std::time::Instant;

use serde::Serialize;

use super::{NoSolution, Options, rows};
use num_bigint::BigUint;

use crate::check::RecordedMismatch;
use crate::engine::{EngineKind, Stop};
use crate::error::Error;
use crate::problem::Problem;

/// What [`count`] found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CountReport {
    /// A count, complete or partial.
    Counted(Counted),
    /// No solution, from the problem's obvious conflicts (without counting).
    NoSolution(NoSolution),
}

/// A count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counted {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Layouts counted (times the labelling factor when `labelled`): exact when
    /// `complete`, else a lower bound. Of any size; JSON writes it as an exact integer.
    #[serde(serialize_with = "super::exact")]
    pub count: BigUint,
    /// Whether every layout was counted.
    pub complete: bool,
    /// Why the count stopped early: `limit`, `time` or `overflow`.
    pub partial_reason: Option<Stop>,
    /// Whether there is exactly one layout (`None` when the count is partial).
    pub unique: Option<bool>,
    /// Whether identical ships were told apart.
    pub labelled: bool,
    /// Per row, per cell: the layouts with a ship there, when asked for.
    #[serde(serialize_with = "super::exact_rows")]
    pub per_cell: Option<Vec<Vec<BigUint>>>,
    /// The engine that counted.
    pub engine: EngineKind,
    /// Time taken.
    pub seconds: f64,
    /// Whether the problem is a puzzle (has row or column counts), for which uniqueness is
    /// news.
    #[serde(skip)]
    pub puzzle: bool,
    /// How the recorded solution disagrees with the unique one, when it does.
    #[serde(
        rename = "recorded_mismatch",
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::sentence"
    )]
    pub mismatch: Option<RecordedMismatch>,
    /// The part of the layouts counted, when the count is one of several parts
    /// ([`count_part`]): the parts' counts add up to the count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<Part>,
}

/// Part `index` of `of` (from 0) of a count in parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Part {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts.
    pub of: usize,
}

impl CountReport {
    /// Whether the answer is a yes: some layout exists (or the count was cut short before
    /// deciding), and a recorded solution agrees with a unique one. A part of a count is
    /// an answer whatever it holds: an empty part says nothing of the whole.
    pub fn answered(&self) -> bool {
        match self {
            CountReport::Counted(c) => {
                (c.part.is_some() || !(c.complete && c.count == BigUint::ZERO))
                    && c.mismatch.is_none()
            }
            CountReport::NoSolution(_) => false,
        }
    }
}

impl Counted {
    /// The count in words: "1 solution (unique)", "at least 12 layouts (stopped at the
    /// limit)", ...
    pub fn describe(&self) -> String {
        let n = &self.count;
        let one = *n == BigUint::from(1u8);
        let noun = if one { "layout" } else { "layouts" };
        if let Some(Part { index, of }) = self.part {
            let whole = format!("{n} {noun} in part {index} of {of}");
            return match self.partial_reason {
                None => whole,
                Some(_) => format!("at least {whole} (partial: time limit reached)"),
            };
        }
        // Told apart, one layout counts many times: uniqueness is about layouts, and the
        // count is said to be of labelled ones.
        if self.labelled && *n != BigUint::ZERO {
            let counted = match self.partial_reason {
                None => format!("{n} labelled {noun}"),
                Some(_) => format!("at least {n} labelled {noun}"),
            };
            return match (self.unique, self.puzzle) {
                (Some(true), _) => {
                    format!("1 solution (unique); {counted} with identical ships told apart")
                }
                (Some(false), true) => {
                    format!("{counted}, identical ships told apart (not unique)")
                }
                _ => format!("{counted}, identical ships told apart"),
            };
        }
        match self.partial_reason {
            None if one => "1 solution (unique)".to_string(),
            None if *n == BigUint::ZERO => "no solution".to_string(),
            None if self.puzzle => format!("{n} {noun} (not unique)"),
            None => format!("{n} {noun}"),
            Some(Stop::Limit) => format!("at least {n} {noun} (stopped at the limit)"),
            Some(Stop::Time) => format!("at least {n} {noun} (partial: time limit reached)"),
            Some(Stop::Overflow) => "count overflow".to_string(),
            Some(Stop::Cancelled) => format!("at least {n} {noun} (partial: cancelled)"),
        }
    }
}

/// How identical ships are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Identical {
    /// Interchangeable: a layout is a set of placements, counted once (broadside's
    /// convention).
    #[default]
    Interchangeable,
    /// Told apart: each layout counted once per way of labelling its identical ships (the
    /// count times [`crate::Fleet::labelling_factor`]), as some papers count.
    Labelled,
}

/// Counts the layouts of `problem` as `options` say (engine, limits, per cell, identical
/// ships). A unique layout is compared with the recorded solution.
pub fn count(problem: &Problem, options: &Options) -> Result<CountReport, Error> {
    if let Some(no) = NoSolution::of(problem) {
        return Ok(CountReport::NoSolution(no));
    }
    let start = Instant::now();
    let r = options.engine.count_big(problem, &options.count)?;
    Ok(report(problem, r, start, options.identical, None))
}

/// Counts part `part.index` of `part.of` of the layouts of `problem` with the enumerator
/// ([`crate::Enumerator::count_part`]): the layouts under every `of`-th subtree of its
/// search. The parts' counts (per cell too) add up to [`count`]'s, for any number of parts;
/// a part says nothing of uniqueness. A count limit and the engine of `options` are ignored.
pub fn count_part(problem: &Problem, options: &Options, part: Part) -> Result<CountReport, Error> {
    if let Some(no) = NoSolution::of(problem) {
        return Ok(CountReport::NoSolution(no));
    }
    let start = Instant::now();
    let r = crate::Enumerator::new(problem).count_part(&options.count, part.index, part.of)?;
    Ok(report(
        problem,
        r.into_big(),
        start,
        options.identical,
        Some(part),
    ))
}

/// The report of a count `r` of `problem` (of one part of it, with `part`) begun at `start`.
fn report(
    problem: &Problem,
    r: crate::engine::CountResult<BigUint>,
    start: Instant,
    identical: Identical,
    part: Option<Part>,
) -> CountReport {
    let seconds = start.elapsed().as_secs_f64();
    let labelled = identical == Identical::Labelled;
    let factor = if labelled {
        problem.fleet().labelling_factor()
    } else {
        BigUint::from(1u8)
    };
    let per_cell = r
        .per_cell
        .map(|pc| rows(problem.dims().width, pc.into_iter().map(|x| x * &factor)));
    // Two layouts found settle uniqueness even when the count stopped there; a part settles
    // nothing.
    let several = r.count > BigUint::from(1u8);
    let whole = part.is_none();
    let mismatch = whole
        .then(|| super::mismatch_given(problem, (r.complete || several).then_some(several)))
        .flatten();
    let spec = problem.spec();
    CountReport::Counted(Counted {
        name: spec.meta.name.clone(),
        unique: (r.complete && whole).then_some(r.count == BigUint::from(1u8)),
        count: r.count * factor,
        complete: r.complete,
        partial_reason: r.stopped,
        labelled,
        per_cell,
        engine: r.engine,
        seconds,
        puzzle: !spec.rows.is_empty() || !spec.cols.is_empty(),
        mismatch,
        part,
    })
}
