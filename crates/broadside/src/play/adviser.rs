//! A shooter asked about positions one at a time, by a caller that keeps the game itself: an
//! advisor for a game played elsewhere (`broadside advise --shooter`), an opponent or a
//! baseline beside an agent (Python's `Shooter`).
//!
//! A shooter keeps what it learnt from one shot to the next (the pilot its sampler, the
//! density rules their tables), which is only right while each position goes on from the
//! last. The adviser starts the shooter afresh when the shots asked about do not (a shot
//! taken back, another game), and answers a position asked again with the cell it gave then
//! (the last thousand positions): the advice on a position stays what it was after a
//! shot taken back, and showing it again draws no new random numbers.
//!
//! ```
//! use broadside::play::{Adviser, Counting, Setup, ShooterKind};
//! let setup = Setup::standard();
//! let mut adviser = Adviser::new(ShooterKind::Greedy, Counting::default(), 1);
//! let first = adviser.choose(&setup, &[]).unwrap();
//! assert_eq!(adviser.choose(&setup, &[]), Some(first));
//! assert!(first < 100);
//! ```

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::game::Setup;
use super::shooter::{Counting, Shooter, ShooterKind, open};
use crate::observe::{Shot, ShotResult};

/// The positions whose cells an [`Adviser`] remembers (a few games' worth).
const REMEMBERED: usize = 1_000;

/// A shooter asked about positions one at a time; see the module documentation.
pub struct Adviser {
    kind: ShooterKind,
    counting: Counting,
    shooter: Box<dyn Shooter>,
    rng: StdRng,
    /// The positions asked about and the cells given, oldest first: the last is the
    /// position the shooter was last brought to.
    given: std::collections::VecDeque<(Vec<Shot>, usize)>,
}

impl Adviser {
    /// An adviser firing as `kind`, its exact counts made as `counting` says, its random
    /// numbers from `seed`.
    pub fn new(kind: ShooterKind, counting: Counting, seed: u64) -> Adviser {
        Adviser {
            shooter: kind.shooter(counting.clone()),
            kind,
            counting,
            rng: StdRng::seed_from_u64(seed),
            given: std::collections::VecDeque::new(),
        }
    }

    /// The shooter it fires as.
    pub fn kind(&self) -> ShooterKind {
        self.kind
    }

    /// The cell the shooter fires at next after `shots`, or `None` when the game is over
    /// (every ship cell hit) or no cell is left to fire at. The same calls give the same
    /// cells.
    pub fn choose(&mut self, setup: &Setup, shots: &[Shot]) -> Option<usize> {
        let mut hit = vec![false; setup.dims.cells()];
        for s in shots {
            hit[s.cell] |= matches!(s.result, ShotResult::Hit | ShotResult::Sunk { .. });
        }
        let over = hit.iter().filter(|&&h| h).count() >= setup.fleet.cell_count();
        if over || open(setup, shots).is_empty() {
            return None;
        }
        if let Some((_, cell)) = self.given.iter().find(|(s, _)| s.as_slice() == shots) {
            return Some(*cell);
        }
        let last = self.given.back().map_or(&[][..], |(s, _)| s.as_slice());
        if !shots.starts_with(last) {
            self.shooter = self.kind.shooter(self.counting.clone());
        }
        let cell = self.shooter.choose(setup, shots, &mut self.rng);
        if self.given.len() == REMEMBERED {
            self.given.pop_front();
        }
        self.given.push_back((shots.to_vec(), cell));
        Some(cell)
    }
}
