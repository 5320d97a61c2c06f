//! Placements: one ship of a given shape at one spot on the board, with the cells around it.
//!
//! A [`Placement`] is what every engine works with: the cells a ship covers and its halo (the
//! cells that must stay free of other ships under the no-touch rule). [`Placement::all`]
//! lists every placement of a shape on an empty board; the problem keeps those its clues
//! allow. [`segment_at`] says which segment (`<`, `m`, `>`, ...) a cell is within a ship, as
//! the clue symbols and the layout pictures write it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::geom::Dims;
use crate::shape::{Segment, Shape};

/// One ship of a given type at one spot on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Index of the ship type in the fleet.
    pub ty: usize,
    /// The cells it covers, increasing.
    pub cells: Vec<usize>,
    /// The cells around it (orthogonal and diagonal neighbours, on the board, not covered).
    pub halo: Vec<usize>,
}

impl Placement {
    /// Every placement of a ship of type `ty` and shape `shape` on an empty `dims` board:
    /// each distinct orientation at each offset where it fits, in a fixed order.
    pub fn all(dims: Dims, ty: usize, shape: &Shape) -> impl Iterator<Item = Placement> + '_ {
        Placement::cells_all(dims, shape).map(move |cells| {
            let mut halo: Vec<usize> = cells.iter().flat_map(|&c| dims.neighbours8(c)).collect();
            halo.sort_unstable();
            halo.dedup();
            halo.retain(|c| !cells.contains(c));
            Placement { ty, cells, halo }
        })
    }

    /// [`Placement::all`] of type 0, made once per board size and shape in a process and
    /// shared: every position of a game is built from the same placements (their halos cost
    /// a sort each), so a shot's position costs a filter, not their making.
    pub(crate) fn all_shared(dims: Dims, shape: &Shape) -> Arc<[Placement]> {
        /// Board sizes and shapes kept; past this the cache starts afresh (a process that
        /// keeps meeting new ones pays what it would without the cache).
        const KEPT: usize = 64;
        type Made = HashMap<(Dims, Shape), Arc<[Placement]>>;
        static MADE: OnceLock<Mutex<Made>> = OnceLock::new();
        let made = MADE.get_or_init(Mutex::default);
        let key = (dims, shape.clone());
        if let Some(all) = made.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return all.clone();
        }
        let all: Arc<[Placement]> = Placement::all(dims, 0, shape).collect();
        let mut made = made.lock().unwrap_or_else(|e| e.into_inner());
        if made.len() >= KEPT {
            made.clear();
        }
        made.insert(key, all.clone());
        all
    }

    /// The cells (increasing) of every placement of `shape`, in the order of
    /// [`Placement::all`], without the halos.
    pub fn cells_all(dims: Dims, shape: &Shape) -> impl Iterator<Item = Vec<usize>> + '_ {
        let d = dims;
        shape
            .orientations()
            .into_iter()
            .filter(move |o| {
                let (h, w) = o.extent();
                h <= d.height && w <= d.width
            })
            .flat_map(move |o| {
                let (h, w) = o.extent();
                (0..=d.height - h).flat_map(move |r0| {
                    let o = o.clone();
                    (0..=d.width - w).map(move |c0| {
                        let mut cells: Vec<usize> = o
                            .cells()
                            .iter()
                            .map(|&(r, c)| d.index(r0 + r, c0 + c))
                            .collect();
                        cells.sort_unstable();
                        cells
                    })
                })
            })
    }
}

/// The segment each cell of `cells` is within a ship covering exactly `cells`.
pub(crate) fn segment_at(dims: Dims, cells: &[usize], cell: usize) -> Option<Segment> {
    let (r, c) = dims.row_col(cell);
    let has = |dr: isize, dc: isize| {
        dims.checked(r as isize + dr, c as isize + dc)
            .is_some_and(|n| cells.contains(&n))
    };
    Segment::from_neighbours(has(-1, 0), has(1, 0), has(0, -1), has(0, 1))
}
