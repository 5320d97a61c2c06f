//! `broadside optimal`: the least expected shots of any shooter on a small board, by
//! expectimax over belief states, with exact greedy's and its rollout's beside it.

use anyhow::Result;

use broadside::play::Optimal;

use crate::args::{GameArgs, seconds};
use crate::report::Printer;

/// The options of `optimal`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The most belief states to solve before giving up (each takes memory).
    #[arg(long, default_value = "20000000")]
    max_states: usize,
    /// Give up after this many seconds (exit 3: the question could not be answered in time).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `broadside optimal`: the least expected shots of any shooter on a small board, and exact
/// greedy's beside it.
pub fn run(args: &Args) -> Result<bool> {
    let setup = args.game.setup()?;
    let start = std::time::Instant::now();
    let mut solver = Optimal::new(&setup, 1_000_000, args.max_states)?
        .within(args.time_limit.map(seconds).transpose()?);
    let e = match solver.expected() {
        Ok(e) => e,
        // Out of time is a question not answered (exit 3), not a bad request.
        Err(e) if solver.timed_out() => return Err(anyhow::anyhow!("{e}")),
        Err(e) => return Err(e.into()),
    };
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
