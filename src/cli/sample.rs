//! `broadside sample` and `broadside validate`: random consistent layouts, and samplers
//! judged against the exact answer.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::Problem;
use broadside::answer::{self, label};
use broadside::diagnose;
use broadside::format::{self, samples};
use broadside::judge::{Judge, Judgement, judge_sampler};
use broadside::sample::{self, MAX_ATTEMPTS, SampleError, Sampler, SamplerKind};

use super::args::{Input, seconds};
use super::report::{Printer, no_layout};
use super::usage;

/// The one problem of the input, or `None` after saying "no layout" when it has an obvious
/// conflict.
fn consistent(input: &Input, printer: &mut Printer) -> Result<Option<Problem>> {
    let p = answer::build(input.single()?)?;
    if p.conflicts().is_empty() {
        return Ok(Some(p));
    }
    say_no_layout(printer, &p)?;
    Ok(None)
}

fn say_no_layout(printer: &mut Printer, p: &Problem) -> Result<()> {
    let no = diagnose::no_layout(p);
    if printer.json() {
        printer.push(&no)
    } else {
        no_layout(printer.out(), p, &no)
    }
}

/// A sampler, or `None` after saying "no layout" when the uniform sampler's count found none.
fn sampler<'p>(
    p: &'p Problem,
    kind: SamplerKind,
    time_limit: Option<Duration>,
    printer: &mut Printer,
) -> Result<Option<Sampler<'p>>> {
    match Sampler::within(p, kind, time_limit) {
        Ok(s) => Ok(Some(s)),
        Err(SampleError::NoLayout) => {
            say_no_layout(printer, p)?;
            Ok(None)
        }
        Err(SampleError::Time) => {
            eprintln!("{}: {}", label(p), SampleError::Time);
            Ok(None)
        }
        Err(e) => Err(broadside::Error::from(e)).with_context(|| label(p)),
    }
}

pub fn sample(
    input: &Input,
    n: u64,
    seed: u64,
    kind: SamplerKind,
    probs: bool,
    json: bool,
    time_limit: Option<f64>,
) -> Result<bool> {
    let time_limit = time_limit.map(seconds).transpose()?;
    let mut printer = Printer::new(json);
    let Some(p) = consistent(input, &mut printer)? else {
        printer.finish()?;
        return Ok(false);
    };
    let Some(mut sampler) = sampler(&p, kind, time_limit, &mut printer)? else {
        printer.finish()?;
        return Ok(false);
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let d = p.dims();
    let start = Instant::now();
    let drawn = if probs {
        let mut est = sample::estimate(&mut sampler, n, &mut rng);
        est.seed = Some(seed);
        let secs = start.elapsed().as_secs_f64();
        if est.samples > 0 {
            if json {
                printer.push(&est)?;
            } else {
                let w = printer.out();
                writeln!(
                    w,
                    "{}: {} samples ({kind:?} sampler by {}, seed {seed}, {:.0} layouts/s){}",
                    label(&p),
                    est.samples,
                    est.method,
                    est.samples as f64 / secs,
                    est.acceptance
                        .map_or(String::new(), |a| format!(", acceptance {a:.4}"))
                )?;
                write!(w, "{}", est.heat_map(&p).render_text(false))?;
                writeln!(
                    w,
                    "95% intervals: every estimate within +/-{:.2} percentage points (--json gives each interval)",
                    est.widest_half_interval() * 100.0
                )?;
            }
        }
        est.samples
    } else {
        let mut drawn = 0;
        while drawn < n {
            let Some(layout) = sampler.sample(&mut rng) else {
                break;
            };
            drawn += 1;
            let rows = layout.to_rows(d, p.fleet());
            let w = printer.out();
            if json {
                let record = samples::Record { layout: rows };
                writeln!(w, "{}", serde_json::to_string(&record)?)?;
            } else {
                for row in rows {
                    writeln!(w, "{row}")?;
                }
                writeln!(w)?;
            }
        }
        if let Some(a) = sampler.acceptance() {
            eprintln!("acceptance {a:.4}");
        }
        drawn
    };
    if sampler.timed_out() {
        printer.finish()?;
        eprintln!(
            "{}: the time limit ran out after {drawn} of {n} layouts",
            label(&p)
        );
        return Ok(false);
    }
    if drawn == 0 && n > 0 {
        if sampler.acceptance().is_none() {
            say_no_layout(&mut printer, &p)?;
        } else {
            // A rejection-style sampler that rejected every draw has not shown that no
            // layout exists.
            let msg = format!(
                "{}: the {} sampler gave up: {MAX_ATTEMPTS} draws in a row were all rejected (too tight for it; no answer about whether a layout exists)",
                label(&p),
                sampler.method(),
            );
            if json {
                printer.push(&sample::GaveUp {
                    name: p.spec().meta.name.clone(),
                    drawn: 0,
                    gave_up: msg,
                })?;
            } else {
                writeln!(printer.out(), "{msg}")?;
            }
        }
        printer.finish()?;
        return Ok(false);
    }
    printer.finish()?;
    if drawn < n {
        eprintln!(
            "{}: the sampler gave up after {drawn} of {n} layouts ({MAX_ATTEMPTS} rejected draws in a row)",
            label(&p),
        );
        return Ok(false);
    }
    Ok(true)
}

pub fn validate(
    input: &Input,
    kind: SamplerKind,
    n: u64,
    seed: u64,
    samples: Option<&PathBuf>,
    json: bool,
    time_limit: Option<f64>,
) -> Result<bool> {
    let time_limit = time_limit.map(seconds).transpose()?;
    let mut printer = Printer::new(json);
    let Some(p) = consistent(input, &mut printer)? else {
        printer.finish()?;
        return Ok(false);
    };
    let judged = match samples {
        Some(path) => judge_file(&p, path)?,
        None => match judge_sampler(&p, kind, n, time_limit, &mut StdRng::seed_from_u64(seed)) {
            Ok(j) => j.map(|mut j| {
                j.source = format!("{}, seed {seed}", j.source);
                j
            }),
            Err(SampleError::NoLayout) => None,
            Err(SampleError::Time) => {
                printer.finish()?;
                eprintln!("{}: {}", label(&p), SampleError::Time);
                return Ok(false);
            }
            Err(e) => return Err(broadside::Error::from(e)).with_context(|| label(&p)),
        },
    };
    let Some(j) = judged else {
        say_no_layout(&mut printer, &p)?;
        printer.finish()?;
        return Ok(false);
    };
    if j.samples == 0 {
        return Err(usage("no samples to validate"));
    }
    if j.samples < n && samples.is_none() {
        eprintln!(
            "{}: judged {} of {n} samples (the sampler stopped: time limit or rejected draws)",
            label(&p),
            j.samples
        );
    }
    if json {
        printer.push(&j)?;
    } else {
        let w = printer.out();
        writeln!(
            w,
            "{}: {} layouts; {} samples ({})",
            label(&p),
            j.layouts,
            j.samples,
            j.source
        )?;
        for line in &j.lines {
            writeln!(w, "  {line}")?;
        }
        if let Some(why) = &j.fit_skipped {
            writeln!(w, "  ({why})")?;
        }
        let verdict = if j.pass {
            "PASS (consistent with uniform sampling)"
        } else {
            "FAIL (not uniform)"
        };
        writeln!(w, "verdict: {verdict}")?;
    }
    printer.finish()?;
    Ok(j.pass)
}

/// The judgement of the layouts in a samples file; `None` when no layout fits the problem.
fn judge_file(p: &Problem, path: &PathBuf) -> Result<Option<Judgement>> {
    let Some(mut judge) = Judge::new(p)
        .map_err(broadside::Error::from)
        .with_context(|| label(p))?
    else {
        return Ok(None);
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{name}: {e}")))?;
    let layouts =
        format::samples::read(&name, &text, p.dims(), p.fleet()).map_err(broadside::Error::from)?;
    for l in &layouts {
        judge.add(l);
    }
    Ok(Some(judge.finish(format!("samples from {name}"))))
}
