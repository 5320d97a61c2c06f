//! `broadside validate`: a sampler, or a file of samples, judged against the exact answer.

use std::path::PathBuf;

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::Problem;
use broadside::answer::label;
use broadside::format;
use broadside::judge::{Judge, Judgement, judge_sampler};
use broadside::sample::{SampleError, SamplerKind};

use crate::args::{Input, seconds};
use crate::report::{Printer, consistent, say_no_layout};
use crate::usage;

/// The options of `validate`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// The sampler to measure: uniform, rejection, sequential or weighted.
    #[arg(long, default_value = "uniform")]
    sampler: SamplerKind,
    /// How many samples to draw.
    #[arg(short = 'n', long, default_value = "100000")]
    n: u64,
    /// The seed of the random draws.
    #[arg(long, default_value = "0")]
    seed: u64,
    /// Read the samples from this file instead (JSON lines {"layout": [rows]} as
    /// `sample --json` writes, or grids of rows separated by blank lines).
    #[arg(long, value_name = "FILE")]
    samples: Option<PathBuf>,
    /// JSON output.
    #[arg(long)]
    json: bool,
    /// Stop drawing after this many seconds and judge the samples drawn.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, kind, n, seed, samples, json, time_limit) = (
        &args.input,
        args.sampler,
        args.n,
        args.seed,
        args.samples.as_ref(),
        args.json,
        args.time_limit,
    );
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
