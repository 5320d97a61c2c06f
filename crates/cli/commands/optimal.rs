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
    /// The belief states grow steeply with the board and the fleet: 4x4 with {3,2} takes a
    /// second, 5x5 with {3,2} more than a minute.
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    time_limit: f64,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `broadside optimal`: the least expected shots of any shooter on a small board, and exact
/// greedy's beside it.
pub fn run(args: &Args) -> Result<bool> {
    let setup = args.game.setup()?;
    let start = std::time::Instant::now();
    let mut solver =
        Optimal::new(&setup, 1_000_000, args.max_states)?.within(Some(seconds(args.time_limit)?));
    // Progress every few seconds while the states are solved, on standard error.
    let solved = solver.progress();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        std::thread::spawn(move || {
            use std::sync::atomic::Ordering;
            let mut ticks = 0u64;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                ticks += 1;
                if ticks.is_multiple_of(50) {
                    eprintln!(
                        "broadside optimal: {} belief states solved in {:.0} s",
                        solved.load(Ordering::Relaxed),
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        })
    };
    let result = solver.expected();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = watcher.join();
    let e = match result {
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
        if e.greedy - e.optimal > 1e-12 {
            writeln!(
                w,
                "  rollout of greedy {:.4}: {:.0}% of greedy's gap closed",
                e.rollout,
                closed(e.greedy, e.rollout, e.optimal) * 100.0
            )?;
        } else {
            writeln!(w, "  greedy is optimal here (so is its rollout)")?;
        }
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
