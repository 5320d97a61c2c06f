//! Ctrl-C: what a long run does when it is asked to stop. `simulate` finishes the games under
//! way and keeps what it played ([`stop_on_ctrl_c`]: a second Ctrl-C ends it at once); `play`
//! says where its record is and ends ([`exit_on_ctrl_c`]: the record is written after every
//! shot).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C once [`stop_on_ctrl_c`] is in place, or when a time limit
/// ([`stop_on_ctrl_c_or_after`]) runs out.
static STOP: AtomicBool = AtomicBool::new(false);

/// Set when the time limit ran out (and so set [`STOP`]).
static TIMED_OUT: AtomicBool = AtomicBool::new(false);

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

/// [`stop_on_ctrl_c`], and the flag is also set once `limit` has passed (if given): a long
/// run's `--time-limit`. [`timed_out`] then says which of the two stopped it.
pub fn stop_on_ctrl_c_or_after(limit: Option<std::time::Duration>) -> &'static AtomicBool {
    let stop = stop_on_ctrl_c();
    if let Some(limit) = limit {
        // A timer that outlives the run is harmless: the process ends with the run.
        let _ = std::thread::Builder::new()
            .name("broadside-time-limit".into())
            .spawn(move || {
                std::thread::sleep(limit);
                TIMED_OUT.store(true, Ordering::SeqCst);
                STOP.store(true, Ordering::SeqCst);
            });
    }
    stop
}

/// Whether the time limit of [`stop_on_ctrl_c_or_after`] stopped the run.
pub fn timed_out() -> bool {
    TIMED_OUT.load(Ordering::SeqCst)
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

/// After a run stopped early with `done` of `asked` games played: says so on standard error,
/// and whether that is still an answer (a time limit's partial answer is, exit 0; a Ctrl-C's
/// is not, exit 1).
pub fn partial(done: u64, asked: u64, then: &str) -> bool {
    let why = if timed_out() {
        "time limit reached"
    } else {
        "interrupted"
    };
    eprintln!("partial: {why} after {done} of {asked} games{then}");
    timed_out()
}
