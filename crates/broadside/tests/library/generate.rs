//! Generated puzzles: unique (re-proved by the SAT engine, which the generator does not
//! use), minimal (dropping any clue gives a second solution), and true to the options.

use crate::common;

use broadside::generate::{GenerateError, GenerateOptions, default_fleet, generate};
use broadside::logic::{self, Grade, Know};
use broadside::{Clue, CountOptions, Dims, Fleet, SatEngine, check};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn unique_by_sat(spec: &broadside::ProblemSpec) -> bool {
    let p = spec.clone().build().unwrap();
    let r = SatEngine::new(&p)
        .count(&CountOptions {
            limit: Some(2),
            ..Default::default()
        })
        .unwrap();
    r.complete && r.count == 1
}

#[test]
fn generated_puzzles_are_unique_and_minimal() {
    for (w, h, seed) in [
        (6, 6, 1),
        (8, 8, 2),
        (10, 10, 3),
        (10, 10, 4),
        (12, 10, 5),
        (15, 15, 6),
    ] {
        let mut rng = StdRng::seed_from_u64(seed);
        let spec = generate(&GenerateOptions::new(Dims::new(w, h)), &mut rng).unwrap();
        let solution = spec.solution.clone().unwrap();
        assert!(check::layout(&spec, &solution).is_ok(), "{w}x{h}");
        assert!(unique_by_sat(&spec), "{w}x{h} seed {seed}");
        assert_eq!(
            SatEngine::new(&spec.clone().build().unwrap())
                .solve()
                .unwrap(),
            solution
        );
        assert_eq!(spec.fleet, default_fleet(Dims::new(w, h)));
        common::assert_minimal(&spec);
    }
}

#[test]
fn every_grade_can_be_asked_for() {
    for (w, h, grade, seed) in [
        (10, 10, Grade::Easy, 1),
        (10, 10, Grade::Medium, 2),
        (10, 10, Grade::Hard, 3),
        (10, 10, Grade::Extreme, 4),
        (12, 10, Grade::Hard, 5),
        (6, 6, Grade::Medium, 6),
    ] {
        let mut opts = GenerateOptions::new(Dims::new(w, h));
        opts.difficulty = Some(grade);
        let spec = generate(&opts, &mut StdRng::seed_from_u64(seed)).unwrap();
        let p = spec.clone().build().unwrap();
        assert_eq!(logic::grade(&p).unwrap(), grade, "{w}x{h} seed {seed}");
        assert!(unique_by_sat(&spec), "{w}x{h} seed {seed}");
        common::assert_minimal(&spec);
        // What the rules decide is the solution's.
        let truth = spec.solution.as_ref().unwrap().cells().collect::<Vec<_>>();
        let out = logic::solve(&p, 4).unwrap();
        for (c, k) in out.grid.iter().enumerate() {
            match k {
                Know::Ship => assert!(truth.contains(&c)),
                Know::Water => assert!(!truth.contains(&c)),
                Know::Unknown => assert_eq!(grade, Grade::Extreme),
            }
        }
    }
}

#[test]
fn a_grade_the_board_cannot_have_ends_with_a_message() {
    // A lone submarine is found by the counts alone: every puzzle is easy.
    let mut opts = GenerateOptions::new(Dims::new(6, 6));
    opts.fleet = Some(Fleet::parse("1", &[]).unwrap());
    opts.difficulty = Some(Grade::Medium);
    opts.time_limit = std::time::Duration::from_millis(300);
    match generate(&opts, &mut StdRng::seed_from_u64(1)) {
        Err(GenerateError::Budget(_, why)) => {
            assert!(why.starts_with("no medium puzzle in"), "{why}");
            assert!(why.ends_with("easy instead)"), "{why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn large_boards_use_the_logic_and_stay_minimal() {
    let spec = generate(
        &GenerateOptions::new(Dims::new(20, 20)),
        &mut StdRng::seed_from_u64(11),
    )
    .unwrap();
    assert_eq!(spec.fleet, default_fleet(Dims::new(20, 20)));
    assert!(unique_by_sat(&spec));
    common::assert_minimal(&spec);
}

#[test]
fn options_are_honoured() {
    let mut opts = GenerateOptions::new(Dims::new(12, 10));
    opts.fleet = Some(Fleet::parse("5 4 3 3 2 2 1", &[]).unwrap());
    opts.hidden_counts = 3;
    opts.segments = false;
    let spec = generate(&opts, &mut StdRng::seed_from_u64(9)).unwrap();
    let hidden = spec
        .rows
        .iter()
        .chain(&spec.cols)
        .filter(|c| c.is_none())
        .count();
    assert_eq!(hidden, 3);
    assert!(
        spec.clues
            .iter()
            .flatten()
            .all(|c| matches!(c, Clue::Ship | Clue::Water))
    );
    assert!(unique_by_sat(&spec));
    // The same seed gives the same puzzle.
    let again = generate(&opts, &mut StdRng::seed_from_u64(9)).unwrap();
    assert_eq!(spec, again);
}

#[test]
fn impossible_requests_end_clearly() {
    let mut opts = GenerateOptions::new(Dims::new(6, 6));
    opts.fleet = Some(Fleet::parse("3 3 3 3 3 3 3", &[]).unwrap());
    let e = generate(&opts, &mut StdRng::seed_from_u64(1)).unwrap_err();
    assert_eq!(e, GenerateError::NoLayout(Dims::new(6, 6)));
    let mut opts = GenerateOptions::new(Dims::new(6, 6));
    opts.hidden_counts = 13;
    assert!(matches!(
        generate(&opts, &mut StdRng::seed_from_u64(1)),
        Err(GenerateError::Request(_))
    ));
}
