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
///
/// With a `lattice` `L` (0: none), the hunt keeps to one lattice while the shortest ship
/// afloat has `L` cells: with no ship wounded, only the cells whose row plus column is a
/// multiple of `L` are fired at (every straight ship of `L` cells covers one), as long as one
/// of them has any weight. Sinkings change the weights, and the heaviest cell, taken alone,
/// then drifts off the lattice the earlier shots kept.
///
/// The state is kept in flat arrays (positions numbered across types) and cloned cheaply, so
/// that a rollout can copy a game's density and play on from it.
#[derive(Default)]
pub(super) struct Density {
    weight: u32,
    small: u32,
    lattice: u32,
    marks: Marks,
    tables: Option<Arc<Tables>>,
    /// Per position (numbered across types), whether it is still allowed.
    alive: Vec<bool>,
    /// Per cell, a bit per position through it (in the order of [`Tables::through`]) that
    /// is still allowed; empty when some cell has more than 64 (see [`Tables::slot`]).
    live: Vec<u64>,
    /// Per type and cell (`ty * cells + c`): allowed positions covering it.
    cover: Vec<u32>,
    /// The marks of the last choice (under no-touch with the water around ships), which the
    /// positions are up to date with.
    m: Vec<Mark>,
    /// The wounded cells of `m`, in reading order.
    wounded: Vec<usize>,
    /// Per position: the wounded cells of `m` it covers.
    hits: Vec<u16>,
    /// Per number `k` of wounded cells a position covers: `weight^k - 1`, what it adds
    /// beyond its hunting count.
    extra: Vec<f64>,
    /// Per position: the last weighting that counted it (each counts it once).
    stamp: Vec<u32>,
    /// Weightings so far.
    round: u32,
    /// Scratch: the weights.
    w: Vec<f64>,
    terms: Vec<f64>,
    /// Per cell, its hunting weight as last worked out (whether or not it is open), and
    /// whether its counts have changed since (a bit per cell, 64 cells a word); all have
    /// after a sinking, when the terms are worked out again too.
    sums: Vec<f64>,
    dirty: Vec<u64>,
    all_dirty: bool,
    /// Ships afloat per type, after the first `afloat_seen` shots.
    afloat: Vec<u64>,
    afloat_seen: usize,
}

impl Clone for Density {
    fn clone(&self) -> Density {
        let mut density = Density::default();
        density.clone_from(self);
        density
    }

    /// Copies into this one's buffers: a rollout copies a game's density for every candidate.
    fn clone_from(&mut self, source: &Density) {
        let Density {
            weight,
            small,
            lattice,
            marks,
            tables,
            alive,
            live,
            cover,
            m,
            wounded,
            hits,
            extra,
            stamp,
            round,
            w,
            terms,
            sums,
            dirty,
            all_dirty,
            afloat,
            afloat_seen,
        } = source;
        self.weight = *weight;
        self.small = *small;
        self.lattice = *lattice;
        self.marks.clone_from(marks);
        // The same tables (a rollout's copy of its game's, again and again) are kept as they
        // are: a clone would write to the count the copies on every core share.
        if !matches!((&self.tables, tables), (Some(a), Some(b)) if Arc::ptr_eq(a, b)) {
            self.tables.clone_from(tables);
        }
        self.alive.clone_from(alive);
        self.live.clone_from(live);
        self.cover.clone_from(cover);
        self.m.clone_from(m);
        self.wounded.clone_from(wounded);
        self.hits.clone_from(hits);
        self.extra.clone_from(extra);
        // The weights are scratch the next weighting writes whole. The stamps only need to
        // lie below the rounds to come: this one's own do once its round is past the source's
        // (each stamp is at most the round it was set in, or `u32::MAX`, never a round).
        let _ = w;
        if self.stamp.len() == stamp.len() {
            self.round = self.round.max(*round);
        } else {
            self.stamp.clone_from(stamp);
            self.round = *round;
        }
        self.terms.clone_from(terms);
        self.sums.clone_from(sums);
        self.dirty.clone_from(dirty);
        self.all_dirty = *all_dirty;
        self.afloat.clone_from(afloat);
        self.afloat_seen = *afloat_seen;
    }
}

/// What density knows of a setup before the first shot.
struct Tables {
    dims: Dims,
    fleet: Fleet,
    /// Per position: its type, and where its cells start in `cells` (the next one's start
    /// ends them).
    ty: Vec<u16>,
    start: Vec<u32>,
    cells: Vec<u16>,
    /// Per cell, where its positions start in `through` (ascending by type, then position).
    through_start: Vec<u32>,
    through: Vec<u32>,
    /// Per cell of a position (as `cells`): the position's place in the cell's `through`;
    /// empty when a cell has more than 64 positions through it.
    slot: Vec<u8>,
    /// Per type and cell (`ty * cells + c`): the positions covering it.
    cover: Vec<u32>,
    /// The most positions of one type covering one cell.
    most: usize,
    /// The most cells of one position.
    longest: usize,
}

thread_local! {
    /// The tables of the setup this thread played last.
    static TABLES: RefCell<Option<Arc<Tables>>> = const { RefCell::new(None) };
}

impl Tables {
    fn new(setup: &Setup) -> Tables {
        let d = setup.dims;
        let n = d.cells();
        let mut ty = Vec::new();
        let mut start = vec![0u32];
        let mut cells = Vec::new();
        let mut through: Vec<Vec<u32>> = vec![Vec::new(); n];
        let types = setup.fleet.types();
        let mut cover = vec![0; types.len() * n];
        for (t, kind) in types.iter().enumerate() {
            for place in crate::placement::Placement::cells_all(d, &kind.shape) {
                let p = ty.len() as u32;
                ty.push(t as u16);
                for &c in &place {
                    cells.push(c as u16);
                    through[c].push(p);
                    cover[t * n + c] += 1;
                }
                start.push(cells.len() as u32);
            }
        }
        let narrow = through.iter().all(|t| t.len() <= 64);
        let slot = if narrow {
            cells
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    // The position whose cells include the `i`-th.
                    let p = start.partition_point(|&s| s as usize <= i) - 1;
                    through[c as usize]
                        .iter()
                        .position(|&q| q as usize == p)
                        .expect("a position is through each of its cells") as u8
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut through_start = vec![0u32];
        let mut flat = Vec::new();
        for t in through {
            flat.extend(t);
            through_start.push(flat.len() as u32);
        }
        Tables {
            most: cover.iter().copied().max().unwrap_or(0) as usize,
            longest: start
                .windows(2)
                .map(|w| (w[1] - w[0]) as usize)
                .max()
                .unwrap_or(0),
            dims: d,
            fleet: setup.fleet.clone(),
            ty,
            start,
            cells,
            through_start,
            through: flat,
            slot,
            cover,
        }
    }

    /// The cells of position `p`.
    #[inline]
    fn place(&self, p: usize) -> &[u16] {
        &self.cells[self.start[p] as usize..self.start[p + 1] as usize]
    }

    /// The positions covering cell `c`.
    #[inline]
    fn through(&self, c: usize) -> &[u32] {
        &self.through[self.through_start[c] as usize..self.through_start[c + 1] as usize]
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

/// The first heaviest of `cells` (ascending) by `weight`; none when no weight is above zero.
fn heaviest(weight: &[f64], cells: impl Iterator<Item = usize>) -> Option<usize> {
    let mut first = None;
    let mut top = 0.0;
    for c in cells {
        if weight[c] > top {
            (first, top) = (Some(c), weight[c]);
        }
    }
    first
}

/// [`heaviest`] over every cell, the same answer found faster: the greatest weight in four
/// running maxima (independent, so the scan does not wait on each comparison; every weight is
/// a finite sum, so no order of comparisons changes it), then the first cell holding it.
fn heaviest_of_all(weight: &[f64]) -> Option<usize> {
    let mut lanes = [0.0f64; 4];
    let quads = weight.chunks_exact(4);
    let mut top = quads
        .remainder()
        .iter()
        .fold(0.0f64, |t, &x| if x > t { x } else { t });
    for quad in quads {
        for (lane, &x) in lanes.iter_mut().zip(quad) {
            if x > *lane {
                *lane = x;
            }
        }
    }
    for lane in lanes {
        if lane > top {
            top = lane;
        }
    }
    if top <= 0.0 {
        return None;
    }
    // The first quad holding it, each quad's four comparisons made at once (`|`, not `||`).
    let quad = (weight.chunks_exact(4))
        .position(|q| (q[0] == top) | (q[1] == top) | (q[2] == top) | (q[3] == top))
        .unwrap_or(weight.len() / 4);
    (weight[4 * quad..].iter().position(|&x| x == top)).map(|k| 4 * quad + k)
}

/// Under the no-touch rule, the water a hit at `x` implies: the open cells diagonal to it,
/// and every open cell around it once its ship is known to be sunk, are taken as misses.
fn water_around(setup: &Setup, m: &[Mark], x: usize, mut water: impl FnMut(usize)) {
    let d = setup.dims;
    let sunk = match m[x] {
        Mark::Sunk => true,
        Mark::Wounded => false,
        _ => return,
    };
    let (r, c) = d.row_col(x);
    for y in d.neighbours8(x) {
        let (ry, cy) = d.row_col(y);
        if m[y] == Mark::Open && (sunk || (ry != r && cy != c)) {
            water(y);
        }
    }
}

impl Density {
    /// The matrix with wounded cells counted as `weight` says, short ships weighed by `small`
    /// while hunting, and the hunt kept to the `lattice` of the shortest ship afloat (0:
    /// none; see the type).
    pub(super) fn new(weight: u32, small: u32, lattice: u32) -> Density {
        Density {
            weight,
            small,
            lattice,
            ..Density::default()
        }
    }

    fn prepare(&mut self, setup: &Setup) {
        let tables = Tables::of(setup);
        self.alive = vec![true; tables.ty.len()];
        self.live = if tables.slot.is_empty() {
            Vec::new()
        } else {
            (0..setup.dims.cells())
                .map(|c| u64::MAX >> (64 - tables.through(c).len()))
                .collect()
        };
        self.stamp = vec![u32::MAX; tables.ty.len()];
        self.round = 0;
        self.cover = tables.cover.clone();
        self.m = vec![Mark::Open; setup.dims.cells()];
        self.wounded.clear();
        self.hits = vec![0; tables.ty.len()];
        let w = f64::from(self.weight);
        self.extra = (0..=tables.longest)
            .map(|k| w.powi(k as i32) - 1.0)
            .collect();
        self.tables = Some(tables);
        self.sums = vec![0.0; setup.dims.cells()];
        self.dirty = vec![0; setup.dims.cells().div_ceil(64)];
        self.all_dirty = true;
        self.afloat = setup.fleet.types().iter().map(|t| t.count as u64).collect();
        self.afloat_seen = 0;
    }

    /// Marks cell `c` as `mark`: the positions through it are taken out once it has turned to
    /// a miss or a sunk ship, and the wounded cells kept.
    fn mark(&mut self, t: &Tables, c: usize, mark: Mark) {
        let before = std::mem::replace(&mut self.m[c], mark);
        if before == mark {
            return;
        }
        let gone = |m: Mark| matches!(m, Mark::Miss | Mark::Sunk);
        if gone(mark) && !gone(before) {
            let n = self.m.len();
            let (alive, live, dirty) = (&mut self.alive, &mut self.live, &mut self.dirty);
            for &p in t.through(c) {
                let p = p as usize;
                if std::mem::replace(&mut alive[p], false) {
                    let cover = &mut self.cover[t.ty[p] as usize * n..][..n];
                    let (from, to) = (t.start[p] as usize, t.start[p + 1] as usize);
                    for (k, &x) in t.cells[from..to].iter().enumerate() {
                        let x = x as usize;
                        cover[x] -= 1;
                        dirty[x / 64] |= 1 << (x % 64);
                        if !live.is_empty() {
                            live[x] &= !(1 << t.slot[from + k]);
                        }
                    }
                }
            }
        }
        if before == Mark::Wounded {
            self.wounded.retain(|&x| x != c);
            for &p in t.through(c) {
                self.hits[p as usize] -= 1;
            }
        }
        if mark == Mark::Wounded {
            let at = self.wounded.partition_point(|&x| x < c);
            self.wounded.insert(at, c);
            for &p in t.through(c) {
                self.hits[p as usize] += 1;
            }
        }
    }

    /// What each cell was known to be at the last choice (under no-touch, with the water
    /// around ships): with the shots fired and the ships sunk, all that the next choices
    /// depend on.
    pub(super) fn known(&self) -> &[Mark] {
        &self.m
    }
}

impl Shooter for Density {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        self.weigh(setup, shots);
        let weight = &self.w;
        let modulus = self.modulus(setup);
        let mut first = None;
        if modulus > 1 {
            // The lattice's cells in reading order: in row `r`, the columns `k` with
            // `r + k` a multiple of the modulus.
            let d = setup.dims;
            first = heaviest(
                weight,
                (0..d.height).flat_map(|r| {
                    let from = (modulus - r % modulus) % modulus;
                    (from..d.width).step_by(modulus).map(move |k| d.index(r, k))
                }),
            );
        }
        let Some(first) = first.or_else(|| heaviest_of_all(weight)) else {
            return any(&open(setup, shots), rng);
        };
        if self.weight == 0 {
            // The Habr article's rule: any heaviest cell (it keeps no lattice).
            let top = weight[first];
            let best: Vec<usize> = (first..weight.len())
                .filter(|&c| weight[c] == top)
                .collect();
            any(&best, rng)
        } else {
            first
        }
    }
}

impl Density {
    /// The lattice the hunt keeps to at this shot: `lattice` while no ship is wounded and the
    /// shortest ship afloat has that many cells, else 1 (every cell). Up to date with the
    /// shots of the last weighting.
    fn modulus(&self, setup: &Setup) -> usize {
        let lattice = self.lattice as usize;
        if lattice < 2 || !self.wounded.is_empty() {
            return 1;
        }
        let shortest = (setup.fleet.types().iter().zip(&self.afloat))
            .filter(|&(_, &afloat)| afloat > 0)
            .map(|(ty, _)| ty.shape.size())
            .min();
        if shortest == Some(lattice) {
            lattice
        } else {
            1
        }
    }

    /// Each cell's weight after `shots` (0 for cells fired at); the shooter fires at a
    /// heaviest cell: for `density:W` the first in reading order (the public engine's rule,
    /// so a game of it is fixed by its layout), for the Habr article's rule any at random.
    pub(super) fn scores(&mut self, setup: &Setup, shots: &[Shot]) -> Vec<f64> {
        self.weigh(setup, shots);
        self.w.clone()
    }

    /// Puts the weights after `shots` in `self.w`.
    fn weigh(&mut self, setup: &Setup, shots: &[Shot]) {
        self.sync(setup, shots);
        // Ships afloat per type: the fleet less the sinkings reported.
        for s in &shots[self.afloat_seen..] {
            if let ShotResult::Sunk { ty, .. } = s.result {
                self.afloat[ty] = self.afloat[ty].saturating_sub(1);
                self.all_dirty = true;
            }
        }
        self.afloat_seen = shots.len();
        let afloat = std::mem::take(&mut self.afloat);
        let t = self.tables.take().expect("prepared");
        if self.weight == 0 {
            self.linear(&t, setup, &afloat);
        } else {
            self.weighted(&t, setup, &afloat);
        }
        self.tables = Some(t);
        self.afloat = afloat;
    }

    /// The marks after `shots` in `self.m`, the positions brought up to date with them (from
    /// scratch when the shots are not a continuation of those seen last). Only the cells the
    /// new shots changed are looked at, and under no-touch the water around them: water is
    /// only ever added, around hits that stay hits.
    fn sync(&mut self, setup: &Setup, shots: &[Shot]) {
        let fresh = self.tables.is_none() || shots.len() < self.marks.seen;
        let mut marks = std::mem::take(&mut self.marks);
        marks.update(setup, shots);
        if fresh || marks.restarted {
            self.prepare(setup);
            marks.changed.clear();
            marks.changed.extend(0..setup.dims.cells());
        }
        // The tables are taken out while the marks change and put back: a clone of the
        // `Arc` would add to its count, which the rollouts' copies on every core share.
        let t = self.tables.take().expect("prepared");
        for &c in &marks.changed {
            self.mark(&t, c, marks.current()[c]);
        }
        if setup.rules == Rules::NoTouch {
            let mut water = Vec::new();
            for &c in &marks.changed {
                water_around(setup, &self.m, c, |y| water.push(y));
                for y in water.drain(..) {
                    self.mark(&t, y, Mark::Miss);
                }
            }
        }
        self.tables = Some(t);
        self.marks = marks;
    }

    /// Each open cell's count of allowed positions of the afloat ships covering it, each
    /// divided by its ship's length to the power `small`, in `self.w`.
    fn hunting(&mut self, t: &Tables, setup: &Setup, afloat: &[u64]) {
        let n = setup.dims.cells();
        let row = t.most + 1;
        let all = std::mem::replace(&mut self.all_dirty, false);
        if all {
            // The terms by type and count, worked out once per fleet afloat: the same
            // quotients as per cell.
            self.terms.clear();
            for (ty, &a) in afloat.iter().enumerate() {
                let per = (setup.fleet.types()[ty].shape.size() as f64).powi(self.small as i32);
                self.terms
                    .extend((0..row as u64).map(|k| (a * k) as f64 / per));
            }
        }
        // A cell's weight is worked out again only when its counts or the fleet afloat have
        // changed, the types' terms added in the same order from zero: the same sum (a type
        // none of which is afloat adds zeros).
        let (terms, cover, sums) = (&self.terms, &self.cover, &mut self.sums);
        let mut weigh = |c: usize| {
            let mut sum = 0.0;
            for ty in 0..afloat.len() {
                sum += terms[ty * row + cover[ty * n + c] as usize];
            }
            sums[c] = sum;
        };
        for (i, word) in self.dirty.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            if all {
                bits = !0;
            }
            while bits != 0 {
                let c = i * 64 + bits.trailing_zeros() as usize;
                if c >= n {
                    break;
                }
                weigh(c);
                bits &= bits - 1;
            }
        }
        self.w.clear();
        self.w.extend(
            self.sums
                .iter()
                .zip(&self.m)
                .map(|(&s, &m)| if m == Mark::Open { s } else { 0.0 }),
        );
    }

    /// The Habr article's finishing: only positions through wounded cells, weighted by how
    /// many they cover (each is met once per wounded cell it covers); where none fits (a
    /// sinking taken for the wrong cells), hunting over every allowed position.
    fn linear(&mut self, t: &Tables, setup: &Setup, afloat: &[u64]) {
        let n = setup.dims.cells();
        self.w.clear();
        self.w.resize(n, 0.0);
        for &c in &self.wounded {
            for &p in t.through(c) {
                let p = p as usize;
                let ty = t.ty[p] as usize;
                if afloat[ty] == 0 || !self.alive[p] {
                    continue;
                }
                for &x in t.place(p) {
                    if self.m[x as usize] == Mark::Open {
                        self.w[x as usize] += afloat[ty] as f64;
                    }
                }
            }
        }
        if self.w.iter().all(|&w| w == 0.0) {
            self.hunting(t, setup, afloat);
        }
    }

    /// Every allowed position of an afloat ship adds `weight^k` to each open cell it covers,
    /// `k` the wounded cells it covers: the hunting counts, plus `weight^k - 1` for each
    /// position through a wounded cell (weighted once, however many it covers).
    fn weighted(&mut self, t: &Tables, setup: &Setup, afloat: &[u64]) {
        self.round = self.round.wrapping_add(1);
        if self.round == u32::MAX {
            self.stamp.iter_mut().for_each(|s| *s = u32::MAX);
            self.round = 0;
        }
        let now = self.round;
        self.hunting(t, setup, afloat);
        // The fields borrowed apart, so that the loop keeps them in registers.
        let (w, m, alive, live, stamp) = (
            &mut self.w[..],
            &self.m[..],
            &self.alive[..],
            &self.live[..],
            &mut self.stamp[..],
        );
        let (hits, extras) = (&self.hits[..], &self.extra[..]);
        // The tables' arrays as slices too: read through the `Arc`, their addresses were
        // loaded again at every position, the stamps' stores being possible aliases.
        let (types, start, cells) = (&t.ty[..], &t.start[..], &t.cells[..]);
        let (through_start, through) = (&t.through_start[..], &t.through[..]);
        let mut visit = |p: usize| {
            if stamp[p] == now {
                return;
            }
            let a = afloat[usize::from(types[p])];
            if a == 0 {
                return;
            }
            stamp[p] = now;
            let extra = a as f64 * extras[usize::from(hits[p])];
            // Every cell of an allowed position is open or wounded (no miss, no sunk ship);
            // the wounded ones are put back to 0 after the loop, which spares a branch a
            // cell, mispredicted as often as not.
            for &x in &cells[start[p] as usize..start[p + 1] as usize] {
                w[x as usize] += extra;
            }
        };
        for &c in &self.wounded {
            let list = &through[through_start[c] as usize..through_start[c + 1] as usize];
            // The allowed positions from bits, in the list's order: the cell's own where it
            // keeps them (a cell with at most 64 positions through it), else 64 at a time from
            // `alive`. Most positions through a wounded cell are ruled out, and testing each
            // one was a branch mispredicted about every other time; one call of `visit` is
            // inlined where two were not.
            for chunk in list.chunks(64) {
                let mut bits = if live.is_empty() {
                    (chunk.iter().enumerate()).fold(0u64, |bits, (k, &p)| {
                        bits | u64::from(alive[p as usize]) << k
                    })
                } else {
                    live[c]
                };
                while bits != 0 {
                    visit(chunk[bits.trailing_zeros() as usize] as usize);
                    bits &= bits - 1;
                }
            }
        }
        for &c in &self.wounded {
            debug_assert!(m[c] == Mark::Wounded);
            w[c] = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::fleet::Fleet;
    use crate::observe::Sinking;
    use crate::play::game::Game;
    use crate::sample::{Sampler, SamplerKind};

    /// Each open cell's weight worked out from scratch from the marks: every position of a
    /// type afloat with no miss or sunk ship on it adds `afloat / length^small`, and
    /// `afloat * (weight^k - 1)` more when it covers `k` ≥ 1 wounded cells.
    fn from_scratch(
        setup: &Setup,
        shots: &[Shot],
        m: &[Mark],
        weight: u32,
        small: u32,
    ) -> Vec<f64> {
        let mut w = vec![0.0; setup.dims.cells()];
        for (ty, kind) in setup.fleet.types().iter().enumerate() {
            let sunk = shots
                .iter()
                .filter(|s| matches!(s.result, ShotResult::Sunk { ty: t, .. } if t == ty))
                .count();
            let afloat = (kind.count - sunk) as f64;
            let len = kind.shape.size() as f64;
            for place in crate::placement::Placement::cells_all(setup.dims, &kind.shape) {
                if place
                    .iter()
                    .any(|&c| matches!(m[c], Mark::Miss | Mark::Sunk))
                {
                    continue;
                }
                let k = place.iter().filter(|&&c| m[c] == Mark::Wounded).count();
                let mut add = afloat / len.powi(small as i32);
                if k > 0 {
                    add += afloat * (f64::from(weight).powi(k as i32) - 1.0);
                }
                for &c in &place {
                    if m[c] == Mark::Open {
                        w[c] += add;
                    }
                }
            }
        }
        w
    }

    /// The weights kept up to date shot by shot match those worked out from scratch, and
    /// where a cell's allowed positions are kept as bits (at most 64 through a cell) the
    /// weights are bit for bit those of the lists; on boards and fleets both narrow and wide,
    /// both rules, sinkings reported or not.
    #[test]
    fn the_kept_weights_are_those_worked_out_from_scratch() {
        let boards = [
            (10, 10, vec![5, 4, 3, 3, 2], true),
            (20, 20, vec![9, 8, 7, 6, 5], false),
        ];
        let mut checked = 0;
        for (w, h, fleet, narrow) in boards {
            for (rules, sinking) in [
                (Rules::Touch, Sinking::Announced),
                (Rules::Touch, Sinking::None),
                (Rules::NoTouch, Sinking::Announced),
            ] {
                let setup = Setup {
                    dims: Dims::new(w, h),
                    fleet: Fleet::straight(&fleet),
                    rules,
                    sinking,
                    rocks: Vec::new(),
                };
                let empty = Arc::new(setup.empty().build().unwrap());
                // Any layouts serve: drawn a ship at a time, cheap on the wide board too.
                let mut sampler = Sampler::new(empty, SamplerKind::Sequential).unwrap();
                let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
                for _ in 0..2 {
                    let layout = sampler.sample(&mut rng).unwrap();
                    let mut game = Game::new(setup.clone(), layout);
                    let mut d = Density::new(50, 1, 0);
                    let mut lists = Density::new(50, 1, 0);
                    while !game.is_over() {
                        let shots = game.shots().to_vec();
                        let kept = d.scores(&setup, &shots);
                        assert_eq!(!d.live.is_empty(), narrow);
                        // The same shooter made to read its lists, not its bits.
                        lists.sync(&setup, &shots);
                        lists.live.clear();
                        assert_eq!(lists.scores(&setup, &shots), kept);
                        let truth = from_scratch(&setup, &shots, d.known(), 50, 1);
                        for (c, (a, b)) in kept.iter().zip(&truth).enumerate() {
                            assert!(
                                (a - b).abs() <= 1e-9 * b.max(1.0),
                                "{shots:?} cell {c}: {a} {b}"
                            );
                        }
                        checked += 1;
                        game.fire(d.choose(&setup, &shots, &mut rng));
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// The scan of the whole board finds the cell the plain scan does: the first heaviest,
    /// none when every weight is 0; on boards of every length modulo 4, with ties (few
    /// distinct weights), zeros and a single heaviest cell, anywhere.
    #[test]
    fn the_fast_scan_finds_the_first_heaviest_cell() {
        use rand::RngExt;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for len in 0..40 {
            for distinct in [1u32, 2, 3, 50] {
                for _ in 0..20 {
                    let weight: Vec<f64> = (0..len)
                        .map(|_| f64::from(rng.random_range(0..distinct)) / 3.0)
                        .collect();
                    assert_eq!(
                        heaviest_of_all(&weight),
                        heaviest(&weight, 0..len),
                        "{weight:?}"
                    );
                }
            }
        }
    }

    /// `density:50.1.2` fires where `density:50.1` would, but for the hunting shots (no ship
    /// wounded) while the 2-ship is afloat: those go to the first heaviest cell whose row plus
    /// column is even, while any such cell has weight. The expected cell is worked out here
    /// from the shots and the plain rule's weights; the games must meet shots where the two
    /// rules part.
    #[test]
    fn the_lattice_keeps_the_hunt_on_one_colour_while_the_two_ship_is_afloat() {
        let setup = Setup::standard();
        let empty = Arc::new(setup.empty().build().unwrap());
        let mut sampler = Sampler::new(empty, SamplerKind::Sequential).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let (mut kept, mut parted) = (0, 0);
        for _ in 0..40 {
            let layout = sampler.sample(&mut rng).unwrap();
            let mut game = Game::new(setup.clone(), layout);
            let mut lattice = Density::new(50, 1, 2);
            let mut plain = Density::new(50, 1, 0);
            while !game.is_over() {
                let shots = game.shots().to_vec();
                let w = plain.scores(&setup, &shots);
                let heaviest = |on: &dyn Fn(usize) -> bool| {
                    (0..w.len()).filter(|&c| w[c] > 0.0 && on(c)).fold(
                        None,
                        |b: Option<usize>, c| match b {
                            Some(b) if w[b] >= w[c] => Some(b),
                            _ => Some(c),
                        },
                    )
                };
                let two_afloat = !shots
                    .iter()
                    .any(|s| matches!(s.result, ShotResult::Sunk { ty, .. } if setup.fleet.types()[ty].shape.size() == 2));
                let hunting = !plain.known().contains(&Mark::Wounded);
                let even = |c: usize| {
                    let (r, k) = setup.dims.row_col(c);
                    (r + k) % 2 == 0
                };
                let mut expected = heaviest(&|_| true).expect("some weight");
                if let Some(c) = heaviest(&even).filter(|_| hunting && two_afloat) {
                    kept += 1;
                    parted += usize::from(c != expected);
                    expected = c;
                }
                let fired = lattice.choose(&setup, &shots, &mut rng);
                assert_eq!(fired, expected, "{shots:?}");
                game.fire(fired);
            }
        }
        assert!(kept > 400 && parted > 10, "{kept} {parted}");
    }
}
