//! "Perft" table: exact layout counts from the literature and from independent brute force,
//! checked by every engine that can reach them.

use crate::common;

use broadside::{CountOptions, Dims, Engine, Enumerator, Fleet, ProblemSpec, Rules, SatEngine};

fn problem(w: usize, h: usize, fleet: &str, rules: Rules) -> broadside::Problem {
    ProblemSpec::empty(Dims::new(w, h), Fleet::parse(fleet, &[]).unwrap(), rules)
        .build()
        .unwrap()
}

fn enum_count(p: &broadside::Problem, parallel: bool, per_cell: bool) -> broadside::CountResult {
    Enumerator::new(p)
        .count(&CountOptions {
            parallel,
            per_cell,
            ..Default::default()
        })
        .unwrap()
}

#[test]
fn kancko_5x5_no_touch_is_524() {
    let p = problem(5, 5, "3 2", Rules::NoTouch);
    let e = enum_count(&p, false, true);
    let s = SatEngine::new(&p)
        .count(&CountOptions {
            per_cell: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(e.count, 524);
    assert_eq!(s.count, 524);
    assert_eq!(e.per_cell, s.per_cell);
    // Every layout covers 5 cells.
    assert_eq!(e.per_cell.unwrap().iter().sum::<u128>(), 524 * 5);
    assert_eq!(common::naive_count(p.spec()), 524);
}

#[test]
fn kancko_9x9_no_touch() {
    let p = problem(9, 9, "5 4 3 3 2", Rules::NoTouch);
    let r = enum_count(&p, true, false);
    assert!(r.complete);
    assert_eq!(r.count, 241_273_548);
    // The thesis tells the two 3-ships apart.
    assert_eq!(
        r.count * p.fleet().labelling_factor(),
        482_547_096u32.into()
    );
    assert_eq!(enum_count(&p, false, false).count, 241_273_548);
}

#[test]
fn sakuta_iida_10x10_touching() {
    let p = problem(10, 10, "5 4 3 3 2", Rules::Touch);
    let r = enum_count(&p, true, false);
    assert!(r.complete);
    assert_eq!(r.count, 15_046_987_768);
}

#[test]
fn small_boards_match_brute_force() {
    let cases = [
        (4, 4, "2 2", Rules::Touch),
        (4, 4, "3 2 1", Rules::NoTouch),
        (5, 4, "3 3", Rules::NoTouch),
        (5, 5, "2 2 2", Rules::Touch),
        (3, 6, "3 1 1", Rules::Touch),
        (6, 6, "4 3", Rules::NoTouch),
    ];
    for (w, h, fleet, rules) in cases {
        let p = problem(w, h, fleet, rules);
        let naive = common::naive_count(p.spec());
        let e = enum_count(&p, false, true);
        let ep = enum_count(&p, true, true);
        let s = SatEngine::new(&p)
            .count(&CountOptions {
                per_cell: true,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(e.count, naive, "{w}x{h} {fleet} {rules}");
        assert_eq!(ep.count, naive, "{w}x{h} {fleet} {rules} parallel");
        assert_eq!(s.count, naive, "{w}x{h} {fleet} {rules} sat");
        assert_eq!(e.per_cell, s.per_cell);
        assert_eq!(e.per_cell, ep.per_cell);
    }
}

#[test]
fn polyomino_fleets_match_brute_force() {
    let polys = common::polyominoes();
    for (fleet, rules) in [
        ("P0 P1", Rules::Touch),
        ("P0 x2", Rules::NoTouch),
        ("P2 3", Rules::NoTouch),
        ("P3 P4", Rules::Touch),
    ] {
        let f = Fleet::parse(fleet, &polys).unwrap();
        let p = ProblemSpec::empty(Dims::new(5, 4), f, rules)
            .build()
            .unwrap();
        let naive = common::naive_count(p.spec());
        for engine in [Engine::Enum, Engine::Sat] {
            let r = engine.count(&p, &CountOptions::default()).unwrap();
            assert_eq!(r.count, naive, "{fleet} {rules} {engine:?}");
        }
    }
}

#[test]
fn limits_stop_early_and_say_so() {
    let p = problem(10, 10, "5 4 3 3 2", Rules::Touch);
    let r = Enumerator::new(&p).count_up_to(2);
    assert_eq!((r.count, r.complete), (2, false));
    assert_eq!(r.stopped, Some(broadside::Stop::Limit));
    let s = SatEngine::new(&p)
        .count(&CountOptions {
            limit: Some(3),
            ..Default::default()
        })
        .unwrap();
    assert_eq!((s.count, s.complete), (3, false));
    // Six ships on 12x12: some seconds of counting, stopped at 20 ms.
    let big = problem(12, 12, "5 4 3 3 2 2", Rules::Touch);
    let t = Enumerator::new(&big)
        .count(&CountOptions {
            time_limit: Some(std::time::Duration::from_millis(20)),
            parallel: true,
            ..Default::default()
        })
        .unwrap();
    assert!(!t.complete && t.stopped == Some(broadside::Stop::Time));
}

#[test]
fn boards_past_128_cells_work() {
    // 12x12 and 20x20 use wider bitboards; a single ship has a closed-form count.
    for (w, h) in [(12, 12), (20, 20), (33, 31)] {
        let p = problem(w, h, "4", Rules::NoTouch);
        let expected = (h * (w - 3) + w * (h - 3)) as u128;
        assert_eq!(enum_count(&p, false, false).count, expected);
        assert_eq!(
            SatEngine::new(&p)
                .count(&CountOptions::default())
                .unwrap()
                .count,
            expected
        );
    }
    // Two dominoes on a 12x12 board, touching allowed: pairs of distinct non-overlapping
    // placements, checked against brute force.
    let p = problem(12, 12, "2 2", Rules::Touch);
    assert_eq!(
        enum_count(&p, true, false).count,
        common::naive_count(p.spec())
    );
}

/// C(n, k), exactly.
fn choose(n: u128, k: u128) -> u128 {
    (0..k).fold(1, |a, i| a * (n - i) / (i + 1))
}

/// One-cell ships that may touch: any k cells of the board, C(cells, k) layouts, and each
/// cell in C(cells - 1, k - 1). These pass 2^64 (so the DP's 64-bit state counts overflow and
/// it counts again in 128 bits), and 12x12 with 40 ships needs 119 bits.
#[test]
fn counts_past_64_bits_are_exact() {
    for (w, h, k) in [(10, 10, 18), (12, 12, 40), (9, 9, 30)] {
        let fleet = vec!["1"; k].join(" ");
        let p = problem(w, h, &fleet, Rules::Touch);
        let cells = (w * h) as u128;
        let r = Engine::Auto
            .count(
                &p,
                &CountOptions {
                    per_cell: true,
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(r.count, choose(cells, k as u128), "{w}x{h} with {k}");
        let each = choose(cells - 1, k as u128 - 1);
        assert!(
            r.per_cell.unwrap().iter().all(|&c| c == each),
            "{w}x{h} with {k}"
        );
    }
}

/// C(n, k) in big integers, by the product formula.
fn choose_big(n: u64, k: u64) -> broadside::BigUint {
    (0..k).fold(broadside::BigUint::from(1u8), |a, i| a * (n - i) / (i + 1))
}

fn count_big(p: &broadside::Problem, per_cell: bool) -> broadside::CountResult<broadside::BigUint> {
    Engine::Auto
        .count_big(
            p,
            &CountOptions {
                per_cell,
                parallel: true,
                ..Default::default()
            },
        )
        .unwrap()
}

/// Counts past 2^128, against formulas: any k cells of the board for one-cell ships that
/// may touch (C(cells, k); each cell in C(cells - 1, k - 1)); and on a one-cell-wide strip,
/// k ships of length L that may not touch: C(n - kL + 1, k) (the ships in order, with the
/// water between them). `count` in 128 bits refuses them rather than wrap.
#[test]
fn counts_past_128_bits_are_exact() {
    let singles = problem(14, 14, "60x1", Rules::Touch);
    assert_eq!(
        Engine::Auto.count(&singles, &CountOptions::default()),
        Err(broadside::CountError::Overflow)
    );
    let r = count_big(&singles, true);
    assert_eq!(r.count, choose_big(196, 60));
    assert!(r.count.bits() > 128);
    let each = choose_big(195, 59);
    assert!(r.per_cell.unwrap().iter().all(|c| *c == each));

    // 1x2000 with 300 ships of 3: a number of 926 bits.
    let strip = problem(1, 2000, "300x3", Rules::NoTouch);
    let r = count_big(&strip, true);
    assert_eq!(r.count, choose_big(2000 - 900 + 1, 300));
    assert_eq!(r.count.bits(), 926);
    let per_cell = r.per_cell.unwrap();
    // Every layout covers 900 cells; the strip reads the same both ways.
    let covered = per_cell
        .iter()
        .fold(broadside::BigUint::from(0u8), |a, c| a + c);
    assert_eq!(covered, &r.count * 900u32);
    assert!((0..1000).all(|i| per_cell[i] == per_cell[1999 - i]));
    // The end cell holds a ship exactly when the first ship starts there: C(n - kL, k - 1)
    // ways to place the other k - 1 after it.
    assert_eq!(per_cell[0], choose_big(2000 - 900, 299));
}

/// Labelled counts (identical ships told apart) of any size: the count times 60!.
#[test]
fn labelled_counts_past_128_bits() {
    let p = problem(14, 14, "60x1", Rules::Touch);
    let report =
        broadside::answer::count(&p, &broadside::answer::Options::new().labelled()).unwrap();
    let broadside::answer::CountReport::Counted(c) = report else {
        panic!("no count: {report:?}");
    };
    let factorial = (1..=60u32).fold(broadside::BigUint::from(1u8), |a, k| a * k);
    assert_eq!(c.count, choose_big(196, 60) * factorial);
}
