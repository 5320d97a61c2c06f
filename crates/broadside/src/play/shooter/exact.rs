//! The shooters that read the exact heat map (greedy, Sakuta & Iida's MP and LA) and the one that
//! estimates it from samples (Naslausky & Figueiredo's method).

use std::sync::Arc;
use std::time::Duration;

use rand::Rng;

use super::hunt::{Hunt, HuntTarget};
use super::{Shooter, any, open, shuffle};
use crate::engine::{Cancel, CountOptions, Engine};
use crate::heat::HeatMap;
use crate::observe::{Shot, ShotResult};
use crate::play::book::Book;
use crate::play::game::Setup;
use crate::play::optimal::Optimal;
use crate::problem::Problem;
use crate::sample::{ATTEMPTS_PER_BOARD, Sampler, SamplerKind, cell_counts};

/// The position after `shots`, built; `None` only if the shots contradict the rules (never
/// for the record of a real game).
pub(super) fn position(setup: &Setup, shots: &[Shot]) -> Option<Problem> {
    setup.after(shots).build().ok()
}

/// Where a shooter's exact heat maps come from: counted, or looked up in the book it was
/// given when the book is for the game's rules (the games of a run share one); a count is cut
/// off at the time limit when there is one, and stopped once the cancel flag is raised (the
/// shooter then fires as if it had no map).
#[derive(Clone, Default)]
pub(super) struct Exact {
    book: Option<Arc<Book>>,
    time_limit: Option<Duration>,
    cancel: Option<Cancel>,
}

impl Exact {
    pub(super) fn new(
        book: Option<Arc<Book>>,
        time_limit: Option<Duration>,
        cancel: Option<Cancel>,
    ) -> Exact {
        Exact {
            book,
            time_limit,
            cancel,
        }
    }

    /// The time limit of a count, and the flag that stops it.
    pub(super) fn limits(&self) -> (Option<Duration>, Option<Cancel>) {
        (self.time_limit, self.cancel.clone())
    }

    /// The exact heat map after `shots`; `None` where no engine could finish.
    fn heat(&self, setup: &Setup, shots: &[Shot]) -> Option<HeatMap> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return None;
        }
        let p = position(setup, shots)?;
        let opts = CountOptions {
            per_cell: true,
            parallel: true,
            time_limit: self.time_limit,
            cancel: self.cancel.clone(),
            ..CountOptions::default()
        };
        match &self.book {
            Some(book) if book.setup() == setup => book.heat_with(&p, shots, Engine::Auto, &opts),
            _ => HeatMap::compute_with(&p, Engine::Auto, &opts)
                .ok()
                .filter(|h| h.complete),
        }
    }

    /// A cell of highest exact probability, ties broken at random; any open cell where the
    /// count fails.
    pub(super) fn greedy(&self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        greedy_on(self.heat(setup, shots).as_ref(), setup, shots, rng)
    }
}

/// A cell of highest probability on `heat`, ties broken at random; any open cell without a
/// map.
fn greedy_on(heat: Option<&HeatMap>, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
    let best = heat.map(|h| h.best().0).unwrap_or_default();
    if best.is_empty() {
        return any(&open(setup, shots), rng);
    }
    any(&best, rng)
}

/// The belief states an endgame solver may solve before play goes back to greedy (for the
/// rollout, the states it keeps before it empties its memo and goes on).
const ENDGAME_STATES: usize = 200_000;

/// How an [`Endgame`] plays once few layouts are left.
#[derive(Clone, Copy, Debug)]
pub(super) enum Finish {
    /// Optimally (expectimax over belief states).
    Optimal,
    /// The rollout of greedy: the cell after which greedy needs the fewest expected shots.
    Rollout,
}

/// Greedy until at most `most` layouts are consistent, then a solver over those layouts,
/// kept for the rest of the game, plays as `finish` says.
pub(super) struct Endgame {
    exact: Exact,
    most: u128,
    finish: Finish,
    solver: Option<Optimal>,
    gave_up: bool,
}

impl Endgame {
    pub(super) fn new(exact: Exact, most: u64, finish: Finish) -> Self {
        Endgame {
            exact,
            most: most as u128,
            finish,
            solver: None,
            gave_up: false,
        }
    }

    /// The solver's cell after `shots`; `None` once it gives up.
    fn solved(finish: Finish, solver: &mut Optimal, shots: &[Shot]) -> Option<usize> {
        match finish {
            Finish::Optimal => solver.choose(shots),
            Finish::Rollout => solver.improve_on_greedy(shots),
        }
    }
}

impl Shooter for Endgame {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        if let Some(solver) = &mut self.solver {
            match Self::solved(self.finish, solver, shots) {
                Some(c) => return c,
                None => {
                    self.solver = None;
                    self.gave_up = true;
                }
            }
        }
        let heat = self.exact.heat(setup, shots);
        if !self.gave_up
            && let Some(h) = &heat
            && h.layouts <= self.most
            && let Ok(mut solver) =
                Optimal::position(setup, shots, self.most as usize, ENDGAME_STATES)
        {
            if let Some(c) = Self::solved(self.finish, &mut solver, shots) {
                self.solver = Some(solver);
                return c;
            }
            self.gave_up = true;
        }
        greedy_on(heat.as_ref(), setup, shots, rng)
    }
}

/// Ships not reported sunk (under sinking `none`, the whole fleet).
fn afloat(setup: &Setup, shots: &[Shot]) -> usize {
    let sunk = shots
        .iter()
        .filter(|s| matches!(s.result, ShotResult::Sunk { .. }))
        .count();
    setup.fleet.ship_count().saturating_sub(sunk)
}

/// Whether Sakuta & Iida's exact stage has begun: at most four ships afloat and at most `most` cells
/// not fired at.
fn exact_stage(setup: &Setup, shots: &[Shot], most: usize) -> bool {
    afloat(setup, shots) <= 4 && setup.dims.cells() - setup.rocks.len() - shots.len() <= most
}

pub(super) struct Greedy(pub(super) Exact);

impl Shooter for Greedy {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        self.0.greedy(setup, shots, rng)
    }
}

/// Sakuta & Iida's MP_x: checkerboard, then greedy.
pub(super) struct MinPossible {
    exact: Exact,
    open: usize,
    early: HuntTarget,
}

impl MinPossible {
    pub(super) fn new(exact: Exact, open: usize) -> Self {
        MinPossible {
            exact,
            open,
            early: HuntTarget::new(Hunt::Passes),
        }
    }
}

impl Shooter for MinPossible {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        if exact_stage(setup, shots, self.open) {
            self.exact.greedy(setup, shots, rng)
        } else {
            self.early.choose(setup, shots, rng)
        }
    }
}

/// Sakuta & Iida's LA: the cell whose shot, followed by up to `plies - 1` more (each among the `moves`
/// likeliest cells, the shots before it assumed to miss), hits in the most layouts.
pub(super) struct Lookahead {
    exact: Exact,
    plies: usize,
    moves: usize,
    open: Option<usize>,
    early: HuntTarget,
}

impl Lookahead {
    pub(super) fn new(exact: Exact, plies: usize, moves: usize, open: Option<usize>) -> Self {
        Lookahead {
            exact,
            plies,
            moves,
            open,
            early: HuntTarget::new(Hunt::Passes),
        }
    }
}

/// The open cells of `heat` with a ship in some layout, likeliest first, ties in random order,
/// at most `moves` of them.
fn likeliest(heat: &HeatMap, moves: usize, rng: &mut dyn Rng) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..heat.per_cell.len())
        .filter(|&c| heat.open[c] && heat.per_cell[c] > 0)
        .collect();
    shuffle(&mut cells, rng);
    cells.sort_by_key(|&c| std::cmp::Reverse(heat.per_cell[c]));
    cells.truncate(moves);
    cells
}

impl Lookahead {
    /// The most layouts (of those consistent with `shots`) hit within `plies` shots from
    /// here, and the candidate cells that reach it; `None` where a count fails.
    fn reach(
        &self,
        setup: &Setup,
        shots: &mut Vec<Shot>,
        plies: usize,
        rng: &mut dyn Rng,
    ) -> Option<(u128, Vec<usize>)> {
        let heat = self.exact.heat(setup, shots)?;
        let mut best = (0u128, Vec::new());
        for c in likeliest(&heat, self.moves, rng) {
            let mut value = heat.per_cell[c];
            if plies > 1 && heat.per_cell[c] < heat.layouts {
                shots.push(Shot {
                    cell: c,
                    result: ShotResult::Miss,
                });
                let later = self.reach(setup, shots, plies - 1, rng);
                shots.pop();
                value += later?.0;
            }
            if value > best.0 {
                best = (value, vec![c]);
            } else if value == best.0 {
                best.1.push(c);
            }
        }
        Some(best)
    }
}

impl Shooter for Lookahead {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        if let Some(most) = self.open
            && !exact_stage(setup, shots, most)
        {
            return self.early.choose(setup, shots, rng);
        }
        match self.reach(setup, &mut shots.to_vec(), self.plies, rng) {
            Some((_, best)) if !best.is_empty() => any(&best, rng),
            _ => self.exact.greedy(setup, shots, rng),
        }
    }
}

/// Greedy on a heat map estimated from `boards` draws of `sampler` at every shot: Naslausky & Figueiredo's
/// method, with its weighted sampler. Where the sampler draws nothing (a rejection-style
/// sampler that gives up), greedy on the exact map.
pub(super) struct Sampled {
    pub(super) exact: Exact,
    pub(super) boards: u64,
    pub(super) sampler: SamplerKind,
}

impl Shooter for Sampled {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        let Some(problem) = position(setup, shots) else {
            return any(&open(setup, shots), rng);
        };
        let Ok(mut sampler) = Sampler::new(problem, self.sampler) else {
            return self.exact.greedy(setup, shots, rng);
        };
        let (counts, _) = cell_counts(&mut sampler, self.boards, ATTEMPTS_PER_BOARD, rng);
        let mut fired = vec![false; counts.len()];
        for s in shots {
            fired[s.cell] = true;
        }
        let top = (0..counts.len())
            .filter(|&c| !fired[c])
            .map(|c| counts[c])
            .max()
            .unwrap_or(0);
        if top == 0 {
            return self.exact.greedy(setup, shots, rng);
        }
        let best: Vec<usize> = (0..counts.len())
            .filter(|&c| !fired[c] && counts[c] == top)
            .collect();
        any(&best, rng)
    }
}
