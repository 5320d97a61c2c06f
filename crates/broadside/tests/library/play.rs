//! Self-play: games end when the fleet is sunk, every record is true of its hidden layout,
//! a seed gives the same games on any number of threads, and the random shooter's mean
//! matches its exact expectation.

use broadside::play::{PlacerKind, Setup, ShooterKind, Simulation, Versus, Winner, simulate};
use broadside::{Dims, Fleet, Rules, Sinking, check};
use std::sync::atomic::AtomicBool;

fn sim(w: usize, h: usize, fleet: &[usize], rules: Rules, shooter: ShooterKind) -> Simulation {
    Simulation {
        setup: Setup {
            dims: Dims::new(w, h),
            fleet: Fleet::straight(fleet),
            rules,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        },
        shooter,
        placer: PlacerKind::Uniform,
        games: 2000,
        first: 0,
        seed: 11,
        book: None,
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
        ShooterKind::Knight,
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 0,
            lattice: 0,
        },
        ShooterKind::Habr,
        ShooterKind::Greedy,
        ShooterKind::MinPossible { open: 12 },
        "sampled:30".parse().unwrap(),
        "sampled:30:weighted".parse().unwrap(),
        "lookahead:2.4".parse().unwrap(),
        "endgame:30".parse().unwrap(),
        "rollout:200".parse().unwrap(),
        "mcts:40".parse().unwrap(),
        "pilot:20".parse().unwrap(),
    ] {
        for sinking in [Sinking::None, Sinking::Announced, Sinking::Revealed] {
            for rules in [Rules::Touch, Rules::NoTouch] {
                let mut s = sim(5, 4, &[3, 2, 1], rules, shooter);
                s.setup.sinking = sinking;
                s.games = 40;
                let (summary, games) = simulate(&s, &|_| {}).unwrap();
                for g in &games {
                    let layout = g.record.solution.as_ref().unwrap();
                    check::layout(&g.record, layout).unwrap();
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
    let shots = |s: &Simulation, threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(s, &|_| {}).unwrap().1)
            .iter()
            .map(|g| (g.shots, g.record.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(shots(&s, 1), shots(&s, 2));
    // The pilot draws its rollouts' layouts from the game's dice too.
    let mut pilot = sim(6, 6, &[3, 2, 2], Rules::Touch, "pilot:40".parse().unwrap());
    pilot.games = 12;
    assert_eq!(shots(&pilot, 1), shots(&pilot, 2));
    let mut other = s.clone();
    other.seed += 1;
    assert_ne!(
        simulate(&other, &|_| {}).unwrap().0.mean,
        simulate(&s, &|_| {}).unwrap().0.mean
    );
}

/// `pilot:N.C.A` plays `density:50.1`'s shots while more than A ships are afloat, and the
/// pilot's own once at most A are: the same games as `density:50.1` up to the sinking that
/// leaves A afloat, as `pilot:N.C` where A is the whole fleet, and as `density:50.1` throughout
/// where sinkings are not reported.
#[test]
fn the_pilot_waits_until_few_ships_are_afloat() {
    let games_under = |sinking: Sinking, shooter: &str| {
        let mut s = sim(7, 7, &[4, 3, 2], Rules::Touch, shooter.parse().unwrap());
        s.games = 30;
        s.setup.sinking = sinking;
        simulate(&s, &|_| {})
            .unwrap()
            .1
            .into_iter()
            .map(|g| g.record.observations.shots)
            .collect::<Vec<_>>()
    };
    let games = |shooter: &str| games_under(Sinking::Announced, shooter);
    let base = games("density:50.1");
    let late = games("pilot:60.6.1");
    let mut after = 0;
    for (b, l) in base.iter().zip(&late) {
        // The shots up to the second sinking (one ship of three left) are the base's.
        let second = b
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.result, broadside::ShotResult::Sunk { .. }))
            .nth(1)
            .map(|(i, _)| i)
            .unwrap();
        assert_eq!(b[..=second], l[..=second]);
        after += (b != l) as usize;
    }
    // And after it the pilot does choose other shots.
    assert!(after > 0, "pilot:60.6.1 played density:50.1's games");
    assert_eq!(games("pilot:60.6.3"), games("pilot:60"));
    // Without sinking reports no ship is known to be sunk, so the fleet stays afloat and the
    // rollouts never start.
    assert_eq!(
        games_under(Sinking::None, "pilot:60.6.2"),
        games_under(Sinking::None, "density:50.1")
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
    use broadside::play::{Match, Side, play_match};
    let setup = sim(8, 8, &[4, 3, 2], Rules::Touch, ShooterKind::Random).setup;
    let side = |shooter| Side {
        shooter,
        placer: PlacerKind::Uniform,
    };
    // A side against itself: each wins the pairs it needs fewer shots in, as often as not.
    let even = play_match(
        &Match {
            setup: setup.clone(),
            a: side(ShooterKind::Parity),
            b: side(ShooterKind::Parity),
            pairs: 1500,
            seed: 5,
            kept: Vec::new(),
        },
        &AtomicBool::new(false),
        &|_, _, _| {},
    )
    .unwrap();
    assert_eq!(even.games, 3000);
    assert!(even.ci95[0] <= 0.5 && 0.5 <= even.ci95[1], "{even:?}");
    let m = play_match(
        &Match {
            setup: setup.clone(),
            a: side(ShooterKind::Density {
                weight: broadside::play::DENSITY_WEIGHT,
                small: 0,
                lattice: 0,
            }),
            b: side(ShooterKind::Random),
            pairs: 500,
            seed: 5,
            kept: Vec::new(),
        },
        &AtomicBool::new(false),
        &|_, _, _| {},
    )
    .unwrap();
    assert!(m.ci95[0] > 0.9 && m.mean_shots_a < m.mean_shots_b, "{m:?}");
    // Swapping the sides swaps the result.
    let back = play_match(
        &Match {
            setup: setup.clone(),
            a: side(ShooterKind::Random),
            b: side(ShooterKind::Density {
                weight: broadside::play::DENSITY_WEIGHT,
                small: 0,
                lattice: 0,
            }),
            pairs: 500,
            seed: 5,
            kept: Vec::new(),
        },
        &AtomicBool::new(false),
        &|_, _, _| {},
    )
    .unwrap();
    assert!(back.ci95[1] < 0.1, "{back:?}");
    assert!(even.complete && m.complete && back.complete);
    // Stopped before a pair is played: an error that says so, not an empty summary.
    let stopped = play_match(
        &Match {
            setup: setup.clone(),
            a: side(ShooterKind::Random),
            b: side(ShooterKind::Random),
            pairs: 500,
            seed: 5,
            kept: Vec::new(),
        },
        &AtomicBool::new(true),
        &|_, _, _| {},
    );
    assert!(
        matches!(stopped, Err(broadside::Error::Stopped(_))),
        "{stopped:?}"
    );
}

#[test]
fn shooter_and_placer_words_read_back_and_bad_ones_say_the_form() {
    for word in [
        "random",
        "hunt-target",
        "parity",
        "checkerboard",
        "knight",
        "density:50",
        "density:3",
        "density:50.1",
        "habr",
        "greedy",
        "mp:70",
        "sampled:1000",
        "sampled:1000:weighted",
        "lookahead:2",
        "lookahead:2.8.70",
        "lookahead:3.4",
        "endgame:1000",
        "rollout:5000",
        "mcts:500",
        "pilot:800",
        "pilot:1600.8",
        "pilot:800.8.2",
    ] {
        // The older positional word reads as the named one it is written back as.
        let kind: ShooterKind = word.parse().unwrap();
        let named = kind.to_string();
        assert_eq!(named.parse::<ShooterKind>(), Ok(kind), "{word} as {named}");
        assert!(
            named.contains('=') || !word.contains(':') || named == "density" || named == "pilot",
            "{word} as {named}"
        );
    }
    for (bad, says) in [
        ("mp", "a value for open: mp:open=VALUE"),
        ("mp:0", "open (1 or more, required)"),
        ("sampled:ten", "boards (1 or more, required)"),
        (
            "sampled:10:best",
            "sampler (uniform, rejection, sequential or weighted",
        ),
        ("lookahead:9", "plies (1 to 4, required)"),
        (
            "lookahead:2.8.70.1",
            "lookahead:plies=VALUE,moves=VALUE,open=VALUE",
        ),
        ("mcts:", "playouts (1 or more, required)"),
        ("rollout", "a value for layouts"),
        ("pilot:x", "layouts (1 to 1000000, 800 unless given)"),
        ("pilot:99999999999", "layouts (1 to 1000000"),
        ("pilot:800.0", "candidates (1 to 32, 6 unless given)"),
        ("pilot:800.33", "candidates (1 to 32"),
        ("pilot:candidates=x", "candidates (1 to 32"),
        ("pilot:800.8.0", "afloat (1 or more, none unless given)"),
        (
            "pilot:800.8.2.1",
            "pilot:layouts=VALUE,candidates=VALUE,afloat=VALUE",
        ),
        (
            "pilot:layouts=800,width=3",
            "a parameter pilot takes, not \"width\"",
        ),
        ("sniper", "knight"),
    ] {
        let e = bad.parse::<ShooterKind>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // Six candidates are the default, and the name says so by leaving them out.
    assert_eq!(
        "pilot:1600.6".parse::<ShooterKind>().unwrap().to_string(),
        "pilot:layouts=1600"
    );
    for word in [
        "uniform",
        "sequential",
        "sequential-sp",
        "ed1",
        "ed1-sp",
        "ed2",
        "ed2-sp",
        "pk",
        "pk-sp",
        "pk:3x7",
        "adversarial:density:50",
        "adversarial:habr",
        "adversarial:mp:70",
        "file:layouts.txt",
    ] {
        let kind: PlacerKind = word.parse().unwrap();
        assert_eq!(kind.to_string().parse::<PlacerKind>(), Ok(kind), "{word}");
    }
    // The seed's own names.
    for (paper, ours) in [
        ("rsp", "sequential:separated=yes"),
        ("ed1sp", "ed1:separated=yes"),
        ("ed1-sp", "ed1:separated=yes"),
        ("pksp", "pk:separated=yes"),
        ("pk:3x7", "pk:short=3,long=7"),
    ] {
        assert_eq!(paper.parse::<PlacerKind>().unwrap().to_string(), ours);
    }
    for bad in [
        "pk:0x5",
        "adversarial:nobody",
        "file:",
        "uniform-sp",
        "edge",
    ] {
        assert!(bad.parse::<PlacerKind>().is_err(), "{bad}");
    }
}

/// Sakuta & Iida's MP_x is greedy once at most four ships are afloat and at most x cells are open: with
/// x the whole board and two ships, it is greedy from the first shot, the same dice and all.
#[test]
fn mp_with_the_whole_board_open_is_greedy() {
    let games = |shooter| {
        let mut s = sim(5, 5, &[3, 2], Rules::NoTouch, shooter);
        s.games = 200;
        simulate(&s, &|_| {})
            .unwrap()
            .1
            .into_iter()
            .map(|g| g.shots)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        games(ShooterKind::MinPossible { open: 25 }),
        games(ShooterKind::Greedy)
    );
    // With the exact stage from 10 open cells, it plays as the checkerboard first, and worse.
    let late: usize = games(ShooterKind::MinPossible { open: 10 }).iter().sum();
    let greedy: usize = games(ShooterKind::Greedy).iter().sum();
    assert!(late > greedy, "{late} {greedy}");
}

/// One ply of lookahead is greedy: at positions of real games, its shot is a cell of highest
/// exact probability.
#[test]
fn lookahead_of_one_ply_fires_at_a_likeliest_cell() {
    use broadside::Engine;
    use broadside::heat::HeatMap;
    use rand::SeedableRng;
    let mut s = sim(6, 5, &[3, 2, 2], Rules::Touch, ShooterKind::Parity);
    s.games = 20;
    let (_, games) = simulate(&s, &|_| {}).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let kind: ShooterKind = "lookahead:1.30".parse().unwrap();
    let mut checked = 0;
    for g in &games {
        let shots = &g.record.observations.shots;
        for k in (0..shots.len()).step_by(3) {
            let mut spec = g.record.clone();
            spec.solution = None;
            spec.observations.shots.truncate(k);
            let heat = HeatMap::compute(&spec.clone().build().unwrap(), Engine::Auto).unwrap();
            let (best, _) = heat.best();
            if best.is_empty() {
                continue;
            }
            let cell = kind
                .shooter(Default::default())
                .choose(&s.setup, &shots[..k], &mut rng);
            assert!(
                best.contains(&cell),
                "game {:?} shot {k}",
                g.record.meta.name
            );
            checked += 1;
        }
    }
    assert!(checked > 50);
}

/// Every placer's layouts obey the game's rules and the placer's own: ED1 on the outer line,
/// ED2 within the outer two, PK all but the smallest ship within a 2x10 rectangle and the
/// smallest outside it, separated ships never touching.
#[test]
fn placers_hide_the_fleet_where_they_say() {
    use broadside::play::{Placer, empty_board};
    use rand::SeedableRng;
    for rules in [Rules::Touch, Rules::NoTouch] {
        let setup = Setup {
            rules,
            ..Setup::standard()
        };
        let d = setup.dims;
        let empty = empty_board(&setup).unwrap();
        let ring = |c: usize| {
            let (r, col) = d.row_col(c);
            r.min(9 - r).min(col).min(9 - col)
        };
        let touching = |l: &broadside::Layout| {
            l.ships.iter().enumerate().any(|(i, a)| {
                l.ships.iter().skip(i + 1).any(|b| {
                    a.cells
                        .iter()
                        .any(|&x| b.cells.iter().any(|&y| d.neighbours8(x).any(|n| n == y)))
                })
            })
        };
        for word in [
            "sequential",
            "sequential-sp",
            "ed1",
            "ed1-sp",
            "ed2",
            "ed2-sp",
            "pk",
            "pk-sp",
        ] {
            if rules == Rules::NoTouch && word.starts_with("pk") {
                continue;
            }
            let kind: PlacerKind = word.parse().unwrap();
            let mut placer = Placer::new(&kind, &setup, empty.clone()).unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(9);
            let mut touched = false;
            for _ in 0..200 {
                let l = placer.place(&mut rng).unwrap();
                check::layout(&setup.empty(), &l).unwrap();
                touched |= touching(&l);
                if word.ends_with("-sp") && !word.starts_with("pk") {
                    assert!(!touching(&l), "{word}");
                }
                if word.starts_with("ed1") {
                    assert!(l.cells().all(|c| ring(c) == 0), "{word}");
                }
                if word.starts_with("ed2") {
                    assert!(l.cells().all(|c| ring(c) <= 1), "{word}");
                }
                if word.starts_with("pk") {
                    let (small, packed): (Vec<_>, Vec<_>) =
                        l.ships.iter().partition(|s| s.cells.len() == 2);
                    let rc: Vec<_> = packed
                        .iter()
                        .flat_map(|s| s.cells.iter())
                        .map(|&c| d.row_col(c))
                        .collect();
                    let (r0, r1) = (
                        rc.iter().map(|x| x.0).min().unwrap(),
                        rc.iter().map(|x| x.0).max().unwrap(),
                    );
                    let (c0, c1) = (
                        rc.iter().map(|x| x.1).min().unwrap(),
                        rc.iter().map(|x| x.1).max().unwrap(),
                    );
                    let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
                    assert!(h.min(w) <= 2 && h.max(w) <= 10, "{word}: {h}x{w}");
                    let inside = |c: usize| {
                        let (r, col) = d.row_col(c);
                        (r0..=r1).contains(&r) && (c0..=c1).contains(&col)
                    };
                    assert!(small[0].cells.iter().all(|&c| !inside(c)), "{word}");
                }
            }
            if rules == Rules::Touch && !word.ends_with("-sp") && word != "ed2" {
                assert!(touched, "{word}: ships may touch under these rules");
            }
        }
    }
}

#[test]
fn the_file_placer_hands_out_its_layouts_in_turn() {
    let dir = std::env::temp_dir().join(format!("broadside-placer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("layouts.txt");
    std::fs::write(
        &path,
        "{\"layout\": [\"<>...\", \".....\", \"..<m>\", \".....\"]}\n\n^....\nv....\n.....\n<m>..\n",
    )
    .unwrap();
    let mut s = sim(
        5,
        4,
        &[3, 2],
        Rules::Touch,
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 0,
            lattice: 0,
        },
    );
    s.placer = PlacerKind::File(path.clone());
    s.games = 4;
    let (_, games) = simulate(&s, &|_| {}).unwrap();
    let layouts: Vec<_> = games
        .iter()
        .map(|g| g.record.solution.clone().unwrap())
        .collect();
    assert_eq!(layouts[0], layouts[2]);
    assert_eq!(layouts[1], layouts[3]);
    assert_ne!(layouts[0], layouts[1]);
    // A layout the rules forbid, named by its place in the file.
    std::fs::write(
        &path,
        "<>...\n.....\n..<m>\n.....\n\n<>...\n<m>..\n.....\n.....\n",
    )
    .unwrap();
    s.setup.rules = Rules::NoTouch;
    let e = simulate(&s, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("layout 2"), "{e}");
    std::fs::write(&path, "<>...\n.....\n..<=x\n.....\n").unwrap();
    let e = simulate(&s, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("layouts.txt: line 1"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The adversarial placer hides the fleet where the named shooter looks last: density needs
/// more shots against it than against uniform layouts, on the same seeds.
#[test]
fn the_adversarial_placer_costs_its_shooter_shots() {
    let mut s = sim(
        8,
        8,
        &[4, 3, 2],
        Rules::Touch,
        ShooterKind::Density {
            weight: broadside::play::DENSITY_WEIGHT,
            small: 0,
            lattice: 0,
        },
    );
    s.games = 400;
    let (uniform, _) = simulate(&s, &|_| {}).unwrap();
    s.placer = "adversarial:density".parse().unwrap();
    let (against, _) = simulate(&s, &|_| {}).unwrap();
    assert!(
        against.ci95[0] > uniform.ci95[1],
        "{} against {}",
        against.mean,
        uniform.mean
    );
}

/// Rocks are known to both sides: no layout covers one, no shooter fires at one.
#[test]
fn no_shooter_fires_at_a_rock() {
    for shooter in [
        "random",
        "hunt-target",
        "knight",
        "density",
        "greedy",
        "sampled:20:weighted",
        "mcts:20",
        "pilot:20",
    ] {
        let mut s = sim(6, 6, &[3, 2, 2], Rules::Touch, shooter.parse().unwrap());
        s.setup.rocks = vec![0, 7, 14, 21, 30];
        s.games = 30;
        let (_, games) = simulate(&s, &|_| {}).unwrap();
        for g in &games {
            let layout = g.record.solution.as_ref().unwrap();
            assert!(layout.cells().all(|c| !s.setup.rocks.contains(&c)));
            let shots = &g.record.observations.shots;
            assert!(
                shots.iter().all(|x| !s.setup.rocks.contains(&x.cell)),
                "{shooter}"
            );
            check::layout(&g.record, layout).unwrap();
        }
    }
}

/// A sonar reports the Manhattan distance to the nearest ship cell on a miss, and the record
/// stays true of the hidden layout.
#[test]
fn the_sonar_reports_the_distance_to_the_nearest_ship() {
    use broadside::observe::ShotResult;
    use broadside::play::{Game, Placer, empty_board};
    use rand::{RngExt, SeedableRng};
    let setup = sim(7, 6, &[3, 2], Rules::Touch, ShooterKind::Random).setup;
    let empty = empty_board(&setup).unwrap();
    let mut placer = Placer::new(&PlacerKind::Uniform, &setup, empty).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let d = setup.dims;
    for _ in 0..50 {
        let layout = placer.place(&mut rng).unwrap();
        let ships: Vec<usize> = layout.cells().collect();
        let mut game = Game::new(setup.clone(), layout.clone());
        for _ in 0..8 {
            let cell = rng.random_range(0..d.cells());
            let result = game.sonar(cell);
            let (r, c) = d.row_col(cell);
            let nearest = ships
                .iter()
                .map(|&x| {
                    let (rx, cx) = d.row_col(x);
                    r.abs_diff(rx) + c.abs_diff(cx)
                })
                .min()
                .unwrap();
            match result {
                ShotResult::Sonar { distance } => assert_eq!(distance, nearest),
                _ => assert_eq!(nearest, 0),
            }
        }
        check::layout(&game.record(), &layout).unwrap();
    }
}

/// A match cut short goes on from the pairs it kept: only the pairs it lacks are played, each
/// as in the whole match, and the summary is the whole match's.
#[test]
fn a_match_goes_on_from_the_pairs_it_kept() {
    use broadside::play::{Match, PairShots, Side, play_match};
    use std::sync::Mutex;
    let run = Match {
        setup: sim(6, 6, &[3, 2], Rules::Touch, ShooterKind::Random).setup,
        a: Side {
            shooter: ShooterKind::Parity,
            placer: PlacerKind::Uniform,
        },
        b: Side {
            shooter: ShooterKind::HuntTarget,
            placer: "ed1".parse().unwrap(),
        },
        pairs: 40,
        seed: 3,
        kept: Vec::new(),
    };
    let each = Mutex::new(vec![None; 40]);
    let whole = play_match(&run, &AtomicBool::new(false), &|i, s, _| {
        each.lock().unwrap()[i as usize] = Some(s);
    })
    .unwrap();
    let each = each.into_inner().unwrap();
    assert!(each.iter().all(Option::is_some));
    // Every third pair kept (14 of them).
    let kept: Vec<Option<PairShots>> = (0..40)
        .map(|i| if i % 3 == 0 { each[i] } else { None })
        .collect();
    let played = Mutex::new(Vec::new());
    let again = play_match(
        &Match {
            kept,
            ..run.clone()
        },
        &AtomicBool::new(false),
        &|i, s, done| {
            assert_eq!(Some(s), each[i as usize], "pair {i}");
            played.lock().unwrap().push((i, done));
        },
    )
    .unwrap();
    assert_eq!(again, whole);
    let mut played = played.into_inner().unwrap();
    played.sort_unstable();
    let pairs: Vec<u64> = played.iter().map(|p| p.0).collect();
    assert_eq!(pairs, (0..40).filter(|i| i % 3 != 0).collect::<Vec<u64>>());
    let mut done: Vec<u64> = played.iter().map(|p| p.1).collect();
    done.sort_unstable();
    assert_eq!(done, (15..=40).collect::<Vec<u64>>());
    // An entry per pair, or none.
    let short = play_match(
        &Match {
            kept: vec![None; 39],
            ..run
        },
        &AtomicBool::new(false),
        &|_, _, _| {},
    );
    assert!(
        matches!(short, Err(broadside::Error::Request(_))),
        "{short:?}"
    );
}

/// Naslausky & Figueiredo's evaluation: with no sonar, the first turn fires at nothing yet, so its top-1
/// accuracy is a coin with the exact heat map's highest probability.
#[test]
fn accuracy_at_the_first_turn_is_the_top_probability() {
    use broadside::Engine;
    use broadside::heat::HeatMap;
    use broadside::play::{Accuracy, Boards, Estimator, accuracy};
    let setup = sim(5, 5, &[3, 2], Rules::Touch, ShooterKind::Random).setup;
    let run = Accuracy {
        boards: Boards::Fixed(setup.clone()),
        games: 3000,
        turns: 3,
        sonar: 0.0,
        estimator: Estimator::Exact,
        seed: 2,
        kept: Vec::new(),
    };
    let table = accuracy(&run, &AtomicBool::new(false), &|_, _, _| {}).unwrap();
    assert_eq!(table.turns.len(), 4);
    let heat = HeatMap::compute(&setup.empty().build().unwrap(), Engine::Auto).unwrap();
    let p = heat.best().1;
    let first = &table.turns[0];
    assert_eq!(first.games, 3000);
    let half = 3.29 * (p * (1.0 - p) / 3000.0).sqrt();
    assert!(
        (first.top[0] - p).abs() < half,
        "{} against {p}",
        first.top[0]
    );
    for t in &table.turns {
        assert!(t.top.iter().all(|&a| (0.0..=1.0).contains(&a)));
    }
    // The default setting runs: random maps with rocks, polyomino fleets, sonar.
    let run = Accuracy {
        boards: Boards::naslausky(),
        games: 20,
        turns: 4,
        sonar: 0.2,
        estimator: "sampled:50:weighted".parse().unwrap(),
        seed: 1,
        kept: Vec::new(),
    };
    let table = accuracy(&run, &AtomicBool::new(false), &|_, _, _| {}).unwrap();
    assert_eq!(table.turns.len(), 5);
    assert!(table.turns.iter().all(|t| t.boards > 0.0));
}

/// The evaluation cut short goes on from the games it kept: only the games it lacks are
/// played, each as in the whole run, and the table is the whole run's, to the last digit.
#[test]
fn accuracy_goes_on_from_the_games_it_kept() {
    use broadside::play::{Accuracy, Boards, GameAccuracy, accuracy};
    use std::sync::Mutex;
    for estimator in ["exact", "sampled:30"] {
        let run = Accuracy {
            boards: Boards::naslausky(),
            games: 12,
            turns: 6,
            sonar: 0.2,
            estimator: estimator.parse().unwrap(),
            seed: 4,
            kept: Vec::new(),
        };
        let each: Mutex<Vec<Option<GameAccuracy>>> = Mutex::new(vec![None; 12]);
        let whole = accuracy(&run, &AtomicBool::new(false), &|i, g, _| {
            each.lock().unwrap()[i as usize] = Some(g.clone());
        })
        .unwrap();
        let each = each.into_inner().unwrap();
        // Each game's hits are those of its turns' shares in the table: at most 1, 3, 5.
        for g in each.iter().flatten() {
            assert_eq!(g.hits.len(), g.boards.len());
            assert!(g.hits.iter().all(|h| h[0] <= 1 && h[1] <= 3 && h[2] <= 5));
        }
        // The kept games as a file holds them: through JSON and back.
        let kept: Vec<Option<GameAccuracy>> = each
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let g = g.as_ref().filter(|_| i % 2 == 1)?;
                serde_json::from_str(&serde_json::to_string(g).unwrap()).unwrap()
            })
            .collect();
        let played = Mutex::new(Vec::new());
        let again = accuracy(
            &Accuracy {
                kept,
                ..run.clone()
            },
            &AtomicBool::new(false),
            &|i, g, _| {
                assert_eq!(Some(g), each[i as usize].as_ref(), "game {i}");
                played.lock().unwrap().push(i);
            },
        )
        .unwrap();
        assert_eq!(again, whole, "{estimator}");
        let mut played = played.into_inner().unwrap();
        played.sort_unstable();
        assert_eq!(played, [0, 2, 4, 6, 8, 10]);
    }
}

/// `density:W` is the public engine's rule: a position covering `k` open hits weighs `W^k`,
/// ties go to the first cell in reading order, and a sinking is credited to the line of hits
/// through the sinking shot even when the shot is in its middle.
#[test]
fn density_weighs_hits_and_credits_a_sinking_in_the_middle() {
    use broadside::Layout;
    use broadside::play::{DENSITY_WEIGHT, Game};
    assert_eq!(
        "density".parse::<ShooterKind>().unwrap(),
        ShooterKind::Density {
            weight: DENSITY_WEIGHT,
            small: 0,
            lattice: 0,
        }
    );
    for (word, named) in [
        ("density:1", "density:weight=1"),
        ("density:50", "density"),
        ("density:7", "density:weight=7"),
        ("density:50.1", "density:hunt=1"),
        ("density:50.1.2", "density:hunt=1,lattice=2"),
        ("density:50.0.3", "density:lattice=3"),
        ("habr", "habr"),
    ] {
        let k: ShooterKind = word.parse().unwrap();
        assert_eq!(k.to_string(), named);
    }
    assert_eq!(
        ShooterKind::Density {
            weight: 50,
            small: 0,
            lattice: 0,
        }
        .to_string(),
        "density"
    );
    for bad in [
        "density:0",
        "density:-1",
        "density:x",
        "density:99999999999",
        "density:50.4",
        "density:50.1.1",
        "density:50.1.10",
        "density:50.1.2.3",
        "density:50..2",
        "habr:2",
    ] {
        assert!(bad.parse::<ShooterKind>().is_err(), "{bad}");
    }
    // A 7x1 board: the 3-ship on A1-C1, the 2-ship on E1-F1. A1 and C1 hit, then B1 sinks
    // the 3-ship: its cells are A1-C1, so the 2-ship lies within D1-G1 and E1 and F1 are
    // covered twice (E1 first). Were the sinking not credited, C1 would stay an open hit and
    // D1, next to it, would weigh 50.
    let setup = Setup {
        dims: Dims::new(7, 1),
        fleet: Fleet::straight(&[3, 2]),
        rules: Rules::Touch,
        sinking: Sinking::Announced,
        rocks: Vec::new(),
    };
    let layout = Layout::from_rows(&["<m>.<>.".to_string()], setup.dims, &setup.fleet).unwrap();
    let mut game = Game::new(setup.clone(), layout);
    for cell in [0, 2, 1] {
        game.fire(cell);
    }
    let mut rng = broadside::rng::stream(1, 0, 0);
    for word in ["density:2", "density:50"] {
        let mut shooter = word
            .parse::<ShooterKind>()
            .unwrap()
            .shooter(Default::default());
        assert_eq!(shooter.choose(&setup, game.shots(), &mut rng), 4, "{word}");
    }
    // Weights: a 6x1 board, a 2-ship on E1-F1, F1 hit. E1 is covered by the one position
    // through F1 (weight W) and one away from it; B1, C1 and D1 by two positions each.
    // density:1 hunts as if no hit were open, ties going to B1, the first in reading order;
    // from W = 2 on it finishes at E1.
    let setup = Setup {
        dims: Dims::new(6, 1),
        fleet: Fleet::straight(&[2]),
        ..setup
    };
    let layout = Layout::from_rows(&["....<>".to_string()], setup.dims, &setup.fleet).unwrap();
    let mut game = Game::new(setup.clone(), layout);
    game.fire(5);
    for (weight, cell) in [(1, 1), (2, 4), (50, 4)] {
        let mut shooter = ShooterKind::Density {
            weight,
            small: 0,
            lattice: 0,
        }
        .shooter(Default::default());
        assert_eq!(
            shooter.choose(&setup, game.shots(), &mut rng),
            cell,
            "{weight}"
        );
    }
}

/// The game of the matches below: 6x6, ships of 3, 2 and 2 that may touch, sinkings announced.
fn small_match() -> Setup {
    Setup {
        dims: Dims::new(6, 6),
        fleet: Fleet::straight(&[3, 2, 2]),
        rules: Rules::Touch,
        sinking: Sinking::Announced,
        rocks: Vec::new(),
    }
}

/// A computer that chooses its shots while the person thinks plays the same game as one that
/// chooses when asked: its shots depend on its own shots and its seed alone. Checked with the
/// pilot (whose races draw layouts from the match's random numbers) and with a random
/// shooter, the person firing in reading order: unpondered; pondered a shot ahead before every
/// other shot and the whole game ahead once; and pondered on another thread the whole game
/// ahead while the person fires.
#[test]
fn a_pondered_match_is_the_match_played_without_pondering() {
    let setup = small_match();
    #[derive(Clone, Copy, PartialEq)]
    enum Ponder {
        Never,
        Here,
        Beside,
    }
    for shooter in ["pilot:64", "random"] {
        let shooter: ShooterKind = shooter.parse().unwrap();
        let play = |ponder: Ponder| {
            let uniform = PlacerKind::Uniform;
            let mut v = Versus::new(&setup, &uniform, shooter, &uniform, 21).unwrap();
            let beside = (ponder == Ponder::Beside).then(|| {
                let ponderer = v.ponderer();
                std::thread::spawn(move || ponderer.ponder(usize::MAX))
            });
            let mut most_ahead = 0;
            for cell in 0..setup.dims.cells() {
                if v.winner().is_some() {
                    break;
                }
                if ponder == Ponder::Here && cell < 7 && cell % 2 == 0 {
                    let before = v.pondered();
                    v.ponder(before + 1);
                    assert_eq!(v.pondered(), before + 1);
                }
                if ponder == Ponder::Here && cell == 7 {
                    // The rest of the computer's game.
                    v.ponder(usize::MAX);
                }
                most_ahead = most_ahead.max(v.pondered());
                v.fire(cell).unwrap();
                v.reply();
            }
            if let Some(thread) = beside {
                thread.join().unwrap();
            }
            assert!(v.winner().is_some());
            (v.record(true), most_ahead)
        };
        let (plain, none) = play(Ponder::Never);
        assert_eq!(none, 0);
        let (here, ahead) = play(Ponder::Here);
        assert!(ahead >= 5, "{ahead} shots chosen ahead at most");
        assert_eq!(plain, here, "{shooter}, pondered here");
        assert_eq!(plain, play(Ponder::Beside).0, "{shooter}, pondered beside");
    }
}

/// Neither side learns from the other's shots, so a person who fires ahead of the computer's
/// answers plays the game played in turn: the same winner and the same record, the person's
/// shots after the computer's last dropped as void. Checked over seeds where each side wins,
/// with the person firing the whole game ahead, and ahead by up to three shots.
#[test]
fn firing_ahead_of_the_computer_settles_the_game_played_in_turn() {
    let setup = small_match();
    let uniform = PlacerKind::Uniform;
    let shooter: ShooterKind = "random".parse().unwrap();
    let (mut wins, mut voided) = ([0; 2], 0);
    for seed in 0..30u64 {
        // The person's shots: every cell once, in an order of the seed's.
        let order: Vec<usize> = (0..36).map(|k| (seed as usize * 7 + 5 * k) % 36).collect();
        let in_turn = {
            let mut v = Versus::new(&setup, &uniform, shooter, &uniform, seed).unwrap();
            for &cell in &order {
                if v.winner().is_some() {
                    break;
                }
                v.fire(cell).unwrap();
                assert_eq!(v.owed(), usize::from(v.winner().is_none()));
                v.reply();
            }
            assert_eq!(v.voided(), 0);
            (v.winner().unwrap(), v.record(true))
        };
        for ahead in [usize::MAX, 3] {
            let mut v = Versus::new(&setup, &uniform, shooter, &uniform, seed).unwrap();
            let mut fired = 0;
            for &cell in &order {
                if v.fire(cell).is_err() {
                    break;
                }
                fired += 1;
                if v.owed() >= ahead {
                    while v.reply().is_some() {}
                }
            }
            while v.reply().is_some() {}
            assert_eq!(v.owed(), 0);
            let winner = v.winner().expect("settled once every shot is answered");
            assert_eq!(
                (winner, v.record(true)),
                in_turn,
                "seed {seed}, ahead {ahead}"
            );
            assert_eq!(v.voided(), fired - v.theirs().shots().len());
            assert!(v.fire(order[35]).is_err(), "no shot after the end");
            if ahead == usize::MAX {
                voided += v.voided();
                wins[usize::from(winner == Winner::Computer)] += 1;
            }
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
    assert!(voided > 0);
}

/// A match's time limit bounds each of the computer's moves, not the life of what it keeps
/// between them: the pilot keeps its sampler from shot to shot, and a person who thinks longer
/// than the limit must not leave the rest of the match to the pilot's base. The same match
/// with a one-second limit and a pause past it matches the match without a limit.
#[test]
fn a_pause_past_the_time_limit_leaves_the_computer_as_strong() {
    let setup = Setup::standard();
    let shooter: ShooterKind = "pilot:100".parse().unwrap();
    let uniform = PlacerKind::Uniform;
    let play = |limit: Option<std::time::Duration>| {
        let mut v = Versus::within(&setup, &uniform, shooter, &uniform, 5, limit, None).unwrap();
        for cell in 0..setup.dims.cells() {
            if v.winner().is_some() {
                break;
            }
            // A pause once the pilot's races have begun (after the computer's first hit).
            if limit.is_some() && cell == 30 {
                assert!(v.yours().hits() > 0);
                std::thread::sleep(std::time::Duration::from_millis(1100));
            }
            v.fire(cell).unwrap();
            v.reply();
        }
        v.record(true)
    };
    let without = play(None);
    let paused = play(Some(std::time::Duration::from_secs(1)));
    assert_eq!(without, paused);
}
