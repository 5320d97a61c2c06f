//! Exact-uniform sampling: set-up time and layouts per second on the empty 10x10 board and
//! on a mid-game state. Every sampled layout is checked for consistency inside the loop (the
//! state's own clues, through the independent validator, on a fixed share of the draws).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use broadside::sample::{Sampler, SamplerKind, UniformMethod};
use broadside::{Dims, Fleet, Problem, ProblemSpec, Rules, check, format};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn state(path: &str) -> Arc<Problem> {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap();
    Arc::new(
        format::read(&full, &text)
            .unwrap()
            .remove(0)
            .build()
            .unwrap(),
    )
}

fn bench(c: &mut Criterion) {
    let empty = Arc::new(
        ProblemSpec::empty(
            Dims::new(10, 10),
            Fleet::straight(&[5, 4, 3, 3, 2]),
            Rules::Touch,
        )
        .build()
        .unwrap(),
    );
    let mid = state("puzzles/game/sakuta-iida-10x10-midgame.txt");
    let mut g = c.benchmark_group("sample");
    g.sample_size(10);
    for (name, p) in [("empty 10x10 touch", &empty), ("sakuta-iida midgame", &mid)] {
        let t = Instant::now();
        let mut sampler = Sampler::new(p.clone(), SamplerKind::Uniform).unwrap();
        println!(
            "{name}: uniform sampler by {} ready in {:.3} s",
            sampler.method(),
            t.elapsed().as_secs_f64()
        );
        let mut rng = StdRng::seed_from_u64(1);
        g.bench_function(format!("{name}, 10000 uniform layouts"), |b| {
            b.iter(|| {
                for i in 0..10_000 {
                    let l = sampler.sample(&mut rng).unwrap();
                    if i % 1000 == 0 {
                        assert!(check::layout(p.spec(), &l).is_ok());
                    }
                    black_box(l);
                }
            })
        });
        g.bench_function(format!("{name}, set-up"), |b| {
            b.iter(|| {
                black_box(
                    Sampler::new(p.clone(), SamplerKind::Uniform)
                        .unwrap()
                        .method(),
                )
            })
        });
    }
    // The same state forced through the DP's walk, the method of states too dense for
    // rejection and too many for a list.
    let t = Instant::now();
    let mut walk = Sampler::uniform_by(mid.clone(), UniformMethod::Dp)
        .unwrap()
        .expect("the DP takes a game state");
    println!(
        "sakuta-iida midgame: DP walk ready in {:.3} s",
        t.elapsed().as_secs_f64()
    );
    let mut rng = StdRng::seed_from_u64(2);
    g.bench_function("sakuta-iida midgame, 10000 layouts by the DP walk", |b| {
        b.iter(|| {
            for i in 0..10_000 {
                let l = walk.sample(&mut rng).unwrap();
                if i % 1000 == 0 {
                    assert!(check::layout(mid.spec(), &l).is_ok());
                }
                black_box(l);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
