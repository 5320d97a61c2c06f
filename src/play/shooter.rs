//! Shooters: who picks the next cell. Each sees only the game's rules and the shots so far
//! (never the hidden layout) and takes the caller's RNG.
//!
//! - [`ShooterKind::Random`]: any cell not fired at (001's Random, 002's R).
//! - [`ShooterKind::HuntTarget`]: hunts at random; after a hit, fires at the hit's neighbours,
//!   and once two hits line up, along their line (001's Human-like, 002's RNB).
//! - [`ShooterKind::Parity`]: hunt-target, hunting only on one colour of a checkerboard, chosen
//!   at random per game (001's Even).
//! - [`ShooterKind::Checkerboard`]: hunt-target hunting on one checkerboard colour in four
//!   passes, a sparse lattice first, after a random offset (002's CB, its figure 4).
//! - [`ShooterKind::Density`]: 004's probability matrix: each afloat ship slid over every
//!   position the shots allow, one ship at a time, and a cell of most positions shot; after a
//!   hit, only positions through the wounded cells count ("finishing").
//! - [`ShooterKind::Greedy`]: fires at a cell of highest exact probability of a ship, given
//!   every shot so far and the sinking rule (001's Heat-map), ties broken at random.

use rand::RngExt;
use rand::rngs::StdRng;

use super::game::Setup;
use crate::choice::named_choices;
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
    /// Hunt-target, hunting on one colour in four passes.
    Checkerboard,
    /// The probability matrix of ships slid one at a time.
    Density,
    /// A cell of highest exact probability.
    Greedy,
}

named_choices!(ShooterKind, "shooter", {
    ShooterKind::Random => "random",
    ShooterKind::HuntTarget => "hunt-target",
    ShooterKind::Parity => "parity",
    ShooterKind::Checkerboard => "checkerboard",
    ShooterKind::Density => "density",
    ShooterKind::Greedy => "greedy",
});

impl ShooterKind {
    /// A fresh shooter for one game.
    pub fn shooter(self) -> Box<dyn Shooter> {
        match self {
            ShooterKind::Random => Box::new(Random { order: Vec::new() }),
            ShooterKind::HuntTarget => Box::new(HuntTarget::new(Hunt::Any)),
            ShooterKind::Parity => Box::new(HuntTarget::new(Hunt::Colour)),
            ShooterKind::Checkerboard => Box::new(HuntTarget::new(Hunt::Passes)),
            ShooterKind::Density => Box::<Density>::default(),
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

/// The cells in a random order, drawn at the first shot; each shot takes the next not fired.
struct Random {
    order: Vec<usize>,
}

impl Shooter for Random {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        if self.order.is_empty() && shots.is_empty() {
            self.order = (0..setup.dims.cells()).collect();
            for i in (1..self.order.len()).rev() {
                self.order.swap(i, rng.random_range(0..=i));
            }
        }
        let fired = |c: usize| shots.iter().any(|s| s.cell == c);
        while let Some(c) = self.order.pop() {
            if !fired(c) {
                return c;
            }
        }
        // Shots this shooter did not fire (a game handed over mid-way): any open cell.
        any(&open(setup, shots), rng)
    }
}

/// Where hunt-target hunts when no hit is open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hunt {
    /// Anywhere.
    Any,
    /// On one colour of a checkerboard.
    Colour,
    /// On one colour, in 002's four passes.
    Passes,
}

/// Hunt-target; `offset` is drawn at the first shot (row and column shifts, 0 to 3).
struct HuntTarget {
    hunt: Hunt,
    offset: Option<(usize, usize)>,
    marks: Marks,
}

/// Which of 002's checkerboard passes (0 for A to 3 for D) a cell is in, after shifting it by
/// `offset`; `None` for the other colour. A holds every fourth diagonal on even rows, then B,
/// C and D fill in between (its figure 4).
fn pass(r: usize, c: usize, offset: (usize, usize)) -> Option<usize> {
    let (r, c) = (r + offset.0, c + offset.1);
    match ((r + c) % 4, r % 2) {
        (1, 0) => Some(0),
        (3, 1) => Some(1),
        (3, 0) => Some(2),
        (1, 1) => Some(3),
        _ => None,
    }
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

/// What a shooter knows of each cell, brought up to date with the shots it has not seen
/// yet, so a game costs one pass over its shots in all.
///
/// A ship reported sunk without its cells (announced) is taken to be the line of wounded
/// cells through the sinking shot, as long as the ship, that the shot ends; when no such line
/// is seen its cells stay wounded. Under [`Sinking::None`] nothing is ever known to be sunk.
#[derive(Default)]
struct Marks {
    m: Vec<Mark>,
    seen: usize,
}

impl Marks {
    /// The marks after `shots`, the shots of the same game so far.
    fn update(&mut self, setup: &Setup, shots: &[Shot]) -> &[Mark] {
        if self.m.len() != setup.dims.cells() || shots.len() < self.seen {
            self.m = vec![Mark::Open; setup.dims.cells()];
            self.seen = 0;
        }
        for s in &shots[self.seen..] {
            apply(setup, &mut self.m, s);
        }
        self.seen = shots.len();
        &self.m
    }
}

/// What one shot says of the cells.
fn apply(setup: &Setup, m: &mut [Mark], s: &Shot) {
    let d = setup.dims;
    match &s.result {
        ShotResult::Miss | ShotResult::Sonar { .. } => m[s.cell] = Mark::Miss,
        ShotResult::Hit => m[s.cell] = Mark::Wounded,
        ShotResult::Sunk { .. } if setup.sinking == Sinking::None => m[s.cell] = Mark::Wounded,
        ShotResult::Sunk { ty, cells } => {
            m[s.cell] = Mark::Wounded;
            if !cells.is_empty() {
                for &c in cells {
                    m[c] = Mark::Sunk;
                }
                return;
            }
            let Some(len) = setup.fleet.types()[*ty].shape.straight_len() else {
                return;
            };
            let (r, c) = d.row_col(s.cell);
            let (r, c) = (r as isize, c as isize);
            for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                let line = (0..len as isize).map_while(|k| d.checked(r + dr * k, c + dc * k));
                if line.clone().count() == len && line.clone().all(|x| m[x] == Mark::Wounded) {
                    for x in line {
                        m[x] = Mark::Sunk;
                    }
                    return;
                }
            }
        }
    }
}

impl HuntTarget {
    fn new(hunt: Hunt) -> Self {
        HuntTarget {
            hunt,
            offset: None,
            marks: Marks::default(),
        }
    }
}

impl Shooter for HuntTarget {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        let d = setup.dims;
        let m = self.marks.update(setup, shots);
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
        let offset = *self
            .offset
            .get_or_insert_with(|| (rng.random_range(0..4), rng.random_range(0..4)));
        let class = |x: usize| {
            let (r, c) = d.row_col(x);
            match self.hunt {
                Hunt::Any => Some(0),
                Hunt::Colour => ((r + c + offset.0) % 2 == 1).then_some(0),
                Hunt::Passes => pass(r, c, offset),
            }
        };
        let first = open.iter().filter_map(|&x| class(x)).min();
        let on: Vec<usize> = match first {
            Some(p) => open
                .iter()
                .copied()
                .filter(|&x| class(x) == Some(p))
                .collect(),
            None => open,
        };
        any(&on, rng)
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

/// 004's probability matrix. Every position of each ship type's shape on the board is kept
/// with whether the shots still allow it (no miss and no sunk ship on it), and per type and
/// cell how many allowed positions cover the cell, updated as cells turn to misses or sunk
/// ships; so hunting costs a pass over types and cells per shot, not over every position.
#[derive(Default)]
struct Density {
    marks: Marks,
    /// Per type, every position's cells; and whether it is still allowed.
    places: Vec<Vec<Vec<usize>>>,
    alive: Vec<Vec<bool>>,
    /// Per cell, the (type, position) pairs covering it.
    through: Vec<Vec<(usize, usize)>>,
    /// Per type, per cell: allowed positions covering it.
    cover: Vec<Vec<u64>>,
    /// The marks the positions were last brought up to date with.
    known: Vec<Mark>,
}

impl Density {
    fn prepare(&mut self, setup: &Setup) {
        let d = setup.dims;
        self.places = setup
            .fleet
            .types()
            .iter()
            .map(|t| crate::placement::Placement::cells_all(d, &t.shape).collect())
            .collect();
        self.alive = self.places.iter().map(|p| vec![true; p.len()]).collect();
        self.through = vec![Vec::new(); d.cells()];
        self.cover = vec![vec![0; d.cells()]; self.places.len()];
        for (ty, places) in self.places.iter().enumerate() {
            for (i, cells) in places.iter().enumerate() {
                for &c in cells {
                    self.through[c].push((ty, i));
                    self.cover[ty][c] += 1;
                }
            }
        }
        self.known = vec![Mark::Open; d.cells()];
    }

    /// Takes out the positions through cells that have turned to a miss or a sunk ship.
    fn refresh(&mut self, m: &[Mark]) {
        for (c, &mark) in m.iter().enumerate() {
            let gone = matches!(mark, Mark::Miss | Mark::Sunk);
            if gone && !matches!(self.known[c], Mark::Miss | Mark::Sunk) {
                for &(ty, i) in &self.through[c] {
                    if std::mem::replace(&mut self.alive[ty][i], false) {
                        for &x in &self.places[ty][i] {
                            self.cover[ty][x] -= 1;
                        }
                    }
                }
            }
            self.known[c] = mark;
        }
    }
}

impl Shooter for Density {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut StdRng) -> usize {
        let d = setup.dims;
        if self.places.is_empty() || shots.len() < self.marks.seen {
            self.prepare(setup);
        }
        let m = self.marks.update(setup, shots).to_vec();
        self.refresh(&m);
        // Ships afloat per type: the fleet less the sinkings reported.
        let mut afloat: Vec<u64> = setup.fleet.types().iter().map(|t| t.count as u64).collect();
        for s in shots {
            if let ShotResult::Sunk { ty, .. } = s.result {
                afloat[ty] = afloat[ty].saturating_sub(1);
            }
        }
        // Finishing first: only positions through wounded cells, weighted by how many they
        // cover (each is met once per wounded cell it covers); where none fits (a sinking
        // taken for the wrong cells), hunting over every allowed position.
        let mut weight = vec![0u64; d.cells()];
        for c in (0..d.cells()).filter(|&c| m[c] == Mark::Wounded) {
            for &(ty, i) in &self.through[c] {
                if afloat[ty] == 0 || !self.alive[ty][i] {
                    continue;
                }
                for &x in &self.places[ty][i] {
                    if m[x] == Mark::Open {
                        weight[x] += afloat[ty];
                    }
                }
            }
        }
        if weight.iter().all(|&w| w == 0) {
            for (ty, cover) in self.cover.iter().enumerate() {
                for c in (0..d.cells()).filter(|&c| m[c] == Mark::Open) {
                    weight[c] += afloat[ty] * cover[c];
                }
            }
        }
        let top = weight.iter().copied().max().unwrap_or(0);
        if top == 0 {
            return any(&open(setup, shots), rng);
        }
        let best: Vec<usize> = (0..d.cells()).filter(|&c| weight[c] == top).collect();
        any(&best, rng)
    }
}
