//! Many boards drawn at once into a flat array of cells, on every core: what the Python
//! package hands to numpy.

use rayon::prelude::*;

use super::{GaveUp, MAX_ATTEMPTS, Sampler};

/// Boards drawn per RNG stream by [`fill_grids`].
const GRID_CHUNK: usize = 1024;

/// Fills `out` (a whole number of boards, each the problem's cells row-major: `true` where a
/// ship lies) with layouts drawn from `sampler`, on every core. Board `i` belongs to the
/// stream `i / 1024`, whose RNG is [`crate::rng::stream`]`(seed, stream, 0)`, so the same seed gives the
/// same boards whatever the number of threads. Fails, leaving the rest of `out` as it was,
/// when a rejection-style sampler gives up ([`MAX_ATTEMPTS`] draws in a row rejected) or the
/// sampler's time limit runs out; the error says how many boards were drawn.
///
/// # Panics
///
/// When `out`'s length is not a multiple of the problem's cells.
pub fn fill_grids(sampler: &Sampler, seed: u64, out: &mut [bool]) -> Result<(), GaveUp> {
    let cells = sampler.problem.dims().cells();
    assert!(
        cells > 0 && out.len().is_multiple_of(cells),
        "fill_grids needs whole boards"
    );
    let drawn = std::sync::atomic::AtomicU64::new(0);
    let failed = std::sync::atomic::AtomicBool::new(false);
    out.par_chunks_mut(GRID_CHUNK * cells)
        .enumerate()
        .for_each(|(stream, boards)| {
            let mut s = sampler.fork();
            let mut rng = crate::rng::stream(seed, stream as u64, 0);
            for board in boards.chunks_mut(cells) {
                if failed.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                let Some(layout) = s.sample(&mut rng) else {
                    failed.store(true, std::sync::atomic::Ordering::Relaxed);
                    return;
                };
                drawn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                board.fill(false);
                for c in layout.cells() {
                    board[c] = true;
                }
            }
        });
    if failed.into_inner() {
        return Err(GaveUp {
            name: sampler.problem.spec().meta.name.clone(),
            drawn: drawn.into_inner(),
            gave_up: if sampler
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                "the time limit ran out".to_string()
            } else {
                format!("{MAX_ATTEMPTS} draws in a row were rejected")
            },
        });
    }
    Ok(())
}
