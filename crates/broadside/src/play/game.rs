//! One game: a hidden layout, the shots fired at it, and what each reported under the game's
//! sinking rule.

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::observe::{Observations, Shot, ShotResult, Sinking};
use crate::problem::ProblemSpec;
use crate::rules::Rules;

/// The rules of a game: board, fleet, whether ships may touch, how sinkings are reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board.
    pub dims: Dims,
    /// The fleet.
    pub fleet: Fleet,
    /// Whether ships may touch.
    pub rules: Rules,
    /// How sinkings are reported.
    pub sinking: Sinking,
    /// Rocks: cells no ship covers, known to both sides (Naslausky & Figueiredo's maps), increasing.
    pub rocks: Vec<usize>,
}

impl Setup {
    /// The standard game: 10x10, {5,4,3,3,2}, ships may touch, the type of a sunk ship
    /// announced.
    pub fn standard() -> Setup {
        Setup {
            dims: Dims::new(10, 10),
            fleet: Fleet::straight(&[5, 4, 3, 3, 2]),
            rules: Rules::Touch,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        }
    }

    /// The game a problem is played under: its board, rocks (its `#` clues), fleet, rules
    /// and sinking rule; its shots and other clues are not part of it.
    pub fn of(spec: &ProblemSpec) -> Setup {
        Setup {
            dims: spec.dims,
            rocks: (0..spec.dims.cells())
                .filter(|&c| spec.clue(c) == Some(Clue::Blocked))
                .collect(),
            fleet: spec.fleet.clone(),
            rules: spec.rules,
            sinking: spec.observations.sinking,
        }
    }

    /// The position after `shots` under this game's rules, as a game record.
    pub fn after(&self, shots: &[Shot]) -> ProblemSpec {
        let mut spec = self.empty();
        spec.observations = Observations {
            sinking: self.sinking,
            shots: shots.to_vec(),
        };
        spec
    }

    /// The empty board of this game as a problem (no shots yet).
    pub fn empty(&self) -> ProblemSpec {
        let mut spec = ProblemSpec::empty(self.dims, self.fleet.clone(), self.rules);
        spec.observations.sinking = self.sinking;
        if !self.rocks.is_empty() {
            spec.clues = vec![None; self.dims.cells()];
            for &c in &self.rocks {
                spec.clues[c] = Some(Clue::Blocked);
            }
        }
        spec
    }
}

/// A game in progress: the hidden layout and the shots so far.
#[derive(Debug)]
pub struct Game {
    setup: Setup,
    layout: Layout,
    /// Per cell: the index of the ship covering it.
    owner: Vec<Option<usize>>,
    /// Per ship: its cells not yet hit.
    afloat: Vec<usize>,
    shots: Vec<Shot>,
    fired: Vec<bool>,
    hits: usize,
    ship_cells: usize,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        let mut game = Game {
            setup: self.setup.clone(),
            layout: Layout::default(),
            owner: Vec::new(),
            afloat: Vec::new(),
            shots: Vec::new(),
            fired: Vec::new(),
            hits: 0,
            ship_cells: 0,
        };
        game.clone_from(self);
        game
    }

    /// Copies `source` into this game's buffers (a rollout plays many games from one), the
    /// setup only where it differs.
    fn clone_from(&mut self, source: &Game) {
        let Game {
            setup,
            layout,
            owner,
            afloat,
            shots,
            fired,
            hits,
            ship_cells,
        } = source;
        if self.setup != *setup {
            self.setup = setup.clone();
        }
        self.layout.clone_from(layout);
        self.owner.clone_from(owner);
        self.afloat.clone_from(afloat);
        self.shots.clone_from(shots);
        self.fired.clone_from(fired);
        self.hits = *hits;
        self.ship_cells = *ship_cells;
    }
}

impl Game {
    /// A game against `layout`, a layout of `setup`'s fleet on its board.
    pub fn new(setup: Setup, layout: Layout) -> Game {
        let d = setup.dims;
        let mut owner = vec![None; d.cells()];
        for (i, s) in layout.ships.iter().enumerate() {
            for &c in &s.cells {
                owner[c] = Some(i);
            }
        }
        let afloat = layout.ships.iter().map(|s| s.cells.len()).collect();
        let ship_cells = layout.ships.iter().map(|s| s.cells.len()).sum();
        Game {
            owner,
            afloat,
            shots: Vec::new(),
            fired: vec![false; d.cells()],
            hits: 0,
            ship_cells,
            setup,
            layout,
        }
    }

    /// Fires at `cell` and says what the shot reported. A cell fired at before reports what
    /// it did then, and is not recorded again.
    pub fn fire(&mut self, cell: usize) -> ShotResult {
        if self.fired[cell] {
            return self
                .shots
                .iter()
                .find(|s| s.cell == cell)
                .map(|s| s.result.clone())
                .unwrap_or(ShotResult::Miss);
        }
        self.fired[cell] = true;
        let result = match self.owner[cell] {
            None => ShotResult::Miss,
            Some(i) => {
                self.hits += 1;
                self.afloat[i] -= 1;
                let ship = &self.layout.ships[i];
                match (self.afloat[i], self.setup.sinking) {
                    (0, Sinking::Announced) => ShotResult::Sunk {
                        ty: ship.ty,
                        cells: Vec::new(),
                    },
                    (0, Sinking::Revealed) => ShotResult::Sunk {
                        ty: ship.ty,
                        cells: ship.cells.clone(),
                    },
                    _ => ShotResult::Hit,
                }
            }
        };
        self.shots.push(Shot {
            cell,
            result: result.clone(),
        });
        result
    }

    /// Fires Naslausky & Figueiredo's sonar at `cell`: a hit reports as [`Game::fire`] does; a miss reports
    /// the Manhattan distance from the cell to the nearest ship cell.
    pub fn sonar(&mut self, cell: usize) -> ShotResult {
        if self.fired[cell] || self.owner[cell].is_some() {
            return self.fire(cell);
        }
        let d = self.setup.dims;
        let (r, c) = d.row_col(cell);
        let distance = self
            .layout
            .cells()
            .map(|x| {
                let (rx, cx) = d.row_col(x);
                r.abs_diff(rx) + c.abs_diff(cx)
            })
            .min()
            .unwrap_or(0);
        self.fired[cell] = true;
        let result = ShotResult::Sonar { distance };
        self.shots.push(Shot {
            cell,
            result: result.clone(),
        });
        result
    }

    /// Whether every ship cell has been hit.
    pub fn is_over(&self) -> bool {
        self.hits == self.ship_cells
    }

    /// The shots so far, in order.
    pub fn shots(&self) -> &[Shot] {
        &self.shots
    }

    /// Whether `cell` has been fired at.
    pub fn fired(&self, cell: usize) -> bool {
        self.fired[cell]
    }

    /// Hits so far.
    pub fn hits(&self) -> usize {
        self.hits
    }

    /// The game's rules.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The hidden layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What the shooter knows, as a problem every engine reads: the empty board with the shots
    /// as a game record. Write it with [`crate::format::text::print`] to replay the position
    /// with `broadside probs`.
    pub fn record(&self) -> ProblemSpec {
        self.setup.after(&self.shots)
    }

    /// [`Game::record`] with the hidden layout as its recorded solution: the whole game.
    pub fn record_with_layout(&self) -> ProblemSpec {
        let mut spec = self.record();
        spec.solution = Some(self.layout.clone());
        spec
    }
}

/// Whether `record` (a game as `simulate --out` writes it) is a whole game played on its
/// hidden layout: the layout is one of the game's fleet under its rules, every shot reports
/// what the layout gives it (a sinking as the game's rule reports it), and the last shot, and
/// no earlier one, sinks the last ship. The reason, naming the first shot at fault, when not.
/// What reads games back (summaries, gains, a resumed run) keeps only games that replay.
pub fn replays(record: &ProblemSpec) -> Result<(), String> {
    let layout = record
        .solution
        .as_ref()
        .ok_or("it has no hidden layout (solution): not a game that simulate --out wrote")?;
    let shots = &record.observations.shots;
    if shots.is_empty() {
        return Err("it has no shots: not a game that simulate --out wrote".into());
    }
    let setup = Setup::of(record);
    crate::check::layout(&setup.empty(), layout).map_err(|e| {
        format!(
            "its hidden layout is not one of the game's: {}",
            e.join("; ")
        )
    })?;
    let d = setup.dims;
    let mut game = Game::new(setup, layout.clone());
    let sorted = |r: &ShotResult| match r {
        ShotResult::Sunk { ty, cells } => {
            let mut cells = cells.clone();
            cells.sort_unstable();
            ShotResult::Sunk { ty: *ty, cells }
        }
        other => other.clone(),
    };
    for (i, shot) in shots.iter().enumerate() {
        if game.is_over() {
            return Err(format!(
                "shot {} ({}) comes after the last ship sank",
                i + 1,
                d.cell_name(shot.cell)
            ));
        }
        let got = match shot.result {
            ShotResult::Sonar { .. } => game.sonar(shot.cell),
            _ => game.fire(shot.cell),
        };
        if sorted(&got) != sorted(&shot.result) {
            let fleet = &game.setup.fleet;
            return Err(format!(
                "shot {} says {:?}, but on its hidden layout it is {:?}",
                i + 1,
                crate::observe::print_shot(d, fleet, shot),
                crate::observe::print_shot(
                    d,
                    fleet,
                    &Shot {
                        cell: shot.cell,
                        result: got
                    }
                ),
            ));
        }
    }
    if !game.is_over() {
        return Err(format!(
            "its {} shots leave ships afloat: the game is not over",
            shots.len()
        ));
    }
    Ok(())
}
