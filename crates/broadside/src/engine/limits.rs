//! The engines' memory limits, tuned on the 2-core, 24 GiB machines broadside is measured on
//! (docs/PERFORMANCE.md). A job changes the DP's with [`super::CountOptions::memory_limit`];
//! the others are fixed.

pub use super::dp::{KEPT_SWEEPS, REPLAY_MEMORY, SWEEPS_MEMORY};

/// The memory the DP may keep for per-cell counts and sampling unless told otherwise: 4 GiB,
/// a sixth of the 24 GiB machines broadside is measured on. The empty 10x10 board needs about
/// 0.3 GiB for its per-cell counts.
pub const DP_MEMORY_LIMIT: usize = 4 << 30;
