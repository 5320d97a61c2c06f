//! Shared bench inputs: Rubin's 303 boards (`puzzles/external/rubin303.jsonl`), and hidden
//! layouts for simulated games.
#![allow(
    dead_code,
    reason = "each test or bench binary that includes this module uses part of it"
)]

use broadside::heat::HeatMap;
use broadside::{
    Dims, Fleet, Layout, Problem, ProblemSpec, Rules, Ship, Shot, ShotResult, Sinking, format,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The benchmark corpus and its name.
pub fn rubin_corpus() -> (String, Vec<Problem>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/puzzles/external/rubin303.jsonl");
    let text = std::fs::read_to_string(&path).expect("puzzles/external/rubin303.jsonl");
    let specs = format::read(&path, &text).expect("rubin303 parses");
    (
        "rubin303".into(),
        specs.into_iter().map(|s| s.build().unwrap()).collect(),
    )
}

/// A layout for `spec`'s empty board, ships placed one at a time at random (seeded).
pub fn hidden_layout(rng: &mut StdRng, spec: &ProblemSpec) -> Layout {
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

/// Plays one game of the standard game (10x10, {5,4,3,3,2}, sinkings announced by type) on a
/// hidden layout drawn with `seed`: at every state `heat` is given the state and the hidden
/// layout and returns the state's exact heat map, and the game fires at its most probable
/// open cell, until every ship is sunk.
pub fn greedy_game(seed: u64, rules: Rules, mut heat: impl FnMut(&Problem, &Layout) -> HeatMap) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut spec = ProblemSpec::empty(Dims::new(10, 10), Fleet::straight(&[5, 4, 3, 3, 2]), rules);
    let hidden = hidden_layout(&mut rng, &spec);
    let ship_cells = hidden.cells().count();
    spec.observations.sinking = Sinking::Announced;
    let mut hit = [false; 100];
    let mut hits = 0;
    while hits < ship_cells {
        let problem = spec.clone().build().unwrap();
        let cell = heat(&problem, &hidden).best().0[0];
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
