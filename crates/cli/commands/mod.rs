//! The commands, one file each, named after the command. Each has its options (`Args`) and
//! `run`, which answers them and says whether the answer is a yes (exit 0) or a no (exit 1).
//! No command imports another: what several share is in [`crate::args`] and
//! [`crate::report`].

pub mod accuracy;
pub mod advise;
pub mod best;
pub mod book;
pub mod check;
pub mod convert;
pub mod count;
pub mod gains;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod r#match;
pub mod optimal;
pub mod play;
pub mod probs;
pub mod render;
pub mod sample;
pub mod serve;
pub mod shooters;
pub mod simulate;
pub mod solve;
pub mod summarize;
pub mod validate;
