//! `broadside validate`: a sampler, or a file of samples, judged against the exact answer.

use std::path::PathBuf;

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::answer::{self, SampleOptions, ValidateReport, label};
use broadside::format;
use broadside::sample::SamplerKind;

use crate::args::{Input, seconds};
use crate::report::{Printer, no_layout};
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

/// The progress of the draws: a bar at a terminal, and once, after the first second, the time
/// the whole run will take at that pace when it is long (with the way to bound it).
struct Pace {
    n: u64,
    start: std::time::Instant,
    said: std::sync::atomic::AtomicBool,
    bar: indicatif::ProgressBar,
}

impl Pace {
    fn new(n: u64) -> Pace {
        let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            indicatif::ProgressBar::new(n)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} samples, {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Pace {
            n,
            start: std::time::Instant::now(),
            said: Default::default(),
            bar,
        }
    }

    fn drawn(&self, drawn: u64) {
        if drawn.is_multiple_of(64) || drawn == self.n {
            self.bar.set_position(drawn);
        }
        let elapsed = self.start.elapsed().as_secs_f64();
        if elapsed < 1.0 || self.said.swap(true, std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let whole = elapsed / drawn as f64 * self.n as f64;
        if whole > 30.0 {
            self.bar.suspend(|| {
                eprintln!(
                    "broadside: {drawn} samples in {elapsed:.1} s: the {} asked for take about {} at this pace (--time-limit judges what is drawn by then)",
                    self.n,
                    duration(whole)
                )
            });
        }
    }
}

/// A duration in words: "45 s", "12 min", "8.3 h".
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

pub fn run(args: &Args) -> Result<bool> {
    let p = answer::build(args.input.single()?)?;
    let report = match &args.samples {
        Some(path) => {
            let name = path.display().to_string();
            let text = broadside::format::input::read_file(std::path::Path::new(path))?;
            let layouts = format::samples::read(&name, &text, p.dims(), p.fleet())
                .map_err(broadside::Error::from)?;
            answer::validate_samples(&p, &layouts, format!("samples from {name}"))
        }
        None => {
            let opts = SampleOptions {
                n: args.n,
                sampler: args.sampler,
                time_limit: args.time_limit.map(seconds).transpose()?,
            };
            let mut rng = StdRng::seed_from_u64(args.seed);
            let pace = Pace::new(args.n);
            let r = answer::validate_with(
                &p,
                &opts,
                &format!(", seed {}", args.seed),
                &mut rng,
                &|drawn| pace.drawn(drawn),
            );
            pace.bar.finish_and_clear();
            r
        }
    }
    .with_context(|| label(&p))?;
    let mut printer = Printer::new(args.json);
    let j = match report {
        ValidateReport::NoLayout(no) => {
            if args.json {
                printer.push(&no)?;
            } else {
                no_layout(printer.out(), &p, &no)?;
            }
            printer.finish()?;
            return Ok(false);
        }
        ValidateReport::NotReady { not_ready, .. } => {
            eprintln!("{}: {not_ready}", label(&p));
            return Ok(false);
        }
        ValidateReport::Judged(j) => j,
    };
    if j.samples == 0 {
        return Err(usage("no samples to validate"));
    }
    if j.samples < args.n && args.samples.is_none() {
        eprintln!(
            "{}: judged {} of {} samples (the sampler stopped: time limit or rejected draws)",
            label(&p),
            j.samples,
            args.n
        );
    }
    if args.json {
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
