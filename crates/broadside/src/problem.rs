//! Problems: the raw description a file gives ([`ProblemSpec`]) and the validated form the
//! engines run on ([`Problem`]).
//!
//! [`ProblemSpec`] has public fields and may say anything; [`ProblemSpec::build`] checks it
//! and reports every structural reason it is invalid at once ([`ProblemError`]). A built
//! [`Problem`] also holds, for each ship type, every placement that the clues and counts allow
//! on their own ([`Placement`]); both engines start from that list. [`Problem::conflicts`]
//! names the obvious reasons a well-formed problem has no solution (row totals that differ
//! from column totals, a clue no ship can cover, ...), so that a user learns *why*.

use crate::clue::Clue;
use crate::conflict::Conflict;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::observe::{Observations, ShotError, ShotFacts, ShotResult};
use crate::placement::{Placement, segment_at};
use crate::progress::Know;
use crate::rules::Rules;

/// Where a problem came from: free text kept through conversions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    /// A short identifier, e.g. `rubin-113`.
    pub name: Option<String>,
    /// Attribution, e.g. the collection a puzzle was taken from.
    pub source: Option<String>,
}

/// A problem as written: a board, a fleet, rules, counts and clues. See [`ProblemSpec::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemSpec {
    /// Board size.
    pub dims: Dims,
    /// The ships.
    pub fleet: Fleet,
    /// Whether ships may touch.
    pub rules: Rules,
    /// Ship cells per row, top to bottom (`None`: not given). Empty means none given.
    pub rows: Vec<Option<usize>>,
    /// Ship cells per column, left to right (`None`: not given). Empty means none given.
    pub cols: Vec<Option<usize>>,
    /// One entry per cell, row-major. Empty means no clues.
    pub clues: Vec<Option<Clue>>,
    /// A solution recorded with the problem, checked by the tools that read it.
    pub solution: Option<Layout>,
    /// The shots of a game so far (empty for a puzzle).
    pub observations: Observations,
    /// A person's marks on a puzzle, one entry per cell, row-major ([`crate::progress`]).
    /// Empty means none. The engines ignore them; `check` and `hint` read them.
    pub progress: Vec<Know>,
    /// A digit (0 to 9) on every cell, row-major, for Digital Battleships: a row's or
    /// column's number is then the sum of the digits under its ship cells, not their count.
    /// Empty means an ordinary puzzle (every cell weighs one).
    pub digits: Vec<u8>,
    /// Name and source.
    pub meta: Meta,
}

/// A structural defect of a [`ProblemSpec`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Invalid {
    /// Zero rows or columns, or too many cells.
    #[error("board size {0} is not supported (1 to 4096 cells, each side at least 1)")]
    Size(Dims),
    /// The fleet has no ship.
    #[error("the fleet has no ship")]
    EmptyFleet,
    /// Row counts given, but not one per row.
    #[error("{given} row counts for {height} rows")]
    RowCountLength {
        /// Counts given.
        given: usize,
        /// Rows on the board.
        height: usize,
    },
    /// Column counts given, but not one per column.
    #[error("{given} column counts for {width} columns")]
    ColCountLength {
        /// Counts given.
        given: usize,
        /// Columns on the board.
        width: usize,
    },
    /// Clues given, but not one per cell.
    #[error("{given} clue cells for a board of {cells}")]
    ClueLength {
        /// Entries given.
        given: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// A row count larger than the row.
    #[error("row {} count {count} exceeds the width {width}", row + 1)]
    RowCountTooLarge {
        /// Row index (0-based).
        row: usize,
        /// The count.
        count: usize,
        /// Board width.
        width: usize,
    },
    /// A column count larger than the column.
    #[error(
        "column {} count {count} exceeds the height {height}",
        crate::geom::column_name(*col)
    )]
    ColCountTooLarge {
        /// Column index (0-based).
        col: usize,
        /// The count.
        count: usize,
        /// Board height.
        height: usize,
    },
    /// The recorded solution refers to cells off the board or to unknown ship types.
    #[error("the recorded solution does not fit the board and fleet: {0}")]
    Solution(crate::layout::LayoutError),
    /// The shots are not a possible record.
    #[error("{0}")]
    Shots(#[from] crate::observe::ShotError),
    /// A progress given, but not one mark per cell.
    #[error("{given} progress cells for a board of {cells}")]
    ProgressLength {
        /// Marks given.
        given: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// A progress given with the shots of a game: marks are a puzzle solver's, and a game's
    /// cells are decided by firing at them.
    #[error("a progress is a puzzle solver's marks; this problem is a game state, with shots")]
    ProgressOnGame,
    /// Digits given, but not one per cell.
    #[error("{given} digits for a board of {cells}")]
    DigitsLength {
        /// Digits given.
        given: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// A digit past 9.
    #[error("the digit {digit} at {cell} is not 0 to 9")]
    Digit {
        /// The cell's name (`A1`).
        cell: String,
        /// The digit.
        digit: u8,
    },
    /// Digits given with the shots of a game: Digital Battleships is a puzzle.
    #[error("digits are a Digital Battleships puzzle's; this problem is a game state, with shots")]
    DigitsOnGame,
    /// A line's number larger than the sum of its digits (Digital Battleships).
    #[error("{what} {name} sums to {sum}, more than its digits' total {most}")]
    SumTooLarge {
        /// `row` or `column`.
        what: &'static str,
        /// The line's name (`3`, `C`).
        name: String,
        /// The sum given.
        sum: usize,
        /// The digits' total.
        most: usize,
    },
}

/// Every structural defect of a [`ProblemSpec`], in the order found.
/// Its message names the first [`ProblemError::SHOWN`] defects and counts the rest, so a
/// file with thousands of bad lines gives a readable message; the list holds them all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid problem: {}", shown(.0))]
pub struct ProblemError(pub Vec<Invalid>);

impl ProblemError {
    /// How many defects the message names.
    pub const SHOWN: usize = 10;
}

fn shown(all: &[Invalid]) -> String {
    let mut s: Vec<String> = all
        .iter()
        .take(ProblemError::SHOWN)
        .map(|e| e.to_string())
        .collect();
    if all.len() > ProblemError::SHOWN {
        s.push(format!("and {} more", all.len() - ProblemError::SHOWN));
    }
    s.join("; ")
}

/// A validated problem with its allowed placements; see the module documentation.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The spec, with the clues the shots imply merged into its clues.
    spec: ProblemSpec,
    /// The spec as given, before the shots' clues were merged.
    given: ProblemSpec,
    placements: Vec<Vec<Placement>>,
    facts: ShotFacts,
    /// Contradictions between shots found while merging (reported by `conflicts`).
    shot_conflicts: Vec<Conflict>,
}

impl ProblemSpec {
    /// An empty board: no counts, no clues.
    pub fn empty(dims: Dims, fleet: Fleet, rules: Rules) -> ProblemSpec {
        ProblemSpec {
            dims,
            fleet,
            rules,
            rows: Vec::new(),
            cols: Vec::new(),
            clues: Vec::new(),
            solution: None,
            observations: Observations::default(),
            progress: Vec::new(),
            digits: Vec::new(),
            meta: Meta::default(),
        }
    }

    /// The clue at a cell.
    pub fn clue(&self, cell: usize) -> Option<Clue> {
        self.clues.get(cell).copied().flatten()
    }

    /// A person's mark at a cell ([`Know::Unknown`] where there is none).
    pub fn mark(&self, cell: usize) -> Know {
        self.progress.get(cell).copied().unwrap_or(Know::Unknown)
    }

    /// Whether this is a Digital Battleships puzzle: digits on the cells, and the row and
    /// column numbers their sums under the ships.
    pub fn is_digital(&self) -> bool {
        !self.digits.is_empty()
    }

    /// What `cell` adds to its row's and column's numbers when it holds a ship: its digit in
    /// Digital Battleships, else 1.
    pub fn weight(&self, cell: usize) -> usize {
        self.digits.get(cell).map_or(1, |&d| usize::from(d))
    }

    /// The row count of `row`, if given.
    pub fn row_count(&self, row: usize) -> Option<usize> {
        self.rows.get(row).copied().flatten()
    }

    /// The column count of `col`, if given.
    pub fn col_count(&self, col: usize) -> Option<usize> {
        self.cols.get(col).copied().flatten()
    }

    /// Every structural defect of the spec, in the order found: what [`ProblemSpec::build`]
    /// refuses. Readers call it to say on which line of a file each defect is.
    pub fn defects(&self) -> Vec<Invalid> {
        match self.check() {
            Err(defects) => defects,
            Ok(facts) => merge_shot_clues(&mut self.clone(), &facts)
                .err()
                .map_or(Vec::new(), |e| e.0),
        }
    }

    /// Checks the spec and computes the allowed placements; reports every defect found.
    pub fn build(self) -> Result<Problem, ProblemError> {
        let facts = self.check().map_err(ProblemError)?;
        let given = self.clone();
        let mut spec = self;
        let shot_conflicts = merge_shot_clues(&mut spec, &facts)?;
        let placements = allowed_placements(&spec, &facts);
        Ok(Problem {
            spec,
            given,
            placements,
            facts,
            shot_conflicts,
        })
    }

    /// The checks of a Digital Battleships puzzle's digits: one a cell, each 0 to 9, no line's
    /// number past its digits' total, and no shots.
    fn check_digits(&self, errs: &mut Vec<Invalid>) {
        let d = self.dims;
        if self.digits.len() != d.cells() {
            errs.push(Invalid::DigitsLength {
                given: self.digits.len(),
                cells: d.cells(),
            });
            return;
        }
        for (c, &digit) in self.digits.iter().enumerate() {
            if digit > 9 {
                errs.push(Invalid::Digit {
                    cell: d.cell_name(c),
                    digit,
                });
            }
        }
        if !self.observations.shots.is_empty() {
            errs.push(Invalid::DigitsOnGame);
        }
        let total = |cells: &mut dyn Iterator<Item = usize>| cells.map(|c| self.weight(c)).sum();
        for (row, c) in self.rows.iter().enumerate().take(d.height) {
            let most = total(&mut (0..d.width).map(|col| d.index(row, col)));
            if let Some(sum) = *c
                && sum > most
            {
                errs.push(Invalid::SumTooLarge {
                    what: "row",
                    name: (row + 1).to_string(),
                    sum,
                    most,
                });
            }
        }
        for (col, c) in self.cols.iter().enumerate().take(d.width) {
            let most = total(&mut (0..d.height).map(|row| d.index(row, col)));
            if let Some(sum) = *c
                && sum > most
            {
                errs.push(Invalid::SumTooLarge {
                    what: "column",
                    name: crate::geom::column_name(col),
                    sum,
                    most,
                });
            }
        }
    }

    /// The structural checks of [`ProblemSpec::build`], with the facts the shots imply.
    fn check(&self) -> Result<ShotFacts, Vec<Invalid>> {
        let mut errs = Vec::new();
        let d = self.dims;
        if d.width == 0 || d.height == 0 || d.cells() > crate::bitboard::MAX_CELLS {
            return Err(vec![Invalid::Size(d)]);
        }
        if self.fleet.ship_count() == 0 {
            errs.push(Invalid::EmptyFleet);
        }
        if !self.rows.is_empty() && self.rows.len() != d.height {
            errs.push(Invalid::RowCountLength {
                given: self.rows.len(),
                height: d.height,
            });
        }
        if !self.cols.is_empty() && self.cols.len() != d.width {
            errs.push(Invalid::ColCountLength {
                given: self.cols.len(),
                width: d.width,
            });
        }
        if !self.clues.is_empty() && self.clues.len() != d.cells() {
            errs.push(Invalid::ClueLength {
                given: self.clues.len(),
                cells: d.cells(),
            });
        }
        if !self.digits.is_empty() {
            self.check_digits(&mut errs);
        }
        for (row, c) in self.rows.iter().enumerate() {
            if let Some(count) = *c
                && count > d.width
                && self.digits.is_empty()
            {
                errs.push(Invalid::RowCountTooLarge {
                    row,
                    count,
                    width: d.width,
                });
            }
        }
        for (col, c) in self.cols.iter().enumerate() {
            if let Some(count) = *c
                && count > d.height
                && self.digits.is_empty()
            {
                errs.push(Invalid::ColCountTooLarge {
                    col,
                    count,
                    height: d.height,
                });
            }
        }
        if !self.progress.is_empty() && self.progress.len() != d.cells() {
            errs.push(Invalid::ProgressLength {
                given: self.progress.len(),
                cells: d.cells(),
            });
        }
        if !self.progress.is_empty() && !self.observations.shots.is_empty() {
            errs.push(Invalid::ProgressOnGame);
        }
        if let Some(sol) = &self.solution
            && let Err(e) = sol.fits(d, &self.fleet)
        {
            errs.push(Invalid::Solution(e));
        }
        let facts = match ShotFacts::new(d, &self.fleet, &self.observations) {
            Ok(f) => f,
            Err(e) => {
                errs.extend(e.into_iter().map(Invalid::Shots));
                ShotFacts::default()
            }
        };
        if errs.is_empty() {
            Ok(facts)
        } else {
            Err(errs)
        }
    }
}

/// Merges the clues the shots imply into the spec's clues. A shot that contradicts the grid
/// at its own cell is bad input; a sonar disc over a hit is a contradiction of the game
/// record, returned as a conflict (no layout fits it).
fn merge_shot_clues(
    spec: &mut ProblemSpec,
    facts: &ShotFacts,
) -> Result<Vec<Conflict>, ProblemError> {
    let d = spec.dims;
    let mut conflicts = Vec::new();
    if facts.clues.is_empty() {
        return Ok(conflicts);
    }
    if spec.clues.is_empty() {
        spec.clues = vec![None; d.cells()];
    }
    let grid = spec.clues.clone();
    let shots = &spec.observations.shots;
    let dist = |a: usize, b: usize| {
        let (p, q) = (d.row_col(a), d.row_col(b));
        p.0.abs_diff(q.0) + p.1.abs_diff(q.1)
    };
    for &(cell, clue) in &facts.clues {
        match (spec.clues[cell], clue) {
            (None, _) => spec.clues[cell] = Some(clue),
            (Some(Clue::Water | Clue::Blocked), Clue::Water) => {}
            (Some(old), Clue::Ship) if old.is_ship() => {}
            _ => {
                // A shot that contradicts the grid at its own cell is bad input; anything else
                // is a record that no layout fits, which is an answer, with the reason.
                let shot_here = shots.iter().any(|s| s.cell == cell);
                if shot_here && grid[cell].is_some() {
                    return Err(ProblemError(vec![Invalid::Shots(ShotError::ClueConflict(
                        d.cell_name(cell),
                    ))]));
                }
                let sonar = shots.iter().find(|s| {
                    matches!(s.result, ShotResult::Sonar { distance } if dist(s.cell, cell) < distance)
                });
                conflicts.push(match sonar {
                    Some(s) => Conflict::SonarHit {
                        sonar: d.cell_name(s.cell),
                        cell: d.cell_name(cell),
                    },
                    None => Conflict::ShotsDisagree(d.cell_name(cell)),
                });
            }
        }
    }
    Ok(conflicts)
}

fn allowed_placements(spec: &ProblemSpec, facts: &ShotFacts) -> Vec<Vec<Placement>> {
    spec.fleet
        .types()
        .iter()
        .enumerate()
        .map(|(ty, t)| {
            Placement::all_shared(spec.dims, &t.shape)
                .iter()
                .filter(|p| placement_allowed(spec, p) && facts.allows(ty, &p.cells))
                .map(|p| Placement { ty, ..p.clone() })
                .collect()
        })
        .collect()
}

/// Whether a placement, on its own, agrees with the clues and the counts.
fn placement_allowed(spec: &ProblemSpec, p: &Placement) -> bool {
    let d = spec.dims;
    for &cell in &p.cells {
        match spec.clue(cell) {
            Some(Clue::Water | Clue::Blocked) => return false,
            Some(Clue::Segment(s)) if segment_at(d, &p.cells, cell) != Some(s) => return false,
            _ => {}
        }
    }
    if spec.rules == Rules::NoTouch
        && p.halo
            .iter()
            .any(|&c| spec.clue(c).is_some_and(Clue::is_ship))
    {
        return false;
    }
    // Each row and column the placement crosses, counted at its first cell there.
    let fits = |line: &dyn Fn(usize) -> usize, count: &dyn Fn(usize) -> Option<usize>| {
        p.cells.iter().enumerate().all(|(i, &cell)| {
            let l = line(cell);
            if p.cells[..i].iter().any(|&c| line(c) == l) {
                return true;
            }
            count(l).is_none_or(|k| {
                let weight = p.cells[i..].iter().filter(|&&c| line(c) == l);
                weight.map(|&c| spec.weight(c)).sum::<usize>() <= k
            })
        })
    };
    (spec.rows.is_empty() || fits(&|c| d.row_col(c).0, &|r| spec.row_count(r)))
        && (spec.cols.is_empty() || fits(&|c| d.row_col(c).1, &|c| spec.col_count(c)))
}

impl Problem {
    /// The spec the engines see: the one given, with the clues its shots imply (misses and
    /// sonar discs as water, hits as ships) merged into its clues.
    pub fn spec(&self) -> &ProblemSpec {
        &self.spec
    }

    /// The spec exactly as given.
    pub fn given(&self) -> &ProblemSpec {
        &self.given
    }

    /// Board size.
    pub fn dims(&self) -> Dims {
        self.spec.dims
    }

    /// The fleet.
    pub fn fleet(&self) -> &Fleet {
        &self.spec.fleet
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.spec.rules
    }

    /// The allowed placements of ship type `ty`, in a fixed order.
    pub fn placements(&self, ty: usize) -> &[Placement] {
        &self.placements[ty]
    }

    /// Sets of cells of which at least one must hold a ship (from sonar readings).
    pub fn any_of(&self) -> &[Vec<usize>] {
        &self.facts.any_of
    }

    /// Cells a ship must cover (ship and segment clues).
    pub fn required_cells(&self) -> Vec<usize> {
        (0..self.dims().cells())
            .filter(|&c| self.spec.clue(c).is_some_and(Clue::is_ship))
            .collect()
    }

    /// Contradictions between the shots found while merging their clues (see
    /// [`Problem::conflicts`]).
    pub(crate) fn shot_conflicts(&self) -> &[Conflict] {
        &self.shot_conflicts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placements a problem keeps under row and column counts, against the rule written
    /// out plainly: a placement is refused when it puts more cells in a line than the line's
    /// count (and kept, with its type, when it puts no more).
    #[test]
    fn a_placement_over_a_line_s_count_is_refused() {
        let d = Dims::new(6, 5);
        let fleet = Fleet::straight(&[4, 3, 2]);
        let mut spec = ProblemSpec::empty(d, fleet.clone(), Rules::Touch);
        spec.rows = vec![Some(2), None, Some(1), Some(0), None];
        spec.cols = vec![None, Some(3), Some(1), None, None, Some(2)];
        let problem = spec.clone().build().expect("a well-formed spec");
        for (ty, t) in fleet.types().iter().enumerate() {
            let within = |cells: &[usize]| {
                let most = |line: &dyn Fn(usize) -> usize, k: usize, count: Option<usize>| {
                    count.is_none_or(|n| cells.iter().filter(|&&c| line(c) == k).count() <= n)
                };
                (0..d.height).all(|r| most(&|c| d.row_col(c).0, r, spec.row_count(r)))
                    && (0..d.width).all(|col| most(&|c| d.row_col(c).1, col, spec.col_count(col)))
            };
            let want: Vec<Vec<usize>> = Placement::all(d, ty, &t.shape)
                .map(|p| p.cells)
                .filter(|cells| within(cells))
                .collect();
            let kept: Vec<Vec<usize>> = problem
                .placements(ty)
                .iter()
                .map(|p| {
                    assert_eq!(p.ty, ty);
                    p.cells.clone()
                })
                .collect();
            assert_eq!(kept, want, "type {ty}");
            // The counts refuse some placements of every type, and leave some.
            let all = Placement::all(d, ty, &t.shape).count();
            assert!(
                !kept.is_empty() && kept.len() < all,
                "type {ty}: {} of {all}",
                kept.len()
            );
        }
    }
}
