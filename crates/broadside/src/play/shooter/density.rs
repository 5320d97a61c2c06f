//! The probability matrix of ships slid one at a time: the Habr article's, and the weighted
//! one of the public mayflower engine, where a position counts more the more open hits it
//! covers.

use std::cell::RefCell;
use std::sync::Arc;

use rand::Rng;

use super::hunt::{Mark, Marks};
use super::{Shooter, any, open};
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::observe::{Shot, ShotResult};
use crate::play::game::Setup;
use crate::rules::Rules;

/// The Habr article's probability matrix. Every position of each ship type's shape on the board is kept
/// with whether the shots still allow it (no miss and no sunk ship on it), and per type and
/// cell how many allowed positions cover the cell, updated as cells turn to misses or sunk
/// ships; so hunting costs a pass over types and cells per shot, not over every position.
/// The positions themselves are the same in every game of a setup, and shared.
///
/// How wounded cells (hits on ships not known to be sunk) count is the `weight`: 0 is the
/// Habr article's finishing (only positions through a wounded cell, each met once per
/// wounded cell it covers); `w` ≥ 1 counts every allowed position, `w^k` for one covering `k`
/// wounded cells (the public mayflower engine's `density(b=50)` is `w` = 50).
///
/// While hunting, each position of a ship type counts `1 / length^small` (0: all alike, the
/// public engine's rule).
#[derive(Default)]
pub(super) struct Density {
    weight: u32,
    small: u32,
    marks: Marks,
    tables: Option<Arc<Tables>>,
    /// Per type, whether each position is still allowed.
    alive: Vec<Vec<bool>>,
    /// Per type, per cell: allowed positions covering it.
    cover: Vec<Vec<u64>>,
    /// The marks the positions were last brought up to date with.
    known: Vec<Mark>,
    /// Per type, per position: the last weighting that counted it (each counts it once).
    stamp: Vec<Vec<usize>>,
    /// Weightings so far.
    round: usize,
}

/// What density knows of a setup before the first shot.
struct Tables {
    dims: Dims,
    fleet: Fleet,
    /// Per type, every position's cells.
    places: Vec<Vec<Vec<usize>>>,
    /// Per cell, the (type, position) pairs covering it.
    through: Vec<Vec<(usize, usize)>>,
    /// Per type, per cell: the positions covering it.
    cover: Vec<Vec<u64>>,
}

thread_local! {
    /// The tables of the setup this thread played last.
    static TABLES: RefCell<Option<Arc<Tables>>> = const { RefCell::new(None) };
}

impl Tables {
    fn new(setup: &Setup) -> Tables {
        let d = setup.dims;
        let places: Vec<Vec<Vec<usize>>> = setup
            .fleet
            .types()
            .iter()
            .map(|t| crate::placement::Placement::cells_all(d, &t.shape).collect())
            .collect();
        let mut through = vec![Vec::new(); d.cells()];
        let mut cover = vec![vec![0; d.cells()]; places.len()];
        for (ty, places) in places.iter().enumerate() {
            for (i, cells) in places.iter().enumerate() {
                for &c in cells {
                    through[c].push((ty, i));
                    cover[ty][c] += 1;
                }
            }
        }
        Tables {
            dims: d,
            fleet: setup.fleet.clone(),
            places,
            through,
            cover,
        }
    }

    /// The tables of `setup`, built once per thread and setup.
    fn of(setup: &Setup) -> Arc<Tables> {
        TABLES.with(|t| {
            let mut t = t.borrow_mut();
            match &*t {
                Some(tables) if tables.dims == setup.dims && tables.fleet == setup.fleet => {
                    tables.clone()
                }
                _ => {
                    let tables = Arc::new(Tables::new(setup));
                    *t = Some(tables.clone());
                    tables
                }
            }
        })
    }
}

/// Under the no-touch rule, the water the hits imply: the cells diagonal to a hit, and every
/// cell around a ship known to be sunk, are taken as misses.
fn water_around_ships(setup: &Setup, m: &mut [Mark]) {
    let d = setup.dims;
    for x in 0..m.len() {
        let sunk = match m[x] {
            Mark::Sunk => true,
            Mark::Wounded => false,
            _ => continue,
        };
        let (r, c) = d.row_col(x);
        for y in d.neighbours8(x) {
            let (ry, cy) = d.row_col(y);
            if m[y] == Mark::Open && (sunk || (ry != r && cy != c)) {
                m[y] = Mark::Miss;
            }
        }
    }
}

impl Density {
    /// The matrix with wounded cells counted as `weight` says, and short ships weighed by
    /// `small` while hunting (see the type).
    pub(super) fn new(weight: u32, small: u32) -> Density {
        Density {
            weight,
            small,
            ..Density::default()
        }
    }

    fn prepare(&mut self, setup: &Setup) {
        let tables = Tables::of(setup);
        self.alive = tables.places.iter().map(|p| vec![true; p.len()]).collect();
        self.stamp = tables
            .places
            .iter()
            .map(|p| vec![usize::MAX; p.len()])
            .collect();
        self.cover = tables.cover.clone();
        self.known = vec![Mark::Open; setup.dims.cells()];
        self.tables = Some(tables);
    }

    /// Takes out the positions through cells that have turned to a miss or a sunk ship.
    fn refresh(&mut self, m: &[Mark]) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        for (c, &mark) in m.iter().enumerate() {
            let gone = matches!(mark, Mark::Miss | Mark::Sunk);
            if gone && !matches!(self.known[c], Mark::Miss | Mark::Sunk) {
                for &(ty, i) in &t.through[c] {
                    if std::mem::replace(&mut self.alive[ty][i], false) {
                        for &x in &t.places[ty][i] {
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
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        let weight = self.scores(setup, shots);
        let top = weight.iter().copied().fold(0.0, f64::max);
        if top <= 0.0 {
            return any(&open(setup, shots), rng);
        }
        let mut best = (0..weight.len()).filter(|&c| weight[c] == top);
        if self.weight == 0 {
            any(&best.collect::<Vec<_>>(), rng)
        } else {
            best.next().expect("the top is met")
        }
    }
}

impl Density {
    /// Each cell's weight after `shots` (0 for cells fired at); the shooter fires at a
    /// heaviest cell: for `density:W` the first in reading order (the public engine's rule,
    /// so a game of it is fixed by its layout), for the Habr article's rule any at random.
    pub(super) fn scores(&mut self, setup: &Setup, shots: &[Shot]) -> Vec<f64> {
        let m = self.sync(setup, shots);
        // Ships afloat per type: the fleet less the sinkings reported.
        let mut afloat: Vec<u64> = setup.fleet.types().iter().map(|t| t.count as u64).collect();
        for s in shots {
            if let ShotResult::Sunk { ty, .. } = s.result {
                afloat[ty] = afloat[ty].saturating_sub(1);
            }
        }
        if self.weight == 0 {
            self.linear(setup, &m, &afloat)
        } else {
            self.weighted(setup, &m, &afloat)
        }
    }

    /// The marks after `shots`, the positions brought up to date with them (from scratch
    /// when the shots are not a continuation of those seen last).
    fn sync(&mut self, setup: &Setup, shots: &[Shot]) -> Vec<Mark> {
        if self.tables.is_none() || shots.len() < self.marks.seen {
            self.prepare(setup);
        }
        let mut m = self.marks.update(setup, shots).to_vec();
        if setup.rules == Rules::NoTouch {
            water_around_ships(setup, &mut m);
        }
        self.refresh(&m);
        m
    }

    /// Each open cell's count of allowed positions of the afloat ships covering it, each
    /// divided by its ship's length to the power `small`.
    fn hunting(&self, setup: &Setup, m: &[Mark], afloat: &[u64]) -> Vec<f64> {
        let mut weight = vec![0.0; setup.dims.cells()];
        for (ty, cover) in self.cover.iter().enumerate() {
            if afloat[ty] == 0 {
                continue;
            }
            let per = (setup.fleet.types()[ty].shape.size() as f64).powi(self.small as i32);
            for c in (0..weight.len()).filter(|&c| m[c] == Mark::Open) {
                weight[c] += (afloat[ty] * cover[c]) as f64 / per;
            }
        }
        weight
    }

    /// The Habr article's finishing: only positions through wounded cells, weighted by how
    /// many they cover (each is met once per wounded cell it covers); where none fits (a
    /// sinking taken for the wrong cells), hunting over every allowed position.
    fn linear(&self, setup: &Setup, m: &[Mark], afloat: &[u64]) -> Vec<f64> {
        let t = self.tables.as_ref().expect("prepared");
        let mut weight = vec![0.0; setup.dims.cells()];
        for c in (0..weight.len()).filter(|&c| m[c] == Mark::Wounded) {
            for &(ty, i) in &t.through[c] {
                if afloat[ty] == 0 || !self.alive[ty][i] {
                    continue;
                }
                for &x in &t.places[ty][i] {
                    if m[x] == Mark::Open {
                        weight[x] += afloat[ty] as f64;
                    }
                }
            }
        }
        if weight.iter().all(|&w| w == 0.0) {
            return self.hunting(setup, m, afloat);
        }
        weight
    }

    /// Every allowed position of an afloat ship adds `weight^k` to each open cell it covers,
    /// `k` the wounded cells it covers: the hunting counts, plus `weight^k - 1` for each
    /// position through a wounded cell (weighted once, however many it covers).
    fn weighted(&mut self, setup: &Setup, m: &[Mark], afloat: &[u64]) -> Vec<f64> {
        self.round += 1;
        let now = self.round;
        let t = self.tables.clone().expect("prepared");
        let mut weight = self.hunting(setup, m, afloat);
        let w = f64::from(self.weight);
        for c in (0..weight.len()).filter(|&c| m[c] == Mark::Wounded) {
            for &(ty, i) in &t.through[c] {
                if afloat[ty] == 0
                    || !self.alive[ty][i]
                    || std::mem::replace(&mut self.stamp[ty][i], now) == now
                {
                    continue;
                }
                let cells = &t.places[ty][i];
                let k = cells.iter().filter(|&&x| m[x] == Mark::Wounded).count();
                let extra = afloat[ty] as f64 * (w.powi(k as i32) - 1.0);
                for &x in cells {
                    if m[x] == Mark::Open {
                        weight[x] += extra;
                    }
                }
            }
        }
        weight
    }
}
