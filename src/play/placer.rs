//! Placers: who hides the fleet.
//!
//! - [`PlacerKind::Uniform`]: exactly uniform over every legal layout (the exact sampler of
//!   [`crate::sample`]); the default.
//! - [`PlacerKind::Sequential`]: ship by ship, each uniform among the positions that still fit,
//!   as the papers place; not uniform over layouts (`broadside validate --sampler sequential`
//!   measures by how much).

use rand::rngs::StdRng;

use super::game::Setup;
use crate::choice::named_choices;
use crate::error::Error;
use crate::layout::Layout;
use crate::problem::Problem;
use crate::sample::{Sampler, SamplerKind};

/// The placers broadside has; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacerKind {
    /// Exactly uniform over legal layouts.
    Uniform,
    /// Ship by ship, uniform among the positions that still fit.
    Sequential,
}

named_choices!(PlacerKind, "placer", {
    PlacerKind::Uniform => "uniform",
    PlacerKind::Sequential => "sequential",
});

/// Hidden layouts for the games of one setup.
pub struct Placer<'p> {
    sampler: Sampler<'p>,
}

impl<'p> Placer<'p> {
    /// A placer of `kind` on `empty`, the empty board of the setup (see [`Setup::empty`]);
    /// an error when the fleet does not fit.
    pub fn new(kind: PlacerKind, empty: &'p Problem) -> Result<Placer<'p>, Error> {
        let sampler = Sampler::new(
            empty,
            match kind {
                PlacerKind::Uniform => SamplerKind::Uniform,
                PlacerKind::Sequential => SamplerKind::Sequential,
            },
        )?;
        Ok(Placer { sampler })
    }

    /// One hidden layout; `None` when the placer gave up (the fleet is too tight for it).
    pub fn place(&mut self, rng: &mut StdRng) -> Option<Layout> {
        self.sampler.sample(rng)
    }
}

/// The empty board of `setup`, built: what a placer draws on.
pub fn empty_board(setup: &Setup) -> Result<Problem, Error> {
    Ok(setup.empty().build()?)
}
