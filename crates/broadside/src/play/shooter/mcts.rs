//! Kancko's Monte Carlo tree search: UCT over determinisations.
//!
//! Each playout draws a hidden layout uniformly from those consistent with the shots (the
//! exact sampler), walks the tree of shots from the position (a shot's child depends on
//! whether that layout reports a hit or a miss, Kancko's observation model), adds one untried
//! shot, and finishes the game with the parity shooter against the drawn layout. The reward
//! is the share of the open cells the game did not need; UCB1 balances the shots' mean
//! rewards against how often they were tried. The shot tried most often at the root is fired.
//! At the root only cells where a ship may lie are tried, likeliest first (the exact heat
//! map); deeper, the open cells in random order.

use rand::Rng;

use super::exact::{Exact, position};
use super::hunt::{Hunt, HuntTarget};
use super::{Shooter, shuffle};
use crate::engine::Engine;
use crate::heat::HeatMap;
use crate::observe::{Shot, ShotResult};
use crate::play::game::{Game, Setup};
use crate::sample::{Sampler, SamplerKind};

/// UCT with a budget of playouts per shot.
pub(super) struct Mcts {
    pub(super) exact: Exact,
    pub(super) iterations: u64,
}

/// UCB1's exploration constant, for rewards between 0 and 1.
const EXPLORATION: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// A shot from a node, with the playouts through it.
struct Edge {
    cell: usize,
    visits: u64,
    reward: f64,
    /// The node after a miss, and after a hit.
    next: [Option<usize>; 2],
}

/// A position in the tree.
#[derive(Default)]
struct Node {
    visits: u64,
    edges: Vec<Edge>,
    /// Shots not tried yet from here, the next at the end; filled at the first visit.
    untried: Vec<usize>,
    ready: bool,
}

impl Shooter for Mcts {
    fn choose(&mut self, setup: &Setup, shots: &[Shot], rng: &mut dyn Rng) -> usize {
        let Some(problem) = position(setup, shots) else {
            return self.exact.greedy(setup, shots, rng);
        };
        let Ok(heat) = HeatMap::compute(&problem, Engine::Auto) else {
            return self.exact.greedy(setup, shots, rng);
        };
        let Ok(mut sampler) = Sampler::new(problem, SamplerKind::Uniform) else {
            return self.exact.greedy(setup, shots, rng);
        };
        // Root shots: cells a ship may be on, likeliest first; the last is tried first.
        let mut root: Vec<usize> = (0..heat.per_cell.len())
            .filter(|&c| heat.open[c] && heat.per_cell[c] > 0)
            .collect();
        shuffle(&mut root, rng);
        root.sort_by_key(|&c| heat.per_cell[c]);
        let mut nodes = vec![Node {
            untried: root,
            ready: true,
            ..Node::default()
        }];
        let open = setup.dims.cells() - setup.rocks.len() - shots.len();
        let mut path = Vec::new();
        for _ in 0..self.iterations {
            let Some(layout) = sampler.sample(rng) else {
                break;
            };
            let mut game = Game::new(setup.clone(), layout);
            for s in shots {
                game.fire(s.cell);
            }
            path.clear();
            let mut node = 0;
            while !game.is_over() {
                if !nodes[node].ready {
                    let mut cells: Vec<usize> = (0..setup.dims.cells())
                        .filter(|&c| !game.fired(c) && !setup.rocks.contains(&c))
                        .collect();
                    shuffle(&mut cells, rng);
                    nodes[node].untried = cells;
                    nodes[node].ready = true;
                }
                if let Some(cell) = nodes[node].untried.pop() {
                    nodes[node].edges.push(Edge {
                        cell,
                        visits: 0,
                        reward: 0.0,
                        next: [None, None],
                    });
                    path.push((node, nodes[node].edges.len() - 1));
                    game.fire(cell);
                    break;
                }
                if nodes[node].edges.is_empty() {
                    break;
                }
                let e = select(&nodes[node]);
                path.push((node, e));
                let hit = game.fire(nodes[node].edges[e].cell) != ShotResult::Miss;
                node = match nodes[node].edges[e].next[hit as usize] {
                    Some(n) => n,
                    None => {
                        nodes.push(Node::default());
                        let n = nodes.len() - 1;
                        nodes[node].edges[e].next[hit as usize] = Some(n);
                        n
                    }
                };
            }
            // Playout: parity to the end.
            let mut finish = HuntTarget::new(Hunt::Colour);
            while !game.is_over() {
                let c = finish.choose(setup, game.shots(), rng);
                game.fire(c);
            }
            let reward = 1.0 - (game.shots().len() - shots.len()) as f64 / open as f64;
            for &(n, e) in &path {
                nodes[n].visits += 1;
                let edge = &mut nodes[n].edges[e];
                edge.visits += 1;
                edge.reward += reward;
            }
        }
        nodes[0]
            .edges
            .iter()
            .max_by_key(|e| e.visits)
            .map(|e| e.cell)
            .unwrap_or_else(|| self.exact.greedy(setup, shots, rng))
    }
}

/// The edge of highest upper confidence bound (every edge has been tried).
fn select(node: &Node) -> usize {
    let ln = (node.visits.max(1) as f64).ln();
    let ucb = |e: &Edge| {
        if e.visits == 0 {
            return f64::INFINITY;
        }
        e.reward / e.visits as f64 + EXPLORATION * (ln / e.visits as f64).sqrt()
    };
    (0..node.edges.len())
        .max_by(|&a, &b| ucb(&node.edges[a]).total_cmp(&ucb(&node.edges[b])))
        .unwrap_or(0)
}
