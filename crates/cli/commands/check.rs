//! `broadside check`: a person's progress on a puzzle (its `progress:` marks) judged against
//! the puzzle's solutions: the wrong marks, or right so far, or solved.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, CheckReport, label};
use broadside::{Know, Problem, format};

use crate::args::{Input, Output, seconds};
use crate::report::answer_each;

/// The options of `check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    /// Give up after this many seconds if the solutions are not yet known (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

pub fn run(args: &Args) -> Result<bool> {
    let limit = args.time_limit.map(seconds).transpose()?;
    let asked = answer::Options::new()
        .engine(args.out.engine)
        .time_limit(limit);
    answer_each(
        args.input.problems()?,
        args.out.json,
        |p| Ok(answer::check(p, &asked)?),
        |w: &mut dyn Write, p, r: &CheckReport| {
            let name = label(p);
            if r.solutions == 0 {
                writeln!(
                    w,
                    "{name}: the puzzle has no solution, so no mark can be right"
                )?;
                for reason in &r.reasons {
                    writeln!(w, "  because {reason}")?;
                }
                return Ok(());
            }
            let several = match r.solutions {
                1 => "",
                _ => " (the puzzle has more than one solution: a mark is wrong when none has it)",
            };
            if !r.mistakes.is_empty() {
                let n = r.mistakes.len();
                let (marks, them) = if n == 1 {
                    ("mark", "it")
                } else {
                    ("marks", "them")
                };
                writeln!(
                    w,
                    "{name}: {n} wrong {marks} (no solution has {them}){several}: {}",
                    described(p, &r.mistakes)
                )?;
                write!(w, "{}", marked(p, &r.mistakes))?;
            } else if let Some(c) = &r.conflict {
                writeln!(
                    w,
                    "{name}: every mark fits some solution, but no solution has them all: {c} fits none with the marks before it"
                )?;
            } else if r.solved {
                writeln!(w, "{name}: solved")?;
            } else {
                writeln!(
                    w,
                    "{name}: correct so far: {} cells marked, {} open{several}",
                    r.marked, r.open
                )?;
            }
            Ok(())
        },
        CheckReport::answered,
    )
}

/// The cells named with their marks: "B7 (water), C3 (a ship)".
pub fn described(p: &Problem, cells: &[String]) -> String {
    let d = p.dims();
    cells
        .iter()
        .map(|name| {
            let what = match d.parse_cell(name).map(|c| p.spec().mark(c)) {
                Ok(Know::Ship) => " (marked a ship)",
                Ok(Know::Water) => " (marked water)",
                _ => "",
            };
            format!("{name}{what}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The board with its clues and marks, `!` at the cells named.
fn marked(p: &Problem, wrong: &[String]) -> String {
    let d = p.dims();
    let wrong: Vec<usize> = wrong.iter().filter_map(|n| d.parse_cell(n).ok()).collect();
    let spec = p.spec();
    let grid = format::text::framed_grid(spec, |c| match spec.clue(c) {
        _ if wrong.contains(&c) => '!',
        Some(clue) => clue.symbol(),
        None => spec.mark(c).symbol(),
    });
    let mut out = String::new();
    for line in grid.lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("  (! a wrong mark; ~ water, * a ship cell, . open)\n");
    out
}
