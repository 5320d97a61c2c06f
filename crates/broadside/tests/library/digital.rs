//! Digital Battleships: a digit on every cell, and each row's and column's number the sum of
//! the digits under its ship cells. The enumerator and SAT against each other and against a
//! brute force (which checks each layout with the independent validator) on random puzzles
//! built around a planted layout; a constructed puzzle with its unique solution; the text and
//! JSON forms read back; and the engines and formats that do not take digits say so.

use crate::common;

use broadside::answer::{self, CountReport, Options, SolveReport};
use broadside::sample::{Sampler, SamplerKind};
use broadside::{CountOptions, Engine, Enumerator, ProblemSpec, SatEngine, check, format};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// `spec` made digital: random digits (zeros included), and of its rows and columns a random
/// part given, each the sum of the digits under the planted `layout`'s ship cells.
fn digitise(spec: &mut ProblemSpec, layout: &broadside::Layout, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x0d16_17a1);
    let d = spec.dims;
    spec.digits = (0..d.cells()).map(|_| rng.random_range(0..10)).collect();
    let ships: Vec<usize> = layout.cells().collect();
    let sum = |cells: &mut dyn Iterator<Item = usize>| -> usize {
        cells
            .filter(|c| ships.contains(c))
            .map(|c| usize::from(spec.digits[c]))
            .sum()
    };
    let given = 0.3 + 0.7 * rng.random::<f64>();
    spec.rows = (0..d.height)
        .map(|r| {
            (rng.random::<f64>() < given).then(|| sum(&mut (0..d.width).map(|c| d.index(r, c))))
        })
        .collect();
    spec.cols = (0..d.width)
        .map(|c| {
            (rng.random::<f64>() < given).then(|| sum(&mut (0..d.height).map(|r| d.index(r, c))))
        })
        .collect();
}

#[test]
fn engines_and_brute_force_agree_on_random_digital_puzzles() {
    let (mut tried, mut brute) = (0, 0);
    let mut drawn_by = std::collections::BTreeMap::new();
    for seed in 0..400 {
        let Some((mut spec, planted)) = common::planted(seed) else {
            continue;
        };
        digitise(&mut spec, &planted, seed);
        assert!(
            check::layout(&spec, &planted).is_ok(),
            "seed {seed}: the planted layout"
        );
        let problem = spec
            .clone()
            .build()
            .expect("a planted digital puzzle is well formed");
        assert!(
            problem.conflicts().is_empty(),
            "seed {seed}: {:?}",
            problem.conflicts()
        );
        let opts = CountOptions {
            per_cell: true,
            limit: Some(3000),
            ..Default::default()
        };
        let e = Enumerator::new(&problem).count(&opts).unwrap();
        let s = SatEngine::new(&problem).count(&opts).unwrap();
        assert!(
            e.count >= 1,
            "seed {seed}: the planted layout is a solution"
        );
        assert_eq!((e.count, e.complete), (s.count, s.complete), "seed {seed}");
        if !e.complete {
            continue;
        }
        tried += 1;
        assert_eq!(e.per_cell, s.per_cell, "seed {seed}");
        let all: Vec<_> = Enumerator::new(&problem).solutions().collect();
        assert_eq!(all.len() as u128, e.count, "seed {seed}");
        assert!(
            all.contains(&planted),
            "seed {seed}: planted layout not found"
        );
        for l in &all {
            assert!(check::layout(&spec, l).is_ok(), "seed {seed}: {l:?}");
        }
        // Every sampler draws layouts of the puzzle (the rejection ones test the sums on
        // their own).
        for kind in [
            SamplerKind::Uniform,
            SamplerKind::Rejection,
            SamplerKind::Sequential,
        ] {
            let mut sampler = Sampler::new(Arc::new(problem.clone()), kind).unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..5 {
                let drawn = sampler.sample_within(&mut rng, 100_000);
                if let Some(l) = drawn {
                    assert!(all.contains(&l), "seed {seed}: {kind:?} drew {l:?}");
                    *drawn_by.entry(format!("{kind:?}")).or_insert(0) += 1;
                }
            }
        }
        if let Some(naive) = common::naive_count_if_small(&spec) {
            brute += 1;
            let (n, per_cell) = common::naive_counts(&spec);
            assert_eq!((naive, n), (e.count, e.count), "seed {seed}");
            assert_eq!(Some(per_cell), e.per_cell, "seed {seed}");
        }
    }
    assert!(
        tried >= 250 && brute >= 100,
        "{tried} counted, {brute} brute-forced"
    );
}

/// A puzzle whose numbers are digit sums, made by drawing digits around a planted layout
/// until a brute force over its 3,944 layouts found that one alone.
const PUZZLE: &str = "\
name: digital-5x5
size: 5x5
fleet: 3 2 1
rules: no-touch
grid:
     11 4 7 1 8
  9   . . . . .
  0   . . . . .
 19   . . . . .
  0   . . . . .
  3   . . . . .
digits:
  5 6 9 1 8
  4 1 3 2 6
  8 4 7 9 2
  4 1 4 7 5
  3 7 3 2 3
";

#[test]
fn a_constructed_digital_puzzle_has_its_one_solution() {
    let p = answer::problems("digital.txt", PUZZLE)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    for engine in [Engine::Auto, Engine::Enum, Engine::Sat] {
        let asked = Options::new().engine(engine);
        let CountReport::Counted(c) = answer::count(&p, &asked).unwrap() else {
            panic!("{engine:?}: no layout");
        };
        assert_eq!(c.count, 1u8.into(), "{engine:?}");
        let SolveReport::Solved(s) = answer::solve(&p, &asked).unwrap() else {
            panic!("{engine:?}: not solved");
        };
        assert_eq!(
            s.solution,
            ["...<>", ".....", "<m>..", ".....", "o...."]
                .map(String::from)
                .to_vec(),
            "{engine:?}"
        );
    }
    assert_eq!(common::naive_count(p.given()), 1);
    // The same numbers read as ship cells are no puzzle: row 3 cannot hold 19 of 5 cells.
    let mut plain = p.given().clone();
    plain.digits.clear();
    assert!(plain.build().is_err());
}

#[test]
fn digital_puzzles_read_back_from_text_and_json() {
    for seed in 0..60 {
        let Some((mut spec, planted)) = common::planted(seed) else {
            continue;
        };
        digitise(&mut spec, &planted, seed);
        let text = format::text::print(&spec);
        assert!(text.contains("digits:\n"), "{text}");
        assert_eq!(
            format::text::parse(&text).unwrap(),
            spec,
            "seed {seed}:\n{text}"
        );
        let json = format::json::print(&spec);
        assert_eq!(
            format::json::parse(&json).unwrap(),
            spec,
            "seed {seed}:\n{json}"
        );
    }
}

#[test]
fn digital_defects_say_where_and_what_cannot_take_digits_says_why() {
    let bad = |from: &str, to: &str| {
        let text = PUZZLE.replacen(from, to, 1);
        format::text::parse(&text)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    // A letter among the digits: its line and column.
    let e = bad("  4 1 3 2 6", "  4 1 x 2 6");
    assert_eq!(e, "line 14, column 7: expected a digit 0 to 9, found 'x'");
    let e = bad("  4 1 3 2 6", "  4 1 3 2");
    assert!(e.contains("expected 5 digits in this row, found 4"), "{e}");
    // A row's number past the sum of its digits (5 + 6 + 9 + 1 + 8 = 29), at its row.
    let e = bad("  9   . . . . .", " 30   . . . . .");
    assert!(
        e.contains("row 1 sums to 30, more than its digits' total 29"),
        "{e}"
    );

    let p = answer::problems("digital.txt", PUZZLE)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let e = Engine::Dp.count(&p, &CountOptions::default()).unwrap_err();
    assert!(e.to_string().contains("Digital Battleships"), "{e}");
    for e in [
        format::puzlink::write(p.given()).unwrap_err().to_string(),
        format::pzprv3::write(p.given()).unwrap_err().to_string(),
    ] {
        assert!(e.contains("Digital Battleships"), "{e}");
    }
    // A game with digits is no puzzle.
    let game = PUZZLE.replace("digits:", "shots:\nA1 miss\ndigits:");
    let e = format::text::parse(&game).unwrap_err().to_string();
    assert!(
        e.contains("digits are a Digital Battleships puzzle's"),
        "{e}"
    );
}

#[test]
fn generated_digital_puzzles_are_unique_by_sat_and_minimal() {
    use broadside::generate::{GenerateOptions, generate};
    for (size, seed) in [(6, 1), (6, 2), (8, 3), (10, 4)] {
        let mut opts = GenerateOptions::new(broadside::Dims::new(size, size));
        opts.digital = true;
        let spec = generate(&opts, &mut StdRng::seed_from_u64(seed)).unwrap();
        assert_eq!(spec.digits.len(), size * size);
        assert!(spec.digits.iter().all(|&d| (1..=9).contains(&d)));
        let hidden = spec.solution.clone().unwrap();
        assert!(
            check::layout(&spec, &hidden).is_ok(),
            "{size}x{size} seed {seed}"
        );
        let p = spec.clone().build().unwrap();
        let r = SatEngine::new(&p)
            .count(&CountOptions {
                limit: Some(2),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            (r.count, r.complete),
            (1, true),
            "{size}x{size} seed {seed}"
        );
        common::assert_minimal(&spec);
    }
    // Grades come from rules that count ship cells: refused, with the reason.
    let mut opts = GenerateOptions::new(broadside::Dims::new(6, 6));
    opts.digital = true;
    opts.difficulty = Some(broadside::logic::Grade::Easy);
    let e = generate(&opts, &mut StdRng::seed_from_u64(0)).unwrap_err();
    assert!(e.to_string().contains("Digital Battleships"), "{e}");
}

/// The logical solver on digital puzzles: every cell it decides is the same in every layout
/// the enumerator finds, and it meets no contradiction where a layout exists.
#[test]
fn the_logical_rules_decide_only_what_every_digital_layout_shares() {
    let (mut decided, mut puzzles) = (0, 0);
    for seed in 0..1200 {
        let Some((mut spec, planted)) = common::planted(seed) else {
            continue;
        };
        digitise(&mut spec, &planted, seed);
        let problem = spec.clone().build().unwrap();
        if broadside::logic::supports(&problem).is_err() {
            continue;
        }
        let all: Vec<_> = Enumerator::new(&problem).solutions().take(3001).collect();
        if all.len() > 3000 {
            continue;
        }
        let outcome = broadside::logic::solve(&problem, 4).unwrap();
        assert!(
            !outcome.contradiction,
            "seed {seed}: a contradiction with a layout planted"
        );
        puzzles += 1;
        for (c, &k) in outcome.grid.iter().enumerate() {
            if k == broadside::Know::Unknown {
                continue;
            }
            decided += 1;
            let ship = k == broadside::Know::Ship;
            for l in &all {
                assert_eq!(l.cells().any(|x| x == c), ship, "seed {seed}: cell {c}");
            }
        }
    }
    assert!(
        puzzles >= 150 && decided >= 2000,
        "{puzzles} puzzles, {decided} cells decided"
    );
}

#[test]
fn the_constructed_digital_puzzle_is_explained_by_its_sums() {
    let p = answer::problems("digital.txt", PUZZLE)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let report = serde_json::to_value(answer::explain(&p, &Options::new()).unwrap()).unwrap();
    let steps = report["steps"].as_array().unwrap();
    let says = |text: &str| {
        steps
            .iter()
            .any(|s| s["why"].as_str().unwrap().contains(text))
    };
    assert!(says("row 2's ships already sum to 0"), "{report}");
    assert!(
        says("column B sums to 4 only with every open digit left"),
        "{report}"
    );
    assert!(says("row 3's ships already sum to 19"), "{report}");
    assert_eq!(report["solved_by_rules"], true);
    assert_eq!(report["solution"][2], "<m>..");
}
