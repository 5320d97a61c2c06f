//! Exact heat maps at every state of simulated 10x10 games.
//!
//! Each game hides a layout drawn by placing ships one at a time at random (seeded), then
//! fires at the most probable open cell until every ship is sunk; sinkings are announced by
//! type on the sinking shot, so every state is a full game record in shot order. Every
//! state's heat map is computed exactly with the `auto` engine and timed; the bench prints
//! the median and the maximum per state, the figures `docs/PERFORMANCE.md` compares with the
//! targets. The hidden layout must stay consistent with every state.

use std::time::Instant;

use broadside::heat::HeatMap;
use broadside::{Engine, Rules};

mod common;
use common::greedy_game;

fn main() {
    let mut times = Vec::new();
    for (game, rules) in [
        (1u64, Rules::Touch),
        (2, Rules::Touch),
        (3, Rules::NoTouch),
        (4, Rules::NoTouch),
    ] {
        greedy_game(game, rules, |problem, hidden| {
            let t = Instant::now();
            let heat = HeatMap::compute(problem, Engine::Auto).unwrap();
            times.push(t.elapsed().as_secs_f64());
            assert!(heat.layouts >= 1, "the hidden layout is always consistent");
            assert!(broadside::check::layout(problem.spec(), hidden).is_ok());
            heat
        });
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let max = times[times.len() - 1];
    let over = times.iter().filter(|&&t| t > 0.5).count();
    println!(
        "game states: {} states in 4 games, exact heat map per state: median {:.2} ms, max {:.0} ms, {} over 0.5 s",
        times.len(),
        median * 1e3,
        max * 1e3,
        over
    );
}
