//! The shortcuts of the count: the last one, two or three ships of a node counted at once
//! (and their per-cell counts credited) from their free placements, without a search.

use super::count::{Ctl, PerCell};
use super::tables::{State, Tables};
use crate::bitboard::Bits;

/// The ships a node has left when a shortcut counts them at once: their types, sorted, a
/// type as often as it is left.
#[derive(Clone, Copy)]
pub(super) struct Last {
    pub(super) types: [usize; 3],
    pub(super) len: usize,
}

impl Last {
    pub(super) fn ships(&self) -> &[usize] {
        &self.types[..self.len]
    }
}

/// A ship type's free placements at a node: anchors per orientation, and how many.
#[derive(Clone, Copy)]
pub(super) struct Free<const N: usize> {
    pub(super) ty: usize,
    pub(super) per_orient: [Bits<N>; 8],
    pub(super) n: u64,
}

/// The steps, in placements a pair's shortcut walks, of a placement of the first of the last
/// three ships (a walk over the few placements it blocks), in [`Work::steps`]; each of the
/// other two ships' placements weighs one.
pub(super) const TRIPLE_STEPS: f64 = 4.0;

/// What credits each placement of `ty` with the pairs beside it, `per` of them a layout.
pub(super) fn credit(
    cells: &mut PerCell,
    ty: usize,
    per: u64,
) -> impl FnMut(usize, usize, u64) + '_ {
    move |o, a, pairs| cells.through(ty, o)[a] += pairs / per
}

/// How often the ordered tuples of the last three ships count one layout: the orders of
/// the ships of one type.
pub(super) fn triple_repeats(types: [usize; 3]) -> u64 {
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
    pub(super) fn last_ships(&self, st: &State<N>) -> Option<Last> {
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
    #[inline]
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

    /// The layouts that complete `st` with one ship of type `x` and one of type `y` (two of
    /// the type when `x == y`), each pair once, crediting each placement in `cells` with the
    /// pairs through it.
    ///
    /// For each free placement `q` of `x`, the placements of `y` that fit beside it are the
    /// free ones less those `q` blocks (a precomputed mask per orientation), so the pairs
    /// through `q` cost a few word operations, and `q`'s cells are in that many layouts;
    /// the placements of `y` are weighed the same way from the other side. Two ships of one
    /// type count each ordered pair twice.
    pub(super) fn pair_count(
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
    pub(super) fn triple_count(
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
    pub(super) fn three_kinds(
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
    pub(super) fn beside_each(
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
    pub(super) fn two_and_one(
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
    pub(super) fn all_free_anchors(
        &self,
        ty: usize,
        free: Bits<N>,
        floor: usize,
    ) -> ([Bits<N>; 8], u64) {
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
}
