//! `broadside match`: two shooters against each other, taking turns on paired boards.

use anyhow::Result;

use broadside::play::{PlacerKind, ShooterKind, Side, play_match};

use crate::args::{GameArgs, seconds};
use crate::interrupt;
use crate::report::{Printer, describe, progress_bar};
use crate::usage;

/// The options of `match`.
#[derive(clap::Args)]
pub struct Args {
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
    /// Stop after this many seconds: the games under way are given up, the summary is of the
    /// pairs played, marked partial.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    #[arg(long)]
    json: bool,
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
    if args.games % 2 == 1 {
        return Err(usage(
            "--games counts the games of pairs of boards, each played with either side starting: give an even number",
        ));
    }
    let limit = args.time_limit.map(seconds).transpose()?;
    let stop = interrupt::stop_on_ctrl_c_or_after(limit);
    let bar = progress_bar(args.games);
    let m = play_match(&setup, a, b, args.games / 2, args.seed, stop, &|pairs| {
        bar.set_position(2 * pairs)
    });
    bar.finish_and_clear();
    let m = m?;
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
    Ok(m.complete || interrupt::partial(m.games, args.games, ""))
}
