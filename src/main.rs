//! The `broadside` command: arguments and printing around the library ([`cli`]).

mod cli;

fn main() -> std::process::ExitCode {
    // A closed pipe (`broadside ... | head`) ends the program quietly, as it does for other
    // command-line tools, instead of failing on the next write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::main()
}
