//! The transfer-matrix DP agrees with the enumerator and the SAT engine on random small game
//! states, and reproduces the published empty-board figures.

mod common;

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
    // Engine::Dp falls back to the enumerator and says so.
    let r = Engine::Dp
        .count(&spec.build().unwrap(), &CountOptions::default())
        .unwrap();
    assert_eq!(r.engine, broadside::EngineKind::Enum);
}
