//! `broadside convert`: a problem written in broadside's text or JSON format, or as a puzz.link
//! URL.

use anyhow::Result;

use broadside::answer;
use broadside::format::{self, json::JsonProblem};

use crate::args::{Input, To};
use crate::report::Printer;
use crate::usage;

/// The options of `convert`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// The output format.
    #[arg(long = "to", value_enum, default_value = "text")]
    to: To,
}

pub fn run(args: &Args) -> Result<bool> {
    let (input, to) = (&args.input, args.to);
    let specs = input.problems()?;
    // Only a well-formed problem is written: the output must read back as what it says.
    for spec in &specs {
        answer::build(spec.clone())?;
    }
    // Every URL first: a problem the format cannot hold stops the run before any output.
    let urls = match to {
        To::Puzlink => specs
            .iter()
            .map(|s| format::puzlink::write(s).map_err(|e| usage(e.to_string())))
            .collect::<Result<Vec<_>>>()?,
        To::Pzprv3 => specs
            .iter()
            .map(|s| format::pzprv3::write(s).map_err(|e| usage(e.to_string())))
            .collect::<Result<Vec<_>>>()?,
        _ => Vec::new(),
    };
    if matches!(to, To::Pzprv3) && specs.len() != 1 {
        return Err(usage(
            "a pzprv3 file holds one puzzle: convert one at a time",
        ));
    }
    if matches!(to, To::Puzlink) && specs.iter().any(|s| !s.progress.is_empty()) {
        eprintln!(
            "broadside: note: a puzz.link URL holds the puzzle only; the progress is not written"
        );
    }
    let mut printer = Printer::new(false);
    let w = printer.out();
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 && matches!(to, To::Text) {
            writeln!(w, "---")?;
        }
        match to {
            To::Text => write!(w, "{}", format::text::print(spec))?,
            To::Json => writeln!(
                w,
                "{}",
                serde_json::to_string(&JsonProblem::from_spec(spec))?
            )?,
            To::Puzlink => writeln!(w, "{}", urls[i])?,
            To::Pzprv3 => write!(w, "{}", urls[i])?,
        }
    }
    printer.finish()?;
    Ok(true)
}
