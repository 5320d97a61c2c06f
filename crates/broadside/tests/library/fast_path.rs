//! The fast path of exact play against a full recount: on positions of real games (both rules,
//! every sinking rule), the enumerator's per-cell counts (two last ships counted at once) and
//! the book's (counts kept from a mirrored position) equal the DP's, counted from scratch.

use std::time::Duration;

use broadside::heat::HeatMap;
use broadside::play::{Book, PlacerKind, Setup, ShooterKind, Simulation, simulate};
use broadside::{Dims, Engine, Fleet, Problem, Rules, Shot, ShotResult, Sinking};

fn position(setup: &Setup, shots: &[Shot]) -> Problem {
    setup.after(shots).build().unwrap()
}

/// The shots reflected in the board's main diagonal (a symmetry of a square board).
fn transposed(setup: &Setup, shots: &[Shot]) -> Vec<Shot> {
    let w = setup.dims.width;
    let t = |c: usize| (c % w) * w + c / w;
    shots
        .iter()
        .map(|s| Shot {
            cell: t(s.cell),
            result: match &s.result {
                ShotResult::Sunk { ty, cells } => {
                    let mut cells: Vec<usize> = cells.iter().map(|&c| t(c)).collect();
                    cells.sort_unstable();
                    ShotResult::Sunk { ty: *ty, cells }
                }
                r => r.clone(),
            },
        })
        .collect()
}

#[test]
fn fast_counts_equal_a_full_recount_on_positions_of_real_games() {
    let mut from_book = 0;
    let mut positions = 0;
    for rules in [Rules::Touch, Rules::NoTouch] {
        for sinking in [Sinking::None, Sinking::Announced, Sinking::Revealed] {
            let setup = Setup {
                dims: Dims::new(8, 8),
                fleet: Fleet::straight(&[4, 3, 3, 2]),
                rules,
                sinking,
                rocks: Vec::new(),
            };
            let sim = Simulation {
                setup: setup.clone(),
                shooter: ShooterKind::Density {
                    weight: broadside::play::DENSITY_WEIGHT,
                    small: 0,
                    lattice: 0,
                },
                placer: PlacerKind::Uniform,
                games: 4,
                first: 0,
                seed: 5,
                book: None,
            };
            let (_, games) = simulate(&sim, &|_| {}).unwrap();
            let book = Book::new(&setup, Duration::ZERO);
            for g in games {
                let shots = &g.record.observations.shots;
                for k in (0..shots.len()).step_by(4) {
                    let what = format!("{rules} {sinking}, {k} shots");
                    let prefix = &shots[..k];
                    let p = position(&setup, prefix);
                    let full = HeatMap::compute(&p, Engine::Dp).unwrap();
                    let fast = HeatMap::compute(&p, Engine::Enum).unwrap();
                    assert_eq!(
                        (fast.layouts, &fast.per_cell),
                        (full.layouts, &full.per_cell),
                        "{what}: enumerator"
                    );
                    let kept = book.heat(&p, prefix, Engine::Enum).unwrap();
                    assert_eq!(kept.per_cell, full.per_cell, "{what}: book");
                    let mirror = transposed(&setup, prefix);
                    let pm = position(&setup, &mirror);
                    let looked_up = book.lookup(&pm, &mirror).is_some();
                    let again = book.heat(&pm, &mirror, Engine::Enum).unwrap();
                    let recount = HeatMap::compute(&pm, Engine::Dp).unwrap();
                    assert_eq!(
                        (again.layouts, &again.per_cell, &again.open),
                        (recount.layouts, &recount.per_cell, &recount.open),
                        "{what}: mirrored, from the book"
                    );
                    from_book += usize::from(looked_up);
                    positions += 1;
                }
            }
        }
    }
    // Positions with no sinking reported come from the book when mirrored.
    assert!(from_book * 3 >= positions, "{from_book} of {positions}");
}
