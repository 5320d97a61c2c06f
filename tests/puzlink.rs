//! puzz.link URLs: real puzzles shared as URLs (from the tests and examples of pzprjs, cspuz
//! and solvers built on them) read as the puzzles they are, and every bundled no-touch puzzle
//! goes to a URL and back unchanged. The CLI takes a URL wherever it takes a file.

use std::path::Path;
use std::process::Command;

use broadside::format::{self, puzlink};
use broadside::{Clue, CountOptions, Engine, ProblemSpec, Rules, Segment};

/// Real URLs, each a puzzle with one solution.
const REAL: [&str; 7] = [
    // cspuz_core's battleship test, also the example of a puzz.link client.
    "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
    "https://puzz.link/p?battleship/6/6/g23h1g1g23gl0l0l0l0l0g/6/11g/11g/11g/21o/21o/31s",
    "https://puzz.link/p?battleship/10/10/13h44i121h44i2zw6m0n0m5zw//d",
    "https://pzprxs.vercel.app/p?battleship/9/9/234223211141152114zzg6zy//d",
    "https://pzprxs.vercel.app/p?battleship/9/9/111622223141114161zg5zzy//d",
    // Polyomino fleets: pieces as codes, a middle clue on a polyomino cell.
    "https://puzz.link/p?battleship/9/9/g5k4i4g5g5hv5i1zy1i5v/6/12o/12o/12o/23ng/23ng/35iff",
    "https://puzz.link/p?battleship/12/12/ag75g2g8h6j3g4g65hap0q0u0j0v0o0k0t00h0j0y0h0r0i0i/12/337k/15v/24as/24bo/23fg/337i/23rg/334u/335s/33bk/24bk/337p",
];

fn count(spec: &ProblemSpec) -> u128 {
    let p = spec.clone().build().unwrap();
    let r = Engine::Auto.count(&p, &CountOptions::default()).unwrap();
    assert!(r.complete);
    r.count
}

#[test]
fn real_urls_read_as_their_puzzles() {
    for url in REAL {
        let spec = puzlink::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
        assert_eq!(spec.rules, Rules::NoTouch);
        assert_eq!(
            count(&spec),
            1,
            "{url}: a published puzzle has one solution"
        );
    }
    // The first, field by field (cspuz's test reads it so): columns then rows, a water
    // cell at row 1 column 6 and a left end at row 4 column 1, the fleet //c.
    let spec = puzlink::parse(REAL[0]).unwrap();
    assert_eq!(spec.cols, [None, Some(1), Some(2), None, None, Some(2)]);
    assert_eq!(spec.rows, [None, Some(3), Some(0), None, Some(3), None]);
    let clues: Vec<(usize, Clue)> = spec
        .clues
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, c)))
        .collect();
    assert_eq!(
        clues,
        [(5, Clue::Water), (18, Clue::Segment(Segment::Left))]
    );
    assert_eq!(spec.fleet.describe(), "3 2 2 1 1 1");
    // A URL without the scheme, or from another host, is the same puzzle.
    for form in [
        "puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
        "http://pzv.jp/p.html?battleship/6/6/g12h2g30g3gk0r3w//c",
    ] {
        assert_eq!(puzlink::parse(form).unwrap(), spec, "{form}");
    }
    // The presets: //d is pzprjs's default fleet, //e the five-length one, //t the
    // tetrominoes, //p the pentominoes.
    let fleet = |tail: &str| {
        puzlink::parse(&format!("https://puzz.link/p?battleship/8/8/{tail}"))
            .unwrap()
            .fleet
            .describe()
    };
    assert_eq!(fleet("//d"), "4 3 3 2 2 2 1 1 1 1");
    assert_eq!(fleet(""), fleet("//d"));
    assert_eq!(fleet("//e"), "5 4 4 3 3 3 2 2 2 2 5x1");
    assert_eq!(
        fleet("//t"),
        "4 tetromino-L tetromino-T tetromino-O tetromino-S"
    );
    assert_eq!(fleet("/3/21o/12o/31s"), "3 2 2");
}

#[test]
fn bad_urls_say_where_and_why() {
    for (url, col, says) in [
        (
            "https://puzz.link/p?nurikabe/6/6/g",
            21,
            "not of a Battleship puzzle",
        ),
        ("https://puzz.link/p?battleship/6/x/g", 34, "number of rows"),
        (
            "https://puzz.link/p?battleship/6/6/g12!//c",
            39,
            "unexpected '!'",
        ),
        (
            "https://puzz.link/p?battleship/2/2/g9zz//c",
            0,
            "more than the 2 cells",
        ),
        (
            "https://puzz.link/p?battleship/2/2/hh7//c",
            0,
            "corner clue",
        ),
        (
            "https://puzz.link/p?battleship/2/2/hhh//q",
            0,
            "unknown fleet preset",
        ),
        (
            "https://puzz.link/p?battleship/2/2/hhh/2/21o",
            0,
            "2 pieces announced, 1",
        ),
        (
            "https://puzz.link/p?battleship/2/2/hhh/1/2!",
            0,
            "not a piece",
        ),
        // A negative size is no flag word; columns count characters, not bytes.
        (
            "https://puzz.link/p?battleship/-5/6/g12h2g30g3gk0r3w//c",
            32,
            "number of columns, a whole number, not \"-5\"",
        ),
        (
            "https://puzz.link/p?battleship/6/6/g12\u{c3}\u{c3}h2g30g3gk0r3w//c",
            39,
            "unexpected '\u{c3}'",
        ),
    ] {
        let e = puzlink::parse(url).unwrap_err();
        assert!(e.to_string().contains(says), "{url}: {e}");
        assert_eq!(e.line, 1, "{url}");
        if col > 0 {
            assert_eq!(e.column, col, "{url}: {e}");
        }
    }
}

#[test]
fn a_long_text_in_a_url_is_quoted_short() {
    let url = format!(
        "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//{}",
        "x".repeat(12_000)
    );
    let e = puzlink::parse(&url).unwrap_err().to_string();
    assert!(e.len() < 200, "{} bytes: {e}", e.len());
    assert!(e.contains("(12002 characters)"), "{e}");
}

/// Every problem in the bundled puzzles, with its file.
fn bundled() -> Vec<(String, ProblemSpec)> {
    fn walk(dir: &Path, out: &mut Vec<(String, ProblemSpec)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "txt" || x == "jsonl") {
                let name = path.display().to_string();
                let text = std::fs::read_to_string(&path).unwrap();
                for spec in format::read(&name, &text).unwrap() {
                    out.push((name.clone(), spec));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles"),
        &mut out,
    );
    out
}

/// Counts and clues as the URL keeps them: none given is an empty list.
fn normal(mut s: ProblemSpec) -> ProblemSpec {
    for v in [&mut s.rows, &mut s.cols] {
        if v.iter().all(Option::is_none) {
            v.clear();
        }
    }
    if s.clues.iter().all(Option::is_none) {
        s.clues.clear();
    }
    s.solution = None;
    s.meta = Default::default();
    s
}

#[test]
fn every_bundled_no_touch_puzzle_goes_to_a_url_and_back() {
    let (mut written, mut refused) = (0, 0);
    for (file, spec) in bundled() {
        let holdable = spec.rules == Rules::NoTouch
            && spec.observations.shots.is_empty()
            && !spec.clues.contains(&Some(Clue::Blocked));
        match puzlink::write(&spec) {
            Ok(url) => {
                assert!(holdable, "{file}: written though the format cannot hold it");
                let back = puzlink::parse(&url).unwrap_or_else(|e| panic!("{file}: {url}: {e}"));
                let (a, b) = (normal(spec.clone()), normal(back));
                assert_eq!(a.dims, b.dims, "{file}");
                assert_eq!(a.rows, b.rows, "{file}");
                assert_eq!(a.cols, b.cols, "{file}");
                assert_eq!(a.clues, b.clues, "{file}");
                assert_eq!(a.rules, b.rules, "{file}");
                let shapes = |s: &ProblemSpec| -> Vec<_> {
                    s.fleet
                        .types()
                        .iter()
                        .map(|t| (t.shape.clone(), t.count))
                        .collect()
                };
                assert_eq!(shapes(&a), shapes(&b), "{file}");
                written += 1;
            }
            Err(e) => {
                assert!(!holdable, "{file}: {e}");
                refused += 1;
            }
        }
    }
    // The real puzzles (puzzles/external) and the made ones are all no-touch.
    assert!(written >= 400, "{written} written, {refused} refused");
}

/// Every bundled no-touch puzzle goes to a pzprv3 file (pzprjs's own) and back, its counts,
/// clues, fleet and progress kept; what the format cannot hold is refused.
#[test]
fn every_bundled_no_touch_puzzle_goes_to_a_pzprv3_file_and_back() {
    use broadside::format::pzprv3;
    let (mut written, mut refused) = (0, 0);
    for (file, spec) in bundled() {
        let holdable = spec.rules == Rules::NoTouch
            && spec.observations.shots.is_empty()
            && !spec.clues.contains(&Some(Clue::Blocked));
        match pzprv3::write(&spec) {
            Ok(text) => {
                assert!(holdable, "{file}: written though the format cannot hold it");
                let back = format::read("x.pzprv3", &text)
                    .unwrap_or_else(|e| panic!("{file}:\n{text}\n{e}"))
                    .remove(0);
                let (mut a, b) = (normal(spec.clone()), normal(back));
                // pzprjs keeps no mark on a clue's cell.
                for (mark, clue) in a.progress.iter_mut().zip(&spec.clues) {
                    if clue.is_some() {
                        *mark = broadside::Know::Unknown;
                    }
                }
                if a.progress.iter().all(|&k| k == broadside::Know::Unknown) {
                    a.progress.clear();
                }
                assert_eq!(
                    (&a.dims, &a.rows, &a.cols),
                    (&b.dims, &b.rows, &b.cols),
                    "{file}"
                );
                assert_eq!(
                    (&a.clues, &a.progress, a.rules),
                    (&b.clues, &b.progress, b.rules),
                    "{file}"
                );
                assert_eq!(a.fleet.cell_count(), b.fleet.cell_count(), "{file}");
                assert_eq!(a.fleet.ship_count(), b.fleet.ship_count(), "{file}");
                written += 1;
            }
            Err(e) => {
                assert!(!holdable, "{file}: {e}");
                refused += 1;
            }
        }
    }
    assert!(written >= 400, "{written} written, {refused} refused");
}

/// The real files of pzprjs's tests (`test/script/battleship.js`): its solved state of the
/// 6x6 test puzzle reads as solved, and a polyomino board's corner clue is refused.
#[test]
fn pzprjs_s_own_files_read() {
    let solved = "pzprv3/battleship/6/6/c/. . 1 2 . . 2 /. . . . . . 0 /3 . . . . . . /0 . . . . . . /. 3 . . . . . /3 . . . . . . /. . . . . . . /+ + # + + + /# + # + + # /+ + + + + + /+ # + + + + /+ + + # # # /# + + + + + /0 0 0 0 0 0 /";
    let spec = format::read("-", solved).unwrap().remove(0);
    let p = spec.build().unwrap();
    let r = broadside::answer::check(&p, &broadside::answer::Options::new()).unwrap();
    assert!(r.solved, "{r:?}");
    // A mistake in it (D6 marked a ship) is found.
    let wrong = solved.replace("/# + + + + + /0", "/# + + # + + /0");
    let p = format::read("-", &wrong)
        .unwrap()
        .remove(0)
        .build()
        .unwrap();
    let r = broadside::answer::check(&p, &broadside::answer::Options::new()).unwrap();
    assert_eq!(r.mistakes, ["D6"]);
    let copy_answer =
        "pzprv3/battleship/1/4/d/. . . . . /. 3 5 . . /. . # . /0 0 0 0 0 0 0 0 0 0 /";
    let spec = format::read("-", copy_answer).unwrap().remove(0);
    assert_eq!(
        (spec.fleet.ship_count(), spec.progress[2]),
        (10, broadside::Know::Ship)
    );
    let corner =
        "pzprv3/battleship/1/4/p/. . . . . /1 2 10 0 . /. . . . /0 0 0 0 0 0 0 0 0 0 0 0 /";
    let e = format::read("-", corner).unwrap_err().to_string();
    assert!(e.contains("corner clue"), "{e}");
}

#[test]
fn the_cli_takes_a_url_for_a_file_and_writes_one() {
    let bin = env!("CARGO_BIN_EXE_broadside");
    let o = Command::new(bin).args(["count", REAL[0]]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 solution"));
    let o = Command::new(bin)
        .args(["convert", "--to", "puzlink", REAL[0]])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), REAL[0]);
    // A touching game has no URL: a clear refusal, exit 2.
    let root = env!("CARGO_MANIFEST_DIR");
    let o = Command::new(bin)
        .args([
            "convert",
            "--to",
            "puzlink",
            &format!("{root}/puzzles/game/standard-game.txt"),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("never touch"));
    // A bad URL: exit 2, the column named.
    let o = Command::new(bin)
        .args(["solve", "https://puzz.link/p?battleship/6/6/g12!//c"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("column 39"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A file of URLs, one a line, is read as such.
    let path = std::env::temp_dir().join(format!("broadside-urls-{}.txt", std::process::id()));
    std::fs::write(&path, format!("{}\n\n{}\n", REAL[0], REAL[3])).unwrap();
    let o = Command::new(bin)
        .args(["count", path.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout)
            .matches("1 solution")
            .count(),
        2
    );
}
