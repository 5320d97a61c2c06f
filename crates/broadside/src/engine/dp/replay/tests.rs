//! The replay against the DP counting afresh: a game's positions, narrower and not, kept
//! sweeps, stopped recordings.

use super::*;
use crate::clue::Clue;
use crate::rules::Rules;

use super::super::test_problem as problem;

/// The replay against the DP counting afresh, on one core and split, with and without
/// per-cell counts.
fn agree(replay: &DpReplay, narrow: &Problem) {
    let dp = DpEngine::new(narrow).unwrap();
    for parallel in [false, true] {
        for per_cell in [true, false] {
            let opts = CountOptions {
                per_cell,
                parallel,
                ..CountOptions::default()
            };
            let fresh = dp.count(&opts).unwrap();
            let replayed = replay
                .count_if(&dp, &opts, false)
                .expect("it narrows")
                .unwrap();
            assert_eq!(replayed.count, fresh.count);
            assert_eq!(replayed.per_cell, fresh.per_cell);
            assert!(replayed.complete);
        }
    }
}

#[test]
fn a_replay_counts_what_the_dp_counts() {
    for rules in [Rules::Touch, Rules::NoTouch] {
        // Layers past 4,096 states, which the tight pass splits between workers.
        let (w, h, fleet) = (9, 8, [5, 4, 3, 3, 2]);
        let replay = DpReplay::new(problem(w, h, &fleet, rules, &[]));
        let water = |cells: &[usize]| -> Vec<(usize, Clue)> {
            cells.iter().map(|&c| (c, Clue::Water)).collect()
        };
        // The wider position itself, then misses (the first late, then early), then hits.
        agree(&replay, &problem(w, h, &fleet, rules, &[]));
        agree(&replay, &problem(w, h, &fleet, rules, &water(&[60])));
        agree(
            &replay,
            &problem(w, h, &fleet, rules, &water(&[60, 4, 31, 32])),
        );
        let mut shots = water(&[0, 17, 40, 71]);
        shots.extend([(22, Clue::Ship), (23, Clue::Ship), (55, Clue::Ship)]);
        agree(&replay, &problem(w, h, &fleet, rules, &shots));
        // No layout left: the fleet cannot fit beside a column of water.
        let wall: Vec<usize> = (0..h).map(|r| r * w + 4).chain(0..w).collect();
        let none = problem(w, h, &fleet, rules, &water(&wall));
        agree(&replay, &none);
    }
    // Counts past 32 bits: the trails' forward counts are 64 bits wide from some layer on.
    let replay = DpReplay::new(problem(8, 8, &[3, 2, 2, 2, 1, 1, 1], Rules::Touch, &[]));
    let clues = [(9, Clue::Water), (50, Clue::Ship), (51, Clue::Water)];
    agree(
        &replay,
        &problem(8, 8, &[3, 2, 2, 2, 1, 1, 1], Rules::Touch, &clues),
    );
}

/// Positions one shot apart, counted from the sweeps kept for the one before (its
/// forward counts before the shot and its completions after): two games at once, one
/// asking for per-cell counts only now and then, a third game pushing the oldest sweeps
/// out, a shot before every earlier one, and the positions forgotten.
#[test]
fn a_game_s_positions_are_counted_from_the_one_before() {
    for rules in [Rules::Touch, Rules::NoTouch] {
        let (w, h, fleet) = (9, 8, [5, 4, 3, 3, 2]);
        let replay = DpReplay::new(problem(w, h, &fleet, rules, &[]));
        let games: [&[(usize, Clue)]; 3] = [
            &[
                (40, Clue::Water),
                (13, Clue::Water),
                (66, Clue::Water),
                (31, Clue::Ship),
                (2, Clue::Water),
                (32, Clue::Ship),
                (71, Clue::Water),
            ],
            &[(35, Clue::Water), (36, Clue::Ship), (50, Clue::Water)],
            &[(60, Clue::Water), (0, Clue::Water), (20, Clue::Water)],
        ];
        let dp_of =
            |shots: &[(usize, Clue)]| DpEngine::new(&problem(w, h, &fleet, rules, shots)).unwrap();
        let mut checked = 0;
        for k in 1..=7usize {
            // Then the games go on from the trails alone, in the sweeps' old memory.
            if k == 6 {
                replay.forget_positions();
            }
            for (g, game) in games.iter().enumerate() {
                // The third game starts once the others are under way.
                let n = if g == 2 { k.saturating_sub(3) } else { k };
                if n == 0 || n > game.len() {
                    continue;
                }
                let dp = dp_of(&game[..n]);
                // With two games under way, a position is counted from its game's last
                // where that one's per-cell counts were asked for.
                if (g == 1 && k > 1 && k < 4) || (g == 0 && k == 3) {
                    let Root::Made(t) = &*replay.root.lock().unwrap() else {
                        panic!("recorded by the first count");
                    };
                    let pool = replay.swept.lock().unwrap();
                    let kept = t.dp.narrowed_by(&dp).unwrap();
                    assert!(
                        t.best(&pool, &kept, true).0.is_some(),
                        "game {g}, {k} shots"
                    );
                }
                // The first game's odd positions without per-cell counts.
                let per_cell = g != 0 || k % 2 == 0;
                let opts = CountOptions {
                    per_cell,
                    parallel: k % 3 == 0,
                    ..CountOptions::default()
                };
                let fresh = dp.count(&opts).unwrap();
                let replayed = replay.count_if(&dp, &opts, false).unwrap().unwrap();
                assert_eq!(replayed.count, fresh.count, "game {g}, {n} shots");
                assert_eq!(replayed.per_cell, fresh.per_cell, "game {g}, {n} shots");
                checked += 1;
            }
        }
        assert_eq!(checked, 7 + 3 + 3 - 3 + 3);
        assert!(replay.swept.lock().unwrap().len() <= KEPT_SWEEPS);
    }
}

/// A position that does not narrow the wider one is left to a fresh count, and asks for
/// no trails.
#[test]
fn only_narrower_positions_are_replayed() {
    let fleet = [4, 3, 2];
    let wide = problem(7, 7, &fleet, Rules::Touch, &[(10, Clue::Water)]);
    let replay = DpReplay::new(wide);
    let opts = CountOptions {
        per_cell: true,
        ..CountOptions::default()
    };
    let refused = |p: &Problem| {
        replay
            .count_if(&DpEngine::new(p).unwrap(), &opts, false)
            .is_none()
    };
    // The wider position's water lifted; another fleet; the other rule; a ship end, which
    // rules out placements that cross no water.
    assert!(refused(&problem(7, 7, &fleet, Rules::Touch, &[])));
    assert!(refused(&problem(
        7,
        7,
        &[4, 3, 3],
        Rules::Touch,
        &[(10, Clue::Water)]
    )));
    assert!(refused(&problem(
        7,
        7,
        &fleet,
        Rules::NoTouch,
        &[(10, Clue::Water)]
    )));
    let end = Clue::from_symbol('<').unwrap();
    assert!(refused(&problem(
        7,
        7,
        &fleet,
        Rules::Touch,
        &[(10, Clue::Water), (20, end)]
    )));
    assert!(matches!(*replay.root.lock().unwrap(), Root::Unmade));
    // A narrower one records them once, and is counted.
    agree(
        &replay,
        &problem(
            7,
            7,
            &fleet,
            Rules::Touch,
            &[(10, Clue::Water), (30, Clue::Ship)],
        ),
    );
    assert!(matches!(*replay.root.lock().unwrap(), Root::Made(_)));
}

/// The replay is chosen where it is sooner: for the wider position itself (its backward
/// sweep alone), not once misses from the first row on leave few of its states.
#[test]
fn the_replay_is_chosen_where_it_is_sooner() {
    let wide = problem(9, 8, &[5, 4, 3, 3, 2], Rules::Touch, &[]);
    let replay = DpReplay::new(wide.clone());
    let opts = CountOptions {
        per_cell: true,
        ..CountOptions::default()
    };
    let dp = DpEngine::new(&wide).unwrap();
    assert!(replay.count(&dp, &opts).is_some());
    let misses: Vec<(usize, Clue)> = (0..72).step_by(3).map(|c| (c, Clue::Water)).collect();
    let narrow = problem(9, 8, &[5, 4, 3, 3, 2], Rules::Touch, &misses);
    let dp = DpEngine::new(&narrow).unwrap();
    assert!(replay.count(&dp, &opts).is_none());
    assert!(replay.count_if(&dp, &opts, false).is_some());
}

/// A recording stopped by its time limit says so, and the next count records again.
#[test]
fn a_stopped_recording_is_tried_again() {
    let wide = problem(9, 8, &[5, 4, 3, 3, 2], Rules::Touch, &[]);
    let replay = DpReplay::new(wide.clone());
    let dp = DpEngine::new(&wide).unwrap();
    let cancel = Cancel::new();
    cancel.cancel();
    let opts = CountOptions {
        per_cell: true,
        cancel: Some(cancel),
        ..CountOptions::default()
    };
    let stopped = replay.count_if(&dp, &opts, false).unwrap().unwrap();
    assert_eq!(stopped.stopped, Some(Stop::Cancelled));
    assert!(!stopped.complete);
    assert!(matches!(*replay.root.lock().unwrap(), Root::Unmade));
    agree(&replay, &wide);
}
