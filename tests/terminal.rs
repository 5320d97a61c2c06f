//! `broadside advise` and `broadside play`: fed lines on standard input, and run in a real
//! terminal under tmux (skipped, saying so, where tmux is absent).

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cli::run;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in the system's temporary directory, removed when the test is done with it.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp(name: &str) -> Scratch {
    Scratch(std::env::temp_dir().join(format!("broadside-terminal-{}-{name}", std::process::id())))
}

/// The count `broadside probs` gives a record.
fn probs_count(record: &str) -> String {
    let out = run(&["probs", "-"], record);
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    first
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn advise_answers_every_line_as_probs_does() {
    let head = "size: 5x5\nfleet: 3 2\nrules: touch\nsinking: announced\n";
    let saved = temp("advised.txt");
    let input = format!(
        "C3 hit\nC3 miss\nZ9 miss\nC4 sunk 9\nC4 sunk 2\nhelp\nB2 miss\nundo\nA1 miss\nsave {}\nquit\nE5 miss\n",
        saved.display()
    );
    let out = run(&["advise", "--size", "5x5", "--fleet", "3 2"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The count after each accepted line is what `probs` says of the same record.
    let counts: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("after "))
        .map(|l| l.split(": ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    let states = [
        "",
        "C3 hit\n",
        "C3 hit\nC4 sunk 2\n",
        "C3 hit\nC4 sunk 2\nB2 miss\n",
        "C3 hit\nC4 sunk 2\n",
        "C3 hit\nC4 sunk 2\nA1 miss\n",
    ];
    let want: Vec<String> = states
        .iter()
        .map(|s| {
            let shots = if s.is_empty() {
                String::new()
            } else {
                format!("shots:\n{s}")
            };
            probs_count(&format!("{head}{shots}"))
        })
        .collect();
    assert_eq!(counts, want, "{stdout}");
    // Refused lines say why and change nothing.
    assert!(
        stdout.contains("refused \"C3 miss\": invalid problem: cell C3 is fired at twice"),
        "{stdout}"
    );
    assert!(
        stdout.contains("refused \"Z9 miss\": cell Z9 is off the 5x5 board"),
        "{stdout}"
    );
    assert!(
        stdout.contains("refused \"C4 sunk 9\": the fleet has no ship type \"9\""),
        "{stdout}"
    );
    assert!(stdout.contains("took back B2"));
    assert!(stdout.contains("best: "));
    // `quit` ends it: the line after it is not read.
    assert_eq!(stdout.matches("after ").count(), 6);
    // The saved record reads back as the position.
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(
        record.ends_with("shots:\nC3 hit\nC4 sunk 2\nA1 miss\n"),
        "{record}"
    );
    assert_eq!(probs_count(&record), want[5]);
    // Piped output is not coloured.
    assert!(!stdout.contains('\x1b'));
}

#[test]
fn advise_starts_from_a_record_and_refuses_an_impossible_shot_with_its_reasons() {
    let record = temp("start.txt");
    std::fs::write(
        &record,
        "size: 3x3\nfleet: 2\nrules: touch\nsinking: announced\nshots:\nA1 miss\nC1 miss\n",
    )
    .unwrap();
    let out = run(
        &["advise", record.to_str().unwrap()],
        "B2 miss\nB1 sunk 2\nA2 hit\n",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    let head = "size: 3x3\nfleet: 2\nrules: touch\nsinking: announced\nshots:\nA1 miss\nC1 miss\n";
    let start = probs_count(head);
    assert!(
        stdout.starts_with(&format!("after 2 shots: {start} layouts")),
        "{stdout}"
    );
    assert!(
        stdout.contains("refused \"B1 sunk 2\": no layout is consistent with these shots"),
        "{stdout}"
    );
    let end = probs_count(&format!("{head}B2 miss\nA2 hit\n"));
    assert!(
        stdout.contains(&format!("after 4 shots: {end} layouts")),
        "{stdout}"
    );
    // Options that a record already gives are refused.
    let out = run(&["advise", record.to_str().unwrap(), "--size", "4x4"], "");
    assert_eq!(out.status.code(), Some(2));
    // A record no layout fits is an answer "no" before any line.
    std::fs::write(&record, "size: 3x3\nfleet: 2\nrules: touch\nsinking: announced\nshots:\nA1 miss\nB1 sunk 2\nC1 miss\nB2 miss\n").unwrap();
    let out = run(&["advise", record.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn play_piped_to_the_end_saves_a_record_every_command_reads() {
    let saved = temp("played.txt");
    let cells: String = (1..=4)
        .flat_map(|r| ["A", "B", "C", "D"].map(|c| format!("{c}{r}\n")))
        .collect();
    let args = [
        "play",
        "--size",
        "4x4",
        "--fleet",
        "3 2",
        "--seed",
        "5",
        "--shooter",
        "random",
        "--save",
        saved.to_str().unwrap(),
    ];
    let out = run(&args, &format!("Z1\n{cells}"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("not a cell"), "{stdout}");
    assert!(stdout.contains("win"), "{stdout}");
    let record = std::fs::read_to_string(&saved).unwrap();
    // Both boards, both fleets revealed at the end.
    assert_eq!(record.matches("solution:").count(), 2, "{record}");
    let out = run(&["count", saved.to_str().unwrap()], "");
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("your-shots: "));
    // An existing record is not replaced unless asked: a new game refuses it, and one
    // without --save takes the next free name.
    let refused = run(&args, &format!("Z1\n{cells}"));
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(text(&refused.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), record);
    // The same seed plays the same game.
    let mut forced = args.to_vec();
    forced.push("--force");
    let again = run(&forced, &format!("Z1\n{cells}"));
    assert_eq!(text(&again.stdout), stdout);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), record);
}

/// A program in a real terminal: tmux.
struct Tmux {
    session: String,
}

impl Tmux {
    fn start(command: &str) -> Option<Tmux> {
        let ok = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("SKIPPED: tmux is not installed (apt-get install tmux)");
            return None;
        }
        // A name of its own per test, and a few tries: tests start in parallel, and the
        // first to reach tmux starts its server, which another may meet half started.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let session = format!("broadside-test-{}-{n}", std::process::id());
        let mut tries = 0;
        loop {
            let o = Command::new("tmux")
                .args([
                    "new-session",
                    "-d",
                    "-x",
                    "120",
                    "-y",
                    "50",
                    "-s",
                    &session,
                    command,
                ])
                .output()
                .unwrap();
            tries += 1;
            if o.status.success() {
                break;
            }
            assert!(tries < 5, "tmux: {}", String::from_utf8_lossy(&o.stderr));
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Some(Tmux { session })
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.session])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn screen(&self, escapes: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-t", &self.session];
        if escapes {
            args.push("-e");
        }
        text(&Command::new("tmux").args(&args).output().unwrap().stdout)
    }

    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen(false);
            if screen.contains(what) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no {what:?} on:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.session])
            .status();
    }
}

#[test]
fn play_in_a_terminal_saves_the_record_on_ctrl_c() {
    let saved = temp("ctrl-c.txt");
    let bin = env!("CARGO_BIN_EXE_broadside");
    let command = format!(
        "{bin} play --size 5x5 --fleet '3 2' --seed 2 --shooter density --show-heat --save {}; sleep 30",
        saved.display()
    );
    let Some(t) = Tmux::start(&command) else {
        return;
    };
    t.wait_for("your shot>");
    // In a terminal the boards are coloured (NO_COLOR is not set in this session).
    t.keys(&["A1", "Enter"]);
    t.wait_for("you fire at A1");
    t.wait_for("the computer's heat map of your board");
    t.keys(&["C-c"]);
    let screen = t.wait_for("interrupted: the game record is saved in");
    assert!(screen.contains(&saved.display().to_string()));
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(record.contains("shots:\nA1 "), "{record}");
    // Saved during the game: the computer's fleet is not given away.
    assert_eq!(record.matches("solution:").count(), 1);
}

/// Ctrl-C while the computer thinks over its reply keeps the person's shot: it is saved
/// before the computer starts.
#[test]
fn ctrl_c_while_the_computer_thinks_keeps_the_persons_shot() {
    let saved = temp("thinking.txt");
    let bin = env!("CARGO_BIN_EXE_broadside");
    // Monte Carlo search with a million rollouts a shot on the standard board: seconds of
    // thought after each of the person's shots.
    let command = format!(
        "{bin} play --seed 3 --shooter mcts:1000000 --save {}; sleep 30",
        saved.display()
    );
    let Some(t) = Tmux::start(&command) else {
        return;
    };
    t.wait_for("your shot>");
    t.keys(&["B2", "Enter"]);
    t.wait_for("you fire at B2");
    t.keys(&["C-c"]);
    t.wait_for("interrupted: the game record is saved in");
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(record.contains("shots:\nB2 "), "{record}");
}

#[test]
fn colour_in_a_terminal_and_none_with_no_color() {
    let bin = env!("CARGO_BIN_EXE_broadside");
    for (env, coloured) in [("", true), ("NO_COLOR=1 ", false)] {
        let command =
            format!("env -u NO_COLOR {env}{bin} advise --size 5x5 --fleet '3 2'; sleep 30");
        let Some(t) = Tmux::start(&command) else {
            return;
        };
        t.wait_for("after 0 shots");
        t.keys(&["B5 miss", "Enter"]);
        t.wait_for("after 1 shot: 783 layouts");
        let screen = t.screen(true);
        assert_eq!(screen.contains("\x1b["), coloured, "{env}: {screen}");
        t.keys(&["quit", "Enter"]);
    }
}
