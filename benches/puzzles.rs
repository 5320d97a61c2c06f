//! Solving puzzles and proving uniqueness: Rubin's 303 boards, and `auto` on the hard set
//! (`puzzles/hard`: counts and no given cell; the solution is re-checked by the validator).
//!
//! Besides criterion's timing of the whole corpus, the bench prints the per-puzzle median
//! and maximum (each puzzle timed as the best of 5 runs), the figures `docs/PERFORMANCE.md`
//! compares with the OR-Tools CP-SAT peer (`benches/peers/cpsat_rubin.py`).

use std::hint::black_box;
use std::time::Instant;

use broadside::{Engine, Enumerator, Layout, Problem, check, format};
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "common.rs"]
mod common;

/// Solves and proves uniqueness; the solution must match the recorded one.
fn solve_unique(p: &Problem, engine: Engine) -> Layout {
    let opts = broadside::CountOptions {
        limit: Some(2),
        ..Default::default()
    };
    let r = engine.count(p, &opts).unwrap();
    assert!(r.complete && r.count == 1, "not unique");
    let s = engine.solve(p).unwrap();
    if let Some(rec) = &p.spec().solution {
        assert_eq!(&s, rec);
    }
    s
}

fn per_puzzle(name: &str, problems: &[Problem], engine: Engine) {
    let mut times: Vec<f64> = problems
        .iter()
        .map(|p| {
            (0..5)
                .map(|_| {
                    let t = Instant::now();
                    black_box(solve_unique(p, engine));
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let max = times[times.len() - 1];
    println!(
        "{name} per puzzle, {engine:?}: {} puzzles, median {:.3} ms, max {:.3} ms",
        times.len(),
        median * 1e3,
        max * 1e3
    );
}

fn bench(c: &mut Criterion) {
    let (name, problems) = common::rubin_corpus();
    per_puzzle(&name, &problems, Engine::Enum);
    per_puzzle(&name, &problems, Engine::Sat);
    let mut g = c.benchmark_group("puzzles");
    g.sample_size(10);
    g.bench_function(format!("{name} solve+unique, enum"), |b| {
        b.iter(|| {
            for p in &problems {
                assert!(Enumerator::new(p).is_unique());
            }
        })
    });
    g.bench_function(format!("{name} solve+unique, sat"), |b| {
        b.iter(|| {
            for p in &problems {
                black_box(solve_unique(p, Engine::Sat));
            }
        })
    });
    g.finish();
    // The enumerator alone needs minutes on the 21-ship 15x15 puzzles; SAT, and so `auto`,
    // milliseconds. The 30x30 one is where the enumerator wins the race.
    let mut g = c.benchmark_group("hard set");
    g.sample_size(10);
    for name in [
        "hard-15x15-21ships-s1",
        "hard-20x20-28ships-s2",
        "hard-30x30-31ships-s2",
    ] {
        let path = format!("{}/puzzles/hard/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let p = format::read(&path, &text)
            .unwrap()
            .remove(0)
            .build()
            .unwrap();
        g.bench_function(format!("{name} solve, auto"), |b| {
            b.iter(|| {
                let s = Engine::Auto.solve(&p).expect("a solution");
                assert!(check::layout(p.spec(), &s).is_ok());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
