//! Shared bench inputs: Rubin's 303 boards (`puzzles/external/rubin303.jsonl`).

use broadside::{Problem, format};

/// The benchmark corpus and its name.
pub fn rubin_corpus() -> (String, Vec<Problem>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/puzzles/external/rubin303.jsonl");
    let text = std::fs::read_to_string(&path).expect("puzzles/external/rubin303.jsonl");
    let specs = format::read(&path, &text).expect("rubin303 parses");
    (
        "rubin303".into(),
        specs.into_iter().map(|s| s.build().unwrap()).collect(),
    )
}
