//! `broadside generate`: puzzles with a unique solution and a minimal set of clues.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::format;
use broadside::generate::{self, GenerateError, GenerateOptions};
use broadside::logic::Grade;
use broadside::output;
use broadside::{Dims, Fleet};

use crate::args::seconds;
use crate::report::Printer;
use crate::usage;

/// The options of `generate`.
#[derive(clap::Args)]
pub struct Args {
    /// Board size, WxH.
    #[arg(long, value_name = "WxH")]
    size: Dims,
    /// The fleet (default: the magazine fleet for the size).
    #[arg(long)]
    fleet: Option<String>,
    /// The seed: the same seed gives the same puzzles.
    #[arg(long, default_value = "0")]
    seed: u64,
    /// How many puzzles.
    #[arg(long, default_value = "1")]
    count: usize,
    /// Write each puzzle to a file in this folder instead of standard output.
    #[arg(short = 'o', long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// How many row and column counts to withhold.
    #[arg(long, default_value = "0")]
    hidden_counts: usize,
    /// Give ship clues as '*' only, never as segment kinds.
    #[arg(long)]
    no_segments: bool,
    /// Give no water clues (only ship clues).
    #[arg(long)]
    no_water: bool,
    /// The grade every puzzle must have: easy, medium, hard or extreme (default: any).
    #[arg(long)]
    difficulty: Option<Grade>,
    /// Digital Battleships: a digit 1 to 9 on every cell, and each row's and column's number
    /// the sum of the digits under its ships (takes no --difficulty).
    #[arg(long)]
    digital: bool,
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    time_limit: f64,
}

pub fn run(args: &Args) -> Result<bool> {
    let mut opts = GenerateOptions::new(args.size.supported().map_err(broadside::Error::from)?);
    opts.time_limit = seconds(args.time_limit)?;
    opts.fleet = args
        .fleet
        .as_deref()
        .map(|f| Fleet::parse(f, &[]).map_err(|e| usage(format!("--fleet: {e}"))))
        .transpose()?;
    opts.hidden_counts = args.hidden_counts;
    opts.segments = !args.no_segments;
    opts.water = !args.no_water;
    opts.difficulty = args.difficulty;
    opts.digital = args.digital;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let (size, seed, count) = (args.size, args.seed, args.count);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut printer = Printer::new(false);
    for i in 0..count {
        let t = Instant::now();
        let mut spec = match generate::generate(&opts, &mut rng) {
            Ok(s) => s,
            Err(e @ GenerateError::Request(_)) => return Err(broadside::Error::from(e).into()),
            Err(e) => {
                printer.finish()?;
                eprintln!("broadside: puzzle {} of {count}: {e}", i + 1);
                return Ok(false);
            }
        };
        let kind = if args.digital { "digital-" } else { "" };
        let name = match args.difficulty {
            Some(g) => format!("gen-{kind}{size}-{g}-s{seed}-{}", i + 1),
            None => format!("gen-{kind}{size}-s{seed}-{}", i + 1),
        };
        spec.meta = generate::meta(name.clone(), seed, args.difficulty);
        let text = format::text::print(&spec);
        match &args.out {
            Some(dir) => {
                let path = dir.join(format!("{name}.txt"));
                output::write_whole(&path, &text)?;
                eprintln!(
                    "{} ({:.0} ms)",
                    path.display(),
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
            None => {
                let w = printer.out();
                if i > 0 {
                    writeln!(w, "---")?;
                }
                write!(w, "{text}")?;
                // Each puzzle reaches the reader as soon as it is made.
                w.flush()?;
            }
        }
    }
    printer.finish()?;
    Ok(true)
}
