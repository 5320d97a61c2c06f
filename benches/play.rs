//! Self-play speed: one game of each shooter against layouts drawn beforehand, on one core.
//! Each timed game is checked to end with the whole fleet sunk.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;

use broadside::play::{Game, Placer, PlacerKind, Setup, ShooterKind, empty_board, play};

fn games(c: &mut Criterion) {
    let setup = Setup::standard();
    let empty = empty_board(&setup).unwrap();
    let mut placer = Placer::new(&PlacerKind::Uniform, &setup, &empty).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let layouts: Vec<_> = (0..200).map(|_| placer.place(&mut rng).unwrap()).collect();
    let ship_cells = setup.fleet.cell_count();
    let mut g = c.benchmark_group("play");
    g.sample_size(20);
    for shooter in [
        ShooterKind::Random,
        ShooterKind::HuntTarget,
        ShooterKind::Parity,
        ShooterKind::Checkerboard,
        ShooterKind::Knight,
        ShooterKind::Density,
    ] {
        g.bench_function(format!("standard game, {shooter}"), |b| {
            let mut i = 0;
            b.iter(|| {
                let mut game = Game::new(setup.clone(), layouts[i % layouts.len()].clone());
                let shots = play(&mut game, shooter, &mut rng);
                assert!(game.is_over() && shots >= ship_cells && shots <= 100);
                i += 1;
                shots
            });
        });
    }
    g.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
