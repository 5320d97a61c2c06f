//! Exact heat maps at every state of simulated 10x10 games.
//!
//! Each game hides a layout drawn by placing ships one at a time at random (seeded), then
//! fires at the most probable open cell until every ship is sunk; sinkings are announced by
//! type on the sinking shot, so every state is a full game record in shot order. Every
//! state's heat map is computed exactly with the `auto` engine and timed; the bench prints
//! the median and the maximum per state, the figures `docs/PERFORMANCE.md` compares with the
//! targets. The hidden layout must stay consistent with every state.

use std::time::Instant;

use broadside::heat::HeatMap;
use broadside::{Dims, Engine, Fleet, Layout, ProblemSpec, Rules, Ship, Shot, ShotResult, Sinking};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn hidden_layout(rng: &mut StdRng, spec: &ProblemSpec) -> Layout {
    let problem = spec.clone().build().unwrap();
    'again: loop {
        let mut taken = vec![false; spec.dims.cells()];
        let mut ships = Vec::new();
        for (ty, t) in spec.fleet.types().iter().enumerate() {
            for _ in 0..t.count {
                let free: Vec<_> = problem
                    .placements(ty)
                    .iter()
                    .filter(|p| {
                        p.cells.iter().all(|&c| !taken[c])
                            && (spec.rules == Rules::Touch || p.halo.iter().all(|&c| !taken[c]))
                    })
                    .collect();
                if free.is_empty() {
                    continue 'again;
                }
                let p = free[rng.random_range(0..free.len())];
                for &c in &p.cells {
                    taken[c] = true;
                }
                ships.push(Ship {
                    ty,
                    cells: p.cells.clone(),
                });
            }
        }
        return Layout { ships };
    }
}

fn main() {
    let mut times = Vec::new();
    for (game, rules) in [
        (1u64, Rules::Touch),
        (2, Rules::Touch),
        (3, Rules::NoTouch),
        (4, Rules::NoTouch),
    ] {
        let mut rng = StdRng::seed_from_u64(game);
        let mut spec =
            ProblemSpec::empty(Dims::new(10, 10), Fleet::straight(&[5, 4, 3, 3, 2]), rules);
        let hidden = hidden_layout(&mut rng, &spec);
        let ship_cells: Vec<usize> = hidden.cells().collect();
        spec.observations.sinking = Sinking::Announced;
        let mut hit = [false; 100];
        let mut hits = 0;
        while hits < ship_cells.len() {
            let problem = spec.clone().build().unwrap();
            let t = Instant::now();
            let heat = HeatMap::compute(&problem, Engine::Auto).unwrap();
            times.push(t.elapsed().as_secs_f64());
            assert!(heat.layouts >= 1, "the hidden layout is always consistent");
            assert!(broadside::check::layout(problem.spec(), &hidden).is_ok());
            let (best, _) = heat.best();
            let cell = best[0];
            let result = match hidden.ships.iter().find(|s| s.cells.contains(&cell)) {
                Some(ship) => {
                    hit[cell] = true;
                    hits += 1;
                    if ship.cells.iter().all(|&c| hit[c]) {
                        ShotResult::Sunk {
                            ty: ship.ty,
                            cells: Vec::new(),
                        }
                    } else {
                        ShotResult::Hit
                    }
                }
                None => ShotResult::Miss,
            };
            spec.observations.shots.push(Shot { cell, result });
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let max = times[times.len() - 1];
    let over = times.iter().filter(|&&t| t > 0.5).count();
    println!(
        "game states: {} states in 4 games, exact heat map per state: median {:.2} ms, max {:.0} ms, {} over 0.5 s",
        times.len(),
        median * 1e3,
        max * 1e3,
        over
    );
}
