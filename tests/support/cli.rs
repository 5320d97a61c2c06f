//! The `broadside` binary run with arguments and standard input, as the tests of the
//! interactive commands and of the server compare against it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `broadside ARGS` with `stdin` on standard input (NO_COLOR unset, so that colour is
/// decided by the terminal alone) and waits for it.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("broadside runs");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.as_bytes())
        .expect("stdin takes the input");
    drop(input);
    child.wait_with_output().expect("broadside ends")
}
