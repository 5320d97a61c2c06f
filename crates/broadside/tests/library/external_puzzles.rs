//! The 374 third-party puzzles in `puzzles/external`: each is solved, proved to
//! have exactly one solution by both engines, re-checked by the independent validator and
//! compared with the recorded solution. Skipped, saying so, where the collection is absent.

use crate::common;

use broadside::{Engine, Enumerator, SatEngine, check, format};

#[test]
fn every_external_puzzle_is_unique_and_matches() {
    let files = common::external_puzzle_files();
    let mut total = 0;
    for file in files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        for spec in format::read(&name, &text).unwrap() {
            let id = spec.meta.name.clone().unwrap();
            let recorded = spec.solution.clone().expect("every record has a solution");
            assert!(
                check::layout(&spec, &recorded).is_ok(),
                "{id}: recorded solution invalid"
            );
            let p = spec.clone().build().unwrap();
            assert!(p.conflicts().is_empty(), "{id}: {:?}", p.conflicts());
            let e = Enumerator::new(&p);
            assert!(
                e.is_unique(),
                "{id}: enumerator does not find exactly one solution"
            );
            let found = e.solve().unwrap();
            assert!(check::layout(&spec, &found).is_ok(), "{id}");
            assert_eq!(found, recorded, "{id}: enumerator");
            let s = SatEngine::new(&p);
            let r = s
                .count(&broadside::CountOptions {
                    limit: Some(2),
                    ..Default::default()
                })
                .unwrap();
            assert_eq!((r.count, r.complete), (1, true), "{id}: sat");
            assert_eq!(Engine::Sat.solve(&p).unwrap(), recorded, "{id}: sat");
            total += 1;
        }
    }
    assert_eq!(total, 374);
}
