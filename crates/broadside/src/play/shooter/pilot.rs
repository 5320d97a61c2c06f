//! The pilot shooter: `density:50.1` improved by paired rollouts of itself.
//!
//! At each shot where the choice can matter (some ship is wounded, or at least one ship has
//! been sunk), the shooter takes `density:50.1`'s choice and the next [`CANDIDATES`] heaviest
//! cells of its matrix, and asks of each: if I fire here and then play `density:50.1` to the
//! end, how many shots does the whole game take? The answer is averaged over layouts drawn
//! exactly uniformly from those consistent with the shots, the same layouts for every
//! candidate (so their differences are paired: a layout where two candidates' games run the
//! same way costs nothing in noise). This is the rollout, or pilot method, of
//! `density:50.1`: by the performance difference lemma, a policy that at each shot takes an
//! action of lower expected cost under the base policy than the base's own action is at
//! least as good as the base, and better by the sum of those advantages along its games.
//!
//! `pilot:N.C.A` waits longer: it plays the base's shots until at most `A` ships are left
//! afloat (the fleet less the sinkings reported; where sinkings are not reported, an `A` below
//! the fleet never comes and the shooter plays as its base). On the standard game, from two
//! ships afloat on (`pilot:800.8.2`) it keeps two thirds of `pilot:800`'s gain at a tenth of
//! its cost: the games left to play out are short and the layouts few (docs/RESULTS.md).
//!
//! The estimate is a race: every [`BATCH`] layouts from [`FIRST_LOOK`] on, a candidate whose
//! mean difference against the base's choice lies more than [`DROP_Z`] standard errors above
//! zero is dropped, and the race ends when none is left or `samples` layouts are drawn. The
//! shooter then leaves the base's choice only for a candidate whose mean difference lies more
//! than [`MOVE_Z`] standard errors below zero (the one with the lowest such bound). Where at
//! most `samples` layouts are left, they are listed and every candidate's mean is exact.
//!
//! Drawing is exact and cheap: a uniform sampler is prepared (the DP's tables, or a list of
//! the layouts) at one position and kept while the shots go on; a layout it draws that the
//! later shots contradict is rejected (each rollout replays the game's shots against its
//! layout, which checks that), which keeps the draws uniform over the layouts consistent with
//! the shots. The sampler is prepared again once fewer than [`KEEP_RATE`] of its layouts are
//! kept. Two rollouts that reach the same shots and the same knowledge of the board go on
//! alike, so a candidate's game is cut short once it meets the base's; and the base's choices
//! along the reports a rollout met are kept ([`Choices`]) for the decision's other layouts.
//!
//! Every draw comes from the game's RNG, so a game is fixed by its seed, whatever the
//! machine or the number of threads. The cost is at most `samples` times the candidates'
//! games a shot: on the standard game `pilot:800` takes about 1 s a game on two cores
//! (docs/PERFORMANCE.md).

use rand::{Rng, SeedableRng};

use super::Shooter;
use super::density::Density;
use super::exact::{Exact, position};
use super::hunt::Mark;
use crate::engine::{Cancel, Enumerator};
use crate::layout::Layout;
use crate::observe::{Shot, ShotResult};
use crate::play::game::{Game, Setup};
use crate::problem::Problem;
use crate::sample::{Sampler, SamplerKind};

/// The base policy's weight on open hits (`density:50.1`).
pub const BASE_WEIGHT: u32 = 50;
/// The base policy's hunting exponent (`density:50.1`).
pub const BASE_SMALL: u32 = 1;
/// Cells weighed against the base's choice unless the shooter names a number
/// (`pilot:candidates=C`): the next heaviest of its matrix.
pub const CANDIDATES: usize = 6;
/// Layouts between two looks at the race, and layouts before the first.
pub const BATCH: usize = 16;
/// Layouts drawn before the race first drops a candidate.
pub const FIRST_LOOK: usize = 32;
/// A candidate is dropped once its mean difference is this many standard errors above zero.
pub const DROP_Z: f64 = 1.0;
/// The base's choice is left for a candidate only if its mean difference is this many
/// standard errors below zero.
pub const MOVE_Z: f64 = 1.5;
/// The least share of a kept sampler's layouts that the shots since must leave consistent;
/// below it the sampler is prepared again at the current position.
pub const KEEP_RATE: f64 = 0.02;
/// Layouts drawn from a kept sampler before its share kept is judged.
const JUDGE_AFTER: usize = 256;

/// The pilot shooter; see the module documentation.
pub(super) struct Pilot {
    /// Layouts per shot, at most.
    samples: usize,
    /// Cells weighed against the base's choice.
    candidates: usize,
    /// The most ships afloat at which the rollouts are played (`None`: any number).
    afloat: Option<usize>,
    /// The base policy, brought up to date with the game's shots.
    base: Density,
    /// A sampler prepared at an earlier position (or this one).
    kept: Option<Sampler>,
    /// The time limit and cancel flag of the exact counts (the sampler's preparation).
    exact: Exact,
}

/// The race's tallies per candidate: layouts counted, and sums of the differences and of
/// their squares.
struct Race {
    n: usize,
    sum: Vec<f64>,
    squares: Vec<f64>,
    alive: Vec<bool>,
}

impl Race {
    fn new(candidates: usize) -> Race {
        Race {
            n: 0,
            sum: vec![0.0; candidates],
            squares: vec![0.0; candidates],
            // The base's choice (index 0) is what the others are measured against.
            alive: vec![true; candidates],
        }
    }

    /// Candidate `k`'s mean difference against the base's choice and its standard error.
    fn mean_se(&self, k: usize) -> (f64, f64) {
        let n = self.n.max(1) as f64;
        let mean = self.sum[k] / n;
        let var = (self.squares[k] / n - mean * mean).max(0.0);
        (mean, (var / n).sqrt())
    }

    fn add(&mut self, shots: &[f64]) {
        self.n += 1;
        for k in 1..shots.len() {
            if self.alive[k] {
                let d = shots[k] - shots[0];
                self.sum[k] += d;
                self.squares[k] += d * d;
            }
        }
    }

    /// Drops the candidates clearly worse than the base's choice; false once none is left.
    fn look(&mut self) -> bool {
        for k in 1..self.alive.len() {
            if self.alive[k] {
                let (mean, se) = self.mean_se(k);
                if mean - DROP_Z * se > 0.0 {
                    self.alive[k] = false;
                }
            }
        }
        self.alive[1..].iter().any(|&a| a)
    }

    /// The candidate to fire at: the one whose mean lies furthest below zero by more than
    /// [`MOVE_Z`] standard errors, else the base's choice (index 0).
    fn winner(&self) -> usize {
        let mut best = (0, 0.0);
        for k in 1..self.alive.len() {
            if self.alive[k] {
                let (mean, se) = self.mean_se(k);
                let bound = mean + MOVE_Z * se;
                if bound < best.1 {
                    best = (k, bound);
                }
            }
        }
        best.0
    }
}

/// The base policy's choices met so far in one decision's rollouts, as a tree: a rollout's
/// game is a path from its candidate's root, one step per shot's report, and the base's next
/// shot is a function of that path (its die is seeded by the shot's number), as is what it
/// knows of each cell there. About half the choices of a race are met again on other
/// layouts; the tree gives them, and the knowledge the rollouts compare, without bringing
/// the matrix up to date: a rollout's matrix catches up with all the shots since at the next
/// choice the tree has not met.
struct Choices {
    /// The cells of the board.
    cells: usize,
    /// Per node: its first child, the shot chosen there ([`Choices::UNKNOWN`] until chosen),
    /// its next sibling, and the report that leads to it.
    first: Vec<u32>,
    choice: Vec<u32>,
    sibling: Vec<u32>,
    report: Vec<ShotResult>,
    /// Per node (`cells` marks each, from its choice on): what the base knew there.
    known: Vec<Mark>,
}

impl Choices {
    const NONE: u32 = u32::MAX;
    const UNKNOWN: u32 = u32::MAX;

    /// A tree with one root per candidate (node `k` for candidate `k`) on a board of `cells`.
    fn new(candidates: usize, cells: usize) -> Choices {
        Choices {
            cells,
            first: vec![Self::NONE; candidates],
            choice: vec![Self::UNKNOWN; candidates],
            sibling: vec![Self::NONE; candidates],
            report: vec![ShotResult::Miss; candidates],
            known: vec![Mark::Open; candidates * cells],
        }
    }

    /// The node reached from `node` by a shot that reported `report`, made if new.
    fn child(&mut self, node: u32, report: &ShotResult) -> u32 {
        let mut at = self.first[node as usize];
        while at != Self::NONE {
            if self.report[at as usize] == *report {
                return at;
            }
            at = self.sibling[at as usize];
        }
        let new = self.first.len() as u32;
        self.first.push(Self::NONE);
        self.choice.push(Self::UNKNOWN);
        self.sibling.push(self.first[node as usize]);
        self.report.push(report.clone());
        self.known.resize(self.known.len() + self.cells, Mark::Open);
        self.first[node as usize] = new;
        new
    }

    /// The node `g`'s last shot leads to from `node`, and the base's next shot there: the one
    /// chosen there before, else `d`'s choice, kept with what `d` knew.
    fn step(&mut self, node: u32, setup: &Setup, g: &Game, d: &mut Density) -> (u32, usize) {
        let last = g.shots().last().expect("a shot was just fired");
        let node = self.child(node, &last.result);
        let n = node as usize;
        if self.choice[n] == Self::UNKNOWN {
            let x = d.choose(setup, g.shots(), &mut dice(g.shots().len()));
            self.choice[n] = x as u32;
            self.known[n * self.cells..(n + 1) * self.cells].copy_from_slice(d.known());
        }
        (node, self.choice[n] as usize)
    }

    /// What the base knew at `node` (a node with a choice).
    fn known(&self, node: u32) -> &[Mark] {
        let n = node as usize;
        &self.known[n * self.cells..(n + 1) * self.cells]
    }
}

/// What the shots say of each cell, to turn away at a glance most layouts a kept sampler
/// draws that the shots since contradict, before a game is set up to replay them (which
/// still decides): a miss is water, a hit or a sinking a ship's cell.
struct Sieve {
    /// Per cell: [`Sieve::OPEN`], [`Sieve::WATER`] or [`Sieve::SHIP`].
    cells: Vec<u8>,
    /// The cells that are [`Sieve::SHIP`].
    ships: usize,
}

impl Sieve {
    const OPEN: u8 = 0;
    const WATER: u8 = 1;
    const SHIP: u8 = 2;

    fn new(cells: usize, shots: &[Shot]) -> Sieve {
        let mut sieve = Sieve {
            cells: vec![Self::OPEN; cells],
            ships: 0,
        };
        for s in shots {
            let ship = matches!(s.result, ShotResult::Hit | ShotResult::Sunk { .. });
            let mark = if ship { Self::SHIP } else { Self::WATER };
            if std::mem::replace(&mut sieve.cells[s.cell], mark) != Self::SHIP && ship {
                sieve.ships += 1;
            }
        }
        sieve
    }

    /// False when `layout` puts a ship on a miss or leaves a hit uncovered.
    fn passes(&self, layout: &Layout) -> bool {
        let mut covered = 0;
        for ship in &layout.ships {
            for &c in &ship.cells {
                match self.cells[c] {
                    Self::WATER => return false,
                    Self::SHIP => covered += 1,
                    _ => {}
                }
            }
        }
        covered == self.ships
    }
}

/// The buffers rollouts reuse from one layout to the next, and the choices met.
struct Scratch {
    /// A game being played out, and its density.
    game: Option<Game>,
    density: Density,
    /// The base's shots, and its node of `choices` before each next one.
    path: Vec<usize>,
    nodes: Vec<u32>,
    /// Per cell: how many more times a candidate's game than the base's has fired there.
    diff: Vec<i8>,
    choices: Choices,
    /// The shots' sieve.
    sieve: Sieve,
}

impl Scratch {
    /// Empty buffers for the rollouts of `candidates` cells after `shots` on a board of
    /// `cells`.
    fn new(candidates: usize, cells: usize, shots: &[Shot]) -> Scratch {
        Scratch {
            sieve: Sieve::new(cells, shots),
            game: None,
            density: Density::default(),
            path: Vec::new(),
            nodes: Vec::new(),
            diff: Vec::new(),
            choices: Choices::new(candidates, cells),
        }
    }
}

/// The die of a rollout's shot after `fired` shots. `density:50.1` draws from it only where
/// its matrix is all zero (a sinking credited to the wrong cells has left no position for
/// some ship), and then among the open cells; seeded by the shot's number, it makes a rollout
/// a function of its layout, and two rollouts that meet at the same shots and knowledge go
/// on alike.
fn dice(fired: usize) -> rand::rngs::SmallRng {
    rand::rngs::SmallRng::seed_from_u64(fired as u64)
}

impl Pilot {
    pub(super) fn new(
        samples: u64,
        candidates: usize,
        afloat: Option<usize>,
        exact: Exact,
    ) -> Pilot {
        Pilot {
            samples: samples as usize,
            candidates,
            afloat,
            base: Density::new(BASE_WEIGHT, BASE_SMALL, 0),
            kept: None,
            exact,
        }
    }

    /// The number of shots each candidate's game takes on `layout` (written to `out`, for the
    /// candidates still `alive`), or false when `layout` contradicts `shots`.
    #[allow(
        clippy::too_many_arguments,
        reason = "a layout's rollouts: the decision's state passed apart, as the race loop holds it"
    )]
    fn rollouts(
        &self,
        setup: &Setup,
        layout: Layout,
        shots: &[Shot],
        candidates: &[usize],
        alive: &[bool],
        out: &mut [f64],
        scratch: &mut Scratch,
    ) -> bool {
        if !scratch.sieve.passes(&layout) {
            return false;
        }
        let mut game = Game::new(setup.clone(), layout);
        for s in shots {
            if game.fire(s.cell) != s.result {
                return false;
            }
        }
        let cells = setup.dims.cells();
        let Scratch {
            game: g,
            density: d,
            path,
            nodes,
            diff,
            choices,
            sieve: _,
        } = scratch;
        let g = g.get_or_insert_with(|| game.clone());
        // The base's game from here: its shots, and what it knew before each next one.
        path.clear();
        nodes.clear();
        {
            g.clone_from(&game);
            d.clone_from(&self.base);
            let mut x = candidates[0];
            let mut node = 0;
            loop {
                g.fire(x);
                path.push(x);
                if g.is_over() {
                    break;
                }
                (node, x) = choices.step(node, setup, g, d);
                nodes.push(node);
            }
            out[0] = g.shots().len() as f64;
        }
        diff.resize(cells, 0);
        for (k, &first) in candidates.iter().enumerate().skip(1) {
            if !alive[k] {
                continue;
            }
            g.clone_from(&game);
            d.clone_from(&self.base);
            diff.iter_mut().for_each(|v| *v = 0);
            let mut unequal = 0i32;
            let mut x = first;
            let mut step = 0;
            let mut node = k as u32;
            out[k] = loop {
                g.fire(x);
                let same_shots = step < path.len() && {
                    for (cell, by) in [(x, 1i8), (path[step], -1i8)] {
                        let before = diff[cell];
                        diff[cell] += by;
                        unequal += (diff[cell] != 0) as i32 - (before != 0) as i32;
                    }
                    unequal == 0
                };
                if g.is_over() {
                    break g.shots().len() as f64;
                }
                (node, x) = choices.step(node, setup, g, d);
                // The same shots fired and the same knowledge of every cell: the two games
                // go on alike, and end together.
                if same_shots && choices.known(node) == choices.known(nodes[step]) {
                    break out[0];
                }
                step += 1;
            };
        }
        true
    }

    /// Each candidate's game on each of `layouts` (the base brought up to date with `shots`),
    /// passed to `each` as the shots each took, for the layouts that agree with `shots`.
    fn play_out(
        &self,
        setup: &Setup,
        shots: &[Shot],
        candidates: &[usize],
        layouts: impl IntoIterator<Item = Layout>,
        mut each: impl FnMut(&[f64]),
    ) {
        let all = vec![true; candidates.len()];
        let mut out = vec![0.0; candidates.len()];
        let mut scratch = Scratch::new(candidates.len(), setup.dims.cells(), shots);
        for layout in layouts {
            if self.rollouts(
                setup,
                layout,
                shots,
                candidates,
                &all,
                &mut out,
                &mut scratch,
            ) {
                each(&out);
            }
        }
    }

    /// The race over layouts drawn from the kept sampler (prepared again where it keeps too
    /// few); `None` where no sampler can be had or the count behind it was stopped.
    fn race(
        &mut self,
        setup: &Setup,
        shots: &[Shot],
        problem: &Problem,
        candidates: &[usize],
        rng: &mut dyn Rng,
    ) -> Option<Race> {
        let mut race = Race::new(candidates.len());
        let mut out = vec![0.0; candidates.len()];
        let mut scratch = Scratch::new(candidates.len(), setup.dims.cells(), shots);
        let mut drawn = 0usize;
        let (time_limit, cancel) = self.exact.limits();
        let deadline = time_limit.and_then(|t| std::time::Instant::now().checked_add(t));
        // A sampler kept from an earlier shot draws until this race's time limit, not its
        // own (the time between two shots, a person's to think in a match, is no race's).
        if let Some(kept) = self.kept.as_mut() {
            kept.set_deadline(deadline);
        }
        while race.n < self.samples {
            let stale = drawn >= JUDGE_AFTER && (race.n as f64) < KEEP_RATE * drawn as f64;
            if self.kept.is_none() || stale {
                let left = deadline.map(|d| d.saturating_duration_since(std::time::Instant::now()));
                let sampler = Sampler::within_or_cancelled(
                    problem.clone(),
                    SamplerKind::Uniform,
                    left,
                    cancel.clone(),
                )
                .ok()?;
                self.kept = Some(sampler);
                race = Race::new(candidates.len());
                drawn = 0;
            }
            let kept = self.kept.as_mut()?;
            let Some(layout) = kept.sample(rng) else {
                // Past the time limit, the race stands where it is.
                if kept.timed_out() {
                    break;
                }
                return None;
            };
            drawn += 1;
            let alive = &race.alive;
            if !self.rollouts(
                setup,
                layout,
                shots,
                candidates,
                alive,
                &mut out,
                &mut scratch,
            ) {
                continue;
            }
            race.add(&out);
            if race.n >= FIRST_LOOK && race.n.is_multiple_of(BATCH) && !race.look() {
                break;
            }
            // Past the time limit, the race stands where it is.
            let late = deadline.is_some_and(|d| std::time::Instant::now() >= d);
            if late || cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                break;
            }
        }
        Some(race)
    }
}

/// A shot that is not the base's choice, and what it is worth to the base played on from
/// there: see [`departure`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Worth {
    /// The base's choice at that position.
    pub base: usize,
    /// The base's expected shots to the end of the game after its own choice, less those
    /// after the shot fired (both played on by the base): positive where the shot fired is
    /// the better one.
    pub gain: f64,
    /// The standard error of `gain` (0 where it is exact).
    pub se: f64,
    /// The layouts played out.
    pub layouts: usize,
    /// Whether they are every layout the shots allow (the gain is then exact).
    pub exact: bool,
}

/// What firing at `fired` after `shots` is worth against `density:50.1`'s own choice there,
/// each followed by `density:50.1` to the end of the game (its rollouts' rare random shot
/// seeded by the shot's number, as the pilot's): `None` where `fired` is the base's choice, or
/// where no layout fits the shots or the count behind the draws was cancelled (the caller
/// tells these apart by `cancel`).
///
/// The two games are played on the same layouts: every one the shots allow where there are
/// at most `samples`, else `samples` drawn exactly uniformly with `rng`. By the performance
/// difference lemma, the sum of these gains over the shots of a shooter's games where it
/// leaves the base is, in expectation, how many shots fewer than the base it needs on the
/// same layouts; each is measured on layouts of its own, not on those the shooter decided
/// on, so a choice made on lucky draws is not credited with their luck.
pub(crate) fn departure(
    setup: &Setup,
    shots: &[Shot],
    fired: usize,
    samples: usize,
    rng: &mut dyn Rng,
    cancel: &Cancel,
) -> Option<Worth> {
    let exact = Exact::new(None, None, Some(cancel.clone()));
    let mut pilot = Pilot::new(samples as u64, 1, None, exact);
    // The base's choice, as its rollouts make it (and brought up to date with `shots`).
    let base = pilot.base.choose(setup, shots, &mut dice(shots.len()));
    if base == fired {
        return None;
    }
    let problem = position(setup, shots)?;
    let candidates = [base, fired];
    let listed: Vec<Layout> = Enumerator::new(&problem)
        .solutions()
        .take(samples + 1)
        .collect();
    let exact = listed.len() <= samples;
    let mut gains = Vec::new();
    let mut gain = |out: &[f64]| gains.push(out[0] - out[1]);
    if exact {
        pilot.play_out(setup, shots, &candidates, listed, &mut gain);
    } else {
        let mut sampler =
            Sampler::within_or_cancelled(problem, SamplerKind::Uniform, None, Some(cancel.clone()))
                .ok()?;
        let drawn = std::iter::from_fn(|| sampler.sample(rng)).take(samples);
        pilot.play_out(setup, shots, &candidates, drawn, &mut gain);
    }
    if gains.is_empty() {
        return None;
    }
    let (mean, sd) = crate::stats::mean_sd(&gains);
    Some(Worth {
        base,
        gain: mean,
        se: if exact {
            0.0
        } else {
            sd / (gains.len() as f64).sqrt()
        },
        layouts: gains.len(),
        exact,
    })
}

impl Shooter for Pilot {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        let scores = self.base.scores(setup, shots);
        let mut order: Vec<usize> = (0..scores.len()).filter(|&c| scores[c] > 0.0).collect();
        if order.is_empty() {
            return self.base.choose(setup, shots, rng);
        }
        // Heaviest first, ties in reading order: the base's own choice first.
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        // The base's knowledge after `shots` (its scores just brought it up to date).
        let wounded = self.base.known().contains(&Mark::Wounded);
        let sinkings = shots
            .iter()
            .filter(|s| matches!(s.result, ShotResult::Sunk { .. }))
            .count();
        // Before the first sinking the hunt is the base's: there its lattice of shots is hard
        // to beat, and the rollouts are longest and noisiest.
        if !(wounded || sinkings > 0) || order.len() < 2 || self.samples == 0 {
            return order[0];
        }
        // With a limit, the rollouts wait until few ships are left afloat.
        let afloat = || {
            let fleet: usize = setup.fleet.types().iter().map(|t| t.count).sum();
            fleet.saturating_sub(sinkings)
        };
        if self.afloat.is_some_and(|most| afloat() > most) {
            return order[0];
        }
        let Some(problem) = position(setup, shots) else {
            return order[0];
        };
        let candidates: Vec<usize> = order.iter().copied().take(self.candidates + 1).collect();
        // Few layouts left: every one of them, and the exact means.
        let listed: Vec<Layout> = Enumerator::new(&problem)
            .solutions()
            .take(self.samples + 1)
            .collect();
        if listed.len() <= self.samples {
            let mut sums = vec![0.0; candidates.len()];
            self.play_out(setup, shots, &candidates, listed, |out| {
                sums.iter_mut().zip(out).for_each(|(s, o)| *s += o);
            });
            let mut choice = 0;
            for k in 1..candidates.len() {
                if sums[k] < sums[choice] {
                    choice = k;
                }
            }
            return candidates[choice];
        }
        match self.race(setup, shots, &problem, &candidates, rng) {
            Some(race) => candidates[race.winner()],
            None => order[0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::Fleet;
    use crate::geom::Dims;
    use crate::observe::Sinking;
    use crate::rules::Rules;

    fn setup(w: usize, h: usize, fleet: &[usize], rules: Rules) -> Setup {
        Setup {
            dims: Dims::new(w, h),
            fleet: Fleet::straight(fleet),
            rules,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        }
    }

    /// The exact expected shots of "fire at `first`, then `density:50.1` to the end" after
    /// `shots`, over every consistent layout: listed by the enumerator and played out one by
    /// one with the ordinary shooter.
    fn expected(setup: &Setup, shots: &[Shot], first: usize) -> f64 {
        let problem = position(setup, shots).unwrap();
        let mut total = 0usize;
        let mut n = 0usize;
        for layout in Enumerator::new(&problem).solutions() {
            let mut game = Game::new(setup.clone(), layout);
            for s in shots {
                assert_eq!(game.fire(s.cell), s.result);
            }
            game.fire(first);
            let mut d = Density::new(BASE_WEIGHT, BASE_SMALL, 0);
            while !game.is_over() {
                let c = d.choose(setup, game.shots(), &mut dice(game.shots().len()));
                game.fire(c);
            }
            total += game.shots().len();
            n += 1;
        }
        total as f64 / n as f64
    }

    /// Where every layout is listed, the pilot's shot is never worse in exact expectation than
    /// the base's own, and over the positions of a few games it is better somewhere (the
    /// rollout's whole point). Both are checked against an independent count: the layouts
    /// enumerated and each game played out with the ordinary `density:50.1` shooter.
    #[test]
    fn listed_layouts_give_a_shot_no_worse_than_the_base() {
        let mut better = 0;
        for (rules, seed) in [(Rules::Touch, 1u64), (Rules::NoTouch, 2), (Rules::Touch, 3)] {
            let s = setup(5, 5, &[3, 2, 2], rules);
            let empty = std::sync::Arc::new(s.empty().build().unwrap());
            let mut sampler = Sampler::new(empty, SamplerKind::Uniform).unwrap();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            for _ in 0..4 {
                let layout = sampler.sample(&mut rng).unwrap();
                let mut game = Game::new(s.clone(), layout);
                let mut pilot = Pilot::new(100_000, CANDIDATES, None, Exact::default());
                let mut base = Density::new(BASE_WEIGHT, BASE_SMALL, 0);
                while !game.is_over() {
                    let shots = game.shots().to_vec();
                    let mine = pilot.choose(&s, &shots, &mut rng);
                    let theirs = base.choose(&s, &shots, &mut rng);
                    if mine != theirs {
                        let (a, b) = (expected(&s, &shots, mine), expected(&s, &shots, theirs));
                        assert!(a < b, "{shots:?}: {mine} {a} against {theirs} {b}");
                        better += 1;
                    }
                    game.fire(mine);
                }
            }
        }
        assert!(better >= 3, "{better} shots improved");
    }

    /// A departure's gain is the difference of the two exact expectations where every layout
    /// is played, and an unbiased estimate of it, within its standard error, where layouts
    /// are drawn; the base's own choice is no departure.
    #[test]
    fn a_departure_is_worth_the_difference_of_the_exact_expectations() {
        let s = setup(5, 5, &[3, 2, 2], Rules::Touch);
        let empty = std::sync::Arc::new(s.empty().build().unwrap());
        let mut sampler = Sampler::new(empty, SamplerKind::Uniform).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(6);
        let cancel = Cancel::new();
        let (mut exact, mut drawn) = (0, 0);
        for _ in 0..6 {
            let mut game = Game::new(s.clone(), sampler.sample(&mut rng).unwrap());
            let mut pilot = Pilot::new(100_000, CANDIDATES, None, Exact::default());
            while !game.is_over() {
                let shots = game.shots().to_vec();
                let mine = pilot.choose(&s, &shots, &mut rng);
                let base = Density::new(BASE_WEIGHT, BASE_SMALL, 0).choose(
                    &s,
                    &shots,
                    &mut dice(shots.len()),
                );
                let all = departure(&s, &shots, mine, 100_000, &mut rng, &cancel);
                if mine == base {
                    assert_eq!(all, None);
                } else {
                    let want = expected(&s, &shots, base) - expected(&s, &shots, mine);
                    let all = all.expect("a departure");
                    assert!(all.exact && all.se == 0.0 && all.base == base);
                    assert!(
                        (all.gain - want).abs() < 1e-9,
                        "{} against {want}",
                        all.gain
                    );
                    exact += 1;
                    // Drawn where more layouts are left than it may play.
                    let few = all.layouts / 4;
                    if few >= 40 {
                        let d = departure(&s, &shots, mine, few, &mut rng, &cancel).unwrap();
                        assert!(!d.exact && d.layouts == few && d.se > 0.0);
                        assert!((d.gain - want).abs() < 4.0 * d.se + 1e-9, "{d:?} {want}");
                        drawn += 1;
                    }
                }
                game.fire(mine);
            }
        }
        assert!(exact >= 3 && drawn >= 1, "{exact} exact, {drawn} drawn");
    }

    /// The sieve never turns away a layout that replays the shots, and turns away most of
    /// those that do not: checked against the game's own replay on layouts drawn for the
    /// empty board, after the shots of part of a game.
    #[test]
    fn the_sieve_keeps_every_layout_the_shots_allow() {
        for (rules, seed) in [(Rules::Touch, 4u64), (Rules::NoTouch, 5)] {
            let s = setup(6, 6, &[3, 2, 2], rules);
            let empty = std::sync::Arc::new(s.empty().build().unwrap());
            let mut sampler = Sampler::new(empty, SamplerKind::Uniform).unwrap();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut game = Game::new(s.clone(), sampler.sample(&mut rng).unwrap());
            let mut base = Density::new(BASE_WEIGHT, BASE_SMALL, 0);
            for _ in 0..8 {
                let c = base.choose(&s, game.shots(), &mut rng);
                game.fire(c);
            }
            let shots = game.shots().to_vec();
            assert!(shots.iter().any(|s| s.result != ShotResult::Miss));
            let sieve = Sieve::new(s.dims.cells(), &shots);
            let (mut kept, mut turned, mut contradicted) = (0, 0, 0);
            for _ in 0..2000 {
                let layout = sampler.sample(&mut rng).unwrap();
                let mut replay = Game::new(s.clone(), layout.clone());
                let allowed = shots.iter().all(|x| replay.fire(x.cell) == x.result);
                let passes = sieve.passes(&layout);
                assert!(passes || !allowed, "{shots:?}: {layout:?} turned away");
                kept += allowed as usize;
                contradicted += !allowed as usize;
                turned += !passes as usize;
            }
            assert!(kept > 0, "no layout drawn fits the shots");
            // A sinking also names the ship's type, which the sieve leaves to the replay.
            assert!(
                turned * 10 >= contradicted * 9,
                "{turned} of {contradicted}"
            );
        }
    }

    /// The race drops a candidate clearly worse than the base's shot, keeps one clearly
    /// better, and moves only when the evidence passes its bound.
    #[test]
    fn the_race_moves_only_on_clear_evidence() {
        let mut race = Race::new(3);
        // Candidate 1 takes a shot more, candidate 2 half a shot less, both with noise.
        for i in 0..64 {
            let noise = if i % 2 == 0 { 1.0 } else { -1.0 };
            race.add(&[40.0, 41.0 + noise, 39.5 + noise]);
        }
        assert!(race.look());
        assert_eq!(race.alive, [true, false, true]);
        assert_eq!(race.winner(), 2);
        // Too little evidence: a tenth of a shot with a standard error of an eighth.
        let mut weak = Race::new(2);
        for i in 0..64 {
            let noise = if i % 2 == 0 { 1.0 } else { -1.0 };
            weak.add(&[40.0, 39.9 + noise]);
        }
        assert!(weak.look());
        assert_eq!(weak.winner(), 0);
    }
}
