//! The property suite: every engine and an independent brute force agree on random instances,
//! degenerate ones included: boards one cell wide or tall, boards the fleet fills, every
//! sinking rule, sonar, polyominoes, rocks, row and column counts; on counts, on per-cell
//! counts, and under count limits.
//!
//! The brute force tries every combination of placements and accepts a layout only through the
//! independent validator, which reads the raw problem and shot record. A plain `cargo test`
//! runs 300 instances; `.ci/run` runs the release target with 4,000:
//!
//! ```text
//! cargo test --release -p broadside --test library properties::
//! BROADSIDE_PROPERTY_CASES=100000 cargo test --release -p broadside --test library properties::   # a long run
//! ```

use crate::common;

use broadside::{
    CountOptions, Dims, DpEngine, Engine, Fleet, ProblemSpec, Rules, SatEngine, Shape,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random instance of one of the kinds above; `None` when the draw found no layout to plant.
fn instance(seed: u64) -> Option<ProblemSpec> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x9e37_79b9);
    Some(match seed % 4 {
        // A puzzle: polyominoes, counts, clues, rocks.
        0 => common::planted_narrow(seed, true, true)?.0,
        // A game record: straight ships, shots under a random sinking rule, some sonar.
        1 => common::record_around(seed, true, common::planted_narrow(seed, false, false)?)?.0,
        // A board the fleet fills exactly: one layout, or none under no-touch.
        2 => {
            let d = Dims::new(rng.random_range(1..=3), rng.random_range(1..=3));
            let fleet = if rng.random_range(0..2) == 0 {
                Fleet::straight(&vec![1; d.cells()])
            } else if d.height == 1 || d.width == 1 {
                Fleet::straight(&[d.cells()])
            } else {
                let art = vec!["#".repeat(d.width); d.height].join("/");
                Fleet::new([(Shape::parse_art(&art).unwrap(), 1, "block".to_string())])
            };
            let rules = [Rules::Touch, Rules::NoTouch][rng.random_range(0..2)];
            ProblemSpec::empty(d, fleet, rules)
        }
        // An open narrow board: nothing but the fleet.
        _ => {
            let (spec, _) = common::planted_narrow(seed, seed.is_multiple_of(3), false)?;
            ProblemSpec::empty(spec.dims, spec.fleet, spec.rules)
        }
    })
}

/// Checks one instance; returns whether it was small enough for the brute force.
fn check(seed: u64) -> Result<bool, String> {
    let Some(spec) = instance(seed) else {
        return Ok(false);
    };
    let Some(naive) = common::naive_count_if_small(&spec) else {
        return Ok(false);
    };
    let (n, per_cell) = common::naive_counts(&spec);
    assert_eq!(n, naive);
    let what = |e: &str| {
        format!(
            "seed {seed}, {e}: {}",
            broadside::format::text::print(&spec)
        )
    };
    let Ok(p) = spec.clone().build() else {
        // A record the readers would refuse: nothing to count.
        return Ok(true);
    };
    let all = CountOptions {
        per_cell: true,
        ..Default::default()
    };
    let mut engines = vec![Engine::Enum, Engine::Sat, Engine::Auto];
    if DpEngine::supports(&p).is_ok() {
        engines.push(Engine::Dp);
    }
    for &engine in &engines {
        let r = engine.count(&p, &all).map_err(|e| what(&e.to_string()))?;
        if r.count != n || r.per_cell.as_deref() != Some(&per_cell[..]) {
            return Err(what(&format!(
                "{engine:?} counts {} {:?}, brute force {n} {per_cell:?}",
                r.count, r.per_cell
            )));
        }
    }
    // Under a limit: the count is cut to it, and the per-cell counts are those of the layouts
    // counted.
    let ship_cells = spec.fleet.cell_count() as u128;
    for limit in [1, 2] {
        for engine in [Engine::Enum, Engine::Sat] {
            let r = engine
                .count(
                    &p,
                    &CountOptions {
                        limit: Some(limit),
                        per_cell: true,
                        ..Default::default()
                    },
                )
                .map_err(|e| what(&e.to_string()))?;
            let pc = r.per_cell.unwrap_or_default();
            if r.count != n.min(limit)
                || pc.iter().sum::<u128>() != r.count * ship_cells
                || pc.iter().zip(&per_cell).any(|(a, b)| a > b)
            {
                return Err(what(&format!(
                    "{engine:?} under limit {limit}: {} {pc:?}",
                    r.count
                )));
            }
        }
    }
    // Every solution the SAT engine finds passes the validator.
    if n > 0 {
        let l = SatEngine::new(&p)
            .solve()
            .ok_or_else(|| what("SAT found none"))?;
        broadside::check::layout(&spec, &l).map_err(|e| what(&e.join("; ")))?;
    }
    Ok(true)
}

#[test]
fn engines_and_brute_force_agree_on_random_and_degenerate_instances() {
    let default = if cfg!(debug_assertions) { 300 } else { 4_000 };
    let cases: u64 = std::env::var("BROADSIDE_PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    let mut checked = 0;
    let mut failures = Vec::new();
    for seed in 0..cases {
        match check(seed) {
            Ok(small) => checked += small as u64,
            Err(e) => failures.push(e),
        }
        if failures.len() >= 3 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        checked * 2 >= cases,
        "only {checked} of {cases} instances were checked"
    );
    eprintln!("{checked} of {cases} instances checked against brute force");
}
