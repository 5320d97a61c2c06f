//! The book: exact heat maps of positions that many games reach, counted once and shared by
//! every game and thread of a run that is given it (a simulation makes one for its games
//! unless it is handed one, e.g. read from a file).
//!
//! Exact play is deterministic up to tie-breaks until its first hit, so games share their
//! openings, and on to the first sinking they reach far fewer positions than they play: in
//! the standard game those are also the dearest to count (the whole fleet afloat; the DP
//! takes 0.2-0.3 s each). A position goes in the book when no shot reported a sinking: its
//! shots then say nothing by their order, and it is keyed by the set of its hits and misses.
//! Mirrored and rotated positions share an entry: the key is the least over the board's
//! symmetries that keep its rocks in place, and the counts are stored in that frame.
//!
//! A run's book keeps only counts that took a while ([`STORE_AFTER`]), up to
//! [`MAX_ENTRIES`] positions for a game's rules; the answers are exact either way, the book
//! only saves time.
//!
//! A position one miss past a position counted before (kept in the book, or one of the last
//! the book's games counted, [`RECENT`]) is not counted afresh: its layouts are those of the
//! position before less those with a ship on the missed cell, and the position before with a
//! ship required there is counted instead, at a fraction of the cost (a required cell narrows
//! the search that a missed one barely does: the standard game's opening with one miss takes
//! 0.1 s, with one ship cell 0.01 s).
//!
//! A book can be saved to a file ([`Book::save`]) and read back into a later run
//! ([`Book::load`]), so that run does not count its openings again: JSON lines, the game's
//! rules first (a book is read only into a book of the same rules), then a position a line
//! (`{"key": [...], "layouts": N, "per_cell": [...]}`, cells in the book's frame, a key
//! entry `2 * cell + hit`). Every position read is checked against what its shots and the
//! fleet imply (hits in every layout, misses in none, the cells adding up to the fleet's
//! cells in each), so a damaged file is refused, not played.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::game::Setup;
use crate::clue::Clue;
use crate::engine::{CountOptions, DpReplay, Engine, EngineKind};
use crate::format::ParseError;
use crate::geom::Symmetry;
use crate::heat::HeatMap;
use crate::observe::{Shot, ShotResult};
use crate::problem::Problem;

/// Counts that took less than this are not kept: counting again costs about as much as
/// looking up.
pub const STORE_AFTER: Duration = Duration::from_millis(5);

/// The most positions kept for one game's rules (each holds a count per cell).
pub const MAX_ENTRIES: usize = 50_000;

/// The positions last counted through a book that it remembers as they were shot (sinking
/// reports included, whether kept or not), for the position one miss on: a game's last, for
/// as many games as a run plays at once.
pub const RECENT: usize = 256;

/// Positions of a book file recounted when it is read.
const VERIFIED: usize = 8;

/// The version of the book file format [`Book::save`] writes.
pub const FILE_VERSION: u32 = 1;

/// A book file's first line.
#[derive(Serialize, Deserialize)]
struct FileHead {
    broadside_book: u32,
    /// The rules, as the empty game's problem in the JSON format.
    game: serde_json::Value,
}

/// A book file's position line.
#[derive(Serialize, Deserialize)]
struct FileEntry {
    key: Vec<u16>,
    layouts: u128,
    per_cell: Vec<u128>,
}

/// One position's counts, in the book's frame, and the engine that counted them (`None`:
/// read from a file).
struct Entry {
    layouts: u128,
    per_cell: Box<[u128]>,
    engine: Option<EngineKind>,
}

/// The exact heat maps of the positions of one game's rules; see the module documentation.
pub struct Book {
    setup: Setup,
    store_after: Duration,
    symmetries: Vec<Symmetry>,
    entries: Mutex<HashMap<Vec<u16>, Arc<Entry>>>,
    /// The DP's trails over the empty board, recorded the first time the DP counts one of
    /// the game's positions, and replayed for the others ([`DpReplay`]).
    replay: Option<Arc<DpReplay>>,
    /// The last [`RECENT`] positions counted, their shots as shot, the latest last.
    recent: Mutex<VecDeque<(Vec<Shot>, Arc<Entry>)>>,
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("setup", &self.setup)
            .field("positions", &self.len())
            .finish()
    }
}

impl Book {
    /// An empty book for `setup` that keeps the counts that took at least `store_after`
    /// (5 ms for the books of runs).
    pub fn new(setup: &Setup, store_after: Duration) -> Book {
        let symmetries = setup.dims.symmetries_keeping(&setup.rocks);
        Book {
            setup: setup.clone(),
            store_after,
            symmetries,
            entries: Mutex::new(HashMap::new()),
            replay: setup
                .empty()
                .build()
                .ok()
                .map(|empty| Arc::new(DpReplay::new(empty))),
            recent: Mutex::new(VecDeque::new()),
        }
    }

    /// A book for one question about a position of `setup`'s game: it keeps no position
    /// past its last [`RECENT`] counts and records no DP trails, so it costs nothing to make
    /// ([`Book::past_misses`] with it counts a position from the one before its misses).
    pub fn for_one(setup: &Setup) -> Book {
        Book {
            replay: None,
            ..Book::new(setup, Duration::MAX)
        }
    }

    /// An empty book for the games of one run under `setup`, keeping the counts that took at
    /// least 5 ms.
    pub fn for_run(setup: &Setup) -> Arc<Book> {
        Arc::new(Book::new(setup, STORE_AFTER))
    }

    /// The game whose positions the book keeps.
    pub fn setup(&self) -> &Setup {
        &self.setup
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
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            ..CountOptions::default()
        };
        self.heat_with(problem, shots, engine, &opts)
    }

    /// [`Book::heat`], a count it makes with `opts` (`per_cell` forced on): cut off by its
    /// time limit or its cancel flag, `None` then.
    pub fn heat_with(
        &self,
        problem: &Problem,
        shots: &[Shot],
        engine: Engine,
        opts: &CountOptions,
    ) -> Option<HeatMap> {
        if let Some(heat) = self.lookup(problem, shots) {
            return Some(heat);
        }
        let start = Instant::now();
        if engine == Engine::Auto
            && let Some(heat) = self.after_miss(problem, shots, opts)
        {
            return Some(heat);
        }
        // A count from the position before that did not finish took some of the time.
        let opts = CountOptions {
            time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
            ..self.counting(engine, opts)
        };
        let heat = HeatMap::compute_with(problem, engine, &opts)
            .ok()
            .filter(|h| h.complete)?;
        self.keep(
            shots,
            heat.layouts,
            &heat.per_cell,
            heat.engine,
            start.elapsed(),
        );
        Some(heat)
    }

    /// `opts` for a count of one of the game's positions with `engine`: where `auto` counts
    /// with the DP, it replays the DP's trails over the empty board. A named engine counts
    /// as it would alone (a check of the others, say).
    pub fn counting(&self, engine: Engine, opts: &CountOptions) -> CountOptions {
        CountOptions {
            replay: self.replay.clone().filter(|_| engine == Engine::Auto),
            ..opts.clone()
        }
    }

    /// The heat map of `problem`, the position after `shots` under the book's rules, when
    /// the book holds it (or one of its mirror images) or counted it last for a game.
    pub fn lookup(&self, problem: &Problem, shots: &[Shot]) -> Option<HeatMap> {
        let (layouts, per_cell, engine) = self.counts_of(shots)?;
        Some(HeatMap::of_counts(problem, layouts, per_cell, engine))
    }

    /// The counts of the position after `shots` (layouts, per cell, the engine), when the
    /// book holds it or counted it last for one of its games.
    fn counts_of(&self, shots: &[Shot]) -> Option<(u128, Vec<u128>, Option<EngineKind>)> {
        let recent = self
            .recent()
            .iter()
            .rev()
            .find(|(s, _)| s == shots)
            .map(|(_, e)| e.clone());
        if let Some(e) = recent {
            return Some((e.layouts, e.per_cell.to_vec(), e.engine));
        }
        let d = self.setup.dims;
        let (key, g) = self.key(shots)?;
        let e = self.lock().get(&key).cloned()?;
        let per_cell = (0..d.cells()).map(|c| e.per_cell[g.apply(d, c)]).collect();
        Some((e.layouts, per_cell, e.engine))
    }

    /// The heat map of `problem`, the position after `shots` under the book's rules, when
    /// its last shot missed and the position before it is known (kept, or counted last): the
    /// layouts before less those with a ship on the missed cell, which are counted (with
    /// `opts`, `per_cell` forced on) on the position before with that cell required. Kept
    /// as a count would be. `None` where that does not apply or the count does not finish.
    ///
    /// A miss asks only that no ship covers its cell: the layouts after it are those before
    /// it with water there, whatever the rules and the sinking reports before.
    pub fn after_miss(
        &self,
        problem: &Problem,
        shots: &[Shot],
        opts: &CountOptions,
    ) -> Option<HeatMap> {
        let (last, before) = shots.split_last()?;
        if last.result != ShotResult::Miss || !problem.conflicts().is_empty() {
            return None;
        }
        let (layouts, mut per_cell, engine) = self.counts_of(before)?;
        let start = Instant::now();
        let mut spec = self.setup.after(before);
        if spec.clues.is_empty() {
            spec.clues = vec![None; self.setup.dims.cells()];
        }
        if spec.clues.get(last.cell)?.is_some() {
            return None;
        }
        spec.clues[last.cell] = Some(Clue::Ship);
        let ship = spec.build().ok()?;
        // A ship there contradicting what the shots before imply (water beside a sunk ship
        // where ships may not touch): no layout before had one, and the miss changes nothing.
        let (layouts, engine) = if ship.conflicts().is_empty() {
            let opts = CountOptions {
                per_cell: true,
                ..self.counting(Engine::Auto, opts)
            };
            let on = HeatMap::compute_with(&ship, Engine::Auto, &opts)
                .ok()
                .filter(|h| h.complete && h.per_cell.len() == per_cell.len())?;
            for (n, m) in per_cell.iter_mut().zip(&on.per_cell) {
                *n = n.checked_sub(*m)?;
            }
            (layouts.checked_sub(on.layouts)?, on.engine)
        } else {
            (layouts, engine)
        };
        self.keep(shots, layouts, &per_cell, engine, start.elapsed());
        Some(HeatMap::of_counts(problem, layouts, per_cell, engine))
    }

    /// The heat map of `problem`, the position after `shots` under the book's rules, whose
    /// last `misses` shots missed, counted from the position before them: that position,
    /// then each miss from the one before it ([`Book::after_miss`]), each count within what
    /// is left of `opts`'s time limit. `None` where a count does not finish.
    pub fn past_misses(
        &self,
        problem: &Problem,
        shots: &[Shot],
        misses: usize,
        opts: &CountOptions,
    ) -> Option<HeatMap> {
        let start = Instant::now();
        let first = shots.len().checked_sub(misses.max(1))?;
        if shots[first..].iter().any(|s| s.result != ShotResult::Miss) {
            return None;
        }
        let left = || CountOptions {
            time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
            ..opts.clone()
        };
        let base = &shots[..first];
        if self.counts_of(base).is_none() {
            let p = self.setup.after(base).build().ok()?;
            self.heat_with(&p, base, Engine::Auto, &left())?;
        }
        for k in first + 1..shots.len() {
            let next = &shots[..k];
            if self.counts_of(next).is_none() {
                let p = self.setup.after(next).build().ok()?;
                self.after_miss(&p, next, &left())?;
            }
        }
        self.after_miss(problem, shots, &left())
    }

    /// Keeps the exact counts of the position after `shots` (`layouts` in all, `per_cell`
    /// with a ship on each cell), counted by `engine` in `took`: among the last [`RECENT`]
    /// counted, and in the book when the position can be kept, the count took at least the
    /// book's threshold and the book is not full.
    pub fn keep(
        &self,
        shots: &[Shot],
        layouts: u128,
        per_cell: &[u128],
        engine: Option<EngineKind>,
        took: Duration,
    ) {
        let d = self.setup.dims;
        if per_cell.len() != d.cells() {
            return;
        }
        {
            let mut recent = self.recent();
            if recent.len() >= RECENT {
                recent.pop_front();
            }
            let entry = Entry {
                layouts,
                per_cell: per_cell.into(),
                engine,
            };
            recent.push_back((shots.to_vec(), Arc::new(entry)));
        }
        if took < self.store_after {
            return;
        }
        let Some((key, g)) = self.key(shots) else {
            return;
        };
        let mut framed = vec![0; d.cells()].into_boxed_slice();
        for (c, &n) in per_cell.iter().enumerate() {
            framed[g.apply(d, c)] = n;
        }
        let mut entries = self.lock();
        if entries.len() < MAX_ENTRIES {
            entries.insert(
                key,
                Arc::new(Entry {
                    layouts,
                    per_cell: framed,
                    engine,
                }),
            );
        }
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

    /// The rules as a book file names them: the empty game in the JSON format.
    fn game(&self) -> serde_json::Value {
        serde_json::from_str(&crate::format::json::print(&self.setup.empty()))
            .expect("the JSON format reads back as JSON")
    }

    /// Writes the book's positions to `out` in the book file format (see the module
    /// documentation), in the order of their keys; returns how many.
    pub fn save(&self, out: &mut (impl std::io::Write + ?Sized)) -> std::io::Result<usize> {
        let head = FileHead {
            broadside_book: FILE_VERSION,
            game: self.game(),
        };
        writeln!(out, "{}", serde_json::to_string(&head)?)?;
        let entries = self.lock();
        let mut keys: Vec<&Vec<u16>> = entries.keys().collect();
        keys.sort_unstable();
        for key in &keys {
            let e = &entries[*key];
            let line = FileEntry {
                key: key.to_vec(),
                layouts: e.layouts,
                per_cell: e.per_cell.to_vec(),
            };
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        }
        Ok(keys.len())
    }

    /// Adds the positions of a book file's `content` (named `name` in errors) written by
    /// [`Book::save`] for the same rules, up to 50,000 in all; returns how many were
    /// read. A file for other rules, or a position its shots and the fleet contradict, is an
    /// error with its line, and nothing of the file is added.
    pub fn load(&self, name: &str, content: &str) -> Result<usize, ParseError> {
        let at = |line: usize, message: String| ParseError::new(line, 1, message).in_file(name);
        let mut lines = content
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, first)) = lines.next() else {
            return Err(at(1, "an empty file, not a book".into()));
        };
        let head: FileHead =
            serde_json::from_str(first).map_err(|e| at(1, format!("not a broadside book: {e}")))?;
        if head.broadside_book != FILE_VERSION {
            return Err(at(
                1,
                format!(
                    "a book of version {}; this broadside reads version {FILE_VERSION}",
                    head.broadside_book
                ),
            ));
        }
        if head.game != self.game() {
            return Err(at(1, format!("a book for another game: {}", head.game)));
        }
        let d = self.setup.dims;
        let ship_cells = self.setup.fleet.cell_count() as u128;
        let mut read = Vec::new();
        for (i, line) in lines {
            let e: FileEntry = serde_json::from_str(line)
                .map_err(|e| ParseError::from_json(&e, i).in_file(name))?;
            if let Some(why) = Self::contradiction(&e, d.cells(), ship_cells) {
                return Err(at(i + 1, format!("a position the book cannot hold: {why}")));
            }
            read.push((i, e));
        }
        // The checks above are necessary conditions only: a few positions are also recounted,
        // the one with the fewest shots (the opening, which every game reaches) and others
        // spread over the file.
        let mut order: Vec<usize> = (0..read.len()).collect();
        order.sort_by_key(|&k| (read[k].1.key.len(), k));
        let spread = read.len().div_ceil(VERIFIED - 1).max(1);
        let verified = order
            .first()
            .copied()
            .into_iter()
            .chain((0..read.len()).step_by(spread))
            .take(VERIFIED);
        for k in verified {
            let (i, e) = &read[k];
            if !self.recounts_to(e) {
                return Err(at(
                    i + 1,
                    "a position whose counts are not those of its shots (recounted exactly)".into(),
                ));
            }
        }
        let n = read.len();
        let mut entries = self.lock();
        for (_, e) in read {
            if entries.len() >= MAX_ENTRIES {
                break;
            }
            let entry = Entry {
                layouts: e.layouts,
                per_cell: e.per_cell.into_boxed_slice(),
                engine: None,
            };
            entries.insert(e.key, Arc::new(entry));
        }
        Ok(n)
    }

    /// Whether the position of `e` (in the book's frame, which is a position of the game
    /// too) has the counts `e` gives, counted again; true where the count does not finish.
    fn recounts_to(&self, e: &FileEntry) -> bool {
        let shots: Vec<Shot> = e
            .key
            .iter()
            .map(|&k| Shot {
                cell: k as usize / 2,
                result: if k % 2 == 1 {
                    ShotResult::Hit
                } else {
                    ShotResult::Miss
                },
            })
            .collect();
        let Ok(p) = self.setup.after(&shots).build() else {
            return false;
        };
        match HeatMap::compute(&p, Engine::Auto) {
            Ok(h) if h.complete => h.layouts == e.layouts && h.per_cell == e.per_cell,
            _ => true,
        }
    }

    /// What is wrong with a position read from a file, if anything: each cell's count at
    /// most the layouts, a hit's equal to them and a miss's 0, and the counts adding up to
    /// the fleet's cells in every layout.
    fn contradiction(e: &FileEntry, cells: usize, ship_cells: u128) -> Option<String> {
        if e.per_cell.len() != cells {
            return Some(format!("{} cells for a board of {cells}", e.per_cell.len()));
        }
        if e.layouts == 0 {
            return Some("no layout".into());
        }
        if e.key.windows(2).any(|w| w[0] / 2 >= w[1] / 2) {
            return Some("its key is not increasing cells each shot once".into());
        }
        for &k in &e.key {
            let (cell, hit) = (k as usize / 2, k % 2 == 1);
            let Some(&n) = e.per_cell.get(cell) else {
                return Some(format!("a shot at cell {cell}, off the board"));
            };
            if hit && n != e.layouts || !hit && n != 0 {
                return Some(format!("cell {cell}'s count disagrees with its shot"));
            }
        }
        if e.per_cell.iter().any(|&n| n > e.layouts) {
            return Some("a cell's count above the layouts".into());
        }
        let sum = e.per_cell.iter().try_fold(0u128, |a, &n| a.checked_add(n));
        if sum != e.layouts.checked_mul(ship_cells) {
            return Some("the cells' counts do not add up to the fleet's cells".into());
        }
        None
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u16>, Arc<Entry>>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn recent(&self) -> std::sync::MutexGuard<'_, VecDeque<(Vec<Shot>, Arc<Entry>)>> {
        self.recent.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dims, Fleet, Rules, Sinking};

    fn setup(fleet: &[usize]) -> Setup {
        Setup {
            dims: Dims::new(6, 6),
            fleet: Fleet::straight(fleet),
            rules: Rules::Touch,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        }
    }

    fn shot(cell: usize, result: ShotResult) -> Shot {
        Shot { cell, result }
    }

    /// A book with a few positions kept: the empty board, misses, a hit.
    fn filled(s: &Setup) -> (Book, Vec<Vec<Shot>>) {
        let book = Book::new(s, Duration::ZERO);
        let games = vec![
            vec![],
            vec![shot(14, ShotResult::Miss)],
            vec![shot(14, ShotResult::Miss), shot(21, ShotResult::Hit)],
            vec![shot(0, ShotResult::Hit), shot(35, ShotResult::Miss)],
        ];
        for shots in &games {
            let p = s.after(shots).build().unwrap();
            book.heat(&p, shots, Engine::Enum).unwrap();
        }
        (book, games)
    }

    /// Every position one miss past a position counted before is counted from it (less
    /// the layouts with a ship on the missed cell) and gives the fresh count's map: whole
    /// games shot in a random order, ships touching or not, each sinking rule; the first
    /// position after a sinking and the positions that follow it come from the last ones
    /// counted, which the book does not keep.
    #[test]
    fn a_miss_is_counted_from_the_position_before() {
        use crate::Layout;
        use crate::play::game::Game;
        let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let layouts = [
            rows(&["<m>...", "......", "^...<>", "v.....", "......", "......"]),
            rows(&["......", ".^..^.", ".m..v.", ".v....", "......", "<>...."]),
        ];
        let mut derived = 0;
        for rules in [Rules::Touch, Rules::NoTouch] {
            for sinking in [Sinking::None, Sinking::Announced, Sinking::Revealed] {
                let s = Setup {
                    rules,
                    sinking,
                    ..setup(&[3, 2, 2])
                };
                let book = Book::new(&s, Duration::from_secs(3600));
                for (k, rows) in layouts.iter().enumerate() {
                    let layout = Layout::from_rows(rows, s.dims, &s.fleet).unwrap();
                    let mut game = Game::new(s.clone(), layout);
                    let mut order: Vec<usize> = (0..s.dims.cells()).collect();
                    crate::play::shooter::shuffle(
                        &mut order,
                        &mut crate::rng::stream(5, k as u64, 0),
                    );
                    let empty = s.empty().build().unwrap();
                    book.heat(&empty, &[], Engine::Auto).unwrap();
                    for &c in &order {
                        if game.is_over() {
                            break;
                        }
                        game.fire(c);
                        let shots = game.shots();
                        let p = s.after(shots).build().unwrap();
                        let truth = HeatMap::compute(&p, Engine::Enum).unwrap();
                        let opts = CountOptions::default();
                        let heat = if shots.last().unwrap().result == ShotResult::Miss {
                            derived += 1;
                            book.after_miss(&p, shots, &opts)
                                .expect("counted from before")
                        } else {
                            book.heat(&p, shots, Engine::Auto).unwrap()
                        };
                        assert_eq!(heat, truth, "{rules:?} {sinking:?} {shots:?}");
                    }
                }
                // The book kept nothing (its threshold is an hour): the positions before
                // were the last ones counted.
                assert!(book.is_empty());
            }
        }
        assert!(derived > 100, "{derived}");
    }

    /// `auto`'s counts of the standard game's positions replay the DP's trails over the empty
    /// board, recorded once (by the first position counted afresh that the enumerator would
    /// not count at once: two misses), and give the fresh DP's maps, those one miss on too;
    /// a named engine counts alone.
    #[test]
    fn auto_replays_the_empty_board_s_trails() {
        let s = Setup::standard();
        let book = Book::new(&s, Duration::ZERO);
        let opts = CountOptions::default();
        assert!(book.counting(Engine::Dp, &opts).replay.is_none());
        let replay = book.counting(Engine::Auto, &opts).replay.unwrap();
        assert!(!replay.recorded());
        let (a, b, c) = (
            shot(44, ShotResult::Miss),
            shot(57, ShotResult::Miss),
            shot(7, ShotResult::Miss),
        );
        let games = [
            vec![a.clone(), b.clone()],
            vec![a.clone(), b.clone(), c.clone()],
            vec![c, b, a],
        ];
        for shots in &games {
            let p = s.after(shots).build().unwrap();
            let truth = HeatMap::compute(&p, Engine::Dp).unwrap();
            let heat = book.heat(&p, shots, Engine::Auto).unwrap();
            assert_eq!(
                (heat.layouts, &heat.per_cell),
                (truth.layouts, &truth.per_cell)
            );
            assert!(replay.recorded());
        }
    }

    /// A saved book read back holds the same positions and gives the same maps; a book for
    /// other rules, or a damaged position, is refused with its line.
    #[test]
    fn books_are_saved_and_read_back() {
        let s = setup(&[3, 2]);
        let (book, games) = filled(&s);
        let mut file = Vec::new();
        assert_eq!(book.save(&mut file).unwrap(), book.len());
        assert!(book.len() >= 3, "{}", book.len());
        let text = String::from_utf8(file).unwrap();
        let again = Book::new(&s, Duration::from_secs(3600));
        assert_eq!(again.load("b.book", &text).unwrap(), book.len());
        assert_eq!(again.len(), book.len());
        for shots in &games {
            let p = s.after(shots).build().unwrap();
            let truth = HeatMap::compute(&p, Engine::Dp).unwrap();
            let kept = again.heat(&p, shots, Engine::Enum).unwrap();
            assert_eq!(
                (kept.layouts, &kept.per_cell),
                (truth.layouts, &truth.per_cell)
            );
        }
        // Nothing new was counted: every position came from the file.
        assert_eq!(again.len(), book.len());

        let other = Book::new(&setup(&[3, 3]), Duration::ZERO);
        let e = other.load("b.book", &text).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.to_string().contains("another game"), "{e}");
        assert!(other.is_empty());

        // One count changed on the third line: refused there, and nothing is added.
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut entry: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
        let n = entry["per_cell"][7].as_u64().unwrap();
        entry["per_cell"][7] = (n + 1).into();
        lines[2] = entry.to_string();
        let fresh = Book::new(&s, Duration::ZERO);
        let e = fresh.load("b.book", &lines.join("\n")).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.to_string().starts_with("b.book: line 3"), "{e}");
        assert!(fresh.is_empty());
        let e = fresh.load("b.book", "").unwrap_err();
        assert!(e.to_string().contains("not a book"), "{e}");
    }

    /// A forged position that keeps every necessary condition (one cell raised, another
    /// lowered by as much) is caught by the recount where it matters most: the opening.
    #[test]
    fn a_forged_opening_is_refused() {
        let s = setup(&[3, 2]);
        let (book, _) = filled(&s);
        let mut file = Vec::new();
        book.save(&mut file).unwrap();
        let text = String::from_utf8(file).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let at = lines
            .iter()
            .position(|l| l.contains("\"key\":[]"))
            .expect("the empty board is in the book");
        let mut entry: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
        let cells: Vec<u64> = serde_json::from_value(entry["per_cell"].clone()).unwrap();
        let layouts = entry["layouts"].as_u64().unwrap();
        // Raise the first cell by what the most loaded other cell can give.
        let (other, _) = cells
            .iter()
            .enumerate()
            .skip(1)
            .max_by_key(|(_, n)| **n)
            .unwrap();
        let moved = (layouts - cells[0]).min(cells[other]);
        entry["per_cell"][0] = (cells[0] + moved).into();
        entry["per_cell"][other] = (cells[other] - moved).into();
        lines[at] = entry.to_string();
        let fresh = Book::new(&s, Duration::ZERO);
        let e = fresh.load("b.book", &lines.join("\n")).unwrap_err();
        assert_eq!(e.line, at + 1, "{e}");
        assert!(e.to_string().contains("recounted"), "{e}");
        assert!(fresh.is_empty());
    }
}
