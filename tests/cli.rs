//! The `broadside` binary: outputs and exit codes (0 answered, 1 no solution, 2 bad input).

#[path = "support/cli.rs"]
mod cli;

use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    cli::run(args, stdin.unwrap_or(""))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// An empty folder of this process's own under the temporary folder, named `name`.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("broadside-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const RUBIN: &str = "puzzles/10x10/rubin-113.txt";

#[test]
fn reports_name_the_engine_that_answered() {
    // The DP cannot solve and `auto` solves with the enumerator: neither is named.
    for (asked, answered) in [
        ("auto", "enum"),
        ("enum", "enum"),
        ("dp", "enum"),
        ("sat", "sat"),
    ] {
        let o = run(&["solve", "--json", "--engine", asked, RUBIN], None);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["engine"], answered, "--engine {asked}");
    }
    let o = run(
        &[
            "count", "--json", "--engine", "dp", "--size", "5x5", "--fleet", "3 2",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["engine"].as_str(), v["count"].as_u64()),
        (Some("dp"), Some(524))
    );
}

#[test]
fn exit_codes_are_documented_in_help() {
    let help = stdout(&run(&["--help"], None));
    for code in [
        "0 answered",
        "1 answered",
        "2 bad input",
        "3 could not answer",
    ] {
        assert!(help.contains(code), "{help}");
    }
}

#[test]
fn solve_prints_the_grid() {
    let o = run(&["solve", RUBIN], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("2  . . . . . . . < > ."), "{out}");
    assert!(out.contains("4  . ^ . < m > . . . ."), "{out}");
}

#[test]
fn count_says_unique() {
    for engine in ["enum", "sat", "auto"] {
        let o = run(&["count", "--engine", engine, RUBIN], None);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            stdout(&o).contains("1 solution (unique)"),
            "{engine}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn stdin_and_json() {
    let text = std::fs::read_to_string(format!("{}/{RUBIN}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let o = run(&["solve", "--json", "-"], Some(&text));
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solved"], true);
    assert_eq!(v["matches_recorded"], true);
    assert_eq!(v["solution"][0], ".......<>.");
}

#[test]
fn empty_board_from_flags() {
    let o = run(
        &[
            "count", "--size", "5x5", "--fleet", "3 2", "--rules", "no-touch", "--json", "--cells",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["count"], 524);
    assert_eq!(v["complete"], true);
    let sum: u64 = v["per_cell"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 524 * 5);
    let o = run(
        &[
            "count",
            "--size",
            "9x9",
            "--fleet",
            "5 4 3 3 2",
            "--labelled",
        ],
        None,
    );
    assert!(
        stdout(&o).contains("482547096 labelled layouts, identical ships told apart"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_labelled_count_of_a_unique_puzzle_says_it_is_unique() {
    // rubin-113's fleet has 2, 3 and 4 identical ships of three lengths: 2! 3! 4! = 288.
    let o = run(&["count", "--labelled", RUBIN], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o)
            .contains("1 solution (unique); 288 labelled layouts with identical ships told apart"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn limits_give_partial_answers_that_say_so() {
    let o = run(
        &[
            "count",
            "--limit",
            "2",
            "--size",
            "10x10",
            "--fleet",
            "5 4 3 3 2",
            "--rules",
            "touch",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("at least 2 layouts (stopped at the limit)"),
        "{}",
        stdout(&o)
    );
    let o = run(
        &[
            "count",
            "--time-limit",
            "0.02",
            "--json",
            "--size",
            "12x12",
            "--fleet",
            "5 4 3 3 2 2",
            "--rules",
            "touch",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["partial_reason"], "time");
}

#[test]
fn convert_round_trips_through_json() {
    let o = run(&["convert", "--to", "json", RUBIN], None);
    assert_eq!(o.status.code(), Some(0));
    let json = stdout(&o);
    let o2 = run(&["convert", "--to", "text", "-"], Some(&json));
    let original =
        std::fs::read_to_string(format!("{}/{RUBIN}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(stdout(&o2), original);
}

#[test]
fn bad_input_exits_2_with_position() {
    let o = run(
        &["solve", "-"],
        Some("size: 3x3\nfleet: 2\ngrid:\n. . .\n. ? .\n. . .\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("<stdin>: line 5, column 3"),
        "{}",
        stderr(&o)
    );
    let o = run(&["solve", "no/such/file.txt"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["solve"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["count", "--size", "5x5"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["count", "--frobnicate"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = run(
        &["solve", "-"],
        Some("size: 3x3\nfleet: 1\ngrid:\n9 . . .\n. . .\n. . .\n"),
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "a count larger than the row: {}",
        stderr(&o)
    );
}

#[test]
fn impossible_puzzles_exit_1_with_reasons() {
    let o = run(
        &["solve", "-"],
        Some("size: 3x3\nfleet: 2\ngrid:\n  1 1 0\n1 . . .\n1 . . .\n1 . . .\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("because the row counts add up to 3 but the column counts to 2"),
        "{}",
        stdout(&o)
    );
    // No obvious conflict; the search finds none.
    let o = run(
        &["count", "-"],
        Some("size: 3x3\nfleet: 2 1\ngrid:\n  0 1 2\n0 . . .\n1 . . .\n2 . . .\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no solution"), "{}", stdout(&o));
}

#[test]
fn dimacs_export_declares_the_projection() {
    let path = std::env::temp_dir().join(format!("broadside-test-{}.cnf", std::process::id()));
    let p = path.to_str().unwrap();
    let o = run(
        &["count", "--dimacs", p, "--size", "5x5", "--fleet", "3 2"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cnf = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    // 5x5: 30 places for the 3-ship and 40 for the 2-ship.
    let show: Vec<&str> = cnf
        .lines()
        .find(|l| l.starts_with("c p show"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(show.len(), 3 + 70 + 1);
    assert!(cnf.lines().any(|l| l.starts_with("c ind ")));
    assert!(cnf.lines().any(|l| l.starts_with("p cnf ")));
}

#[test]
fn jsonl_answers_every_line() {
    let lines = "{\"id\": \"a\", \"height\": 4, \"width\": 4, \"rows\": [2, 0, 1, 1], \"cols\": [2, 1, 0, 1], \"fleet\": {\"1\": 2, \"2\": 1}, \"hints\": [[0, 0, \"L\"], [3, 3, \"S\"]], \"solution\": [\"<>..\", \"....\", \"o...\", \"...o\"]}\n\
{\"id\": \"b\", \"height\": 4, \"width\": 4, \"rows\": [2, 0, 1, 1], \"cols\": [2, 1, 0, 1], \"fleet\": {\"1\": 2, \"2\": 1}, \"hints\": [[0, 0, \"L\"], [3, 3, \"S\"]], \"solution\": [\"<>..\", \"....\", \"...o\", \"o...\"]}\n";
    let o = run(&["count", "-"], Some(lines));
    let out = stdout(&o);
    assert!(
        out.contains("a: 1 solution (unique)") && out.contains("b: 1 solution (unique)"),
        "{out}"
    );
    // Record b's solution breaks its own clues: the run must say so and exit 1.
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("b: the recorded solution is not valid"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn probs_and_best_on_the_kancko_board() {
    let o = run(&["best", "--size", "5x5", "--fleet", "3 2"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("fire at C1 A3 E3 C5 (probability 0.2405, 126 of 524 layouts)"),
        "{}",
        stdout(&o)
    );
    let o = run(
        &["probs", "--json", "--size", "5x5", "--fleet", "3 2"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["layouts"], 524);
    assert_eq!(v["counts"][0][0], 84);
    assert!((v["probabilities"][0][2].as_f64().unwrap() - 126.0 / 524.0).abs() < 1e-12);
    // Not a terminal, so no colour unless asked for.
    let plain = stdout(&run(&["probs", "--size", "5x5", "--fleet", "3 2"], None));
    assert!(!plain.contains('\x1b') && plain.contains("  24"), "{plain}");
    let coloured = stdout(&run(
        &[
            "probs", "--color", "always", "--size", "5x5", "--fleet", "3 2",
        ],
        None,
    ));
    assert!(coloured.contains("\x1b[") && coloured.contains("48;2;"));
}

#[test]
fn probs_draws_an_svg() {
    let path = std::env::temp_dir().join(format!("broadside-heat-{}.svg", std::process::id()));
    let o = run(
        &[
            "probs",
            "puzzles/game/naslausky-8x8-rocks.txt",
            "--svg",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg") && svg.contains(">hit</text>") && svg.contains(">rock</text>"));
    assert_eq!(svg.matches("<rect x=").count(), 64);
}

#[test]
fn shots_no_layout_fits_exit_1() {
    // A hit in a corner fenced by misses: no ship of length 2 or more fits, and there is no
    // ship of length 1.
    let state = "size: 4x4\nfleet: 2\nrules: touch\ngrid:\n* ~ . .\n~ . . .\n. . . .\n. . . .\n";
    for cmd in ["probs", "best"] {
        let o = run(&[cmd, "-"], Some(state));
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert!(
            stdout(&o).contains("no layout is consistent with these shots"),
            "{}",
            stdout(&o)
        );
        assert!(
            stdout(&o).contains("because no ship of the fleet can cover the * clue at A1"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn conflicting_shots_are_named() {
    let record = "size: 6x6\nfleet: 3 2\nrules: no-touch\nsinking: announced\nshots:\nA1 miss\nB2 hit\nC3 hit\nF6 miss\nB1 miss\nA2 miss\nC2 miss\nB3 miss\n";
    let o = run(&["probs", "-"], Some(record));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("drop any one of these shots and a layout fits the rest: B2 hit\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["best", "--json", "-"], Some(record));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["conflicting_shots"].as_array().unwrap().len(), 5);
    // B2 is boxed in by misses, too small a place for either ship: dropping B2 alone fixes
    // the record (dropping C3 does not), and B2 with its four misses cannot all be true.
    assert_eq!(v["culprits"], serde_json::json!(["B2 hit"]));
    // The hits before a sunk report are not to blame when the record without them is no
    // record at all: here only the hit after both sinkings is (it once named A3 sunk 3).
    let sunk = "size: 5x5\nfleet: 3 2\nrules: touch\nsinking: announced\nshots:\nA1 hit\nA2 hit\nA3 sunk 3\nB1 hit\nB2 sunk 2\nC3 hit\n";
    let o = run(&["probs", "--json", "-"], Some(sunk));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["culprits"], serde_json::json!(["C3 hit"]));
    // A sonar disc over a hit is a record no layout fits: an answer (exit 1), not bad input.
    let sonar = "size: 5x5\nfleet: 3 2\nrules: touch\nshots:\nC3 sonar 2\nC4 hit\n";
    let o = run(&["probs", "-"], Some(sonar));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("drop any one of these shots and a layout fits the rest: C3 sonar 2, C4 hit"),
        "{}",
        stdout(&o)
    );
    // A record that is impossible as input: exit 2.
    let o = run(
        &["probs", "-"],
        Some("size: 6x6\nfleet: 3 2\nshots:\nA1 hit\nA1 miss\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cell A1 is fired at twice"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn heat_maps_honour_a_time_limit_and_say_they_are_partial() {
    let board = [
        "--size",
        "20x20",
        "--fleet",
        "5 4 3 3 2 2 1 1",
        "--time-limit",
        "0.2",
    ];
    let o = run(&[&["probs"], &board[..]].concat(), None);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("partial: the time limit ran out"),
        "{}",
        stdout(&o)
    );
    let o = run(&[&["best", "--json"], &board[..]].concat(), None);
    assert_eq!(
        o.status.code(),
        Some(1),
        "no exact best cell is an unanswered question"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["probability"].is_null() && v["cells"].as_array().unwrap().is_empty());
}

#[test]
fn sample_is_reproducible_and_validate_reads_its_output() {
    let state = "puzzles/game/kancko-10x10-midgame.txt";
    let a = run(
        &["sample", state, "-n", "50", "--seed", "4", "--json"],
        None,
    );
    let b = run(
        &["sample", state, "-n", "50", "--seed", "4", "--json"],
        None,
    );
    let c = run(
        &["sample", state, "-n", "50", "--seed", "5", "--json"],
        None,
    );
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
    assert_eq!(stdout(&a).lines().count(), 50);
    // 66 layouts: 400 samples give the layout test its 5 per layout.
    let many = run(
        &["sample", state, "-n", "400", "--seed", "4", "--json"],
        None,
    );
    let path = std::env::temp_dir().join(format!("broadside-samples-{}.jsonl", std::process::id()));
    std::fs::write(&path, stdout(&many)).unwrap();
    let v = run(
        &["validate", state, "--samples", path.to_str().unwrap()],
        None,
    );
    assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
    assert!(stdout(&v).contains("verdict: PASS"), "{}", stdout(&v));
    // The same file with one layout that breaks the state fails.
    let bad = format!(
        "{}{{\"layout\": [\"<>........\", \"..........\", \"..........\", \"..........\", \"..........\", \"..........\", \"..........\", \"..........\", \"..........\", \"..........\"]}}\n",
        stdout(&many)
    );
    std::fs::write(&path, bad).unwrap();
    let v = run(
        &["validate", state, "--samples", path.to_str().unwrap()],
        None,
    );
    assert_eq!(v.status.code(), Some(1));
    assert!(
        stdout(&v).contains("samples are not layouts consistent with the state"),
        "{}",
        stdout(&v)
    );
    // A malformed file is bad input.
    std::fs::write(&path, "{\"layout\": [\"<>\"]}\n").unwrap();
    let v = run(
        &["validate", state, "--samples", path.to_str().unwrap()],
        None,
    );
    std::fs::remove_file(&path).ok();
    assert_eq!(v.status.code(), Some(2), "{}", stderr(&v));
    assert!(stderr(&v).contains("line 1"), "{}", stderr(&v));
}

#[test]
fn validate_fails_the_sequential_sampler() {
    let o = run(
        &[
            "validate",
            "--size",
            "5x5",
            "--fleet",
            "3 2",
            "--sampler",
            "sequential",
            "-n",
            "20000",
            "--seed",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("verdict: FAIL"), "{}", stdout(&o));
    let o = run(
        &[
            "sample", "--size", "5x5", "--fleet", "3 2", "-n", "20000", "--probs", "--json",
            "--seed", "1",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let est = v["estimates"][0][2].as_f64().unwrap();
    let (lo, hi) = (
        v["intervals95"][0][2][0].as_f64().unwrap(),
        v["intervals95"][0][2][1].as_f64().unwrap(),
    );
    assert!(lo < est && est < hi && (est - 126.0 / 524.0).abs() < 0.02);
}

#[test]
fn explain_prints_named_steps_and_finishes_by_search() {
    let o = run(&["solve", "--explain", "puzzles/15x15/luke-3.txt"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1. "), "{out}");
    assert!(out.contains("full line (tier 1)"), "{out}");
    assert!(out.contains("solved by the rules"), "{out}");
    // Rubin's boards defeat the rules: the explanation says where they stop.
    let o = run(&["solve", "--explain", RUBIN], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("contradiction (tier 4): assuming"), "{out}");
    assert!(out.contains("cells open (grade extreme)"), "{out}");
    assert!(out.contains("4  . ^ . < m > . . . ."), "{out}");
    let o = run(&["solve", "--explain", "--json", RUBIN], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["grade"], "extreme");
    assert_eq!(v["solution"][0], ".......<>.");
    assert!(v["steps"].as_array().is_some_and(|s| !s.is_empty()));
    // Ships that may touch are beyond the rules: a usage error.
    let o = run(
        &[
            "solve",
            "--explain",
            "--size",
            "5x5",
            "--fleet",
            "3 2",
            "--rules",
            "touch",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("never touch"), "{}", stderr(&o));
}

#[test]
fn grade_names_the_grade_and_refuses_puzzles_that_are_not_unique() {
    let o = run(&["grade", "puzzles/15x15/luke-3.txt"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("luke-3: easy"), "{}", stdout(&o));
    let o = run(&["grade", "--json", RUBIN], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["grade"], "extreme");
    assert_eq!(v["solved_by_rules"], false);
    let o = run(&["grade", "tests/data/rubin-1234-no-hints.txt"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not unique"), "{}", stdout(&o));
}

#[test]
fn generate_makes_the_grade_asked_for() {
    for grade in ["easy", "medium", "hard", "extreme"] {
        let o = run(
            &[
                "generate",
                "--size",
                "10x10",
                "--difficulty",
                grade,
                "--seed",
                "7",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{grade}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(&format!("graded {grade}")), "{text}");
        let g = run(&["grade", "-"], Some(&text));
        assert_eq!(g.status.code(), Some(0), "{}", stderr(&g));
        assert!(
            stdout(&g).contains(&format!(": {grade}\n")),
            "{grade}: {}",
            stdout(&g)
        );
    }
    // A lone submarine is always found by the counts alone: no hard puzzle exists.
    let o = run(
        &[
            "generate",
            "--size",
            "6x6",
            "--fleet",
            "1",
            "--difficulty",
            "hard",
            "--time-limit",
            "0.5",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no hard puzzle in") && stderr(&o).contains("easy instead"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn generate_honours_the_clue_kinds() {
    for (flag, banned) in [("--no-water", '~'), ("--no-segments", '<')] {
        let o = run(
            &[
                "generate", "--size", "10x10", flag, "--seed", "3", "--count", "3",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        for puzzle in text.split("\nname:") {
            let grid = puzzle
                .split("grid:")
                .nth(1)
                .and_then(|g| g.split("solution:").next())
                .unwrap();
            let banned_here: &[char] = if banned == '~' {
                &['~']
            } else {
                &['<', '>', '^', 'v', 'm', 'o']
            };
            assert!(!grid.contains(banned_here), "{flag}: {grid}");
        }
        let o = run(&["count", "--limit", "2", "-"], Some(&text));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}

#[test]
fn exit_codes_do_not_depend_on_the_engine() {
    // A game state has many layouts; its recorded hidden layout need only be consistent, so
    // every engine answers 0, whichever layout it finds.
    for engine in ["auto", "enum", "sat", "dp"] {
        let o = run(
            &["solve", "--engine", engine, "puzzles/game/kancko-5x5.txt"],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "--engine {engine}");
    }
    // A puzzle's recorded solution claims to be the only one: with three solutions, solve
    // and count both answer 1, whichever solution is found first.
    let record = "{\"id\": \"c\", \"height\": 4, \"width\": 4, \"rows\": [2, 0, 1, 1], \"cols\": [2, 1, 0, 1], \"fleet\": {\"1\": 2, \"2\": 1}, \"hints\": [], \"solution\": [\"<>..\", \"....\", \"o...\", \"...o\"]}\n";
    for args in [
        &["count", "-"][..],
        &["solve", "-"],
        &["solve", "--engine", "sat", "-"],
    ] {
        let o = run(args, Some(record));
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            (stdout(&o) + &stderr(&o)).contains("more than one solution"),
            "{args:?}"
        );
    }
}

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full here");
        return;
    };
    let game = "puzzles/game/kancko-5x5.txt";
    let commands: [&[&str]; 13] = [
        &["solve", RUBIN],
        &["solve", "--explain", RUBIN],
        &["grade", RUBIN],
        &["count", "--json", RUBIN],
        &["probs", game],
        &["best", game],
        &["sample", "-n", "5", game],
        &["sample", "-n", "500", "--probs", game],
        &["validate", "-n", "500", game],
        &["generate", "--size", "6x6"],
        &["convert", RUBIN],
        &["convert", "--to", "json", RUBIN],
        &["count", "--cells", "--size", "5x5", "--fleet", "3 2"],
    ];
    for args in commands {
        let o = Command::new(env!("CARGO_BIN_EXE_broadside"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("No space left"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_map_with_no_per_cell_count_is_no_map() {
    // The DP counts every layout at the last cell: cut short, it has no per-cell count, and
    // says so (exit 1) rather than print an empty map or an empty picture.
    let svg = std::env::temp_dir().join(format!("broadside-nomap-{}.svg", std::process::id()));
    let state = "puzzles/game/sakuta-iida-10x10-opening.txt";
    let o = run(
        &[
            "probs",
            "--engine",
            "dp",
            "--time-limit",
            "0.001",
            "--svg",
            svg.to_str().unwrap(),
            state,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no heat map: the time limit ran out"),
        "{}",
        stdout(&o)
    );
    assert!(!svg.exists());
    let o = run(
        &[
            "best",
            "--json",
            "--engine",
            "dp",
            "--time-limit",
            "0.001",
            state,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["complete"], false);
    // auto keeps the enumerator's partial counts when the DP it hands over to is cut short.
    let o = run(&["probs", "--json", "--time-limit", "0.05", state], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    if v["complete"] == false {
        assert!(v["layouts"].as_u64().unwrap() > 0, "{v}");
        assert_eq!(v["counts"].as_array().unwrap().len(), 10);
    }
}

#[test]
fn huge_time_limits_are_no_limit() {
    for cmd in [&["count"][..], &["probs"], &["best"]] {
        let args = [
            cmd,
            &["--time-limit", "1e20", "--size", "5x5", "--fleet", "3 2"],
        ]
        .concat();
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    let o = run(
        &["generate", "--size", "6x6", "--time-limit", "1.8e19"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for bad in ["0", "nan", "-0.5"] {
        let o = run(
            &[
                "count",
                "--size",
                "5x5",
                "--fleet",
                "3 2",
                "--time-limit",
                bad,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "--time-limit {bad}");
    }
}

#[test]
fn counts_past_64_bits_print_exactly_in_json() {
    // C(144, 40), 119 bits: printed as an exact JSON integer, not a float or an error.
    let fleet = vec!["1"; 40].join(" ");
    let o = run(
        &[
            "count", "--json", "--size", "12x12", "--fleet", &fleet, "--rules", "touch",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\"count\": 660503529805245764700164913515877480"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn counts_past_128_bits_print_exactly() {
    // 60 one-cell ships on 14x14 that may touch: C(196, 60), 171 bits; each cell is in
    // C(195, 59) of them, a probability of 60/196.
    let args = ["--size", "14x14", "--fleet", "60x1", "--rules", "touch"];
    let total = "1668521483666999055912346519304191860545528860481496";
    let each = "510771882755203792626228526317609753228223120555560";
    let o = run(&[&["count", "--json", "--cells"][..], &args].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("\"count\": {total}")), "{out}");
    assert_eq!(out.matches(each).count(), 196, "{out}");

    let o = run(&[&["probs", "--json"][..], &args].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("\"layouts\": {total}")), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = v["probabilities"][3][5].as_f64().unwrap();
    assert!((p - 60.0 / 196.0).abs() < 1e-12, "{p}");

    let o = run(&[&["count"][..], &args].concat(), None);
    assert!(
        stdout(&o).contains(&format!("{total} layouts")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn input_that_would_be_ignored_or_misread_is_refused() {
    let refused = |args: &[&str], stdin: Option<&str>, says: &str| {
        let o = run(args, stdin);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    };
    // Options a file would override.
    refused(
        &["count", RUBIN, "--fleet", "2"],
        None,
        "a file gives its own",
    );
    refused(
        &["count", RUBIN, "--rules", "touch"],
        None,
        "a file gives its own",
    );
    // A mistyped length is not a ship's name; a key said twice; a size no board has.
    refused(
        &["count", "-"],
        Some("size: 5x5\nfleet: -2 2\n"),
        "line 2, column 8: a ship length must be a whole number",
    );
    refused(
        &["count", "-"],
        Some("size: 5x5\nfleet: 2\nsize: 6x6\n"),
        "line 3, column 1: \"size\" is given twice (first on line 1)",
    );
    refused(
        &["count", "-"],
        Some("size: 99999999999999999999x5\nfleet: 2\n"),
        "far too large",
    );
    // Rows count from 1 and columns are letters, as everywhere else.
    refused(
        &["count", "-"],
        Some("size: 4x3\nfleet: 2\ngrid:\n   1 1 0 0\n9  . . . .\n0  . . . .\n1  . . . .\n"),
        "row 1 count 9 exceeds the width 4",
    );
    // Thousands of bad shots: a message a person can read.
    let mut many = String::from("size: 10x10\nfleet: 2\nshots:\n");
    for _ in 0..20_000 {
        many.push_str("A1 miss\n");
    }
    let o = run(&["count", "-"], Some(&many));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).len() < 1000 && stderr(&o).contains("and 19989 more"),
        "{}",
        stderr(&o)
    );
    // A byte-order mark is not content.
    let o = run(&["count", "-"], Some("\u{feff}size: 5x5\nfleet: 3 2\n"));
    assert!(stdout(&o).contains("524 layouts"), "{}", stderr(&o));
}

#[test]
fn several_problems_converted_to_json_read_back() {
    let files = "puzzles/external/krazydad12.jsonl";
    let o = run(&["convert", "--to", "json", files], None);
    assert_eq!(o.status.code(), Some(0));
    let json = stdout(&o);
    assert!(json.lines().count() > 1);
    let back = run(&["count", "-"], Some(&json));
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(
        stdout(&back).matches("1 solution (unique)").count(),
        json.lines().count()
    );
}

#[test]
fn simulate_reports_its_figures_and_writes_games_that_read_back() {
    let out = std::env::temp_dir().join(format!("broadside-games-{}.jsonl", std::process::id()));
    let args = [
        "simulate",
        "--shooter",
        "parity",
        "--games",
        "50",
        "--seed",
        "3",
        "--size",
        "6x6",
        "--fleet",
        "3 2",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = run(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "mean",
        "sd",
        "median",
        "ci95",
        "min",
        "max",
        "hit_ratio",
        "games",
        "seconds_per_game",
    ] {
        assert!(!v[key].is_null(), "{key} missing: {v}");
    }
    assert_eq!(v["games"], 50);
    // The same seed, the same games (all but the time).
    let mut again: serde_json::Value = serde_json::from_str(&stdout(&run(&args, None))).unwrap();
    let mut first = v.clone();
    for x in [&mut again, &mut first] {
        x.as_object_mut().unwrap().remove("seconds_per_game");
    }
    assert_eq!(again, first);
    // Every game written reads back, and its hidden layout fits its shots.
    let back = run(&["solve", out.to_str().unwrap()], None);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(stdout(&back).matches("solved in").count(), 50);
    let _ = std::fs::remove_file(&out);
    // Bad requests: exit 2 with the reason.
    for (args, says) in [
        (&["simulate", "--shooter", "psychic"][..], "unknown shooter"),
        (
            &["simulate", "--shooter", "random", "--games", "0"],
            "at least one game",
        ),
        (
            &[
                "simulate",
                "--shooter",
                "random",
                "--size",
                "3x3",
                "--fleet",
                "5",
            ],
            "does not fit",
        ),
        (
            &["simulate", "--shooter", "mp"][..],
            "a value for open: mp:open=VALUE",
        ),
        (
            &["simulate", "--shooter", "density", "--sampler", "weighted"],
            "--sampler is for a sampled:N shooter",
        ),
        (
            &["simulate", "--shooter", "density", "--placer", "ed3"],
            "unknown placer",
        ),
        (
            &[
                "simulate",
                "--shooter",
                "density",
                "--placer",
                "file:/nonexistent/layouts.txt",
            ],
            "/nonexistent/layouts.txt: No such file",
        ),
        (
            &[
                "simulate",
                "--shooter",
                "density",
                "--placer",
                "pk",
                "--rules",
                "no-touch",
            ],
            "could not place",
        ),
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn match_reports_the_first_sides_win_rate() {
    let o = run(
        &[
            "match", "parity", "random", "--games", "200", "--seed", "2", "--size", "6x6",
            "--fleet", "3 2", "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rate = v["win_rate"].as_f64().unwrap();
    assert!(rate > 0.8 && rate <= 1.0, "{v}");
    assert!(v["ci95"][0].as_f64().unwrap() <= rate && rate <= v["ci95"][1].as_f64().unwrap());
    assert_eq!(v["games"], 200);
    // Sides with parameters and placers of their own, named back in the report.
    let o = run(
        &[
            "match",
            "mp:20",
            "sampled:50:weighted",
            "--placer-a",
            "ed1-sp",
            "--placer-b",
            "adversarial:checkerboard",
            "--games",
            "40",
            "--size",
            "6x6",
            "--fleet",
            "3 2",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["a"]["shooter"], "mp:open=20");
    assert_eq!(v["a"]["placer"], "ed1:separated=yes");
    assert_eq!(v["b"]["shooter"], "sampled:boards=50,sampler=weighted");
    assert_eq!(v["b"]["placer"], "adversarial:checkerboard");
}

#[test]
fn accuracy_reports_each_turn_and_refuses_bad_requests() {
    let o = run(
        &[
            "accuracy",
            "puzzles/game/naslausky-8x8-rocks.txt",
            "--games",
            "20",
            "--turns",
            "3",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["estimator"], "exact");
    assert_eq!(v["turns"].as_array().unwrap().len(), 4);
    assert_eq!(v["turns"][0]["games"], 20);
    for (args, says) in [
        (
            &["accuracy", "--estimator", "guess"][..],
            "unknown estimator",
        ),
        (&["accuracy", "--games", "0"], "at least one game"),
        (&["accuracy", "--sonar", "1.5"], "from 0 to 1"),
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn problem_errors_name_the_line_once() {
    let game = "name: twice\nsize: 5x5\nfleet: 3 2\nshots:\nA1 miss\nB2 hit\n  A1 hit\n";
    let o = run(&["probs", "-"], Some(game));
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("line 7, column 3: invalid problem: cell A1 is fired at twice"),
        "{e}"
    );
    assert_eq!(e.matches("fired at twice").count(), 1, "{e}");
}

#[test]
fn simulate_keeps_its_book_in_a_file() {
    let book = std::env::temp_dir().join(format!("broadside-book-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&book);
    let args = [
        "simulate",
        "--json",
        "--shooter",
        "greedy",
        "--games",
        "20",
        "--seed",
        "3",
        "--size",
        "5x5",
        "--fleet",
        "3 2",
        "--book",
    ];
    let with = |book: &std::path::Path| {
        let mut a: Vec<&str> = args.to_vec();
        a.push(book.to_str().unwrap());
        let o = run(&a, None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["mean"].as_f64().unwrap()
    };
    let first = with(&book);
    let text = std::fs::read_to_string(&book).unwrap();
    // (Which positions it holds depends on how long each took to count.)
    assert!(text.starts_with("{\"broadside_book\":1,"), "{text}");
    // The same games again from the book: the same shots.
    assert_eq!(with(&book), first);
    let text = std::fs::read_to_string(&book).unwrap();
    // A book for another game is refused, and left as it was.
    let o = run(
        &[
            "simulate",
            "--shooter",
            "greedy",
            "--games",
            "2",
            "--size",
            "5x5",
            "--fleet",
            "2 2",
            "--book",
            book.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 1, column 1: a book for another game"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let _ = std::fs::remove_file(&book);
}

#[test]
fn a_run_in_parts_plays_the_same_games() {
    let dir = std::env::temp_dir();
    let whole = dir.join(format!("broadside-whole-{}.jsonl", std::process::id()));
    let part = dir.join(format!("broadside-part-{}.jsonl", std::process::id()));
    let sim = |games: &str, first: &str, out: &std::path::Path| {
        let o = run(
            &[
                "simulate",
                "--shooter",
                "parity",
                "--placer",
                "ed1",
                "--seed",
                "4",
                "--games",
                games,
                "--first",
                first,
                "--size",
                "6x6",
                "--fleet",
                "3 2 2",
                "--out",
                out.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(out).unwrap()
    };
    let whole_games = sim("7", "0", &whole);
    let part_games = sim("3", "4", &part);
    let last: Vec<&str> = whole_games.lines().skip(4).collect();
    assert_eq!(part_games.lines().collect::<Vec<_>>(), last);
    assert!(part_games.contains("\"name\":\"game-5\""), "{part_games}");
    let _ = std::fs::remove_file(whole);
    let _ = std::fs::remove_file(part);
}

#[test]
fn optimal_gives_the_optimum_the_rollout_and_greedy() {
    let o = run(
        &["optimal", "--size", "4x3", "--fleet", "3 2", "--json"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["layouts"], 102);
    let f = |k: &str| v[k].as_f64().unwrap();
    // 4x3 {3,2}: the rollout of greedy is optimal here, greedy 0.16 shots behind.
    assert!((f("optimal") - 7.5588).abs() < 1e-4, "{v}");
    assert!((f("rollout") - f("optimal")).abs() < 1e-9, "{v}");
    assert!((f("greedy") - 7.7178).abs() < 1e-4, "{v}");
    let text = stdout(&run(&["optimal", "--size", "4x3", "--fleet", "3 2"], None));
    assert!(
        text.contains("rollout of greedy 7.5588: 100% of greedy's gap closed"),
        "{text}"
    );
    // A board whose optimum takes minutes: the time limit stops it, exit 3 (not answered),
    // within a second or so of the limit.
    let start = std::time::Instant::now();
    let o = run(
        &[
            "optimal",
            "--size",
            "5x5",
            "--fleet",
            "2",
            "--time-limit",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("within the time limit"),
        "{}",
        stderr(&o)
    );
    assert!(start.elapsed().as_secs_f64() < 30.0);
    // Boards whose hunt alone would need far more belief states than the budget allows are
    // refused before the search starts, exit 3, with the estimate: under the default limits
    // (60 s, 20,000,000 states) and under a smaller state budget.
    for (size, fleet, max_states, why) in [
        ("64x2", "2", "20000000", "--max-states budget (20000000)"),
        ("11x11", "2", "20000000", "--max-states budget (20000000)"),
        ("6x6", "3 2", "1000000", "--max-states budget (1000000)"),
    ] {
        let start = std::time::Instant::now();
        let o = run(
            &[
                "optimal",
                "--size",
                size,
                "--fleet",
                fleet,
                "--max-states",
                max_states,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("not tried") && err.contains(why), "{err}");
        assert!(start.elapsed().as_secs_f64() < 10.0, "{size} {fleet}");
    }
    // A limit it meets gives the same answer as none.
    let o = run(
        &[
            "optimal",
            "--size",
            "4x3",
            "--fleet",
            "3 2",
            "--json",
            "--time-limit",
            "60",
        ],
        None,
    );
    let w: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(w["optimal"], v["optimal"]);
}

/// The shots of each game of a `simulate --out` file, by game name, counted from the file.
fn shots_by_game(path: &str) -> std::collections::BTreeMap<String, f64> {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let shots = v["shots"].as_array().unwrap().len() as f64;
            (v["name"].as_str().unwrap().to_string(), shots)
        })
        .collect()
}

/// `gains` on a pilot's games: each game's gain is the sum of its departures', the table's
/// the mean of the games' and of its phases'; the departures the pilot chose on every layout
/// (at most its 300 left) are each worth more than nothing, exactly; the same figures on one
/// thread as on two; and the base's own games depart nowhere.
#[test]
fn gains_measure_each_departure_from_the_base() {
    const PILOT: &str = "tests/data/pilot-6x6-seed1.jsonl";
    let args = ["gains", PILOT, "--layouts", "300", "--each", "--json"];
    let o = run(&args, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["base"], "density:hunt=1");
    assert_eq!(
        (v["games"].as_u64(), v["complete"].as_bool()),
        (Some(6), Some(true))
    );
    let (mut total, mut departures, mut exact) = (0.0, 0, 0);
    for g in v["each"].as_array().unwrap() {
        let ds = g["departures"].as_array().unwrap();
        let sum: f64 = ds.iter().map(|d| d["gain"].as_f64().unwrap()).sum();
        assert!((g["gain"].as_f64().unwrap() - sum).abs() < 1e-9, "{g}");
        for d in ds {
            assert_ne!(d["fired"], d["base"], "{d}");
            let layouts = d["layouts"].as_u64().unwrap();
            if d["exact"] == true {
                assert!(layouts <= 300 && d["se"] == 0.0, "{d}");
                assert!(d["gain"].as_f64().unwrap() > 0.0, "{d}");
                exact += 1;
            } else {
                assert!(layouts == 300 && d["se"].as_f64().unwrap() > 0.0, "{d}");
            }
        }
        total += sum;
        departures += ds.len();
    }
    assert!(exact > 0 && departures > exact, "{exact} of {departures}");
    assert!((v["gain"].as_f64().unwrap() - total / 6.0).abs() < 1e-9);
    assert!((v["departures"].as_f64().unwrap() - departures as f64 / 6.0).abs() < 1e-9);
    let phases: f64 = v["by_sinkings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((phases - total / 6.0).abs() < 1e-9);
    let one = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_eq!(stdout(&one), stdout(&o));
    // The base's own games.
    let dir = fresh_dir("gains");
    let games = dir.join("base.jsonl");
    let games = games.to_str().unwrap();
    let o = run(
        &[
            "simulate",
            "--shooter",
            "density:50.1",
            "--size",
            "6x6",
            "--fleet",
            "3 2 2",
            "--games",
            "5",
            "--out",
            games,
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["gains", games, "--json"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["gain"].as_f64(), v["departures"].as_f64()),
        (Some(0.0), Some(0.0))
    );
    assert!(v.get("each").is_none(), "{v}");
    // Refusals: exit 2, saying what is wrong.
    for (args, says) in [
        (
            &["gains", PILOT, "--layouts", "1"][..],
            "played out on 2 to 100000 layouts",
        ),
        (
            &["gains", "tests/data/no-layout-5x5.txt"],
            "no-layout-5x5: no layout allows its shots",
        ),
        (&["gains", "tests/data/missing.jsonl"], "missing.jsonl"),
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

/// `gains --out` keeps each game as it is measured: a run cut off after a few games (its
/// file cut back mid-line, as a kill leaves it) goes on with `--resume` to the table the
/// whole run gives, measuring only the games it lacks; a file of another run is refused.
#[test]
fn gains_keep_each_game_and_resume_a_run_cut_short() {
    const PILOT: &str = "tests/data/pilot-6x6-seed1.jsonl";
    let dir = fresh_dir("gains-out");
    let out = dir.join("g.jsonl");
    let out = out.to_str().unwrap();
    let args = ["gains", PILOT, "--layouts", "300", "--json", "--out", out];
    let whole = run(&args, None);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let mut whole: serde_json::Value = serde_json::from_str(&stdout(&whole)).unwrap();
    let text = std::fs::read_to_string(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "a first line, then a line a game: {text}");
    let header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        (&header["games"], &header["layouts"], &header["seed"]),
        (&6.into(), &300.into(), &1.into())
    );
    // Every game once, each line's gain the sum of its departures.
    let mut games: Vec<u64> = Vec::new();
    for line in &lines[1..] {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let sum: f64 = g["departures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["gain"].as_f64().unwrap())
            .sum();
        assert!((g["gain"].as_f64().unwrap() - sum).abs() < 1e-9, "{g}");
        assert_eq!(g["name"], format!("game-{}", g["game"]), "{g}");
        games.push(g["game"].as_u64().unwrap());
    }
    games.sort_unstable();
    assert_eq!(games, [1, 2, 3, 4, 5, 6]);
    // The lines docs/JSON.md shows are lines of this file.
    let doc = std::fs::read_to_string("docs/JSON.md").unwrap();
    let shown = doc
        .split("of the file the command above writes with `--out g.jsonl`")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|block| block.split("```").next())
        .expect("docs/JSON.md shows a gains --out file");
    assert_eq!(shown.lines().count(), 2, "{shown}");
    for line in shown.lines() {
        assert!(lines.contains(&line), "docs/JSON.md: {line}");
    }
    // Cut off after two games, in the middle of the third.
    let cut = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..20]
    );
    std::fs::write(out, &cut).unwrap();
    let resumed = run(&[&args[..], &["--resume"]].concat(), None);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let resumed: serde_json::Value = serde_json::from_str(&stdout(&resumed)).unwrap();
    assert_eq!(resumed["resumed"], 2);
    whole["resumed"] = 2.into();
    assert_eq!(resumed, whole);
    let again = std::fs::read_to_string(out).unwrap();
    assert_eq!(again.lines().count(), 7, "{again}");
    assert!(again.starts_with(&format!("{}\n{}\n{}\n", lines[0], lines[1], lines[2])));
    // Cut off before its first line was whole: measured again, from the first line on.
    std::fs::write(out, &lines[0][..10]).unwrap();
    let o = run(&[&args[..], &["--resume"]].concat(), None);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = std::fs::read_to_string(out).unwrap();
    assert_eq!(again.lines().next(), Some(lines[0]), "{again}");
    assert_eq!(again.lines().count(), 7, "{again}");
    // Refusals: exit 2, naming the file's line.
    let mut other = lines.clone();
    other[2] = &lines[2][..lines[2].len() - 1];
    std::fs::write(out, other.join("\n") + "\n").unwrap();
    for (args, says) in [
        (
            [&args[..], &["--resume"]].concat(),
            "g.jsonl: line 3, column",
        ),
        (
            ["gains", PILOT, "--layouts", "400", "--out", out, "--resume"].to_vec(),
            "g.jsonl: line 1: written by another run (6 games measured with --layouts 300 --seed 1)",
        ),
        (
            [
                "gains",
                "tests/data/density-seed1-1-10.jsonl",
                "--layouts",
                "300",
                "--out",
                out,
                "--resume",
            ]
            .to_vec(),
            "not by this one (10 games measured with --layouts 300",
        ),
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `match --out` and `accuracy --out` keep each pair or game as it is played: a run cut off
/// mid-line goes on with `--resume` to the answer the whole run gives, playing only what it
/// lacks; a file of another run is refused and left as it was, and so is a file a refused
/// request would have replaced.
#[test]
fn match_and_accuracy_keep_each_game_and_resume_a_run_cut_short() {
    let dir = fresh_dir("match-out");
    let out = dir.join("m.jsonl");
    let out = out.to_str().unwrap();
    let game = ["--size", "6x6", "--fleet", "3 2"];
    // Each run's arguments but --games and --seed; its --games; what its lines are keyed by.
    let runs: [(Vec<&str>, &str, &str, usize); 2] = [
        (
            [&["match", "parity", "hunt-target"][..], &game].concat(),
            "40",
            "pair",
            20,
        ),
        (vec!["accuracy", "--turns", "5"], "12", "game", 12),
    ];
    // Every line of every run's file, for the examples docs/JSON.md shows.
    let mut written: Vec<String> = Vec::new();
    for (base, games, item, items) in runs {
        let with = |games: &'static str, seed: &'static str| {
            [&base[..], &["--games", games, "--seed", seed]].concat()
        };
        let args = [&with(games, "3")[..], &["--json", "--out", out]].concat();
        let whole = run(&args, None);
        assert!(whole.status.success(), "{args:?}: {}", stderr(&whole));
        let mut whole: serde_json::Value = serde_json::from_str(&stdout(&whole)).unwrap();
        let text = std::fs::read_to_string(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), items + 1, "a first line, then one per {item}");
        written.extend(lines.iter().map(|l| l.to_string()));
        let mut numbers: Vec<u64> = lines[1..]
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()[item]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        numbers.sort_unstable();
        assert_eq!(numbers, (1..=items as u64).collect::<Vec<u64>>(), "{text}");
        // Cut off after three, in the middle of the fourth.
        let cut = format!(
            "{}\n{}\n{}\n{}\n{}",
            lines[0],
            lines[1],
            lines[2],
            lines[3],
            &lines[4][..9]
        );
        std::fs::write(out, &cut).unwrap();
        let resumed = run(&[&args[..], &["--resume"]].concat(), None);
        assert!(resumed.status.success(), "{args:?}: {}", stderr(&resumed));
        let resumed: serde_json::Value = serde_json::from_str(&stdout(&resumed)).unwrap();
        let kept = if item == "pair" { 6 } else { 3 };
        assert_eq!(resumed["resumed"], kept, "{resumed}");
        whole["resumed"] = kept.into();
        assert_eq!(resumed, whole, "{args:?}");
        let again = std::fs::read_to_string(out).unwrap();
        assert_eq!(again.lines().count(), items + 1, "{again}");
        assert!(again.starts_with(&format!(
            "{}\n{}\n{}\n{}\n",
            lines[0], lines[1], lines[2], lines[3]
        )));
        // As text, the summary says what was kept.
        std::fs::write(out, &cut).unwrap();
        let o = run(
            &[&args[..args.len() - 3], &["--out", out, "--resume"]].concat(),
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains(&format!("{kept} of")), "{}", stdout(&o));
        // Another run's file is refused naming its first line, and left as it was.
        let before = std::fs::read_to_string(out).unwrap();
        let o = run(
            &[&with(games, "4")[..], &["--out", out, "--resume"]].concat(),
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("m.jsonl: line 1: written by another run ("),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(out).unwrap(), before);
        // A line that is not the run's JSON: its line and column.
        std::fs::write(
            out,
            format!("{}\n{}\n", lines[0], &lines[1][..lines[1].len() - 1]),
        )
        .unwrap();
        let o = run(&[&args[..], &["--resume"]].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("m.jsonl: line 2, column"),
            "{}",
            stderr(&o)
        );
        // A request refused for its input does not replace the file.
        std::fs::write(out, &before).unwrap();
        let o = run(&[&with("0", "3")[..], &["--out", out]].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(out).unwrap(), before);
    }
    // The lines docs/JSON.md shows are lines of these files.
    let doc = std::fs::read_to_string("docs/JSON.md").unwrap();
    let section = doc
        .split("## match --out and accuracy --out")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/JSON.md has a section on match --out and accuracy --out");
    let shown: Vec<&str> = section
        .split("```text\n")
        .skip(1)
        .flat_map(|block| block.split("```").next().unwrap_or("").lines())
        .collect();
    assert_eq!(shown.len(), 4, "{shown:?}");
    for line in shown {
        assert!(written.iter().any(|w| w == line), "docs/JSON.md: {line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn summarize_sums_a_run_in_parts_and_compares_paired_runs() {
    const PARTS: [&str; 2] = [
        "tests/data/density-seed1-1-10.jsonl",
        "tests/data/density-seed1-11-20.jsonl",
    ];
    const PARITY: &str = "tests/data/parity-seed1-1-20.jsonl";
    // The two parts, in either order, summarise as the whole run does.
    let whole = run(
        &[
            "simulate",
            "--shooter",
            "density",
            "--games",
            "20",
            "--seed",
            "1",
            "--json",
        ],
        None,
    );
    let whole: serde_json::Value = serde_json::from_str(&stdout(&whole)).unwrap();
    let o = run(&["summarize", PARTS[1], PARTS[0], "--json"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let parts: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "games",
        "mean",
        "sd",
        "median",
        "min",
        "max",
        "ci95",
        "hit_ratio",
    ] {
        assert_eq!(parts[key], whole[key], "{key}");
    }
    // The paired difference, recounted from the files.
    let mut density = shots_by_game(PARTS[0]);
    density.extend(shots_by_game(PARTS[1]));
    let parity = shots_by_game(PARITY);
    let d: Vec<f64> = density.iter().map(|(g, a)| parity[g] - a).collect();
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    let o = run(
        &[
            "summarize",
            PARITY,
            "--against",
            PARTS[0],
            PARTS[1],
            "--json",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["games"], 20);
    assert!((v["difference"].as_f64().unwrap() - mean).abs() < 1e-9);
    let fewer = d.iter().filter(|x| **x < 0.0).count();
    assert_eq!(v["fewer"], fewer);
    let text = stdout(&run(
        &["summarize", PARITY, "--against", PARTS[0], PARTS[1]],
        None,
    ));
    assert!(text.contains("20 paired games"), "{text}");
    // A part given twice, and runs that do not hide the same layouts, are refused.
    let o = run(&["summarize", PARTS[0], PARTS[0]], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("game-1 is there twice"),
        "{}",
        stderr(&o)
    );
    let o = run(&["summarize", PARITY, "--against", RUBIN], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn simulate_checks_where_it_writes_before_the_first_game() {
    for (flag, path) in [
        ("--out", "/nonexistent/folder/games.jsonl"),
        ("--book", "/nonexistent/folder/std.book"),
        ("--out", "/dev/full"),
    ] {
        let start = std::time::Instant::now();
        let o = run(
            &[
                "simulate",
                "--shooter",
                "greedy",
                "--games",
                "50",
                flag,
                path,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{flag} {path}: {}", stderr(&o));
        assert!(stderr(&o).contains(path), "{}", stderr(&o));
        // Refused at once: 50 games of exact greedy take seconds.
        assert!(start.elapsed().as_secs_f64() < 2.0, "{flag} {path}");
    }
    // A request the library refuses (games numbered past what a run draws) leaves an old
    // --out file as it was: the file is made when the first game is done.
    let dir = fresh_dir("simulate-refused");
    let out = dir.join("games.jsonl");
    std::fs::write(&out, "an old file\n").unwrap();
    let o = run(
        &[
            "simulate",
            "--shooter",
            "density",
            "--games",
            "2",
            "--first",
            "999999999999",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("first game"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "an old file\n");
}

#[test]
fn ctrl_c_during_simulate_keeps_the_games_and_the_book() {
    let dir = fresh_dir("interrupt");
    let (games, book) = (dir.join("games.jsonl"), dir.join("std.book"));
    let child = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args([
            "simulate",
            "--shooter",
            "greedy",
            "--games",
            "400",
            "--seed",
            "1",
        ])
        .arg("--out")
        .arg(&games)
        .arg("--book")
        .arg(&book)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once its first game is written.
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&games).map_or(0, |t| t.lines().count()) == 0 {
        assert!(start.elapsed().as_secs() < 120, "no game written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("partial: interrupted after"), "{err}");
    // Every game written is whole, numbered from 1 on, and the summary counts them.
    let text = std::fs::read_to_string(&games).unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["name"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(!names.is_empty() && names.len() < 400);
    let want: Vec<String> = (1..=names.len()).map(|i| format!("game-{i}")).collect();
    assert_eq!(names, want);
    assert!(
        stdout(&o).contains(&format!(": {} games", names.len())),
        "{}",
        stdout(&o)
    );
    // The book was saved and reads back into the next part of the run.
    assert!(
        std::fs::read_to_string(&book)
            .unwrap()
            .starts_with("{\"broadside_book\"")
    );
    let first = names.len().to_string();
    let next = run(
        &[
            "simulate",
            "--shooter",
            "greedy",
            "--games",
            "1",
            "--seed",
            "1",
            "--first",
            &first,
            "--book",
            book.to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert!(next.status.success(), "{}", stderr(&next));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn advise_refuses_a_line_its_engine_cannot_answer_and_goes_on() {
    let o = run(
        &[
            "advise", "--engine", "dp", "--size", "6x6", "--fleet", "3 2",
        ],
        Some("E2 sonar 2\nB5 miss\nquit\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("refused \"E2 sonar 2\": the dp engine"),
        "{out}"
    );
    assert!(
        out.contains("after 1 shot: 2104 layouts [dp engine]"),
        "{out}"
    );
}

/// `advise --shooter` says after each line where that shooter fires next: exact greedy's cell
/// is one of the best cells the heat map names, the pilot's is an open cell, a position met
/// again after `undo` keeps its advice, and the game's end has none.
#[test]
fn advise_says_where_a_shooter_fires_next() {
    let cells = |out: &str, key: &str| -> Vec<Vec<String>> {
        out.lines()
            .filter_map(|l| l.strip_prefix(key))
            .map(|rest| {
                let rest = rest.split(" (").next().unwrap();
                rest.split_whitespace().map(String::from).collect()
            })
            .collect()
    };
    let game = ["--size", "5x5", "--fleet", "2", "--color", "never"];
    let lines = "A1 miss\nC3 hit\nC4 miss\nundo\nC4 miss\nB3 sunk 2\nquit\n";
    let o = run(
        &[&["advise", "--shooter", "greedy"][..], &game].concat(),
        Some(lines),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let best = cells(&out, "best: ");
    let greedy = cells(&out, "shooter greedy: ");
    // Seven positions shown (the start, five shots, one taken back), the last one over.
    assert_eq!(best.len(), 7, "{out}");
    assert_eq!(greedy.len(), 6, "{out}");
    for (b, g) in best.iter().zip(&greedy) {
        assert!(b.contains(&g[0]), "{g:?} not among {b:?}\n{out}");
    }
    // After C3 hit, C4 miss and its undo, the position after C3 hit is asked again, then the
    // one after C4 miss: the random shooter gives the cells it gave then.
    let o = run(
        &[&["advise", "--shooter", "random", "--seed", "2"][..], &game].concat(),
        Some(lines),
    );
    let out = stdout(&o);
    let random = cells(&out, "shooter random: ");
    assert_eq!(random.len(), 6, "{out}");
    assert_eq!((&random[2], &random[3]), (&random[4], &random[5]), "{out}");
    let o = run(
        &[&["advise", "--shooter", "pilot:100"][..], &game].concat(),
        Some(lines),
    );
    let out = stdout(&o);
    let pilot = cells(&out, "shooter pilot:layouts=100: ");
    assert_eq!(pilot.len(), 6, "{out}");
    assert!(!["A1", "C3"].contains(&pilot[2][0].as_str()), "{out}");
    // --seed without --shooter is a usage error.
    let o = run(
        &[&["advise", "--seed", "2"][..], &game].concat(),
        Some("quit\n"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn runs_too_long_to_hold_are_refused_not_attempted() {
    for args in [
        &[
            "match",
            "random",
            "random",
            "--games",
            "18446744073709551614",
        ][..],
        &["match", "random", "random", "--games", "100000000000"],
        &["simulate", "--shooter", "random", "--games", "100000000000"],
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("at most 100000000 games"),
            "{}",
            stderr(&o)
        );
    }
    // Skipping to a first game drawn past any bound is refused before a layout is drawn.
    let start = std::time::Instant::now();
    let o = run(
        &[
            "simulate",
            "--shooter",
            "random",
            "--first",
            "10000000000",
            "--games",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("at most game 100000001"),
        "{}",
        stderr(&o)
    );
    assert!(start.elapsed().as_secs_f64() < 10.0);
}

#[test]
fn validate_and_accuracy_keep_to_their_bounds() {
    // The judge's exact count honours the time limit too.
    let start = std::time::Instant::now();
    let o = run(
        &[
            "validate",
            "puzzles/hard/hard-15x15-14ships-s1.txt",
            "--sampler",
            "sequential",
            "-n",
            "10",
            "--time-limit",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("time limit"), "{}", stderr(&o));
    assert!(start.elapsed().as_secs_f64() < 10.0);
    // Turns past the end of every game are not counted through.
    let o = run(
        &[
            "accuracy",
            "--games",
            "3",
            "--turns",
            "1000000000000",
            "--json",
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["turns"].as_array().unwrap().len() <= 65);
}

#[test]
fn small_messages_say_what_is_wrong() {
    // match plays pairs of boards: an odd number of games is refused, not rounded up.
    let o = run(&["match", "random", "random", "--games", "1"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("even"), "{}", stderr(&o));
    // A fleet count past any board blames the count.
    let o = run(
        &[
            "count",
            "--size",
            "5x5",
            "--fleet",
            "99999999999999999999x2",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ship count"), "{}", stderr(&o));
    // A sinking with no hit before it is blamed as a shot, not as a clue nobody gave.
    let o = run(
        &["advise", "--size", "6x6", "--fleet", "3 2"],
        Some("C3 sunk 3\nquit\n"),
    );
    assert!(
        stdout(&o).contains("no ship of the fleet fits the shot C3 sunk 3"),
        "{}",
        stdout(&o)
    );
    // A JSON array of problems is read as JSON, and a JSON error says its place once.
    let one = stdout(&run(
        &["convert", "puzzles/game/kancko-5x5.txt", "--to", "json"],
        None,
    ));
    let array = format!("[{}, {}]", one.trim(), one.trim());
    let o = run(&["count", "-"], Some(&array));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).matches("25 layouts").count(),
        2,
        "{}",
        stdout(&o)
    );
    let o = run(&["count", "-"], Some("{\"width\": 3}"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).matches("column").count(), 1, "{}", stderr(&o));
}

/// A run cut short (its --out file ends in a line cut mid-way) goes on with --resume: the file
/// and the shots become those of an uninterrupted run, the summary is the whole run's, and a
/// file of another run is refused.
#[test]
fn simulate_resumes_a_run_cut_short() {
    let dir = fresh_dir("resume");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let base = [
        "simulate",
        "--shooter",
        "parity",
        "--games",
        "60",
        "--seed",
        "9",
        "--size",
        "6x6",
        "--fleet",
        "3 2 2",
    ];
    let whole = run(
        &[
            &base[..],
            &[
                "--out",
                &p("whole.jsonl"),
                "--shots",
                &p("whole.json"),
                "--json",
            ],
        ]
        .concat(),
        None,
    );
    assert!(whole.status.success(), "{}", stderr(&whole));
    let text = std::fs::read_to_string(p("whole.jsonl")).unwrap();
    let cut: usize = text.lines().take(25).map(|l| l.len() + 1).sum::<usize>() + 40;
    std::fs::write(p("cut.jsonl"), &text[..cut]).unwrap();
    let resumed = run(
        &[
            &base[..],
            &[
                "--out",
                &p("cut.jsonl"),
                "--resume",
                "--shots",
                &p("cut.json"),
                "--json",
            ],
        ]
        .concat(),
        None,
    );
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(std::fs::read_to_string(p("cut.jsonl")).unwrap(), text);
    assert_eq!(
        std::fs::read_to_string(p("cut.json")).unwrap(),
        std::fs::read_to_string(p("whole.json")).unwrap()
    );
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&whole)).unwrap(),
        serde_json::from_str(&stdout(&resumed)).unwrap(),
    );
    assert_eq!(b["resumed"], 25);
    for key in [
        "games",
        "mean",
        "sd",
        "median",
        "min",
        "max",
        "hit_ratio",
        "shooter",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // Another shooter's run does not go on in this file.
    let other = run(
        &[
            "simulate",
            "--shooter",
            "density",
            "--games",
            "60",
            "--seed",
            "9",
            "--size",
            "6x6",
            "--fleet",
            "3 2 2",
            "--out",
            &p("cut.jsonl"),
            "--resume",
        ],
        None,
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("not game-1 of this run"),
        "{}",
        stderr(&other)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `count --part J/K`: the parts of any K add up to the count (per cell too), a part's JSON
/// says which it is and nothing of uniqueness, an empty part is still an answer, and a part
/// out of range, a limit or an engine is refused.
#[test]
fn counts_in_parts_add_up() {
    let board = ["--size", "7x6", "--fleet", "4 3 3 2", "--rules", "no-touch"];
    let json = |extra: &[&str]| -> serde_json::Value {
        let o = run(
            &[&["count", "--json", "--cells"], &board[..], extra].concat(),
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let whole = json(&[]);
    let number = |v: &serde_json::Value| v.as_u64().unwrap();
    for k in [1usize, 5, 64] {
        let mut count = 0;
        let mut cells = vec![0u64; 42];
        for j in 0..k {
            let part = format!("{j}/{k}");
            let v = json(&["--part", &part]);
            assert_eq!(v["part"], serde_json::json!({"index": j, "of": k}));
            assert_eq!(v["unique"], serde_json::Value::Null);
            count += number(&v["count"]);
            for (c, n) in cells.iter_mut().zip(
                v["per_cell"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|r| r.as_array().unwrap()),
            ) {
                *c += number(n);
            }
        }
        assert_eq!(count, number(&whole["count"]), "{k} parts");
        let want: Vec<u64> = whole["per_cell"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .map(number)
            .collect();
        assert_eq!(cells, want, "{k} parts");
    }
    for bad in [
        &["--part", "5/5"][..],
        &["--part", "x"],
        &["--part", "1/2", "--limit", "2"],
        &["--part", "1/2", "--engine", "dp"],
    ] {
        let o = run(&[&["count"], &board[..], bad].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

/// `simulate`, `match` and `accuracy` take `--time-limit`: the games under way finish, the
/// answer is of the games played, marked partial, exit 0; stopped before any game ends,
/// `match` says so (exit 3).
#[test]
fn long_runs_stop_at_their_time_limit_with_a_partial_answer() {
    for args in [
        &[
            "simulate",
            "--shooter",
            "density",
            "--games",
            "50000000",
            "--time-limit",
            "3",
            "--json",
        ][..],
        &[
            "match",
            "density",
            "random",
            "--games",
            "20000000",
            "--time-limit",
            "3",
            "--json",
        ],
        &[
            "accuracy",
            "--games",
            "1000000",
            "--time-limit",
            "3",
            "--json",
        ],
        // Departures played out on 10,000 layouts each, in 20 of the public rule's games (it
        // leaves `density:50.1` while it hunts): about a second a game.
        &[
            "gains",
            "tests/data/density-seed1-1-10.jsonl",
            "tests/data/density-seed1-11-20.jsonl",
            "--layouts",
            "10000",
            "--time-limit",
            "3",
            "--json",
        ],
    ] {
        let start = std::time::Instant::now();
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("partial: time limit reached after"),
            "{args:?}: {}",
            stderr(&o)
        );
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["complete"], false, "{args:?}");
        let games = v["games"].as_u64().unwrap();
        assert!(games > 0 && games < 20_000_000, "{args:?}: {games}");
        // Well within the games' length (minutes at least) plus start-up.
        assert!(start.elapsed().as_secs() < 60, "{args:?}");
    }
    let o = run(
        &[
            "match",
            "greedy",
            "greedy",
            "--games",
            "2",
            "--time-limit",
            "0.001",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("stopped before a pair of games finished"));
}

/// At the size limit with a fleet of thousands, every counting command answers within its
/// time limit (a partial answer, or no answer said so), not seconds past it: SAT, whose
/// encoding of 2,000 ships on 4,096 cells takes seconds to build, does not join the race. The
/// enumerator's search goes one level per ship: 2,000 used to overflow the stack and abort.
#[test]
fn the_largest_boards_answer_within_the_time_limit() {
    for command in [
        &["count"][..],
        &["probs"],
        &["best"],
        &["sample", "-n", "5"],
        &["validate", "-n", "10"],
    ] {
        let start = std::time::Instant::now();
        let args = [
            command,
            &[
                "--size",
                "64x64",
                "--fleet",
                "2000x1",
                "--rules",
                "touch",
                "--time-limit",
                "1",
            ],
        ]
        .concat();
        let o = run(&args, None);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
        let seconds = start.elapsed().as_secs_f64();
        // One second of work, then the answer: 6 to 10 s when SAT's encoding was built first.
        assert!(seconds < 5.0, "{args:?}: {seconds:.1} s");
        if command[0] == "count" || command[0] == "probs" {
            assert!(stdout(&o).contains("partial"), "{args:?}: {}", stdout(&o));
        }
    }
}

/// Every command that can work without end, at the size limit (64x64) with a fleet of 2,000
/// ships, under `--time-limit 1`: an answer, a clear refusal, or "no answer in time" (exit 3),
/// each within a few seconds, never a hang. Under the no-touch rule 2,000 ships cannot fit
/// (at most 1,024 do), so a search must prove that, which is what takes forever; under the
/// touch rule the uniform placer's exact count of the empty board does.
#[test]
fn every_command_at_the_size_limit_answers_refuses_or_gives_up_in_time() {
    let dir = fresh_dir("limits");
    let board = dir.join("board.txt");
    std::fs::write(&board, "size: 64x64\nfleet: 2000x1\nrules: touch\n").unwrap();
    let board = board.to_str().unwrap();
    let record = dir.join("g.txt");
    let record = record.to_str().unwrap();
    let limit = ["--time-limit", "1"];
    let touch = ["--size", "64x64", "--fleet", "2000x1", "--rules", "touch"];
    let no_touch = [
        "--size", "64x64", "--fleet", "2000x1", "--rules", "no-touch",
    ];
    let sequential = ["--placer", "sequential"];
    // (arguments, standard input, the exit code, a phrase it says)
    let cases: Vec<(Vec<&str>, &str, i32, &str)> = vec![
        (
            [&["solve"][..], &no_touch, &limit].concat(),
            "",
            1,
            // 2,000 ships that never touch need 2,000 of the board's 1,024 2x2 blocks.
            "2x2 blocks",
        ),
        (
            [&["solve", "--explain"][..], &no_touch, &limit].concat(),
            "",
            1,
            // 2,000 ships that never touch need 2,000 of the board's 1,024 2x2 blocks.
            "2x2 blocks",
        ),
        (
            [&["grade"][..], &no_touch, &limit].concat(),
            "",
            1,
            // 2,000 ships that never touch need 2,000 of the board's 1,024 2x2 blocks.
            "2x2 blocks",
        ),
        (
            [
                "generate",
                "--size",
                "64x64",
                "--fleet",
                "2000x1",
                "--time-limit",
                "1",
            ]
            .to_vec(),
            "",
            1,
            // The packing bound: 2,000 ships that never touch do not fit on 64x64.
            "does not fit",
        ),
        (
            ["optimal", "--size", "64x64", "--fleet", "2000x1"].to_vec(),
            "",
            2,
            "at most 128 cells",
        ),
        (
            [&["simulate", "--shooter", "greedy"][..], &touch, &limit].concat(),
            "",
            3,
            "stopped before any game finished",
        ),
        (
            [
                &["simulate", "--shooter", "greedy"][..],
                &touch,
                &sequential,
                &limit,
            ]
            .concat(),
            "",
            3,
            "stopped before any game finished",
        ),
        (
            [&["match", "greedy", "density"][..], &touch, &limit].concat(),
            "",
            3,
            "stopped before a pair of games finished",
        ),
        (
            [
                &["match", "greedy", "density"][..],
                &touch,
                &["--placer-a", "sequential", "--placer-b", "sequential"],
                &limit,
            ]
            .concat(),
            "",
            3,
            "stopped before a pair of games finished",
        ),
        (
            ["accuracy", board, "--games", "2", "--time-limit", "1"].to_vec(),
            "",
            3,
            "stopped before a game finished",
        ),
        (
            [&["advise"][..], &touch, &limit].concat(),
            "A1 miss\nquit\n",
            0,
            "partial",
        ),
        (
            [&["play"][..], &touch, &limit, &["--save"], &[record]].concat(),
            "",
            3,
            "time limit ran out",
        ),
    ];
    for (args, input, code, says) in cases {
        let start = std::time::Instant::now();
        let o = run(&args, Some(input));
        let seconds = start.elapsed().as_secs_f64();
        let said = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(code), "{args:?}: {said}");
        assert!(said.contains(says), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        // The advisor answers two lines, each within the limit.
        assert!(seconds < 6.0, "{args:?}: {seconds:.1} s");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The positions of a book file, by key.
fn book_keys(path: &std::path::Path) -> std::collections::BTreeSet<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["key"].to_string()
        })
        .collect()
}

/// Two runs on one book: one that ends while the other is still playing does not lose its
/// positions when the other writes the book later (each merges what is on disk before it
/// writes, under a lock).
#[test]
fn two_runs_on_one_book_keep_both_runs_positions() {
    let dir = fresh_dir("books");
    let book = dir.join("std.book");
    let simulate = |games: &str, seed: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_broadside"));
        c.args(["simulate", "--shooter", "greedy", "--games", games])
            .args(["--seed", seed, "--book"])
            .arg(&book)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    };
    // The long run reads the book (not there yet) first, then plays on.
    let long = simulate("1000", "1").spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let short = simulate("2", "2").output().unwrap();
    assert_eq!(short.status.code(), Some(0), "{}", stderr(&short));
    let written = book_keys(&book);
    assert!(!written.is_empty());
    let killed = Command::new("kill")
        .args(["-INT", &long.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = long.wait_with_output().unwrap();
    // Interrupted mid-run: exit 1, the book written.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let after = book_keys(&book);
    let lost: Vec<&String> = written.difference(&after).collect();
    assert!(lost.is_empty(), "positions lost: {lost:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run killed outright keeps in its shots file the games it had played (the file is
/// written again as the run goes, `--save-every`), in order and as its --out file has them,
/// and `summarize` reads it.
#[test]
fn a_run_killed_outright_keeps_its_shots_file() {
    let dir = fresh_dir("killed");
    let (shots, out) = (dir.join("run.json"), dir.join("run.jsonl"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(["simulate", "--shooter", "density:50", "--seed", "3"])
        .args(["--games", "100000000"])
        .args(["--save-every", "0", "--shots"])
        .arg(&shots)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let read = |path: &std::path::Path| std::fs::read_to_string(path).unwrap_or_default();
    while serde_json::from_str::<serde_json::Value>(&read(&shots))
        .map_or(0, |v| v["games"].as_u64().unwrap_or(0))
        < 3
    {
        assert!(start.elapsed().as_secs() < 120, "no shots file of 3 games");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let file: serde_json::Value = serde_json::from_str(&read(&shots)).unwrap();
    let games = file["games"].as_u64().unwrap() as usize;
    let counts = file["shots"].as_array().unwrap();
    assert!((3..100_000_000).contains(&games), "{games}");
    assert_eq!(counts.len(), games);
    assert_eq!(file["first"], 0);
    assert_eq!(file["argv"][0], "simulate");
    let records: Vec<serde_json::Value> = read(&out)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(records.len() >= games, "{} records", records.len());
    for (k, count) in counts.iter().enumerate() {
        let fired = records[k]["shots"].as_array().unwrap().len() as u64;
        assert_eq!(count.as_u64(), Some(fired), "game {}", k + 1);
    }
    let o = run(&["summarize", shots.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("{games} games")),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 6x6 puzzle of docs/FORMAT.md with a progress: `marks` are its rows.
fn with_progress(marks: &str) -> String {
    format!(
        "name: tiny-6x6\nsize: 6x6\nfleet: 3 2 2 1 1 1\nrules: no-touch\ngrid:\n   2 1 2 2 0 3\n\
         2  . < . . . .\n1  . . . . . .\n3  . . ~ . . m\n1  . . . . . .\n1  . . . . . .\n\
         2  . . . . . .\nprogress:\n{marks}"
    )
}

/// The solution of [`with_progress`]'s puzzle, as marks.
const TINY_SOLVED: &str = "\
~ * * ~ ~ ~
~ ~ ~ ~ ~ *
* ~ ~ * ~ *
~ ~ ~ ~ ~ *
* ~ ~ ~ ~ ~
~ ~ * * ~ ~
";

#[test]
fn check_says_right_so_far_wrong_or_solved() {
    let empty = ". . . . . .\n".repeat(6);
    let o = run(&["check", "-"], Some(&with_progress(&empty)));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("correct so far: 0 cells marked"),
        "{}",
        stdout(&o)
    );
    let o = run(&["check", "-"], Some(&with_progress(TINY_SOLVED)));
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "tiny-6x6: solved\n".into())
    );
    // A ship marked on A2 and water on A3: both wrong, both named, exit 1.
    let wrong = TINY_SOLVED.replacen("~ ~ ~ ~ ~ *\n* ~", "* ~ ~ ~ ~ *\n~ ~", 1);
    let o = run(&["check", "--json", "-"], Some(&with_progress(&wrong)));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["mistakes"], serde_json::json!(["A2", "A3"]));
    assert_eq!(
        (v["correct"].as_bool(), v["solved"].as_bool()),
        (Some(false), Some(false))
    );
    let o = run(&["check", "-"], Some(&with_progress(&wrong)));
    assert!(
        stdout(&o).contains(
            "2 wrong marks (no solution has them): A2 (marked a ship), A3 (marked water)"
        ),
        "{}",
        stdout(&o)
    );
    // A puzzle with no solution says so, and exits 1.
    let none = with_progress(&empty).replace("   2 1 2 2 0 3", "   2 1 2 2 0 4");
    let o = run(&["check", "-"], Some(&none));
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("has no solution"), "{}", stdout(&o));
}

#[test]
fn hint_gives_the_easiest_step_and_mistakes_first() {
    let empty = ". . . . . .\n".repeat(6);
    let o = run(&["hint", "--json", "-"], Some(&with_progress(&empty)));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["mistakes"], serde_json::json!([]));
    let step = &v["step"];
    assert_eq!(step["tier"], 1);
    assert!(step["text"].as_str().unwrap().len() > 10, "{step}");
    // The '<' at B1 has water on its other sides and a ship cell to its right.
    let ship: Vec<&str> = step["ship"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let water: Vec<&str> = step["water"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(!ship.is_empty() || !water.is_empty(), "{step}");
    for c in ship {
        assert!(
            ["B1", "C1", "F2", "A3", "D3", "F3", "F4", "A5", "C6", "D6"].contains(&c),
            "{c}"
        );
    }
    // One mistake at a time, or all with --all; no step while a mark is wrong.
    let wrong = empty.replacen(
        ". . . . . .\n. . . . . .\n.",
        ". . . . . .\n* . . . . .\n~",
        1,
    );
    let o = run(&["hint", "--json", "-"], Some(&with_progress(&wrong)));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["mistakes"], &v["step"]),
        (&serde_json::json!(["A2"]), &serde_json::Value::Null)
    );
    let o = run(&["hint", "--all", "-"], Some(&with_progress(&wrong)));
    assert!(
        stdout(&o).contains(
            "fix these first, no solution has them: A2 (marked a ship), A3 (marked water)"
        ),
        "{}",
        stdout(&o)
    );
    let o = run(&["hint", "-"], Some(&with_progress(TINY_SOLVED)));
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "tiny-6x6: solved: nothing left to hint\n".into())
    );
}

#[test]
fn hints_applied_one_by_one_solve_bundled_puzzles() {
    for file in [
        "puzzles/6x6/luke-0.txt",
        "puzzles/10x10/rubin-113.txt",
        "puzzles/15x15/luke-8.txt",
    ] {
        let mut text =
            std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for _ in 0..300 {
            let o = run(&["hint", "--apply", "-"], Some(&text));
            assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
            text = stdout(&o);
            if stderr(&o).contains("solved: nothing left to hint") {
                break;
            }
        }
        let o = run(&["check", "-"], Some(&text));
        assert!(stdout(&o).ends_with(": solved\n"), "{file}: {}", stdout(&o));
        // The progress is the recorded solution, cell for cell.
        let v: serde_json::Value = serde_json::from_str(&stdout(&run(
            &["convert", "--to", "json", "-"],
            Some(&text),
        )))
        .unwrap();
        let solution = v["solution"].as_array().unwrap();
        let progress = v["progress"].as_array().unwrap();
        let grid = v["grid"].as_array();
        for (r, row) in progress.iter().enumerate() {
            let marks: Vec<char> = row.as_str().unwrap().chars().collect();
            let sol: Vec<char> = solution[r].as_str().unwrap().chars().collect();
            let clue: Vec<char> = grid.map_or(vec!['.'; marks.len()], |g| {
                g[r].as_str().unwrap().chars().collect()
            });
            for c in 0..marks.len() {
                let ship = match clue[c] {
                    '.' => marks[c] == '*',
                    k => k != '~',
                };
                assert_eq!(ship, sol[c] != '.', "{file}: row {r} column {c}");
            }
        }
    }
}

#[test]
fn bad_progress_is_refused_with_its_place() {
    let cases = [
        // A row one cell short.
        (
            with_progress(&". . . . . .\n".repeat(5))
                .replace("progress:\n", "progress:\n. . . . .\n"),
            "line 14, column 10: expected 6 cells in this progress row, found 5",
        ),
        // Five rows for six.
        (
            with_progress(&". . . . . .\n".repeat(5)),
            "line 13, column 1: the progress has 5 rows for a height of 6",
        ),
        // An unknown symbol.
        (
            with_progress(&". . . . . .\n".repeat(5))
                .replace("progress:\n", "progress:\n. . # . . .\n"),
            "line 14, column 5: unknown progress symbol '#'",
        ),
        // A progress on a game state.
        (
            format!(
                "size: 3x3\nfleet: 2\nshots:\nA1 miss\nprogress:\n{}",
                ". . .\n".repeat(3)
            ),
            "line 5, column 1: invalid problem: a progress is a puzzle solver's marks",
        ),
    ];
    for (text, want) in cases {
        let o = run(&["check", "-"], Some(&text));
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(
            stderr(&o).contains(&format!("<stdin>: {want}")),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn convert_keeps_the_progress() {
    let marks = "~ * * ~ . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . ~\n";
    let text = with_progress(&marks.replacen('*', "<", 1));
    let json = stdout(&run(&["convert", "--to", "json", "-"], Some(&text)));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["progress"][0], "~**~..");
    let back = stdout(&run(&["convert", "--to", "text", "-"], Some(&json)));
    assert!(back.contains(&format!("progress:\n{marks}")), "{back}");
    let o = run(&["convert", "--to", "puzlink", "-"], Some(&text));
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("the progress is not written"),
        "{}",
        stderr(&o)
    );
}

/// A game file read back (by `simulate --resume`, `summarize` or `gains`) keeps only games that
/// replay: records cut short, with their results changed or their hidden layout swapped are
/// refused, naming the game; a game given twice, and a file that holds no game, too.
#[test]
fn edited_game_records_are_refused_where_they_are_read() {
    let dir = fresh_dir("edited");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let base = [
        "simulate",
        "--shooter",
        "parity",
        "--games",
        "6",
        "--seed",
        "4",
        "--size",
        "6x6",
        "--fleet",
        "3 2 2",
    ];
    let o = run(&[&base[..], &["--out", &p("games.jsonl")]].concat(), None);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(p("games.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut game: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    // Three kinds of edit to game 2: shots cut to three, every result made a miss, and the
    // hidden layout swapped for game 1's.
    let mut cut = game.clone();
    cut["shots"] = serde_json::Value::Array(game["shots"].as_array().unwrap()[..3].to_vec());
    let mut misses = game.clone();
    for s in misses["shots"].as_array_mut().unwrap() {
        let cell = s.as_str().unwrap().split(' ').next().unwrap().to_string();
        *s = format!("{cell} miss").into();
    }
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    game["solution"] = first["solution"].clone();
    for (what, edited, why) in [
        ("cut", cut, "leave ships afloat"),
        ("misses", misses, "but on its hidden layout it is"),
        ("swapped", game, "but on its hidden layout it is"),
    ] {
        let file = p(&format!("{what}.jsonl"));
        let mut all = lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        all[1] = edited.to_string();
        std::fs::write(&file, all[..3].join("\n") + "\n").unwrap();
        let o = run(&["summarize", &file], None);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stdout(&o));
        assert!(stderr(&o).contains("game-2: "), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{what}: {}", stderr(&o));
        let o = run(&[&base[..], &["--out", &file, "--resume"]].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stdout(&o));
        assert!(stderr(&o).contains("game-2"), "{what}: {}", stderr(&o));
    }
    // A layout another seed draws, with shots that end its game, is not this run's.
    let other = run(
        &[
            "simulate",
            "--shooter",
            "parity",
            "--games",
            "1",
            "--seed",
            "5",
            "--size",
            "6x6",
            "--fleet",
            "3 2 2",
            "--out",
            &p("other.jsonl"),
        ],
        None,
    );
    assert!(other.status.success());
    let mut foreign: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(p("other.jsonl")).unwrap().trim()).unwrap();
    foreign["name"] = first["name"].clone();
    foreign["source"] = first["source"].clone();
    std::fs::write(p("foreign.jsonl"), foreign.to_string() + "\n").unwrap();
    let o = run(
        &[&base[..], &["--out", &p("foreign.jsonl"), "--resume"]].concat(),
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("another layout than this run's seed draws"),
        "{}",
        stderr(&o)
    );
    // The same games twice, and a puzzle given as a game.
    let o = run(&["gains", &p("games.jsonl"), &p("games.jsonl")], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is there twice"), "{}", stderr(&o));
    for cmd in ["summarize", "gains"] {
        let o = run(&[cmd, RUBIN], None);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stdout(&o));
        assert!(stderr(&o).contains("no shots"), "{cmd}: {}", stderr(&o));
    }
    // The untouched file still summarises.
    assert!(
        run(&["summarize", &p("games.jsonl")], None)
            .status
            .success()
    );
}

#[test]
fn devices_are_refused_as_inputs() {
    for cmd in [
        vec!["count", "/dev/zero"],
        vec!["summarize", "/dev/zero"],
        vec!["gains", "/dev/zero"],
    ] {
        let o = run(&cmd, None);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}");
        assert!(
            stderr(&o).contains("not a regular file"),
            "{cmd:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn optimal_answers_exchangeable_fleets_at_once_and_stops_at_its_default_limit() {
    // One 1-cell ship on 64 cells: every order of shots finds it in 32.5 on average.
    let o = run(
        &["optimal", "--size", "8x8", "--fleet", "1", "--json"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["optimal"].as_f64(), v["greedy"].as_f64()),
        (Some(32.5), Some(32.5))
    );
    // Three 1-cell ships that may touch on 16 cells: 3 * 17 / 4.
    let o = run(
        &[
            "optimal", "--size", "4x4", "--fleet", "1 1 1", "--rules", "touch", "--json",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["optimal"].as_f64(), Some(12.75));
    assert!(stdout(&run(&["optimal", "--help"], None)).contains("[default: 60]"));
}

/// A grey picture of a PDF page, as `pdftoppm -gray` writes it (binary PGM): width, height
/// and a byte a pixel (0 black, 255 white). `None` where poppler-utils is not installed.
fn raster(pdf: &std::path::Path, page: usize, dpi: usize) -> Option<(usize, usize, Vec<u8>)> {
    let prefix = pdf.with_extension(format!("p{page}"));
    let ok = Command::new("pdftoppm")
        .args([
            "-gray",
            "-r",
            &dpi.to_string(),
            "-f",
            &page.to_string(),
            "-l",
            &page.to_string(),
            "-singlefile",
        ])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .ok()?
        .success();
    assert!(ok, "pdftoppm reads {}", pdf.display());
    let bytes = std::fs::read(prefix.with_extension(format!("p{page}.pgm"))).unwrap();
    // "P5\n<w> <h>\n255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
        at += 1;
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    Some((w, h, bytes[at..at + w * h].to_vec()))
}

#[test]
fn a_rendered_puzzle_shows_its_grid_clues_and_counts() {
    let dir = fresh_dir("render");
    let pdf = dir.join("rubin.pdf");
    let o = run(&["render", RUBIN, "-o", pdf.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
    // Every SVG reads back as SVG.
    let svg = dir.join("rubin.svg");
    for extra in [&[][..], &["--solution"], &["--no-fleet", "--cell", "5"]] {
        let o = run(
            &[&["render", RUBIN, "-o", svg.to_str().unwrap()][..], extra].concat(),
            None,
        );
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let text = std::fs::read_to_string(&svg).unwrap();
        svg2pdf::usvg::Tree::from_str(&text, &svg2pdf::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{extra:?}: {e}"));
    }
    let game = dir.join("game.svg");
    let o = run(
        &[
            "render",
            "puzzles/game/standard-game.txt",
            "-o",
            game.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let Some((w, _, px)) = raster(&pdf, 1, 254) else {
        eprintln!("SKIPPED the raster checks: pdftoppm (poppler-utils) is needed");
        return;
    };
    // 254 dpi: 10 pixels a millimetre. Cells of 8 mm; the grid's corner at (3.2, 12) mm.
    let at = |x_mm: f64, y_mm: f64| px[(y_mm * 10.0) as usize * w + (x_mm * 10.0) as usize];
    let cell = |c: f64, r: f64| (3.2 + c * 8.0, 12.0 + r * 8.0);
    // The line between columns A and B, and the white inside a cell.
    let (x, y) = cell(1.0, 0.5);
    assert!(at(x, y) < 100, "the grid line at {x} mm");
    assert!(at(x + 3.0, y) > 200, "an empty cell is white");
    // The 'o' at J7: dark in its middle, white at its corner (a circle, not a square).
    let (x, y) = cell(9.5, 6.5);
    assert!(at(x, y) < 60, "the middle of the circle");
    let (x, y) = cell(9.08, 6.08);
    assert!(at(x, y) > 200, "the corner of the circle's cell");
    // Row 1's count, 2, right of the grid: dark pixels in its box.
    let (x0, y0) = cell(10.0, 0.0);
    let dark = (0..80)
        .flat_map(|dy| (0..80).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| at(x0 + dx as f64 / 10.0, y0 + dy as f64 / 10.0) < 100)
        .count();
    assert!(dark > 40, "row 1's count is drawn ({dark} dark pixels)");
    // Bad output names are refused.
    let o = run(&["render", RUBIN, "-o", "x.png"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_book_has_its_pages_puzzles_and_solutions() {
    let dir = fresh_dir("book");
    let pdf = dir.join("book.pdf");
    let o = run(
        &[
            "book",
            "--size",
            "6x6",
            "--count",
            "5",
            "--seed",
            "3",
            "--per-page",
            "4",
            "-o",
            pdf.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A title page, two pages of puzzles (four and one), a page of solutions.
    assert!(stderr(&o).contains("5 puzzles, 4 pages"), "{}", stderr(&o));
    let Some((w, h, first)) = raster(&pdf, 1, 36) else {
        eprintln!("SKIPPED the raster checks: pdftoppm (poppler-utils) is needed");
        return;
    };
    assert_eq!((w, h), (298, 421), "A4 at 36 dpi");
    assert!(
        first.iter().filter(|&&p| p < 128).count() > 500,
        "the title page has ink"
    );
    for page in 2..=4 {
        let (_, _, px) = raster(&pdf, page, 36).unwrap();
        assert!(
            px.iter().filter(|&&p| p < 128).count() > 500,
            "page {page} has ink"
        );
    }
    let out = Command::new("pdftoppm")
        .args(["-f", "5", "-l", "5", "-png"])
        .arg(&pdf)
        .arg(dir.join("none"))
        .output()
        .unwrap();
    assert!(
        !out.status.success() || !dir.join("none-5.png").exists(),
        "no fifth page"
    );
    // The same seed gives the same book; puzzles read from a file make one too.
    let again = dir.join("again.pdf");
    run(
        &[
            "book",
            "--size",
            "6x6",
            "--count",
            "5",
            "--seed",
            "3",
            "--per-page",
            "4",
            "-o",
            again.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(std::fs::read(&pdf).unwrap(), std::fs::read(&again).unwrap());
    let o = run(
        &[
            "book",
            "--from",
            "puzzles/6x6",
            "-o",
            again.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A puzzle with two solutions is refused, named.
    let two = dir.join("two.txt");
    std::fs::write(
        &two,
        "name: twice\nsize: 3x3\nfleet: 1 1\ngrid:\n  1 0 1\n1 . . .\n0 . . .\n1 . . .\n",
    )
    .unwrap();
    let o = run(
        &[
            "book",
            "--from",
            two.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("twice: more than one solution"),
        "{}",
        stderr(&o)
    );
}

/// Under a limit on the address space (`ulimit -v`, as batch systems set it) a job that fits
/// runs, and one that does not ends with "out of memory" and exit code 3, never an abort.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn a_memory_limit_gives_an_answer_or_out_of_memory() {
    let bin = env!("CARGO_BIN_EXE_broadside");
    let under = |kib: u32, args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec {bin} {args}"))
            .output()
            .unwrap()
    };
    // The empty board's per-cell counts take a few megabytes: they fit in 40 MB.
    let o = under(
        40_000,
        "count --cells --size 10x10 --fleet '5 4 3 3 2' --rules touch",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("15046987768 layouts"), "{}", stdout(&o));
    // The DP's per-cell layers take hundreds of megabytes: they do not fit in 60 MB.
    let o = under(
        60_000,
        "count --cells --engine dp --size 10x10 --fleet '5 4 3 3 2' --rules touch",
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("broadside: out of memory"),
        "{}",
        stderr(&o)
    );
}

/// A time limit is a limit: a count of 500 two-cell ships on 64x64 (whose SAT encoding alone
/// took seconds and gigabytes) stops within the limit, with a partial count, whether its
/// engine is chosen or forced to SAT.
#[test]
fn a_time_limit_holds_on_the_largest_boards() {
    for engine in ["auto", "sat"] {
        let start = std::time::Instant::now();
        let o = run(
            &[
                "count",
                "--engine",
                engine,
                "--time-limit",
                "1",
                "--size",
                "64x64",
                "--fleet",
                "500x2",
            ],
            None,
        );
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(o.status.code(), Some(0), "{engine}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("partial: time limit reached"),
            "{engine}: {}",
            stdout(&o)
        );
        // One second and what starting the command takes; generous for a loaded machine.
        assert!(seconds < 2.5, "{engine}: {seconds:.2} s");
    }
}

/// Parts far past the subtrees the search's first levels have: most are empty, they still add
/// up, and setting one up on the largest board stays small and within the time limit.
#[test]
fn any_number_of_parts_adds_up_and_sets_up_within_bounds() {
    use broadside::{CountOptions, Dims, Enumerator, Fleet, ProblemSpec, Rules};
    let p = ProblemSpec::empty(Dims::new(5, 5), Fleet::straight(&[3, 2]), Rules::NoTouch)
        .build()
        .unwrap();
    let k = 3000;
    let total: u128 = (0..k)
        .map(|j| {
            Enumerator::new(&p)
                .count_part(&CountOptions::default(), j, k)
                .unwrap()
                .count
        })
        .sum();
    assert_eq!(total, 524);
    let start = std::time::Instant::now();
    let o = run(
        &[
            "count",
            "--part",
            "0/10000000",
            "--size",
            "64x64",
            "--fleet",
            "5 4 3 3 2",
            "--rules",
            "touch",
            "--time-limit",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("partial: time limit reached"),
        "{}",
        stdout(&o)
    );
    assert!(start.elapsed().as_secs_f64() < 2.5, "{:?}", start.elapsed());
}

/// A long validation says up front how long it would take, and judges what it drew when its
/// time limit runs out.
#[test]
fn a_long_validation_says_its_pace_and_stops_at_its_limit() {
    let start = std::time::Instant::now();
    let o = run(
        &[
            "validate",
            "puzzles/game/kancko-10x10-midgame.txt",
            "--sampler",
            "sequential",
            "-n",
            "1000000",
            "--time-limit",
            "2",
        ],
        None,
    );
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
    assert!(
        stderr(&o).contains("the 1000000 asked for take about"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("verdict:"), "{}", stdout(&o));
}

/// `broadside shooters` prints the one table the words are read with, and docs/PLAY.md holds
/// its Markdown form word for word.
#[test]
fn the_shooter_table_is_the_one_the_guide_holds() {
    let o = run(&["shooters", "--markdown"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    let guide = std::fs::read_to_string("docs/PLAY.md").unwrap();
    let block = |name: &str| {
        let open = format!("<!-- broadside shooters --markdown: {name} -->\n");
        let start = guide.find(&open).expect("the guide marks the table") + open.len();
        let end = start + guide[start..].find("<!-- end -->").unwrap();
        guide[start..end].to_string()
    };
    let (shooters, placers) = md.split_at(md.find("| placer |").unwrap());
    assert_eq!(
        block("shooters").trim(),
        shooters.trim(),
        "docs/PLAY.md's shooters: run `broadside shooters --markdown`"
    );
    assert_eq!(
        block("placers").trim(),
        placers.trim(),
        "docs/PLAY.md's placers: run `broadside shooters --markdown`"
    );

    // The plain listing names every shooter, preset and placer with its parameters.
    let o = run(&["shooters"], None);
    let text = stdout(&o);
    for word in [
        "pilot",
        "layouts",
        "candidates",
        "strongest",
        "fast",
        "pk",
        "separated",
        "adversarial",
    ] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }

    // The JSON: each entry's parameters with their defaults, read back as a word.
    let o = run(&["shooters", "--json"], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let pilot = v["shooters"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "pilot")
        .unwrap();
    let names: Vec<&str> = pilot["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["layouts", "candidates", "afloat"]);
}

/// A shooter's word typed by name, by position or as a preset plays the same games, and the
/// summary names it in the one written form.
#[test]
fn a_shooter_named_any_way_plays_the_same_games() {
    let mut seen = Vec::new();
    for word in ["density:50.1.2", "density:hunt=1,lattice=2", "fast"] {
        let o = run(
            &[
                "simulate",
                "--shooter",
                word,
                "--games",
                "20",
                "--seed",
                "3",
                "--json",
            ],
            None,
        );
        assert!(o.status.success(), "{word}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["shooter"], "density:hunt=1,lattice=2", "{word}");
        seen.push(v["mean"].as_f64().unwrap());
    }
    assert!(seen.iter().all(|&m| m == seen[0]), "{seen:?}");
    let o = run(
        &[
            "simulate",
            "--shooter",
            "pilot:layouts=lots",
            "--games",
            "1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("layouts"), "{}", stderr(&o));
}

/// A book of Digital Battleships puzzles: its own rules and example on the title page, its
/// puzzles with their digits, each proved unique before it is printed.
#[test]
fn a_digital_book_explains_its_sums() {
    let dir = fresh_dir("digital-book");
    let pdf = dir.join("digital.pdf");
    let o = run(
        &[
            "book",
            "--size",
            "6x6",
            "--digital",
            "--count",
            "3",
            "--seed",
            "2",
            "-o",
            pdf.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 puzzles, 4 pages"), "{}", stderr(&o));
    let o = run(
        &[
            "book",
            "--size",
            "6x6",
            "--digital",
            "--difficulty",
            "easy",
            "-o",
            "x.pdf",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let Ok(text) = Command::new("pdftotext").arg(&pdf).arg("-").output() else {
        eprintln!("SKIPPED the text checks: pdftotext (poppler-utils) is needed");
        return;
    };
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Digital Battleships puzzles"), "{text}");
    assert!(text.contains("Every cell holds a digit"), "{text}");
}
