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
    let time_limit = seconds(args.time_limit)?;
    let mut solver = Optimal::new(&setup, 1_000_000, args.max_states)?.within(Some(time_limit));
    refuse_hopeless(&solver, args.max_states, time_limit)?;
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

/// Random walks behind the estimate of the hunt's belief states: fewer where the layouts are
/// many (each walk's step passes over them).
fn walks(layouts: usize) -> usize {
    (4_000_000 / layouts.max(1)).clamp(8, 256)
}

/// Belief states a second that the search is taken to solve at most when an estimate is
/// weighed against the time limit: twenty times the rate measured on two cores (about
/// 45,000 a second on 4x4 with {3,2}), so that a refused run would not have ended in time.
const FASTEST_STATES_PER_SECOND: f64 = 1_000_000.0;

/// How far the estimate must pass the budget before the search is refused: the estimate
/// has been found up to four times the states solved (docs/ALGORITHMS.md, "Exact play").
const REFUSAL_MARGIN: f64 = 10.0;

/// Refuses, before the search starts, a game whose belief states before the first hit alone
/// are estimated at more than ten times what the state budget or the time limit allows.
fn refuse_hopeless(
    solver: &Optimal,
    max_states: usize,
    time_limit: std::time::Duration,
) -> Result<()> {
    use rand::SeedableRng;
    if solver.solved_at_once() {
        return Ok(());
    }
    // The budget is the tighter of the two, named as such if the game is refused.
    let by_time = time_limit.as_secs_f64() * FASTEST_STATES_PER_SECOND;
    let (budget, why) = if (max_states as f64) < by_time {
        (
            max_states as f64,
            format!("the --max-states budget ({max_states})"),
        )
    } else {
        (
            by_time,
            format!(
                "what --time-limit {} s allows at {FASTEST_STATES_PER_SECOND:.0} states a second",
                time_limit.as_secs_f64()
            ),
        )
    };
    // The walks are drawn from a fixed seed: the same game gets the same estimate.
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let walks = walks(solver.layouts());
    let estimate = solver.hunt_states(walks, &mut rng);
    if estimate > REFUSAL_MARGIN * budget {
        anyhow::bail!(
            "optimal play not tried: about {estimate:.1e} belief states before the first hit \
             alone (estimated from {walks} random walks), more than ten times {why}"
        );
    }
    Ok(())
}

/// The share of greedy's gap to the optimum that `other` closes (1 when there is no gap).
fn closed(greedy: f64, other: f64, optimal: f64) -> f64 {
    if greedy - optimal > 1e-12 {
        (greedy - other) / (greedy - optimal)
    } else {
        1.0
    }
}
