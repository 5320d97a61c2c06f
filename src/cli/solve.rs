//! `broadside solve`: one solution as a grid with the counts.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, SolveReport, label};

use super::args::{Input, Output};
use super::report::{answer_each, no_solution, render};

pub fn solve(input: &Input, out: &Output) -> Result<bool> {
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::solve(p, out.engine)?),
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
