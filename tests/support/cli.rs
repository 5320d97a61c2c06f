//! The `broadside` binary run with arguments and standard input, from the project's folder (so
//! that paths like `puzzles/...` name the bundled files): the one way every test file runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `broadside ARGS` in the project's folder with `stdin` on standard input (NO_COLOR
/// unset, so that colour is decided by the terminal alone) and waits for it.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("broadside runs");
    let mut input = child.stdin.take().expect("stdin");
    // A command that refuses its arguments may end before it reads a line: its input
    // is then a closed pipe, which is no failure of the test (its exit code and output
    // say what happened).
    match input.write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.expect("stdin takes the input"),
    }
    drop(input);
    child.wait_with_output().expect("broadside ends")
}
