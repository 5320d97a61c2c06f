//! The puzzle page's two requests, `hint` and `check`, as the server answers them: the body
//! (a puzzle with a person's progress, in the text format) read, the problem built, and the
//! report made. The corpus is every puzzle of `puzzles/` and `puzzles/external/` with a
//! recorded solution, each with ten random partial progresses (a random share, 0 to 90%, of
//! its cells marked as the solution has them), seeded.
//!
//! Besides criterion's timing of the 15x15 corpus, the bench prints the median, p95 and
//! maximum of each request over the whole corpus and over its 15x15 puzzles (each request
//! timed as the best of 3 runs): the figures `docs/PERFORMANCE.md` holds against the target of
//! 50 ms (p95 on a 15x15 puzzle). Every answer is checked: a hint on right marks names no
//! mistake and gives a step (or says solved), and its cells agree with the solution; a check
//! finds nothing wrong.

use std::hint::black_box;
use std::time::Instant;

use broadside::answer::{self, CheckReport, HintReport};
use broadside::{Dims, Know, ProblemSpec, format};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Progresses per puzzle.
const EACH: usize = 10;

/// A puzzle with a progress, as the page sends it, and its solution's ship cells.
struct Case {
    body: String,
    truth: Vec<bool>,
    dims: Dims,
}

fn corpus() -> Vec<Case> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(format!("{root}/puzzles"))];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let skip = ["game", "hard", "cluster"].iter().any(|s| p.ends_with(s));
            if p.is_dir() && !skip {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "txt" || x == "jsonl") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut rng = StdRng::seed_from_u64(100);
    let mut out = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        let specs: Vec<ProblemSpec> = format::read(&name, &text).unwrap();
        for spec in specs {
            let Some(sol) = spec.solution.clone() else {
                continue;
            };
            if spec.rows.is_empty() || !spec.observations.shots.is_empty() {
                continue;
            }
            let cells = spec.dims.cells();
            let mut truth = vec![false; cells];
            for c in sol.cells() {
                truth[c] = true;
            }
            for _ in 0..EACH {
                let share = rng.random_range(0..90);
                let mut s = spec.clone();
                s.solution = None;
                s.progress = (0..cells)
                    .map(|c| match (rng.random_range(0..100) < share, truth[c]) {
                        (false, _) => Know::Unknown,
                        (true, true) => Know::Ship,
                        (true, false) => Know::Water,
                    })
                    .collect();
                out.push(Case {
                    body: format::text::print(&s),
                    truth: truth.clone(),
                    dims: spec.dims,
                });
            }
        }
    }
    out
}

/// What the server does for `/api/hint`.
fn hint(body: &str) -> HintReport {
    let mut specs = format::read("<request>", body).unwrap();
    let p = answer::build(specs.remove(0)).unwrap();
    answer::hint(&p, &answer::Options::new(), false).unwrap()
}

/// What the server does for `/api/check`.
fn check(body: &str) -> CheckReport {
    let mut specs = format::read("<request>", body).unwrap();
    let p = answer::build(specs.remove(0)).unwrap();
    answer::check(&p, &answer::Options::new()).unwrap()
}

/// The answers are right: no mistake on right marks, and a hint's cells are the solution's.
fn assert_right(case: &Case, h: &HintReport, c: &CheckReport) {
    assert!(h.mistakes.is_empty() && h.conflict.is_none(), "{h:?}");
    assert!(c.correct, "{c:?}");
    assert_eq!(h.solved, c.solved);
    if let Some(step) = &h.step {
        for (names, ship) in [(&step.ship, true), (&step.water, false)] {
            for n in names {
                let c = case.dims.parse_cell(n).unwrap();
                assert_eq!(case.truth[c], ship, "{n} in\n{}", case.body);
            }
        }
    } else {
        assert!(h.solved, "{h:?}");
    }
}

fn best_of_3<T>(f: impl Fn() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..3 {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("three runs"))
}

fn summary(what: &str, mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    println!(
        "{what}: {} requests, median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5) * 1e3,
        at(0.95) * 1e3,
        at(1.0) * 1e3
    );
}

fn bench(c: &mut Criterion) {
    let cases = corpus();
    let big = |k: &Case| k.dims == Dims::new(15, 15);
    let (mut hints, mut checks) = (Vec::new(), Vec::new());
    for case in &cases {
        let (th, h) = best_of_3(|| hint(&case.body));
        let (tc, c) = best_of_3(|| check(&case.body));
        assert_right(case, &h, &c);
        hints.push((big(case), th));
        checks.push((big(case), tc));
    }
    for (name, times) in [("hint", &hints), ("check", &checks)] {
        summary(
            &format!("{name}, every puzzle"),
            times.iter().map(|t| t.1).collect(),
        );
        summary(
            &format!("{name}, 15x15 puzzles"),
            times.iter().filter(|t| t.0).map(|t| t.1).collect(),
        );
    }
    let fifteen: Vec<&Case> = cases.iter().filter(|k| big(k)).collect();
    assert!(fifteen.len() >= 100, "{} 15x15 cases", fifteen.len());
    let mut g = c.benchmark_group("hints");
    g.sample_size(10);
    g.bench_function("hint, the 15x15 corpus", |b| {
        b.iter(|| {
            for k in &fifteen {
                black_box(hint(&k.body));
            }
        })
    });
    g.bench_function("check, the 15x15 corpus", |b| {
        b.iter(|| {
            for k in &fifteen {
                black_box(check(&k.body));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
