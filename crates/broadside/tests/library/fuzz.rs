//! A mutation fuzzer for every reader: the corpus in `tests/fuzz-corpus` (one or more files
//! of each format: text puzzles and game records, JSON, JSON lines, MiniZinc, XCSP3, sample
//! files, puzz.link URLs, pzprjs files) is mutated at random, and each mutant is read, built, checked for conflicts, counted
//! to a limit, printed and read back. Nothing may panic; a parse error must give the file, and
//! a line and column inside the input.
//!
//! A plain `cargo test` runs a short, fixed slice (seeds 0 to 1,999 per file). A long run:
//!
//! ```text
//! BROADSIDE_FUZZ_ITERATIONS=200000 cargo test --release -p broadside --test library fuzz:: -- --nocapture
//! ```
//!
//! with `BROADSIDE_FUZZ_SEED` to start elsewhere. A failure prints the file, the seed and the
//! mutant, which is enough to reproduce it.

use std::panic::{AssertUnwindSafe, catch_unwind};

use broadside::format::{self, samples, text};
use broadside::{Dims, Enumerator, Fleet};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Words that have broken readers before, or sit on their edges.
const TOKENS: &[&str] = &[
    "99999999999999999999",
    "18446744073709551616",
    "-1",
    "0",
    "1e9",
    "\u{feff}",
    "\u{0}",
    "é",
    "x",
    ":",
    "size: 1x1",
    "size: 64x64",
    "fleet: 1",
    "fleet: 0",
    "rules: touch",
    "sinking: revealed",
    "shots:",
    "grid:",
    "solution:",
    "---",
    "A1 hit",
    "A1 sunk 1",
    "ZZ99 miss",
    "A1 sonar 0",
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    "null",
    "\n",
    "\r\n",
    "#",
    "?",
    "?battleship/",
    "//c",
    "/3/",
    "-ff",
    "+fff",
    "z",
    "35iff",
    "zz9",
];

fn mutate(rng: &mut StdRng, input: &str) -> String {
    let mut chars: Vec<char> = input.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        let len = chars.len();
        let at = rng.random_range(0..=len);
        match rng.random_range(0..7) {
            // Replace one character with a meaningful one.
            0 if len > 0 => {
                let pool: Vec<char> = "0123456789 x.:~*o<>^vm#\n-ABCabc{}[]\",".chars().collect();
                chars[at.min(len - 1)] = pool[rng.random_range(0..pool.len())];
            }
            // Delete a stretch.
            1 if len > 0 => {
                let end = (at + rng.random_range(1..=8)).min(len);
                chars.drain(at.min(len - 1)..end);
            }
            // Insert a token.
            2 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                chars.splice(at..at, t.chars());
            }
            // Duplicate a line.
            3 => {
                let s: String = chars.iter().collect();
                let lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let l = lines[rng.random_range(0..lines.len())].to_string() + "\n";
                    chars.splice(at..at, l.chars());
                }
            }
            // Truncate.
            4 => chars.truncate(at),
            // Swap two lines.
            5 => {
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (
                        rng.random_range(0..lines.len()),
                        rng.random_range(0..lines.len()),
                    );
                    lines.swap(a, b);
                    chars = lines.join("\n").chars().collect();
                }
            }
            // Change a number.
            _ => {
                if let Some(i) = chars.iter().position(|c| c.is_ascii_digit()) {
                    let d = rng.random_range(0..10u8);
                    chars[i] = (b'0' + d) as char;
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Reads, builds, counts and prints one input; an error in the input is fine, a panic or a
/// position outside the input is not.
fn exercise(name: &str, input: &str) -> Result<(), String> {
    let lines = input.lines().count().max(1);
    if name.contains("samples") {
        let fleet = Fleet::straight(&[3, 2]);
        if let Err(e) = samples::read(name, input, Dims::new(5, 5), &fleet)
            && (e.line == 0 || e.line > lines + 1 || e.column == 0)
        {
            return Err(format!("samples error out of place: {e}"));
        }
        return Ok(());
    }
    let specs = match format::read(name, input) {
        Ok(s) => s,
        Err(e) => {
            if e.file.as_deref() != Some(name) || e.line == 0 || e.line > lines + 1 || e.column == 0
            {
                return Err(format!("parse error out of place: {e}"));
            }
            return Ok(());
        }
    };
    for spec in specs {
        // Anything read prints; a problem that builds prints to a text that reads back.
        let printed = text::print(&spec);
        let Ok(p) = spec.build() else { continue };
        if let Err(e) = text::parse(&printed) {
            return Err(format!("printed form does not read back: {e}\n{printed}"));
        }
        let _ = p.conflicts();
        if p.dims().cells() <= 49 && p.fleet().ship_count() <= 8 {
            let _ = Enumerator::new(&p).count_up_to(3);
        }
    }
    Ok(())
}

#[test]
fn mutated_inputs_never_panic() {
    let iterations: u64 = std::env::var("BROADSIDE_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let first: u64 = std::env::var("BROADSIDE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let dir = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fuzz-corpus"
    );
    let mut corpus: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    corpus.sort();
    assert!(corpus.len() >= 10, "the corpus lost its files");
    // A caught panic is reported below with its input; the hook keeps its message and place.
    static LAST: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());
    std::panic::set_hook(Box::new(|info| {
        *LAST.lock().unwrap_or_else(|e| e.into_inner()) = info.to_string();
    }));
    let mut failures = Vec::new();
    for path in &corpus {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let original = std::fs::read_to_string(path).unwrap();
        if let Err(e) = exercise(&name, &original) {
            failures.push(format!("{name} as it is: {e}"));
        }
        for seed in first..first + iterations {
            let mut rng = StdRng::seed_from_u64(seed);
            let mutant = mutate(&mut rng, &original);
            let outcome = catch_unwind(AssertUnwindSafe(|| exercise(&name, &mutant)));
            let problem = match outcome {
                Ok(Ok(())) => continue,
                Ok(Err(e)) => e,
                Err(_) => format!(
                    "panicked: {}",
                    LAST.lock().unwrap_or_else(|e| e.into_inner())
                ),
            };
            failures.push(format!(
                "{name} seed {seed}: {problem}\n--- input ---\n{mutant}\n---"
            ));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
