//! Shared bench inputs: Rubin's 303 boards when `../shared` is present, else the bundled
//! 10x10 puzzles.

use broadside::{Problem, format};

/// The benchmark corpus and its name.
pub fn rubin_corpus() -> (String, Vec<Problem>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let shared = format!("{root}/../shared/external-puzzles/rubin303.jsonl");
    if let Ok(text) = std::fs::read_to_string(&shared) {
        let specs = format::read(&shared, &text).expect("rubin303 parses");
        return (
            "rubin303".into(),
            specs.into_iter().map(|s| s.build().unwrap()).collect(),
        );
    }
    let mut problems = Vec::new();
    for e in std::fs::read_dir(format!("{root}/puzzles/10x10")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let spec = format::read(&p.display().to_string(), &text)
            .unwrap()
            .remove(0);
        problems.push(spec.build().unwrap());
    }
    ("puzzles/10x10 (../shared absent)".into(), problems)
}
