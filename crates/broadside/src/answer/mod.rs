//! Answers to the questions broadside is asked, as typed reports.
//!
//! Each question is one function over a built [`Problem`]: [`solve()`], [`count()`],
//! [`probs()`], [`best()`], [`explain()`], [`grade()`], [`check()`], [`hint()`], [`sample()`],
//! [`estimate()`] and [`validate()`]; [`summarize()`] and [`compare()`] read the games of
//! simulations. The questions over a problem take its [`Options`] (the engine, the limits,
//! per-cell counts, how identical ships count), built by name from [`Options::new`]. Each
//! returns a report that
//! serializes to exactly the JSON the command line prints with `--json` (`docs/JSON.md`), so
//! a program, a web server or a Python binding gets the same answer as a person at the
//! terminal. Reports say whether they are a yes ([`SolveReport::answered`] and the like):
//! "no solution" and "not unique" are answers, not errors, and the command line turns them
//! into exit code 1.
//!
//! [`build`] turns one problem of a file into a [`Problem`], naming it in the error;
//! [`problems`] reads a whole file (a JSON-lines collection, say) into problems one at a time.
//!
//! ```
//! use broadside::{Dims, Engine, Fleet, ProblemSpec, Rules, answer, answer::Options};
//! use std::time::Duration;
//! let spec = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch);
//! let p = answer::build(spec).unwrap();
//! let report = answer::count(&p, &Options::new()).unwrap();
//! assert_eq!(serde_json::to_value(&report).unwrap()["count"], 524);
//!
//! // The same count by SAT, with the layouts on each cell, within a second.
//! let asked = Options::new().engine(Engine::Sat).per_cell().time_limit(Duration::from_secs(1));
//! let report = serde_json::to_value(answer::count(&p, &asked).unwrap()).unwrap();
//! assert_eq!(report["per_cell"][0][0], 84);
//!
//! // Every record of a JSON-lines file, solved and checked against its recorded solution.
//! let lines = concat!(
//!     r#"{"id": "a", "height": 4, "width": 4, "rows": [2, 0, 1, 1], "cols": [2, 1, 0, 1], "#,
//!     r#""fleet": {"1": 2, "2": 1}, "hints": [[0, 0, "L"], [3, 3, "S"]], "#,
//!     r#""solution": ["<>..", "....", "o...", "...o"]}"#,
//! );
//! for p in answer::problems("puzzles.jsonl", lines).unwrap() {
//!     assert!(answer::solve(&p.unwrap(), &Options::new()).unwrap().answered());
//! }
//! ```

mod count;
mod logic;
mod probs;
mod progress;
mod sample;
mod solve;
mod summarize;

pub use count::{CountReport, Counted, Identical, Part, count, count_part};
pub use logic::{
    ExplainReport, Explained, GradeReport, GradeTally, Graded, StepReport, explain, grade,
};
pub use probs::{
    Best, BestCell, BestReport, HeatReport, NoMap, ProbsReport, best, best_in, probs, probs_in,
};
pub use progress::{CheckReport, HintReport, HintStep, SEARCH_TIER, check, hint};
pub use sample::{
    Drawn, Ending, SampleOptions, SampleReport, ValidateReport, estimate, sample, validate,
    validate_samples, validate_with,
};
pub use solve::{SolveReport, Solved, solve};
pub use summarize::{GamesSummary, PairedSummary, ShotsFile, compare, summarize};

pub use crate::diagnose::NoLayout;

use num_bigint::BigUint;
use serde::Serialize;

use crate::check::{self, RecordedMismatch};
use crate::engine::{CountOptions, Engine};
use crate::error::Error;
use crate::problem::{Problem, ProblemSpec};

/// How a question over a problem is answered: by which engine, within which limits, with or
/// without per-cell counts, and how identical ships count. The default is `auto` with no
/// limit; the builder methods name what differs:
/// `Options::new().engine(Engine::Sat).time_limit(Duration::from_secs(5))`.
///
/// Each question reads what applies to it: [`count()`] all of it; [`probs()`] and [`best()`]
/// the engine and the count's limits (they always count per cell); [`solve()`],
/// [`explain()`], [`check()`] and [`hint()`] the engine and the time limit; [`grade()`] the
/// time limit; [`count_part()`] all but the engine (parts are the enumerator's).
#[derive(Clone, Default)]
pub struct Options {
    /// The engine that answers ([`Engine::Auto`] unless told).
    pub engine: Engine,
    /// How to count: limits, per-cell counts, threads, progress, cancellation.
    pub count: CountOptions,
    /// How identical ships are counted ([`count()`] only).
    pub identical: Identical,
}

impl Options {
    /// `auto`, no limits, identical ships interchangeable.
    pub fn new() -> Options {
        Options::default()
    }

    /// Answered by `engine`.
    pub fn engine(mut self, engine: Engine) -> Options {
        self.engine = engine;
        self
    }

    /// Answered within `limit` (a duration, or an `Option` of one): past it a count is
    /// partial, and a question that cannot be partial is [`Error::Stopped`].
    pub fn time_limit(mut self, limit: impl Into<Option<std::time::Duration>>) -> Options {
        self.count.time_limit = limit.into();
        self
    }

    /// A count stops once `n` layouts are seen.
    pub fn limit(mut self, n: u128) -> Options {
        self.count.limit = Some(n);
        self
    }

    /// Counts, for each cell, the layouts with a ship on it too.
    pub fn per_cell(mut self) -> Options {
        self.count.per_cell = true;
        self
    }

    /// Counts on every core.
    pub fn parallel(mut self) -> Options {
        self.count.parallel = true;
        self
    }

    /// Counts identical ships told apart ([`Identical::Labelled`]).
    pub fn labelled(mut self) -> Options {
        self.identical = Identical::Labelled;
        self
    }

    /// Counts as `count` says (every count option at once).
    pub fn counting(mut self, count: CountOptions) -> Options {
        self.count = count;
        self
    }
}

/// A problem's label in messages: its name, or its size, fleet and rules.
pub fn label(p: &Problem) -> String {
    p.spec().meta.name.clone().unwrap_or_else(|| {
        let digital = if p.spec().is_digital() {
            " digital"
        } else {
            ""
        };
        format!(
            "{} {} {}{digital}",
            p.dims(),
            p.fleet().describe(),
            p.rules()
        )
    })
}

/// Builds a problem, naming it (when it has a name) in the error.
pub fn build(spec: ProblemSpec) -> Result<Problem, Error> {
    let name = spec.meta.name.clone();
    spec.build().map_err(|e| match name {
        Some(n) => Error::from(e).in_problem(n),
        None => Error::from(e),
    })
}

/// The problems of a file's content (any format [`crate::format::read`] takes; `name` is for
/// messages and for telling formats apart), each built when the iterator reaches it, so a
/// long collection is answered as it is read.
pub fn problems(
    name: &str,
    content: &str,
) -> Result<impl Iterator<Item = Result<Problem, Error>> + use<>, Error> {
    let specs = crate::format::read(name, content)?;
    Ok(specs.into_iter().map(build))
}

/// How the solution recorded with `problem` disagrees with it, if it does: it must solve the
/// problem, and for a puzzle (a problem with row or column counts, whose recorded solution
/// claims to be the answer) it must be the only solution. A game state's recorded layout (the
/// hidden fleet) need only be consistent with the shots. The same whatever engine answers
/// the question: uniqueness is decided by counting to two with `auto`'s race.
pub fn recorded_mismatch(problem: &Problem) -> Option<RecordedMismatch> {
    mismatch_given(problem, None)
}

/// [`recorded_mismatch`], told whether there are several layouts when that is already known
/// (so it need not count again).
fn mismatch_given(problem: &Problem, several: Option<bool>) -> Option<RecordedMismatch> {
    let spec = problem.spec();
    spec.solution.as_ref()?;
    if let Err(e) = check::recorded(problem.given()) {
        return Some(e);
    }
    let puzzle = !spec.rows.is_empty() || !spec.cols.is_empty();
    let several = || {
        several.unwrap_or_else(|| {
            let to_two = CountOptions {
                limit: Some(2),
                ..CountOptions::default()
            };
            Engine::Auto
                .count(problem, &to_two)
                .is_ok_and(|r| r.count > 1)
        })
    };
    (puzzle && several()).then_some(RecordedMismatch::NotUnique)
}

/// The answer "no solution", found without search: the problem's obvious conflicts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoSolution {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always false.
    pub solved: bool,
    /// Always 0.
    pub count: u8,
    /// The conflicts, as sentences ([`Problem::conflicts`]); empty when search, not a rule,
    /// found there is no solution.
    pub reasons: Vec<String>,
}

impl NoSolution {
    /// The report of `problem`'s obvious conflicts, or `None` when it has none.
    pub fn of(problem: &Problem) -> Option<NoSolution> {
        let conflicts = problem.conflicts();
        (!conflicts.is_empty()).then(|| NoSolution {
            reasons: conflicts.iter().map(|c| c.to_string()).collect(),
            ..NoSolution::searched(problem)
        })
    }

    /// "No solution", found by search.
    pub fn searched(problem: &Problem) -> NoSolution {
        NoSolution {
            name: problem.spec().meta.name.clone(),
            solved: false,
            count: 0,
            reasons: Vec::new(),
        }
    }
}

/// The error of a search that had not answered within `time_limit`.
fn unanswered(time_limit: Option<std::time::Duration>) -> Error {
    Error::Stopped(match time_limit {
        Some(t) => format!(
            "no answer within the time limit of {} s (the search had neither found a solution nor proved there is none)",
            t.as_secs_f64()
        ),
        None => "the search was stopped before it answered".into(),
    })
}

/// Serializes an optional error as its sentence.
fn sentence<E: std::fmt::Display, S: serde::Serializer>(
    e: &Option<E>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => s.collect_str(e),
        None => s.serialize_none(),
    }
}

/// A board's values row by row, as the reports give per-cell figures.
fn rows<T>(width: usize, values: impl IntoIterator<Item = T>) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let mut row = Vec::with_capacity(width);
    for v in values {
        row.push(v);
        if row.len() == width {
            out.push(std::mem::replace(&mut row, Vec::with_capacity(width)));
        }
    }
    out
}

/// A count of any size as a JSON number, digit for digit (serde_json keeps numbers of
/// arbitrary precision): never a float, never a string.
fn number(n: &BigUint) -> serde_json::Number {
    n.to_string()
        .parse()
        .expect("the digits of an integer are a JSON number")
}

/// Serializes a count of any size as an exact JSON integer ([`number`]).
fn exact<S: serde::Serializer>(n: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    number(n).serialize(s)
}

/// Serializes rows of counts of any size as exact JSON integers ([`number`]).
fn exact_grid<S: serde::Serializer>(rows: &[Vec<BigUint>], s: S) -> Result<S::Ok, S::Error> {
    rows.iter()
        .map(|r| r.iter().map(number).collect())
        .collect::<Vec<Vec<_>>>()
        .serialize(s)
}

/// [`exact_grid`], when there are rows.
fn exact_rows<S: serde::Serializer>(
    rows: &Option<Vec<Vec<BigUint>>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match rows {
        Some(rows) => exact_grid(rows, s),
        None => s.serialize_none(),
    }
}
