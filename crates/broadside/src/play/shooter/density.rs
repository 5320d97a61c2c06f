//! The Habr article's probability matrix.

use std::cell::RefCell;
use std::sync::Arc;

use rand::Rng;

use super::hunt::{Mark, Marks};
use super::{Shooter, any, open};
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::observe::{Shot, ShotResult};
use crate::play::game::Setup;

/// The Habr article's probability matrix. Every position of each ship type's shape on the board is kept
/// with whether the shots still allow it (no miss and no sunk ship on it), and per type and
/// cell how many allowed positions cover the cell, updated as cells turn to misses or sunk
/// ships; so hunting costs a pass over types and cells per shot, not over every position.
/// The positions themselves are the same in every game of a setup, and shared.
#[derive(Default)]
pub(super) struct Density {
    marks: Marks,
    tables: Option<Arc<Tables>>,
    /// Per type, whether each position is still allowed.
    alive: Vec<Vec<bool>>,
    /// Per type, per cell: allowed positions covering it.
    cover: Vec<Vec<u64>>,
    /// The marks the positions were last brought up to date with.
    known: Vec<Mark>,
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

impl Density {
    fn prepare(&mut self, setup: &Setup) {
        let tables = Tables::of(setup);
        self.alive = tables.places.iter().map(|p| vec![true; p.len()]).collect();
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
        let d = setup.dims;
        if self.tables.is_none() || shots.len() < self.marks.seen {
            self.prepare(setup);
        }
        let t = self.tables.clone().expect("prepared");
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
            for &(ty, i) in &t.through[c] {
                if afloat[ty] == 0 || !self.alive[ty][i] {
                    continue;
                }
                for &x in &t.places[ty][i] {
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
