//! The library's integration tests, one binary: the engines against each other and against
//! independent counters, known counts, formats, generation, logic, sampling, play and optimal
//! play. `cargo test -p broadside` runs them with the library's unit tests; a module alone
//! with `cargo test -p broadside --test library properties::`.

mod common;

mod cross_engine;
mod digital;
mod dp;
mod external_puzzles;
mod fast_path;
mod formats;
mod fuzz;
mod generate;
mod known_counts;
mod logic;
mod observations;
mod optimal;
mod play;
mod portfolio;
mod properties;
mod puzzles;
mod sampling;
