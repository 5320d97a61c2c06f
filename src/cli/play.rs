//! `broadside simulate`, `match` and `accuracy`: self-play, two sides against each other, and
//! seed 000's accuracy evaluation.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use broadside::format::json::JsonProblem;
use broadside::play::{
    Accuracy, Boards, Book, Estimator, Optimal, PlacerKind, Setup, ShooterKind, Side, Simulation,
    accuracy, play_match, simulate,
};
use broadside::sample::SamplerKind;
use broadside::{Dims, Fleet, Rules, Sinking};

use super::args::Input;
use super::report::Printer;
use super::usage;

/// The game to play: a game file, or the options (the standard game by default).
#[derive(Args)]
pub struct GameArgs {
    /// A game file whose board, rocks, fleet, rules and sinking rule to play (its shots and
    /// other clues are not used); instead of --size, --fleet, --rules and --sinking.
    file: Option<String>,
    #[command(flatten)]
    options: SetupOptions,
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

/// The options of `simulate`.
#[derive(Args)]
pub struct SimulateArgs {
    /// Who shoots: random, hunt-target, parity, checkerboard, knight, density, greedy (exact),
    /// mp:X, sampled:N, lookahead:D (or lookahead:D.Y.X), endgame:N, rollout:N or mcts:N; see
    /// docs/PLAY.md.
    #[arg(long)]
    shooter: ShooterKind,
    /// The sampler of a sampled:N shooter: uniform (exact) or weighted (seed 000's).
    #[arg(long)]
    sampler: Option<SamplerKind>,
    /// Who places: uniform (exactly uniform over legal layouts), sequential, ed1, ed2, pk,
    /// pk:AxB, each of those four with -sp (separated), adversarial:SHOOTER or file:PATH.
    #[arg(long, default_value = "uniform")]
    placer: PlacerKind,
    /// How many games.
    #[arg(long, default_value = "1000")]
    games: u64,
    /// Play the games numbered from N + 1 on: a long run in parts, each the same games as in
    /// the whole run (merge their --out files with benches/merge.py).
    #[arg(long, value_name = "N", default_value = "0")]
    first: u64,
    /// The seed: the same seed gives the same games, whatever the number of threads.
    #[arg(long, default_value = "0")]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
    /// Machine-readable output: the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Write every game, with its hidden layout as the solution, to this file, a JSON problem
    /// a line (any command reads it back).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Start exact play from the heat maps kept in this book file, when it exists, and write
    /// the book back with what this run counted (docs/PLAY.md).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// The options of `match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The first side's shooter.
    a: ShooterKind,
    /// The second side's shooter.
    b: ShooterKind,
    /// The first side's placer.
    #[arg(long, default_value = "uniform")]
    placer_a: PlacerKind,
    /// The second side's placer.
    #[arg(long, default_value = "uniform")]
    placer_b: PlacerKind,
    /// How many games: pairs of boards, each played with either side starting.
    #[arg(long, default_value = "1000")]
    games: u64,
    /// The seed.
    #[arg(long, default_value = "0")]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
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

/// The board, rocks, fleet, rules and sinking rule of a game file.
fn setup_of_file(file: &str) -> Result<Setup> {
    let spec = Input {
        file: Some(file.to_string()),
        size: None,
        fleet: None,
        rules: None,
    }
    .single()?;
    Ok(Setup::of(&spec))
}

/// The options of `optimal`.
#[derive(Args)]
pub struct OptimalArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The most belief states to solve before giving up (each takes memory).
    #[arg(long, default_value = "20000000")]
    max_states: usize,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `broadside optimal`: the least expected shots of any shooter on a small board, and exact
/// greedy's beside it.
pub fn run_optimal(args: &OptimalArgs) -> Result<bool> {
    let setup = args.game.setup()?;
    let start = std::time::Instant::now();
    let mut solver = Optimal::new(&setup, 1_000_000, args.max_states)?;
    let e = solver.expected()?;
    let seconds = start.elapsed().as_secs_f64();
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&serde_json::json!({
            "size": setup.dims.to_string(),
            "fleet": setup.fleet.describe(),
            "rules": setup.rules.to_string(),
            "sinking": setup.sinking.to_string(),
            "layouts": e.layouts,
            "optimal": e.optimal,
            "greedy": e.greedy,
            "rollout": e.rollout,
            "first": setup.dims.cell_name(e.first),
            "states": e.states,
            "seconds": seconds,
        }))?;
    } else {
        let w = printer.out();
        writeln!(
            w,
            "{} {} {}, sinking {}: {} layouts",
            setup.dims,
            setup.fleet.describe(),
            setup.rules,
            setup.sinking,
            e.layouts
        )?;
        writeln!(
            w,
            "  optimal {:.4} shots (first shot {}), greedy {:.4}: greedy takes {:.4} more ({:.2}%)",
            e.optimal,
            setup.dims.cell_name(e.first),
            e.greedy,
            e.greedy - e.optimal,
            (e.greedy / e.optimal - 1.0) * 100.0
        )?;
        writeln!(
            w,
            "  rollout of greedy {:.4}: {:.0}% of greedy's gap closed",
            e.rollout,
            closed(e.greedy, e.rollout, e.optimal) * 100.0
        )?;
        writeln!(w, "  {} belief states, {seconds:.2} s", e.states)?;
    }
    printer.finish()?;
    Ok(true)
}

/// The share of greedy's gap to the optimum that `other` closes (1 when there is no gap).
fn closed(greedy: f64, other: f64, optimal: f64) -> f64 {
    if greedy - optimal > 1e-12 {
        (greedy - other) / (greedy - optimal)
    } else {
        1.0
    }
}

/// The options of `accuracy`.
#[derive(Args)]
pub struct AccuracyArgs {
    /// A game file whose board, rocks and fleet every game uses; by default seed 000's setting
    /// (8x8, random rocks, four ships of random polyomino shapes).
    file: Option<String>,
    /// The heat map: exact, or sampled:N[:SAMPLER] (N boards a turn, e.g. sampled:1000:weighted).
    #[arg(long, default_value = "exact")]
    estimator: Estimator,
    /// How many games.
    #[arg(long, default_value = "100")]
    games: u64,
    /// Turns per game.
    #[arg(long, default_value = "10")]
    turns: usize,
    /// The chance that a turn is a sonar at a random cell instead of a shot at the top cell.
    #[arg(long, default_value = "0.2")]
    sonar: f64,
    /// Rocks per random map (without a file).
    #[arg(long, default_value = "12")]
    rocks: usize,
    /// The seed.
    #[arg(long, default_value = "0")]
    seed: u64,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub fn run_accuracy(args: &AccuracyArgs) -> Result<bool> {
    let boards = match &args.file {
        Some(file) => Boards::Fixed(setup_of_file(file)?),
        None => match Boards::naslausky() {
            Boards::Random { dims, ships, .. } => Boards::Random {
                dims,
                ships,
                rocks: args.rocks,
            },
            fixed => fixed,
        },
    };
    let run = Accuracy {
        boards,
        games: args.games,
        turns: args.turns,
        sonar: args.sonar,
        estimator: args.estimator,
        seed: args.seed,
    };
    let bar = progress_bar(run.games);
    let table = accuracy(&run, &|done| bar.set_position(done))?;
    bar.finish_and_clear();
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&table)?;
    } else {
        let w = printer.out();
        writeln!(
            w,
            "{} heat map, {} games, seed {}: mean accuracy of the likeliest cells (sd)",
            table.estimator, table.games, table.seed
        )?;
        writeln!(
            w,
            "turn  games  top-1         top-3         top-5         boards"
        )?;
        for t in &table.turns {
            writeln!(
                w,
                "{:>4}  {:>5}  {:.3} ({:.2})  {:.3} ({:.2})  {:.3} ({:.2})  {:.4e}",
                t.turn, t.games, t.top[0], t.sd[0], t.top[1], t.sd[1], t.top[2], t.sd[2], t.boards
            )?;
        }
    }
    printer.finish()?;
    Ok(true)
}

/// A bar on long runs at a terminal; nothing in a pipe or a log.
fn progress_bar(games: u64) -> ProgressBar {
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

/// The setup in words: "10x10 5 4 3 3 2 touch, sinking announced".
fn describe(setup: &Setup) -> String {
    format!(
        "{} {} {}, sinking {}",
        setup.dims,
        setup.fleet.describe(),
        setup.rules,
        setup.sinking
    )
}

pub fn run_match(args: &MatchArgs) -> Result<bool> {
    let setup = args.game.setup()?;
    let a = Side {
        shooter: args.a,
        placer: args.placer_a.clone(),
    };
    let b = Side {
        shooter: args.b,
        placer: args.placer_b.clone(),
    };
    let m = play_match(&setup, a, b, args.games.div_ceil(2), args.seed)?;
    let (a, b) = (&m.a, &m.b);
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&m)?;
    } else {
        let w = printer.out();
        writeln!(
            w,
            "{} ({} placer) against {} ({} placer), {}: {} games",
            a.shooter,
            a.placer,
            b.shooter,
            b.placer,
            describe(&setup),
            m.games
        )?;
        writeln!(
            w,
            "  {} wins {:.2}% (95% CI {:.2} to {:.2}); mean shots {:.2} against {:.2}",
            a.shooter,
            100.0 * m.win_rate,
            100.0 * m.ci95[0],
            100.0 * m.ci95[1],
            m.mean_shots_a,
            m.mean_shots_b
        )?;
    }
    printer.finish()?;
    Ok(true)
}

/// The shared book of `setup`, with the positions of the book file at `path` when there is
/// one.
fn open_book(setup: &Setup, path: &Path) -> Result<Arc<Book>> {
    let book = Book::shared(setup);
    match std::fs::read_to_string(path) {
        Ok(content) => {
            book.load(&path.display().to_string(), &content)
                .map_err(broadside::Error::from)?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    }
    Ok(book)
}

/// Writes `book` to `path` whole or not at all: to a file beside it, then renamed over it.
fn save_book(book: &Book, path: &Path) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = PathBuf::from(tmp);
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?,
    );
    book.save(&mut f)
        .and_then(|_| f.flush())
        .with_context(|| format!("writing {}", tmp.display()))?;
    drop(f);
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

pub fn run(args: &SimulateArgs) -> Result<bool> {
    let shooter = match (args.shooter, args.sampler) {
        (ShooterKind::Sampled { boards, .. }, Some(sampler)) => {
            ShooterKind::Sampled { boards, sampler }
        }
        (_, Some(_)) => {
            return Err(usage("--sampler is for a sampled:N shooter"));
        }
        (shooter, None) => shooter,
    };
    let sim = Simulation {
        setup: args.game.setup()?,
        shooter,
        placer: args.placer.clone(),
        games: args.games,
        first: args.first,
        seed: args.seed,
    };
    let book = match &args.book {
        Some(path) => Some((path, open_book(&sim.setup, path)?)),
        None => None,
    };
    let bar = progress_bar(sim.games);
    let played = simulate(&sim, &|done| bar.set_position(done));
    bar.finish_and_clear();
    // The book is kept even when the run fails: what it counted is still right.
    if let Some((path, book)) = book {
        save_book(&book, path)?;
    }
    let (summary, played) = played?;
    if let Some(path) = &args.out {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        );
        for p in &played {
            writeln!(
                f,
                "{}",
                serde_json::to_string(&JsonProblem::from_spec(&p.record))?
            )?;
        }
        f.flush()?;
    }
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&summary)?;
    } else {
        let s = &summary;
        let setup = &sim.setup;
        let w = printer.out();
        writeln!(
            w,
            "{} against the {} placer, {}: {} games",
            s.shooter,
            s.placer,
            describe(setup),
            s.games
        )?;
        writeln!(
            w,
            "  mean {:.2} shots (95% CI {:.2} to {:.2}), sd {:.2}, median {}, min {}, max {}",
            s.mean, s.ci95[0], s.ci95[1], s.sd, s.median, s.min, s.max
        )?;
        writeln!(
            w,
            "  hit ratio {:.4}, {:.3} ms per game",
            s.hit_ratio,
            s.seconds_per_game * 1e3
        )?;
    }
    printer.finish()?;
    Ok(true)
}
