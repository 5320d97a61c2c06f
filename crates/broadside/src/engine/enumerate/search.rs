//! Walking the enumerator's search: every solution, lazily, and uniform draws by descending
//! the search guided by exact counts.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::count::Ctl;
use super::tables::{Cand, State, Tables};
use crate::engine::{Cancel, Stop};
use crate::layout::Layout;
use crate::problem::Problem;
use crate::with_words;

/// Lazy iterator over the solutions of a problem; see [`Enumerator::solutions`](super::Enumerator::solutions).
///
/// [`Solutions::until`] gives the walk a deadline or a [`Cancel`] flag: past either it ends,
/// and [`Solutions::stopped`] says why, so an end is not mistaken for the last solution.
pub struct Solutions {
    inner: Box<dyn Step + Send>,
    halt: Halt,
}

/// When a walk stops early, and whether it has.
#[derive(Default)]
struct Halt {
    deadline: Option<Instant>,
    cancel: Option<Cancel>,
    nodes: u64,
    stopped: Option<Stop>,
}

impl Halt {
    /// Whether to stop now: the flag is read every 32 nodes (a node of a big board can take
    /// tens of microseconds, and a race waits for its loser), the clock every thousand.
    fn now(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 0x1f == 0 && self.stopped.is_none() {
            if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                self.stopped = Some(Stop::Cancelled);
            } else if self.nodes & 0x3ff == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.stopped = Some(Stop::Time);
            }
        }
        self.stopped.is_some()
    }
}

/// One step of a walk: the next solution, unless it ends or `halt` stops it.
trait Step {
    fn step(&mut self, halt: &mut Halt) -> Option<Layout>;
}

impl Solutions {
    pub(super) fn new(problem: &Problem) -> Solutions {
        let problem = problem.clone();
        let inner: Box<dyn Step + Send> =
            with_words!(problem.dims().cells(), N => Box::new(Walk::<N>::new(problem)));
        Solutions {
            inner,
            halt: Halt::default(),
        }
    }

    /// Stops the walk at `deadline` or once `cancel` is raised (either may be `None`); a walk
    /// already under way, or stopped, goes on from where it is.
    pub fn until(mut self, deadline: Option<Instant>, cancel: Option<Cancel>) -> Solutions {
        self.halt.deadline = deadline;
        self.halt.cancel = cancel;
        self.halt.stopped = None;
        self
    }

    /// Why the walk stopped before its end, if it did: then the solutions it gave are not
    /// all there are.
    pub fn stopped(&self) -> Option<Stop> {
        self.halt.stopped
    }
}

impl Iterator for Solutions {
    type Item = Layout;
    fn next(&mut self) -> Option<Layout> {
        if self.halt.stopped.is_some() {
            return None;
        }
        self.inner.step(&mut self.halt)
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

impl<const N: usize> Step for Walk<N> {
    fn step(&mut self, halt: &mut Halt) -> Option<Layout> {
        if !self.started {
            self.started = true;
            let root = self.tables.root();
            if let Some(l) = self.enter(root) {
                return Some(l);
            }
        }
        loop {
            if halt.now() {
                return None;
            }
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
    inner: Box<dyn Descend + Send + Sync>,
}

trait Descend {
    fn draw(&self, rng: &mut dyn FnMut(u128) -> u128) -> Option<Layout>;
}

impl DescentSampler {
    /// A sampler for `problem`.
    pub fn new(problem: &Problem) -> DescentSampler {
        let problem = problem.clone();
        let inner: Box<dyn Descend + Send + Sync> = with_words!(problem.dims().cells(), N => {
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
            let mut ctl = Ctl::new(&stop);
            t.count_from(st, &mut ctl, None);
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
