//! `broadside solve`: one solution as a grid with the counts, or with `--explain` the
//! logical rules at work, step by step.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;

use broadside::answer::{self, ExplainReport, SolveReport, label};
use broadside::format;
use broadside::logic::Know;

use crate::args::{Input, Output, seconds};
use crate::report::{answer_each, no_solution, render};

/// The options of `solve`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    /// Solve with the logical rules and print each deduction (rule, cells, reason); search
    /// finishes what the rules leave open.
    #[arg(long)]
    explain: bool,
    /// Give up on a problem after this many seconds if the search has neither found a
    /// solution nor proved there is none (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

pub fn run(args: &Args) -> Result<bool> {
    let limit = args.time_limit.map(seconds).transpose()?;
    if args.explain {
        explain(&args.input, &args.out, limit)
    } else {
        solve(&args.input, &args.out, limit)
    }
}

fn solve(input: &Input, out: &Output, limit: Option<Duration>) -> Result<bool> {
    let asked = answer::Options::new().engine(out.engine).time_limit(limit);
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::solve(p, &asked)?),
        |w: &mut dyn Write, p, r: &SolveReport| {
            match r {
                SolveReport::NoSolution(no) => no_solution(w, p, no)?,
                SolveReport::Solved(s) => {
                    writeln!(w, "{}: solved in {:.3} ms", label(p), s.seconds * 1e3)?;
                    write!(w, "{}", render(p, &s.layout))?;
                    if let Some(m) = &s.mismatch {
                        writeln!(w, "  warning: {m}")?;
                    }
                }
            }
            Ok(())
        },
        SolveReport::answered,
    )
}

fn explain(input: &Input, out: &Output, limit: Option<Duration>) -> Result<bool> {
    let asked = answer::Options::new().engine(out.engine).time_limit(limit);
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::explain(p, &asked)?),
        |w: &mut dyn Write, p, r: &ExplainReport| {
            let e = match r {
                ExplainReport::NoSolution(no) => return no_solution(w, p, no),
                ExplainReport::Explained(e) => e,
            };
            let d = p.dims();
            let o = &e.outcome;
            writeln!(w, "{}:", label(p))?;
            for (i, s) in o.steps.iter().enumerate() {
                let mut decided = Vec::new();
                for (k, word) in [(Know::Ship, "ship"), (Know::Water, "water")] {
                    let cells: Vec<usize> =
                        s.cells.iter().filter(|c| c.1 == k).map(|c| c.0).collect();
                    if !cells.is_empty() {
                        decided.push(format!("{word} {}", d.cell_list(&cells)));
                    }
                }
                writeln!(
                    w,
                    "{:>4}. {} (tier {}): {}. So: {}.",
                    i + 1,
                    s.rule,
                    s.tier,
                    s.why,
                    decided.join("; ")
                )?;
            }
            if o.contradiction {
                writeln!(
                    w,
                    "the rules reach a contradiction: the puzzle has no solution"
                )?;
                return Ok(());
            }
            if o.solved {
                writeln!(
                    w,
                    "solved by the rules in {} steps (grade {})",
                    o.steps.len(),
                    o.grade
                )?;
            } else {
                writeln!(
                    w,
                    "the rules stop here with {} cells open (grade extreme); what they know, '.' open:",
                    e.open_cells
                )?;
                write!(
                    w,
                    "{}",
                    format::text::framed_grid(p.spec(), |c| match o.grid[c] {
                        Know::Unknown => '.',
                        Know::Water => '~',
                        Know::Ship => '*',
                    })
                )?;
                writeln!(w, "search finishes it:")?;
            }
            match &e.layout {
                Some(layout) => write!(w, "{}", render(p, layout))?,
                None => writeln!(w, "no solution")?,
            }
            Ok(())
        },
        ExplainReport::answered,
    )
}
