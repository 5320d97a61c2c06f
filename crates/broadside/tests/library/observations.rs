//! Game observations: misses, hits, sinkings reported in shot order or revealed, and sonar.
//! Every engine must agree with a brute-force count that checks layouts only through the
//! independent validator, which reads the raw shot record.

use crate::common;

use broadside::format::text;
use broadside::{
    CountOptions, DpEngine, DpUnsupported, Engine, Enumerator, ProblemSpec, SatEngine, check,
};
use proptest::prelude::*;

fn counts(src: &str) -> Vec<u128> {
    let p = text::parse(src).unwrap().build().unwrap();
    let opts = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut per_cell = None;
    let dp = broadside::DpEngine::supports(&p).is_ok();
    for e in [Engine::Enum, Engine::Sat, Engine::Dp] {
        if e == Engine::Dp && !dp {
            continue;
        }
        let r = e.count(&p, &opts).unwrap();
        out.push(r.count);
        if let Some(pc) = &per_cell {
            assert_eq!(pc, r.per_cell.as_ref().unwrap(), "{e:?}");
        }
        per_cell = r.per_cell;
    }
    out.push(common::naive_count(p.spec()));
    out
}

const HEAD: &str = "size: 4x2\nfleet: 2 2\nrules: touch\nsinking: announced\nshots:\n";

#[test]
fn shot_order_changes_the_count() {
    // Sunk at B1 after A1 and C1 were hit: the sunk ship is A1B1 or B1C1.
    assert_eq!(
        counts(&format!("{HEAD}A1 hit\nC1 hit\nB1 sunk 2\n")),
        [3, 3, 3, 3]
    );
    // A1 hit after the sinking: the sunk ship must be B1C1, and A1 belongs to the other.
    assert_eq!(
        counts(&format!("{HEAD}C1 hit\nB1 sunk 2\nA1 hit\n")),
        [1, 1, 1, 1]
    );
}

#[test]
fn unreported_ships_are_not_wholly_hit() {
    let shots = "A1 hit\nB1 hit\n";
    let none = counts(&format!(
        "size: 4x2\nfleet: 2 2\nrules: touch\nshots:\n{shots}"
    ));
    let announced = counts(&format!("{HEAD}{shots}"));
    // With sinkings reported, A1B1 cannot be one ship (it would have been announced).
    assert!(none[0] > announced[0], "{none:?} {announced:?}");
    assert_eq!(announced, [announced[0]; 4]);
    assert_eq!(none, [none[0]; 4]);
}

#[test]
fn revealed_sinkings_fix_the_ship() {
    let src = "size: 5x3\nfleet: 3 2\nrules: no-touch\nsinking: revealed\nshots:\nB2 hit\nC2 hit\nD2 sunk 3 B2 C2 D2\n";
    let c = counts(src);
    assert_eq!(c, [c[0]; 4]);
    // The 3-ship is fixed and nothing may touch it: the 2-ship has no room on a 5x3 board.
    assert_eq!(c[0], 0);
    let src = "size: 6x4\nfleet: 3 2\nrules: no-touch\nsinking: revealed\nshots:\nB1 hit\nC1 hit\nD1 sunk 3 B1 C1 D1\n";
    let c = counts(src);
    assert_eq!(c, [c[0]; 4]);
    assert!(c[0] > 0);
}

#[test]
fn sonar_rings() {
    let src = "size: 5x5\nfleet: 2 1\nrules: no-touch\nshots:\nC3 sonar 2\n";
    let p = text::parse(src).unwrap().build().unwrap();
    assert_eq!(DpEngine::supports(&p), Err(DpUnsupported::Sonar));
    let e = Enumerator::new(&p)
        .count(&CountOptions {
            per_cell: true,
            ..Default::default()
        })
        .unwrap();
    let s = SatEngine::new(&p)
        .count(&CountOptions {
            per_cell: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(e.count, common::naive_count(p.spec()));
    assert_eq!((e.count, &e.per_cell), (s.count, &s.per_cell));
    // Distance 2: the four orthogonal neighbours and the centre are water.
    let pc = e.per_cell.unwrap();
    for cell in [7, 11, 12, 13, 17] {
        assert_eq!(pc[cell], 0);
    }
    assert!(e.count > 0);
    // Auto picks an engine that can take sonar.
    assert_ne!(
        Engine::Auto
            .count(
                &p,
                &CountOptions {
                    per_cell: true,
                    ..Default::default()
                }
            )
            .unwrap()
            .engine,
        broadside::EngineKind::Dp
    );
}

#[test]
fn bad_records_are_refused() {
    // Records the reader takes but no game could give: refused with the shot's line (the
    // second shot at a cell; the first shot when no one shot is to blame).
    let cases = [
        ("A1 hit\nA1 miss\n", "fired at twice", 7),
        (
            "A1 sunk 2\nB1 sunk 2\nC2 sunk 2\n",
            "3 ships of type 2 reported sunk but the fleet has 2",
            6,
        ),
        (
            "A1 sunk 2 A1 B1\n",
            "lists cells, but sinkings are only announced",
            6,
        ),
    ];
    for (shots, why, line) in cases {
        let e = text::parse(&format!("{HEAD}{shots}")).unwrap_err();
        assert!(e.to_string().contains(why), "{e}");
        assert_eq!(e.line, line, "{e}");
    }
    let e = text::parse("size: 4x2\nfleet: 2\nshots:\nA1 sunk 2\n").unwrap_err();
    assert!(e.to_string().contains("sinking rule is 'none'"), "{e}");
    // Built without a reader, the same record is the same error, without a line.
    let mut spec =
        text::parse("size: 4x2\nfleet: 2\nsinking: announced\nshots:\nA1 sunk 2\n").unwrap();
    spec.observations.sinking = broadside::Sinking::None;
    let e = spec.build().unwrap_err();
    assert!(e.to_string().contains("sinking rule is 'none'"), "{e}");
    let e = text::parse(&format!("{HEAD}E1 hit\n")).unwrap_err();
    assert_eq!((e.line, e.column), (6, 1));
    assert!(e.message.contains("off the 4x2 board"));
    let e = text::parse(&format!("{HEAD}A1 sunk 7\n")).unwrap_err();
    assert_eq!((e.line, e.column), (6, 9));
    let e = text::parse(&format!("{HEAD}A1 bang\n")).unwrap_err();
    assert_eq!((e.line, e.column), (6, 4));
}

fn check_record(seed: u64, sonar: bool) -> Result<(), TestCaseError> {
    let Some((spec, planted)) = common::planted_record(seed, sonar) else {
        return Ok(());
    };
    prop_assert!(
        check::layout(&spec, &planted).is_ok(),
        "seed {}: {:?}",
        seed,
        check::layout(&spec, &planted)
    );
    // The record survives printing.
    let printed = text::print(&spec);
    prop_assert_eq!(&text::parse(&printed).unwrap(), &spec);
    let p = spec.clone().build().unwrap();
    let opts = CountOptions {
        per_cell: true,
        limit: Some(5000),
        ..Default::default()
    };
    let e = Enumerator::new(&p).count(&opts).unwrap();
    prop_assert!(
        e.count >= 1,
        "seed {}: the planted layout is consistent",
        seed
    );
    let s = SatEngine::new(&p).count(&opts).unwrap();
    prop_assert_eq!(
        (e.count, e.complete),
        (s.count, s.complete),
        "seed {}",
        seed
    );
    if e.complete {
        prop_assert_eq!(&e.per_cell, &s.per_cell, "seed {}", seed);
        prop_assert!(Enumerator::new(&p).solutions().any(|l| l == planted));
        if let Some(naive) = common::naive_count_if_small(&spec) {
            prop_assert_eq!(naive, e.count, "seed {}", seed);
        }
    }
    if let Ok(dp) = DpEngine::new(&p) {
        let r = dp
            .count(&CountOptions {
                per_cell: true,
                ..Default::default()
            })
            .unwrap();
        let full = Enumerator::new(&p)
            .count(&CountOptions {
                per_cell: true,
                ..Default::default()
            })
            .unwrap();
        prop_assert_eq!(
            (r.count, &r.per_cell),
            (full.count, &full.per_cell),
            "seed {}",
            seed
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn engines_agree_on_random_game_records(seed in any::<u64>(), sonar in any::<bool>()) {
        check_record(seed, sonar)?;
    }
}

#[test]
fn fixed_records_agree() {
    for seed in 0..200 {
        check_record(seed, seed % 2 == 0).unwrap();
    }
}

/// The record of `spec` cut to the shots `keep`, counted by brute force (which reads shots
/// only through the independent validator); `None` when that record is not a possible one or
/// too large to count so.
fn naive_fits(spec: &ProblemSpec, keep: &[usize]) -> Option<bool> {
    let mut s = spec.clone();
    s.observations.shots = keep
        .iter()
        .map(|&i| spec.observations.shots[i].clone())
        .collect();
    s.clone().build().ok()?;
    common::naive_count_if_small(&s).map(|n| n > 0)
}

/// Random records made inconsistent by one wrong result: what `diagnose` blames is checked
/// by brute force. Each culprit, dropped from the record, leaves a record some layout fits;
/// the conflicting set, alone, fits none, and without any one of its shots it does.
fn check_diagnosis(seed: u64) -> Result<bool, TestCaseError> {
    use broadside::{ShotResult, diagnose};
    let Some((mut spec, _)) = common::planted_record(seed, seed.is_multiple_of(2)) else {
        return Ok(false);
    };
    let shots = &mut spec.observations.shots;
    if shots.is_empty() {
        return Ok(false);
    }
    let i = (seed as usize / 7) % shots.len();
    shots[i].result = match shots[i].result {
        ShotResult::Miss | ShotResult::Sonar { .. } => ShotResult::Hit,
        _ => ShotResult::Miss,
    };
    let all: Vec<usize> = (0..spec.observations.shots.len()).collect();
    if naive_fits(&spec, &all) != Some(false) {
        return Ok(false);
    }
    for c in diagnose::culprits(&spec) {
        let rest: Vec<usize> = all.iter().copied().filter(|&j| j != c).collect();
        prop_assert_eq!(
            naive_fits(&spec, &rest),
            Some(true),
            "seed {} culprit {}",
            seed,
            c
        );
    }
    if let Some(set) = diagnose::conflicting_shots(&spec) {
        prop_assert_eq!(naive_fits(&spec, &set), Some(false), "seed {}", seed);
        for k in 0..set.len() {
            let mut less = set.clone();
            less.remove(k);
            prop_assert_eq!(
                naive_fits(&spec, &less),
                Some(true),
                "seed {} {:?}",
                seed,
                set
            );
        }
    }
    Ok(true)
}

#[test]
fn diagnoses_of_inconsistent_records_are_true() {
    let mut checked = 0;
    for seed in 0..600 {
        checked += check_diagnosis(seed).unwrap() as usize;
    }
    assert!(checked >= 40, "only {checked} inconsistent records checked");
}
