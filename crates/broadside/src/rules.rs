//! Whether ships may touch.

use crate::choice::UnknownChoice;
use serde::{Deserialize, Serialize};

/// The adjacency rule between ships. Ships never overlap under either rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// Ships may touch, side by side or at corners (the common two-player game).
    Touch,
    /// Ships may not touch, not even diagonally (the solitaire puzzle and the Russian game).
    #[default]
    NoTouch,
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rules::Touch => "touch",
            Rules::NoTouch => "no-touch",
        })
    }
}

impl std::str::FromStr for Rules {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s.trim().to_ascii_lowercase().as_str() {
            "touch" | "touching" | "may-touch" => Ok(Rules::Touch),
            "no-touch" | "notouch" | "no-touching" | "separated" => Ok(Rules::NoTouch),
            _ => Err(UnknownChoice::new("rules", s, "touch or no-touch")),
        }
    }
}
