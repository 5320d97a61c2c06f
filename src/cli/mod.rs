//! The `broadside` command line: arguments in, one library call per command, reports out.
//!
//! Each command lives in its own file and calls one function of the library (mostly of
//! [`broadside::answer`]); this module parses the arguments, prints reports as text or JSON
//! ([`report`]) and maps the outcome to the exit code, in one place:
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | answered |
//! | 1 | answered "no": no solution, not unique, a recorded solution that does not match, a sampler that fails validation, a partial answer where an exact one was asked |
//! | 2 | bad input or usage: parse errors (with file, line and column), invalid problems, unknown options |
//! | 3 | the question could not be answered: a count past the integer range, output that could not be written, an engine failing its own check |

mod advise;
mod args;
mod count;
mod generate;
mod logic;
mod play;
mod probs;
mod report;
mod sample;
mod serve;
mod solve;
mod versus;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use broadside::sample::SamplerKind;

use args::{ColorChoice, Input, Output, TimeLimit, To};

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
    Solve {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        /// Solve with the logical rules and print each deduction (rule, cells, reason); search
        /// finishes what the rules leave open.
        #[arg(long)]
        explain: bool,
    },
    /// Grade a puzzle: easy, medium, hard or extreme, from the rules its solution needs.
    Grade {
        #[command(flatten)]
        input: Input,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Count the layouts consistent with a problem (and so decide uniqueness).
    Count {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        args: count::CountArgs,
    },
    /// The exact probability of a ship on each cell, as a heat map.
    Probs {
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
    },
    /// The open cell(s) most likely to hold a ship: where to fire next.
    Best {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        limit: TimeLimit,
    },
    /// Draw random layouts consistent with a problem.
    Sample {
        #[command(flatten)]
        input: Input,
        /// How many layouts.
        #[arg(short = 'n', long, default_value = "10")]
        n: u64,
        /// The seed of the random draws: the same seed gives the same layouts.
        #[arg(long, default_value = "0")]
        seed: u64,
        /// uniform (exact), rejection (exact, by rejection), sequential or weighted (biased).
        #[arg(long, default_value = "uniform")]
        sampler: SamplerKind,
        /// Print the estimated heat map (with 95% intervals in JSON) instead of the layouts.
        #[arg(long)]
        probs: bool,
        /// JSON output (one layout per line, or the estimates with --probs).
        #[arg(long)]
        json: bool,
        /// Stop after this many seconds (preparing included), keeping the layouts drawn.
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
    },
    /// Measure a sampler (or a file of samples) against the exact answer: exit 0 when it
    /// passes, 1 when it fails.
    Validate {
        #[command(flatten)]
        input: Input,
        /// The sampler to measure: uniform, rejection, sequential or weighted.
        #[arg(long, default_value = "uniform")]
        sampler: SamplerKind,
        /// How many samples to draw.
        #[arg(short = 'n', long, default_value = "100000")]
        n: u64,
        /// The seed of the random draws.
        #[arg(long, default_value = "0")]
        seed: u64,
        /// Read the samples from this file instead (JSON lines {"layout": [rows]} as
        /// `sample --json` writes, or grids of rows separated by blank lines).
        #[arg(long, value_name = "FILE")]
        samples: Option<PathBuf>,
        /// JSON output.
        #[arg(long)]
        json: bool,
        /// Stop drawing after this many seconds and judge the samples drawn.
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
    },
    /// Generate puzzles with a unique solution and a minimal set of clues.
    Generate(generate::GenerateArgs),
    /// Play many games of one shooter against one placer and report the shots they took.
    Simulate(play::SimulateArgs),
    /// Two shooters against each other, taking turns, on paired boards: who sinks the other's
    /// fleet first.
    Match(play::MatchArgs),
    /// Optimal play on a small board (at most 128 cells): the least expected shots any shooter
    /// can reach, by expectimax over belief states, and exact greedy's beside it.
    Optimal(play::OptimalArgs),
    /// Seed 000's evaluation: how often the likeliest cells of an exact or a sampled heat map
    /// hold a ship, turn by turn (top-1, top-3, top-5).
    Accuracy(play::AccuracyArgs),
    /// Play against the computer in the terminal: you fire at its hidden fleet, it fires at
    /// yours.
    Play(versus::PlayArgs),
    /// Advice during a game played elsewhere: type what each shot reported, see the exact
    /// heat map and the best shot.
    Advise(advise::AdviseArgs),
    /// A local web page with the live exact heat map, and its JSON API (docs/SERVE.md).
    Serve(serve::ServeArgs),
    /// Convert a problem to broadside's text or JSON format.
    Convert {
        #[command(flatten)]
        input: Input,
        /// The output format.
        #[arg(long = "to", value_enum, default_value = "text")]
        to: To,
    },
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
        Command::Solve {
            input,
            out,
            explain: false,
        } => solve::solve(&input, &out),
        Command::Solve {
            input,
            out,
            explain: true,
        } => logic::explain(&input, &out),
        Command::Grade { input, json } => logic::grade(&input, json),
        Command::Count { input, out, args } => count::count(&input, &out, &args),
        Command::Probs {
            input,
            out,
            svg,
            color,
            limit,
        } => probs::probs(&input, &out, svg.as_ref(), color, &limit),
        Command::Best { input, out, limit } => probs::best(&input, &out, &limit),
        Command::Sample {
            input,
            n,
            seed,
            sampler,
            probs,
            json,
            time_limit,
        } => sample::sample(&input, n, seed, sampler, probs, json, time_limit),
        Command::Validate {
            input,
            sampler,
            n,
            seed,
            samples,
            json,
            time_limit,
        } => sample::validate(&input, sampler, n, seed, samples.as_ref(), json, time_limit),
        Command::Generate(args) => generate::generate(&args),
        Command::Simulate(args) => play::run(&args),
        Command::Match(args) => play::run_match(&args),
        Command::Optimal(args) => play::run_optimal(&args),
        Command::Accuracy(args) => play::run_accuracy(&args),
        Command::Play(args) => versus::play(&args),
        Command::Advise(args) => advise::advise(&args),
        Command::Serve(args) => serve::serve(&args),
        Command::Convert { input, to } => generate::convert(&input, to),
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

/// Runs the command line and says how it ended.
pub fn main() -> ExitCode {
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
