//! Printing reports: text as each problem is answered, or JSON once all are.

use std::io::{self, BufWriter, StdoutLock, Write};

use std::io::IsTerminal;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use broadside::answer::{self, NoMap, NoSolution, label};
use broadside::diagnose::NoLayout;
use broadside::format;
use broadside::play::Setup;
use broadside::{Layout, Problem, ProblemSpec};

/// Where reports go: standard output, as text now or as JSON at the end.
pub struct Printer {
    json: bool,
    out: BufWriter<StdoutLock<'static>>,
    results: Vec<serde_json::Value>,
}

impl Printer {
    /// A printer of text, or of JSON when `json`.
    pub fn new(json: bool) -> Printer {
        Printer {
            json,
            out: BufWriter::new(io::stdout().lock()),
            results: Vec::new(),
        }
    }

    /// Standard output, for text.
    pub fn out(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Keeps a report for the JSON output.
    pub fn push<T: Serialize>(&mut self, report: &T) -> Result<()> {
        self.results.push(serde_json::to_value(report)?);
        Ok(())
    }

    /// Writes the JSON reports kept (one object, or an array of several) and flushes, so that
    /// a write error is an error and not lost output.
    pub fn finish(mut self) -> Result<()> {
        if self.json && !self.results.is_empty() {
            let doc = json_document(std::mem::take(&mut self.results));
            self.out.write_all(doc.as_bytes())?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// The JSON output of reports: one object, or an array of several, pretty, with a final
/// newline (what `--json` prints, and what the web API answers).
pub fn json_document(mut results: Vec<serde_json::Value>) -> String {
    let v = if results.len() == 1 {
        results.remove(0)
    } else {
        serde_json::Value::Array(results)
    };
    let mut s = serde_json::to_string_pretty(&v).expect("a JSON value always prints");
    s.push('\n');
    s
}

/// Answers every problem in turn with `answer`, printing each report with `text` (or as
/// JSON); true when every report is a yes by `yes`.
pub fn answer_each<R: Serialize>(
    specs: Vec<ProblemSpec>,
    json: bool,
    mut answer: impl FnMut(&Problem) -> Result<R>,
    mut text: impl FnMut(&mut dyn Write, &Problem, &R) -> Result<()>,
    yes: impl Fn(&R) -> bool,
) -> Result<bool> {
    let mut printer = Printer::new(json);
    let mut ok = true;
    for spec in specs {
        let p = answer::build(spec)?;
        let r = answer(&p).with_context(|| label(&p))?;
        ok &= yes(&r);
        if json {
            printer.push(&r)?;
        } else {
            text(printer.out(), &p, &r)?;
        }
    }
    printer.finish()?;
    Ok(ok)
}

/// Prints `prompt`, flushes, and reads the next line of `input` into `line`; false at the end
/// of input. The interactive commands' one way of asking.
pub fn ask(
    out: &mut dyn Write,
    input: &mut dyn io::BufRead,
    prompt: &str,
    line: &mut String,
) -> Result<bool> {
    write!(out, "{prompt}")?;
    out.flush().context("writing to standard output")?;
    line.clear();
    Ok(input.read_line(line).context("reading standard input")? != 0)
}

/// A solution grid with the counts around it.
pub fn render(p: &Problem, layout: &Layout) -> String {
    let symbols: Vec<char> = layout
        .to_rows(p.dims(), p.fleet())
        .concat()
        .chars()
        .collect();
    format::text::framed_grid(p.spec(), |cell| symbols[cell])
}

/// "No solution", with its reasons.
pub fn no_solution(out: &mut dyn Write, p: &Problem, no: &NoSolution) -> Result<()> {
    writeln!(out, "{}: no solution", label(p))?;
    for r in &no.reasons {
        writeln!(out, "  because {r}")?;
    }
    Ok(())
}

/// "No layout", with its reasons and the shots at fault.
pub fn no_layout(out: &mut dyn Write, p: &Problem, no: &NoLayout) -> Result<()> {
    writeln!(out, "{}: {}", label(p), NoLayout::HEADLINE)?;
    for line in no.why() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// The warning a partial map carries.
pub const PARTIAL: &str = "partial: the time limit ran out, so the counts are lower bounds and the \
                       probabilities are not exact";

/// "No heat map", with the reason.
pub fn no_map(w: &mut dyn Write, p: &Problem, no: &NoMap) -> Result<()> {
    writeln!(w, "{}: no heat map: {}", label(p), no.reason)?;
    Ok(())
}

/// A bar on long runs at a terminal; nothing in a pipe or a log.
pub fn progress_bar(games: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(games)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A run's figures as `simulate` and `summarize` print them: the mean shots with their 95%
/// interval, the spread and the extremes.
pub fn figures(mean: f64, ci95: [f64; 2], sd: f64, median: f64, min: usize, max: usize) -> String {
    format!(
        "mean {mean:.2} shots (95% CI {:.2} to {:.2}), sd {sd:.2}, median {median}, min {min}, max {max}",
        ci95[0], ci95[1]
    )
}

/// The setup in words: "10x10 5 4 3 3 2 touch, sinking announced".
pub fn describe(setup: &Setup) -> String {
    format!(
        "{} {} {}, sinking {}",
        setup.dims,
        setup.fleet.describe(),
        setup.rules,
        setup.sinking
    )
}
