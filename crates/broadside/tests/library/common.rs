//! Helpers shared by the integration tests: random instances with planted layouts, and a
//! naive layout counter that shares no code with the engines.
#![allow(
    dead_code,
    reason = "helpers for the tests that need them, some unused in a run of one module"
)]

use broadside::{Clue, Dims, Fleet, Layout, ProblemSpec, Rules, Segment, Shape, Ship};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The polyominoes random fleets draw from (besides straight ships).
pub fn polyominoes() -> Vec<(String, Shape)> {
    ["#./##", "###/.#.", "##/##", "#./.#", "##./.##"]
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("P{i}"), Shape::parse_art(a).unwrap()))
        .collect()
}

/// A random fleet of 1 to 3 ships, with polyominoes when `poly`.
pub fn random_fleet(rng: &mut StdRng, poly: bool) -> Fleet {
    let n = rng.random_range(1..=3);
    let polys = polyominoes();
    let entries = (0..n).map(|_| {
        if poly && rng.random_range(0..3) == 0 {
            let (name, s) = polys[rng.random_range(0..polys.len())].clone();
            (s, 1, name)
        } else {
            let l = rng.random_range(1..=4);
            (Shape::straight(l), 1, l.to_string())
        }
    });
    Fleet::new(entries.collect::<Vec<_>>())
}

/// Every placement (as sorted cells) of `shape` on the board, computed directly.
pub fn naive_placements(d: Dims, shape: &Shape) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for o in shape.orientations() {
        let (h, w) = o.extent();
        if h > d.height || w > d.width {
            continue;
        }
        for r in 0..=d.height - h {
            for c in 0..=d.width - w {
                let mut cells: Vec<usize> = o
                    .cells()
                    .iter()
                    .map(|&(a, b)| (r + a) * d.width + c + b)
                    .collect();
                cells.sort();
                out.push(cells);
            }
        }
    }
    out
}

fn touches(d: Dims, a: &[usize], b: &[usize]) -> bool {
    a.iter().any(|&x| {
        b.iter().any(|&y| {
            let (r1, c1) = ((x / d.width) as isize, (x % d.width) as isize);
            let (r2, c2) = ((y / d.width) as isize, (y % d.width) as isize);
            (r1 - r2).abs() <= 1 && (c1 - c2).abs() <= 1
        })
    })
}

/// A uniformly drawn ship sequence, placed one at a time (retrying on failure): a layout
/// of the fleet on an empty board, or `None` if the attempts run out.
pub fn random_layout(rng: &mut StdRng, d: Dims, fleet: &Fleet, rules: Rules) -> Option<Layout> {
    'attempt: for _ in 0..200 {
        let mut ships: Vec<Ship> = Vec::new();
        for (ty, t) in fleet.types().iter().enumerate() {
            for _ in 0..t.count {
                let ps = naive_placements(d, &t.shape);
                let ok: Vec<&Vec<usize>> = ps
                    .iter()
                    .filter(|p| {
                        ships.iter().all(|s| match rules {
                            Rules::Touch => p.iter().all(|c| !s.cells.contains(c)),
                            Rules::NoTouch => !touches(d, p, &s.cells),
                        })
                    })
                    .collect();
                if ok.is_empty() {
                    continue 'attempt;
                }
                let p = ok[rng.random_range(0..ok.len())].clone();
                ships.push(Ship { ty, cells: p });
            }
        }
        return Some(Layout { ships });
    }
    None
}

/// The clue a cell of a planted layout shows, of a random kind.
fn clue_for(rng: &mut StdRng, d: Dims, layout: &Layout, cell: usize) -> Clue {
    let Some(ship) = layout.ships.iter().find(|s| s.cells.contains(&cell)) else {
        return Clue::Water;
    };
    if rng.random_range(0..2) == 0 {
        return Clue::Ship;
    }
    let (r, c) = ((cell / d.width) as isize, (cell % d.width) as isize);
    let has = |dr: isize, dc: isize| {
        let (r2, c2) = (r + dr, c + dc);
        r2 >= 0
            && c2 >= 0
            && (r2 as usize) < d.height
            && (c2 as usize) < d.width
            && ship
                .cells
                .contains(&((r2 as usize) * d.width + c2 as usize))
    };
    match Segment::from_neighbours(has(-1, 0), has(1, 0), has(0, -1), has(0, 1)) {
        Some(s) => Clue::Segment(s),
        None => Clue::Ship,
    }
}

/// A random small instance with a planted layout: board up to 6x6, random fleet, rules,
/// some clues and maybe row/column counts, all true of the planted layout.
pub fn planted(seed: u64) -> Option<(ProblemSpec, Layout)> {
    planted_with(seed, true, true, 2)
}

/// [`planted`] on boards from 1 to 6 cells on a side, one- and two-wide boards included, with
/// polyominoes when `poly` and row/column counts when `counts`.
pub fn planted_narrow(seed: u64, poly: bool, counts: bool) -> Option<(ProblemSpec, Layout)> {
    planted_with(seed, poly, counts, 1)
}

/// A game-like planted instance: straight ships only, no row or column counts, more clues
/// (water, hits, segments and rocks), as the DP takes them.
pub fn planted_game(seed: u64) -> Option<(ProblemSpec, Layout)> {
    planted_with(seed, false, false, 2)
}

fn planted_with(
    seed: u64,
    poly: bool,
    counts: bool,
    least: usize,
) -> Option<(ProblemSpec, Layout)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let d = Dims::new(rng.random_range(least..=6), rng.random_range(least..=6));
    let fleet = random_fleet(&mut rng, poly);
    let rules = if rng.random_range(0..2) == 0 {
        Rules::Touch
    } else {
        Rules::NoTouch
    };
    let layout = random_layout(&mut rng, d, &fleet, rules)?;
    let mut spec = ProblemSpec::empty(d, fleet, rules);
    let occupied: Vec<bool> = (0..d.cells())
        .map(|c| layout.cells().any(|x| x == c))
        .collect();
    if counts && rng.random_range(0..2) == 0 {
        spec.rows = (0..d.height)
            .map(|r| {
                let n = (0..d.width).filter(|&c| occupied[r * d.width + c]).count();
                (rng.random_range(0..4) != 0).then_some(n)
            })
            .collect();
        spec.cols = (0..d.width)
            .map(|c| {
                let n = (0..d.height).filter(|&r| occupied[r * d.width + c]).count();
                (rng.random_range(0..4) != 0).then_some(n)
            })
            .collect();
    }
    let nclues = rng.random_range(0..=if counts { 3 } else { 6 });
    if nclues > 0 {
        spec.clues = vec![None; d.cells()];
        for _ in 0..nclues {
            let cell = rng.random_range(0..d.cells());
            let mut clue = clue_for(&mut rng, d, &layout, cell);
            if clue == Clue::Water && !counts && rng.random_range(0..3) == 0 {
                clue = Clue::Blocked;
            }
            spec.clues[cell] = Some(clue);
        }
    }
    Some((spec, layout))
}

/// [`naive_count`] when the combinations to try are few enough (20,000), else `None`.
pub fn naive_count_if_small(spec: &ProblemSpec) -> Option<u128> {
    let combos: usize = spec
        .fleet
        .types()
        .iter()
        .map(|t| {
            naive_placements(spec.dims, &t.shape)
                .len()
                .pow(t.count as u32)
        })
        .product();
    (combos <= 20_000).then(|| naive_count(spec))
}

/// Counts layouts by trying every combination of naive placements, with every constraint
/// checked on the finished layout. Exponential: for tiny instances only.
pub fn naive_count(spec: &ProblemSpec) -> u128 {
    naive_counts(spec).0
}

/// [`naive_count`] with, per cell, the layouts with a ship there.
pub fn naive_counts(spec: &ProblemSpec) -> (u128, Vec<u128>) {
    let d = spec.dims;
    let mut ships: Vec<(usize, Vec<usize>)> = Vec::new();
    let types: Vec<(usize, Vec<Vec<usize>>)> = spec
        .fleet
        .types()
        .iter()
        .map(|t| (t.count, naive_placements(d, &t.shape)))
        .collect();
    fn rec(
        spec: &ProblemSpec,
        types: &[(usize, Vec<Vec<usize>>)],
        ty: usize,
        from: usize,
        left: usize,
        ships: &mut Vec<(usize, Vec<usize>)>,
        per_cell: &mut [u128],
    ) -> u128 {
        if ty == types.len() {
            let layout = Layout {
                ships: ships
                    .iter()
                    .map(|(t, c)| Ship {
                        ty: *t,
                        cells: c.clone(),
                    })
                    .collect(),
            };
            let ok = broadside::check::layout(spec, &layout).is_ok();
            if ok {
                for c in layout.cells() {
                    per_cell[c] += 1;
                }
            }
            return ok as u128;
        }
        if left == 0 {
            let next_left = types.get(ty + 1).map_or(0, |t| t.0);
            return rec(spec, types, ty + 1, 0, next_left, ships, per_cell);
        }
        let mut n = 0;
        for i in from..types[ty].1.len() {
            ships.push((ty, types[ty].1[i].clone()));
            n += rec(spec, types, ty, i + 1, left - 1, ships, per_cell);
            ships.pop();
        }
        n
    }
    let first = types.first().map_or(0, |t| t.0);
    let mut per_cell = vec![0; d.cells()];
    let n = rec(spec, &types, 0, 0, first, &mut ships, &mut per_cell);
    (n, per_cell)
}

/// The `.txt` files under `dir`, recursively, sorted.
pub fn text_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "txt") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A random game record around a planted layout: a random sinking rule, then shots at random
/// cells in random order with their true results (sinkings reported by the rule, some misses
/// as sonar readings when `sonar`).
pub fn planted_record(seed: u64, sonar: bool) -> Option<(ProblemSpec, Layout)> {
    record_around(seed, sonar, planted_game(seed)?)
}

/// Shots with their true results around a planted layout, as [`planted_record`] fires them.
pub fn record_around(
    seed: u64,
    sonar: bool,
    (mut spec, layout): (ProblemSpec, Layout),
) -> Option<(ProblemSpec, Layout)> {
    use broadside::{Observations, Shot, ShotResult, Sinking};
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    spec.clues.clear();
    let d = spec.dims;
    let sinking = [Sinking::None, Sinking::Announced, Sinking::Revealed][rng.random_range(0..3)];
    let mut cells: Vec<usize> = (0..d.cells()).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.random_range(0..=i));
    }
    let nshots = rng.random_range(0..=d.cells().min(10));
    let mut hit = vec![false; d.cells()];
    let mut shots = Vec::new();
    for &cell in &cells[..nshots] {
        let owner = layout.ships.iter().find(|s| s.cells.contains(&cell));
        let result = match owner {
            Some(ship) => {
                hit[cell] = true;
                if sinking != Sinking::None && ship.cells.iter().all(|&c| hit[c]) {
                    let cells = if sinking == Sinking::Revealed {
                        ship.cells.clone()
                    } else {
                        Vec::new()
                    };
                    ShotResult::Sunk { ty: ship.ty, cells }
                } else {
                    ShotResult::Hit
                }
            }
            None if sonar && rng.random_range(0..3) == 0 => {
                let (r, c) = (cell / d.width, cell % d.width);
                let distance = layout
                    .cells()
                    .map(|x| (x / d.width).abs_diff(r) + (x % d.width).abs_diff(c))
                    .min()
                    .unwrap();
                ShotResult::Sonar { distance }
            }
            None => ShotResult::Miss,
        };
        shots.push(Shot { cell, result });
    }
    spec.observations = Observations { sinking, shots };
    Some((spec, layout))
}

/// The JSON-lines files of `puzzles/external` (the real third-party puzzles), sorted.
pub fn external_puzzle_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("puzzles/external");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "the external puzzles are in puzzles/external"
    );
    files
}

/// Asserts that a puzzle's clues are minimal: without any one of them, a second solution
/// appears (decided by the enumerator).
pub fn assert_minimal(spec: &ProblemSpec) {
    for cell in (0..spec.dims.cells()).filter(|&c| spec.clue(c).is_some()) {
        let mut fewer = spec.clone();
        fewer.clues[cell] = None;
        let p = fewer.build().unwrap();
        assert!(
            !broadside::Enumerator::new(&p).is_unique(),
            "{} {:?}: the clue at {cell} is not needed",
            spec.dims,
            spec.meta.name
        );
    }
}
