//! The command's allocator: the C library's, with its heaps grown in large steps that are
//! backed by transparent huge pages.
//!
//! The DP's passes fill tens of megabytes of fresh memory in a tenth of a second. On a
//! virtual machine each first touch of a 4 KiB page costs a few microseconds (about 3.5 µs
//! on the machine of `docs/PERFORMANCE.md`), so the 6,100 page faults of the empty 10x10
//! board's touching count cost about a tenth of its time; a 2 MiB page takes one fault for
//! 512. [`tune`] tells glibc's `malloc` to keep blocks under 32 MiB on its heaps, to grow them
//! 64 MiB at a time and to give freed memory back to the system only past 128 MiB, and
//! [`Heap`] asks the kernel for huge pages on the stretches the heaps grow by. The choice is
//! the command's alone: the library allocates as any Rust library does.
//!
//! glibc gives a thread that allocates beside others a heap of its own (an *arena*, in a
//! 64 MiB reservation aligned to its size), and the DP's workers, whose lists grow as they
//! fill them, allocate there. [`Heap`] advises huge pages on such a reservation the first time
//! it hands out a block from it: a block's header says whether it is the main heap's and
//! whether it was mapped apart. With the larger steps, glibc makes a thread's heap whole at
//! once. One heap for every thread instead (`M_ARENA_MAX` 1) saved as much on the counts, but
//! its lock made exact greedy's self-play 15% slower and the enumerator's per-cell counts 5%.
//!
//! The first 2 MiB of each heap keep 4 KiB pages: a small job's blocks fit in them, and a huge
//! page costs a job that touches a few of its pages more than it saves (the empty standard
//! game's heat map, 25 ms of work on few blocks, took 13 to 47% more CPU time with them).
//!
//! Where transparent huge pages are off (`/sys/kernel/mm/transparent_hugepage/enabled` set to
//! `never`), the advice is ignored and the heaps behave as glibc's with the larger steps.
//!
//! **Switched off** where the steps would not fit: under a limit on the address space
//! (`ulimit -v`, as shared machines and batch systems set it), whose every 64 MiB step and
//! thread heap counts against the limit (there every thread allocates from the main heap),
//! and when `BROADSIDE_HEAP=system` asks for the C library's allocator as it is. Either way, a block that cannot be had ends the command with
//! "out of memory" and exit code 3 (the question could not be answered), never an abort.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The end of the main heap already advised (at first, 2 MiB past its end when [`tune`] ran);
/// zero until then, and the heaps are left alone.
static ADVISED: AtomicUsize = AtomicUsize::new(0);

/// The smallest block whose allocation looks for a grown heap: the heap grows at least a
/// step at a time, so a smaller block that grows it is followed by a larger one soon.
const LOOK_FROM: usize = 4096;

/// The size of a thread's heap's reservation, to which it is aligned: glibc's `HEAP_MAX_SIZE`
/// on 64-bit systems (twice the largest mapping threshold it sets by itself).
const THREAD_HEAP: usize = 64 << 20;

/// A huge page's size.
const HUGE_PAGE: usize = 2 << 20;

/// The bit of a block's header (the word before it) that says it was mapped apart.
const MAPPED: usize = 0x2;

/// The bit of a block's header that says it is not on the main heap.
const NOT_MAIN: usize = 0x4;

/// The threads' heaps already advised, by address; zeros are free slots. Heaps past the
/// 64th keep 4 KiB pages, as does a heap glibc unmaps (once all of it is free) and maps again
/// at the same address.
static THREAD_HEAPS: [AtomicUsize; 64] = [const { AtomicUsize::new(0) }; 64];

/// The system allocator, advising huge pages on the heaps' growth once [`tune`] has run.
pub struct Heap;

/// Sets `malloc`'s options (the heaps grown 64 MiB at a time, trimmed past 128 MiB, blocks
/// from 32 MiB up mapped apart) and starts advising huge pages on the heaps' growth. To be
/// called first in `main`, before any other thread exists.
pub fn tune() {
    if limited() {
        // Each thread heap reserves 64 MiB of address space whatever it holds: under a limit
        // on the address space, every thread allocates from the one main heap instead.
        // SAFETY: `mallopt` only sets an option, before any other thread exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
        return;
    }
    if std::env::var_os("BROADSIDE_HEAP").is_some_and(|v| v == "system") {
        return;
    }
    // SAFETY: `mallopt` only sets options; `sbrk(0)` only reads the heap's end.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
        ADVISED.store(libc::sbrk(0) as usize + HUGE_PAGE, Ordering::Relaxed);
    }
}

/// Whether the address space is limited (`ulimit -v`): the larger steps and the thread heaps'
/// reservations would then count against the limit.
fn limited() -> bool {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only fills the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    read && limit.rlim_cur != libc::RLIM_INFINITY
}

/// Ends the command for want of memory: "out of memory" on standard error and exit code 3,
/// without allocating (there is nothing to allocate with) and without the abort the standard
/// library would make of it. Files broadside writes are written whole or cut back to whole
/// records, so what is on disk stays readable.
fn out_of_memory(size: usize) -> ! {
    let mut buf = [0u8; 160];
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        for &b in bytes {
            if n < buf.len() {
                buf[n] = b;
                n += 1;
            }
        }
    };
    put(b"broadside: out of memory (a block of ");
    let mut digits = [0u8; 20];
    let (mut v, mut k) = (size, digits.len());
    loop {
        k -= 1;
        digits[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    put(&digits[k..]);
    put(b" bytes could not be had): the question could not be answered\n");
    // SAFETY: writing a buffer of our own to standard error, then ending the process at once.
    unsafe {
        libc::write(2, buf.as_ptr().cast(), n);
        libc::_exit(3)
    }
}

/// Advises huge pages on the heap the block at `p` (just allocated, `size` bytes; looked at
/// from [`LOOK_FROM`] bytes up) is on, if it was not: a thread's heap whole, or the stretch
/// the main heap grew by since the last look. (After a trim, which takes 128 MiB free at its
/// end, the main heap keeps 4 KiB pages where it grows back.)
fn look(p: *mut u8, size: usize) {
    if size < LOOK_FROM {
        return;
    }
    let advised = ADVISED.load(Ordering::Relaxed);
    if advised == 0 || p.is_null() {
        return;
    }
    // SAFETY: glibc puts a block's size and flags in the word before it.
    let header = unsafe { p.cast::<usize>().sub(1).read() };
    if header & MAPPED != 0 {
        return;
    }
    if header & NOT_MAIN != 0 {
        let heap = p as usize & !(THREAD_HEAP - 1);
        for slot in &THREAD_HEAPS {
            match slot.compare_exchange(0, heap, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    // SAFETY: the reservation is the thread heap's own; advice only. Its first
                    // 2 MiB are left to small pages.
                    unsafe {
                        let at = (heap + HUGE_PAGE) as *mut libc::c_void;
                        libc::madvise(at, THREAD_HEAP - HUGE_PAGE, libc::MADV_HUGEPAGE);
                    }
                    return;
                }
                Err(seen) if seen == heap => return,
                Err(_) => {}
            }
        }
        return;
    }
    // SAFETY: `sbrk(0)` only reads the heap's end (a word another thread's `malloc` may be
    // moving, which at worst makes this look early or late).
    let end = unsafe { libc::sbrk(0) } as usize;
    if end <= advised
        || ADVISED
            .compare_exchange(advised, end, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
    {
        return;
    }
    let start = advised & !4095;
    // SAFETY: the range is the heap's own, mapped and page-aligned; the advice changes how
    // its pages are backed, never their contents. It is only advice, so its failure is
    // harmless.
    unsafe {
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
    }
}

// SAFETY: every call is the system allocator's; `look` only advises the kernel.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        look(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        look(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        look(p, new_size);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of the mapping that holds `addr`, from `/proc/self/smaps`.
    fn flags_at(addr: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps is readable");
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = first.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&addr);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return flags.trim().to_string();
            }
        }
        panic!("no mapping holds {addr:#x}")
    }

    #[test]
    fn blocks_are_on_heaps_advised_huge_pages_and_keep_their_contents() {
        tune();
        // Past one thread's heap (64 MiB), under the threshold of blocks mapped apart: from
        // this thread's heaps, as the test harness runs each test on a thread of its own.
        let blocks: Vec<Vec<u64>> = (0..12).map(|i| vec![i; 2 << 20]).collect();
        // SAFETY: the word before a block is its header.
        let header = unsafe { blocks[0].as_ptr().cast::<usize>().sub(1).read() };
        assert_ne!(header & NOT_MAIN, 0, "a thread's heap");
        // (A block may begin before the stretch its heap grew by, which was not advised.)
        // A kernel without transparent huge pages refuses the advice.
        let huge = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists();
        for b in blocks.iter().filter(|_| huge) {
            let flags = flags_at(b.as_ptr_range().end as usize - 1);
            assert!(flags.split(' ').any(|f| f == "hg"), "flags {flags}");
        }
        for (i, b) in blocks.iter().enumerate() {
            assert!(b.iter().all(|&x| x == i as u64));
        }
    }
}
