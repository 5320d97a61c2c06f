//! `broadside count`: how many layouts, per cell if asked, or the DIMACS encoding.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;

use broadside::answer::{self, CountReport, Identical, label};
use broadside::output;
use broadside::{CountOptions, SatEngine};

use crate::args::{Input, Output, seconds};
use crate::report::{answer_each, no_solution};
use crate::usage;

/// The options of `count`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    /// Stop once this many layouts are found (`--limit 2` decides uniqueness).
    #[arg(long)]
    limit: Option<u128>,
    /// Stop after this many seconds with a partial count, marked as partial.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Also count, for each cell, the layouts with a ship on it.
    #[arg(long)]
    cells: bool,
    /// Count with identical ships told apart (multiplies by the count's symmetry factor).
    #[arg(long)]
    labelled: bool,
    /// Count only part J of K (from 0, e.g. `--part 3/64`) of the layouts, with the
    /// enumerator: the parts of any K add up to the count, so K jobs (a cluster's job array)
    /// can count a board one machine cannot. See docs/CLUSTER.md.
    #[arg(long, value_name = "J/K", value_parser = part)]
    part: Option<answer::Part>,
    /// Write the SAT encoding in DIMACS form (placement variables as the projection set)
    /// to this file instead of counting.
    #[arg(long, value_name = "FILE")]
    dimacs: Option<PathBuf>,
}

/// Reads `J/K`: part J (from 0) of K.
fn part(text: &str) -> std::result::Result<answer::Part, String> {
    let bad = || format!("expected J/K with 0 <= J < K, e.g. 3/64, not {text:?}");
    let (j, k) = text.split_once('/').ok_or_else(bad)?;
    let (index, of) = (
        j.trim().parse::<usize>().map_err(|_| bad())?,
        k.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if index >= of {
        return Err(bad());
    }
    Ok(answer::Part { index, of })
}

/// Progress of a long count on standard error, at most twice a second.
fn progress() -> std::sync::Arc<dyn Fn(u64, u64) + Sync + Send> {
    let last = Mutex::new(Instant::now());
    std::sync::Arc::new(move |done: u64, total: u64| {
        let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
        if l.elapsed() > Duration::from_millis(500) || done == total {
            *l = Instant::now();
            eprint!("\r{done}/{total} subtrees counted");
            if done == total {
                eprint!("\r{}\r", " ".repeat(40));
            }
        }
    })
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, out) = (&args.input, &args.out);
    if let Some(path) = &args.dimacs {
        return dimacs(input, path);
    }
    let time_limit = args.time_limit.map(seconds).transpose()?;
    if args.part.is_some() && (args.limit.is_some() || out.engine != broadside::Engine::Auto) {
        return Err(usage(
            "--part counts with the enumerator, every layout of its part: it takes no --limit or --engine",
        ));
    }
    let show_progress = std::io::stderr().is_terminal() && !out.json;
    answer_each(
        input.problems()?,
        out.json,
        |p| {
            let asked = answer::Options {
                engine: out.engine,
                count: CountOptions {
                    limit: args.limit,
                    time_limit,
                    per_cell: args.cells,
                    parallel: true,
                    progress: show_progress.then(progress),
                    ..CountOptions::default()
                },
                identical: if args.labelled {
                    Identical::Labelled
                } else {
                    Identical::Interchangeable
                },
            };
            let r = match args.part {
                Some(part) => answer::count_part(p, &asked, part)?,
                None => answer::count(p, &asked)?,
            };
            if let CountReport::Counted(c) = &r
                && let Some(m) = &c.mismatch
            {
                eprintln!("{}: {m}", label(p));
            }
            Ok(r)
        },
        |w: &mut dyn Write, p, r: &CountReport| {
            let c = match r {
                CountReport::NoSolution(no) => return no_solution(w, p, no),
                CountReport::Counted(c) => c,
            };
            writeln!(
                w,
                "{}: {} [{} engine, {:.3} s]",
                label(p),
                c.describe(),
                c.engine,
                c.seconds
            )?;
            if let Some(pc) = &c.per_cell {
                let width = pc.iter().flatten().map(|x| x.to_string().len()).max();
                for row in pc {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|x| format!("{x:>w$}", w = width.unwrap_or(1)))
                        .collect();
                    writeln!(w, "  {}", cells.join(" "))?;
                }
            }
            Ok(())
        },
        CountReport::answered,
    )
}

/// Writes the SAT encoding of the one problem of the input.
fn dimacs(input: &Input, path: &Path) -> Result<bool> {
    let specs = input.problems()?;
    if specs.len() != 1 {
        return Err(usage("--dimacs takes a single problem"));
    }
    let p = answer::build(specs.into_iter().next().expect("one problem"))?;
    let sat = SatEngine::new(&p);
    output::write_whole_with(path, |w| sat.write_dimacs(w))?;
    eprintln!("wrote {}", path.display());
    Ok(true)
}
