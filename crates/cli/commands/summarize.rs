//! `broadside summarize`: the games `simulate --out` wrote (or the shots `simulate --shots`
//! kept), summarised as `simulate` prints a run (the parts of a run played with `--first`,
//! together), or compared game by game with another run's on the same hidden layouts.

use std::path::PathBuf;

use anyhow::Result;

use broadside::answer::{self, GamesSummary, PairedSummary, ShotsFile};
use broadside::output;

use crate::args::read_problems;
use crate::report::{Printer, figures};
use crate::usage;

/// The options of `summarize`.
#[derive(clap::Args)]
pub struct Args {
    /// The run's game files, as `simulate --out` writes them, or its shots files, as
    /// `simulate --shots` writes them (the parts of one run, in any order).
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
    /// Write the run's shots files, put together, to this shots file (the parts of a run
    /// played with --first, as one).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// A run read back: its games, or its shots.
enum Run {
    Games(Vec<broadside::ProblemSpec>),
    Shots(ShotsFile),
}

/// Whether `text` is a shots file (a JSON object with an `argv`) rather than game records.
fn is_shots_file(text: &str) -> bool {
    matches!(
        serde_json::from_str::<serde_json::Value>(text),
        Ok(serde_json::Value::Object(o)) if o.contains_key("argv")
    )
}

/// The run in `files`, all of one kind.
fn read_run(files: &[String]) -> Result<Run> {
    let mut shots = Vec::new();
    let mut games = Vec::new();
    for f in files {
        let text = broadside::format::input::read_file(std::path::Path::new(f))?;
        if is_shots_file(&text) {
            shots.push(ShotsFile::parse(f, &text)?);
        } else {
            games.push(f.clone());
        }
    }
    match (shots.is_empty(), games.is_empty()) {
        (true, _) => Ok(Run::Games(records(&games)?)),
        (false, true) => Ok(Run::Shots(ShotsFile::merge(shots)?)),
        (false, false) => Err(usage(format!(
            "{} holds games and {} shots: give one kind of file for a run",
            games[0],
            files
                .iter()
                .find(|f| !games.contains(f))
                .expect("a shots file")
        ))),
    }
}

impl Run {
    fn summary(&self) -> Result<GamesSummary> {
        Ok(match self {
            Run::Games(g) => answer::summarize(g)?,
            Run::Shots(s) => s.summary(),
        })
    }

    fn compare(&self, baseline: &Run) -> Result<PairedSummary> {
        Ok(match (self, baseline) {
            (Run::Games(a), Run::Games(b)) => answer::compare(a, b)?,
            (Run::Shots(a), Run::Shots(b)) => a.compare(b)?,
            _ => {
                return Err(usage(
                    "compare game files with game files and shots files with shots files",
                ));
            }
        })
    }
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
    if let Some(path) = &args.save {
        output::check_writable(path).map_err(|e| usage(e.to_string()))?;
    }
    let run = read_run(&args.files)?;
    if let Some(path) = &args.save {
        let Run::Shots(shots) = &run else {
            return Err(usage(
                "--save puts shots files together; game files have no command to play them again",
            ));
        };
        let text = serde_json::to_string(shots).expect("a shots file always prints as JSON");
        output::write_whole(path, format!("{text}\n").as_bytes())?;
    }
    let mut printer = Printer::new(args.json);
    if args.against.is_empty() {
        let s = run.summary()?;
        if args.json {
            printer.push(&s)?;
        } else {
            let w = printer.out();
            let f = figures(s.mean, s.ci95, s.sd, s.median, s.min, s.max);
            writeln!(w, "{} games: {f}", s.games)?;
            if let Some(r) = s.hit_ratio {
                writeln!(w, "  hit ratio {r:.4}")?;
            }
        }
    } else {
        let baseline = read_run(&args.against)?;
        let d = run.compare(&baseline)?;
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
