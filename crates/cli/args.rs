//! The arguments several commands share, and reading the problems they name.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use broadside::format;
use broadside::{Dims, Engine, Fleet, ProblemSpec, Rules};

use broadside::play::Setup;
use broadside::play::vocabulary::{PLACERS, SHOOTERS};
use broadside::{CountOptions, Sinking};

use crate::usage;

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
            (Some(file), None) => read_problems(file),
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

    /// Counting options with this limit, on every core.
    pub fn count_options(&self) -> Result<CountOptions> {
        Ok(CountOptions {
            time_limit: self.duration()?,
            parallel: true,
            ..CountOptions::default()
        })
    }
}

/// The help of a `--shooter` option: `what`, then the shooters and presets of the table.
pub fn shooter_help(what: &str) -> String {
    format!(
        "{what}: {}; each with its parameters by name (pilot:layouts=3200,candidates=8) or by position (pilot:3200.8): `broadside shooters` lists them",
        SHOOTERS.help()
    )
}

/// The help of a `--placer` option: `what`, then the placers of the table.
pub fn placer_help(what: &str) -> String {
    format!(
        "{what}: {}, with Sakuta & Iida's names read too (ed1-sp, rsp, pk:2x10); `broadside shooters` lists them",
        PLACERS.help()
    )
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
    /// A puzz.link URL (no-touch puzzles without rocks or shots).
    Puzlink,
    /// pzprjs's own file, a person's marks included (no-touch puzzles without rocks or shots).
    Pzprv3,
}

/// The game to play: a game file, or the options (the standard game by default).
#[derive(Args)]
pub struct GameArgs {
    /// A game file whose board, rocks, fleet, rules and sinking rule to play (its shots and
    /// other clues are not used); instead of --size, --fleet, --rules and --sinking.
    pub file: Option<String>,
    #[command(flatten)]
    pub options: SetupOptions,
}

impl GameArgs {
    /// The game: the file's, or the options'.
    pub fn setup(&self) -> Result<Setup> {
        match &self.file {
            Some(_) if self.options.any() => Err(usage(
                "a game file gives the board, fleet, rules and sinking: give it or the options, not both",
            )),
            Some(file) => setup_of_file(file),
            None => self.options.setup(),
        }
    }
}

/// A game given by options, the standard game's where one is not given.
#[derive(Args)]
pub struct SetupOptions {
    /// Board size, WxH (default 10x10).
    #[arg(long, value_name = "WxH")]
    size: Option<Dims>,
    /// The fleet (default "5 4 3 3 2").
    #[arg(long)]
    fleet: Option<String>,
    /// touch or no-touch (default touch).
    #[arg(long)]
    rules: Option<Rules>,
    /// How sinkings are reported: none, announced or revealed (default announced).
    #[arg(long)]
    sinking: Option<Sinking>,
}

impl SetupOptions {
    /// Whether any option was given.
    pub fn any(&self) -> bool {
        self.size.is_some()
            || self.fleet.is_some()
            || self.rules.is_some()
            || self.sinking.is_some()
    }

    /// The game these options describe.
    pub fn setup(&self) -> Result<Setup> {
        let standard = Setup::standard();
        let fleet = match &self.fleet {
            Some(f) => Fleet::parse(f, &[]).map_err(|e| usage(format!("--fleet: {e}")))?,
            None => standard.fleet,
        };
        Ok(Setup {
            dims: self
                .size
                .unwrap_or(standard.dims)
                .supported()
                .map_err(broadside::Error::from)?,
            fleet,
            rules: self.rules.unwrap_or(standard.rules),
            sinking: self.sinking.unwrap_or(standard.sinking),
            rocks: Vec::new(),
        })
    }
}

/// The board, rocks, fleet, rules and sinking rule of a game file.
pub fn setup_of_file(file: &str) -> Result<Setup> {
    let spec = Input {
        file: Some(file.to_string()),
        size: None,
        fleet: None,
        rules: None,
    }
    .single()?;
    Ok(Setup::of(&spec))
}

/// Every problem of a file (`-` for standard input), in any format the CLI reads; an error
/// when it holds none.
pub fn read_problems(file: &str) -> Result<Vec<ProblemSpec>> {
    // A puzz.link URL given where a file goes is the problem itself.
    if format::puzlink::is_url(file) {
        let spec = format::puzlink::parse(file)
            .map_err(|e| broadside::Error::from(e.in_file("the URL")))?;
        return Ok(vec![spec]);
    }
    let (name, content) = if file == "-" {
        (
            "<stdin>",
            format::input::read_bounded("<stdin>", std::io::stdin().lock())?,
        )
    } else {
        (file, format::input::read_file(std::path::Path::new(file))?)
    };
    let specs = format::read(name, &content).map_err(broadside::Error::from)?;
    if specs.is_empty() {
        return Err(usage(format!("{name}: no problem in the input")));
    }
    Ok(specs)
}
