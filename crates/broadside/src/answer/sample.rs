//! `sample` and `validate`: random layouts of a problem, the heat map they estimate, and a
//! sampler (or any file of samples) judged against the exact answer, as reports. What to do
//! when no layout fits, when the time limit runs out before or while drawing, and when a
//! rejection-style sampler gives up is decided here, once, for every surface.

use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use serde::Serialize;

use crate::diagnose::{NoLayout, no_layout};
use crate::error::Error;
use crate::judge::{Judge, Judgement};
use crate::layout::Layout;
use crate::problem::Problem;
use crate::sample::{self, Estimate, GaveUp, MAX_ATTEMPTS, SampleError, Sampler, SamplerKind};

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleOptions {
    /// How many layouts.
    pub n: u64,
    /// The sampler that draws them.
    pub sampler: SamplerKind,
    /// The longest the sampler may take, preparing included; the layouts drawn by then are
    /// kept.
    pub time_limit: Option<Duration>,
}

/// How drawing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Every layout asked for was drawn.
    Complete,
    /// The time limit ran out first.
    TimeUp,
    /// A rejection-style sampler saw [`MAX_ATTEMPTS`] draws in a row rejected.
    GaveUp,
}

/// What was drawn, and how drawing ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Drawn {
    /// Layouts drawn.
    pub drawn: u64,
    /// Layouts asked for.
    pub asked: u64,
    /// How drawing ended.
    pub ending: Ending,
    /// For rejection-style samplers, the share of draws kept.
    pub acceptance: Option<f64>,
    /// How the sampler drew ([`Sampler::method`]).
    pub method: &'static str,
}

impl Drawn {
    /// Whether every layout asked for was drawn.
    pub fn answered(&self) -> bool {
        self.ending == Ending::Complete
    }

    /// What stopped drawing early, in words; `None` when it did not stop.
    pub fn shortfall(&self) -> Option<String> {
        match self.ending {
            Ending::Complete => None,
            Ending::TimeUp => Some(format!(
                "the time limit ran out after {} of {} layouts",
                self.drawn, self.asked
            )),
            Ending::GaveUp => Some(format!(
                "the sampler gave up after {} of {} layouts ({MAX_ATTEMPTS} rejected draws in a row)",
                self.drawn, self.asked
            )),
        }
    }
}

/// The answer of `sample`: what was drawn, or why nothing could be.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SampleReport {
    /// No layout fits: the problem has an obvious conflict, the uniform sampler's count found
    /// none, or a sampler that never rejects drew none.
    NoLayout(NoLayout),
    /// The time limit ran out before the sampler was ready: nothing was drawn.
    NotReady {
        /// The problem's name, when it has one.
        name: Option<String>,
        /// What happened, in words.
        not_ready: String,
    },
    /// A rejection-style sampler drew nothing: every one of [`MAX_ATTEMPTS`] draws in a row
    /// was rejected, which says nothing about whether a layout exists.
    GaveUp(GaveUp),
    /// Layouts drawn, each handed to the caller as it came.
    Drawn(Drawn),
    /// The heat map the layouts drawn estimate.
    Estimated {
        /// The estimate.
        #[serde(flatten)]
        estimate: Estimate,
        /// What was drawn for it.
        #[serde(skip)]
        drawn: Drawn,
    },
}

impl SampleReport {
    /// Whether every layout asked for was drawn.
    pub fn answered(&self) -> bool {
        match self {
            SampleReport::Drawn(d) => d.answered(),
            SampleReport::Estimated { drawn, .. } => drawn.answered(),
            _ => false,
        }
    }
}

/// The sampler for `problem`, or the report that says why there is none.
fn prepare(
    problem: &Arc<Problem>,
    sampler: SamplerKind,
    time_limit: Option<Duration>,
) -> Result<Result<Sampler, Box<SampleReport>>, Error> {
    if !problem.conflicts().is_empty() {
        return Ok(Err(Box::new(SampleReport::NoLayout(no_layout(problem)))));
    }
    match Sampler::within(problem.clone(), sampler, time_limit) {
        Ok(s) => Ok(Ok(s)),
        Err(SampleError::NoLayout) => Ok(Err(Box::new(SampleReport::NoLayout(no_layout(problem))))),
        Err(SampleError::Time) => Ok(Err(Box::new(SampleReport::NotReady {
            name: problem.spec().meta.name.clone(),
            not_ready: SampleError::Time.to_string(),
        }))),
        Err(e) => Err(e.into()),
    }
}

/// How drawing `drawn` of `asked` layouts with `sampler` ended; `Err` with the report when
/// nothing was drawn of something asked.
fn ending(
    problem: &Problem,
    sampler: &Sampler,
    drawn: u64,
    asked: u64,
) -> Result<Drawn, Box<SampleReport>> {
    let ending = if sampler.timed_out() {
        Ending::TimeUp
    } else if drawn < asked {
        Ending::GaveUp
    } else {
        Ending::Complete
    };
    let report = Drawn {
        drawn,
        asked,
        ending,
        acceptance: sampler.acceptance(),
        method: sampler.method(),
    };
    if drawn == 0 && asked > 0 && ending == Ending::GaveUp {
        return Err(Box::new(if sampler.acceptance().is_none() {
            // A sampler that never rejects found nothing to draw.
            SampleReport::NoLayout(no_layout(problem))
        } else {
            SampleReport::GaveUp(GaveUp {
                name: problem.spec().meta.name.clone(),
                drawn: 0,
                gave_up: format!(
                    "{}: the {} sampler gave up: {MAX_ATTEMPTS} draws in a row were all rejected (too tight for it; no answer about whether a layout exists)",
                    super::label(problem),
                    sampler.method()
                ),
            })
        }));
    }
    Ok(report)
}

/// Draws `opts.n` layouts of `problem`, handing each to `each` as it comes (which may stop
/// the run with an error, e.g. a write that failed), and says how drawing ended.
pub fn sample<E: From<Error>>(
    problem: Arc<Problem>,
    opts: &SampleOptions,
    rng: &mut dyn Rng,
    mut each: impl FnMut(Layout) -> Result<(), E>,
) -> Result<SampleReport, E> {
    let mut sampler = match prepare(&problem, opts.sampler, opts.time_limit)? {
        Ok(s) => s,
        Err(report) => return Ok(*report),
    };
    let mut drawn = 0;
    while drawn < opts.n {
        let Some(layout) = sampler.sample(rng) else {
            break;
        };
        drawn += 1;
        each(layout)?;
    }
    Ok(match ending(&problem, &sampler, drawn, opts.n) {
        Ok(d) => SampleReport::Drawn(d),
        Err(report) => *report,
    })
}

/// The heat map `opts.n` layouts of `problem` estimate, with a 95% interval per cell.
pub fn estimate(
    problem: Arc<Problem>,
    opts: &SampleOptions,
    rng: &mut dyn Rng,
) -> Result<SampleReport, Error> {
    let mut sampler = match prepare(&problem, opts.sampler, opts.time_limit)? {
        Ok(s) => s,
        Err(report) => return Ok(*report),
    };
    let est = sample::estimate(&mut sampler, opts.n, rng);
    Ok(match ending(&problem, &sampler, est.samples, opts.n) {
        Ok(drawn) => SampleReport::Estimated {
            estimate: est,
            drawn,
        },
        Err(report) => *report,
    })
}

/// The answer of `validate`: a sampler's (or a file's) samples judged, or why they could not
/// be.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ValidateReport {
    /// No layout fits the problem.
    NoLayout(NoLayout),
    /// The time limit ran out before the sampler was ready: nothing was judged.
    NotReady {
        /// The problem's name, when it has one.
        name: Option<String>,
        /// What happened, in words.
        not_ready: String,
    },
    /// The samples judged.
    Judged(Judgement),
}

impl ValidateReport {
    /// Whether the samples pass.
    pub fn answered(&self) -> bool {
        matches!(self, ValidateReport::Judged(j) if j.pass)
    }
}

/// The judge of `problem`, or the report that says no layout fits.
fn judge_of(problem: &Problem) -> Result<Result<Judge<'_>, ValidateReport>, Error> {
    if !problem.conflicts().is_empty() {
        return Ok(Err(ValidateReport::NoLayout(no_layout(problem))));
    }
    Ok(Judge::new(problem)?.ok_or_else(|| ValidateReport::NoLayout(no_layout(problem))))
}

/// Draws `opts.n` layouts of `problem` with `opts.sampler` and judges them against the exact
/// answer; `source` is added to the judgement's words for where they came from (", seed 7").
/// Fewer are judged when the sampler stops early ([`Judgement::samples`] says how many).
pub fn validate(
    problem: &Problem,
    opts: &SampleOptions,
    source: &str,
    rng: &mut dyn Rng,
) -> Result<ValidateReport, Error> {
    validate_with(problem, opts, source, rng, &|_| {})
}

/// [`validate`], telling `progress` how many samples are drawn after each one.
pub fn validate_with(
    problem: &Problem,
    opts: &SampleOptions,
    source: &str,
    rng: &mut dyn Rng,
    progress: &dyn Fn(u64),
) -> Result<ValidateReport, Error> {
    if !problem.conflicts().is_empty() {
        return Ok(ValidateReport::NoLayout(no_layout(problem)));
    }
    match crate::judge::judge_sampler_with(
        problem,
        opts.sampler,
        opts.n,
        opts.time_limit,
        rng,
        progress,
    ) {
        Ok(Some(mut j)) => {
            j.source.push_str(source);
            Ok(ValidateReport::Judged(j))
        }
        Ok(None) | Err(SampleError::NoLayout) => Ok(ValidateReport::NoLayout(no_layout(problem))),
        Err(SampleError::Time) => Ok(ValidateReport::NotReady {
            name: problem.spec().meta.name.clone(),
            not_ready: SampleError::Time.to_string(),
        }),
        Err(e) => Err(e.into()),
    }
}

/// Judges `layouts` (a file's samples, say, from `source`) against the exact answer of
/// `problem`.
pub fn validate_samples(
    problem: &Problem,
    layouts: &[Layout],
    source: String,
) -> Result<ValidateReport, Error> {
    let mut judge = match judge_of(problem)? {
        Ok(j) => j,
        Err(report) => return Ok(report),
    };
    for l in layouts {
        judge.add(l);
    }
    Ok(ValidateReport::Judged(judge.finish(source)))
}
