//! Every file the command line writes, written where it cannot be: into a folder that does not
//! exist, onto a full device (`/dev/full`), and over a folder standing where the file should
//! go. Each time the command says which file, exits with 2 (refused before any work) or 3
//! (could not finish), never panics, never replaces `/dev/full` or the folder, and leaves no
//! temporary file behind; an existing file it would have replaced is left as it was.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::Output;

use cli::run;

const GAME: &str = "puzzles/game/kancko-5x5.txt";
const PUZZLE: &str = "puzzles/6x6/luke-0.txt";

/// A command that writes the file `{}` stands for, and what it reads on standard input.
struct Writer {
    args: Vec<&'static str>,
    stdin: &'static str,
}

fn writers() -> Vec<Writer> {
    let w = |args: &[&'static str], stdin: &'static str| Writer {
        args: args.to_vec(),
        stdin,
    };
    vec![
        w(&["probs", GAME, "--svg", "{}"], ""),
        w(&["count", "--dimacs", "{}", PUZZLE], ""),
        w(
            &[
                "simulate",
                "--shooter",
                "density",
                "--games",
                "3",
                "--out",
                "{}",
            ],
            "",
        ),
        w(
            &[
                "simulate",
                "--shooter",
                "density",
                "--games",
                "3",
                "--shots",
                "{}",
            ],
            "",
        ),
        w(
            &[
                "simulate",
                "--shooter",
                "greedy",
                "--games",
                "1",
                "--size",
                "5x5",
                "--fleet",
                "3 2",
                "--book",
                "{}",
            ],
            "",
        ),
        w(
            &[
                "summarize",
                "docs/results/touch-announced-random.json",
                "--save",
                "{}",
            ],
            "",
        ),
        w(&["advise", GAME], "save {}\nquit\n"),
    ]
}

/// The command for `w` writing to `target`.
fn args_for(w: &Writer, target: &Path) -> (Vec<String>, String) {
    let t = target.to_str().unwrap();
    (
        w.args.iter().map(|a| a.replace("{}", t)).collect(),
        w.stdin.replace("{}", t),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("broadside-writes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The command failed as it should: 2 or 3 (advise goes on after a failed save: 0), the
/// target named, no panic.
fn failed_naming(o: &Output, what: &str, target: &Path, interactive: bool) {
    let err = String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(!err.contains("panicked"), "{what}: {err}");
    let code = o.status.code();
    if interactive {
        assert_eq!(code, Some(0), "{what}: {err}");
    } else {
        assert!(matches!(code, Some(2 | 3)), "{what}: exit {code:?}: {err}");
    }
    assert!(
        err.contains(target.to_str().unwrap()),
        "{what}: the message does not name {}: {err}",
        target.display()
    );
}

#[test]
fn a_missing_folder_is_named() {
    let dir = scratch("missing");
    for w in writers() {
        let target = dir.join("no-such-folder").join("out.file");
        let (args, stdin) = args_for(&w, &target);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args, &stdin);
        failed_naming(&o, &format!("{args:?}"), &target, w.args[0] == "advise");
        assert!(listing(&dir).is_empty(), "{args:?}: {:?}", listing(&dir));
    }
}

#[test]
fn a_full_device_is_named_and_never_replaced() {
    let full = Path::new("/dev/full");
    if std::fs::OpenOptions::new().write(true).open(full).is_err() {
        eprintln!("skipped: no /dev/full here");
        return;
    }
    use std::os::unix::fs::FileTypeExt;
    for w in writers() {
        let (args, stdin) = args_for(&w, full);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args, &stdin);
        failed_naming(&o, &format!("{args:?}"), full, w.args[0] == "advise");
        let kind = std::fs::metadata(full).unwrap().file_type();
        assert!(kind.is_char_device(), "{args:?} replaced /dev/full");
    }
}

#[test]
fn a_folder_in_the_way_is_left_as_it_was() {
    // A folder where the file should go (with a file in it): the write fails at its last
    // step, the rename over the folder; the folder and its file stay, and no temporary file
    // is left beside it.
    let dir = scratch("folder");
    for w in writers() {
        let target = dir.join("target");
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("kept.txt"), "kept").unwrap();
        let (args, stdin) = args_for(&w, &target);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args, &stdin);
        failed_naming(&o, &format!("{args:?}"), &target, w.args[0] == "advise");
        assert_eq!(listing(&dir), ["target"], "{args:?}");
        assert_eq!(
            std::fs::read_to_string(target.join("kept.txt")).unwrap(),
            "kept"
        );
    }
}

#[test]
fn an_existing_file_is_replaced_whole() {
    // Where the write can succeed, the old file is replaced by a whole new one and nothing
    // else is left in the folder.
    let dir = scratch("replace");
    for w in writers() {
        // `--out` and the book keep their runs: an old file of other arguments is refused,
        // not replaced, and that is a test of its own (tests/cli.rs).
        if w.args.contains(&"--out") || w.args.contains(&"--book") {
            continue;
        }
        let target = dir.join("target");
        std::fs::write(&target, "old").unwrap();
        let (args, stdin) = args_for(&w, &target);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args, &stdin);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let new = std::fs::read(&target).unwrap();
        assert!(new.len() > 3 && new != b"old", "{args:?}");
        assert_eq!(listing(&dir), ["target"], "{args:?}");
    }
}
