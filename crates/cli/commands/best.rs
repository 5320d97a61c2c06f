//! `broadside best`: the open cell(s) most likely to hold a ship, where to fire next.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, BestReport, label};

use crate::args::{Input, Output, TimeLimit};
use crate::report::{PARTIAL, answer_each, no_layout, no_map};

/// The options of `best`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    #[command(flatten)]
    limit: TimeLimit,
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, out) = (&args.input, &args.out);
    let asked = answer::Options::new()
        .engine(out.engine)
        .counting(args.limit.count_options()?);
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::best(p, &asked)?),
        |w: &mut dyn Write, p, r: &BestReport| {
            let b = match r {
                BestReport::NoLayout(no) => return no_layout(w, p, no),
                BestReport::NoMap(no) => return no_map(w, p, no),
                BestReport::Best(b) => b,
            };
            if !b.complete {
                writeln!(w, "{}: no exact answer: {PARTIAL}", label(p))?;
            } else if b.cells.is_empty() {
                writeln!(w, "{}: no open cell can hold a ship", label(p))?;
            } else {
                let names: Vec<&str> = b.cells.iter().map(|c| c.cell.as_str()).collect();
                writeln!(
                    w,
                    "{}: fire at {} (probability {:.4}, {} of {} layouts)",
                    label(p),
                    names.join(" "),
                    b.probability.unwrap_or(0.0),
                    b.cells[0].count,
                    b.layouts
                )?;
            }
            Ok(())
        },
        BestReport::answered,
    )
}
