//! `broadside grade`: easy, medium, hard or extreme, from the logical rules a puzzle's
//! solution needs.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, GradeReport, GradeTally, label};
use broadside::logic::Grade;

use crate::args::{Input, seconds};
use crate::report::{answer_each, no_solution};

/// The options of `grade`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// Give up on a puzzle after this many seconds if its uniqueness is not yet decided
    /// (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, json) = (&args.input, args.json);
    let limit = args.time_limit.map(seconds).transpose()?;
    let mut tally = GradeTally::default();
    let mut many = 0;
    let ok = answer_each(
        input.problems()?,
        json,
        |p| {
            let r = answer::grade(p, &answer::Options::new().time_limit(limit))?;
            if let GradeReport::Graded(g) = &r {
                tally.add(g);
            }
            many += 1;
            Ok(r)
        },
        |w: &mut dyn Write, p, r: &GradeReport| {
            let g = match r {
                GradeReport::NoSolution(no) => return no_solution(w, p, no),
                GradeReport::NotOne { reason, .. } => {
                    writeln!(
                        w,
                        "{}: {reason}: grades are for puzzles with one solution",
                        label(p)
                    )?;
                    return Ok(());
                }
                GradeReport::Graded(g) => g,
            };
            writeln!(w, "{}: {}", label(p), g.grade)?;
            let by_tier: Vec<String> = (1..=4)
                .map(|t| format!("tier {t} {}", g.decided_by_tier[t - 1]))
                .collect();
            if g.solved_by_rules {
                writeln!(
                    w,
                    "  the rules solve it in {} steps; cells decided by {}",
                    g.steps,
                    by_tier.join(", ")
                )?;
            } else {
                writeln!(
                    w,
                    "  the rules decide {} of {} cells ({}); the other {} need search",
                    g.cells - g.open_cells,
                    g.cells,
                    by_tier.join(", "),
                    g.open_cells
                )?;
            }
            if let Some(h) = &g.hardest_step {
                writeln!(w, "  hardest step: {h}")?;
            }
            Ok(())
        },
        GradeReport::answered,
    )?;
    if !json && many > 1 {
        let parts: Vec<String> = Grade::ALL
            .iter()
            .map(|&g| format!("{} {g}", tally.of_grade(g)))
            .collect();
        let tiers: Vec<String> = (1..=4u8)
            .map(|t| format!("{} need tier {t}", tally.needing_tier(t)))
            .collect();
        let mut out = std::io::stdout().lock();
        writeln!(out, "{} graded: {}", tally.graded(), parts.join(", "))?;
        writeln!(out, "solved by the rules: {}", tiers.join(", "))?;
        out.flush()?;
    }
    Ok(ok)
}
