//! `auto`'s portfolio: its answers equal each engine's alone on random puzzles, with the race
//! forced (no head start) so that both engines run; a cancelled engine stops and no thread
//! outlives a race; and (release, `--include-ignored`) every puzzle of the hard benchmark set
//! `puzzles/hard` is solved, its solution re-checked, and its non-uniqueness agreed with SAT.

use crate::common;

use std::time::{Duration, Instant};

use broadside::engine::portfolio;
use broadside::{
    Cancel, CountOptions, CountResult, Engine, Enumerator, Problem, SatEngine, Stop, check, format,
};

fn hard(name: &str) -> Problem {
    let path = format!(
        "{}/puzzles/hard/{name}.txt",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    format::read(&path, &text)
        .unwrap()
        .remove(0)
        .build()
        .unwrap()
}

/// Held by every test here, so that no other test starts or ends threads while one counts
/// them.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The threads of this process, from the kernel.
/// The threads of this process a race started (other tests' threads come and go).
fn racers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == portfolio::RACER_THREAD)
        .count()
}

fn same(a: &CountResult, b: &CountResult, what: &str) {
    assert_eq!(
        (a.count, a.complete, &a.per_cell),
        (b.count, b.complete, &b.per_cell),
        "{what}"
    );
}

#[test]
fn forced_races_give_each_engines_answer_on_random_puzzles() {
    let _one = alone();
    let mut raced = 0;
    for seed in 0..60 {
        let Some((spec, planted)) = common::planted(seed) else {
            continue;
        };
        let p = spec.build().unwrap();
        let per_cell = CountOptions {
            per_cell: true,
            ..CountOptions::default()
        };
        let alone = Enumerator::new(&p).count(&per_cell).unwrap();
        if alone.count > 3000 {
            continue;
        }
        raced += 1;
        let all = portfolio::count_all(&p, &per_cell, Duration::ZERO).unwrap();
        same(&all, &alone, &format!("seed {seed}: full count"));
        let sat = SatEngine::new(&p).count(&per_cell).unwrap();
        same(&sat, &alone, &format!("seed {seed}: SAT"));
        for limit in [1, 2, 5, 100] {
            let opts = CountOptions {
                limit: Some(limit),
                ..CountOptions::default()
            };
            let r = portfolio::count_to_limit(&p, &opts, Duration::ZERO).unwrap();
            assert_eq!(
                r.count,
                alone.count.min(limit),
                "seed {seed}: limit {limit}"
            );
            assert_eq!(
                r.complete,
                alone.count < limit,
                "seed {seed}: limit {limit}"
            );
        }
        let (found, _) = portfolio::solve(&p, None, Duration::ZERO, None)
            .expect("a search with no deadline answers");
        let found = found.expect("a planted puzzle has a solution");
        assert!(check::layout(p.spec(), &found).is_ok(), "seed {seed}");
        if alone.count == 1 {
            assert_eq!(found, planted, "seed {seed}");
        }
    }
    assert!(raced >= 30, "{raced} puzzles raced");
}

#[test]
fn the_engine_that_answers_first_is_named_and_no_thread_outlives_the_race() {
    let _one = alone();
    // The enumerator needs minutes for this puzzle's first layout, SAT milliseconds.
    let p = hard("hard-15x15-21ships-s1");
    let (found, engine) = Engine::Auto.solve_by(&p);
    assert_eq!(engine, broadside::EngineKind::Sat);
    assert!(check::layout(p.spec(), &found.unwrap()).is_ok());
    let to_two = CountOptions {
        limit: Some(2),
        ..CountOptions::default()
    };
    let r = Engine::Auto.count(&p, &to_two).unwrap();
    assert_eq!((r.count, r.stopped), (2, Some(Stop::Limit)));
    assert_eq!(r.engine, broadside::EngineKind::Sat);
    assert_eq!(racers(), 0, "a racer is still running");
}

#[test]
fn a_cancelled_count_stops_with_what_it_has() {
    let _one = alone();
    let p = hard("hard-15x15-21ships-s1");
    for engine in [Engine::Enum, Engine::Sat] {
        let cancel = Cancel::new();
        let opts = CountOptions {
            cancel: Some(cancel.clone()),
            ..CountOptions::default()
        };
        let start = Instant::now();
        let r = std::thread::scope(|s| {
            let h = s.spawn(|| engine.count(&p, &opts));
            std::thread::sleep(Duration::from_millis(100));
            cancel.cancel();
            h.join().unwrap()
        })
        .unwrap();
        assert_eq!(r.stopped, Some(Stop::Cancelled), "{engine:?}");
        assert!(!r.complete, "{engine:?}");
        // Not a timing test: a count that ignored the flag would run for minutes.
        assert!(start.elapsed() < Duration::from_secs(30), "{engine:?}");
    }
}

#[test]
#[ignore = "release: the hard benchmark set (cargo test --release -p broadside --test library portfolio:: -- --include-ignored)"]
fn every_hard_puzzle_is_solved_and_shown_not_unique() {
    let _one = alone();
    let root = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/puzzles/hard"
    );
    let files = common::text_files(root);
    assert_eq!(files.len(), 16);
    for f in files {
        let name = f.file_stem().unwrap().to_str().unwrap().to_string();
        let p = hard(&name);
        let (found, _) = Engine::Auto.solve_by(&p);
        let found = found.unwrap_or_else(|| panic!("{name}: no solution found"));
        assert!(check::layout(p.spec(), &found).is_ok(), "{name}");
        let to_two = CountOptions {
            limit: Some(2),
            ..CountOptions::default()
        };
        let auto = Engine::Auto.count(&p, &to_two).unwrap();
        let sat = Engine::Sat.count(&p, &to_two).unwrap();
        assert_eq!((auto.count, auto.stopped), (2, Some(Stop::Limit)), "{name}");
        assert_eq!((sat.count, sat.stopped), (2, Some(Stop::Limit)), "{name}");
    }
}
