//! `broadside accuracy`: how often the likeliest cells of an exact or a sampled heat map hold a
//! ship, turn by turn (the evaluation of Naslausky & Figueiredo).

use anyhow::Result;
use serde::{Deserialize, Serialize};

use broadside::play::{Accuracy, Boards, Estimator, GameAccuracy, accuracy};

use crate::args::{seconds, setup_of_file};
use crate::journal::{Journal, JournalArgs, Run};
use crate::report::{Printer, describe, progress_bar};
use crate::{interrupt, usage};

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
    /// played, marked partial; with --out, --resume goes on.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    journal: JournalArgs,
}

/// The first line of an --out file: the run its games belong to.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    /// The boards: Naslausky & Figueiredo's random maps, or one game's board, fleet and rules.
    boards: String,
    rocks: Vec<usize>,
    estimator: String,
    games: u64,
    turns: usize,
    sonar: f64,
    seed: u64,
}

impl Run for Header {
    const WRITER: &'static str = "accuracy --out";
    const ITEM: &'static str = "game";
    fn items(&self) -> usize {
        self.games as usize
    }
    fn describe(&self) -> String {
        format!(
            "{} games of {} turns on {}, {} heat map, sonar {}, seed {}",
            self.games, self.turns, self.boards, self.estimator, self.sonar, self.seed
        )
    }
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
    if args.games == 0 {
        return Err(usage("--games: there must be at least one game"));
    }
    let header = Header {
        boards: match &boards {
            Boards::Random { dims, rocks, ships } => {
                format!("random {dims} maps with {rocks} rocks and {ships} ships")
            }
            Boards::Fixed(setup) => describe(setup),
        },
        rocks: match &boards {
            Boards::Fixed(setup) => setup.rocks.clone(),
            Boards::Random { .. } => Vec::new(),
        },
        estimator: args.estimator.to_string(),
        games: args.games,
        turns: args.turns,
        sonar: args.sonar,
        seed: args.seed,
    };
    let (journal, kept) = args.journal.open(&header, |_, g: &GameAccuracy| {
        if g.hits.len() != g.boards.len() || g.hits.len() > args.turns + 1 {
            return Err(format!(
                "{} turns of hits and {} of boards, in a run of {} turns",
                g.hits.len(),
                g.boards.len(),
                args.turns
            ));
        }
        Ok(())
    })?;
    let resumed = kept.iter().flatten().count() as u64;
    let run = Accuracy {
        boards,
        games: args.games,
        turns: args.turns,
        sonar: args.sonar,
        estimator: args.estimator,
        seed: args.seed,
        kept,
    };
    let limit = args.time_limit.map(seconds).transpose()?;
    let stop = interrupt::stop_on_ctrl_c_or_after(limit);
    let bar = progress_bar(run.games);
    bar.set_position(resumed);
    let table = accuracy(&run, stop, &|i, game, done| {
        bar.set_position(done);
        if let Some(journal) = &journal {
            journal.keep(i as usize, game, stop);
        }
    });
    bar.finish_and_clear();
    Journal::finish(journal)?;
    let table = table?;
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&args.journal.json(&table, resumed)?)?;
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
        if args.journal.resume {
            writeln!(w, "  {resumed} of the games kept from the --out file")?;
        }
    }
    printer.finish()?;
    Ok(table.complete || interrupt::partial(table.games, run.games, args.journal.then()))
}
