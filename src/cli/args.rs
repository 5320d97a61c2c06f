//! The arguments several commands share, and reading the problems they name.

use std::io::{IsTerminal, Read};
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use broadside::format;
use broadside::{Dims, Engine, Fleet, ProblemSpec, Rules};

use super::usage;

/// Where the problems come from: a file, standard input, or an empty board.
#[derive(Args)]
pub struct Input {
    /// The problem file (`-` for standard input): text, JSON, JSON lines, .dzn or XCSP3 JSON.
    pub file: Option<String>,
    /// An empty board of this size (WxH) instead of a file.
    #[arg(long, value_name = "WxH")]
    pub size: Option<Dims>,
    /// The fleet of an empty board, e.g. "5 4 3 3 2" or "1x4 2x3 3x2 4x1".
    #[arg(long)]
    pub fleet: Option<String>,
    /// The rules of an empty board: touch or no-touch (default no-touch).
    #[arg(long)]
    pub rules: Option<Rules>,
}

impl Input {
    /// Every problem of the input, in order.
    pub fn problems(&self) -> Result<Vec<ProblemSpec>> {
        match (&self.file, &self.size) {
            (Some(_), Some(_)) => Err(usage("give a file or --size/--fleet, not both")),
            // A file says its own fleet and rules; options that would be ignored are refused.
            (Some(_), None) if self.fleet.is_some() || self.rules.is_some() => Err(usage(
                "--fleet and --rules describe an empty board with --size; a file gives its own",
            )),
            (None, None) => Err(usage(
                "give a problem file (or -) or --size WxH --fleet \"...\"",
            )),
            (None, Some(dims)) => {
                let text = self
                    .fleet
                    .as_deref()
                    .ok_or_else(|| usage("--size needs --fleet"))?;
                let fleet = Fleet::parse(text, &[]).map_err(|e| usage(format!("--fleet: {e}")))?;
                Ok(vec![ProblemSpec::empty(
                    *dims,
                    fleet,
                    self.rules.unwrap_or(Rules::NoTouch),
                )])
            }
            (Some(file), None) => {
                let (name, content) = if file == "-" {
                    let mut s = String::new();
                    std::io::stdin()
                        .read_to_string(&mut s)
                        .map_err(|e| usage(format!("standard input: {e}")))?;
                    ("<stdin>", s)
                } else {
                    let s =
                        std::fs::read_to_string(file).map_err(|e| usage(format!("{file}: {e}")))?;
                    (file.as_str(), s)
                };
                let specs = format::read(name, &content).map_err(broadside::Error::from)?;
                if specs.is_empty() {
                    return Err(usage(format!("{name}: no problem in the input")));
                }
                Ok(specs)
            }
        }
    }

    /// The one problem of the input; an error when there are several.
    pub fn single(&self) -> Result<ProblemSpec> {
        let mut specs = self.problems()?;
        if specs.len() != 1 {
            return Err(usage("this command takes a single problem"));
        }
        Ok(specs.remove(0))
    }
}

/// Output and engine choices.
#[derive(Args)]
pub struct Output {
    /// Machine-readable output (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// The engine: auto (the fastest exact one that applies), enum (bitboard enumerator),
    /// sat (varisat), or dp (transfer-matrix DP; counting only).
    #[arg(long, default_value = "auto")]
    pub engine: Engine,
}

/// A time limit in seconds.
#[derive(Args)]
pub struct TimeLimit {
    /// Stop counting after this many seconds; the map is then marked partial (its counts are
    /// lower bounds and its probabilities not exact).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
}

impl TimeLimit {
    /// The limit as a duration; an error unless it is a positive number.
    pub fn duration(&self) -> Result<Option<Duration>> {
        self.time_limit.map(seconds).transpose()
    }
}

/// A positive number of seconds as a duration; one too long for a duration (past about
/// 5.8e11 years) is as good as no limit.
pub fn seconds(t: f64) -> Result<Duration> {
    if t.is_nan() || t <= 0.0 {
        return Err(usage("--time-limit must be a positive number of seconds"));
    }
    Ok(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX))
}

/// When to colour the terminal heat map.
#[derive(Clone, Copy, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and NO_COLOR is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to standard output: `auto` colours a terminal unless
    /// NO_COLOR is set (to anything but the empty string).
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// The formats `convert` writes.
#[derive(Clone, Copy, ValueEnum)]
pub enum To {
    /// broadside's text format.
    Text,
    /// broadside's JSON format.
    Json,
}
