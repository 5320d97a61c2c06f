//! The bitboard enumerator: depth-first search over ship placements.
//!
//! Each ship type's allowed placements (from [`Problem::placements`]) become two bitboards,
//! the cells it covers and the cells it *blocks* (its cells, plus its halo under the no-touch
//! rule). A search node holds the covered cells, the blocked cells, the ships left of each type
//! and the ship cells used in each row and column.
//!
//! **Branching, and why each layout is found once.** At each node the search either takes a
//! *cell step*, when a ship clue is not yet covered: it branches on which placement covers the
//! clue cell with the fewest candidates (exactly one ship covers it in any layout); or a *type
//! step*: it places the next ship of the first type with ships left, choosing among
//! placements whose index is at least a per-type floor, and raises the floor past the choice.
//! In every layout the next ship of a type step is the one of least index not yet placed, so
//! the path to a layout is unique and identical ships need no further symmetry breaking.
//!
//! **Counting shortcuts.** Without row or column counts and with every clue covered, the
//! completions of a node depend only on the free cells. When one ship is left, its placements
//! are counted at once: for each orientation, the anchors whose cells are all free are the
//! intersection of shifted copies of the free set, and a popcount counts them. When one ship
//! each of the last two types is left, the pairs are `sum over q of (N(free) - conflicts(q))`,
//! where the conflicts of a placement `q` with the last type's anchors are a precomputed mask
//! per orientation, so each `q` costs a few word operations.
//!
//! **Cost.** Exact counting is exponential in the worst case; [`Enumerator::count_up_to`]
//! stops as soon as it has seen `limit` layouts, which is what a uniqueness check needs.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::bitboard::Bits;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;
use crate::with_words;

use super::{CountError, CountOptions, CountResult, Stop};

/// The enumerator engine for one problem.
pub struct Enumerator<'p> {
    problem: &'p Problem,
}

impl<'p> Enumerator<'p> {
    /// An enumerator for `problem`. Building the tables is cheap; each call rebuilds them.
    pub fn new(problem: &'p Problem) -> Self {
        Enumerator { problem }
    }

    /// One solution, if there is any.
    pub fn solve(&self) -> Option<Layout> {
        self.solutions().next()
    }

    /// All solutions, lazily, in search order.
    pub fn solutions(&self) -> Solutions {
        Solutions::new(self.problem)
    }

    /// Counts solutions, stopping once `limit` are seen (the result then says so).
    /// `count_up_to(2)` decides uniqueness.
    pub fn count_up_to(&self, limit: u128) -> CountResult {
        self.count(&CountOptions {
            limit: Some(limit),
            ..CountOptions::default()
        })
        .expect("a limited count cannot overflow")
    }

    /// Whether there is exactly one solution.
    pub fn is_unique(&self) -> bool {
        let r = self.count_up_to(2);
        r.count == 1 && r.complete
    }

    /// Counts solutions (and, if asked, per-cell counts) with the given limits. Uses every
    /// core rayon gives it unless a count limit is set.
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        with_words!(self.problem.dims().cells(), N => {
            let t = Tables::<N>::new(self.problem);
            t.run_count(opts)
        })
    }
}

/// A candidate move: ship type, placement index, and whether it is a type step.
#[derive(Clone, Copy, Debug)]
struct Cand {
    ty: u16,
    idx: u32,
    type_step: bool,
}

struct Plc<const N: usize> {
    mask: Bits<N>,
    block: Bits<N>,
    /// (line, cells) for each row (`0..h`) and column (`h..h+w`) the placement touches.
    deltas: Vec<(u16, u16)>,
    orient: u8,
    anchor: u32,
}

struct Orient<const N: usize> {
    /// Offsets of the cells from the anchor (the top-left of the bounding box).
    offsets: Vec<usize>,
    /// Anchors of the allowed placements in this orientation.
    anchors: Bits<N>,
}

struct TypeT<const N: usize> {
    count: usize,
    size: usize,
    plcs: Vec<Plc<N>>,
    orients: Vec<Orient<N>>,
}

/// Conflict masks for the last-two-types shortcut: for each placement of type `x` and each
/// orientation of type `y`, the anchors of `y` that the placement blocks.
struct Pair<const N: usize> {
    x: usize,
    y: usize,
    /// Indexed `placement * orientations + orientation`.
    conflicts: Vec<Bits<N>>,
}

struct Tables<const N: usize> {
    board: Bits<N>,
    types: Vec<TypeT<N>>,
    water: Bits<N>,
    required: Bits<N>,
    caps: Vec<Option<u16>>,
    line_masks: Vec<Bits<N>>,
    has_caps: bool,
    /// For each cell, the placements covering it.
    cover: Vec<Vec<(u16, u32)>>,
    /// Sets of cells of which at least one must hold a ship (sonar rings).
    any_of: Vec<Bits<N>>,
    pair: Option<Pair<N>>,
}

#[derive(Clone)]
struct State<const N: usize> {
    ships: Bits<N>,
    blocked: Bits<N>,
    used: Vec<u16>,
    rem: Vec<usize>,
    floor: Vec<usize>,
    chosen: Vec<(u16, u32)>,
}

/// What one parallel subtree count returns: count, stop reason, overflow, per-cell counts.
type TaskResult = (u128, Option<Stop>, bool, Option<Vec<u128>>);

/// Per-search control: limits, the shared stop flag, and the running total.
struct Ctl<'a> {
    limit: Option<u128>,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    reason: Option<Stop>,
    found: u128,
    nodes: u64,
    overflow: bool,
}

impl Ctl<'_> {
    #[inline]
    fn should_stop(&mut self) -> bool {
        // Checked at a search's first node too: parallel subtrees can be short.
        let check = self.nodes & 0x3ff == 0;
        self.nodes += 1;
        if check {
            if self.stop.load(Ordering::Relaxed) {
                self.reason.get_or_insert(Stop::Time);
                return true;
            }
            if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stop.store(true, Ordering::Relaxed);
                self.reason = Some(Stop::Time);
                return true;
            }
        }
        self.reason.is_some()
    }

    #[inline]
    fn add(&mut self, n: u128) {
        match self.found.checked_add(n) {
            Some(v) => self.found = v,
            None => {
                self.overflow = true;
                self.reason = Some(Stop::Overflow);
            }
        }
        if let Some(l) = self.limit
            && self.found >= l
        {
            self.reason = Some(Stop::Limit);
        }
    }
}

impl<const N: usize> Tables<N> {
    fn new(problem: &Problem) -> Self {
        let d = problem.dims();
        let spec = problem.spec();
        let board = Bits::<N>::first(d.cells());
        let mut water = Bits::EMPTY;
        let mut required = Bits::EMPTY;
        for c in 0..d.cells() {
            match spec.clue(c) {
                Some(crate::Clue::Water | crate::Clue::Blocked) => water.insert(c),
                Some(k) if k.is_ship() => required.insert(c),
                _ => {}
            }
        }
        let nlines = d.height + d.width;
        let mut caps = Vec::with_capacity(nlines);
        let mut line_masks = Vec::with_capacity(nlines);
        for r in 0..d.height {
            caps.push(spec.row_count(r).map(|k| k as u16));
            line_masks.push(Bits::from_cells((0..d.width).map(|c| d.index(r, c))));
        }
        for c in 0..d.width {
            caps.push(spec.col_count(c).map(|k| k as u16));
            line_masks.push(Bits::from_cells((0..d.height).map(|r| d.index(r, c))));
        }
        let has_caps = caps.iter().any(Option::is_some);
        let mut cover = vec![Vec::new(); d.cells()];
        let mut types = Vec::new();
        for (ty, t) in problem.fleet().types().iter().enumerate() {
            let shapes = t.shape.orientations();
            let mut orients: Vec<Orient<N>> = shapes
                .iter()
                .map(|o| Orient {
                    offsets: o.cells().iter().map(|&(r, c)| r * d.width + c).collect(),
                    anchors: Bits::EMPTY,
                })
                .collect();
            let mut plcs = Vec::new();
            for (idx, p) in problem.placements(ty).iter().enumerate() {
                let mask = Bits::from_cells(p.cells.iter().copied());
                let block = match problem.rules() {
                    Rules::Touch => mask,
                    Rules::NoTouch => mask | Bits::from_cells(p.halo.iter().copied()),
                };
                let anchor = {
                    let r0 = p.cells.iter().map(|&c| d.row_col(c).0).min().unwrap_or(0);
                    let c0 = p.cells.iter().map(|&c| d.row_col(c).1).min().unwrap_or(0);
                    d.index(r0, c0)
                };
                let rel: Vec<usize> = p.cells.iter().map(|&c| c - anchor).collect();
                let orient = orients
                    .iter()
                    .position(|o| {
                        let mut a = o.offsets.clone();
                        a.sort_unstable();
                        a == rel
                    })
                    .expect("a placement has one of its type's orientations");
                orients[orient].anchors.insert(anchor);
                let mut deltas: Vec<(u16, u16)> = Vec::new();
                for &c in &p.cells {
                    let (r, col) = d.row_col(c);
                    for line in [r, d.height + col] {
                        match deltas.iter_mut().find(|x| x.0 as usize == line) {
                            Some(x) => x.1 += 1,
                            None => deltas.push((line as u16, 1)),
                        }
                    }
                }
                deltas.retain(|&(l, _)| caps[l as usize].is_some());
                for &c in &p.cells {
                    cover[c].push((ty as u16, idx as u32));
                }
                plcs.push(Plc {
                    mask,
                    block,
                    deltas,
                    orient: orient as u8,
                    anchor: anchor as u32,
                });
            }
            types.push(TypeT {
                count: t.count,
                size: t.shape.size(),
                plcs,
                orients,
            });
        }
        let mut tables = Tables {
            board,
            types,
            water,
            required,
            caps,
            line_masks,
            has_caps,
            cover,
            any_of: problem
                .any_of()
                .iter()
                .map(|s| Bits::from_cells(s.iter().copied()))
                .collect(),
            pair: None,
        };
        tables.pair = tables.pair_tables();
        tables
    }

    /// Builds the last-two-types tables: they serve nodes where one ship of each of the last
    /// two types is left.
    fn pair_tables(&self) -> Option<Pair<N>> {
        let n = self.types.len();
        if n < 2 || self.has_caps {
            return None;
        }
        let (x, y) = (n - 2, n - 1);
        let conflicts = self.types[x]
            .plcs
            .iter()
            .flat_map(|q| {
                self.types[y].orients.iter().map(|o| {
                    let mut m = Bits::EMPTY;
                    for &off in &o.offsets {
                        m |= q.block.shift_down(off);
                    }
                    m & o.anchors
                })
            })
            .collect();
        Some(Pair { x, y, conflicts })
    }

    fn root(&self) -> State<N> {
        State {
            ships: Bits::EMPTY,
            blocked: self.water | !self.board,
            used: vec![0; self.caps.len()],
            rem: self.types.iter().map(|t| t.count).collect(),
            floor: vec![0; self.types.len()],
            chosen: Vec::new(),
        }
    }

    #[inline]
    fn fits(&self, st: &State<N>, p: &Plc<N>) -> bool {
        p.mask.is_disjoint(st.blocked)
            && p.deltas.iter().all(|&(l, k)| {
                let cap = self.caps[l as usize].unwrap_or(u16::MAX);
                st.used[l as usize] + k <= cap
            })
    }

    #[inline]
    fn place(&self, st: &mut State<N>, c: Cand) {
        let p = &self.types[c.ty as usize].plcs[c.idx as usize];
        st.ships |= p.mask;
        st.blocked |= p.block;
        for &(l, k) in &p.deltas {
            st.used[l as usize] += k;
        }
        st.rem[c.ty as usize] -= 1;
        st.chosen.push((c.ty, c.idx));
    }

    /// Undoes [`Tables::place`]; `saved` is the state's covered and blocked cells before.
    #[inline]
    fn unplace(&self, st: &mut State<N>, c: Cand, saved: (Bits<N>, Bits<N>)) {
        let p = &self.types[c.ty as usize].plcs[c.idx as usize];
        st.ships = saved.0;
        st.blocked = saved.1;
        for &(l, k) in &p.deltas {
            st.used[l as usize] -= k;
        }
        st.rem[c.ty as usize] += 1;
        st.chosen.pop();
    }

    /// Whether the node can still lead to a solution, by cheap necessary conditions.
    fn viable(&self, st: &State<N>) -> bool {
        let open = self.required - st.ships;
        if !open.is_disjoint(st.blocked) {
            return false;
        }
        // A ring with no ship yet needs a cell that can still take one.
        if self
            .any_of
            .iter()
            .any(|&s| s.is_disjoint(st.ships) && s.is_subset(st.blocked))
        {
            return false;
        }
        if self.has_caps {
            let avail = !st.blocked & self.board;
            let rem_cells: usize = st
                .rem
                .iter()
                .zip(&self.types)
                .map(|(r, t)| r * t.size)
                .sum();
            for (l, cap) in self.caps.iter().enumerate() {
                if let Some(cap) = cap {
                    let need = (cap - st.used[l]) as u32;
                    if need as usize > rem_cells || need > (avail & self.line_masks[l]).len() {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether a node with no ship left is a solution.
    fn complete(&self, st: &State<N>) -> bool {
        self.required.is_subset(st.ships)
            && self.any_of.iter().all(|&s| !s.is_disjoint(st.ships))
            && self
                .caps
                .iter()
                .zip(&st.used)
                .all(|(c, &u)| c.is_none_or(|c| c == u))
    }

    /// The moves from a node: a cell step on the most constrained open clue, or a type step.
    fn candidates(&self, st: &State<N>, out: &mut Vec<Cand>) {
        out.clear();
        let open = self.required - st.ships;
        if !open.is_empty() {
            let mut best: Option<Vec<Cand>> = None;
            for cell in open.iter() {
                let cands: Vec<Cand> = self.cover[cell]
                    .iter()
                    .filter(|&&(ty, idx)| {
                        let t = ty as usize;
                        st.rem[t] > 0
                            && idx as usize >= st.floor[t]
                            && self.fits(st, &self.types[t].plcs[idx as usize])
                    })
                    .map(|&(ty, idx)| Cand {
                        ty,
                        idx,
                        type_step: false,
                    })
                    .collect();
                if best.as_ref().is_none_or(|b| cands.len() < b.len()) {
                    let done = cands.len() <= 1;
                    best = Some(cands);
                    if done {
                        break;
                    }
                }
            }
            out.extend(best.unwrap_or_default());
            return;
        }
        let Some(ty) = st.rem.iter().position(|&r| r > 0) else {
            return;
        };
        let t = &self.types[ty];
        // Leave room for the type's other ships: they take higher indices.
        let end = t.plcs.len().saturating_sub(st.rem[ty] - 1);
        for idx in st.floor[ty]..end {
            if self.fits(st, &t.plcs[idx]) {
                out.push(Cand {
                    ty: ty as u16,
                    idx: idx as u32,
                    type_step: true,
                });
            }
        }
    }

    /// Anchors of the allowed placements of `ty` in orientation `o` with index at least
    /// `floor` whose cells are all in `free`.
    #[inline]
    fn free_anchors(&self, ty: usize, o: usize, free: Bits<N>, floor: usize) -> Bits<N> {
        let t = &self.types[ty];
        let orient = &t.orients[o];
        let mut a = orient.anchors;
        if floor > 0 {
            let Some(f) = t.plcs.get(floor) else {
                return Bits::EMPTY;
            };
            match (f.orient as usize).cmp(&o) {
                std::cmp::Ordering::Greater => return Bits::EMPTY,
                std::cmp::Ordering::Equal => a = a - Bits::first(f.anchor as usize),
                std::cmp::Ordering::Less => {}
            }
        }
        for &off in &orient.offsets {
            a &= free.shift_down(off);
        }
        a
    }

    /// The shortcut count of a node's completions, when one applies.
    fn shortcut(&self, st: &State<N>, cells: Option<&mut [u128]>) -> Option<u128> {
        if self.has_caps
            || !self.required.is_subset(st.ships)
            || self.any_of.iter().any(|&s| s.is_disjoint(st.ships))
        {
            return None;
        }
        // This runs at millions of nodes: no allocation here. A shape has at most 8
        // orientations, and the shortcuts apply when at most two ships are left.
        let mut left = [0usize; 2];
        let mut nleft = 0;
        for (t, &r) in st.rem.iter().enumerate() {
            if r > 0 {
                if nleft == 2 {
                    return None;
                }
                left[nleft] = t;
                nleft += 1;
            }
        }
        let free = !st.blocked & self.board;
        if nleft == 1 && st.rem[left[0]] == 1 {
            let ty = left[0];
            let mut total = 0u128;
            let mut per_orient = [Bits::<N>::EMPTY; 8];
            for (o, slot) in per_orient
                .iter_mut()
                .enumerate()
                .take(self.types[ty].orients.len())
            {
                *slot = self.free_anchors(ty, o, free, st.floor[ty]);
                total += slot.len() as u128;
            }
            if let Some(cells) = cells {
                for c in st.ships.iter() {
                    cells[c] += total;
                }
                for (orient, a) in self.types[ty].orients.iter().zip(per_orient) {
                    for &off in &orient.offsets {
                        for c in a.shift_up(off).iter() {
                            cells[c] += 1;
                        }
                    }
                }
            }
            return Some(total);
        }
        let pair = self.pair.as_ref()?;
        if cells.is_some()
            || nleft != 2
            || left != [pair.x, pair.y]
            || st.rem[pair.x] != 1
            || st.rem[pair.y] != 1
            || st.floor[pair.y] != 0
        {
            return None;
        }
        let no = self.types[pair.y].orients.len();
        let mut ys = [Bits::<N>::EMPTY; 8];
        for (o, slot) in ys.iter_mut().enumerate().take(no) {
            *slot = self.free_anchors(pair.y, o, free, 0);
        }
        let ys = &ys[..no];
        let ny: u64 = ys.iter().map(|a| a.len() as u64).sum();
        let mut total = 0u64;
        for (qi, q) in self.types[pair.x]
            .plcs
            .iter()
            .enumerate()
            .skip(st.floor[pair.x])
        {
            if !q.mask.is_disjoint(st.blocked) {
                continue;
            }
            let lost: u64 = ys
                .iter()
                .zip(&pair.conflicts[qi * no..(qi + 1) * no])
                .map(|(a, m)| (*a & *m).len() as u64)
                .sum();
            total += ny - lost;
        }
        Some(total as u128)
    }

    /// Counts the completions of `st` into `ctl`, adding per-cell counts into `cells`.
    fn count_rec(&self, st: &mut State<N>, ctl: &mut Ctl, mut cells: Option<&mut [u128]>) {
        if ctl.should_stop() {
            return;
        }
        if st.rem.iter().all(|&r| r == 0) {
            if self.complete(st) {
                if let Some(cells) = cells {
                    for c in st.ships.iter() {
                        cells[c] += 1;
                    }
                }
                ctl.add(1);
            }
            return;
        }
        if !self.viable(st) {
            return;
        }
        if let Some(n) = self.shortcut(st, cells.as_deref_mut()) {
            ctl.add(n);
            return;
        }
        let mut cands = Vec::new();
        self.candidates(st, &mut cands);
        for c in cands {
            let saved = (st.ships, st.blocked);
            let floor = st.floor[c.ty as usize];
            self.place(st, c);
            if c.type_step {
                st.floor[c.ty as usize] = c.idx as usize + 1;
            }
            self.count_rec(st, ctl, cells.as_deref_mut());
            st.floor[c.ty as usize] = floor;
            self.unplace(st, c, saved);
            if ctl.reason.is_some() {
                return;
            }
        }
    }

    /// Splits the root into independent subtrees for the threads.
    fn frontier(&self, want: usize) -> Vec<State<N>> {
        let mut layer = vec![self.root()];
        let mut cands = Vec::new();
        for _ in 0..3 {
            if layer.len() >= want {
                break;
            }
            let mut next = Vec::new();
            for st in layer {
                let leafish = st.rem.iter().all(|&r| r == 0)
                    || !self.viable(&st)
                    || (!self.has_caps
                        && self.required.is_subset(st.ships)
                        && st.rem.iter().sum::<usize>() <= 2);
                if leafish {
                    next.push(st);
                    continue;
                }
                self.candidates(&st, &mut cands);
                for &c in &cands {
                    let mut s = st.clone();
                    self.place(&mut s, c);
                    if c.type_step {
                        s.floor[c.ty as usize] = c.idx as usize + 1;
                    }
                    next.push(s);
                }
            }
            layer = next;
        }
        layer
    }

    fn run_count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        let start = Instant::now();
        let deadline = opts.time_limit.map(|t| start + t);
        let stop = AtomicBool::new(false);
        let ncells = self.board.len() as usize;
        let want_cells = opts.per_cell;
        let new_ctl = |limit| Ctl {
            limit,
            deadline,
            stop: &stop,
            reason: None,
            found: 0,
            nodes: 0,
            overflow: false,
        };
        if opts.limit.is_some() || !opts.parallel {
            let mut ctl = new_ctl(opts.limit);
            let mut cells = want_cells.then(|| vec![0u128; ncells]);
            let mut st = self.root();
            self.count_rec(&mut st, &mut ctl, cells.as_deref_mut());
            if ctl.overflow {
                return Err(CountError::Overflow);
            }
            let count = match opts.limit {
                Some(l) => ctl.found.min(l),
                None => ctl.found,
            };
            return Ok(CountResult {
                count,
                complete: ctl.reason.is_none(),
                stopped: ctl.reason,
                per_cell: cells,
                engine: super::EngineKind::Enum,
            });
        }
        let tasks = self.frontier(256);
        let done = AtomicU64::new(0);
        let total = tasks.len() as u64;
        let results: Vec<TaskResult> = tasks
            .into_par_iter()
            .map(|mut st| {
                let mut ctl = new_ctl(None);
                let mut cells = want_cells.then(|| vec![0u128; ncells]);
                self.count_rec(&mut st, &mut ctl, cells.as_deref_mut());
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(p) = &opts.progress {
                    p(d, total);
                }
                (ctl.found, ctl.reason, ctl.overflow, cells)
            })
            .collect();
        let mut count = 0u128;
        let mut stopped = None;
        let mut per_cell = want_cells.then(|| vec![0u128; ncells]);
        for (n, reason, overflow, cells) in results {
            if overflow {
                return Err(CountError::Overflow);
            }
            count = count.checked_add(n).ok_or(CountError::Overflow)?;
            stopped = stopped.or(reason);
            if let (Some(acc), Some(c)) = (per_cell.as_mut(), cells) {
                for (a, b) in acc.iter_mut().zip(c) {
                    *a = a.checked_add(b).ok_or(CountError::Overflow)?;
                }
            }
        }
        Ok(CountResult {
            count,
            complete: stopped.is_none(),
            stopped,
            per_cell,
            engine: super::EngineKind::Enum,
        })
    }

    fn layout(&self, st: &State<N>, problem: &Problem) -> Layout {
        Layout {
            ships: st
                .chosen
                .iter()
                .map(|&(ty, idx)| Ship {
                    ty: ty as usize,
                    cells: problem.placements(ty as usize)[idx as usize].cells.clone(),
                })
                .collect(),
        }
    }
}

/// Lazy iterator over the solutions of a problem; see [`Enumerator::solutions`].
pub struct Solutions {
    inner: Box<dyn Iterator<Item = Layout> + Send>,
}

impl Solutions {
    fn new(problem: &Problem) -> Solutions {
        let problem = problem.clone();
        let inner: Box<dyn Iterator<Item = Layout> + Send> =
            with_words!(problem.dims().cells(), N => Box::new(Walk::<N>::new(problem)));
        Solutions { inner }
    }
}

impl Iterator for Solutions {
    type Item = Layout;
    fn next(&mut self) -> Option<Layout> {
        self.inner.next()
    }
}

/// The search as an explicit stack, so solutions come one at a time.
struct Walk<const N: usize> {
    problem: Problem,
    tables: Tables<N>,
    stack: Vec<(State<N>, Vec<Cand>, usize)>,
    started: bool,
}

impl<const N: usize> Walk<N> {
    fn new(problem: Problem) -> Self {
        let tables = Tables::new(&problem);
        Walk {
            problem,
            tables,
            stack: Vec::new(),
            started: false,
        }
    }

    /// Pushes a node; returns a layout if the node is a solution.
    fn enter(&mut self, st: State<N>) -> Option<Layout> {
        let t = &self.tables;
        if st.rem.iter().all(|&r| r == 0) {
            return t.complete(&st).then(|| t.layout(&st, &self.problem));
        }
        if t.viable(&st) {
            let mut cands = Vec::new();
            t.candidates(&st, &mut cands);
            self.stack.push((st, cands, 0));
        }
        None
    }
}

impl<const N: usize> Iterator for Walk<N> {
    type Item = Layout;
    fn next(&mut self) -> Option<Layout> {
        if !self.started {
            self.started = true;
            let root = self.tables.root();
            if let Some(l) = self.enter(root) {
                return Some(l);
            }
        }
        loop {
            let (st, cands, i) = self.stack.last_mut()?;
            if *i >= cands.len() {
                self.stack.pop();
                continue;
            }
            let c = cands[*i];
            *i += 1;
            let mut s = st.clone();
            self.tables.place(&mut s, c);
            if c.type_step {
                s.floor[c.ty as usize] = c.idx as usize + 1;
            }
            if let Some(l) = self.enter(s) {
                return Some(l);
            }
        }
    }
}

/// Exact uniform sampling by count-guided descent: from the root, each move is taken with
/// probability proportional to the number of layouts below it (counted exactly), so every
/// layout is drawn with probability 1 / (number of layouts). Each draw costs about one exact
/// count, so this suits constrained states; the DP's sampler is the fast one on open boards.
pub struct DescentSampler {
    inner: Box<dyn Descend + Send>,
}

trait Descend {
    fn draw(&self, rng: &mut dyn FnMut(u128) -> u128) -> Option<Layout>;
}

impl DescentSampler {
    /// A sampler for `problem`.
    pub fn new(problem: &Problem) -> DescentSampler {
        let problem = problem.clone();
        let inner: Box<dyn Descend + Send> = with_words!(problem.dims().cells(), N => {
            let tables = Tables::<N>::new(&problem);
            Box::new((problem, tables))
        });
        DescentSampler { inner }
    }

    /// One layout drawn uniformly at random; `None` when there is none.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Layout> {
        use rand::RngExt;
        self.inner.draw(&mut |n| rng.random_range(0..n))
    }
}

impl<const N: usize> Descend for (Problem, Tables<N>) {
    fn draw(&self, pick: &mut dyn FnMut(u128) -> u128) -> Option<Layout> {
        let (problem, t) = self;
        let stop = AtomicBool::new(false);
        let completions = |st: &mut State<N>| {
            let mut ctl = Ctl {
                limit: None,
                deadline: None,
                stop: &stop,
                reason: None,
                found: 0,
                nodes: 0,
                overflow: false,
            };
            t.count_rec(st, &mut ctl, None);
            ctl.found
        };
        let mut st = t.root();
        let mut cands = Vec::new();
        loop {
            if st.rem.iter().all(|&r| r == 0) {
                return t.complete(&st).then(|| t.layout(&st, problem));
            }
            t.candidates(&st, &mut cands);
            let children: Vec<(State<N>, u128)> = cands
                .iter()
                .map(|&c| {
                    let mut s = st.clone();
                    t.place(&mut s, c);
                    if c.type_step {
                        s.floor[c.ty as usize] = c.idx as usize + 1;
                    }
                    let n = completions(&mut s.clone());
                    (s, n)
                })
                .filter(|(_, n)| *n > 0)
                .collect();
            let total: u128 = children.iter().map(|c| c.1).sum();
            if total == 0 {
                return None;
            }
            let mut r = pick(total);
            let (next, _) = children
                .into_iter()
                .find(|(_, n)| {
                    if r < *n {
                        true
                    } else {
                        r -= *n;
                        false
                    }
                })
                .expect("r is below the total");
            st = next;
        }
    }
}
