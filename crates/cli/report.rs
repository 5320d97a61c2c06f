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

/// How often a long run writes its progress to a pipe or a log.
pub const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The progress of a run of games: a bar at a terminal; in a pipe or a log (a run left going
/// in the background), a line every [`LOG_EVERY`] once the run has gone on that long, so a
/// short run writes nothing there.
///
/// The estimate of the time left, on the bar and in the line, is the pace of the whole run so
/// far in this process: the games it found played when it began (a resumed run) do not count
/// as played fast, and a few long games in a row do not swing it as a short window would.
pub struct Progress {
    bar: ProgressBar,
    /// In a pipe or a log, when the last line was written (or the run began).
    log: Option<std::sync::Mutex<std::time::Instant>>,
    every: std::time::Duration,
    /// The first position set (the games already played when the run began) and when.
    start: std::sync::OnceLock<(u64, std::time::Instant)>,
}

impl Progress {
    /// `done` of the run's games are played.
    pub fn set_position(&self, done: u64) {
        self.start.get_or_init(|| (done, std::time::Instant::now()));
        self.bar.set_position(done);
        let Some(last) = &self.log else {
            self.bar
                .set_message(self.left().map_or(String::new(), |left| {
                    format!(", {} left", indicatif::HumanDuration(left))
                }));
            return;
        };
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= self.every {
            *last = std::time::Instant::now();
            eprintln!("{}", self.line());
        }
    }

    /// The run's progress in words: "2370 of 20000 games, about 8 hours left".
    fn line(&self) -> String {
        let (done, games) = (self.bar.position(), self.bar.length().unwrap_or(0));
        match self.left() {
            Some(left) => format!(
                "{done} of {games} games, about {} left",
                indicatif::HumanDuration(left)
            ),
            None => format!("{done} of {games} games"),
        }
    }

    /// The time the games not yet played take at the run's pace so far (see [`time_left`]).
    fn left(&self) -> Option<std::time::Duration> {
        let (done, games) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let start = *self.start.get()?;
        time_left(start, (done, std::time::Instant::now()), games)
    }

    /// The run is over: the bar is cleared.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// The time the games of a run not yet played take at the pace from `start` to `now` (each a
/// count of games played and when): none before a game is played in between, or once all are.
fn time_left(
    start: (u64, std::time::Instant),
    now: (u64, std::time::Instant),
    games: u64,
) -> Option<std::time::Duration> {
    let played = now.0.checked_sub(start.0).filter(|&n| n > 0)?;
    let left = games.checked_sub(now.0).filter(|&n| n > 0)?;
    let elapsed = now.1.saturating_duration_since(start.1);
    // Checked: a pace too slow to say in a `Duration` gives no estimate rather than a panic.
    std::time::Duration::try_from_secs_f64(elapsed.as_secs_f64() * left as f64 / played as f64).ok()
}

/// The progress of a run of `games` games (see [`Progress`]).
pub fn progress_bar(games: u64) -> Progress {
    progress_every(games, LOG_EVERY, std::io::stderr().is_terminal())
}

fn progress_every(games: u64, every: std::time::Duration, terminal: bool) -> Progress {
    let bar = if terminal {
        ProgressBar::new(games)
    } else {
        ProgressBar::hidden()
    };
    bar.set_length(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games{msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Progress {
        bar,
        log: (!terminal).then(|| std::sync::Mutex::new(std::time::Instant::now())),
        every,
        start: std::sync::OnceLock::new(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// In a log, the line says how far the run is and how long it has left; at a terminal the
    /// bar says it and no line is kept.
    #[test]
    fn a_run_in_a_log_says_its_progress() {
        let p = progress_every(200, std::time::Duration::ZERO, false);
        assert_eq!(p.line(), "0 of 200 games");
        p.set_position(50);
        std::thread::sleep(std::time::Duration::from_millis(20));
        p.set_position(100);
        let line = p.line();
        assert!(line.starts_with("100 of 200 games, about "), "{line}");
        assert!(line.ends_with(" left"), "{line}");
        p.set_position(200);
        assert_eq!(p.line(), "200 of 200 games");
        assert!(progress_every(5, LOG_EVERY, true).log.is_none());
        assert!(progress_every(5, LOG_EVERY, false).log.is_some());
    }

    /// At a terminal the bar's time left is the same whole-run pace: a resumed run's first
    /// position is where it began, not games played in no time.
    #[test]
    fn a_run_at_a_terminal_says_its_time_left_on_the_bar() {
        let p = progress_every(200, LOG_EVERY, true);
        p.set_position(150);
        assert_eq!(p.bar.message(), "");
        std::thread::sleep(std::time::Duration::from_millis(20));
        p.set_position(175);
        let msg = p.bar.message();
        assert!(msg.starts_with(", ") && msg.ends_with(" left"), "{msg}");
        p.set_position(200);
        assert_eq!(p.bar.message(), "");
    }

    /// The time left is the pace since the run began here: the games a resumed run found
    /// played are not counted as played in no time.
    #[test]
    fn the_time_left_is_the_pace_since_the_run_began() {
        use std::time::{Duration, Instant};
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        // Resumed at 9,000 of 10,000; 100 games in 250 s leaves 900 games at 2.5 s each.
        let left = time_left((9000, t0), (9100, at(250)), 10_000);
        assert_eq!(left, Some(Duration::from_secs(2250)));
        assert_eq!(
            time_left((0, t0), (1, at(3)), 4),
            Some(Duration::from_secs(9))
        );
        // No game played since it began, or none left: no estimate.
        assert_eq!(time_left((9000, t0), (9000, at(60)), 10_000), None);
        assert_eq!(time_left((0, t0), (4, at(60)), 4), None);
        assert_eq!(time_left((0, t0), (1, at(3600)), u64::MAX), None);
        // A resumed run's line counts only what it played itself.
        let p = progress_every(1000, Duration::ZERO, false);
        p.set_position(900);
        assert_eq!(p.line(), "900 of 1000 games");
    }
}
