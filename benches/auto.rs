//! How `auto` chooses between the enumerator and the DP, measured: every state of simulated
//! 10x10 games (both rules, sinkings announced), the "hand clicks" (1 to 10 misses anywhere,
//! no hit), and the empty boards of the README, each counted (and per cell) by both engines
//! and timed, beside what `auto` knows before it runs either: the enumerator's work
//! estimated by random descents of its search, and the DP's states predicted from the
//! placements ([`broadside::engine::portfolio::plan`]).
//!
//! It prints, per rule and kind of count, the seconds per unit of predicted work of each
//! engine (the constants `plan` weighs the two predictions with; fitted as the median ratio),
//! then every state where `auto`'s choice is over 1.2 times the faster engine plus 20 ms, and
//! fails if there is any. `cargo bench --bench auto`; `-- --save FILE` writes every
//! measurement as JSON lines.

use std::time::Instant;

use broadside::engine::Work;
use broadside::engine::portfolio::{Choice, ENUM_PROBES, Plan, STEP_WEIGHT, plan};
use broadside::heat::HeatMap;
use broadside::{
    CountOptions, Dims, DpEngine, Engine, Enumerator, Fleet, Problem, ProblemSpec, Rules, Shot,
    ShotResult,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

mod common;
use common::greedy_game;

/// One state, measured.
struct Row {
    what: String,
    rules: Rules,
    per_cell: bool,
    plan: Plan,
    plan_seconds: f64,
    work: Work,
    dp_states: f64,
    enumerator: f64,
    dp: f64,
}

// glibc's: hands the heap's free pages back to the kernel.
unsafe extern "C" {
    fn malloc_trim(pad: usize) -> i32;
}

/// The best of `runs` timings of `f`, each begun with the process's free memory handed back
/// to the kernel: an engine then touches its memory afresh, as it does in a process of its
/// own (where the DP's first touch of its layers and trails is a good part of its time),
/// not the pages an earlier count left behind.
fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            // SAFETY: malloc_trim only releases memory the allocator holds free.
            unsafe { malloc_trim(0) };
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn measure(what: String, problem: &Problem, per_cell: bool, rows: &mut Vec<Row>) {
    let opts = CountOptions {
        per_cell,
        parallel: true,
        ..CountOptions::default()
    };
    let t = Instant::now();
    let p = plan(problem, per_cell);
    let plan_seconds = t.elapsed().as_secs_f64();
    let dp = DpEngine::new(problem).expect("game states are the DP's");
    let work = Enumerator::new(problem).estimate(ENUM_PROBES, &mut StdRng::seed_from_u64(0x5eed));
    let dp_states = dp.predicted_states();
    let (mut a, mut b) = (None, None);
    let runs = 2;
    let enumerator = best_of(runs, || {
        a = Some(Enumerator::new(problem).count(&opts).unwrap().count)
    });
    let dpt = best_of(runs, || b = Some(dp.count(&opts).unwrap().count));
    assert_eq!(a, b, "{what}: the engines agree");
    rows.push(Row {
        what,
        rules: problem.rules(),
        per_cell,
        plan: p,
        plan_seconds,
        work,
        dp_states,
        enumerator,
        dp: dpt,
    });
}

/// Every state of a game that fires at the most probable cell, per cell.
fn game_states(seed: u64, rules: Rules, rows: &mut Vec<Row>) {
    let mut shots = 0;
    greedy_game(seed, rules, |problem, _| {
        measure(format!("game {seed} shot {shots}"), problem, true, rows);
        shots += 1;
        HeatMap::compute(problem, Engine::Auto).unwrap()
    });
}

fn main() {
    let save = std::env::args().skip_while(|a| a != "--save").nth(1);
    let mut rows = Vec::new();
    let standard =
        |rules| ProblemSpec::empty(Dims::new(10, 10), Fleet::straight(&[5, 4, 3, 3, 2]), rules);
    for rules in [Rules::Touch, Rules::NoTouch] {
        // The README's example and the empty board's heat map.
        let empty = standard(rules).build().unwrap();
        for per_cell in [false, true] {
            measure("empty".into(), &empty, per_cell, &mut rows);
        }
        // Hand clicks: k misses anywhere, no hit.
        let mut rng = StdRng::seed_from_u64(11);
        for k in 1..=10 {
            let mut spec = standard(rules);
            let mut cells: Vec<usize> = (0..100).collect();
            for i in 0..k {
                let j = rng.random_range(i..100);
                cells.swap(i, j);
                spec.observations.shots.push(Shot {
                    cell: cells[i],
                    result: ShotResult::Miss,
                });
            }
            let problem = spec.build().unwrap();
            for per_cell in [false, true] {
                measure(format!("{k} misses"), &problem, per_cell, &mut rows);
            }
        }
    }
    for (seed, rules) in [
        (1, Rules::Touch),
        (2, Rules::Touch),
        (3, Rules::NoTouch),
        (4, Rules::NoTouch),
    ] {
        game_states(seed, rules, &mut rows);
    }
    // The constants: seconds per unit of predicted work, the median over states where the
    // engine takes over 5 ms (below that, fixed costs dominate).
    for rules in [Rules::Touch, Rules::NoTouch] {
        for per_cell in [false, true] {
            let of = |f: &dyn Fn(&Row) -> Option<f64>| {
                let mut v: Vec<f64> = rows
                    .iter()
                    .filter(|r| r.rules == rules && r.per_cell == per_cell)
                    .filter_map(f)
                    .collect();
                v.sort_by(f64::total_cmp);
                v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
            };
            let dp = of(&|r| (r.dp > 0.005).then(|| r.dp / r.dp_states));
            let en = of(&|r| {
                (r.enumerator > 0.005)
                    .then(|| r.enumerator / (r.work.nodes + STEP_WEIGHT * r.work.steps))
            });
            println!(
                "{rules:?} per_cell={per_cell}: dp {dp:.3e} s/state, enumerator {en:.3e} s/unit"
            );
        }
    }
    let mut bad = 0;
    let mut worst = 0f64;
    for r in &rows {
        let chosen = match r.plan.choice {
            Choice::Enumerator => r.enumerator,
            Choice::Dp => r.dp,
        } + r.plan_seconds;
        let fastest = r.enumerator.min(r.dp);
        worst = worst.max(chosen / fastest);
        if chosen > 1.2 * fastest + 0.020 {
            bad += 1;
            println!(
                "over: {} {:?} per_cell={} chose {:?}: enum {:.1} ms, dp {:.1} ms, plan {:.2} ms ({:.3e} dp states, {:.3e} enum work)",
                r.what,
                r.rules,
                r.per_cell,
                r.plan.choice,
                r.enumerator * 1e3,
                r.dp * 1e3,
                r.plan_seconds * 1e3,
                r.dp_states,
                r.work.nodes + STEP_WEIGHT * r.work.steps
            );
        }
    }
    let plan_max = rows.iter().map(|r| r.plan_seconds).fold(0.0, f64::max);
    println!(
        "auto: {} states, {} over 1.2x the faster engine + 20 ms; worst ratio {:.2}; planning at most {:.2} ms",
        rows.len(),
        bad,
        worst,
        plan_max * 1e3
    );
    if let Some(path) = save {
        let lines: String = rows
            .iter()
            .map(|r| {
                format!(
                    "{{\"what\":\"{}\",\"rules\":\"{:?}\",\"per_cell\":{},\"dp_states\":{},\"enum_nodes\":{},\"enum_steps\":{},\"choice\":\"{:?}\",\"plan_s\":{},\"enum_s\":{},\"dp_s\":{}}}\n",
                    r.what,
                    r.rules,
                    r.per_cell,
                    r.dp_states,
                    r.work.nodes,
                    r.work.steps,
                    r.plan.choice,
                    r.plan_seconds,
                    r.enumerator,
                    r.dp
                )
            })
            .collect();
        std::fs::write(&path, lines).expect("the --save file is writable");
    }
    assert_eq!(bad, 0, "auto chose an engine over 1.2x the faster + 20 ms");
}
