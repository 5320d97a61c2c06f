//! The tight passes against the general ones.

use super::*;
use crate::clue::Clue;
use crate::rules::Rules;
use crate::{Dims, Fleet, ProblemSpec};

/// The DP of a `w`x`h` board with ships of the lengths `fleet` and `clues` under
/// `rules`.
fn engine(w: usize, h: usize, fleet: &[usize], rules: Rules, clues: &[(usize, Clue)]) -> DpEngine {
    DpEngine::new(&super::super::test_problem(w, h, fleet, rules, clues)).unwrap()
}

/// The tight pass against the engine's general passes: the same count and per-cell
/// counts, on one core and split, under both rules, with water and ship clues.
fn agree(w: usize, h: usize, fleet: &[usize], clues: &[(usize, Clue)]) {
    for rules in [Rules::Touch, Rules::NoTouch] {
        let dp = engine(w, h, fleet, rules, clues);
        for parallel in [false, true] {
            let opts = CountOptions {
                per_cell: true,
                parallel,
                ..CountOptions::default()
            };
            let general = dp.count_in::<u64>(&opts).unwrap();
            let tight = dp.tight_count(&opts).unwrap().expect("the tables fit");
            assert_eq!(tight.count, general.count, "{w}x{h} {fleet:?} {rules:?}");
            assert_eq!(
                tight.per_cell, general.per_cell,
                "{w}x{h} {fleet:?} {rules:?}"
            );
            let alone = CountOptions {
                per_cell: false,
                ..opts
            };
            assert_eq!(
                dp.tight_count(&alone).unwrap().unwrap().count,
                general.count
            );
        }
    }
}

#[test]
fn the_tight_pass_counts_what_the_general_passes_count() {
    // Layers past 4,096 states, which the workers split.
    agree(9, 8, &[5, 4, 3, 3, 2], &[]);
    agree(
        8,
        9,
        &[4, 3, 3, 2, 2, 1],
        &[(10, Clue::Water), (30, Clue::Ship)],
    );
    // Clues that cut ships across and down, on a board neither square nor wide.
    let clues: Vec<(usize, Clue)> = [3, 17, 22, 40, 41, 58]
        .iter()
        .map(|&c| (c, Clue::Water))
        .chain([(12, Clue::Ship), (50, Clue::Ship)])
        .collect();
    agree(7, 9, &[4, 3, 2, 2], &clues);
    // States whose counts pass 32 bits (3.8e11 layouts touching): they take the trail
    // of its cell to 64 bits.
    agree(8, 8, &[3, 2, 2, 2, 1, 1, 1], &[]);
    let dp = engine(8, 8, &[3, 2, 2, 2, 1, 1, 1], Rules::Touch, &[]);
    let Ok(Some(TightForward { trails, .. })) =
        dp.tight_forward(&CountOptions::default(), Some(0), Record::Cells, false)
    else {
        panic!("the tight pass applies");
    };
    let wide = |t: &Trail| matches!(t.counts, Counts::Wide(_));
    assert!(trails.iter().flatten().any(wide));
    assert!(!trails.iter().flatten().all(wide));
    // One column, one row, and one-cell ships alone.
    agree(1, 9, &[3, 2], &[]);
    agree(9, 1, &[3, 2], &[(4, Clue::Water)]);
    agree(5, 5, &[1, 1, 1], &[]);
}

/// Steps over two cells at once (the count, and the per-cell counts through their
/// trails) count what steps over one count: rows of two and three cells, a one-cell ship
/// beside a ship across that starts on the pair's second cell, clues on either cell of a
/// pair, and labels of four bits (a pair's 256 lists, more than a pair's trail can name).
#[test]
fn steps_over_two_cells_count_what_steps_over_one_count() {
    agree(2, 7, &[2, 1, 1], &[]);
    agree(3, 6, &[3, 2, 1], &[(4, Clue::Ship)]);
    agree(
        6,
        5,
        &[3, 2, 1, 1, 1],
        &[(7, Clue::Ship), (14, Clue::Water)],
    );
    agree(7, 9, &[8, 3, 2], &[(20, Clue::Water)]);
    let t = engine(7, 9, &[8, 3, 2], Rules::NoTouch, &[])
        .tight_tables()
        .expect("the tables fit");
    assert_eq!(t.label_bits, 4);
    // The tables of those boards fit the pairs' (as the standard game's do).
    for (w, h, fleet) in [
        (2, 7, &[2, 1, 1][..]),
        (6, 5, &[3, 2, 1, 1, 1]),
        (7, 9, &[8, 3, 2]),
        (10, 10, &[5, 4, 3, 3, 2]),
    ] {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let t = engine(w, h, fleet, rules, &[])
                .tight_tables()
                .expect("the tables fit");
            assert!(t.pairs, "{w}x{h} {fleet:?} {rules:?}");
        }
    }
}

/// The mirror fold applies to the problems the mirror maps onto themselves, clues and
/// all, and only to them; folded, the tight pass counts what the general passes count,
/// with or without its trails, on one core and split.
#[test]
fn the_mirror_fold_applies_to_symmetric_problems_and_keeps_the_counts() {
    let (w, h) = (9, 8);
    let mirrored = |cells: &[usize]| -> Vec<usize> {
        cells
            .iter()
            .flat_map(|&c| [c, (c / w) * w + w - 1 - c % w])
            .collect()
    };
    let clue_list = |water: &[usize], ship: &[usize]| -> Vec<(usize, Clue)> {
        let water = water.iter().map(|&c| (c, Clue::Water));
        water.chain(ship.iter().map(|&c| (c, Clue::Ship))).collect()
    };
    let symmetric = clue_list(&mirrored(&[1, 20, 39, 58]), &mirrored(&[12, 47]));
    // One water clue in the middle column is its own mirror; one off it is not.
    let centred = clue_list(&[4 + 2 * w], &[]);
    let lopsided = clue_list(&[1 + 2 * w], &[]);
    for (clues, fold) in [
        (&[][..], true),
        (&symmetric[..], true),
        (&centred[..], true),
        (&lopsided[..], false),
    ] {
        for rules in [Rules::Touch, Rules::NoTouch] {
            let dp = engine(w, h, &[4, 3, 3, 2], rules, clues);
            assert_eq!(dp.mirror_symmetric(), fold, "{rules:?} {clues:?}");
            assert!(dp.count(&CountOptions::default()).unwrap().count > 0);
        }
        agree(w, h, &[4, 3, 3, 2], clues);
    }
    // A placement the problem rules out (a sunk report's, say) breaks the symmetry as a
    // clue does: the board's mirror alone is not enough.
    let mut dp = engine(w, h, &[4, 3], Rules::Touch, &[]);
    assert!(dp.mirror_symmetric());
    dp.starts[0] &= !super::super::state::ACROSS;
    assert!(!dp.mirror_symmetric());
}

/// The up-down flip applies to the problems it maps onto itself, clues and all, and only
/// to them; with it the top rows' per-cell counts are the bottom rows', and every one is
/// the general passes' count, with the mirror fold or without it, on boards of odd
/// height (whose middle row is its own flip) and of even.
#[test]
fn the_up_down_flip_applies_to_symmetric_problems_and_keeps_the_per_cell_counts() {
    for (w, h) in [(8, 9), (7, 8)] {
        let flip = |c: usize| (h - 1 - c / w) * w + c % w;
        let mirror = |c: usize| (c / w) * w + w - 1 - c % w;
        let with = |cells: &[usize], f: &dyn Fn(usize) -> usize| -> Vec<usize> {
            cells.iter().flat_map(|&c| [c, f(c)]).collect()
        };
        let clue_list = |water: Vec<usize>, ship: Vec<usize>| -> Vec<(usize, Clue)> {
            let water = water.into_iter().map(|c| (c, Clue::Water));
            water
                .chain(ship.into_iter().map(|c| (c, Clue::Ship)))
                .collect()
        };
        let (water, ship) = ([1, w + 5, 2 * w + 2], [3 * w + 1]);
        let flipped = clue_list(with(&water, &flip), with(&ship, &flip));
        let both = |cells: &[usize]| with(&with(cells, &flip), &mirror);
        let symmetric = clue_list(both(&water), both(&ship));
        let middle = clue_list(vec![(h / 2) * w + 3], vec![]);
        let lopsided = clue_list(vec![w + 2], vec![]);
        for (clues, applies) in [
            (&[][..], true),
            (&flipped[..], true),
            (&symmetric[..], true),
            (&middle[..], h % 2 == 1),
            (&lopsided[..], false),
        ] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let dp = engine(w, h, &[4, 3, 2], rules, clues);
                assert_eq!(dp.flip_symmetric(), applies, "{w}x{h} {rules:?} {clues:?}");
                assert!(dp.count(&CountOptions::default()).unwrap().count > 0);
            }
            agree(w, h, &[4, 3, 2], clues);
        }
    }
    // A ship down the problem rules out at one end breaks the flip as a clue does.
    let mut dp = engine(6, 7, &[4, 3], Rules::Touch, &[]);
    assert!(dp.flip_symmetric());
    dp.starts[0] &= !super::super::state::DOWN;
    assert!(!dp.flip_symmetric());
}

/// Where a state's count passes 64 bits the pass says so, and the engine's count goes on
/// in 128 bits.
#[test]
fn a_count_past_64_bits_falls_to_the_wide_passes() {
    let spec = ProblemSpec::empty(Dims::new(20, 20), Fleet::straight(&[1; 12]), Rules::Touch);
    let dp = DpEngine::new(&spec.build().unwrap()).unwrap();
    let opts = CountOptions::default();
    assert!(matches!(dp.tight_count(&opts), Err(CountError::Overflow)));
    let wide = dp.count_in::<u128>(&opts).unwrap();
    assert!(wide.count > u128::from(u64::MAX));
    assert_eq!(dp.count(&opts).unwrap().count, wide.count);
}
