//! Named choices: the one error every option spelled as a word gives when the word names none.
//!
//! Rules (`touch`), sinking (`announced`), engines (`dp`), samplers (`uniform`) and grades
//! (`hard`) are all read from words with [`std::str::FromStr`]; each answers an unknown word
//! with an [`UnknownChoice`] that lists the words it takes.

/// A word that names none of the choices of its kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {found:?}: expected {expected}")]
pub struct UnknownChoice {
    /// What was being chosen, e.g. "engine".
    pub what: &'static str,
    /// The word given.
    pub found: String,
    /// The words taken, as a phrase: "auto, enum, sat or dp".
    pub expected: &'static str,
}

impl UnknownChoice {
    /// The error for `found`, an unknown `what`.
    pub fn new(what: &'static str, found: &str, expected: &'static str) -> Self {
        UnknownChoice {
            what,
            found: found.to_string(),
            expected,
        }
    }
}
