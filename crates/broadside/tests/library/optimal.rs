//! Optimal play on small boards against brute force: every order of shots tried, reports
//! taken from real games (`Game::fire`) against every layout, no memory of states; greedy's
//! exact expectation against the same search driven by the engines' heat maps, and so is the
//! rollout of greedy's.

use std::collections::HashMap;

use broadside::Ship;
use broadside::heat::HeatMap;
use broadside::play::{Game, Optimal, PlacerKind, Setup, Simulation, simulate};
use broadside::{Dims, Engine, Fleet, Layout, Problem, Rules, ShotResult, Sinking};

fn setup(w: usize, h: usize, fleet: &[usize], rules: Rules, sinking: Sinking) -> Setup {
    Setup {
        dims: Dims::new(w, h),
        fleet: Fleet::straight(fleet),
        rules,
        sinking,
        rocks: Vec::new(),
    }
}

/// Every layout, by choosing placements type by type (the solver under test lists them with
/// the enumerator).
fn layouts(s: &Setup) -> Vec<Layout> {
    fn go(
        p: &Problem,
        ty: usize,
        from: usize,
        left: usize,
        ships: &mut Vec<Ship>,
        out: &mut Vec<Layout>,
    ) {
        let types = p.fleet().types();
        if ty == types.len() {
            out.push(Layout {
                ships: ships.clone(),
            });
            return;
        }
        if left == 0 {
            let next = types.get(ty + 1).map_or(0, |t| t.count);
            return go(p, ty + 1, 0, next, ships, out);
        }
        let plcs = p.placements(ty);
        for (i, q) in plcs.iter().enumerate().skip(from) {
            let clash = ships.iter().any(|s| {
                s.cells.iter().any(|c| {
                    q.cells.contains(c) || (p.rules() == Rules::NoTouch && q.halo.contains(c))
                })
            });
            if !clash {
                ships.push(Ship {
                    ty,
                    cells: q.cells.clone(),
                });
                go(p, ty, i + 1, left - 1, ships, out);
                ships.pop();
            }
        }
    }
    let p = s.empty().build().unwrap();
    let mut out = Vec::new();
    let first = p.fleet().types()[0].count;
    go(&p, 0, 0, first, &mut Vec::new(), &mut out);
    out
}

/// The games consistent with the shots so far, split by what firing at `cell` reports and
/// whether that ends the game; the games that end are dropped.
fn split(games: &[Game], cell: usize) -> Vec<Vec<Game>> {
    let mut groups: Vec<(ShotResult, Vec<Game>)> = Vec::new();
    for g in games {
        let mut g = g.clone();
        let r = g.fire(cell);
        if g.is_over() {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| *k == r) {
            Some((_, v)) => v.push(g),
            None => groups.push((r, vec![g])),
        }
    }
    groups.into_iter().map(|(_, v)| v).collect()
}

/// The least expected shots to end the game, over every open cell, by exhaustive search.
fn brute(games: &[Game], total: usize) -> f64 {
    let cells = games[0].setup().dims.cells();
    let mut best = f64::INFINITY;
    for cell in (0..cells).filter(|&c| !games[0].fired(c)) {
        let v = 1.0
            + split(games, cell)
                .iter()
                .map(|g| g.len() as f64 / total as f64 * brute(g, g.len()))
                .sum::<f64>();
        best = best.min(v);
    }
    best
}

/// Greedy's expected shots: at each state, the cells of highest probability by the
/// enumerator's heat map of the game record, ties split evenly.
fn brute_greedy(games: &[Game]) -> f64 {
    let heat = HeatMap::compute(&games[0].record().build().unwrap(), Engine::Enum).unwrap();
    assert_eq!(heat.layouts, games.len() as u128, "the heat map's layouts");
    let ties = heat.best().0;
    let mut sum = 0.0;
    for &cell in &ties {
        sum += 1.0
            + split(games, cell)
                .iter()
                .map(|g| g.len() as f64 / games.len() as f64 * brute_greedy(g))
                .sum::<f64>();
    }
    sum / ties.len() as f64
}

/// The state's cells worth a shot in greedy's order (most layouts first, ties by the lowest
/// cell), by the enumerator's heat map.
fn ranked(games: &[Game]) -> Vec<usize> {
    let heat = HeatMap::compute(&games[0].record().build().unwrap(), Engine::Enum).unwrap();
    let mut cells: Vec<usize> = (0..heat.per_cell.len())
        .filter(|&c| heat.per_cell[c] > 0 && !games[0].fired(c))
        .collect();
    cells.sort_by_key(|&c| (std::cmp::Reverse(heat.per_cell[c]), c));
    cells
}

/// Values already found, by the shots that lead to the state (cell and report, in cell order).
type Memo = HashMap<Vec<(usize, String)>, f64>;

fn state(games: &[Game]) -> Vec<(usize, String)> {
    let mut shots: Vec<(usize, String)> = games[0]
        .shots()
        .iter()
        .map(|s| (s.cell, format!("{:?}", s.result)))
        .collect();
    shots.sort();
    shots
}

/// One plus the expected `value` of the states a shot at `cell` leads to.
fn after(
    games: &[Game],
    cell: usize,
    memo: &mut Memo,
    value: fn(&[Game], &mut Memo) -> f64,
) -> f64 {
    1.0 + split(games, cell)
        .iter()
        .map(|g| g.len() as f64 / games.len() as f64 * value(g, memo))
        .sum::<f64>()
}

/// The expected shots of greedy with ties to the lowest cell.
fn brute_base(games: &[Game], memo: &mut Memo) -> f64 {
    let key = state(games);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = after(games, ranked(games)[0], memo, brute_base);
    memo.insert(key, v);
    v
}

/// The expected shots of the rollout of that greedy: at each state, the cell after which it
/// needs the fewest expected shots (greedy's own cell unless another is strictly better).
fn brute_rollout(games: &[Game], base: &mut Memo) -> f64 {
    let cells = ranked(games);
    let mut best = (after(games, cells[0], base, brute_base), cells[0]);
    for &c in &cells[1..] {
        let v = after(games, c, base, brute_base);
        if v < best.0 - 1e-9 {
            best = (v, c);
        }
    }
    after(games, best.1, base, brute_rollout)
}

#[test]
fn optimal_and_greedy_match_brute_force_on_tiny_boards() {
    against_brute_force(&[
        setup(3, 3, &[2], Rules::Touch, Sinking::Announced),
        setup(4, 2, &[2, 2], Rules::Touch, Sinking::None),
        setup(4, 2, &[2, 1], Rules::NoTouch, Sinking::Revealed),
    ]);
}

/// Boards whose brute force takes a minute in release (`.ci/run` runs it).
#[test]
#[ignore]
fn optimal_and_greedy_match_brute_force_on_bigger_tiny_boards() {
    against_brute_force(&[
        setup(3, 3, &[2, 1], Rules::Touch, Sinking::None),
        setup(3, 3, &[3, 2], Rules::Touch, Sinking::Announced),
        setup(5, 2, &[2, 2], Rules::NoTouch, Sinking::Announced),
    ]);
}

fn against_brute_force(cases: &[Setup]) {
    for s in cases {
        let games: Vec<Game> = layouts(s)
            .into_iter()
            .map(|l| Game::new(s.clone(), l))
            .collect();
        let exact = Optimal::new(s, 100_000, 1_000_000)
            .unwrap()
            .expected()
            .unwrap();
        let what = format!("{} {} {}", s.dims, s.fleet.describe(), s.sinking);
        assert_eq!(exact.layouts, games.len(), "{what}: layouts");
        let optimal = brute(&games, games.len());
        assert!(
            (exact.optimal - optimal).abs() < 1e-9,
            "{what}: optimal {} against brute force {optimal}",
            exact.optimal
        );
        let greedy = brute_greedy(&games);
        assert!(
            (exact.greedy - greedy).abs() < 1e-9,
            "{what}: greedy {} against brute force {greedy}",
            exact.greedy
        );
        let mut base = Memo::new();
        let rollout = brute_rollout(&games, &mut base);
        assert!(
            (exact.rollout - rollout).abs() < 1e-9,
            "{what}: rollout {} against brute force {rollout}",
            exact.rollout
        );
        // Policy improvement: never worse than the greedy it improves on, never better than
        // the optimum.
        assert!(
            exact.rollout <= brute_base(&games, &mut base) + 1e-12,
            "{what}"
        );
        assert!(exact.optimal <= exact.rollout + 1e-12, "{what}");
        assert!(exact.optimal <= exact.greedy + 1e-12, "{what}");
        assert!(exact.optimal >= s.fleet.cell_count() as f64, "{what}");
    }
}

/// With every layout in reach from the first shot, `endgame:N` plays optimally and
/// `rollout:N` plays the rollout of greedy, so their means (and greedy's) are the solver's
/// exact expectations; the rollout needs fewer shots than greedy.
/// Each game solves its own endgame, so this takes a minute in release (`.ci/run` runs it).
#[test]
#[ignore]
fn endgame_and_rollout_play_to_their_exact_expectations() {
    let setup = setup(4, 3, &[3, 2], Rules::Touch, Sinking::Announced);
    let exact = Optimal::new(&setup, 10_000, 1_000_000)
        .unwrap()
        .expected()
        .unwrap();
    assert!(exact.rollout < exact.greedy - 0.1, "{exact:?}");
    for (word, want, games) in [
        ("endgame:1000", exact.optimal, 1500),
        ("rollout:1000", exact.rollout, 4000),
        ("greedy", exact.greedy, 4000),
    ] {
        let s = Simulation {
            setup: setup.clone(),
            shooter: word.parse().unwrap(),
            placer: PlacerKind::Uniform,
            games,
            first: 0,
            seed: 11,
            book: None,
        };
        let (summary, _) = simulate(&s, &|_| {}).unwrap();
        // A 99.9% interval, so that a fixed seed fails by chance one time in a thousand.
        let half = 3.29 * summary.sd / (summary.games as f64).sqrt();
        assert!(
            (summary.mean - want).abs() <= half,
            "{word}: mean {} against {want} (± {half})",
            summary.mean
        );
    }
}

/// The estimate of the hunt's belief states, against the states the search solves: near
/// them where the fleet is one ship (its search is nearly all hunt), below them where the
/// hits come soon, and astronomical where the hunt cannot be searched.
#[test]
#[ignore = "solves 5x5 with {3}: seconds in release"]
fn the_hunt_estimate_follows_the_states_solved() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let mut estimate = |w, h, fleet: &[usize]| {
        let s = setup(w, h, fleet, Rules::Touch, Sinking::Announced);
        let mut o = Optimal::new(&s, 1_000_000, 5_000_000).unwrap();
        let e = o.hunt_states(256, &mut rng);
        let solved = o.expected().unwrap().states as f64;
        (e, solved)
    };
    for (w, h, fleet) in [(4, 4, vec![2]), (4, 4, vec![3]), (5, 5, vec![3])] {
        let (e, solved) = estimate(w, h, &fleet);
        let ratio = e / solved;
        assert!(
            (0.2..5.0).contains(&ratio),
            "{w}x{h} {fleet:?}: {e} against {solved}"
        );
    }
    for (w, h, fleet) in [(4, 4, vec![2, 2]), (3, 4, vec![2, 1]), (4, 4, vec![3, 2])] {
        let (e, solved) = estimate(w, h, &fleet);
        assert!(e < solved, "{w}x{h} {fleet:?}: {e} against {solved}");
    }
    let s = setup(11, 11, &[2], Rules::Touch, Sinking::Announced);
    let o = Optimal::new(&s, 1_000_000, 5_000_000).unwrap();
    assert!(o.hunt_states(64, &mut rng) > 1e30);
}
