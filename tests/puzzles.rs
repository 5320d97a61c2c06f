//! Every file in `puzzles/` is read, solved and checked against its recorded solution.
//! Puzzles (files with row counts) must have exactly one solution, found by both engines;
//! game states must admit their recorded hidden layout, and both engines must agree on their
//! layout count.

mod common;

use broadside::{CountOptions, Engine, Enumerator, SatEngine, format, validate};

#[test]
fn bundled_puzzles_solve_to_their_recorded_solutions() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
    let files = common::text_files(root);
    assert!(files.len() >= 30, "puzzles/ holds {} files", files.len());
    let (mut puzzles, mut games) = (0, 0);
    for f in files {
        let name = f.display().to_string();
        let spec = format::read(&name, &std::fs::read_to_string(&f).unwrap())
            .unwrap()
            .remove(0);
        let sizes = (spec.dims.width, spec.dims.height);
        assert!(
            sizes.0 >= 5 && sizes.0 <= 15 && sizes.1 >= 4 && sizes.1 <= 15,
            "{name}"
        );
        let recorded = spec
            .solution
            .clone()
            .unwrap_or_else(|| panic!("{name} has no solution"));
        assert!(
            validate::check(&spec, &recorded).is_ok(),
            "{name}: {:?}",
            validate::check(&spec, &recorded)
        );
        let p = spec.clone().build().unwrap();
        if spec.rows.is_empty() {
            games += 1;
            let e = Enumerator::new(&p)
                .count(&CountOptions {
                    parallel: true,
                    ..Default::default()
                })
                .unwrap();
            assert!(e.complete && e.count >= 1, "{name}");
            if e.count <= 5000 {
                let s = SatEngine::new(&p).count(&CountOptions::default()).unwrap();
                assert_eq!(s.count, e.count, "{name}");
                assert!(
                    Enumerator::new(&p).solutions().any(|l| l == recorded),
                    "{name}"
                );
            }
        } else {
            puzzles += 1;
            assert!(Enumerator::new(&p).is_unique(), "{name}");
            assert_eq!(Engine::Enum.solve(&p).unwrap(), recorded, "{name}");
            assert_eq!(Engine::Sat.solve(&p).unwrap(), recorded, "{name}");
        }
    }
    assert!(
        puzzles >= 30 && games >= 4,
        "{puzzles} puzzles, {games} game states"
    );
}
