//! Counting with the enumerator: the search to a limit or a deadline, the shortcuts that
//! count the last one, two or three ships at once, per-cell counts, and the split of the search
//! into subtrees counted on every core.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::symmetry::Symmetric;
use super::tables::{Cand, State, Tables};
use crate::bitboard::Bits;
use crate::engine::{Cancel, CountError, CountOptions, CountResult, Stop};

/// The fewest subtrees of the search a part of a count in parts ([`Tables::count_part`])
/// gets, so that the parts are alike in size.
const SUBTREES_PER_PART: usize = 16;

/// The most states a level of the frontier keeps: the next level's subtrees are then the moves
/// from this one, made by the workers, however many parts were asked for (whose count may pass
/// the subtrees there are: a part beyond them is empty, and the parts still add up).
const MOST_FRONTIER_STATES: usize = 1 << 18;

/// How long a parallel count first tries on the calling thread alone.
const SEQUENTIAL_TRIAL: std::time::Duration = std::time::Duration::from_micros(300);

/// The work of a search: its nodes, and the placements its shortcuts walk.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    /// Search nodes.
    pub nodes: f64,
    /// Placements walked by the shortcuts that count the last ships: the first ship's free
    /// placements where two are left; where three are, the other two ships' and the first
    /// ship's weighed as `TRIPLE_STEPS` each.
    pub steps: f64,
}

/// What one parallel subtree count returns: count, stop reason, overflow.
type TaskResult = (u128, Option<Stop>, bool);

/// A worker's per-cell counts, one set per weight of its subtrees.
type ByWeight = Vec<(u64, Vec<u128>)>;

/// The first levels of a search split into subtrees: the states of the level above the
/// last, and per subtree its parent there and the move from it (`None`: the parent is the
/// subtree), in search order, with the layouts each of its layouts stands for (more than one
/// under a first ship placed at one placement of each orbit of the problem's symmetries).
pub(super) struct Frontier<const N: usize> {
    parents: Vec<State<N>>,
    tasks: Vec<(usize, Option<Cand>)>,
    weights: Vec<u64>,
}

/// Per-search control: limits, the shared stop flag, and the running total.
pub(super) struct Ctl<'a> {
    pub(super) limit: Option<u128>,
    pub(super) deadline: Option<Instant>,
    pub(super) stop: &'a AtomicBool,
    pub(super) cancel: Option<&'a Cancel>,
    pub(super) reason: Option<Stop>,
    pub(super) found: u128,
    pub(super) nodes: u64,
    /// Work done since the last node, in nodes (a shortcut's walk over many placements).
    charged: u64,
    pub(super) overflow: bool,
    /// Candidate lists of nodes left, for the next nodes to fill: a search allocates one
    /// per level, not one per node.
    spare: Vec<Vec<Cand>>,
    /// The shortcut of the last three ships' counts of conflicts per placement
    /// ([`Tables::triple_count`]), kept from one node to the next.
    degrees: Vec<u32>,
}

impl<'a> Ctl<'a> {
    /// A search's control with no limit, deadline or cancellation, stopped by `stop`.
    pub(super) fn new(stop: &'a AtomicBool) -> Self {
        Ctl {
            limit: None,
            deadline: None,
            stop,
            cancel: None,
            reason: None,
            found: 0,
            nodes: 0,
            charged: 0,
            overflow: false,
            spare: Vec::new(),
            degrees: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn should_stop(&mut self) -> bool {
        // Checked at a search's first node too: parallel subtrees can be short. The flags
        // every 32 nodes (a race waits for its loser), the clock every thousand.
        // A shortcut that walked many placements charged them as nodes: the checks come
        // as often in time.
        let before = self.nodes;
        self.nodes += 1 + std::mem::take(&mut self.charged);
        let flags = before == 0 || before >> 5 != self.nodes >> 5;
        let clock = before == 0 || before >> 10 != self.nodes >> 10;
        if flags {
            if self.stop.load(Ordering::Relaxed) {
                self.reason.get_or_insert(Stop::Time);
                return true;
            }
            if self.cancel.is_some_and(Cancel::is_cancelled) {
                self.reason = Some(Stop::Cancelled);
                return true;
            }
        }
        if clock
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stop.store(true, Ordering::Relaxed);
            self.reason = Some(Stop::Time);
            return true;
        }
        self.reason.is_some()
    }

    #[inline]
    pub(super) fn add(&mut self, n: u128) {
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

/// Per-cell counts as a search gathers them: per cell, the layouts found through it; and per
/// placement of the last ships (type, orientation, anchor), those the shortcuts found through
/// it, spread over its cells at the end. A placement takes one addition where its cells
/// would take one each.
pub(super) struct PerCell {
    cells: Vec<u128>,
    /// Per type, orientation and anchor, from `first[type] + orientation * cells`. None is
    /// over `pending`, the layouts the shortcuts found since they were last spread.
    through: Vec<u64>,
    first: Vec<usize>,
    pending: u128,
}

/// Past this many layouts credited to placements they are spread over their cells, so that
/// no placement's count passes 64 bits (a shortcut adds far fewer than the rest).
const SPREAD_PAST: u128 = 1 << 62;

impl PerCell {
    fn new<const N: usize>(t: &Tables<N>, cells: usize) -> Self {
        let mut first = Vec::with_capacity(t.types.len());
        let mut at = 0;
        for ty in &t.types {
            first.push(at);
            at += ty.orients.len() * cells;
        }
        PerCell {
            cells: vec![0; cells],
            through: vec![0; at],
            first,
            pending: 0,
        }
    }

    /// A shortcut credited its placements with `n` layouts.
    #[inline]
    fn credited<const N: usize>(&mut self, n: u128, t: &Tables<N>) {
        self.pending += n;
        if self.pending > SPREAD_PAST {
            self.spread_through(t);
        }
    }

    /// The counts through each anchor of type `ty` in orientation `o`.
    #[inline]
    fn through(&mut self, ty: usize, o: usize) -> &mut [u64] {
        let n = self.cells.len();
        let at = self.first[ty] + o * n;
        &mut self.through[at..at + n]
    }

    /// `n` more layouts through each of `cells`.
    #[inline]
    fn add<const N: usize>(&mut self, cells: Bits<N>, n: u128) {
        if n > 0 {
            for c in cells.iter() {
                self.cells[c] += n;
            }
        }
    }

    /// The per-cell counts: the placements' counts spread over their cells.
    fn spread<const N: usize>(mut self, t: &Tables<N>) -> Vec<u128> {
        self.spread_through(t);
        self.cells
    }

    /// The placements' counts added to their cells, and set to 0.
    fn spread_through<const N: usize>(&mut self, t: &Tables<N>) {
        let n = self.cells.len();
        for (ty, tt) in t.types.iter().enumerate() {
            for (o, orient) in tt.orients.iter().enumerate() {
                let at = self.first[ty] + o * n;
                for a in 0..n {
                    let m = std::mem::take(&mut self.through[at + a]);
                    if m > 0 {
                        for &off in &orient.offsets {
                            self.cells[a + off] += u128::from(m);
                        }
                    }
                }
            }
        }
        self.pending = 0;
    }
}

/// The ships a node has left when a shortcut counts them at once: their types, sorted, a
/// type as often as it is left.
#[derive(Clone, Copy)]
struct Last {
    types: [usize; 3],
    len: usize,
}

impl Last {
    fn ships(&self) -> &[usize] {
        &self.types[..self.len]
    }
}

/// A ship type's free placements at a node: anchors per orientation, and how many.
#[derive(Clone, Copy)]
struct Free<const N: usize> {
    ty: usize,
    per_orient: [Bits<N>; 8],
    n: u64,
}

/// The steps, in placements a pair's shortcut walks, of a placement of the first of the last
/// three ships (a walk over the few placements it blocks), in [`Work::steps`]; each of the
/// other two ships' placements weighs one.
const TRIPLE_STEPS: f64 = 4.0;

/// What credits each placement of `ty` with the pairs beside it, `per` of them a layout.
fn credit(cells: &mut PerCell, ty: usize, per: u64) -> impl FnMut(usize, usize, u64) + '_ {
    move |o, a, pairs| cells.through(ty, o)[a] += pairs / per
}

/// How often the ordered tuples of the last three ships count one layout: the orders of
/// the ships of one type.
fn triple_repeats(types: [usize; 3]) -> u64 {
    match (types[0] == types[1], types[1] == types[2]) {
        (true, true) => 6,
        (false, false) => 1,
        _ => 2,
    }
}

impl<const N: usize> Tables<N> {
    /// Anchors of the allowed placements of `ty` in orientation `o` with index at least
    /// `floor` whose cells are all in `free`.
    #[inline]
    pub(super) fn free_anchors(&self, ty: usize, o: usize, free: Bits<N>, floor: usize) -> Bits<N> {
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

    /// The shortcut that counts a node's completions at once, if one applies: one, two or
    /// three ships left (their types, a type as often as it is left).
    #[inline]
    fn last_ships(&self, st: &State<N>) -> Option<Last> {
        if self.has_caps
            || !self.required.is_subset(st.ships)
            || self.any_of.iter().any(|&s| s.is_disjoint(st.ships))
        {
            return None;
        }
        // This runs at millions of nodes: no allocation here.
        let mut last = Last {
            types: [0; 3],
            len: 0,
        };
        for (t, &r) in st.rem.iter().enumerate() {
            for _ in 0..r {
                if last.len == 3 {
                    return None;
                }
                last.types[last.len] = t;
                last.len += 1;
            }
        }
        (last.len > 0).then_some(last)
    }

    /// The shortcut count of a node's completions, when one applies.
    ///
    /// Per-cell counts go to `cells` by placement: each free placement of the last ships is
    /// credited with the layouts through it, not yet spread over its cells, and the ships
    /// placed before are credited by the caller ([`Tables::count_rec`]).
    pub(super) fn shortcut(
        &self,
        st: &State<N>,
        cells: Option<&mut PerCell>,
        ctl: &mut Ctl,
    ) -> Option<u128> {
        let last = self.last_ships(st)?;
        let free = !st.blocked & self.board;
        match *last.ships() {
            [x] => {
                // A shape has at most 8 orientations.
                let (per_orient, total) = self.all_free_anchors(x, free, st.floor[x]);
                if let Some(cells) = cells {
                    for (o, a) in per_orient
                        .iter()
                        .enumerate()
                        .take(self.types[x].orients.len())
                    {
                        let through = cells.through(x, o);
                        for a in a.iter() {
                            through[a] += 1;
                        }
                    }
                }
                Some(total as u128)
            }
            [x, y] => Some(self.pair_count(st, free, x, y, cells)),
            [x, y, z] => Some(self.triple_count(st, free, [x, y, z], cells, ctl)),
            _ => None,
        }
    }

    /// The size of the search, estimated by Knuth's random probes: each probe walks from the
    /// root down one random branch to a leaf, and a node `d` levels down, reached through
    /// branchings of `b_1 ... b_d` ways, stands for `b_1 * ... * b_d` nodes like it. The
    /// mean over probes is an unbiased estimate of the nodes visited and of the placements a
    /// shortcut walks (its first ship's free placements, each a few word operations).
    ///
    /// Where the problem's symmetries let a count place its first ship by orbits, the
    /// probes' first move is among the orbits' representatives, as the count's is.
    pub(super) fn estimate(&self, probes: usize, rng: &mut impl rand::Rng) -> Work {
        use rand::RngExt;
        let mut work = Work::default();
        let mut cands = Vec::new();
        let sym = self.symmetric(self.dims);
        for _ in 0..probes {
            let mut st = self.root();
            let mut weight = 1.0;
            let mut first = true;
            loop {
                work.nodes += weight;
                if st.rem.iter().all(|&r| r == 0) || !self.viable(&st) {
                    break;
                }
                if let Some(last) = self.last_ships(&st) {
                    let free = !st.blocked & self.board;
                    let anchors = |t: usize| self.all_free_anchors(t, free, st.floor[t]).1 as f64;
                    work.steps += weight
                        * match *last.ships() {
                            [x, y, z] => TRIPLE_STEPS * anchors(x) + anchors(y) + anchors(z),
                            [x, ..] => anchors(x),
                            [] => 0.0,
                        };
                    break;
                }
                self.candidates(&st, &mut cands);
                if let Some(sym) = sym.as_ref().filter(|_| first) {
                    cands.retain(|c| sym.weight(c) > 0);
                }
                first = false;
                if cands.is_empty() {
                    break;
                }
                weight *= cands.len() as f64;
                let c = cands[rng.random_range(0..cands.len())];
                self.place(&mut st, c);
                if c.type_step {
                    st.floor[c.ty as usize] = c.idx as usize + 1;
                }
            }
        }
        work.nodes /= probes.max(1) as f64;
        work.steps /= probes.max(1) as f64;
        work
    }

    /// The layouts that complete `st` with one ship of type `x` and one of type `y` (two of
    /// the type when `x == y`), each pair once, crediting each placement in `cells` with the
    /// pairs through it.
    ///
    /// For each free placement `q` of `x`, the placements of `y` that fit beside it are the
    /// free ones less those `q` blocks (a precomputed mask per orientation), so the pairs
    /// through `q` cost a few word operations, and `q`'s cells are in that many layouts;
    /// the placements of `y` are weighed the same way from the other side. Two ships of one
    /// type count each ordered pair twice.
    fn pair_count(
        &self,
        st: &State<N>,
        free: Bits<N>,
        x: usize,
        y: usize,
        cells: Option<&mut PerCell>,
    ) -> u128 {
        let (xs, nx) = self.all_free_anchors(x, free, st.floor[x]);
        let (ys, ny) = if x == y {
            (xs, nx)
        } else {
            self.all_free_anchors(y, free, st.floor[y])
        };
        let ox = self.types[x].orients.len();
        let oy = self.types[y].orients.len();
        let mut cells = cells;
        let mut total = 0u64;
        let forward = self.pair(x, y);
        for (o, anchors) in xs.iter().enumerate().take(ox) {
            match cells.as_deref_mut() {
                Some(cells) => {
                    let through = cells.through(x, o);
                    for a in anchors.iter() {
                        let m = forward.fitting(o, a, &ys[..oy], ny);
                        total += m;
                        through[a] += m;
                    }
                }
                None => {
                    for a in anchors.iter() {
                        total += forward.fitting(o, a, &ys[..oy], ny);
                    }
                }
            }
        }
        if x == y {
            total /= 2;
        } else if let Some(cells) = cells {
            let back = self.pair(y, x);
            for (o, anchors) in ys.iter().enumerate().take(oy) {
                let through = cells.through(y, o);
                for b in anchors.iter() {
                    through[b] += back.fitting(o, b, &xs[..ox], nx);
                }
            }
        }
        total as u128
    }

    /// The layouts that complete `st` with the three ships `types` (sorted, a type as often
    /// as it is left), each layout once, crediting each placement in `cells` with the
    /// layouts through it.
    ///
    /// Two placements conflict when they overlap (or touch, where ships may not); three fit
    /// together when no two of them conflict, so inclusion and exclusion over the three
    /// pairs count them from pairwise conflicts alone: for a placement `p` of the first ship,
    /// the pairs of the other two that fit beside `p` and each other are the pairs of those
    /// beside `p` less the conflicting ones among them, and those are the conflicting pairs of
    /// all the free placements less those through a placement `p` blocks, plus those with
    /// both in what `p` blocks. A placement conflicts with a few dozen others, so `p` costs a
    /// walk over the few `p` blocks where the search would walk every placement of the second
    /// ship and count the third beside each. Ordered tuples are counted: two ships of one
    /// type count each layout twice, three six times.
    fn triple_count(
        &self,
        st: &State<N>,
        free: Bits<N>,
        types: [usize; 3],
        cells: Option<&mut PerCell>,
        ctl: &mut Ctl,
    ) -> u128 {
        let [x, y, z] = types;
        let degrees = &mut ctl.degrees;
        let anchors = |t: usize| {
            let (per_orient, n) = self.all_free_anchors(t, free, st.floor[t]);
            Free {
                ty: t,
                per_orient,
                n,
            }
        };
        let (fx, fy) = (anchors(x), anchors(y));
        let fz = if z == y { fy } else { anchors(z) };
        let fx = if x == y { fy } else { fx };
        // The walks (over one ship's placements, with about twice the work at each where
        // every ship is credited, and over the others' once), each placement some words of
        // bitboard: charged as nodes, so that the search reads its stop flag and clock as
        // often in time on a large board (about a hundred nodes a leaf on the standard
        // board, where a leaf takes a few µs).
        let walks = if cells.is_some() { 2 } else { 1 };
        let words = N as u64;
        ctl.charged += (walks * fx.n + fy.n + fz.n) * words / 16;
        let Some(cells) = cells else {
            // From the ship whose partners are one set where two are of one type: its walk
            // goes over what a placement blocks of them once.
            let (f, g, h) = match (x == y, y == z) {
                (true, false) => (&fz, &fx, &fx),
                (false, true) => (&fx, &fy, &fy),
                _ => (&fx, &fy, &fz),
            };
            let ordered = self.beside_each(f, g, h, degrees, |_, _, _| {});
            return u128::from(ordered / triple_repeats(types));
        };
        // Each ship's placements are credited with the pairs of the other two beside them;
        // a pair of one type is a layout twice over.
        let ordered = if x == z {
            self.beside_each(&fx, &fx, &fx, degrees, credit(cells, x, 2))
        } else if x == y {
            self.two_and_one(&fx, &fz, degrees, cells)
        } else if y == z {
            self.two_and_one(&fy, &fx, degrees, cells)
        } else {
            // The walk goes over the ship with the fewest free placements: it counts the
            // conflicts beside each of its placements, the other two ships' only add.
            let mut three = [&fx, &fy, &fz];
            three.sort_by_key(|f| f.n);
            self.three_kinds(three, degrees, cells)
        };
        u128::from(ordered / triple_repeats(types))
    }

    /// The last three ships of three types (placements `x`, `y`, `z`): each placement of
    /// each credited with the layouts through it in `cells`, in one walk over the
    /// placements of `x` and one over those of `y`; returns the layouts.
    ///
    /// Each placement's credit is as [`Tables::beside_each`] counts it: the pairs of the
    /// other two ships, less the conflicting ones beside it, which are all of them less
    /// those through a placement it blocks plus those with both blocked (the triangles
    /// through it). The walk over `x` takes each placement `p`'s conflicts in `y` and in
    /// `z`; for each of them, the placements of the third ship that both block are the
    /// triangles through that edge, credited to both ends, and `p`'s conflicts in the third
    /// ship are added to the placement's sum of its neighbours' degrees. The walk over `y`
    /// takes each placement's conflicts in `z`, which only sum degrees. So the conflicts of
    /// `x` are walked with a mask each, those of `y` and `z` with an addition each, where a
    /// walk per ship would take each pair of ships' conflicts with a mask once or twice.
    fn three_kinds(
        &self,
        [x, y, z]: [&Free<N>; 3],
        degrees: &mut Vec<u32>,
        cells: &mut PerCell,
    ) -> u64 {
        let n = self.board.len() as usize;
        let (ox, oy, oz) = (
            self.types[x.ty].orients.len(),
            self.types[y.ty].orients.len(),
            self.types[z.ty].orients.len(),
        );
        let (xy, xz, yz, zy, yx, zx) = (
            self.pair(x.ty, y.ty),
            self.pair(x.ty, z.ty),
            self.pair(y.ty, z.ty),
            self.pair(z.ty, y.ty),
            self.pair(y.ty, x.ty),
            self.pair(z.ty, x.ty),
        );
        // Per placement of `y`: its conflicts in `z` and in `x`, then (gathered by the
        // walk over `x`) the sum of the conflicts in `z` of those it has in `x`, and the
        // triangles through it; per placement of `z` likewise, with the sums of its
        // conflicts' degrees through `x` and through `y`.
        degrees.clear();
        degrees.resize((4 * oy + 5 * oz) * n, 0);
        let (of_y, of_z) = degrees.split_at_mut(4 * oy * n);
        let (yz_deg, rest) = of_y.split_at_mut(oy * n);
        let (yx_deg, rest) = rest.split_at_mut(oy * n);
        let (y_sum, y_tri) = rest.split_at_mut(oy * n);
        let (zy_deg, rest) = of_z.split_at_mut(oz * n);
        let (zx_deg, rest) = rest.split_at_mut(oz * n);
        let (z_sum_x, rest) = rest.split_at_mut(oz * n);
        let (z_sum_y, z_tri) = rest.split_at_mut(oz * n);
        let mut conflicts_yz = 0u64;
        for (o, anchors) in y.per_orient.iter().enumerate().take(oy) {
            for q in anchors.iter() {
                let d = yz.lost(o, q, &z.per_orient[..oz]);
                yz_deg[o * n + q] = d as u32;
                yx_deg[o * n + q] = yx.lost(o, q, &x.per_orient[..ox]) as u32;
                conflicts_yz += d;
            }
        }
        for (o, anchors) in z.per_orient.iter().enumerate().take(oz) {
            for r in anchors.iter() {
                zy_deg[o * n + r] = zy.lost(o, r, &y.per_orient[..oy]) as u32;
                zx_deg[o * n + r] = zx.lost(o, r, &x.per_orient[..ox]) as u32;
            }
        }
        let (mut conflicts_xy, mut conflicts_xz) = (0u64, 0u64);
        let mut sum = 0u64;
        for (o, anchors) in x.per_orient.iter().enumerate().take(ox) {
            for p in anchors.iter() {
                let blocked_y = xy.blocked(o, p, &y.per_orient[..oy]);
                let blocked_z = xz.blocked(o, p, &z.per_orient[..oz]);
                let y_blocked: u64 = blocked_y[..oy].iter().map(|b| u64::from(b.len())).sum();
                let z_blocked: u64 = blocked_z[..oz].iter().map(|b| u64::from(b.len())).sum();
                conflicts_xy += y_blocked;
                conflicts_xz += z_blocked;
                let (mut through_y, mut through_z, mut both) = (0u64, 0u64, 0u64);
                for (oq, blocked) in blocked_y.iter().enumerate().take(oy) {
                    for q in blocked.iter() {
                        let i = oq * n + q;
                        through_y += u64::from(yz_deg[i]);
                        let c = yz.lost(oq, q, &blocked_z[..oz]);
                        both += c;
                        y_tri[i] += c as u32;
                        y_sum[i] += z_blocked as u32;
                    }
                }
                for (or, blocked) in blocked_z.iter().enumerate().take(oz) {
                    for r in blocked.iter() {
                        let i = or * n + r;
                        through_z += u64::from(zy_deg[i]);
                        z_tri[i] += zy.lost(or, r, &blocked_y[..oy]) as u32;
                        z_sum_x[i] += y_blocked as u32;
                    }
                }
                let beside = conflicts_yz + both - through_y - through_z;
                let pairs = (y.n - y_blocked) * (z.n - z_blocked) - beside;
                sum += pairs;
                cells.through(x.ty, o)[p] += pairs;
            }
        }
        for (o, anchors) in y.per_orient.iter().enumerate().take(oy) {
            for q in anchors.iter() {
                let i = o * n + q;
                let mut through_z = 0u64;
                for (or, blocked) in yz
                    .blocked(o, q, &z.per_orient[..oz])
                    .iter()
                    .enumerate()
                    .take(oz)
                {
                    for r in blocked.iter() {
                        let j = or * n + r;
                        through_z += u64::from(zx_deg[j]);
                        z_sum_y[j] += yx_deg[i];
                    }
                }
                let beside = conflicts_xz + u64::from(y_tri[i]) - u64::from(y_sum[i]) - through_z;
                let pairs = (x.n - u64::from(yx_deg[i])) * (z.n - u64::from(yz_deg[i])) - beside;
                cells.through(y.ty, o)[q] += pairs;
            }
        }
        for (o, anchors) in z.per_orient.iter().enumerate().take(oz) {
            let through = cells.through(z.ty, o);
            for r in anchors.iter() {
                let i = o * n + r;
                let beside = conflicts_xy + u64::from(z_tri[i])
                    - u64::from(z_sum_x[i])
                    - u64::from(z_sum_y[i]);
                through[r] += (x.n - u64::from(zx_deg[i])) * (y.n - u64::from(zy_deg[i])) - beside;
            }
        }
        sum
    }

    /// For each free placement `p` in `f`, the ordered pairs of free placements of `g` and
    /// `h` that fit beside `p` and beside each other, given to `visit(orientation, anchor,
    /// pairs)`; returns their sum. `degrees` is scratch for each placement's conflicts with
    /// the other set.
    fn beside_each(
        &self,
        f: &Free<N>,
        g: &Free<N>,
        h: &Free<N>,
        degrees: &mut Vec<u32>,
        mut visit: impl FnMut(usize, usize, u64),
    ) -> u64 {
        let cells = self.board.len() as usize;
        let (of, og, oh) = (
            self.types[f.ty].orients.len(),
            self.types[g.ty].orients.len(),
            self.types[h.ty].orients.len(),
        );
        let (fg, fh, gh, hg) = (
            self.pair(f.ty, g.ty),
            self.pair(f.ty, h.ty),
            self.pair(g.ty, h.ty),
            self.pair(h.ty, g.ty),
        );
        // Per placement of g its conflicts in h, then per placement of h its conflicts in g,
        // and every conflicting pair of the two.
        degrees.clear();
        degrees.resize((og + oh) * cells, 0);
        let (deg_g, deg_h) = degrees.split_at_mut(og * cells);
        let mut pairs_in_conflict = 0u64;
        for (o, anchors) in g.per_orient.iter().enumerate().take(og) {
            for a in anchors.iter() {
                let d = gh.lost(o, a, &h.per_orient[..oh]);
                deg_g[o * cells + a] = d as u32;
                pairs_in_conflict += d;
            }
        }
        // Two ships of one type: g and h are the same placements, and the degrees of h are
        // those of g.
        let same = g.ty == h.ty;
        if !same {
            for (o, anchors) in h.per_orient.iter().enumerate().take(oh) {
                for a in anchors.iter() {
                    deg_h[o * cells + a] = hg.lost(o, a, &g.per_orient[..og]) as u32;
                }
            }
        }
        let mut sum = 0u64;
        for (o, anchors) in f.per_orient.iter().enumerate().take(of) {
            for a in anchors.iter() {
                let blocked_g = fg.blocked(o, a, &g.per_orient[..og]);
                let blocked_h = if same {
                    blocked_g
                } else {
                    fh.blocked(o, a, &h.per_orient[..oh])
                };
                let mut g_left = g.n;
                let mut h_left = h.n;
                // The conflicting pairs beside p: all of them, less those through a
                // placement p blocks, plus those with both blocked (taken twice).
                let mut conflicts = pairs_in_conflict as i64;
                let mut through_g = 0i64;
                for (ob, blocked) in blocked_g.iter().enumerate().take(og) {
                    g_left -= u64::from(blocked.len());
                    if oh == 2 {
                        let two = [blocked_h[0], blocked_h[1]];
                        for b in blocked.iter() {
                            through_g += i64::from(deg_g[ob * cells + b]);
                            conflicts += gh.lost_of_two(ob, b, &two) as i64;
                        }
                    } else {
                        for b in blocked.iter() {
                            through_g += i64::from(deg_g[ob * cells + b]);
                            conflicts += gh.lost(ob, b, &blocked_h[..oh]) as i64;
                        }
                    }
                }
                conflicts -= through_g;
                if same {
                    // g and h are one set: what p blocks of h is what it blocks of g.
                    h_left = g_left;
                    conflicts -= through_g;
                } else {
                    for (oc, blocked) in blocked_h.iter().enumerate().take(oh) {
                        h_left -= u64::from(blocked.len());
                        for c in blocked.iter() {
                            conflicts -= i64::from(deg_h[oc * cells + c]);
                        }
                    }
                }
                let pairs = g_left * h_left - conflicts as u64;
                sum += pairs;
                visit(o, a, pairs);
            }
        }
        sum
    }

    /// The last three ships where two are of one type (placements `a`) and one of another
    /// (`b`): each placement of either credited with the layouts through it in `cells`, in
    /// one walk over the placements of `a`; returns the ordered tuples (each layout twice).
    ///
    /// A placement `p` of `a` is credited as [`Tables::beside_each`] credits it, the pairs
    /// of `a` and `b` beside it, with the conflicting pairs among those it blocks counted
    /// from the side of `b`: for each placement `r` of `b` that `p` blocks, the placements
    /// of `a` blocked by both. That number is also, for `r`, how many conflicting pairs of
    /// `a` lie in what `r` blocks through `p`, so the same walk gathers for each placement
    /// of `b` the conflicting pairs among the placements of `a` it blocks, and the sum of
    /// their degrees, which is all its own credit needs: the walk over `b`'s placements
    /// that would count them is not made.
    fn two_and_one(
        &self,
        a: &Free<N>,
        b: &Free<N>,
        degrees: &mut Vec<u32>,
        cells: &mut PerCell,
    ) -> u64 {
        let n = self.board.len() as usize;
        let (oa, ob) = (
            self.types[a.ty].orients.len(),
            self.types[b.ty].orients.len(),
        );
        let (aa, ab, ba) = (
            self.pair(a.ty, a.ty),
            self.pair(a.ty, b.ty),
            self.pair(b.ty, a.ty),
        );
        // Per placement of `a` its conflicts in `b`; per placement of `b` its conflicts in
        // `a`, then (gathered by the walk) the sum of those placements' conflicts in `a`
        // and the conflicting pairs among them.
        degrees.clear();
        degrees.resize((oa + 3 * ob) * n, 0);
        let (deg_a, rest) = degrees.split_at_mut(oa * n);
        let (deg_b, rest) = rest.split_at_mut(ob * n);
        let (sum_b, tri_b) = rest.split_at_mut(ob * n);
        let mut conflicts_ab = 0u64;
        for (o, anchors) in a.per_orient.iter().enumerate().take(oa) {
            for p in anchors.iter() {
                let d = ab.lost(o, p, &b.per_orient[..ob]);
                deg_a[o * n + p] = d as u32;
                conflicts_ab += d;
            }
        }
        for (o, anchors) in b.per_orient.iter().enumerate().take(ob) {
            for r in anchors.iter() {
                deg_b[o * n + r] = ba.lost(o, r, &a.per_orient[..oa]) as u32;
            }
        }
        let mut conflicts_aa = 0u64;
        let mut sum = 0u64;
        for (o, anchors) in a.per_orient.iter().enumerate().take(oa) {
            for p in anchors.iter() {
                let blocked_a = aa.blocked(o, p, &a.per_orient[..oa]);
                let blocked_b = ab.blocked(o, p, &b.per_orient[..ob]);
                let mut a_blocked = 0u64;
                let mut through_a = 0u64;
                for (oq, blocked) in blocked_a.iter().enumerate().take(oa) {
                    a_blocked += u64::from(blocked.len());
                    for q in blocked.iter() {
                        through_a += u64::from(deg_a[oq * n + q]);
                    }
                }
                conflicts_aa += a_blocked;
                let mut b_blocked = 0u64;
                let mut through_b = 0u64;
                let mut both = 0u64;
                for (or, blocked) in blocked_b.iter().enumerate().take(ob) {
                    b_blocked += u64::from(blocked.len());
                    for r in blocked.iter() {
                        let i = or * n + r;
                        through_b += u64::from(deg_b[i]);
                        let c = if oa == 2 {
                            ba.lost_of_two(or, r, &[blocked_a[0], blocked_a[1]])
                        } else {
                            ba.lost(or, r, &blocked_a[..oa])
                        };
                        both += c;
                        tri_b[i] += c as u32;
                        sum_b[i] += a_blocked as u32;
                    }
                }
                // The conflicting pairs of `a` and `b` beside `p`: all of them, less those
                // through a placement `p` blocks, plus those with both blocked.
                let beside = conflicts_ab + both - through_a - through_b;
                let pairs = (a.n - a_blocked) * (b.n - b_blocked) - beside;
                sum += pairs;
                cells.through(a.ty, o)[p] += pairs;
            }
        }
        // A placement `r` of `b`: the pairs of `a` beside it and each other, all of them
        // less those through a placement `r` blocks (counted twice, once each way) plus those
        // with both blocked; each pair of one type is a layout twice over.
        for (o, anchors) in b.per_orient.iter().enumerate().take(ob) {
            let through = cells.through(b.ty, o);
            for r in anchors.iter() {
                let i = o * n + r;
                let left = a.n - u64::from(deg_b[i]);
                let beside = conflicts_aa + u64::from(tri_b[i]) - 2 * u64::from(sum_b[i]);
                through[r] += (left * left - beside) / 2;
            }
        }
        sum
    }

    /// The free anchors of `ty` at or past `floor` in each orientation, and how many.
    #[inline]
    fn all_free_anchors(&self, ty: usize, free: Bits<N>, floor: usize) -> ([Bits<N>; 8], u64) {
        let mut out = [Bits::<N>::EMPTY; 8];
        let mut n = 0;
        for (o, slot) in out
            .iter_mut()
            .enumerate()
            .take(self.types[ty].orients.len())
        {
            *slot = self.free_anchors(ty, o, free, floor);
            n += slot.len() as u64;
        }
        (out, n)
    }

    /// Counts the completions of `st` into `ctl`, adding per-cell counts into `cells`: those
    /// of the ships `st` has placed as well.
    pub(super) fn count_from(&self, st: &mut State<N>, ctl: &mut Ctl, cells: Option<&mut PerCell>) {
        let before = ctl.found;
        match cells {
            Some(cells) => {
                self.count_rec(st, ctl, Some(&mut *cells));
                cells.add(st.ships, ctl.found - before);
            }
            None => self.count_rec(st, ctl, None),
        }
    }

    /// Counts the completions of `st` into `ctl`, adding into `cells` the per-cell counts of
    /// the ships placed below `st` (a placement's cells once, with the completions found
    /// through it).
    fn count_rec(&self, st: &mut State<N>, ctl: &mut Ctl, mut cells: Option<&mut PerCell>) {
        if ctl.should_stop() {
            return;
        }
        if st.rem.iter().all(|&r| r == 0) {
            if self.complete(st) {
                ctl.add(1);
            }
            return;
        }
        if !self.viable(st) {
            return;
        }
        // A shortcut adds its layouts all at once, past a count limit; per-cell counts must
        // be those of exactly the layouts reported, so under a limit they are found singly.
        if (ctl.limit.is_none() || cells.is_none())
            && let Some(n) = self.shortcut(st, cells.as_deref_mut(), ctl)
        {
            ctl.add(n);
            if let Some(cells) = cells {
                cells.credited(n, self);
            }
            return;
        }
        let mut cands = ctl.spare.pop().unwrap_or_default();
        self.candidates(st, &mut cands);
        for &c in &cands {
            let saved = (st.ships, st.blocked);
            let floor = st.floor[c.ty as usize];
            self.place(st, c);
            if c.type_step {
                st.floor[c.ty as usize] = c.idx as usize + 1;
            }
            let before = ctl.found;
            self.count_rec(st, ctl, cells.as_deref_mut());
            if let Some(cells) = cells.as_deref_mut() {
                cells.add(st.ships & !saved.0, ctl.found - before);
            }
            st.floor[c.ty as usize] = floor;
            self.unplace(st, c, saved);
            if ctl.reason.is_some() {
                break;
            }
        }
        ctl.spare.push(cands);
    }

    /// Splits the root into independent subtrees for the threads.
    pub(super) fn frontier(&self, want: usize, sym: Option<&Symmetric>) -> Frontier<N> {
        self.frontier_of(want, |_| true, sym, &|| false)
            .expect("a frontier that is never stopped")
    }

    /// The subtrees of the search's first levels (at most three), down to the first level
    /// with at least `want` of them, in search order; of that last level, only those whose
    /// index `keep` accepts. The last level is not built: each subtree is its parent and
    /// the move from it, made by the worker that counts it. Under `sym`, the first ship is
    /// placed at its orbits' representatives only, each weighed by its orbit's size. No level
    /// of more than [`MOST_FRONTIER_STATES`] states is built. `None` once `stop` says so
    /// (looked at every 64 states).
    pub(super) fn frontier_of(
        &self,
        want: usize,
        keep: impl Fn(usize) -> bool,
        sym: Option<&Symmetric>,
        stop: &dyn Fn() -> bool,
    ) -> Option<Frontier<N>> {
        let mut looked = 0usize;
        let mut halted = || {
            looked += 1;
            looked.is_multiple_of(64) && stop()
        };
        let mut layer = vec![self.root()];
        let mut weights = vec![1u64];
        let mut cands = Vec::new();
        // A move's weight: its orbit's size for the first ship under `sym`, else 1 (0: the
        // move is not made).
        let weight = |level: usize, c: &Cand| match sym {
            Some(sym) if level == 0 => sym.weight(c),
            _ => 1,
        };
        let leafish = |st: &State<N>| {
            st.rem.iter().all(|&r| r == 0)
                || !self.viable(st)
                || (!self.has_caps
                    && self.required.is_subset(st.ships)
                    && st.rem.iter().sum::<usize>() <= 3)
        };
        for level in 0..3 {
            if layer.len() >= want {
                break;
            }
            // How many subtrees the next level has: if it is the last, it is left as moves.
            // (The third level is the last whatever its size.)
            let mut size = 0usize;
            if level < 2 {
                for st in &layer {
                    if halted() {
                        return None;
                    }
                    size += if leafish(st) {
                        1
                    } else {
                        self.candidates(st, &mut cands);
                        cands.iter().filter(|c| weight(level, c) > 0).count()
                    };
                }
            }
            let last = size >= want || level == 2 || size > MOST_FRONTIER_STATES;
            if last {
                let mut tasks = Vec::new();
                let mut task_weights = Vec::new();
                let mut index = 0;
                for (i, st) in layer.iter().enumerate() {
                    if halted() {
                        return None;
                    }
                    if leafish(st) {
                        if keep(index) {
                            tasks.push((i, None));
                            task_weights.push(weights[i]);
                        }
                        index += 1;
                        continue;
                    }
                    self.candidates(st, &mut cands);
                    for c in &cands {
                        let w = weight(level, c);
                        if w == 0 {
                            continue;
                        }
                        if keep(index) {
                            tasks.push((i, Some(*c)));
                            task_weights.push(weights[i] * w);
                        }
                        index += 1;
                    }
                }
                return Some(Frontier {
                    parents: layer,
                    tasks,
                    weights: task_weights,
                });
            }
            let mut next = Vec::new();
            let mut next_weights = Vec::new();
            for (st, &parent) in layer.into_iter().zip(&weights) {
                if leafish(&st) {
                    next.push(st);
                    next_weights.push(parent);
                    continue;
                }
                self.candidates(&st, &mut cands);
                for c in &cands {
                    let w = weight(level, c);
                    if w == 0 {
                        continue;
                    }
                    let mut s = st.clone();
                    self.place(&mut s, *c);
                    if c.type_step {
                        s.floor[c.ty as usize] = c.idx as usize + 1;
                    }
                    next.push(s);
                    next_weights.push(parent * w);
                }
            }
            layer = next;
            weights = next_weights;
        }
        // The root already had `want` subtrees (it is one): keep it if asked.
        let tasks: Vec<(usize, Option<Cand>)> = (0..layer.len())
            .filter(|&i| keep(i))
            .map(|i| (i, None))
            .collect();
        Some(Frontier {
            weights: tasks.iter().map(|&(i, _)| weights[i]).collect(),
            parents: layer,
            tasks,
        })
    }

    /// The state of subtree `task` of `f`, made in `into` (its vectors reused).
    fn subtree<'s>(
        &self,
        f: &Frontier<N>,
        task: usize,
        into: &'s mut Option<State<N>>,
    ) -> &'s mut State<N> {
        let (parent, c) = f.tasks[task];
        let st = match into {
            Some(st) => {
                st.clone_from(&f.parents[parent]);
                st
            }
            None => into.insert(f.parents[parent].clone()),
        };
        if let Some(c) = c {
            self.place(st, c);
            if c.type_step {
                st.floor[c.ty as usize] = c.idx as usize + 1;
            }
        }
        st
    }

    /// How deep [`Tables::count_rec`] goes: one level per ship.
    fn depth(&self) -> usize {
        self.types.iter().map(|t| t.count).sum()
    }

    pub(super) fn run_count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        // The recursion is as deep as the fleet is large (4,096 one-cell ships fit on a 64x64
        // board): it runs on threads whose stacks are sized for it.
        on_deep_stack(self.depth(), || self.count_on_this_thread(opts))
    }

    fn count_on_this_thread(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        let start = Instant::now();
        // A limit too far off to be an instant is no limit.
        let deadline = opts.time_limit.and_then(|t| start.checked_add(t));
        let stop = AtomicBool::new(false);
        let ncells = self.board.len() as usize;
        let want_cells = opts.per_cell;
        let new_ctl = |limit| Ctl {
            limit,
            deadline,
            cancel: opts.cancel.as_ref(),
            ..Ctl::new(&stop)
        };
        let sequential = |ctl: &mut Ctl| -> Result<CountResult, CountError> {
            let mut cells = want_cells.then(|| PerCell::new(self, ncells));
            let mut st = self.root();
            self.count_from(&mut st, ctl, cells.as_mut());
            if ctl.overflow {
                return Err(CountError::Overflow);
            }
            let count = match opts.limit {
                Some(l) => ctl.found.min(l),
                None => ctl.found,
            };
            Ok(CountResult {
                count,
                complete: ctl.reason.is_none(),
                stopped: ctl.reason,
                per_cell: cells.map(|c| c.spread(self)),
                engine: crate::engine::EngineKind::Enum,
            })
        };
        // Per-cell counts under a limit must be those of exactly the layouts reported, which
        // only a search on one thread knows.
        if (opts.limit.is_some() && want_cells) || !opts.parallel {
            return sequential(&mut new_ctl(opts.limit));
        }
        // A small count is over before threads would start on it (they cost tens of
        // microseconds): it is tried on this thread first, for a moment.
        let trial_stop = AtomicBool::new(false);
        let trial = start + SEQUENTIAL_TRIAL;
        let r = sequential(&mut Ctl {
            deadline: Some(deadline.map_or(trial, |d| d.min(trial))),
            stop: &trial_stop,
            ..new_ctl(opts.limit)
        })?;
        if r.complete || r.stopped == Some(Stop::Limit) {
            return Ok(r);
        }
        // The board's symmetries that keep the problem save the search most of its first
        // ship's placements (the empty board's eight of them, nearly eight times).
        let sym = self.symmetric(self.dims);
        self.count_subtrees(
            self.frontier(256, sym.as_ref()),
            opts,
            deadline,
            &stop,
            opts.limit,
            sym.as_ref(),
        )
    }

    /// Counts the layouts under subtrees `part`, `part + parts`, `part + 2 * parts`, ... of
    /// the search's first levels, split into at least [`SUBTREES_PER_PART`] subtrees a part:
    /// the parts partition the layouts (a subtree is the layouts whose first ships are its
    /// placements; the search finds each layout once), so their counts add up to the count
    /// for any number of parts, and taking every `parts`-th subtree spreads the large ones.
    ///
    /// `part` is a range of parts counted together in one setup (the parts' layouts summed):
    /// how many parts a task counts, where a run has more parts than tasks.
    pub(super) fn count_part(
        &self,
        opts: &CountOptions,
        part: Range<usize>,
        parts: usize,
    ) -> Result<CountResult, CountError> {
        let parts = parts.max(1);
        let deadline = opts.time_limit.and_then(|t| Instant::now().checked_add(t));
        // Setting the part up walks the search's first levels: within the limit too.
        let stopped = || {
            deadline.is_some_and(|d| Instant::now() >= d)
                || opts.cancel.as_ref().is_some_and(|c| c.is_cancelled())
        };
        // A part's per-cell counts are not made whole by the symmetries alone: no orbits.
        let Some(tasks) = self.frontier_of(
            parts.saturating_mul(SUBTREES_PER_PART),
            |i| part.contains(&(i % parts)),
            None,
            &stopped,
        ) else {
            let cancelled = opts.cancel.as_ref().is_some_and(|c| c.is_cancelled());
            return Ok(CountResult {
                count: 0,
                complete: false,
                stopped: Some(if cancelled {
                    Stop::Cancelled
                } else {
                    Stop::Time
                }),
                per_cell: opts
                    .per_cell
                    .then(|| vec![0u128; self.board.len() as usize]),
                engine: super::super::EngineKind::Enum,
            });
        };
        let stop = AtomicBool::new(false);
        on_deep_stack(self.depth(), || {
            self.count_subtrees(tasks, opts, deadline, &stop, None, None)
        })
    }

    /// Counts the completions of the subtrees of `f` on every core, summed, each weighed by
    /// the layouts it stands for; per-cell counts made whole by `sym`'s symmetries when the
    /// frontier placed the first ship by its orbits.
    ///
    /// Under a `limit`, the subtrees stop once those counted reach it (no subtree starts, the
    /// ones under way stop), and the count is the limit.
    pub(super) fn count_subtrees(
        &self,
        f: Frontier<N>,
        opts: &CountOptions,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        limit: Option<u128>,
        sym: Option<&Symmetric>,
    ) -> Result<CountResult, CountError> {
        let counted = std::sync::Mutex::new(0u128);
        let ncells = self.board.len() as usize;
        let want_cells = opts.per_cell;
        let new_ctl = |spare| Ctl {
            deadline,
            cancel: opts.cancel.as_ref(),
            spare,
            ..Ctl::new(stop)
        };
        let done = AtomicU64::new(0);
        let total = f.tasks.len() as u64;
        let depth = self.depth();
        // Per-cell counts are gathered per worker and weight, not per subtree: spreading a
        // placement's counts over its cells costs a pass over every placement. A worker makes
        // each of its subtrees in one state, and keeps its candidate lists from one to the
        // next.
        type Weighed = Vec<(u64, PerCell)>;
        let parts: Vec<(ByWeight, Vec<TaskResult>)> = (0..f.tasks.len())
            .into_par_iter()
            .fold(
                || (Weighed::new(), Vec::new(), None, Vec::new()),
                |(mut by_weight, mut results, mut st, spare), task| {
                    let w = f.weights[task];
                    let mut ctl = new_ctl(spare);
                    let cells = want_cells.then(|| {
                        let at = match by_weight.iter().position(|(v, _)| *v == w) {
                            Some(at) => at,
                            None => {
                                by_weight.push((w, PerCell::new(self, ncells)));
                                by_weight.len() - 1
                            }
                        };
                        &mut by_weight[at].1
                    });
                    // Past the deadline (or once stopped) a subtree is not started: a deep
                    // one would start a thread for its stack only to stop at once.
                    if !ctl.should_stop() {
                        let st = self.subtree(&f, task, &mut st);
                        on_deep_stack(depth, || self.count_from(st, &mut ctl, cells));
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(p) = &opts.progress {
                        p(d, total);
                    }
                    let found = ctl.found.checked_mul(u128::from(w));
                    if let Some(l) = limit {
                        let mut c = counted.lock().unwrap_or_else(|e| e.into_inner());
                        *c = c.saturating_add(found.unwrap_or(u128::MAX));
                        if *c >= l {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    let overflow = ctl.overflow || found.is_none();
                    results.push((found.unwrap_or(0), ctl.reason, overflow));
                    (by_weight, results, st, ctl.spare)
                },
            )
            .map(|(by_weight, results, _, _)| {
                let cells = by_weight
                    .into_iter()
                    .map(|(w, c)| (w, c.spread(self)))
                    .collect();
                (cells, results)
            })
            .collect();
        let mut count = 0u128;
        let mut stopped = None;
        let mut per_cell = want_cells.then(|| vec![0u128; ncells]);
        for (by_weight, results) in parts {
            for (n, reason, overflow) in results {
                if overflow {
                    return Err(CountError::Overflow);
                }
                count = count.checked_add(n).ok_or(CountError::Overflow)?;
                stopped = stopped.or(reason);
            }
            if let Some(acc) = per_cell.as_mut() {
                for (w, c) in by_weight {
                    for (a, b) in acc.iter_mut().zip(c) {
                        *a = b
                            .checked_mul(u128::from(w))
                            .and_then(|b| a.checked_add(b))
                            .ok_or(CountError::Overflow)?;
                    }
                }
            }
        }
        if let (Some(sym), Some(acc)) = (sym, per_cell.as_mut()) {
            *acc = sym.spread(acc).ok_or(CountError::Overflow)?;
        }
        if let Some(l) = limit
            && count >= l
        {
            count = l;
            stopped = Some(Stop::Limit);
        }
        Ok(CountResult {
            count,
            complete: stopped.is_none(),
            stopped,
            per_cell,
            engine: crate::engine::EngineKind::Enum,
        })
    }
}

/// Recursion a thread's stack takes as it is (a spawned thread's 2 MiB hold some 1,000 levels
/// of [`Tables::count_rec`]).
const INLINE_DEPTH: usize = 256;

/// Stack bytes per level of [`Tables::count_rec`], with room to spare (a level takes 1 to 2
/// KiB).
const FRAME: usize = 8 << 10;

/// Runs `f`, which recurses `depth` levels deep, here when the depth is small, else on a thread
/// of its own whose stack is sized for it (a stack overflow would abort the process, a server's
/// included).
pub(super) fn on_deep_stack<R: Send>(depth: usize, f: impl FnOnce() -> R + Send) -> R {
    if depth <= INLINE_DEPTH {
        return f();
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("broadside-deep".into())
            .stack_size(depth * FRAME + (1 << 20))
            .spawn_scoped(scope, f)
            .expect("a thread for a deep search")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, ProblemSpec, Rules};

    /// Placements' counts spread over their cells in the middle of a search (as they are once
    /// [`SPREAD_PAST`] layouts were credited) give the per-cell counts of one spread at the
    /// end, and those are the exact per-cell counts (the DP's); both kinds of shortcut, one
    /// type left and two of a type.
    #[test]
    fn a_spread_mid_search_changes_nothing() {
        for fleet in [vec![3, 3, 2], vec![4, 2, 2]] {
            let problem =
                ProblemSpec::empty(Dims::new(6, 6), Fleet::straight(&fleet), Rules::Touch)
                    .build()
                    .unwrap();
            let t = Tables::<1>::new(&problem);
            let stop = AtomicBool::new(false);
            let ctl = || Ctl::new(&stop);
            let n = problem.dims().cells();
            let mut once = PerCell::new(&t, n);
            let mut c = ctl();
            t.count_from(&mut t.root(), &mut c, Some(&mut once));
            let count = c.found;
            // The first shortcut's credit passes the mark: its placements are spread then.
            let mut early = PerCell::new(&t, n);
            early.pending = SPREAD_PAST;
            let mut c = ctl();
            t.count_from(&mut t.root(), &mut c, Some(&mut early));
            assert_eq!(c.found, count);
            let (once, early) = (once.spread(&t), early.spread(&t));
            assert_eq!(once, early, "{fleet:?}");
            let opts = CountOptions {
                per_cell: true,
                ..CountOptions::default()
            };
            let dp = crate::engine::DpEngine::new(&problem)
                .unwrap()
                .count(&opts)
                .unwrap();
            assert_eq!(Some(once), dp.per_cell, "{fleet:?}");
            assert_eq!(count, dp.count);
        }
    }

    /// The one walk of the last three ships (two of a type and one, or three types)
    /// credits each placement with what a walk per ship credits it ([`Tables::beside_each`]
    /// from each ship in turn), and counts the same layouts: straight and L-shaped ships
    /// (eight orientations), each ship's type first, in the middle or last, both rules, on
    /// boards with water scattered over them so that no two placements' surroundings
    /// agree.
    #[test]
    fn one_walk_credits_what_a_walk_per_ship_credits() {
        use crate::{Clue, Shape};
        use rand::{RngExt, SeedableRng};
        let ell = || Shape::parse_art("#./##").unwrap();
        let straight = |n: usize| Shape::straight(n);
        let fleets: Vec<Vec<(Shape, usize)>> = vec![
            vec![(straight(3), 2), (straight(2), 1)],
            vec![(straight(4), 1), (straight(2), 2)],
            vec![(straight(2), 1), (straight(3), 2)],
            vec![(straight(4), 1), (straight(3), 1), (straight(2), 1)],
            vec![(straight(2), 1), (straight(4), 1), (straight(3), 1)],
            vec![(ell(), 1), (straight(3), 1), (straight(2), 1)],
            vec![(straight(3), 1), (ell(), 2)],
            vec![(ell(), 2), (straight(2), 1)],
            vec![(straight(2), 3)],
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for fleet in &fleets {
            for rules in [Rules::Touch, Rules::NoTouch] {
                for _ in 0..6 {
                    let dims = Dims::new(9, 8);
                    let ships = Fleet::new(
                        fleet
                            .iter()
                            .enumerate()
                            .map(|(i, (s, k))| (s.clone(), *k, i.to_string())),
                    );
                    let mut spec = ProblemSpec::empty(dims, ships, rules);
                    spec.clues = (0..dims.cells())
                        .map(|_| (rng.random_range(0..8) == 0).then_some(Clue::Water))
                        .collect();
                    let Ok(problem) = spec.build() else { continue };
                    let t = Tables::<2>::new(&problem);
                    let st = t.root();
                    let stop = AtomicBool::new(false);
                    let mut ctl = Ctl::new(&stop);
                    let n = dims.cells();
                    let mut one = PerCell::new(&t, n);
                    let count = t.shortcut(&st, Some(&mut one), &mut ctl).unwrap();
                    let (walks, by_ship) = walk_per_ship(&t, &st, &mut ctl.degrees, n);
                    assert_eq!(count, walks, "{fleet:?} {rules:?}");
                    assert_eq!(one.through, by_ship.through, "{fleet:?} {rules:?}");
                    assert!(count > 0 || fleet.len() == 1);
                }
            }
        }
    }

    /// The last three ships of `st` counted and credited by a walk from each ship.
    fn walk_per_ship(
        t: &Tables<2>,
        st: &State<2>,
        degrees: &mut Vec<u32>,
        n: usize,
    ) -> (u128, PerCell) {
        let last = t.last_ships(st).unwrap();
        let free = !st.blocked & t.board;
        let anchors = |ty: usize| {
            let (per_orient, n) = t.all_free_anchors(ty, free, st.floor[ty]);
            Free { ty, per_orient, n }
        };
        let [x, y, z] = last.types;
        let (fx, fy, fz) = (anchors(x), anchors(y), anchors(z));
        let mut cells = PerCell::new(t, n);
        let c = &mut cells;
        let ordered = if x == z {
            t.beside_each(&fx, &fx, &fx, degrees, credit(c, x, 2))
        } else if x == y {
            t.beside_each(&fz, &fx, &fx, degrees, credit(c, z, 2));
            t.beside_each(&fx, &fx, &fz, degrees, credit(c, x, 1))
        } else if y == z {
            t.beside_each(&fy, &fx, &fy, degrees, credit(c, y, 1));
            t.beside_each(&fx, &fy, &fy, degrees, credit(c, x, 2))
        } else {
            t.beside_each(&fy, &fx, &fz, degrees, credit(c, y, 1));
            t.beside_each(&fz, &fx, &fy, degrees, credit(c, z, 1));
            t.beside_each(&fx, &fy, &fz, degrees, credit(c, x, 1))
        };
        (u128::from(ordered / triple_repeats(last.types)), cells)
    }
}
