//! `broadside sample`: random layouts consistent with a problem, or the heat map they
//! estimate.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::answer::{self, SampleOptions, SampleReport, label};
use broadside::format::samples;
use broadside::sample::SamplerKind;

use crate::args::{Input, seconds};
use crate::report::{Printer, no_layout};

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

pub fn run(args: &Args) -> Result<bool> {
    let p = Arc::new(answer::build(args.input.single()?)?);
    let opts = SampleOptions {
        n: args.n,
        sampler: args.sampler,
        time_limit: args.time_limit.map(seconds).transpose()?,
    };
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut printer = Printer::new(args.json);
    let start = Instant::now();
    let report = if args.probs {
        answer::estimate(p.clone(), &opts, &mut rng).with_context(|| label(&p))?
    } else {
        let (d, fleet) = (p.dims(), p.fleet().clone());
        let json = args.json;
        let w = printer.out();
        answer::sample(p.clone(), &opts, &mut rng, |layout| -> Result<()> {
            let rows = layout.to_rows(d, &fleet);
            if json {
                let record = samples::Record { layout: rows };
                writeln!(w, "{}", serde_json::to_string(&record)?)?;
            } else {
                for row in rows {
                    writeln!(w, "{row}")?;
                }
                writeln!(w)?;
            }
            Ok(())
        })
        .with_context(|| label(&p))?
    };
    let drawn = match report {
        SampleReport::NoLayout(no) => {
            if args.json {
                printer.push(&no)?;
            } else {
                no_layout(printer.out(), &p, &no)?;
            }
            None
        }
        SampleReport::NotReady { not_ready, .. } => {
            printer.finish()?;
            eprintln!("{}: {not_ready}", label(&p));
            return Ok(false);
        }
        SampleReport::GaveUp(g) => {
            if args.json {
                printer.push(&g)?;
            } else {
                writeln!(printer.out(), "{}", g.gave_up)?;
            }
            None
        }
        SampleReport::Drawn(drawn) => {
            if let Some(a) = drawn.acceptance {
                eprintln!("acceptance {a:.4}");
            }
            Some(drawn)
        }
        SampleReport::Estimated {
            mut estimate,
            drawn,
        } => {
            estimate.seed = Some(args.seed);
            if args.json {
                printer.push(&estimate)?;
            } else {
                let secs = start.elapsed().as_secs_f64();
                let w = printer.out();
                writeln!(
                    w,
                    "{}: {} samples ({:?} sampler by {}, seed {}, {:.0} layouts/s){}",
                    label(&p),
                    estimate.samples,
                    args.sampler,
                    estimate.method,
                    args.seed,
                    estimate.samples as f64 / secs,
                    estimate
                        .acceptance
                        .map_or(String::new(), |a| format!(", acceptance {a:.4}"))
                )?;
                write!(w, "{}", estimate.heat_map(&p).render_text(false))?;
                writeln!(
                    w,
                    "95% intervals: every estimate within +/-{:.2} percentage points (--json gives each interval)",
                    estimate.widest_half_interval() * 100.0
                )?;
            }
            Some(drawn)
        }
    };
    printer.finish()?;
    let Some(drawn) = drawn else {
        return Ok(false);
    };
    if let Some(why) = drawn.shortfall() {
        eprintln!("{}: {why}", label(&p));
    }
    Ok(drawn.answered())
}
