//! Self-play: games end when the fleet is sunk, every record is true of its hidden layout,
//! a seed gives the same games on any number of threads, and the random shooter's mean
//! matches its exact expectation.

use broadside::play::{PlacerKind, Setup, ShooterKind, Simulation, simulate};
use broadside::{Dims, Fleet, Rules, Sinking, validate};

fn sim(w: usize, h: usize, fleet: &[usize], rules: Rules, shooter: ShooterKind) -> Simulation {
    Simulation {
        setup: Setup {
            dims: Dims::new(w, h),
            fleet: Fleet::straight(fleet),
            rules,
            sinking: Sinking::Announced,
        },
        shooter,
        placer: PlacerKind::Uniform,
        games: 2000,
        seed: 11,
    }
}

/// A random shooter fires at cells in a uniformly random order, so the shots it needs are
/// the position of the last of `k` ship cells among `n`: k (n + 1) / (k + 1) on average.
#[test]
fn the_random_shooter_matches_its_exact_expectation() {
    for (w, h, fleet) in [(5, 5, &[3, 2][..]), (10, 10, &[5, 4, 3, 3, 2])] {
        let s = sim(w, h, fleet, Rules::Touch, ShooterKind::Random);
        let (summary, _) = simulate(&s, &|_| {}).unwrap();
        let (n, k) = ((w * h) as f64, fleet.iter().sum::<usize>() as f64);
        let exact = k * (n + 1.0) / (k + 1.0);
        // A 99.9% interval, so that a fixed seed fails by chance one time in a thousand.
        let half = 3.29 * summary.sd / (summary.games as f64).sqrt();
        assert!(
            (summary.mean - exact).abs() <= half,
            "{w}x{h}: mean {} against {exact}",
            summary.mean
        );
    }
}

#[test]
fn every_game_ends_sunk_and_its_record_is_true() {
    for shooter in [
        ShooterKind::Random,
        ShooterKind::HuntTarget,
        ShooterKind::Parity,
        ShooterKind::Checkerboard,
        ShooterKind::Density,
        ShooterKind::Greedy,
    ] {
        for sinking in [Sinking::None, Sinking::Announced, Sinking::Revealed] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let mut s = sim(5, 4, &[3, 2, 1], rules, shooter);
                s.setup.sinking = sinking;
                s.games = 40;
                let (summary, games) = simulate(&s, &|_| {}).unwrap();
                for g in &games {
                    let layout = g.record.solution.as_ref().unwrap();
                    validate::check(&g.record, layout).unwrap();
                    assert_eq!(g.record.observations.shots.len(), g.shots);
                    let hit = g
                        .record
                        .observations
                        .shots
                        .iter()
                        .filter(|s| layout.cells().any(|c| c == s.cell))
                        .count();
                    assert_eq!(hit, 6, "{shooter} {sinking} {rules}: the fleet is sunk");
                }
                assert!(summary.min >= 6 && summary.max <= 20);
            }
        }
    }
}

#[test]
fn a_seed_gives_the_same_games_on_any_number_of_threads() {
    let s = sim(6, 6, &[3, 2, 2], Rules::NoTouch, ShooterKind::Parity);
    let shots = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&s, &|_| {}).unwrap().1)
            .iter()
            .map(|g| (g.shots, g.record.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(shots(1), shots(2));
    let mut other = s.clone();
    other.seed += 1;
    assert_ne!(
        simulate(&other, &|_| {}).unwrap().0.mean,
        simulate(&s, &|_| {}).unwrap().0.mean
    );
}

/// On 5x5 {3,2} without touching: exact greedy beats parity, which beats hunt-target, which
/// beats random (the order of Kancko's table).
#[test]
fn shooters_rank_as_in_the_literature() {
    let mean = |shooter| {
        simulate(&sim(5, 5, &[3, 2], Rules::NoTouch, shooter), &|_| {})
            .unwrap()
            .0
    };
    let (g, p, h, r) = (
        mean(ShooterKind::Greedy),
        mean(ShooterKind::Parity),
        mean(ShooterKind::HuntTarget),
        mean(ShooterKind::Random),
    );
    assert!(g.ci95[1] < p.ci95[0], "greedy {} parity {}", g.mean, p.mean);
    assert!(
        p.ci95[1] < h.ci95[0],
        "parity {} hunt-target {}",
        p.mean,
        h.mean
    );
    assert!(
        h.ci95[1] < r.ci95[0],
        "hunt-target {} random {}",
        h.mean,
        r.mean
    );
}

#[test]
fn matches_are_fair_to_equals_and_rank_the_stronger_first() {
    use broadside::play::{Side, play_match};
    let setup = sim(8, 8, &[4, 3, 2], Rules::Touch, ShooterKind::Random).setup;
    let side = |shooter| Side {
        shooter,
        placer: PlacerKind::Uniform,
    };
    // A side against itself: each wins the pairs it needs fewer shots in, as often as not.
    let even = play_match(
        &setup,
        side(ShooterKind::Parity),
        side(ShooterKind::Parity),
        1500,
        5,
    )
    .unwrap();
    assert_eq!(even.games, 3000);
    assert!(even.ci95[0] <= 0.5 && 0.5 <= even.ci95[1], "{even:?}");
    let m = play_match(
        &setup,
        side(ShooterKind::Density),
        side(ShooterKind::Random),
        500,
        5,
    )
    .unwrap();
    assert!(m.ci95[0] > 0.9 && m.mean_shots_a < m.mean_shots_b, "{m:?}");
    // Swapping the sides swaps the result.
    let back = play_match(
        &setup,
        side(ShooterKind::Random),
        side(ShooterKind::Density),
        500,
        5,
    )
    .unwrap();
    assert!(back.ci95[1] < 0.1, "{back:?}");
}
