//! Counting with the enumerator: the search to a limit or a deadline and its control (limits,
//! the shared stop flag, the running total), per-cell counts, and Knuth's estimate of the
//! search's size. The shortcuts that count the last one, two or three ships at once are in
//! [`super::shortcut`]; the split of the search into subtrees counted on every core, and into
//! parts, in [`super::split`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::shortcut::TRIPLE_STEPS;
use super::tables::{Cand, State, Tables};
use crate::bitboard::Bits;
use crate::engine::{Cancel, Stop};

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
    pub(super) charged: u64,
    pub(super) overflow: bool,
    /// Candidate lists of nodes left, for the next nodes to fill: a search allocates one
    /// per level, not one per node.
    pub(super) spare: Vec<Vec<Cand>>,
    /// The shortcut of the last three ships' counts of conflicts per placement
    /// ([`Tables::triple_count`]), kept from one node to the next.
    pub(super) degrees: Vec<u32>,
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
    pub(super) cells: Vec<u128>,
    /// Per type, orientation and anchor, from `first[type] + orientation * cells`. None is
    /// over `pending`, the layouts the shortcuts found since they were last spread.
    pub(super) through: Vec<u64>,
    pub(super) first: Vec<usize>,
    pub(super) pending: u128,
}

/// Past this many layouts credited to placements they are spread over their cells, so that
/// no placement's count passes 64 bits (a shortcut adds far fewer than the rest).
const SPREAD_PAST: u128 = 1 << 62;

impl PerCell {
    pub(super) fn new<const N: usize>(t: &Tables<N>, cells: usize) -> Self {
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
    pub(super) fn credited<const N: usize>(&mut self, n: u128, t: &Tables<N>) {
        self.pending += n;
        if self.pending > SPREAD_PAST {
            self.spread_through(t);
        }
    }

    /// The counts through each anchor of type `ty` in orientation `o`.
    #[inline]
    pub(super) fn through(&mut self, ty: usize, o: usize) -> &mut [u64] {
        let n = self.cells.len();
        let at = self.first[ty] + o * n;
        &mut self.through[at..at + n]
    }

    /// `n` more layouts through each of `cells`.
    #[inline]
    pub(super) fn add<const N: usize>(&mut self, cells: Bits<N>, n: u128) {
        if n > 0 {
            for c in cells.iter() {
                self.cells[c] += n;
            }
        }
    }

    /// The per-cell counts: the placements' counts spread over their cells.
    pub(super) fn spread<const N: usize>(mut self, t: &Tables<N>) -> Vec<u128> {
        self.spread_through(t);
        self.cells
    }

    /// The placements' counts added to their cells, and set to 0.
    pub(super) fn spread_through<const N: usize>(&mut self, t: &Tables<N>) {
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

impl<const N: usize> Tables<N> {
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
    pub(super) fn count_rec(
        &self,
        st: &mut State<N>,
        ctl: &mut Ctl,
        mut cells: Option<&mut PerCell>,
    ) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CountOptions;
    use crate::engine::enumerate::shortcut::{Free, credit, triple_repeats};
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
