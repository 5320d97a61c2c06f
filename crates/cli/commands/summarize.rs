//! `broadside summarize`: the games `simulate --out` wrote, summarised as `simulate` prints a
//! run (the parts of a run played with `--first`, together), or compared game by game with
//! another run's on the same hidden layouts.

use anyhow::Result;

use broadside::answer;

use crate::args::read_problems;
use crate::report::Printer;

/// The options of `summarize`.
#[derive(clap::Args)]
pub struct Args {
    /// The run's game files, as `simulate --out` writes them (the parts of one run, in any
    /// order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Compare the run with this one, game by game (its parts, in any order): the games both
    /// hold must hide the same layouts (the same seed), and the difference is the run's shots
    /// minus these.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    against: Vec<String>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// The records of every file, in order.
fn records(files: &[String]) -> Result<Vec<broadside::ProblemSpec>> {
    let mut all = Vec::new();
    for f in files {
        all.extend(read_problems(f)?);
    }
    Ok(all)
}

pub fn run(args: &Args) -> Result<bool> {
    let run = records(&args.files)?;
    let mut printer = Printer::new(args.json);
    if args.against.is_empty() {
        let s = answer::summarize(&run)?;
        if args.json {
            printer.push(&s)?;
        } else {
            let w = printer.out();
            writeln!(
                w,
                "{} games: mean {:.2} shots (95% CI {:.2} to {:.2}), sd {:.2}, median {}, min {}, max {}",
                s.games, s.mean, s.ci95[0], s.ci95[1], s.sd, s.median, s.min, s.max
            )?;
            writeln!(w, "  hit ratio {:.4}", s.hit_ratio)?;
        }
    } else {
        let baseline = records(&args.against)?;
        let d = answer::compare(&run, &baseline)?;
        if args.json {
            printer.push(&d)?;
        } else {
            let w = printer.out();
            writeln!(
                w,
                "{} paired games: this run minus the other {:+.3} shots (95% CI {:+.3} to {:+.3}), sd {:.2}",
                d.games, d.difference, d.ci95[0], d.ci95[1], d.sd
            )?;
            writeln!(
                w,
                "  mean {:.3} against {:.3}; fewer shots in {} games, more in {}, equal in {}",
                d.mean, d.baseline_mean, d.fewer, d.more, d.equal
            )?;
        }
    }
    printer.finish()?;
    Ok(true)
}
