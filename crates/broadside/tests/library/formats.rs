//! File formats: the documented examples parse, printing round-trips, errors carry
//! positions, and no input makes the readers panic.

use crate::common;

use broadside::format::{self, Format, json, text};
use broadside::{Enumerator, ProblemSpec, check};
use proptest::prelude::*;

fn doc_examples() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/docs/FORMAT.md"
    ))
    .unwrap();
    let mut out = Vec::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("```") {
        let after = &rest[i + 3..];
        let nl = after.find('\n').unwrap();
        let lang = after[..nl].trim().to_string();
        let body_end = after[nl + 1..].find("```").unwrap();
        let body = after[nl + 1..nl + 1 + body_end].to_string();
        if !lang.is_empty() {
            out.push((lang, body));
        }
        rest = &after[nl + 1 + body_end + 3..];
    }
    out
}

#[test]
fn documented_examples_parse_and_solve() {
    let examples = doc_examples();
    assert!(examples.len() >= 6, "FORMAT.md lost its examples");
    for (lang, body) in examples {
        let (name, expected) = match lang.as_str() {
            "broadside" => ("ex.txt", Format::Text),
            "json" => ("ex.json", Format::Json),
            "jsonl" => ("ex.jsonl", Format::Jsonl),
            "dzn" => ("ex.dzn", Format::Dzn),
            "xcsp" => ("ex.json", Format::Xcsp),
            "puzlink" => ("ex.txt", Format::Puzlink),
            "pzprv3" => ("ex.pzprv3", Format::Pzprv3),
            other => panic!("unknown example language {other}"),
        };
        assert_eq!(Format::detect(name, &body), expected, "{lang}");
        // Detection from content alone, as for standard input.
        if lang != "dzn" {
            assert_eq!(Format::detect("-", &body), expected, "{lang} from content");
        }
        for spec in format::read(name, &body).unwrap_or_else(|e| panic!("{lang}: {e}")) {
            let p = spec.clone().build().unwrap();
            let found = Enumerator::new(&p)
                .solve()
                .unwrap_or_else(|| panic!("{lang}: no solution"));
            assert!(check::layout(&spec, &found).is_ok());
            if let Some(rec) = &spec.solution {
                assert!(
                    check::layout(&spec, rec).is_ok(),
                    "{lang}: recorded solution invalid"
                );
            }
            // A documented progress is right so far.
            if !spec.progress.is_empty() {
                let r = broadside::answer::check(&p, &broadside::answer::Options::new()).unwrap();
                assert!(r.correct && r.marked > 0, "{lang}: {r:?}");
            }
        }
    }
}

#[test]
fn dzn_and_xcsp_examples_are_the_same_puzzle() {
    let ex = doc_examples();
    let get = |l: &str| ex.iter().find(|(lang, _)| lang == l).unwrap().1.clone();
    let a = format::dzn::parse(&get("dzn")).unwrap();
    let b = format::xcsp::parse(&get("xcsp")).unwrap();
    assert_eq!(a, b);
    let p = a.build().unwrap();
    assert!(Enumerator::new(&p).is_unique());
}

#[test]
fn array2d_hints_read_like_bar_arrays() {
    let bars = "height=2; width=3; maxship=1; ship=[1]; hint=[|0,1,0|0,0,2|]; rowsum=[0,1]; colsum=[0,0,1];";
    let arr = "height=2; width=3; maxship=1; ship=[1]; hint=array2d(1..2,1..3,[0,1,0,0,0,2]); rowsum=[0,1]; colsum=[0,0,1];";
    assert_eq!(
        format::dzn::parse(bars).unwrap(),
        format::dzn::parse(arr).unwrap()
    );
}

/// Reads, builds and checks whatever parses; only a panic can fail it.
fn exercise(name: &str, input: &str) {
    if let Ok(specs) = format::read(name, input) {
        for spec in specs {
            if let Ok(p) = spec.build() {
                let _ = p.conflicts();
            }
        }
    }
}

fn round_trip(spec: &ProblemSpec) {
    let t = text::print(spec);
    let back = text::parse(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    assert_eq!(&back, spec, "text round trip:\n{t}");
    let j = json::print(spec);
    assert_eq!(&json::parse(&j).unwrap(), spec, "json round trip:\n{j}");
}

#[test]
fn bundled_files_round_trip() {
    for entry in common::text_files(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/puzzles"
    )) {
        let content = std::fs::read_to_string(&entry).unwrap();
        let spec = text::parse(&content).unwrap();
        round_trip(&spec);
    }
}

#[test]
fn errors_say_line_and_column() {
    let cases: [(&str, usize, usize); 6] = [
        ("size: 3x2\nfleet: 1\ngrid:\n. . .\n. q .\n", 5, 3),
        ("size: 3x2\nfleet: 1\nrules: sideways\n", 3, 8),
        ("size: 3x2\nfleet: 1\ngrid:\n. . .\n. . . .\n", 5, 7),
        ("size: three\nfleet: 1\n", 1, 7),
        ("size: 3x2\nfleet: 2 zero\n", 2, 8),
        ("size: 3x2\ncolour: red\n", 2, 1),
    ];
    for (input, line, column) in cases {
        let e = text::parse(input).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{input:?}: {e}");
    }
    let e = format::read("bad.dzn", "height = 5;\nwidth = ;\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 9));
    assert_eq!(e.file.as_deref(), Some("bad.dzn"));
    let e = format::read("bad.json", "{\"width\": 3,\n \"height\": x}").unwrap_err();
    assert_eq!(e.line, 2);
    let e = format::read("bad.jsonl", "{\"id\":\"a\",\"height\":2,\"width\":2,\"rows\":[1,0],\"cols\":[1,0],\"fleet\":{\"1\":1}}\n{\"hints\": 3}\n").unwrap_err();
    assert_eq!(e.line, 2);
}

/// A file that reads but describes no board says where, as a typo does: the count too
/// large, the second shot at a cell, the shot on a contradicting clue, the bad solution; a
/// JSON-lines record, its line.
#[test]
fn problem_errors_say_line_and_column() {
    let cases: [(&str, usize, usize, &str); 6] = [
        (
            "size: 3x2\nfleet: 1\ngrid:\n   1 0 0\n0  . . .\n 7 . . .\n",
            6,
            2,
            "row 2 count 7 exceeds the width 3",
        ),
        (
            "size: 3x2\nfleet: 1\ngrid:\n   1 0 5\n1  . . .\n0  . . .\n",
            4,
            8,
            "column C count 5 exceeds the height 2",
        ),
        (
            "size: 5x5\nfleet: 3 2\nshots:\nA1 miss\nB2 hit\n  A1 hit\n",
            6,
            3,
            "cell A1 is fired at twice",
        ),
        (
            "size: 3x3\nfleet: 2\ngrid:\n~ . .\n. . .\n. . .\nshots:\nB2 miss\nA1 hit\n",
            9,
            1,
            "the shot at A1 contradicts the grid's clue there",
        ),
        (
            "size: 3x3\nfleet: 2\nsinking: none\nshots:\nA1 hit\nA2 sunk 2\n",
            6,
            1,
            "reports a sinking, but the sinking rule is 'none'",
        ),
        (
            "// a comment\nsize: 3x2\nfleet: 1\n---\nsize: 3x2\nfleet: 1\ngrid:\n4 . . .\n0 . . .\n",
            8,
            1,
            "row 1 count 4 exceeds the width 3",
        ),
    ];
    for (input, line, column, says) in cases {
        let e = format::read("bad.txt", input).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{input:?}: {e}");
        assert!(e.to_string().contains(says), "{input:?}: {e}");
        assert!(e.to_string().starts_with("bad.txt: line"), "{e}");
    }
    let ok = "{\"id\":\"a\",\"height\":2,\"width\":2,\"rows\":[1,0],\"cols\":[1,0],\"fleet\":{\"1\":1},\"hints\":[]}";
    let bad = ok.replace("[1,0],\"cols", "[3,0],\"cols");
    let e = format::read("bad.jsonl", &format!("{ok}\n\n{bad}\n")).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(
        e.to_string().contains("row 1 count 3 exceeds the width 2"),
        "{e}"
    );
}

#[test]
fn structural_errors_are_all_reported() {
    let mut spec = text::parse("size: 4x3\nfleet: 2\n").unwrap();
    spec.rows = vec![Some(9), None];
    spec.cols = vec![Some(1); 4];
    spec.clues = vec![None; 5];
    // Row count list length, clue list length, and row 1's count: all three at once.
    let e = spec.build().unwrap_err();
    assert_eq!(e.0.len(), 3, "{e}");
    assert!(
        e.to_string().contains("row 1 count 9 exceeds the width 4"),
        "{e}"
    );
    assert!(text::parse("size: 0x3\nfleet: 1\n").is_err());
    assert!(text::parse("size: 65x64\nfleet: 1\n").is_err());
    assert!(
        text::parse("size: 64x64\nfleet: 1\n")
            .unwrap()
            .build()
            .is_ok()
    );
    let fleet = broadside::Fleet::straight(&[1]);
    let zero = ProblemSpec::empty(broadside::Dims::new(0, 3), fleet, broadside::Rules::Touch);
    assert!(matches!(
        zero.build().unwrap_err().0[0],
        broadside::Invalid::Size(_)
    ));
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    let big = "99999999999999";
    let e = text::parse(&format!("size: {big}x{big}\nfleet: 1\nsolution:\n.\n")).unwrap_err();
    assert_eq!((e.line, e.column), (1, 7));
    let j =
        format!("{{\"width\": {big}, \"height\": {big}, \"fleet\": \"1\", \"solution\": [\".\"]}}");
    assert!(json::parse(&j).is_err());
    let l = format!(
        "{{\"height\": {big}, \"width\": {big}, \"rows\": [], \"cols\": [], \"fleet\": {{}}, \"hints\": [[0, 0, \"W\"]]}}"
    );
    assert!(format::jsonl::parse(&l).is_err());
    let d = format!(
        "height = {big}; width = {big}; maxship = 1; ship = [1]; rowsum = []; colsum = [];"
    );
    assert!(format::dzn::parse(&d).is_err());
    assert!(
        text::parse("size: 4x4\nfleet: 4000x4000 40x1\n")
            .unwrap()
            .build()
            .is_ok()
    );
}

/// What the conflict check says of the puzzle in `text`, one line per conflict.
fn conflicts(text: &str) -> Vec<String> {
    let p = text::parse(text).unwrap().build().unwrap();
    p.conflicts().iter().map(|c| c.to_string()).collect()
}

#[test]
fn conflicts_explain_impossible_puzzles() {
    let why = conflicts("size: 3x3\nfleet: 2\ngrid:\n  1 1 0\n1 . . .\n1 . . .\n1 . . .\n");
    assert!(
        why.iter()
            .any(|w| w.contains("row counts add up to 3 but the column counts to 2")),
        "{why:?}"
    );
    let why = conflicts("size: 4x1\nfleet: 5\n");
    assert!(why[0].contains("only 0 place(s) left for 1 ship(s) of type 5"));
    let why = conflicts("size: 3x3\nfleet: 2 1\ngrid:\n* . .\n. * .\n. . .\n");
    assert!(why.iter().any(|w| w.contains("touch diagonally")));
    let why = conflicts("size: 3x1\nfleet: 2\ngrid:\n^ . .\n");
    assert!(why.iter().any(|w| w.contains("cover the ^ clue at A1")));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// One ship more than a no-touch board can hold (one-cell ships, or a mix whose 2x2 blocks
    /// pass the board's), on any board up to 64x64: refuted without search, at once.
    #[test]
    fn over_full_no_touch_fleets_are_refuted_at_once(
        w in 1usize..=64, h in 1usize..=64, twos in 0usize..20,
    ) {
        use broadside::{Dims, Fleet, Rules, answer};
        let blocks = w.div_ceil(2) * h.div_ceil(2);
        // Each 2-ship covers at least one block, each 1-ship one: one ship over.
        let twos = if w.max(h) >= 2 { twos.min(blocks) } else { 0 };
        let mut lengths = vec![2; twos];
        lengths.extend(std::iter::repeat_n(1, blocks + 1 - twos));
        let spec = ProblemSpec::empty(Dims::new(w, h), Fleet::straight(&lengths), Rules::NoTouch);
        let start = std::time::Instant::now();
        let p = spec.build().unwrap();
        let no = answer::NoSolution::of(&p);
        prop_assert!(no.is_some(), "{w}x{h} with {} ships", lengths.len());
        prop_assert!(
            no.unwrap().reasons.iter().any(|r| r.contains("2x2 blocks")),
            "{w}x{h}"
        );
        prop_assert!(start.elapsed() < std::time::Duration::from_secs(2), "{:?}", start.elapsed());
    }

    /// The packing bound is sound: where it refutes a small no-touch problem (random fleets,
    /// clues and counts), a brute force finds no layout either.
    #[test]
    fn the_packing_bound_refutes_only_what_has_no_layout(seed in any::<u64>()) {
        if let Some((mut spec, _)) = common::planted(seed) {
            use rand::{RngExt, SeedableRng, rngs::StdRng};
            let mut rng = StdRng::seed_from_u64(seed);
            spec.rules = broadside::Rules::NoTouch;
            spec.solution = None;
            // More ships than the planted layout: often past the bound.
            let mut lengths: Vec<usize> = spec.fleet.types().iter()
                .filter_map(|t| t.shape.straight_len().map(|l| (l, t.count)))
                .flat_map(|(l, n)| std::iter::repeat_n(l, n))
                .collect();
            lengths.extend((0..rng.random_range(0..3)).map(|_| rng.random_range(1..=2)));
            spec.fleet = broadside::Fleet::straight(&lengths);
            spec.rows.clear();
            spec.cols.clear();
            let Ok(p) = spec.clone().build() else { return Ok(()) };
            let packing = p.conflicts().iter().any(|c| c.to_string().contains("2x2 blocks"));
            if packing && let Some(n) = common::naive_count_if_small(&spec) {
                prop_assert_eq!(n, 0, "{}", text::print(&spec));
            }
        }
    }

    /// Every writer's output reads back on every board shape, one cell wide or tall ones
    /// among them: a layout (as a recorded solution, in a game record with its shots, and in
    /// a samples file), in the text and JSON formats.
    #[test]
    fn what_broadside_writes_reads_back_on_every_size(
        w in 1usize..=64, h in 1usize..=64, seed in any::<u64>(), touch in any::<bool>(),
    ) {
        use broadside::{Dims, Fleet, Rules, play::{Game, Setup}, Sinking};
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let d = Dims::new(w, h);
        let mut rng = StdRng::seed_from_u64(seed);
        let longest = w.max(h).min(5);
        let lengths: Vec<usize> = (0..rng.random_range(1..=3)).map(|_| rng.random_range(1..=longest)).collect();
        let fleet = Fleet::straight(&lengths);
        let rules = if touch { Rules::Touch } else { Rules::NoTouch };
        let Some(layout) = common::random_layout(&mut rng, d, &fleet, rules) else {
            return Ok(());
        };
        // The layout as a puzzle's recorded solution.
        let mut spec = ProblemSpec::empty(d, fleet.clone(), rules);
        spec.solution = Some(layout.clone());
        round_trip(&spec);
        // As a game's hidden layout, fired at until every ship is sunk (what simulate --out
        // writes, one JSON line a game).
        let sinking = [Sinking::None, Sinking::Announced, Sinking::Revealed][rng.random_range(0..3)];
        let setup = Setup { dims: d, fleet: fleet.clone(), rules, sinking, rocks: Vec::new() };
        let mut game = Game::new(setup, layout.clone());
        let mut cells: Vec<usize> = (0..d.cells()).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        for c in cells {
            if game.is_over() {
                break;
            }
            game.fire(c);
        }
        let record = game.record_with_layout();
        round_trip(&record);
        let line = serde_json::to_string(&json::JsonProblem::from_spec(&record)).unwrap();
        let back = format::read("games.jsonl", &line).unwrap();
        prop_assert_eq!(&back[0], &record);
        prop_assert!(broadside::play::replays(&back[0]).is_ok());
        // As a sample, as `sample --json` writes it.
        let sample = serde_json::json!({"layout": layout.to_rows(d, &fleet)}).to_string();
        let read = format::samples::read("s.jsonl", &sample, d, &fleet).unwrap();
        prop_assert_eq!(&read[0], &layout);
    }

    #[test]
    fn random_specs_round_trip(seed in any::<u64>()) {
        if let Some((mut spec, layout)) = common::planted(seed) {
            spec.solution = Some(layout);
            spec.meta.name = Some(format!("random {seed}"));
            round_trip(&spec);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let s = String::from_utf8_lossy(&bytes);
        for name in ["x.txt", "x.json", "x.jsonl", "x.dzn", "-"] {
            exercise(name, &s);
        }
    }

    #[test]
    fn random_symbol_soup_never_panics(s in "[ \\n0-9x?:.~*o<>^vm#a-z/\\[\\]|=;,{}\"-]{0,300}") {
        for name in ["x.txt", "x.dzn", "x.json"] {
            exercise(name, &s);
        }
        let _ = format::read("x.txt", &format!("size: 4x4\nfleet: 2 1\ngrid:\n{s}"));
    }
}

#[test]
fn truncated_files_never_panic() {
    let mut inputs: Vec<(String, String)> = common::text_files(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/puzzles"
    ))
    .into_iter()
    .take(8)
    .map(|p| {
        (
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        )
    })
    .collect();
    for (lang, body) in doc_examples() {
        inputs.push((
            format!(
                "x.{}",
                if lang == "broadside" {
                    "txt"
                } else if lang == "xcsp" {
                    "json"
                } else {
                    &lang
                }
            ),
            body,
        ));
    }
    for (name, content) in inputs {
        for cut in 0..content.len() {
            if content.is_char_boundary(cut) {
                exercise(&name, &content[..cut]);
            }
        }
    }
}

#[test]
fn text_files_hold_several_problems_separated_by_dashes() {
    let one = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/puzzles/10x10/rubin-113.txt"
    ))
    .unwrap();
    let two = format!("{one}---\n{one}");
    let specs = format::read("two.txt", &two).unwrap();
    assert_eq!(specs.len(), 2);
    assert_eq!(specs[0], specs[1]);
    // An error in the second problem is reported at its line in the whole file.
    let lines = one.lines().count();
    let broken = format!("{one}---\nsize: 10x10\nfleet: 4 3\nnonsense here\n");
    let e = format::read("broken.txt", &broken).unwrap_err();
    assert_eq!(e.line, lines + 4, "{e}");
}
