//! Optimal play on small boards against brute force: every order of shots tried, reports
//! taken from real games (`Game::fire`) against every layout, no memory of states; greedy's
//! exact expectation against the same search driven by the engines' heat maps.

use broadside::heat::HeatMap;
use broadside::layout::Ship;
use broadside::play::{Game, Optimal, Setup};
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
        assert!(exact.optimal <= exact.greedy + 1e-12, "{what}");
        assert!(exact.optimal >= s.fleet.cell_count() as f64, "{what}");
    }
}
