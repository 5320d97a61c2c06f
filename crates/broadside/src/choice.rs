//! Named choices: the one error every option spelled as a word gives when the word names none.
//!
//! Rules (`touch`), sinking (`announced`), engines (`dp`), samplers (`uniform`), grades
//! (`hard`), shooters and placers are all read from words with [`std::str::FromStr`]; each
//! answers an unknown word with an [`UnknownChoice`] that lists the words it takes. Most are
//! declared once, word by word, with `named_choices!`, which gives both directions.

/// A word that names none of the choices of its kind, or names one with parameters it does
/// not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} {what} {found:?}: expected {expected}", if *.named { "bad" } else { "unknown" })]
pub struct UnknownChoice {
    /// What was being chosen, e.g. "engine".
    pub what: &'static str,
    /// The word given.
    pub found: String,
    /// The words taken, as a phrase: "auto, enum, sat or dp".
    pub expected: String,
    /// Whether the word names a choice (whose parameters are wrong).
    pub named: bool,
}

impl UnknownChoice {
    /// The error for `found`, an unknown `what`.
    pub fn new(what: &'static str, found: &str, expected: &str) -> Self {
        UnknownChoice {
            what,
            found: found.to_string(),
            expected: expected.to_string(),
            named: false,
        }
    }

    /// The error for `found`, which names a `what` but gives it parameters it does not take.
    pub fn parameters(what: &'static str, found: &str, expected: &str) -> Self {
        UnknownChoice {
            named: true,
            ..UnknownChoice::new(what, found, expected)
        }
    }

    /// The error for `found` among `words`, listed as "a, b or c".
    pub fn among(what: &'static str, found: &str, words: &[&str]) -> Self {
        let expected = match words.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        UnknownChoice::new(what, found, &expected)
    }
}

/// `FromStr` (an unknown word is an [`UnknownChoice`] listing the others) and `Display` for an
/// enum of named choices, from one list of variants and their words.
macro_rules! named_choices {
    ($ty:ty, $what:literal, { $($variant:path => $word:literal),+ $(,)? }) => {
        impl std::str::FromStr for $ty {
            type Err = $crate::choice::UnknownChoice;
            fn from_str(s: &str) -> Result<Self, $crate::choice::UnknownChoice> {
                match s.trim() {
                    $($word => Ok($variant),)+
                    _ => Err($crate::choice::UnknownChoice::among($what, s, &[$($word),+])),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $($variant => $word,)+
                })
            }
        }
    };
}
pub(crate) use named_choices;
