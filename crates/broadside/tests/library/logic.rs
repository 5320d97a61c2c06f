//! The logical solver: sound (every cell it decides agrees with the unique solution, on every
//! real puzzle), and its grades.

use crate::common;

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
    let doc = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/docs/GENERATION.md"
    ))
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

/// Every puzzle of `puzzles/` and `puzzles/external/` with a recorded solution that the
/// logical solver takes.
fn solvable_puzzles() -> Vec<broadside::ProblemSpec> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut files = common::text_files(&format!("{root}/puzzles"));
    files.extend(common::external_puzzle_files());
    let mut out = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for spec in format::read(&name, &text).unwrap() {
            let takes = spec
                .clone()
                .build()
                .is_ok_and(|p| logic::supports(&p).is_ok());
            let puzzle = !spec.rows.is_empty() && spec.observations.shots.is_empty();
            if spec.solution.is_some() && puzzle && takes {
                out.push(spec);
            }
        }
    }
    out
}

/// The recorded solution's ship cells.
fn truth_of(spec: &broadside::ProblemSpec) -> Vec<bool> {
    let mut truth = vec![false; spec.dims.cells()];
    for c in spec.solution.as_ref().unwrap().cells() {
        truth[c] = true;
    }
    truth
}

/// Hints applied one after another from an empty progress reach the solution of every puzzle
/// the rules solve, with no search step, and of every fifth puzzle they do not (Rubin's
/// boards, mostly), with search steps where the rules stop; every step agrees with the
/// recorded solution.
#[test]
fn hints_from_an_empty_progress_reach_every_solution() {
    use broadside::answer;
    let puzzles = solvable_puzzles();
    assert!(puzzles.len() > 400, "{} puzzles", puzzles.len());
    let (mut by_rules, mut with_search, mut extreme) = (0, 0, 0);
    for spec in puzzles {
        let id = spec.meta.name.clone().unwrap_or_default();
        let truth = truth_of(&spec);
        let d = spec.dims;
        let grade = logic::grade(&spec.clone().build().unwrap()).unwrap();
        if grade == Grade::Extreme {
            extreme += 1;
            if extreme % 5 != 1 {
                continue;
            }
        }
        let mut progress = vec![Know::Unknown; d.cells()];
        let mut searched = 0;
        for hints in 0.. {
            assert!(hints <= d.cells(), "{id}: more hints than cells");
            let mut s = spec.clone();
            s.progress = progress.clone();
            let p = s.build().unwrap();
            let r = answer::hint(&p, &answer::Options::new(), false).unwrap();
            assert!(r.mistakes.is_empty() && r.conflict.is_none(), "{id}: {r:?}");
            if r.solved {
                break;
            }
            let step = r
                .step
                .unwrap_or_else(|| panic!("{id}: no step and not solved"));
            assert!(!step.ship.is_empty() || !step.water.is_empty(), "{id}");
            searched += usize::from(step.search);
            assert_eq!(step.search, step.tier == answer::SEARCH_TIER, "{id}");
            for (names, ship) in [(&step.ship, true), (&step.water, false)] {
                for n in names {
                    let c = d.parse_cell(n).unwrap();
                    assert_eq!(truth[c], ship, "{id}: hint {hints} says {n} wrongly");
                    assert_eq!(progress[c], Know::Unknown, "{id}: {n} was decided");
                    assert!(spec.clue(c).is_none(), "{id}: {n} is a clue");
                    progress[c] = if ship { Know::Ship } else { Know::Water };
                }
            }
        }
        // The progress that the hints reached is the solution, cell for cell.
        for c in 0..d.cells() {
            let k = spec.clue(c).map_or(progress[c], Know::of_clue);
            assert_eq!(k == Know::Ship, truth[c], "{id}: cell {c}");
        }
        if grade == Grade::Extreme {
            assert!(
                searched > 0,
                "{id}: the rules cannot finish an extreme puzzle"
            );
            with_search += 1;
        } else {
            assert_eq!(searched, 0, "{id}: a search step where the rules finish");
            by_rules += 1;
        }
    }
    assert!(
        by_rules > 80 && with_search > 50,
        "{by_rules} {with_search}"
    );
}

#[test]
fn check_and_hint_find_seeded_mistakes() {
    use broadside::answer;
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(7);
    let puzzles = solvable_puzzles();
    for (i, spec) in puzzles.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
        let id = spec.meta.name.clone().unwrap_or_default();
        let truth = truth_of(spec);
        let d = spec.dims;
        // A random part of the solution marked, then a few marks turned wrong.
        let mut s = spec.clone();
        s.progress = (0..d.cells())
            .map(|c| match (rng.random_range(0..3), truth[c]) {
                (0, true) => Know::Ship,
                (0, false) => Know::Water,
                _ => Know::Unknown,
            })
            .collect();
        let open: Vec<usize> = (0..d.cells()).filter(|&c| spec.clue(c).is_none()).collect();
        let mut wrong: Vec<usize> = (0..1 + i % 3)
            .map(|_| open[rng.random_range(0..open.len())])
            .collect();
        wrong.sort();
        wrong.dedup();
        for &c in &wrong {
            s.progress[c] = if truth[c] { Know::Water } else { Know::Ship };
        }
        let p = s.clone().build().unwrap();
        let names: Vec<String> = wrong.iter().map(|&c| d.cell_name(c)).collect();
        let c = answer::check(&p, &answer::Options::new()).unwrap();
        assert_eq!(c.mistakes, names, "{id}");
        assert!(!c.correct && !c.solved && c.solutions == 1, "{id}");
        let h = answer::hint(&p, &answer::Options::new(), false).unwrap();
        assert_eq!(h.mistakes, names[..1], "{id}: the first mistake first");
        assert!(h.step.is_none(), "{id}: no step is built on a wrong mark");
        let all = answer::hint(&p, &answer::Options::new(), true).unwrap();
        assert_eq!(all.mistakes, names, "{id}");
        // The same progress with the mistakes cleared is right so far.
        for &c in &wrong {
            s.progress[c] = Know::Unknown;
        }
        let c = answer::check(&s.build().unwrap(), &answer::Options::new()).unwrap();
        assert!(c.correct && c.mistakes.is_empty(), "{id}: {c:?}");
    }
}

#[test]
fn marks_on_a_puzzle_with_several_solutions() {
    use broadside::answer;
    // Two 1-ships on a 3x3 board, one in the first and last row and column: A1 and C3, or
    // C1 and A3.
    let spec = |progress: &str| {
        let text = format!(
            "size: 3x3\nfleet: 1 1\ngrid:\n  1 0 1\n1 . . .\n0 . . .\n1 . . .\nprogress:\n{progress}"
        );
        format::text::parse(&text).unwrap().build().unwrap()
    };
    let check = |progress: &str| answer::check(&spec(progress), &answer::Options::new());
    // Each pair is a solution: a ship on A1 is right so far, and with C3 it solves the puzzle.
    let r = check("* . .\n. . .\n. . .\n").unwrap();
    assert!(r.correct && !r.solved && r.solutions == 2, "{r:?}");
    let r = check("* ~ ~\n~ ~ ~\n~ ~ *\n").unwrap();
    assert!(r.correct && r.solved, "{r:?}");
    // No solution has a ship on B1.
    let r = check("* * .\n. . .\n. . .\n").unwrap();
    assert_eq!((r.mistakes, r.conflict), (vec!["B1".to_string()], None));
    // A1 and C1 are each in a solution, but in no one solution together.
    let r = check("* . *\n. . .\n. . .\n").unwrap();
    assert!(!r.correct && r.mistakes.is_empty(), "{r:?}");
    assert_eq!(r.conflict.as_deref(), Some("C1"));
    let both = spec("* . *\n. . .\n. . .\n");
    let h = answer::hint(&both, &answer::Options::new(), false).unwrap();
    assert_eq!((h.conflict.as_deref(), &h.step), (Some("C1"), &None));
    // Water on A1 and on C1 is right alone, and wrong together.
    let r = check("~ . ~\n. . .\n. . .\n").unwrap();
    assert_eq!((r.mistakes.len(), r.conflict.as_deref()), (0, Some("C1")));
    // The rules give the middle row and column, then stop (either pair may be the one): the
    // hint is then a search step, one cell of a solution.
    let mut progress = String::from("...\n...\n...\n");
    let step = loop {
        let h = answer::hint(&spec(&progress), &answer::Options::new(), false).unwrap();
        let step = h.step.unwrap();
        if step.search {
            break step;
        }
        let mut cells: Vec<char> = progress.chars().collect();
        for n in &step.water {
            let c = broadside::Dims::new(3, 3).parse_cell(n).unwrap();
            cells[c + c / 3] = '~';
        }
        progress = cells.into_iter().collect();
    };
    assert_eq!(progress, ".~.\n~~~\n.~.\n");
    assert!(step.text.contains("one of its solutions"), "{step:?}");
}
