//! The crate's error: every way a question cannot be answered, by area.
//!
//! Each area has its own error type (a [`ParseError`] from a reader, a [`ProblemError`] from
//! [`crate::ProblemSpec::build`], a [`CountError`] from an engine, ...); [`Error`] gathers them
//! for the functions that cross areas, such as those of [`crate::answer`], and says which are
//! the user's input ([`Error::is_bad_input`]) and which are failures to answer. The command
//! line maps the first to exit code 2 and the second to 3.
//!
//! "No solution" and "not unique" are answers, not errors: they are reports.

use crate::choice::UnknownChoice;
use crate::engine::CountError;
use crate::fleet::FleetError;
use crate::format::ParseError;
use crate::generate::GenerateError;
use crate::geom::SizeError;
use crate::logic::LogicUnsupported;
use crate::problem::ProblemError;
use crate::sample::SampleError;

/// A question that could not be answered; see the module documentation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Malformed input: file, line and column.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A well-formed problem that describes no possible board.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// A fleet description that cannot be read.
    #[error(transparent)]
    Fleet(#[from] FleetError),
    /// A board size that cannot be read or is not supported.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A word that names none of the choices of its kind.
    #[error(transparent)]
    Choice(#[from] UnknownChoice),
    /// The logical solver does not take the problem.
    #[error(transparent)]
    Logic(#[from] LogicUnsupported),
    /// A count that could not be given.
    #[error(transparent)]
    Count(#[from] CountError),
    /// A sampler that could not be prepared.
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// A puzzle that could not be generated.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// An input that is wrong for the question asked (several problems where one is
    /// needed, a samples file with no sample, ...).
    #[error("{0}")]
    Request(String),
    /// An error while answering one named problem of several. Its message says the whole
    /// error (not a source to chain, which would print it twice).
    #[error("{problem}: {error}")]
    In {
        /// The problem's label.
        problem: String,
        /// What went wrong.
        error: Box<Error>,
    },
    /// A run was stopped (its time limit, a Ctrl-C) before it had anything to report.
    #[error("{0}")]
    Stopped(String),
    /// An engine broke its own promise (a solution that fails the independent check).
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The same error, said of the problem labelled `problem`.
    pub fn in_problem(self, problem: impl Into<String>) -> Error {
        Error::In {
            problem: problem.into(),
            error: Box::new(self),
        }
    }

    /// Whether the error is in the user's input or request (rather than a failure to answer
    /// a well-posed question).
    pub fn is_bad_input(&self) -> bool {
        match self {
            Error::Parse(_)
            | Error::Problem(_)
            | Error::Fleet(_)
            | Error::Size(_)
            | Error::Choice(_)
            | Error::Logic(_)
            | Error::Request(_)
            | Error::Count(CountError::Declined(_))
            | Error::Generate(GenerateError::Request(_)) => true,
            Error::In { error, .. } => error.is_bad_input(),
            _ => false,
        }
    }
}
