//! Builds the catalogue of puzzles the web page offers into the binary: every puzzle file of
//! `puzzles/` a person would solve (the real ones by size, the constructed and generated ones,
//! and the third-party collections of `puzzles/external`), so that `broadside serve` needs no
//! files beside it. Game states, the counting benchmarks (`hard/`) and the boards too big for
//! a page are left out.

use std::path::{Path, PathBuf};

/// The folders (under `puzzles/`) whose `.txt` and `.jsonl` files the page offers.
const FOLDERS: [&str; 7] = [
    "6x6",
    "8x8",
    "10x10",
    "15x15",
    "made",
    "generated",
    "external",
];
/// Generated boards wider than this are left out: too big to solve by hand on a page.
const LARGEST: [&str; 2] = ["20x20", "30x30"];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let puzzles = root.join("puzzles");
    println!("cargo:rerun-if-changed={}", puzzles.display());
    let mut files = Vec::new();
    for folder in FOLDERS {
        collect(&puzzles.join(folder), &mut files);
    }
    files.retain(|p| {
        !LARGEST
            .iter()
            .any(|l| p.components().any(|c| c.as_os_str() == *l))
    });
    files.sort();
    let mut out = String::from(
        "/// The puzzle files the page offers: (path under `puzzles/`, content).\n\
         pub const FILES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let rel = f.strip_prefix(&puzzles).expect("under puzzles/");
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            rel.to_string_lossy(),
            f.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("catalogue.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The `.txt` and `.jsonl` files under `dir`, at any depth (none when it is absent).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        println!("cargo:rerun-if-changed={}", p.display());
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt" || x == "jsonl") {
            out.push(p);
        }
    }
}
