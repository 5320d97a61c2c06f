//! Tier 4, contradiction: assuming a cell is a ship (or water) and applying tiers 1 to 3
//! leads to a contradiction, so it is the other.

use super::Know;
use super::solver::{Found, Out, Solver};

impl Solver {
    /// Tier 4: refute an assumption about one cell.
    pub(super) fn contradiction(&self, g: &mut [Know], out: &mut Out) -> Found {
        let mut trial = vec![Know::Unknown; g.len()];
        // Assumptions another assumption implied without a contradiction: they cannot lead
        // to one either (what they imply is a part of what it implied), so they are skipped.
        let mut harmless = vec![[false; 2]; g.len()];
        for cell in 0..self.d.cells() {
            if g[cell] != Know::Unknown {
                continue;
            }
            for (assume, other) in [(Know::Ship, Know::Water), (Know::Water, Know::Ship)] {
                let which = usize::from(assume == Know::Water);
                if harmless[cell][which] {
                    continue;
                }
                trial.copy_from_slice(g);
                trial[cell] = assume;
                let mut quiet = Out {
                    steps: None,
                    changed: false,
                    tier: 1,
                    per_tier: [0; 4],
                    max_steps: 0,
                };
                let result = self.propagate(&mut trial, 3, &mut quiet);
                if result.is_ok() {
                    for (c, k) in trial.iter().enumerate() {
                        if g[c] == Know::Unknown && *k != Know::Unknown {
                            harmless[c][usize::from(*k == Know::Water)] = true;
                        }
                    }
                    continue;
                }
                {
                    let what = if assume == Know::Ship {
                        "a ship"
                    } else {
                        "water"
                    };
                    // One refutation at a time: the cheaper tiers then use what it taught.
                    self.decide(g, &[(cell, other)], "contradiction", out, || {
                        format!(
                            "assuming {} is {what} leads to a contradiction under tiers 1 to 3",
                            self.name(cell)
                        )
                    })?;
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}
