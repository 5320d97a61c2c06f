//! Why no layout fits: the obvious conflicts of a problem and, for a game record, a smallest
//! set of shots that cannot all be true.
//!
//! [`Problem::conflicts`] finds reasons without search; [`conflicting_shots`] searches, one
//! consistency check per shot, for the shots at fault. [`no_layout`] gathers both into the
//! [`NoLayout`] report that `probs`, `best`, `sample` and `validate` give when no layout
//! fits.

use serde::Serialize;

use crate::engine::Enumerator;
use crate::observe::print_shot;
use crate::problem::{Problem, ProblemSpec};

/// The answer "no layout is consistent", with what can be said of why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NoLayout {
    /// The problem's name, when it has one.
    pub name: Option<String>,
    /// Always 0: no layout fits.
    pub layouts: u8,
    /// The obvious conflicts ([`Problem::conflicts`]), as sentences.
    pub reasons: Vec<String>,
    /// A smallest set of shots that cannot all be true, as the record writes them (empty when
    /// the shots are not what makes the problem inconsistent).
    pub conflicting_shots: Vec<String>,
}

/// Why `problem` has no layout: its obvious conflicts and the shots at fault, when the shots
/// are. Call it on a problem known to have no layout; the shot search costs one consistency
/// check per shot.
pub fn no_layout(problem: &Problem) -> NoLayout {
    let spec = problem.given();
    let shots = conflicting_shots(spec)
        .unwrap_or_default()
        .iter()
        .map(|&i| print_shot(spec.dims, &spec.fleet, &spec.observations.shots[i]))
        .collect();
    NoLayout {
        name: spec.meta.name.clone(),
        layouts: 0,
        reasons: problem.conflicts().iter().map(|c| c.to_string()).collect(),
        conflicting_shots: shots,
    }
}

/// A smallest set of shots (indices into `spec.observations.shots`) that no layout fits,
/// when the shots are what makes `spec` inconsistent: removing any one of them leaves a
/// record some layout fits (with the rest of the problem as it is). `None` when the problem
/// without any shot already has no layout, or when it has one with all its shots.
///
/// Deletion-based: each shot is dropped in turn and kept out if the rest is still
/// inconsistent, so it costs one consistency check per shot.
pub fn conflicting_shots(spec: &ProblemSpec) -> Option<Vec<usize>> {
    let consistent = |keep: &[usize]| -> bool {
        let mut s = spec.clone();
        s.observations.shots = keep
            .iter()
            .map(|&i| spec.observations.shots[i].clone())
            .collect();
        s.solution = None;
        match s.build() {
            Ok(p) => p.conflicts().is_empty() && Enumerator::new(&p).count_up_to(1).count > 0,
            // A record that is malformed on its own (a sunk report without its ship) fits no
            // layout either.
            Err(_) => false,
        }
    };
    let all: Vec<usize> = (0..spec.observations.shots.len()).collect();
    if all.is_empty() || consistent(&all) || !consistent(&[]) {
        return None;
    }
    let mut keep = all;
    let mut i = 0;
    while i < keep.len() {
        let mut without = keep.clone();
        without.remove(i);
        if consistent(&without) {
            i += 1;
        } else {
            keep = without;
        }
    }
    Some(keep)
}
