//! The enumerator's tables: each ship type's placements as bitboards (cells covered, cells
//! blocked, rows and columns touched), the search state, and the moves of the search (which
//! candidates a node has, placing and lifting a ship, whether a node can still succeed).

use std::sync::OnceLock;

use crate::bitboard::Bits;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

/// A candidate move: ship type, placement index, and whether it is a type step.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand {
    pub(super) ty: u16,
    pub(super) idx: u32,
    pub(super) type_step: bool,
}

pub(super) struct Plc<const N: usize> {
    pub(super) mask: Bits<N>,
    pub(super) block: Bits<N>,
    /// (line, cells) for each row (`0..h`) and column (`h..h+w`) the placement touches.
    pub(super) deltas: Vec<(u16, u16)>,
    pub(super) orient: u8,
    pub(super) anchor: u32,
}

pub(super) struct Orient<const N: usize> {
    /// Offsets of the cells from the anchor (the top-left of the bounding box).
    pub(super) offsets: Vec<usize>,
    /// Anchors of the allowed placements in this orientation.
    pub(super) anchors: Bits<N>,
}

pub(super) struct TypeT<const N: usize> {
    pub(super) count: usize,
    pub(super) size: usize,
    pub(super) plcs: Vec<Plc<N>>,
    pub(super) orients: Vec<Orient<N>>,
}

/// Conflict masks for counting the last two or three ships at once, for ship types `x` then `y` (the
/// same type when two of it are left): for each placement of `x` and each orientation of
/// `y`, the anchors of `y` that the placement blocks.
pub(super) struct Pair<const N: usize> {
    /// Indexed `(orientation of x * cells + anchor of x) * orientations of y + orientation
    /// of y`.
    conflicts: Vec<Bits<N>>,
    cells: usize,
    y_orients: usize,
}

impl<const N: usize> Pair<N> {
    /// How many of the free anchors `ys` of `y` (per orientation, `total` in all) fit beside
    /// the placement of `x` in orientation `o` at `anchor`.
    #[inline]
    pub(super) fn fitting(&self, o: usize, anchor: usize, ys: &[Bits<N>], total: u64) -> u64 {
        total - self.lost(o, anchor, ys)
    }

    /// How many of the anchors `ys` of `y` (per orientation) the placement of `x` in
    /// orientation `o` at `anchor` blocks.
    #[inline]
    pub(super) fn lost(&self, o: usize, anchor: usize, ys: &[Bits<N>]) -> u64 {
        let at = (o * self.cells + anchor) * self.y_orients;
        ys.iter()
            .zip(&self.conflicts[at..at + self.y_orients])
            .map(|(a, m)| (*a & *m).len() as u64)
            .sum()
    }

    /// [`Pair::lost`] for a `y` of two orientations (a straight ship), the one case the
    /// last three ships' walk meets at nearly every step: one bounds check, no loop.
    #[inline]
    pub(super) fn lost_of_two(&self, o: usize, anchor: usize, ys: &[Bits<N>; 2]) -> u64 {
        let at = (o * self.cells + anchor) * 2;
        match &self.conflicts[at..at + 2] {
            [a, b] => u64::from((ys[0] & *a).len() + (ys[1] & *b).len()),
            _ => unreachable!("a slice of two"),
        }
    }

    /// Of the free anchors `ys` of `y` (per orientation), those the placement of `x` in
    /// orientation `o` at `anchor` blocks.
    #[inline]
    pub(super) fn blocked(&self, o: usize, anchor: usize, ys: &[Bits<N>]) -> [Bits<N>; 8] {
        let at = (o * self.cells + anchor) * self.y_orients;
        let mut out = [Bits::EMPTY; 8];
        for ((slot, a), m) in out
            .iter_mut()
            .zip(ys)
            .zip(&self.conflicts[at..at + self.y_orients])
        {
            *slot = *a & *m;
        }
        out
    }
}

pub(super) struct Tables<const N: usize> {
    pub(super) dims: crate::geom::Dims,
    pub(super) board: Bits<N>,
    pub(super) types: Vec<TypeT<N>>,
    pub(super) water: Bits<N>,
    pub(super) required: Bits<N>,
    pub(super) caps: Vec<Option<u16>>,
    pub(super) line_masks: Vec<Bits<N>>,
    /// Digital Battleships: per line, each digit its cells have (past 0) and those cells;
    /// empty otherwise (every cell weighs one).
    pub(super) line_digits: Vec<Vec<(u16, Bits<N>)>>,
    pub(super) has_caps: bool,
    /// For each cell, the placements covering it.
    pub(super) cover: Vec<Vec<(u16, u32)>>,
    /// Sets of cells of which at least one must hold a ship (sonar rings).
    pub(super) any_of: Vec<Bits<N>>,
    /// The pair tables, built when first needed, indexed `x * types + y`.
    pairs: Vec<OnceLock<Pair<N>>>,
}

pub(super) struct State<const N: usize> {
    pub(super) ships: Bits<N>,
    pub(super) blocked: Bits<N>,
    pub(super) used: Vec<u16>,
    pub(super) rem: Vec<usize>,
    pub(super) floor: Vec<usize>,
    pub(super) chosen: Vec<(u16, u32)>,
}

impl<const N: usize> Clone for State<N> {
    fn clone(&self) -> Self {
        State {
            ships: self.ships,
            blocked: self.blocked,
            used: self.used.clone(),
            rem: self.rem.clone(),
            floor: self.floor.clone(),
            chosen: self.chosen.clone(),
        }
    }

    /// Into this state's vectors: a worker takes up subtree after subtree in one state.
    fn clone_from(&mut self, source: &Self) {
        self.ships = source.ships;
        self.blocked = source.blocked;
        self.used.clone_from(&source.used);
        self.rem.clone_from(&source.rem);
        self.floor.clone_from(&source.floor);
        self.chosen.clone_from(&source.chosen);
    }
}

impl<const N: usize> Tables<N> {
    pub(super) fn new(problem: &Problem) -> Self {
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
        let line_digits = if spec.is_digital() {
            line_masks
                .iter()
                .map(|m: &Bits<N>| {
                    (1..=9)
                        .map(|w| {
                            (
                                w,
                                m.iter().filter(move |&c| spec.weight(c) == usize::from(w)),
                            )
                        })
                        .map(|(w, cells)| (w, Bits::from_cells(cells)))
                        .filter(|(_, b)| !b.is_empty())
                        .collect()
                })
                .collect()
        } else {
            Vec::new()
        };
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
            // Each orientation's offsets in increasing order, as a placement's cells are.
            let sorted: Vec<Vec<usize>> = orients
                .iter()
                .map(|o| {
                    let mut a = o.offsets.clone();
                    a.sort_unstable();
                    a
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
                let orient = sorted
                    .iter()
                    .position(|a| a.iter().map(|&o| o + anchor).eq(p.cells.iter().copied()))
                    .expect("a placement has one of its type's orientations");
                orients[orient].anchors.insert(anchor);
                // Only the counted lines (none in a game: no allocation then).
                let mut deltas: Vec<(u16, u16)> = Vec::new();
                for &c in &p.cells {
                    let (r, col) = d.row_col(c);
                    for line in [r, d.height + col] {
                        if caps[line].is_none() {
                            continue;
                        }
                        // A cell adds its digit in Digital Battleships, else 1.
                        let w = spec.weight(c) as u16;
                        match deltas.iter_mut().find(|x| x.0 as usize == line) {
                            Some(x) => x.1 += w,
                            None => deltas.push((line as u16, w)),
                        }
                    }
                }
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
            dims: d,
            board,
            types,
            water,
            required,
            caps,
            line_masks,
            line_digits,
            has_caps,
            cover,
            any_of: problem
                .any_of()
                .iter()
                .map(|s| Bits::from_cells(s.iter().copied()))
                .collect(),
            pairs: Vec::new(),
        };
        tables.pairs = (0..tables.types.len().pow(2))
            .map(|_| OnceLock::new())
            .collect();
        tables
    }

    /// The pair tables for types `x` then `y`, built on first use.
    pub(super) fn pair(&self, x: usize, y: usize) -> &Pair<N> {
        self.pairs[x * self.types.len() + y].get_or_init(|| {
            let cells = self.board.len() as usize;
            let y_orients = &self.types[y].orients;
            let mut conflicts =
                vec![Bits::EMPTY; self.types[x].orients.len() * cells * y_orients.len()];
            for q in &self.types[x].plcs {
                let at = (q.orient as usize * cells + q.anchor as usize) * y_orients.len();
                for (slot, o) in conflicts[at..].iter_mut().zip(y_orients) {
                    let mut m = Bits::EMPTY;
                    for &off in &o.offsets {
                        m |= q.block.shift_down(off);
                    }
                    *slot = m & o.anchors;
                }
            }
            Pair {
                conflicts,
                cells,
                y_orients: y_orients.len(),
            }
        })
    }

    pub(super) fn root(&self) -> State<N> {
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
    pub(super) fn fits(&self, st: &State<N>, p: &Plc<N>) -> bool {
        p.mask.is_disjoint(st.blocked)
            && p.deltas.iter().all(|&(l, k)| {
                let cap = self.caps[l as usize].unwrap_or(u16::MAX);
                st.used[l as usize] + k <= cap
            })
    }

    #[inline]
    pub(super) fn place(&self, st: &mut State<N>, c: Cand) {
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
    pub(super) fn unplace(&self, st: &mut State<N>, c: Cand, saved: (Bits<N>, Bits<N>)) {
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
    pub(super) fn viable(&self, st: &State<N>) -> bool {
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
            if !self.line_digits.is_empty() {
                return self.digits_viable(st, avail, rem_cells);
            }
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

    /// The lines' part of [`Tables::viable`] in Digital Battleships: each line's sum still
    /// within reach of the digits of its open cells, and of the ship cells left (9 each at
    /// most).
    fn digits_viable(&self, st: &State<N>, avail: Bits<N>, rem_cells: usize) -> bool {
        self.caps.iter().enumerate().all(|(l, cap)| {
            cap.is_none_or(|cap| {
                let need = u32::from(cap - st.used[l]);
                let room: u32 = self.line_digits[l]
                    .iter()
                    .map(|&(w, cells)| u32::from(w) * (avail & cells).len())
                    .sum();
                need as usize <= 9 * rem_cells && need <= room
            })
        })
    }

    /// Whether a node with no ship left is a solution.
    pub(super) fn complete(&self, st: &State<N>) -> bool {
        self.required.is_subset(st.ships)
            && self.any_of.iter().all(|&s| !s.is_disjoint(st.ships))
            && self
                .caps
                .iter()
                .zip(&st.used)
                .all(|(c, &u)| c.is_none_or(|c| c == u))
    }

    /// The moves from a node: a cell step on the most constrained open clue, or a type step.
    pub(super) fn candidates(&self, st: &State<N>, out: &mut Vec<Cand>) {
        out.clear();
        let open = self.required - st.ships;
        if !open.is_empty() {
            let covering = |cell: usize| {
                self.cover[cell].iter().filter(|&&(ty, idx)| {
                    let t = ty as usize;
                    st.rem[t] > 0
                        && idx as usize >= st.floor[t]
                        && self.fits(st, &self.types[t].plcs[idx as usize])
                })
            };
            // The open cell with the fewest placements covering it (the first such).
            let mut best: Option<(usize, usize)> = None;
            for cell in open.iter() {
                let n = covering(cell).count();
                if best.is_none_or(|(_, b)| n < b) {
                    best = Some((cell, n));
                    if n <= 1 {
                        break;
                    }
                }
            }
            if let Some((cell, _)) = best {
                out.extend(covering(cell).map(|&(ty, idx)| Cand {
                    ty,
                    idx,
                    type_step: false,
                }));
            }
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

    pub(super) fn layout(&self, st: &State<N>, problem: &Problem) -> Layout {
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
