//! `broadside probs`: the exact probability of a ship on each cell, as a heat map.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use broadside::answer::{self, ProbsReport, label};
use broadside::output;

use crate::args::{ColorChoice, Input, Output, TimeLimit};
use crate::report::{PARTIAL, answer_each, no_layout, no_map};
use crate::usage;

/// The options of `probs`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    /// Also draw the heat map as an SVG picture in this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    limit: TimeLimit,
    /// Colour the terminal map: auto (when standard output is a terminal and NO_COLOR is
    /// unset), always, or never.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, out, svg) = (&args.input, &args.out, args.svg.as_ref());
    let asked = answer::Options::new()
        .engine(out.engine)
        .counting(args.limit.count_options()?);
    let specs = input.problems()?;
    if svg.is_some() && specs.len() != 1 {
        return Err(usage("--svg takes a single problem"));
    }
    let colour = args.color.enabled();
    answer_each(
        specs,
        out.json,
        |p| {
            let r = answer::probs(p, &asked)?;
            if let (Some(path), ProbsReport::Map(h)) = (svg, &r) {
                let title = format!("{}: {} layouts", label(p), h.layouts);
                output::write_whole(path, h.map.render_svg(&title))?;
            }
            Ok(r)
        },
        |w: &mut dyn Write, p, r: &ProbsReport| {
            let h = match r {
                ProbsReport::NoLayout(no) => return no_layout(w, p, no),
                ProbsReport::NoMap(no) => return no_map(w, p, no),
                ProbsReport::Map(h) => h,
            };
            writeln!(
                w,
                "{}: {} layouts [{} engine]",
                label(p),
                h.layouts,
                h.engine
            )?;
            if !h.complete {
                writeln!(w, "  {PARTIAL}")?;
            }
            write!(w, "{}", h.map.render_text(colour))?;
            Ok(())
        },
        ProbsReport::answered,
    )
}
