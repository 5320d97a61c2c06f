//! Shooters: who picks the next cell. Each sees only the game's rules and the shots so far
//! (never the hidden layout) and takes the caller's RNG.
//!
//! - [`ShooterKind::Random`]: any cell not fired at (001's Random, 002's R).
//! - [`ShooterKind::HuntTarget`]: hunts at random; after a hit, fires at the hit's neighbours,
//!   and once two hits line up, along their line (001's Human-like, 002's RNB).
//! - [`ShooterKind::Parity`]: hunt-target, hunting only on one colour of a checkerboard, chosen
//!   at random per game (001's Even).
//! - [`ShooterKind::Greedy`]: fires at a cell of highest exact probability of a ship, given
//!   every shot so far and the sinking rule (001's Heat-map), ties broken at random.

use rand::RngExt;
use rand::rngs::StdRng;

use super::game::Setup;
use crate::choice::UnknownChoice;
use crate::engine::Engine;
use crate::heat::HeatMap;
use crate::observe::{Observations, Shot, ShotResult, Sinking};

/// Picks the next cell to fire at.
pub trait Shooter: Send {
    /// The next cell, one not fired at before, given the shots so far (the game is not over).
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize;
}

/// The shooters broadside has; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShooterKind {
    /// Any cell not fired at.
    Random,
    /// Hunt at random, then target the neighbours and the line of hits.
    HuntTarget,
    /// Hunt-target, hunting on one checkerboard colour.
    Parity,
    /// A cell of highest exact probability.
    Greedy,
}

impl std::str::FromStr for ShooterKind {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "random" => Ok(ShooterKind::Random),
            "hunt-target" => Ok(ShooterKind::HuntTarget),
            "parity" => Ok(ShooterKind::Parity),
            "greedy" => Ok(ShooterKind::Greedy),
            _ => Err(UnknownChoice::new(
                "shooter",
                s,
                "random, hunt-target, parity or greedy",
            )),
        }
    }
}

impl std::fmt::Display for ShooterKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ShooterKind::Random => "random",
            ShooterKind::HuntTarget => "hunt-target",
            ShooterKind::Parity => "parity",
            ShooterKind::Greedy => "greedy",
        })
    }
}

impl ShooterKind {
    /// A fresh shooter for one game.
    pub fn shooter(self) -> Box<dyn Shooter> {
        match self {
            ShooterKind::Random => Box::new(Random),
            ShooterKind::HuntTarget => Box::new(HuntTarget { colour: None }),
            ShooterKind::Parity => Box::new(HuntTarget { colour: Some(None) }),
            ShooterKind::Greedy => Box::new(Greedy),
        }
    }
}

/// A cell chosen uniformly among `cells`.
fn any(cells: &[usize], rng: &mut StdRng) -> usize {
    cells[rng.random_range(0..cells.len())]
}

/// The cells not fired at.
fn open(setup: &Setup, shots: &[Shot]) -> Vec<usize> {
    let mut fired = vec![false; setup.dims.cells()];
    for s in shots {
        fired[s.cell] = true;
    }
    (0..setup.dims.cells()).filter(|&c| !fired[c]).collect()
}

struct Random;

impl Shooter for Random {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        any(&open(setup, shots), rng)
    }
}

/// Hunt-target, hunting on every cell (`colour: None`) or on one checkerboard colour, drawn at
/// the first shot (`Some(None)` until then).
struct HuntTarget {
    colour: Option<Option<usize>>,
}

/// What a hunter knows of each cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Open,
    Miss,
    /// A hit on a ship not known to be sunk.
    Wounded,
    /// A hit on a ship known to be sunk.
    Sunk,
}

/// The marks the shots give. A ship reported sunk without its cells (announced) is taken to
/// be the line of wounded cells through the sinking shot, as long as the ship, that the shot
/// ends; when no such line is seen its cells stay wounded.
fn marks(setup: &Setup, shots: &[Shot]) -> Vec<Mark> {
    let d = setup.dims;
    let mut m = vec![Mark::Open; d.cells()];
    for s in shots {
        match &s.result {
            ShotResult::Miss | ShotResult::Sonar { .. } => m[s.cell] = Mark::Miss,
            ShotResult::Hit => m[s.cell] = Mark::Wounded,
            ShotResult::Sunk { ty, cells } => {
                m[s.cell] = Mark::Wounded;
                if !cells.is_empty() {
                    for &c in cells {
                        m[c] = Mark::Sunk;
                    }
                    continue;
                }
                let Some(len) = setup.fleet.types()[*ty].shape.straight_len() else {
                    continue;
                };
                let (r, c) = d.row_col(s.cell);
                let (r, c) = (r as isize, c as isize);
                'dirs: for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                    let line: Vec<usize> = (0..len as isize)
                        .map_while(|k| d.checked(r + dr * k, c + dc * k))
                        .collect();
                    if line.len() == len && line.iter().all(|&x| m[x] == Mark::Wounded) {
                        for x in line {
                            m[x] = Mark::Sunk;
                        }
                        break 'dirs;
                    }
                }
            }
        }
    }
    if setup.sinking == Sinking::None {
        // Nothing is ever known to be sunk.
        for x in m.iter_mut().filter(|x| **x == Mark::Sunk) {
            *x = Mark::Wounded;
        }
    }
    m
}

impl Shooter for HuntTarget {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        let d = setup.dims;
        let m = marks(setup, shots);
        let at = |r: isize, c: isize| d.checked(r, c).filter(|&x| m[x] == Mark::Open);
        // Target: extend a line of two or more wounded cells at an open end.
        let mut ends = Vec::new();
        let mut neighbours = Vec::new();
        for x in (0..d.cells()).filter(|&x| m[x] == Mark::Wounded) {
            let (r, c) = d.row_col(x);
            let (r, c) = (r as isize, c as isize);
            for (dr, dc) in [(0, 1), (1, 0)] {
                let wounded = |k: isize| {
                    d.checked(r + dr * k, c + dc * k)
                        .is_some_and(|y| m[y] == Mark::Wounded)
                };
                // `x` starts a run of at least two along (dr, dc).
                if wounded(1) && !wounded(-1) {
                    let mut k = 1;
                    while wounded(k + 1) {
                        k += 1;
                    }
                    ends.extend(at(r - dr, c - dc));
                    ends.extend(at(r + dr * (k + 1), c + dc * (k + 1)));
                }
            }
            for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                neighbours.extend(at(r + dr, c + dc));
            }
        }
        if !ends.is_empty() {
            return any(&ends, rng);
        }
        if !neighbours.is_empty() {
            return any(&neighbours, rng);
        }
        // Hunt.
        let open: Vec<usize> = (0..d.cells()).filter(|&x| m[x] == Mark::Open).collect();
        if let Some(colour) = &mut self.colour {
            let colour = *colour.get_or_insert_with(|| rng.random_range(0..2));
            let on: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&x| {
                    let (r, c) = d.row_col(x);
                    (r + c) % 2 == colour
                })
                .collect();
            if !on.is_empty() {
                return any(&on, rng);
            }
        }
        any(&open, rng)
    }
}

struct Greedy;

impl Shooter for Greedy {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        let mut spec = setup.empty();
        spec.observations = Observations {
            sinking: setup.sinking,
            shots: shots.to_vec(),
        };
        // The record of a real game always builds and always has a layout (the hidden one).
        let best = spec
            .build()
            .ok()
            .and_then(|p| HeatMap::compute(&p, Engine::Auto).ok())
            .map(|h| h.best().0)
            .unwrap_or_default();
        if best.is_empty() {
            return any(&open(setup, shots), rng);
        }
        any(&best, rng)
    }
}
