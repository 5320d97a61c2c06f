//! Puzzle generation: time per unique, minimal puzzle by size, and per graded puzzle by size
//! and grade. Every result is re-checked inside the loop (unique by the enumerator; the
//! grade asked for). Prints the median and max over a fixed run of seeds.

use std::time::{Duration, Instant};

use broadside::Dims;
use broadside::generate::{GenerateOptions, generate, is_unique_solution};
use broadside::logic::{self, Grade};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn run(w: usize, h: usize, grade: Option<Grade>, n: u64) {
    let mut opts = GenerateOptions::new(Dims::new(w, h));
    opts.difficulty = grade;
    opts.time_limit = Duration::from_secs(60);
    let mut times = Vec::new();
    let mut failed = 0;
    for seed in 0..n {
        let mut rng = StdRng::seed_from_u64(seed);
        let t = Instant::now();
        match generate(&opts, &mut rng) {
            Ok(spec) => {
                times.push(t.elapsed().as_secs_f64());
                assert!(is_unique_solution(&spec, spec.solution.as_ref().unwrap()));
                if let Some(g) = grade {
                    assert_eq!(logic::grade(&spec.build().unwrap()).unwrap(), g);
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("{w}x{h} seed {seed}: {e}");
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let what = grade.map_or("any grade".to_string(), |g| g.to_string());
    if times.is_empty() {
        println!("{w}x{h} {what}: no puzzle in {n} runs (60 s each)");
        return;
    }
    println!(
        "{w}x{h} {what}: {} puzzles, median {:.1} ms, max {:.1} ms, {failed} gave up",
        times.len(),
        times[times.len() / 2] * 1e3,
        times[times.len() - 1] * 1e3
    );
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f));
    if wanted("ungraded") {
        for (w, h, n) in [(10, 10, 100), (15, 15, 40), (20, 20, 10), (30, 30, 10)] {
            run(w, h, None, n);
        }
    }
    if wanted("graded") {
        for g in Grade::ALL {
            run(10, 10, Some(g), 10);
        }
        for g in [Grade::Medium, Grade::Hard, Grade::Extreme] {
            run(15, 15, Some(g), 5);
        }
    }
}
