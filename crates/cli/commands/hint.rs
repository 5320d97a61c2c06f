//! `broadside hint`: the next step from a person's progress on a puzzle: their mistakes first,
//! else the easiest logical deduction, with the sentence that explains it, else one cell of the
//! solution marked as search.

use std::io::Write;

use anyhow::Result;

use broadside::answer::{self, HintReport, label};
use broadside::{Know, format};

use crate::args::{Input, Output, seconds};
use crate::report::answer_each;
use crate::usage;

/// The options of `hint`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    out: Output,
    /// List every mistake, not only the first.
    #[arg(long)]
    all: bool,
    /// Print the problem with the hint applied to its progress (the step's cells marked, or
    /// the mistakes cleared) in the text format, instead of the hint; the hint goes to
    /// standard error.
    #[arg(long, conflicts_with = "json")]
    apply: bool,
    /// Give up after this many seconds if the solutions are not yet known (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

pub fn run(args: &Args) -> Result<bool> {
    let limit = args.time_limit.map(seconds).transpose()?;
    let asked = answer::Options::new()
        .engine(args.out.engine)
        .time_limit(limit);
    let specs = args.input.problems()?;
    if args.apply && specs.len() != 1 {
        return Err(usage("--apply takes a single problem"));
    }
    let mut applied = None;
    let ok = answer_each(
        specs,
        args.out.json,
        |p| {
            let r = answer::hint(p, &asked, args.all || args.apply)?;
            if args.apply {
                applied = Some(apply(p, &r));
            }
            Ok(r)
        },
        |w: &mut dyn Write, p, r: &HintReport| {
            if args.apply {
                let mut err = std::io::stderr().lock();
                return say(&mut err, p, r, args.all);
            }
            say(w, p, r, args.all)
        },
        HintReport::answered,
    )?;
    if let Some(text) = applied {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    Ok(ok)
}

/// The hint in words.
fn say(w: &mut dyn Write, p: &broadside::Problem, r: &HintReport, all: bool) -> Result<()> {
    let name = label(p);
    if r.solutions == 0 {
        writeln!(w, "{name}: the puzzle has no solution")?;
        for reason in &r.reasons {
            writeln!(w, "  because {reason}")?;
        }
        return Ok(());
    }
    if !r.mistakes.is_empty() {
        let cells = super::check::described(p, &r.mistakes);
        match (r.mistakes.len(), all) {
            (1, false) => writeln!(
                w,
                "{name}: fix {cells} first: no solution has that mark (hint --all lists every mistake)"
            )?,
            _ => writeln!(w, "{name}: fix these first, no solution has them: {cells}")?,
        }
        return Ok(());
    }
    if let Some(c) = &r.conflict {
        writeln!(
            w,
            "{name}: fix {c} first: it fits no solution together with the marks before it"
        )?;
        return Ok(());
    }
    if r.solved {
        writeln!(w, "{name}: solved: nothing left to hint")?;
        return Ok(());
    }
    let Some(s) = &r.step else {
        return Ok(());
    };
    let d = p.dims();
    let mut decided = Vec::new();
    for (word, names) in [("ship", &s.ship), ("water", &s.water)] {
        let cells: Vec<usize> = names.iter().filter_map(|n| d.parse_cell(n).ok()).collect();
        if !cells.is_empty() {
            decided.push(format!("{word} {}", d.cell_list(&cells)));
        }
    }
    let rule = match s.search {
        true => "search (no rule applies)".to_string(),
        false => format!("{} (tier {})", s.rule, s.tier),
    };
    writeln!(w, "{name}: {rule}: {}. So: {}.", s.text, decided.join("; "))?;
    Ok(())
}

/// The problem's text with the hint applied to its progress.
fn apply(p: &broadside::Problem, r: &HintReport) -> String {
    let d = p.dims();
    let mut spec = p.given().clone();
    if spec.progress.is_empty() {
        spec.progress = vec![Know::Unknown; d.cells()];
    }
    let mut set = |names: &[String], k: Know| {
        for n in names {
            if let Ok(c) = d.parse_cell(n) {
                spec.progress[c] = k;
            }
        }
    };
    set(&r.mistakes, Know::Unknown);
    if let Some(c) = &r.conflict {
        set(std::slice::from_ref(c), Know::Unknown);
    }
    if let Some(s) = &r.step
        && r.mistakes.is_empty()
        && r.conflict.is_none()
    {
        set(&s.ship, Know::Ship);
        set(&s.water, Know::Water);
    }
    format::text::print(&spec)
}
