//! Walking the enumerator's search: every solution, lazily, and uniform draws by descending
//! the search guided by exact counts.

use std::sync::atomic::AtomicBool;

use super::count::Ctl;
use super::tables::{Cand, State, Tables};
use crate::layout::Layout;
use crate::problem::Problem;
use crate::with_words;

/// Lazy iterator over the solutions of a problem; see [`Enumerator::solutions`](super::Enumerator::solutions).
pub struct Solutions {
    inner: Box<dyn Iterator<Item = Layout> + Send>,
}

impl Solutions {
    pub(super) fn new(problem: &Problem) -> Solutions {
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
