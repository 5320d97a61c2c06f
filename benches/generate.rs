//! Puzzle generation: time per unique, minimal puzzle by size (each result's uniqueness is
//! re-checked inside the loop). Prints the median and max over a fixed run of seeds.

use std::time::Instant;

use broadside::Dims;
use broadside::generate::{GenerateOptions, generate, is_unique_solution};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() {
    for (w, h, n) in [(10, 10, 100), (15, 15, 40), (20, 20, 5)] {
        let mut opts = GenerateOptions::new(Dims::new(w, h));
        opts.time_limit = std::time::Duration::from_secs(30);
        let mut times = Vec::new();
        let mut failed = 0;
        for seed in 0..n {
            let mut rng = StdRng::seed_from_u64(seed);
            let t = Instant::now();
            match generate(&opts, &mut rng) {
                Ok(spec) => {
                    times.push(t.elapsed().as_secs_f64());
                    assert!(is_unique_solution(&spec, spec.solution.as_ref().unwrap()));
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("{w}x{h} seed {seed}: {e}");
                }
            }
        }
        times.sort_by(f64::total_cmp);
        if times.is_empty() {
            println!("{w}x{h}: no puzzle generated in {n} attempts (30 s each)");
            continue;
        }
        println!(
            "{w}x{h}: {} puzzles, median {:.1} ms, max {:.1} ms, {failed} gave up",
            times.len(),
            times[times.len() / 2] * 1e3,
            times[times.len() - 1] * 1e3
        );
    }
}
