//! The transfer-matrix DP agrees with the enumerator and the SAT engine on random small game
//! states, and reproduces the published empty-board figures.

use crate::common;

use broadside::{
    CountOptions, Dims, DpEngine, Engine, Enumerator, Fleet, ProblemSpec, Rules, SatEngine,
};
use proptest::prelude::*;

fn check_seed(seed: u64) -> Result<(), TestCaseError> {
    let Some((spec, _)) = common::planted_game(seed) else {
        return Ok(());
    };
    let problem = spec.build().unwrap();
    let dp = DpEngine::new(&problem).expect("straight fleets without counts suit the DP");
    let opts = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let d = dp.count(&opts).unwrap();
    let e = Enumerator::new(&problem).count(&opts).unwrap();
    prop_assert_eq!(d.count, e.count, "seed {}", seed);
    prop_assert_eq!(&d.per_cell, &e.per_cell, "seed {}", seed);
    // The passes split between threads give the same answer.
    let split = dp
        .count(&CountOptions {
            per_cell: true,
            parallel: true,
            ..Default::default()
        })
        .unwrap();
    prop_assert_eq!(split.count, d.count, "seed {}", seed);
    prop_assert_eq!(&split.per_cell, &d.per_cell, "seed {}", seed);
    if e.count <= 3000 {
        let s = SatEngine::new(&problem).count(&opts).unwrap();
        prop_assert_eq!(s.count, d.count, "seed {}", seed);
        prop_assert_eq!(&s.per_cell, &d.per_cell, "seed {}", seed);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn dp_agrees_on_random_game_states(seed in any::<u64>()) {
        check_seed(seed)?;
    }
}

#[test]
fn dp_agrees_on_fixed_seeds() {
    for seed in 0..200 {
        check_seed(seed).unwrap();
    }
}

fn empty(w: usize, h: usize, fleet: &[usize], rules: Rules) -> broadside::Problem {
    ProblemSpec::empty(Dims::new(w, h), Fleet::straight(fleet), rules)
        .build()
        .unwrap()
}

#[test]
fn published_empty_board_marginals() {
    // Sakuta & Iida: 15,046,987,768 layouts; per-cell from 3.21e9 (centre) to 1.20e9 (corner).
    let p = empty(10, 10, &[5, 4, 3, 3, 2], Rules::Touch);
    let r = DpEngine::new(&p)
        .unwrap()
        .count(&CountOptions {
            per_cell: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.count, 15_046_987_768);
    let cells = r.per_cell.unwrap();
    // Every layout covers 17 cells.
    assert_eq!(cells.iter().sum::<u128>(), 17 * r.count);
    let (min, max) = (*cells.iter().min().unwrap(), *cells.iter().max().unwrap());
    assert_eq!(min, cells[0]);
    assert_eq!((min as f64 / 1e7).round(), 120.0, "corner {min}");
    assert_eq!((max as f64 / 1e7).round(), 321.0, "centre {max}");
    assert_eq!(max, cells[4 * 10 + 4]);
    // The board's eight symmetries.
    for r in 0..10 {
        for c in 0..10 {
            let v = cells[r * 10 + c];
            assert_eq!(v, cells[c * 10 + r]);
            assert_eq!(v, cells[(9 - r) * 10 + c]);
            assert_eq!(v, cells[r * 10 + 9 - c]);
        }
    }
}

#[test]
fn kancko_5x5_marginals_match_the_other_engines() {
    let p = empty(5, 5, &[3, 2], Rules::NoTouch);
    let opts = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let d = Engine::Dp.count(&p, &opts).unwrap();
    assert_eq!(d.engine, broadside::EngineKind::Dp);
    assert_eq!(d.count, 524);
    assert_eq!(
        d.per_cell,
        Enumerator::new(&p).count(&opts).unwrap().per_cell
    );
    assert_eq!(
        d.per_cell,
        SatEngine::new(&p).count(&opts).unwrap().per_cell
    );
}

#[test]
fn empty_10x10_no_touch_agrees_with_the_enumerator() {
    let p = empty(10, 10, &[5, 4, 3, 3, 2], Rules::NoTouch);
    assert_eq!(
        Engine::Dp
            .count(&p, &CountOptions::default())
            .unwrap()
            .count,
        1_925_751_392
    );
}

#[test]
fn the_dp_declines_what_it_cannot_express() {
    let mut spec = ProblemSpec::empty(Dims::new(6, 6), Fleet::straight(&[3, 2]), Rules::NoTouch);
    spec.rows = vec![Some(1); 6];
    assert_eq!(
        DpEngine::supports(&spec.clone().build().unwrap()),
        Err(broadside::DpUnsupported::Counts)
    );
    let ell = broadside::Shape::parse_art("#./##").unwrap();
    let poly = ProblemSpec::empty(
        Dims::new(6, 6),
        Fleet::new([(ell, 1, "L".into())]),
        Rules::Touch,
    );
    assert_eq!(
        DpEngine::supports(&poly.build().unwrap()),
        Err(broadside::DpUnsupported::Polyomino)
    );
    // Asked for by name, the DP refuses what it does not take rather than hand it on.
    let r = Engine::Dp.count(&spec.build().unwrap(), &CountOptions::default());
    assert!(matches!(
        r,
        Err(broadside::CountError::Declined(
            broadside::DpUnsupported::Counts
        ))
    ));
}

/// Boards one or two cells wide or tall: the DP, the enumerator and brute force agree on the
/// count and on every cell (the DP once took a ship down a one-wide board for a ship across).
#[test]
fn narrow_boards_agree_with_the_enumerator_and_brute_force() {
    let fleets: [&[usize]; 7] = [&[1], &[2], &[3], &[1, 1], &[2, 2], &[3, 2], &[2, 1, 1]];
    let opts = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let mut checked = 0;
    for (short, long) in [(1, 1), (1, 3), (1, 5), (1, 7), (2, 4), (2, 6)] {
        for (w, h) in [(short, long), (long, short)] {
            for fleet in fleets {
                for rules in [Rules::Touch, Rules::NoTouch] {
                    let spec = ProblemSpec::empty(Dims::new(w, h), Fleet::straight(fleet), rules);
                    let p = spec.clone().build().unwrap();
                    let d = DpEngine::new(&p).unwrap().count(&opts).unwrap();
                    let e = Enumerator::new(&p).count(&opts).unwrap();
                    let what = format!("{w}x{h} {fleet:?} {rules}");
                    assert_eq!((d.count, &d.per_cell), (e.count, &e.per_cell), "{what}");
                    if let Some(n) = common::naive_count_if_small(&spec) {
                        assert_eq!(d.count, n, "{what}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 12 * 7 * 2);
}

/// A long line of ships has a closed form: with `g` free cells beyond the ships and the gaps
/// the rule needs, the gaps are a composition counted by C(g + k, k), times the distinct
/// orders of the ships.
#[test]
fn a_line_of_125_cells_matches_its_closed_form() {
    let fleet = Fleet::straight(&[5, 4, 3, 3, 2]);
    let choose = |n: u128, k: u128| (0..k).fold(1u128, |a, i| a * (n - i) / (i + 1));
    let orders = 120 / 2; // 5! over the two identical 3s
    for (rules, gaps) in [(Rules::Touch, 0), (Rules::NoTouch, 4)] {
        let want = choose(125 - 17 - gaps + 5, 5) * orders;
        for dims in [Dims::new(1, 125), Dims::new(125, 1)] {
            let p = ProblemSpec::empty(dims, fleet.clone(), rules)
                .build()
                .unwrap();
            for engine in [Engine::Dp, Engine::Enum, Engine::Auto] {
                // A row of 125 cells is too wide for the DP's state; a column is not.
                if engine == Engine::Dp && dims.width > 1 {
                    assert!(DpEngine::supports(&p).is_err());
                    continue;
                }
                let got = engine.count(&p, &CountOptions::default()).unwrap();
                assert_eq!(got.count, want, "{dims} {rules} {engine:?}");
            }
        }
    }
}

/// The enumerator counts the last three ships at once (inclusion and exclusion over their
/// pairwise conflicts): three ships of one type, two of one and one of another, three
/// types, on boards with misses and hits, under both rules. Brute force (which shares no
/// code with the engines) checks the count and every cell, and the DP agrees on boards too
/// large for it; polyominoes (up to eight orientations) go against the SAT engine.
#[test]
fn the_last_three_ships_counted_at_once_agree_with_brute_force() {
    use broadside::{Shot, ShotResult};
    let fleets: [&[usize]; 6] = [
        &[2, 2, 2],
        &[3, 3, 3],
        &[3, 2, 2],
        &[3, 3, 2],
        &[4, 3, 2],
        &[4, 3, 3, 2],
    ];
    let opts = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let shots = [
        vec![],
        vec![
            (7, ShotResult::Miss),
            (14, ShotResult::Hit),
            (22, ShotResult::Miss),
        ],
        vec![
            (0, ShotResult::Miss),
            (9, ShotResult::Hit),
            (10, ShotResult::Hit),
            (24, ShotResult::Miss),
        ],
    ];
    let mut brute = 0;
    for fleet in fleets {
        for (w, h) in [(5, 5), (6, 5), (8, 8)] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                for s in &shots {
                    let mut spec =
                        ProblemSpec::empty(Dims::new(w, h), Fleet::straight(fleet), rules);
                    for (cell, result) in s {
                        spec.observations.shots.push(Shot {
                            cell: *cell,
                            result: result.clone(),
                        });
                    }
                    let what = format!("{w}x{h} {fleet:?} {rules} {s:?}");
                    let p = spec.clone().build().unwrap();
                    let e = Enumerator::new(&p).count(&opts).unwrap();
                    let d = DpEngine::new(&p).unwrap().count(&opts).unwrap();
                    assert_eq!((e.count, &e.per_cell), (d.count, &d.per_cell), "{what}");
                    // The count alone takes another walk.
                    let alone = Enumerator::new(&p).count(&CountOptions::default()).unwrap();
                    assert_eq!(alone.count, e.count, "{what}");
                    if w * h <= 30 && fleet.len() == 3 {
                        let (n, cells) = common::naive_counts(&spec);
                        assert_eq!(e.count, n, "{what}");
                        assert_eq!(e.per_cell.as_deref(), Some(&cells[..]), "{what}");
                        brute += 1;
                    }
                    // Split between threads, the same.
                    let par = Enumerator::new(&p)
                        .count(&CountOptions {
                            parallel: true,
                            ..opts.clone()
                        })
                        .unwrap();
                    assert_eq!((par.count, &par.per_cell), (e.count, &e.per_cell), "{what}");
                }
            }
        }
    }
    assert_eq!(brute, 5 * 2 * 2 * 3);
    // Polyominoes: three of a shape in up to eight orientations, and a mixed three.
    let shapes = common::polyominoes();
    for pick in [[0, 0, 0], [1, 1, 2], [0, 1, 2]] {
        let mut entries: Vec<(broadside::Shape, usize, String)> = Vec::new();
        for i in pick {
            match entries.last_mut() {
                Some(last) if last.2 == shapes[i].0 => last.1 += 1,
                _ => entries.push((shapes[i].1.clone(), 1, shapes[i].0.clone())),
            }
        }
        for rules in [Rules::Touch, Rules::NoTouch] {
            let spec = ProblemSpec::empty(Dims::new(5, 5), Fleet::new(entries.clone()), rules);
            let p = spec.build().unwrap();
            let e = Enumerator::new(&p).count(&opts).unwrap();
            let s = SatEngine::new(&p).count(&opts).unwrap();
            assert_eq!(
                (e.count, &e.per_cell),
                (s.count, &s.per_cell),
                "{pick:?} {rules}"
            );
            assert!(e.count > 0);
        }
    }
}
