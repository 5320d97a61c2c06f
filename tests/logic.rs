//! The logical solver: sound (every cell it decides agrees with the unique solution, on every
//! real puzzle), and its grades.

mod common;

use std::collections::BTreeMap;

use broadside::format;
use broadside::logic::{self, Grade, Know};

fn check_file(path: &std::path::Path, grades: &mut BTreeMap<String, BTreeMap<Grade, usize>>) {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    for spec in format::read(&name, &text).unwrap() {
        let id = spec.meta.name.clone().unwrap_or_default();
        let solution = spec.solution.clone().unwrap();
        let p = spec.build().unwrap();
        let truth: Vec<bool> = {
            let mut v = vec![false; p.dims().cells()];
            for c in solution.cells() {
                v[c] = true;
            }
            v
        };
        let out = logic::solve(&p, 4).unwrap();
        for (c, k) in out.grid.iter().enumerate() {
            match k {
                Know::Ship => assert!(truth[c], "{id}: cell {c} wrongly deduced a ship"),
                Know::Water => assert!(!truth[c], "{id}: cell {c} wrongly deduced water"),
                Know::Unknown => {}
            }
        }
        assert!(
            !out.contradiction,
            "{id}: a contradiction in a sound puzzle"
        );
        assert!(out.solved || out.grade == Grade::Extreme);
        let quick = logic::grade_outcome(&p).unwrap();
        assert_eq!(
            quick.grade, out.grade,
            "{id}: grading and explaining disagree"
        );
        assert_eq!(
            quick.grid, out.grid,
            "{id}: grading and explaining disagree"
        );
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        *grades
            .entry(file)
            .or_default()
            .entry(out.grade)
            .or_default() += 1;
    }
}

#[test]
fn the_logical_solver_is_sound_on_every_real_puzzle() {
    let files = common::external_puzzle_files();
    let mut grades = BTreeMap::new();
    for f in files {
        check_file(&f, &mut grades);
    }
    // docs/GENERATION.md reports these grades: its table must say what the grader does.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/GENERATION.md"))
        .unwrap();
    for (file, by_grade) in &grades {
        let stem = file.trim_end_matches(".jsonl");
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {stem} ")))
            .unwrap_or_else(|| panic!("docs/GENERATION.md has no row for {stem}"));
        let numbers: Vec<usize> = row
            .split('|')
            .filter_map(|c| c.trim().parse().ok())
            .collect();
        let mut want = vec![by_grade.values().sum::<usize>()];
        want.extend(
            Grade::ALL
                .iter()
                .map(|g| by_grade.get(g).copied().unwrap_or(0)),
        );
        assert_eq!(numbers, want, "docs/GENERATION.md, {stem}");
    }
}
