//! The `broadside` command: arguments in, one library call per command, reports out.
//!
//! Each command lives in its own file of [`commands`], named after it, and calls the library
//! (mostly [`broadside::answer`] and [`broadside::play`]); the arguments several commands share
//! are in [`args`], the printing of reports as text or JSON in [`report`], the web server of
//! `serve` in [`server`], and the allocator that backs the heaps with huge pages in [`heap`].
//! This file parses the arguments and maps the outcome to the exit code, in one place:
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | answered |
//! | 1 | answered "no": no solution, not unique, a recorded solution that does not match, a sampler that fails validation, a partial answer where an exact one was asked |
//! | 2 | bad input or usage: parse errors (with file, line and column), invalid problems, unknown options |
//! | 3 | the question could not be answered: a count past the integer range, output that could not be written, an engine failing its own check |

mod args;
mod commands;
#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
mod heap;
mod interrupt;
mod journal;
mod pdf;
mod report;
mod server;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use commands::*;

#[derive(Parser)]
#[command(
    name = "broadside",
    version,
    about = "Exact Battleship puzzle solving and layout counting",
    after_help = "Exit codes: 0 answered; 1 answered \"no\" (no solution, not unique, a failed \
                  validation, a partial answer); 2 bad input or usage; 3 could not answer \
                  (count overflow, output not written, internal check failed)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle: print one solution.
    Solve(solve::Args),
    /// Grade a puzzle: easy, medium, hard or extreme, from the rules its solution needs.
    Grade(grade::Args),
    /// Check a person's progress on a puzzle (its `progress:` marks): the marks no solution
    /// has, or right so far, or solved. Exit 0 when nothing is wrong, 1 when something is.
    Check(check::Args),
    /// The next step from a person's progress on a puzzle: their mistakes first, else the
    /// easiest logical deduction and why, else one cell of the solution, marked as search.
    Hint(hint::Args),
    /// Count the layouts consistent with a problem (and so decide uniqueness).
    Count(count::Args),
    /// The exact probability of a ship on each cell, as a heat map.
    Probs(probs::Args),
    /// The open cell(s) most likely to hold a ship: where to fire next.
    Best(best::Args),
    /// Draw random layouts consistent with a problem.
    Sample(sample::Args),
    /// Measure a sampler (or a file of samples) against the exact answer: exit 0 when it
    /// passes, 1 when it fails.
    Validate(validate::Args),
    /// Generate puzzles with a unique solution and a minimal set of clues.
    Generate(generate::Args),
    /// Draw a puzzle (or a game state) as puzzle books print it, as SVG or PDF.
    Render(render::Args),
    /// A puzzle book as a PDF: puzzles generated or read, proved unique, graded, easiest
    /// first, with the rules and the solutions.
    Book(book::Args),
    /// Play many games of one shooter against one placer and report the shots they took.
    Simulate(simulate::Args),
    /// Two shooters against each other, taking turns, on paired boards: who sinks the other's
    /// fleet first.
    Match(r#match::Args),
    /// Optimal play on a small board (at most 128 cells): the least expected shots any shooter
    /// can reach, by expectimax over belief states, and exact greedy's beside it.
    Optimal(optimal::Args),
    /// The evaluation of Naslausky & Figueiredo: how often the likeliest cells of an exact or
    /// a sampled heat map hold a ship, turn by turn (top-1, top-3, top-5).
    Accuracy(accuracy::Args),
    /// Play against the computer in the terminal: you fire at its hidden fleet, it fires at
    /// yours.
    Play(play::Args),
    /// Advice during a game played elsewhere: type what each shot reported, see the exact
    /// heat map and the best shot.
    Advise(advise::Args),
    /// A local web page with the live exact heat map, and its JSON API (docs/SERVE.md).
    Serve(serve::Args),
    /// Convert a problem to broadside's text or JSON format.
    Convert(convert::Args),
    /// What a shooter's departures from density:50.1 are worth, shot by shot, in the games
    /// `simulate --out` wrote: its edge on that base from a few hundred games.
    Gains(gains::Args),
    /// The shooters and placers: names, parameters (with their values and defaults), presets,
    /// sources and costs.
    Shooters(shooters::Args),
    /// Summarise the games `simulate --out` wrote (a run played in parts, together), or compare
    /// two runs game by game on the same hidden layouts.
    Summarize(summarize::Args),
}

/// An error in the command line itself: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Usage(String);

/// A usage error with this message.
fn usage(msg: impl Into<String>) -> anyhow::Error {
    Usage(msg.into()).into()
}

fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Grade(args) => grade::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Hint(args) => hint::run(&args),
        Command::Count(args) => count::run(&args),
        Command::Probs(args) => probs::run(&args),
        Command::Best(args) => best::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Match(args) => r#match::run(&args),
        Command::Optimal(args) => optimal::run(&args),
        Command::Accuracy(args) => accuracy::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Advise(args) => advise::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Gains(args) => gains::run(&args),
        Command::Summarize(args) => summarize::run(&args),
        Command::Shooters(args) => shooters::run(&args),
    }
}

/// The exit code of an error: 2 for the user's input or usage, 3 for a question that could
/// not be answered.
fn exit_code(e: &anyhow::Error) -> u8 {
    let input = e.downcast_ref::<Usage>().is_some()
        || e.downcast_ref::<broadside::Error>()
            .is_some_and(broadside::Error::is_bad_input);
    if input { 2 } else { 3 }
}

#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
#[global_allocator]
static HEAP: heap::Heap = heap::Heap;

fn main() -> ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
    heap::tune();
    // A closed pipe (`broadside ... | head`) ends the program quietly, as it does for other
    // command-line tools, instead of failing on the next write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("broadside: {e:#}");
            ExitCode::from(exit_code(&e))
        }
    }
}
