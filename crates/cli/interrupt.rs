//! Ctrl-C: what a long run does when it is asked to stop. `simulate` finishes the games under
//! way and keeps what it played ([`stop_on_ctrl_c`]: a second Ctrl-C ends it at once); `play`
//! says where its record is and ends ([`exit_on_ctrl_c`]: the record is written after every
//! shot).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C once [`stop_on_ctrl_c`] is in place.
static STOP: AtomicBool = AtomicBool::new(false);

/// The message the exiting handler writes before it ends the program.
static MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();

#[cfg(unix)]
extern "C" fn stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
    // SAFETY: signal(2) is async-signal-safe; a second Ctrl-C then ends the program.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

#[cfg(unix)]
extern "C" fn exit(_: libc::c_int) {
    if let Some(msg) = MESSAGE.get() {
        // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer lives for ever.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
        }
    }
    // SAFETY: as above.
    unsafe { libc::_exit(130) }
}

/// From now on the first Ctrl-C sets the flag returned (the run stops at its next chance and
/// keeps its work) and a second ends the program.
pub fn stop_on_ctrl_c() -> &'static AtomicBool {
    #[cfg(unix)]
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(
            libc::SIGINT,
            stop as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
    &STOP
}

/// From now on Ctrl-C writes `message` to standard error and ends the program (exit 130).
pub fn exit_on_ctrl_c(message: String) {
    let _ = MESSAGE.set(message.into_bytes());
    #[cfg(unix)]
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(
            libc::SIGINT,
            exit as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}
