//! Random number streams derived from one seed: what makes a parallel run's draws depend on
//! the seed and the item drawn for, never on the thread or the machine that draws them.
//!
//! Every random function of broadside takes the caller's RNG; runs of many items (games,
//! boards) give item `i` the stream `stream(seed, i, k)`, `k` telling apart the item's uses
//! (its hidden layout, its shooter's choices, ...).
//!
//! ```
//! use rand::RngExt;
//! use broadside::rng::stream;
//! let a: u64 = stream(7, 3, 0).random();
//! assert_eq!(a, stream(7, 3, 0).random::<u64>());
//! assert_ne!(a, stream(7, 3, 1).random::<u64>());
//! ```

use rand::SeedableRng;
use rand::rngs::StdRng;

/// The RNG of stream `(i, k)` of a run seeded with `seed` (a SplitMix64 mix of the three):
/// what makes a parallel run's draws depend on the seed and the item, never on the thread.
pub fn stream(seed: u64, i: u64, k: u64) -> StdRng {
    let mut z =
        seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ k.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    StdRng::seed_from_u64(z ^ (z >> 31))
}
