//! `broadside match`: two shooters against each other, taking turns on paired boards.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use broadside::play::{Match, PairShots, PlacerKind, ShooterKind, Side, play_match};

use crate::args::{GameArgs, placer_help, seconds, shooter_help};
use crate::interrupt;
use crate::journal::{Journal, JournalArgs, Run};
use crate::report::{Printer, describe, progress_bar};
use crate::usage;

/// The options of `match`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(help = shooter_help("The first side's shooter"))]
    a: ShooterKind,
    /// The second side's shooter (as the first's).
    b: ShooterKind,
    #[arg(long, default_value = "uniform", help = placer_help("The first side's placer"))]
    placer_a: PlacerKind,
    /// The second side's placer (as the first's).
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
    /// Stop after this many seconds: the games under way are given up, the summary is of the
    /// pairs played, marked partial; with --out, --resume goes on.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    journal: JournalArgs,
}

/// The first line of an --out file: the match its pairs belong to.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    a: String,
    b: String,
    placer_a: String,
    placer_b: String,
    /// The board, fleet and rules, as the summary names them.
    game: String,
    rocks: Vec<usize>,
    games: u64,
    seed: u64,
}

impl Run for Header {
    const WRITER: &'static str = "match --out";
    const ITEM: &'static str = "pair";
    fn items(&self) -> usize {
        (self.games / 2) as usize
    }
    fn describe(&self) -> String {
        format!(
            "{} games of {} ({} placer) against {} ({} placer), {}, seed {}",
            self.games, self.a, self.placer_a, self.b, self.placer_b, self.game, self.seed
        )
    }
}

pub fn run(args: &Args) -> Result<bool> {
    let setup = args.game.setup()?;
    let a = Side {
        shooter: args.a,
        placer: args.placer_a.clone(),
    };
    let b = Side {
        shooter: args.b,
        placer: args.placer_b.clone(),
    };
    if args.games == 0 {
        return Err(usage("--games: there must be at least one pair of games"));
    }
    if args.games % 2 == 1 {
        return Err(usage(
            "--games counts the games of pairs of boards, each played with either side starting: give an even number",
        ));
    }
    let limit = args.time_limit.map(seconds).transpose()?;
    let header = Header {
        a: a.shooter.to_string(),
        b: b.shooter.to_string(),
        placer_a: a.placer.to_string(),
        placer_b: b.placer.to_string(),
        game: describe(&setup),
        rocks: setup.rocks.clone(),
        games: args.games,
        seed: args.seed,
    };
    let (journal, kept) = args.journal.open(&header, |_, _: &PairShots| Ok(()))?;
    let resumed = 2 * kept.iter().flatten().count() as u64;
    let run = Match {
        setup: setup.clone(),
        a,
        b,
        pairs: args.games / 2,
        seed: args.seed,
        kept,
    };
    let stop = interrupt::stop_on_ctrl_c_or_after(limit);
    let bar = progress_bar(args.games);
    bar.set_position(resumed);
    let m = play_match(&run, stop, &|i, shots, pairs| {
        bar.set_position(2 * pairs);
        if let Some(journal) = &journal {
            journal.keep(i as usize, &shots, stop);
        }
    });
    bar.finish_and_clear();
    Journal::finish(journal)?;
    let m = m?;
    let (a, b) = (&m.a, &m.b);
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&args.journal.json(&m, resumed)?)?;
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
        if args.journal.resume {
            writeln!(w, "  {resumed} of them kept from the --out file")?;
        }
    }
    printer.finish()?;
    Ok(m.complete || interrupt::partial(m.games, args.games, args.journal.then()))
}
