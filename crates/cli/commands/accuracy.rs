//! `broadside accuracy`: how often the likeliest cells of an exact or a sampled heat map hold a
//! ship, turn by turn (the evaluation of Naslausky & Figueiredo).

use anyhow::Result;

use broadside::play::{Accuracy, Boards, Estimator, accuracy};

use crate::args::{seconds, setup_of_file};
use crate::interrupt;
use crate::report::{Printer, progress_bar};

/// The options of `accuracy`.
#[derive(clap::Args)]
pub struct Args {
    /// A game file whose board, rocks and fleet every game uses; by default Naslausky & Figueiredo's setting
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
    /// Stop after this many seconds: the games under way are given up, the table is of the games
    /// played, marked partial.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// Runs the evaluation and prints its table.
pub fn run(args: &Args) -> Result<bool> {
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
    let limit = args.time_limit.map(seconds).transpose()?;
    let stop = interrupt::stop_on_ctrl_c_or_after(limit);
    let bar = progress_bar(run.games);
    let table = accuracy(&run, stop, &|done| bar.set_position(done))?;
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
    Ok(table.complete || interrupt::partial(table.games, run.games, ""))
}
