//! Exact layout counts of empty boards, asserted against the literature's figures.

use std::hint::black_box;

use broadside::{CountOptions, Dims, Enumerator, Fleet, ProblemSpec, Rules};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn problem(w: usize, h: usize, fleet: &[usize], rules: Rules) -> broadside::Problem {
    ProblemSpec::empty(Dims::new(w, h), Fleet::straight(fleet), rules)
        .build()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("count");
    g.sample_size(10);
    let cases = [
        (
            "10x10 {5,4,3,3,2} touch",
            problem(10, 10, &[5, 4, 3, 3, 2], Rules::Touch),
            15_046_987_768u128,
        ),
        (
            "10x10 {5,4,3,3,2} no-touch",
            problem(10, 10, &[5, 4, 3, 3, 2], Rules::NoTouch),
            1_925_751_392,
        ),
        (
            "9x9 {5,4,3,3,2} no-touch",
            problem(9, 9, &[5, 4, 3, 3, 2], Rules::NoTouch),
            241_273_548,
        ),
    ];
    for (name, p, expected) in &cases {
        g.bench_function(format!("{name}, 2 threads"), |b| {
            b.iter(|| {
                let r = Enumerator::new(p)
                    .count(&CountOptions {
                        parallel: true,
                        ..Default::default()
                    })
                    .unwrap();
                assert_eq!(r.count, *expected);
                black_box(r)
            })
        });
    }
    for (name, p, expected) in &cases[..2] {
        g.bench_function(format!("{name}, per-cell, dp, 2 threads"), |b| {
            b.iter(|| {
                let r = broadside::Engine::Dp
                    .count(
                        p,
                        &CountOptions {
                            per_cell: true,
                            parallel: true,
                            ..Default::default()
                        },
                    )
                    .unwrap();
                assert_eq!((r.engine, r.count), (broadside::EngineKind::Dp, *expected));
                // Every layout covers 17 cells.
                assert_eq!(
                    r.per_cell.as_ref().unwrap().iter().sum::<u128>(),
                    17 * expected
                );
                black_box(r)
            })
        });
        g.bench_function(format!("{name}, total, dp, 2 threads"), |b| {
            b.iter(|| {
                let r = broadside::Engine::Dp
                    .count(
                        p,
                        &CountOptions {
                            parallel: true,
                            ..Default::default()
                        },
                    )
                    .unwrap();
                assert_eq!(r.count, *expected);
                black_box(r)
            })
        });
    }
    let (name, p, expected) = &cases[0];
    // What `broadside probs` and the Python package's `Game.probs()` run: the heat map report
    // with the engine chosen by `auto`, from a freshly built problem.
    g.bench_function(format!("{name}, probs report, auto, 2 threads"), |b| {
        b.iter(|| {
            let p = broadside::answer::build(p.given().clone()).unwrap();
            let asked = broadside::answer::Options::new().parallel();
            match broadside::answer::probs(&p, &asked).unwrap() {
                broadside::answer::ProbsReport::Map(h) => {
                    assert_eq!(h.layouts, (*expected).into());
                    black_box(h)
                }
                other => panic!("no map: {other:?}"),
            }
        })
    });
    g.bench_function(format!("{name}, 1 thread"), |b| {
        b.iter(|| {
            let r = Enumerator::new(p).count(&CountOptions::default()).unwrap();
            assert_eq!(r.count, *expected);
            black_box(r)
        })
    });
    g.finish();
}

/// The standard game's positions with misses and no hit (the opening states of a game, the
/// DP's dearest), per-cell counts by the DP afresh and by `auto`'s DP with the empty board's
/// trails recorded (`DpReplay`, as a game's book holds them): replayed from the trails alone,
/// and one shot past the position counted before (whose sweeps the replay keeps, as in a
/// game); the same counts, and the replay taken where it is predicted sooner. Then positions
/// of a first hit, by the enumerator and by `auto` with the trails, alone and one shot past
/// the position before the hit.
fn replay(c: &mut Criterion) {
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    for rules in [Rules::Touch, Rules::NoTouch] {
        let empty = problem(10, 10, &[5, 4, 3, 3, 2], rules);
        let replay = std::sync::Arc::new(broadside::DpReplay::new(empty.clone()));
        let per_cell = CountOptions {
            per_cell: true,
            parallel: true,
            ..Default::default()
        };
        let replaying = CountOptions {
            replay: Some(replay.clone()),
            ..per_cell.clone()
        };
        // Records the trails.
        broadside::Engine::Dp.count(&empty, &replaying).unwrap();
        let position = |misses: &[usize], hit: Option<usize>| {
            let mut spec = empty.given().clone();
            spec.clues = vec![None; 100];
            for &m in misses {
                spec.clues[m] = Some(broadside::Clue::Water);
            }
            if let Some(h) = hit {
                spec.clues[h] = Some(broadside::Clue::Ship);
            }
            spec.build().unwrap()
        };
        // Before each timed count: the positions counted so far forgotten (their sweeps'
        // memory kept, as a game's next position finds it), and the position before counted
        // where there is one.
        let before = |last: Option<&broadside::Problem>| {
            replay.forget_positions();
            if let Some(p) = last {
                broadside::Engine::Dp.count(p, &replaying).unwrap();
            }
        };
        for misses in [&[][..], &[44], &[44, 55], &[44, 55, 12, 87]] {
            let p = position(misses, None);
            let last = (!misses.is_empty()).then(|| position(&misses[..misses.len() - 1], None));
            let fresh = broadside::Engine::Dp.count(&p, &per_cell).unwrap();
            assert_eq!(
                fresh.per_cell.as_ref().unwrap().iter().sum::<u128>(),
                17 * fresh.count
            );
            let mut ways = vec![("afresh", &per_cell, None), ("replay", &replaying, None)];
            if let Some(last) = &last {
                ways.push(("replay one miss past the last", &replaying, Some(last)));
            }
            for (how, opts, last) in ways {
                let name = format!(
                    "10x10 {{5,4,3,3,2}} {rules}, {} misses, {how}",
                    misses.len()
                );
                g.bench_function(name, |b| {
                    b.iter_batched(
                        || before(last),
                        |()| {
                            let r = broadside::Engine::Dp.count(&p, opts).unwrap();
                            assert_eq!((r.count, &r.per_cell), (fresh.count, &fresh.per_cell));
                            black_box(r)
                        },
                        BatchSize::PerIteration,
                    )
                });
            }
        }
        // A first hit with the fleet afloat, which a fresh DP counts slower than the
        // enumerator: `auto` with the trails recorded replays it where that is predicted
        // sooner than the enumerator (mid-board; in a corner the enumerator keeps it).
        for (hit, misses) in [(44, &[][..]), (44, &[11]), (0, &[])] {
            let p = position(misses, Some(hit));
            let last = position(misses, None);
            let truth = broadside::Engine::Enum.count(&p, &per_cell).unwrap();
            for (how, engine, opts, last) in [
                ("enumerator", broadside::Engine::Enum, &per_cell, None),
                (
                    "auto with the trails",
                    broadside::Engine::Auto,
                    &replaying,
                    None,
                ),
                (
                    "auto one shot past the last",
                    broadside::Engine::Auto,
                    &replaying,
                    Some(&last),
                ),
            ] {
                let name = format!(
                    "10x10 {{5,4,3,3,2}} {rules}, a hit at {hit}, {} misses, {how}",
                    misses.len()
                );
                g.bench_function(name, |b| {
                    b.iter_batched(
                        || before(last),
                        |()| {
                            let r = engine.count(&p, opts).unwrap();
                            assert_eq!((r.count, &r.per_cell), (truth.count, &truth.per_cell));
                            black_box(r)
                        },
                        BatchSize::PerIteration,
                    )
                });
            }
        }
    }
    g.finish();
}

criterion_group!(benches, bench, replay);
criterion_main!(benches);
