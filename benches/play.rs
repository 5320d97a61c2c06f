//! Self-play speed: one game of each shooter against layouts drawn beforehand, on one core
//! (the pilot's samplers are prepared on every core), and exact greedy's games and per-shot
//! updates. Each timed game is checked to end with the
//! whole fleet sunk, each heat map against the DP's count from scratch.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::heat::HeatMap;
use broadside::play::{Book, Game, Placer, PlacerKind, Setup, ShooterKind, empty_board, play};
use broadside::{Engine, ShotResult};

fn games(c: &mut Criterion) {
    let setup = Setup::standard();
    let empty = empty_board(&setup).unwrap();
    let mut placer = Placer::new(&PlacerKind::Uniform, &setup, empty).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let layouts: Vec<_> = (0..200).map(|_| placer.place(&mut rng).unwrap()).collect();
    let ship_cells = setup.fleet.cell_count();
    // One game a run, against the layouts in turn, checked to end with the fleet sunk.
    let mut time = |g: &mut BenchmarkGroup<WallTime>, shooter: ShooterKind| {
        g.bench_function(format!("standard game, {shooter}"), |b| {
            let mut i = 0;
            b.iter(|| {
                let mut game = Game::new(setup.clone(), layouts[i % layouts.len()].clone());
                let shots = play(&mut game, shooter, None, &mut rng);
                assert!(game.is_over() && shots >= ship_cells && shots <= 100);
                i += 1;
                shots
            });
        });
    };
    let mut g = c.benchmark_group("play");
    g.sample_size(20);
    for shooter in [
        ShooterKind::Random,
        ShooterKind::HuntTarget,
        ShooterKind::Parity,
        ShooterKind::Checkerboard,
        ShooterKind::Knight,
        ShooterKind::Habr,
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 1,
            lattice: 2,
        },
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 1,
            lattice: 0,
        },
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 0,
            lattice: 0,
        },
    ] {
        time(&mut g, shooter);
    }
    g.finish();
    // The pilot's games take about a second: ten of them, one a sample.
    let mut g = c.benchmark_group("pilot");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    time(&mut g, "pilot:800".parse().expect("a shooter"));
    g.finish();
}

/// Exact greedy: whole games with the run's book warming over the runs (as in a long
/// `simulate`), and one shot's update: the exact heat map of a position with four ships
/// afloat (counted afresh each time), and of an opening position taken from the book.
fn exact(c: &mut Criterion) {
    let setup = Setup::standard();
    let empty = empty_board(&setup).unwrap();
    let mut placer = Placer::new(&PlacerKind::Uniform, &setup, empty).unwrap();
    let mut rng = StdRng::seed_from_u64(2);
    let layouts: Vec<_> = (0..50).map(|_| placer.place(&mut rng).unwrap()).collect();
    let ship_cells = setup.fleet.cell_count();
    // A game played to its first sinking, and its opening (the shots before the first hit).
    let book = Book::for_run(&setup);
    let mut game = Game::new(setup.clone(), layouts[0].clone());
    let mut greedy = ShooterKind::Greedy.shooter(broadside::play::Counting::in_book(book.clone()));
    while !game
        .shots()
        .iter()
        .any(|s| matches!(s.result, ShotResult::Sunk { .. }))
    {
        let cell = greedy.choose(&setup, game.shots(), &mut rng);
        game.fire(cell);
    }
    let sunk = game.shots().to_vec();
    let opening: Vec<_> = sunk
        .iter()
        .take_while(|s| s.result == ShotResult::Miss)
        .cloned()
        .collect();
    let position = |shots: &[broadside::Shot]| setup.after(shots).build().unwrap();
    let (after, start) = (position(&sunk), position(&opening));
    let truth = HeatMap::compute(&after, Engine::Dp).unwrap();
    let opening_truth = HeatMap::compute(&start, Engine::Dp).unwrap();
    let mut g = c.benchmark_group("exact play");
    g.sample_size(10);
    g.bench_function("per-shot update, four ships afloat, counted", |b| {
        b.iter(|| {
            let h = HeatMap::compute(&after, Engine::Auto).unwrap();
            assert_eq!(h.per_cell, truth.per_cell);
            h.layouts
        });
    });
    g.bench_function("per-shot update, opening, from the book", |b| {
        b.iter(|| {
            let h = book.heat(&start, &opening, Engine::Auto).unwrap();
            assert_eq!(h.per_cell, opening_truth.per_cell);
            h.layouts
        });
    });
    g.bench_function("standard game, greedy, book warming", |b| {
        let mut i = 0;
        b.iter(|| {
            let mut game = Game::new(setup.clone(), layouts[i % layouts.len()].clone());
            let shots = play(&mut game, ShooterKind::Greedy, Some(&book), &mut rng);
            assert!(game.is_over() && shots >= ship_cells && shots <= 100);
            i += 1;
            shots
        });
    });
    g.finish();
}

criterion_group!(benches, games, exact);
criterion_main!(benches);
