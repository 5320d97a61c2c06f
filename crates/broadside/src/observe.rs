//! Observations of a game: the shots so far, in order, and what each revealed.
//!
//! A [`Shot`] is fired at a cell and reports a miss, a hit, a hit that sank a ship, or (sonar)
//! a miss together with the Manhattan distance from the cell to the nearest ship cell. How a
//! sinking is reported is the game's [`Sinking`] rule:
//! - [`Sinking::Revealed`]: the sunk ship's cells are shown;
//! - [`Sinking::Announced`]: only its type is announced, on the shot that sank it, so "sunk
//!   at x" means every other cell of that ship was hit *before* x: the shot order matters;
//! - [`Sinking::None`]: sinkings are not reported (then a ship may be fully hit unnoticed).
//!
//! Under the first two rules a ship not reported sunk has at least one cell not yet hit.
//!
//! All of it reduces to the model's own mechanisms, so every engine treats it alike: misses
//! and sonar's empty disc are water clues, hits are ship clues, the sinking rules are a test
//! on each placement ([`ShotFacts::allows`]), and sonar's "some ship cell at distance exactly
//! `d`" is a set of cells of which at least one holds a ship ([`ShotFacts::any_of`]).

use crate::choice::named_choices;
use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;

/// How sinkings are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sinking {
    /// Not reported.
    #[default]
    None,
    /// The type is announced on the shot that sank the ship.
    Announced,
    /// The sunk ship's cells are revealed.
    Revealed,
}

named_choices!(Sinking, "sinking", {
    Sinking::None => "none",
    Sinking::Announced => "announced",
    Sinking::Revealed => "revealed",
});

/// What a shot reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShotResult {
    /// No ship.
    Miss,
    /// A ship, not sunk by this shot.
    Hit,
    /// A hit that sank a ship of type `ty` (index in the fleet); `cells` are its cells when
    /// the rule reveals them, else empty.
    Sunk {
        /// The sunk ship's type.
        ty: usize,
        /// Its cells (revealed rule), increasing.
        cells: Vec<usize>,
    },
    /// A sonar ping that missed; the nearest ship cell is at this Manhattan distance.
    Sonar {
        /// The distance, at least 1.
        distance: usize,
    },
}

/// One shot, in game order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    /// The cell fired at.
    pub cell: usize,
    /// What it reported.
    pub result: ShotResult,
}

/// The shots of a game so far, and how sinkings are reported.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Observations {
    /// The sinking rule.
    pub sinking: Sinking,
    /// The shots, first to last.
    pub shots: Vec<Shot>,
}

/// A shot line that cannot be read: which word, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ShotSyntax {
    /// The index of the offending word in the line (0 is the cell).
    pub word: usize,
    /// What was wrong or expected.
    pub message: String,
}

/// Parses one shot line: `CELL miss`, `CELL hit`, `CELL sunk SHIP [CELL ...]`,
/// `CELL sonar DISTANCE`. `SHIP` is a type's name or, for a straight ship, its length.
pub fn parse_shot(dims: Dims, fleet: &Fleet, line: &str) -> Result<Shot, ShotSyntax> {
    shot_words(dims, fleet, line).map_err(|(word, message)| ShotSyntax { word, message })
}

fn shot_words(dims: Dims, fleet: &Fleet, line: &str) -> Result<Shot, (usize, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let cell = dims
        .parse_cell(words.first().copied().unwrap_or(""))
        .map_err(|e| (0, e.to_string()))?;
    let result = match words.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("miss") if words.len() == 2 => ShotResult::Miss,
        Some("hit") if words.len() == 2 => ShotResult::Hit,
        Some("sunk") => {
            let name = words
                .get(2)
                .ok_or((2, "expected the sunk ship's type".to_string()))?;
            let ty = fleet
                .types()
                .iter()
                .position(|t| {
                    t.name == *name
                        || t.shape
                            .straight_len()
                            .is_some_and(|l| l.to_string() == *name)
                })
                .ok_or((2, format!("the fleet has no ship type {name:?}")))?;
            let mut cells = Vec::new();
            for (i, w) in words.iter().enumerate().skip(3) {
                cells.push(dims.parse_cell(w).map_err(|e| (i, e.to_string()))?);
            }
            cells.sort_unstable();
            cells.dedup();
            ShotResult::Sunk { ty, cells }
        }
        Some("sonar") if words.len() == 3 => {
            let distance = words[2]
                .parse::<usize>()
                .ok()
                .filter(|&d| d >= 1)
                .ok_or((2, "expected a sonar distance of at least 1".to_string()))?;
            ShotResult::Sonar { distance }
        }
        _ => {
            return Err((
                1,
                "expected 'miss', 'hit', 'sunk SHIP [CELLS]' or 'sonar DISTANCE' after the cell"
                    .to_string(),
            ));
        }
    };
    Ok(Shot { cell, result })
}

/// A shot as [`parse_shot`] reads it.
pub fn print_shot(dims: Dims, fleet: &Fleet, shot: &Shot) -> String {
    let at = dims.cell_name(shot.cell);
    match &shot.result {
        ShotResult::Miss => format!("{at} miss"),
        ShotResult::Hit => format!("{at} hit"),
        ShotResult::Sonar { distance } => format!("{at} sonar {distance}"),
        ShotResult::Sunk { ty, cells } => {
            let t = &fleet.types()[*ty];
            let mut s = format!("{at} sunk {}", t.name);
            for &c in cells {
                s.push(' ');
                s.push_str(&dims.cell_name(c));
            }
            s
        }
    }
}

/// Why a list of shots is not a possible record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShotError {
    /// A cell fired at twice.
    #[error("cell {0} is fired at twice")]
    Twice(String),
    /// A shot on a cell whose clue says otherwise (a rock, or water for a hit).
    #[error("the shot at {0} contradicts the grid's clue there")]
    ClueConflict(String),
    /// More ships of a type reported sunk than the fleet has.
    #[error("{sunk} ships of type {name} reported sunk but the fleet has {count}")]
    TooManySunk {
        /// The type.
        name: String,
        /// Sunk reports.
        sunk: usize,
        /// Ships of the type.
        count: usize,
    },
    /// A sunk report whose cells do not match the sinking rule.
    #[error("the sunk report at {0} {1}")]
    SunkCells(String, &'static str),
    /// Shots that need a sinking rule that is not set.
    #[error("the shot at {0} reports a sinking, but the sinking rule is 'none'")]
    SinkingOff(String),
    /// A shot, or a cell a sinking reveals, past the board's last cell (a shot built in
    /// code: the formats name cells by the board's names).
    #[error("cell index {cell} is off the board, which has {cells} cells")]
    OffBoard {
        /// The index given.
        cell: usize,
        /// The board's cells.
        cells: usize,
    },
    /// A sinking of a ship type the fleet does not have (built in code, by type index).
    #[error("the shot at {0} reports the sinking of ship type {1}, which the fleet does not have")]
    NoSuchType(String, usize),
}

impl ShotError {
    /// The cell the error is about (the second shot at it, for [`ShotError::Twice`]), as
    /// shots name cells.
    pub fn cell(&self) -> Option<&str> {
        match self {
            ShotError::Twice(c)
            | ShotError::ClueConflict(c)
            | ShotError::SunkCells(c, _)
            | ShotError::SinkingOff(c)
            | ShotError::NoSuchType(c, _) => Some(c),
            ShotError::TooManySunk { .. } | ShotError::OffBoard { .. } => None,
        }
    }
}

/// What the shots imply, per cell, for the engines.
#[derive(Clone, Debug, Default)]
pub struct ShotFacts {
    sinking: Sinking,
    /// Shot order of each cell fired at, and whether it was a hit.
    order: Vec<Option<(usize, bool)>>,
    /// For each cell where a ship was reported sunk: the type and revealed cells.
    sunk_at: Vec<Option<(usize, Vec<usize>)>>,
    /// For each revealed cell: the cell of the shot that sank its ship.
    revealed_by: Vec<Option<usize>>,
    /// Sets of cells of which at least one holds a ship (sonar rings).
    pub any_of: Vec<Vec<usize>>,
    /// Clues implied by the shots (misses, hits, sonar discs).
    pub clues: Vec<(usize, Clue)>,
}

impl ShotFacts {
    /// Checks the shots and derives their facts.
    pub fn new(dims: Dims, fleet: &Fleet, obs: &Observations) -> Result<ShotFacts, Vec<ShotError>> {
        let n = dims.cells();
        let mut errs = Vec::new();
        let mut f = ShotFacts {
            sinking: obs.sinking,
            order: vec![None; n],
            sunk_at: vec![None; n],
            revealed_by: vec![None; n],
            any_of: Vec::new(),
            clues: Vec::new(),
        };
        let mut sunk_count = vec![0usize; fleet.types().len()];
        let off = |cell| ShotError::OffBoard { cell, cells: n };
        for (i, shot) in obs.shots.iter().enumerate() {
            let c = shot.cell;
            if c >= n {
                errs.push(off(c));
                continue;
            }
            let name = dims.cell_name(c);
            if f.order[c].is_some() {
                errs.push(ShotError::Twice(name.clone()));
                continue;
            }
            let hit = matches!(shot.result, ShotResult::Hit | ShotResult::Sunk { .. });
            f.order[c] = Some((i, hit));
            f.clues
                .push((c, if hit { Clue::Ship } else { Clue::Water }));
            match &shot.result {
                ShotResult::Sunk { ty, .. } if *ty >= sunk_count.len() => {
                    errs.push(ShotError::NoSuchType(name, *ty));
                }
                ShotResult::Sunk { cells, .. } if cells.iter().any(|&rc| rc >= n) => {
                    errs.extend(cells.iter().filter(|&&rc| rc >= n).map(|&rc| off(rc)));
                }
                ShotResult::Sunk { ty, cells } => {
                    sunk_count[*ty] += 1;
                    match obs.sinking {
                        Sinking::None => errs.push(ShotError::SinkingOff(name)),
                        Sinking::Announced if !cells.is_empty() => errs.push(ShotError::SunkCells(
                            name,
                            "lists cells, but sinkings are only announced",
                        )),
                        Sinking::Revealed if !cells.contains(&c) => {
                            errs.push(ShotError::SunkCells(
                                name,
                                "must list the sunk ship's cells, this one among them",
                            ))
                        }
                        Sinking::Revealed if cells.len() != fleet.types()[*ty].shape.size() => errs
                            .push(ShotError::SunkCells(
                                name,
                                "lists a number of cells other than the ship's size",
                            )),
                        _ => {
                            for &rc in cells {
                                f.revealed_by[rc] = Some(c);
                                if rc != c {
                                    f.clues.push((rc, Clue::Ship));
                                }
                            }
                            f.sunk_at[c] = Some((*ty, cells.clone()));
                        }
                    }
                }
                ShotResult::Sonar { distance } => {
                    let (r, col) = dims.row_col(c);
                    let mut ring = Vec::new();
                    for other in 0..n {
                        let (r2, c2) = dims.row_col(other);
                        let d = r.abs_diff(r2) + col.abs_diff(c2);
                        if d < *distance && other != c {
                            f.clues.push((other, Clue::Water));
                        } else if d == *distance {
                            ring.push(other);
                        }
                    }
                    f.any_of.push(ring);
                }
                _ => {}
            }
        }
        for (ty, t) in fleet.types().iter().enumerate() {
            if sunk_count[ty] > t.count {
                errs.push(ShotError::TooManySunk {
                    name: t.name.clone(),
                    sunk: sunk_count[ty],
                    count: t.count,
                });
            }
        }
        if errs.is_empty() { Ok(f) } else { Err(errs) }
    }

    /// Whether a placement of type `ty` covering `cells` agrees with the sinking reports:
    /// a ship covering a "sunk" shot is of the announced type, wholly hit, and (announced
    /// rule) that shot was its last; revealed cells belong to their ship only; and a ship
    /// covering no such shot is not wholly hit (it would have been reported).
    pub fn allows(&self, ty: usize, cells: &[usize]) -> bool {
        if self.sinking == Sinking::None || self.order.is_empty() {
            return true;
        }
        let mut sunk = cells.iter().filter(|&&c| self.sunk_at[c].is_some());
        let first = sunk.next();
        if sunk.next().is_some() {
            return false;
        }
        let all_hit = cells.iter().all(|&c| self.order[c].is_some_and(|o| o.1));
        if let Some(&x) = first {
            let (sty, revealed) = self.sunk_at[x].as_ref().expect("a sunk cell");
            if *sty != ty || !all_hit {
                return false;
            }
            return match self.sinking {
                Sinking::Revealed => revealed.as_slice() == cells,
                _ => cells
                    .iter()
                    .all(|&c| self.order[c].map(|o| o.0) <= self.order[x].map(|o| o.0)),
            };
        }
        !all_hit && cells.iter().all(|&c| self.revealed_by[c].is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Setup;
    use crate::problem::{Invalid, ProblemError};

    /// Shots built in code with an index past the board, a sinking of a type the fleet does
    /// not have, or revealed cells past the board are errors of the problem, named, not a
    /// panic; a shot on the board's last cell is fine.
    #[test]
    fn shots_off_the_board_or_the_fleet_are_errors() {
        let s = Setup {
            sinking: Sinking::Revealed,
            ..Setup::standard()
        };
        let shot = |cell, result| Shot { cell, result };
        let errors = |shots: &[Shot]| match s.after(shots).build() {
            Ok(_) => Vec::new(),
            Err(ProblemError(e)) => e
                .into_iter()
                .map(|i| match i {
                    Invalid::Shots(e) => e,
                    other => panic!("{other:?}"),
                })
                .collect(),
        };
        assert_eq!(errors(&[shot(99, ShotResult::Miss)]), vec![]);
        assert_eq!(
            errors(&[shot(100, ShotResult::Miss), shot(3, ShotResult::Hit)]),
            vec![ShotError::OffBoard {
                cell: 100,
                cells: 100
            }]
        );
        let sunk = |ty, cells| ShotResult::Sunk { ty, cells };
        assert_eq!(
            errors(&[shot(0, sunk(5, vec![0, 1]))]),
            vec![ShotError::NoSuchType("A1".into(), 5)]
        );
        assert_eq!(
            errors(&[shot(99, sunk(3, vec![99, 100]))]),
            vec![ShotError::OffBoard {
                cell: 100,
                cells: 100
            }]
        );
        let e = ShotError::NoSuchType("A1".into(), 5);
        assert_eq!(e.cell(), Some("A1"));
        assert!(e.to_string().contains("type 5"));
    }
}
