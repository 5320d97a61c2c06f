//! `broadside sample`: random layouts consistent with a problem, or the heat map they
//! estimate.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::Problem;
use broadside::answer::label;
use broadside::format::samples;
use broadside::sample::{self, MAX_ATTEMPTS, SampleError, Sampler, SamplerKind};

use crate::args::{Input, seconds};
use crate::report::{Printer, consistent, say_no_layout};

/// The options of `sample`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// How many layouts.
    #[arg(short = 'n', long, default_value = "10")]
    n: u64,
    /// The seed of the random draws: the same seed gives the same layouts.
    #[arg(long, default_value = "0")]
    seed: u64,
    /// uniform (exact), rejection (exact, by rejection), sequential or weighted (biased).
    #[arg(long, default_value = "uniform")]
    sampler: SamplerKind,
    /// Print the estimated heat map (with 95% intervals in JSON) instead of the layouts.
    #[arg(long)]
    probs: bool,
    /// JSON output (one layout per line, or the estimates with --probs).
    #[arg(long)]
    json: bool,
    /// Stop after this many seconds (preparing included), keeping the layouts drawn.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// A sampler, or `None` after saying "no layout" when the uniform sampler's count found none.
fn sampler(
    p: &Arc<Problem>,
    kind: SamplerKind,
    time_limit: Option<Duration>,
    printer: &mut Printer,
) -> Result<Option<Sampler>> {
    match Sampler::within(p.clone(), kind, time_limit) {
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

pub fn run(args: &Args) -> Result<bool> {
    let (input, n, seed, kind, probs, json, time_limit) = (
        &args.input,
        args.n,
        args.seed,
        args.sampler,
        args.probs,
        args.json,
        args.time_limit,
    );
    let time_limit = time_limit.map(seconds).transpose()?;
    let mut printer = Printer::new(json);
    let Some(p) = consistent(input, &mut printer)? else {
        printer.finish()?;
        return Ok(false);
    };
    let p = Arc::new(p);
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
