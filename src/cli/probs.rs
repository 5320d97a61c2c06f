//! `broadside probs` and `broadside best`: the exact heat map, and where to fire next.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use broadside::answer::{self, BestReport, NoMap, ProbsReport, label};
use broadside::{CountOptions, Problem};

use super::args::{ColorChoice, Input, Output, TimeLimit};
use super::report::{answer_each, no_layout};
use super::usage;

/// The warning a partial map carries.
const PARTIAL: &str = "partial: the time limit ran out, so the counts are lower bounds and the \
                       probabilities are not exact";

fn no_map(w: &mut dyn Write, p: &Problem, no: &NoMap) -> Result<()> {
    writeln!(w, "{}: no heat map: {}", label(p), no.reason)?;
    Ok(())
}

fn options(limit: &TimeLimit) -> Result<CountOptions> {
    Ok(CountOptions {
        time_limit: limit.duration()?,
        parallel: true,
        ..CountOptions::default()
    })
}

pub fn probs(
    input: &Input,
    out: &Output,
    svg: Option<&PathBuf>,
    color: ColorChoice,
    limit: &TimeLimit,
) -> Result<bool> {
    let opts = options(limit)?;
    let specs = input.problems()?;
    if svg.is_some() && specs.len() != 1 {
        return Err(usage("--svg takes a single problem"));
    }
    let colour = color.enabled();
    answer_each(
        specs,
        out.json,
        |p| {
            let r = answer::probs(p, out.engine, &opts)?;
            if let (Some(path), ProbsReport::Map(h)) = (svg, &r) {
                let title = format!("{}: {} layouts", label(p), h.layouts);
                std::fs::write(path, h.map.render_svg(&title))
                    .with_context(|| format!("writing {}", path.display()))?;
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

pub fn best(input: &Input, out: &Output, limit: &TimeLimit) -> Result<bool> {
    let opts = options(limit)?;
    answer_each(
        input.problems()?,
        out.json,
        |p| Ok(answer::best(p, out.engine, &opts)?),
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
