//! Optimal play on small boards: the least expected number of shots to sink the whole fleet,
//! by expectimax over belief states, and the expected shots of exact greedy beside it.
//!
//! Every layout of the game is listed once and taken as equally likely (the hidden layout of
//! the uniform placer). A belief state is the set of layouts consistent with the shots so far
//! and the cells fired at; its value is the least, over the cells that hold a ship in some
//! consistent layout (a cell that holds none is a wasted shot), of one plus the value of each
//! report the shot can give, weighed by how many layouts give it. The report is what the game
//! says: miss, hit, the sunk ship's type (announced) or cells (revealed), and whether the game
//! is over. The value depends only on the layouts left and the cells of theirs already hit, so
//! it is kept per (layouts, fired cells among theirs) and each such state is solved once.
//!
//! Greedy's expected shots come from the same states: at each it fires at a cell in the most
//! consistent layouts, ties split evenly (its tie-break is uniform), so the figure is exact,
//! not simulated.
//!
//! Between the two is the *rollout* of greedy, one step of policy improvement: at each state it
//! fires at the cell after which greedy needs the fewest expected shots, greedy's own cell
//! unless another is strictly better. By the policy improvement theorem it never needs more
//! shots in expectation than the greedy it improves on, from any state; and unlike the optimum
//! it costs one greedy game tree per cell tried, not a search over every policy, so it reaches
//! positions with thousands of layouts. The greedy it improves on breaks ties by the lowest
//! cell (a fixed choice keeps its game tree one path per report), so its expectation may
//! differ a little from uniform greedy's.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::game::Setup;
use crate::engine::Enumerator;
use crate::error::Error;
use crate::observe::{Shot, ShotResult, Sinking};

/// The cells of `shots`, as a mask.
fn fired(shots: &[Shot]) -> u128 {
    shots.iter().fold(0, |m, s| m | 1 << s.cell)
}

/// The most cells a board may have here (a belief's fired cells are one `u128`).
pub const MAX_CELLS: usize = 128;

/// The expected shots to end the game from the solver's position (the empty board for
/// [`Optimal::new`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Expected {
    /// The game's layouts (each equally likely).
    pub layouts: usize,
    /// The least expected number of shots any shooter can reach.
    pub optimal: f64,
    /// The expected shots of exact greedy (ties broken uniformly at random).
    pub greedy: f64,
    /// The expected shots of the rollout of greedy (one step of policy improvement).
    pub rollout: f64,
    /// A first shot of an optimal shooter.
    pub first: usize,
    /// The belief states solved for the optimal value.
    pub states: usize,
}

/// What a shot reports: miss, hit, game over, or a sunk ship (its type under the announced
/// rule, its cells under the revealed one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Report {
    Miss,
    Hit,
    Over,
    Sunk(usize),
    Revealed(u128),
}

/// A belief state as the solver keys it: the fired cells that matter and the layouts left (in
/// their least symmetric form for the optimum and uniform greedy, as they stand for the
/// rollout).
type Key = (u128, Vec<u32>);

/// The solved states' values by key. The keys are the solver's own (no one chooses them to
/// collide), so they are hashed a word at a time by one multiply, not by the standard
/// library's keyed hash, which took a tenth of the rollout's time; the values are the same.
type Memo<V> = HashMap<Key, V, BuildHasherDefault<WordHasher>>;

/// A hash of a few multiplies a key: each word is mixed in by a rotation, an exclusive or and
/// a multiplication by an odd constant (the Fx hash of the Rust compiler).
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The solver for one game: its layouts as bitmasks, and the values found.
pub struct Optimal {
    /// Per layout, its ships: cells and type.
    ships: Vec<Vec<(u128, usize)>>,
    /// Per layout, all its ship cells.
    cells: Vec<u128>,
    sinking: Sinking,
    /// The cells fired at in the position the solver was made for.
    fired: u128,
    /// The board's symmetries under which the layouts are closed.
    symmetries: Vec<Image>,
    /// The solved states, keyed in their least symmetric form, with a best cell there.
    best: Memo<(f64, usize)>,
    greedy: Memo<f64>,
    /// Expected shots of the greedy that the rollout improves on (ties to the lowest cell).
    base: Memo<f64>,
    /// Expected shots of the rollout of greedy.
    rollout: Memo<f64>,
    max_states: usize,
    /// When [`Optimal::expected`] and [`Optimal::choose`] give up, if ever.
    deadline: Option<std::time::Instant>,
    /// Whether a search gave up at the deadline.
    timed_out: bool,
    /// The states a search has entered to solve them, for reading the clock.
    entered: u64,
    /// The belief states solved so far, for a watcher on another thread.
    solved: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Where the layouts are every set of `k` cells of `s` cells (one-cell ships, all
    /// placings allowed): `(k, s, first cell)`. Then every shooter that fires only where a
    /// ship may be takes the same shots on average, `k (s + 1) / (k + 1)`.
    exchangeable: Option<(usize, usize, usize)>,
}

impl Optimal {
    /// The solver for `setup` from its empty board, with every layout listed; at most
    /// `max_states` belief states are solved before [`Optimal::expected`] gives up. Boards
    /// of more than 128 cells and fleets with more than `max_layouts` layouts are
    /// refused.
    pub fn new(setup: &Setup, max_layouts: usize, max_states: usize) -> Result<Optimal, Error> {
        Optimal::position(setup, &[], max_layouts, max_states)
    }

    /// The solver for the position after `shots` under `setup`: the layouts consistent with
    /// them are listed, and [`Optimal::choose`] answers from this and every later position.
    pub fn position(
        setup: &Setup,
        shots: &[Shot],
        max_layouts: usize,
        max_states: usize,
    ) -> Result<Optimal, Error> {
        if setup.dims.cells() > MAX_CELLS {
            return Err(Error::Request(format!(
                "optimal play is solved on boards of at most {MAX_CELLS} cells, not {}",
                setup.dims
            )));
        }
        let problem = setup.after(shots).build().map_err(Error::from)?;
        let mut ships = Vec::new();
        let mut cells = Vec::new();
        for layout in Enumerator::new(&problem).solutions() {
            if ships.len() == max_layouts {
                return Err(Error::Request(format!(
                    "more than {max_layouts} layouts are consistent: too many to solve \
                     optimal play"
                )));
            }
            let s: Vec<(u128, usize)> = layout
                .ships
                .iter()
                .map(|s| (s.cells.iter().fold(0u128, |m, &c| m | 1 << c), s.ty))
                .collect();
            cells.push(s.iter().fold(0, |m, &(c, _)| m | c));
            ships.push(s);
        }
        if ships.is_empty() {
            return Err(Error::Request(
                "no layout is consistent: nothing to play".into(),
            ));
        }
        let symmetries = symmetries(setup, &ships);
        let exchangeable = exchangeable(&ships, &cells);
        Ok(Optimal {
            ships,
            cells,
            symmetries,
            sinking: setup.sinking,
            fired: fired(shots),
            best: Memo::default(),
            greedy: Memo::default(),
            base: Memo::default(),
            rollout: Memo::default(),
            max_states,
            deadline: None,
            timed_out: false,
            entered: 0,
            solved: Default::default(),
            exchangeable,
        })
    }

    /// The layouts of the solver's position.
    pub fn layouts(&self) -> usize {
        self.ships.len()
    }

    /// Whether [`Optimal::expected`] answers without a search: every shooter that fires only
    /// where a ship may be takes the same shots on average (one-cell ships on every set of
    /// cells).
    pub fn solved_at_once(&self) -> bool {
        self.exchangeable.is_some()
    }

    /// The number of belief states solved so far, shared: a progress display reads it while
    /// [`Optimal::expected`] runs.
    pub fn progress(&self) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
        self.solved.clone()
    }

    /// The same solver, giving up once `time_limit` has passed from now (as past the state
    /// budget); `None` is no limit.
    pub fn within(mut self, time_limit: Option<std::time::Duration>) -> Optimal {
        self.deadline = time_limit.and_then(|t| std::time::Instant::now().checked_add(t));
        self
    }

    /// Whether a search gave up because the time limit passed.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// A cell an optimal shooter fires at after `shots`, which extend the shots the solver
    /// was made for; `None` past the state budget, or when the shots are not such an
    /// extension.
    pub fn choose(&mut self, shots: &[Shot]) -> Option<usize> {
        let (members, now) = self.members(shots)?;
        self.value(&members, now).map(|(_, c)| c)
    }

    /// A cell the rollout of greedy fires at after `shots`, which extend the shots the solver
    /// was made for (see the module's notes): never worse than greedy in expectation. `None`
    /// when the shots are not such an extension.
    pub fn improve_on_greedy(&mut self, shots: &[Shot]) -> Option<usize> {
        let (members, now) = self.members(shots)?;
        Some(self.improve(&members, now).1)
    }

    /// The layouts consistent with `shots` and their fired cells; `None` when the shots do not
    /// extend those the solver was made for.
    fn members(&self, shots: &[Shot]) -> Option<(Vec<u32>, u128)> {
        let now = fired(shots);
        if now & self.fired != self.fired {
            return None;
        }
        let members: Vec<u32> = (0..self.ships.len() as u32)
            .filter(|&l| {
                let mut before = 0u128;
                shots.iter().all(|s| {
                    let r = self.report(l as usize, before, s.cell);
                    before |= 1 << s.cell;
                    // The solver's layouts all agree with the shots it was made for.
                    if self.fired & 1 << s.cell != 0 {
                        return true;
                    }
                    match (&s.result, r) {
                        (ShotResult::Miss, Report::Miss) => true,
                        (ShotResult::Hit, Report::Hit) => true,
                        (ShotResult::Sunk { ty, .. }, Report::Sunk(t)) => *ty == t,
                        (ShotResult::Sunk { ty, cells }, Report::Revealed(m)) => {
                            cells.iter().fold(0u128, |a, &c| a | 1 << c) == m
                                && self.ships[l as usize]
                                    .iter()
                                    .any(|&(s, t)| s == m && t == *ty)
                        }
                        _ => false,
                    }
                })
            })
            .collect();
        if members.is_empty() {
            return None;
        }
        Some((members, now))
    }

    /// The optimal and greedy expected shots from the solver's position; an error once more than
    /// the solver's `max_states` belief states would be needed.
    pub fn expected(&mut self) -> Result<Expected, Error> {
        if let Some((k, cells, first)) = self.exchangeable {
            // Every order of shots over the cells finds the k ships alike: the expected
            // position of the last of k marked cells among `cells` in a random order.
            let e = (k * (cells + 1)) as f64 / (k + 1) as f64;
            return Ok(Expected {
                layouts: self.ships.len(),
                optimal: e,
                greedy: e,
                rollout: e,
                first,
                states: 0,
            });
        }
        let all: Vec<u32> = (0..self.ships.len() as u32).collect();
        let (optimal, first) = self.value(&all, self.fired).ok_or_else(|| {
            if self.timed_out {
                Error::Request(format!(
                    "optimal play was not solved within the time limit ({} belief states solved)",
                    self.best.len()
                ))
            } else {
                Error::Request(format!(
                    "optimal play needs more than {} belief states here",
                    self.max_states
                ))
            }
        })?;
        let greedy = self.greedy_value(&all, self.fired);
        let rollout = self.rollout_value(&all, self.fired);
        Ok(Expected {
            layouts: self.ships.len(),
            optimal,
            greedy,
            rollout,
            first,
            states: self.best.len(),
        })
    }

    /// What firing at `cell` reports against layout `l`, `fired` the cells fired before.
    fn report(&self, l: usize, fired: u128, cell: usize) -> Report {
        let bit = 1u128 << cell;
        let after = fired | bit;
        let Some(&(ship, ty)) = self.ships[l].iter().find(|&&(m, _)| m & bit != 0) else {
            return Report::Miss;
        };
        if self.cells[l] & !after == 0 {
            return Report::Over;
        }
        if ship & !after != 0 {
            return Report::Hit;
        }
        match self.sinking {
            Sinking::None => Report::Hit,
            Sinking::Announced => Report::Sunk(ty),
            Sinking::Revealed => Report::Revealed(ship),
        }
    }

    /// The layouts of `members` split by what a shot at `cell` reports, the game-over ones
    /// left out (they need no more shots).
    fn split(&self, members: &[u32], fired: u128, cell: usize) -> Vec<Vec<u32>> {
        let mut groups: Vec<(Report, Vec<u32>)> = Vec::new();
        for &l in members {
            let r = self.report(l as usize, fired, cell);
            if r == Report::Over {
                continue;
            }
            match groups.iter_mut().find(|(k, _)| *k == r) {
                Some((_, g)) => g.push(l),
                None => groups.push((r, vec![l])),
            }
        }
        groups.into_iter().map(|(_, g)| g).collect()
    }

    /// The cells worth a shot: unfired, holding a ship in some layout of `members`; with the
    /// number of those layouts.
    fn targets(&self, members: &[u32], fired: u128) -> Vec<(usize, usize)> {
        let mut n = [0usize; MAX_CELLS];
        for &l in members {
            let mut m = self.cells[l as usize] & !fired;
            while m != 0 {
                n[m.trailing_zeros() as usize] += 1;
                m &= m - 1;
            }
        }
        (0..MAX_CELLS)
            .filter(|&c| n[c] > 0)
            .map(|c| (c, n[c]))
            .collect()
    }

    /// The expected ship cells not yet hit: the least expected shots to end the game.
    fn floor(&self, members: &[u32], fired: u128) -> f64 {
        let unhit: u32 = members
            .iter()
            .map(|&l| (self.cells[l as usize] & !fired).count_ones())
            .sum();
        unhit as f64 / members.len() as f64
    }

    /// A lower bound on the least expected shots from a state where no layout left has a
    /// ship cell hit yet (the hunt): until the first hit every shot reports a miss, so any
    /// shooter fires the same cells in the same order, and its first `k` shots hit at most
    /// the layouts of the `k` cells in most of them. The chance that the first hit comes
    /// after shot `k` is at least one less that share; the expected shots to the first hit
    /// are at least the sum of those chances, and after it each layout needs a shot per
    /// ship cell left. `targets` and `floor` are the state's [`Optimal::targets`] and
    /// [`Optimal::floor`]. `None` where some layout has a ship cell hit.
    fn hunt_bound(
        &self,
        members: &[u32],
        fired: u128,
        targets: &[(usize, usize)],
        floor: f64,
    ) -> Option<f64> {
        if (members.iter()).any(|&l| self.cells[l as usize] & fired != 0) {
            return None;
        }
        let mut counts: Vec<usize> = targets.iter().map(|&(_, n)| n).collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let total = members.len() as f64;
        let (mut hit, mut first) = (0usize, 0.0);
        for n in counts {
            if hit >= members.len() {
                break;
            }
            first += 1.0 - hit as f64 / total;
            hit += n;
        }
        Some(floor + first - 1.0)
    }

    /// An estimate of the belief states [`Optimal::expected`] solves before any shot hits:
    /// random walks down the misses (Knuth's estimate of a search tree's size), each step
    /// among the cells the search is bound to try there. The search tries every cell whose
    /// bound (see [`Optimal::value`]) lies below the state's value, so every cell whose bound
    /// lies below [`Optimal::hunt_bound`]; the states `k` misses deep are counted once per
    /// order of those misses and once per symmetry. It counts the hunt alone, so it is
    /// most often below the states solved; where it already passes a budget, the search
    /// would too. `probes` walks, drawn with `rng`.
    pub fn hunt_states(&self, probes: usize, rng: &mut dyn rand::Rng) -> f64 {
        let all: Vec<u32> = (0..self.ships.len() as u32).collect();
        let symmetries = self.symmetries.len() as f64;
        let mut sum = 0.0;
        for _ in 0..probes {
            let (mut members, mut fired) = (all.clone(), self.fired);
            // The walk's paths to this depth (the product of the choices so far), less the
            // orders of its misses and the symmetries.
            let mut paths = 1.0;
            for depth in 1.. {
                sum += paths / probes as f64;
                let (floor, total) = (self.floor(&members, fired), members.len());
                let targets = self.targets(&members, fired);
                let Some(bound) = self.hunt_bound(&members, fired, &targets, floor) else {
                    break;
                };
                let tried: Vec<usize> = (targets.into_iter())
                    .filter(|&(_, n)| {
                        n < total && 1.0 + floor - (n as f64) / (total as f64) < bound
                    })
                    .map(|(c, _)| c)
                    .collect();
                if tried.is_empty() || !paths.is_finite() {
                    break;
                }
                paths *= tried.len() as f64 / depth as f64;
                if depth == 1 {
                    paths /= symmetries;
                }
                let cell = tried[rand::RngExt::random_range(rng, 0..tried.len())];
                members.retain(|&l| self.cells[l as usize] & 1 << cell == 0);
                fired |= 1 << cell;
            }
        }
        sum
    }

    /// The key of a state: the fired cells that matter (ship cells of some layout left) and
    /// the layouts, in the least of their symmetric forms; and the symmetry that takes the
    /// state there.
    fn key(&self, members: &[u32], fired: u128) -> (Key, usize) {
        let fired = fired & self.union(members);
        let mut best: Option<(Key, usize)> = None;
        for (i, g) in self.symmetries.iter().enumerate() {
            let f = g.mask(fired);
            let mut ls: Vec<u32> = members.iter().map(|&l| g.layouts[l as usize]).collect();
            ls.sort_unstable();
            if best.as_ref().is_none_or(|(k, _)| (f, &ls) < (k.0, &k.1)) {
                best = Some(((f, ls), i));
            }
        }
        best.expect("the identity is a symmetry")
    }

    /// The least expected shots to end the game from this state, and a cell that reaches
    /// it; `None` past the state budget.
    fn value(&mut self, members: &[u32], fired: u128) -> Option<(f64, usize)> {
        let (key, g) = self.key(members, fired);
        if let Some(&(v, cell)) = self.best.get(&key) {
            return Some((v, self.symmetries[g].back[cell]));
        }
        if self.best.len() >= self.max_states {
            return None;
        }
        // The clock is read once every 256 states entered (counting the new states would
        // pass over the reading: several can be solved in a row without one entered).
        self.entered += 1;
        if self.entered.is_multiple_of(256)
            && self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.timed_out = true;
            return None;
        }
        let total = members.len() as f64;
        let mut best = (f64::INFINITY, 0);
        // Branch and bound: a layout needs at least one shot per ship cell not yet hit, so
        // a state needs at least `floor` shots, and a shot at a cell hit in `n` layouts
        // leaves at least `floor - n / total`. The likeliest cells come first (greedy's
        // choice is a good first bound) and once a cell's bound reaches the best found, so
        // do all the cells after it.
        let floor = self.floor(members, fired);
        for (cell, n) in self.ranked(members, fired) {
            let mut v = 1.0 + floor - n as f64 / total;
            if v >= best.0 {
                break;
            }
            let after = fired | 1 << cell;
            for g in self.split(members, fired, cell) {
                let p = g.len() as f64 / total;
                let exact = self.value(&g, after)?.0;
                v += p * (exact - self.floor(&g, after));
                if v >= best.0 {
                    break;
                }
            }
            if v < best.0 {
                best = (v, cell);
            }
        }
        self.best
            .insert(key, (best.0, self.symmetries[g].cells[best.1]));
        if self.best.len().is_multiple_of(1024) {
            self.solved
                .store(self.best.len(), std::sync::atomic::Ordering::Relaxed);
        }
        Some(best)
    }

    /// Greedy's expected shots to end the game from this state.
    fn greedy_value(&mut self, members: &[u32], fired: u128) -> f64 {
        let (key, _) = self.key(members, fired);
        if let Some(&v) = self.greedy.get(&key) {
            return v;
        }
        let targets = self.targets(members, fired);
        let top = targets.iter().map(|&(_, n)| n).max().unwrap_or(0);
        let ties: Vec<usize> = targets
            .iter()
            .filter(|&&(_, n)| n == top)
            .map(|&(c, _)| c)
            .collect();
        let total = members.len() as f64;
        let mut sum = 0.0;
        for &cell in &ties {
            let mut v = 1.0;
            for g in self.split(members, fired, cell) {
                v += g.len() as f64 / total * self.greedy_value(&g, fired | 1 << cell);
            }
            sum += v;
        }
        let v = sum / ties.len() as f64;
        self.greedy.insert(key, v);
        v
    }

    /// The cells worth a shot as greedy ranks them, with the layouts each is in: in most
    /// layouts first, ties by the lowest cell.
    fn ranked(&self, members: &[u32], fired: u128) -> Vec<(usize, usize)> {
        let mut t = self.targets(members, fired);
        t.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        t
    }

    /// The key of a state as it stands, no symmetry applied (the rollout and the greedy it
    /// improves on break ties by cell, which a symmetry would move).
    fn plain_key(&self, members: &[u32], fired: u128) -> Key {
        (fired & self.union(members), members.to_vec())
    }

    /// The cells that hold a ship in some layout of `members`.
    fn union(&self, members: &[u32]) -> u128 {
        members
            .iter()
            .fold(0u128, |m, &l| m | self.cells[l as usize])
    }

    /// One plus the expected value, under `value`, of the states a shot at `cell` leads to;
    /// once the sum passes `bound` (a lower bound on the rest is added first) it stops and
    /// answers `None`.
    fn shot_value(
        &mut self,
        members: &[u32],
        fired: u128,
        cell: usize,
        bound: f64,
        value: fn(&mut Self, &[u32], u128) -> f64,
    ) -> Option<f64> {
        let total = members.len() as f64;
        let after = fired | 1 << cell;
        let hit = members
            .iter()
            .filter(|&&l| self.cells[l as usize] & 1 << cell != 0)
            .count();
        let mut v = 1.0 + self.floor(members, fired) - hit as f64 / total;
        for g in self.split(members, fired, cell) {
            if v >= bound {
                return None;
            }
            let p = g.len() as f64 / total;
            v += p * (value(self, &g, after) - self.floor(&g, after));
        }
        (v < bound).then_some(v)
    }

    /// Keeps a memo of values within the state budget (it is a cache: emptied, it fills
    /// again).
    fn bounded(map: &mut Memo<f64>, max_states: usize) {
        if map.len() >= max_states {
            map.clear();
        }
    }

    /// The expected shots to end the game of the greedy the rollout improves on: ties to
    /// the lowest cell.
    fn base_value(&mut self, members: &[u32], fired: u128) -> f64 {
        let key = self.plain_key(members, fired);
        if let Some(&v) = self.base.get(&key) {
            return v;
        }
        let cell = self.ranked(members, fired)[0].0;
        let v = self
            .shot_value(members, fired, cell, f64::INFINITY, Self::base_value)
            .expect("no bound");
        Self::bounded(&mut self.base, self.max_states);
        self.base.insert(key, v);
        v
    }

    /// The rollout's cell at this state and the expected shots of greedy after it: greedy's
    /// own cell unless another is better by more than rounding.
    fn improve(&mut self, members: &[u32], fired: u128) -> (f64, usize) {
        let ranked = self.ranked(members, fired);
        let mut best = (self.base_value(members, fired), ranked[0].0);
        let (floor, total) = (self.floor(members, fired), members.len() as f64);
        for &(cell, n) in &ranked[1..] {
            let bound = best.0 - 1e-9;
            // Each shot needs at least `floor - n / total` more (see `value`), and the cells
            // after this one are in fewer layouts.
            if 1.0 + floor - n as f64 / total >= bound {
                break;
            }
            if let Some(v) = self.shot_value(members, fired, cell, bound, Self::base_value) {
                best = (v, cell);
            }
        }
        best
    }

    /// The rollout's expected shots to end the game from this state.
    fn rollout_value(&mut self, members: &[u32], fired: u128) -> f64 {
        let key = self.plain_key(members, fired);
        if let Some(&v) = self.rollout.get(&key) {
            return v;
        }
        let (_, cell) = self.improve(members, fired);
        let v = self
            .shot_value(members, fired, cell, f64::INFINITY, Self::rollout_value)
            .expect("no bound");
        Self::bounded(&mut self.rollout, self.max_states);
        self.rollout.insert(key, v);
        v
    }
}

/// A symmetry of the board as the solver uses it: where each cell goes, where it comes from,
/// and where each layout goes.
struct Image {
    cells: Vec<usize>,
    back: Vec<usize>,
    layouts: Vec<u32>,
}

impl Image {
    /// The image of a set of cells.
    fn mask(&self, mut m: u128) -> u128 {
        let mut out = 0u128;
        while m != 0 {
            out |= 1 << self.cells[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }
}

/// Whether `ships` (every layout, as ship masks) are all the sets of `k` cells of the cells
/// they cover, each ship one cell: `(k, cells covered, the first of them)`.
fn exchangeable(ships: &[Vec<(u128, usize)>], cells: &[u128]) -> Option<(usize, usize, usize)> {
    let k = ships.first()?.len();
    if ships.iter().flatten().any(|&(m, _)| m.count_ones() != 1) {
        return None;
    }
    let union = cells.iter().fold(0u128, |a, &m| a | m);
    let s = union.count_ones() as usize;
    // C(s, k) without overflow: the layouts are distinct k-sets of those cells, so they are
    // all of them exactly when there are that many.
    let mut subsets: u128 = 1;
    for i in 0..k {
        subsets = subsets.checked_mul((s - i) as u128)? / (i as u128 + 1);
    }
    (subsets == ships.len() as u128).then_some((k, s, union.trailing_zeros() as usize))
}

/// The symmetries of `setup`'s board under which `ships` (a list of layouts) is closed. The
/// identity is first.
fn symmetries(setup: &Setup, ships: &[Vec<(u128, usize)>]) -> Vec<Image> {
    let d = setup.dims;
    let canonical = |l: &[(u128, usize)]| {
        let mut v = l.to_vec();
        v.sort_unstable();
        v
    };
    let index: HashMap<Vec<(u128, usize)>, u32> = ships
        .iter()
        .enumerate()
        .map(|(i, l)| (canonical(l), i as u32))
        .collect();
    d.symmetries()
        .into_iter()
        .filter_map(|g| {
            let cells: Vec<usize> = (0..d.cells()).map(|c| g.apply(d, c)).collect();
            let mut back = vec![0; cells.len()];
            for (c, &to) in cells.iter().enumerate() {
                back[to] = c;
            }
            let mut image = Image {
                cells,
                back,
                layouts: Vec::new(),
            };
            image.layouts = ships
                .iter()
                .map(|l| {
                    let moved: Vec<(u128, usize)> =
                        l.iter().map(|&(m, t)| (image.mask(m), t)).collect();
                    index.get(&canonical(&moved)).copied()
                })
                .collect::<Option<Vec<u32>>>()?;
            Some(image)
        })
        .collect()
}
