//! `broadside solve --explain` and `broadside grade`: the logical rules at work.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, ExplainReport, GradeReport, GradeTally, label};
use broadside::format;
use broadside::logic::{Grade, Know};

use super::args::{Input, Output};
use super::report::{answer_each, no_solution, render};

pub fn explain(input: &Input, out: &Output) -> Result<bool> {
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::explain(p, out.engine)?),
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

pub fn grade(input: &Input, json: bool) -> Result<bool> {
    let mut tally = GradeTally::default();
    let mut many = 0;
    let ok = answer_each(
        input.problems()?,
        json,
        |p| {
            let r = answer::grade(p)?;
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
