//! The command's allocator: the C library's, with its heap grown in large steps that are
//! backed by transparent huge pages.
//!
//! The DP's passes fill tens of megabytes of fresh memory in a tenth of a second. On a
//! virtual machine each first touch of a 4 KiB page costs a few microseconds (about 3.5 µs
//! on the machine of `docs/PERFORMANCE.md`), so the 6,000 pages of the empty 10x10 board's
//! count cost about a tenth of its time; 2 MiB pages take 512 times fewer faults. [`tune`]
//! tells glibc's `malloc` to keep blocks under 32 MiB on its heap, to grow that heap 64 MiB
//! at a time and to give freed memory back to the system only past 128 MiB, and [`Heap`]
//! asks the kernel for huge pages on each stretch the heap grows by. The choice is the
//! command's alone: the library allocates as any Rust library does.
//!
//! Only the heap (glibc's main arena) is advised. A command that runs one job at a time has
//! every thread allocate from it: the DP's workers allocate few, large blocks, and share its
//! lock at no measurable cost. A command that plays many games side by side keeps glibc's
//! heap per thread, where its many small blocks need no lock (exact greedy's self-play took
//! 15% longer on one heap), and their pages stay 4 KiB.
//!
//! Where transparent huge pages are off (`/sys/kernel/mm/transparent_hugepage/enabled` set to
//! `never`), the advice is ignored and the heap behaves as glibc's with the larger steps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The end of the heap already advised; zero until [`tune`] ran, and the heap is left alone.
static ADVISED: AtomicUsize = AtomicUsize::new(0);

/// The smallest block whose allocation looks for a grown heap: the heap grows at least a
/// step at a time, so a smaller block that grows it is followed by a larger one soon.
const LOOK_FROM: usize = 4096;

/// The system allocator, advising huge pages on the heap's growth once [`tune`] has run.
pub struct Heap;

/// Sets `malloc`'s options (the heap grown 64 MiB at a time, trimmed past 128 MiB, blocks
/// from 32 MiB up mapped apart; with `one_heap`, every thread's blocks on it) and starts
/// advising huge pages on the heap's growth. To be called in `main`, before any other
/// thread exists.
pub fn tune(one_heap: bool) {
    // SAFETY: `mallopt` only sets options; `sbrk(0)` only reads the heap's end.
    unsafe {
        if one_heap {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
        ADVISED.store(libc::sbrk(0) as usize, Ordering::Relaxed);
    }
}

/// Advises huge pages on the stretch the heap grew by since the last look; after a trim,
/// notes the lower end, so the heap's next growth is advised from there.
fn look() {
    let advised = ADVISED.load(Ordering::Relaxed);
    if advised == 0 {
        return;
    }
    // SAFETY: `sbrk(0)` only reads the heap's end (a word another thread's `malloc` may be
    // moving, which at worst makes this look early or late).
    let end = unsafe { libc::sbrk(0) } as usize;
    if end == advised
        || ADVISED
            .compare_exchange(advised, end, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        || end < advised
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
        if layout.size() >= LOOK_FROM {
            look();
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if layout.size() >= LOOK_FROM {
            look();
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if new_size >= LOOK_FROM {
            look();
        }
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

    /// Run by the test below in a process of its own, every thread on the one heap from
    /// the start (the test harness's threads allocate before a test runs).
    #[test]
    #[ignore = "run by a_block_the_heap_grew_for_is_advised_huge_pages in a process of its own"]
    fn one_heap() {
        tune(true);
        // Past the heap's first step (64 MiB of padding), under the threshold of mapped blocks.
        let blocks: Vec<Vec<u64>> = (0..12).map(|i| vec![i; 2 << 20]).collect();
        // (The first may begin below the heap's end when `tune` ran, which is not advised.)
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

    #[test]
    fn a_block_the_heap_grew_for_is_advised_huge_pages() {
        let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args([
                "--exact",
                "heap::tests::one_heap",
                "--ignored",
                "--nocapture",
            ])
            .env("GLIBC_TUNABLES", "glibc.malloc.arena_max=1")
            .output()
            .expect("the test binary runs");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("1 passed"), "{said}");
    }
}
