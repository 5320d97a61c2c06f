//! The book: exact heat maps of positions that many games reach, counted once per process
//! and shared by every game and thread.
//!
//! Exact play is deterministic up to tie-breaks until its first hit, so games share their
//! openings, and on to the first sinking they reach far fewer positions than they play: in
//! the standard game those are also the dearest to count (the whole fleet afloat; the DP
//! takes 0.2-0.3 s each). A position goes in the book when no shot reported a sinking: its
//! shots then say nothing by their order, and it is keyed by the set of its hits and misses.
//! Mirrored and rotated positions share an entry: the key is the least over the board's
//! symmetries that keep its rocks in place, and the counts are stored in that frame.
//!
//! The shared books keep only counts that took a while ([`STORE_AFTER`]), up to
//! [`MAX_ENTRIES`] positions for a game's rules; the answers are exact either way, the book
//! only saves time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::game::Setup;
use crate::engine::Engine;
use crate::geom::Symmetry;
use crate::heat::HeatMap;
use crate::observe::{Shot, ShotResult};
use crate::problem::Problem;

/// Counts that took less than this are not kept: counting again costs about as much as
/// looking up.
pub const STORE_AFTER: Duration = Duration::from_millis(5);

/// The most positions kept for one game's rules (each holds a count per cell).
pub const MAX_ENTRIES: usize = 50_000;

/// The most games' rules a process keeps books for.
pub const MAX_BOOKS: usize = 8;

/// One position's counts, in the book's frame.
struct Entry {
    layouts: u128,
    per_cell: Box<[u128]>,
}

/// The exact heat maps of the positions of one game's rules; see the module documentation.
pub struct Book {
    setup: Setup,
    store_after: Duration,
    symmetries: Vec<Symmetry>,
    entries: Mutex<HashMap<Vec<u16>, Arc<Entry>>>,
}

impl Book {
    /// An empty book for `setup` that keeps the counts that took at least `store_after`
    /// ([`STORE_AFTER`] for the shared books).
    pub fn new(setup: &Setup, store_after: Duration) -> Book {
        let d = setup.dims;
        let symmetries = d
            .symmetries()
            .into_iter()
            .filter(|g| {
                let mut moved: Vec<usize> = setup.rocks.iter().map(|&r| g.apply(d, r)).collect();
                moved.sort_unstable();
                moved == setup.rocks
            })
            .collect();
        Book {
            setup: setup.clone(),
            store_after,
            symmetries,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The book every game under `setup` shares in this process (books are kept for the
    /// last [`MAX_BOOKS`] rules that started one).
    pub fn shared(setup: &Setup) -> Arc<Book> {
        static BOOKS: OnceLock<Mutex<Vec<Arc<Book>>>> = OnceLock::new();
        let mut books = BOOKS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(b) = books.iter().find(|b| b.setup == *setup) {
            return b.clone();
        }
        let b = Arc::new(Book::new(setup, STORE_AFTER));
        if books.len() == MAX_BOOKS {
            // A long-lived process (`serve`) may see many games' rules: the oldest goes.
            books.remove(0);
        }
        books.push(b.clone());
        b
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The exact heat map of `problem`, the position after `shots` under the book's rules:
    /// from the book when it holds the position, else counted with `engine` (and kept, when
    /// the position can be and the count took a while). `None` where the count does not
    /// finish.
    pub fn heat(&self, problem: &Problem, shots: &[Shot], engine: Engine) -> Option<HeatMap> {
        let d = self.setup.dims;
        let keyed = self.key(shots);
        if let Some((key, g)) = &keyed
            && let Some(e) = self.lock().get(key).cloned()
        {
            let per_cell = (0..d.cells()).map(|c| e.per_cell[g.apply(d, c)]).collect();
            return Some(HeatMap::of_counts(problem, e.layouts, per_cell, None));
        }
        let start = Instant::now();
        let heat = HeatMap::compute(problem, engine)
            .ok()
            .filter(|h| h.complete)?;
        if let Some((key, g)) = keyed
            && start.elapsed() >= self.store_after
        {
            let mut per_cell = vec![0; d.cells()].into_boxed_slice();
            for (c, &n) in heat.per_cell.iter().enumerate() {
                per_cell[g.apply(d, c)] = n;
            }
            let mut entries = self.lock();
            if entries.len() < MAX_ENTRIES {
                entries.insert(
                    key,
                    Arc::new(Entry {
                        layouts: heat.layouts,
                        per_cell,
                    }),
                );
            }
        }
        Some(heat)
    }

    /// The position's key and the symmetry that takes the board to the book's frame; `None`
    /// when a shot reported more than hit or miss.
    fn key(&self, shots: &[Shot]) -> Option<(Vec<u16>, Symmetry)> {
        let d = self.setup.dims;
        let mut best: Option<(Vec<u16>, Symmetry)> = None;
        for &g in &self.symmetries {
            let mut key = shots
                .iter()
                .map(|s| {
                    let hit = match s.result {
                        ShotResult::Miss => 0,
                        ShotResult::Hit => 1,
                        _ => return None,
                    };
                    u16::try_from(g.apply(d, s.cell) * 2 + hit).ok()
                })
                .collect::<Option<Vec<u16>>>()?;
            key.sort_unstable();
            if best.as_ref().is_none_or(|(b, _)| key < *b) {
                best = Some((key, g));
            }
        }
        best
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u16>, Arc<Entry>>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
