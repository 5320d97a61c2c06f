//! Tier 1, basics: water around ship cells, the shapes segment clues imply, and rows and
//! columns that are full or need every open cell.

use super::Know;
use super::solver::{Contradiction, Found, Out, Solver};
use crate::shape::Segment;

impl Solver {
    /// Tier 1.
    pub(super) fn basics(&self, g: &mut [Know], out: &mut Out) -> Found {
        let d = self.d;
        for cell in 0..d.cells() {
            if g[cell] != Know::Ship {
                continue;
            }
            let (r, c) = d.row_col(cell);
            let diag: Vec<(usize, Know)> = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
                .iter()
                .filter_map(|&(dr, dc)| d.checked(r as isize + dr, c as isize + dc))
                .map(|n| (n, Know::Water))
                .collect();
            if self.decide(g, &diag, "water around a ship", out, || {
                format!(
                    "ships never touch, so the cells diagonal to {} are water",
                    self.name(cell)
                )
            })? {
                return Ok(());
            }
        }
        for cell in 0..d.cells() {
            let Some(seg) = self.seg[cell] else { continue };
            let (r, c) = d.row_col(cell);
            let (r, c) = (r as isize, c as isize);
            // (up, down, left, right): Some(true) ship, Some(false) water, None open.
            let sides: [Option<bool>; 4] = match seg {
                Segment::Single => [Some(false); 4],
                Segment::Left => [Some(false), Some(false), Some(false), Some(true)],
                Segment::Right => [Some(false), Some(false), Some(true), Some(false)],
                Segment::Top => [Some(false), Some(true), Some(false), Some(false)],
                Segment::Bottom => [Some(true), Some(false), Some(false), Some(false)],
                Segment::Middle => {
                    let across = [self.at(g, r, c - 1), self.at(g, r, c + 1)];
                    let down = [self.at(g, r - 1, c), self.at(g, r + 1, c)];
                    if across.contains(&Know::Ship) || down.contains(&Know::Water) {
                        [Some(false), Some(false), Some(true), Some(true)]
                    } else if down.contains(&Know::Ship) || across.contains(&Know::Water) {
                        [Some(true), Some(true), Some(false), Some(false)]
                    } else {
                        [None; 4]
                    }
                }
            };
            let mut set = Vec::new();
            for (side, (dr, dc)) in sides.iter().zip([(-1, 0), (1, 0), (0, -1), (0, 1)]) {
                match (side, d.checked(r + dr, c + dc)) {
                    (Some(true), None) => return Err(Contradiction),
                    (Some(ship), Some(n)) => {
                        set.push((n, if *ship { Know::Ship } else { Know::Water }))
                    }
                    _ => {}
                }
            }
            if self.decide(g, &set, "segment shape", out, || {
                format!(
                    "the '{}' at {} fixes its neighbours",
                    seg.symbol(),
                    self.name(cell)
                )
            })? {
                return Ok(());
            }
        }
        for line in &self.lines {
            let Some(k) = line.count else { continue };
            let ships = self.weigh(&line.cells, |c| g[c] == Know::Ship);
            // Open cells that count: in Digital Battleships a 0 adds nothing either way.
            let open: Vec<usize> = line
                .cells
                .iter()
                .copied()
                .filter(|&c| g[c] == Know::Unknown && self.weight[c] > 0)
                .collect();
            if open.is_empty() {
                continue;
            }
            let room = self.weigh(&open, |_| true);
            let (set, rule): (Vec<_>, _) = if ships == k {
                (
                    open.iter().map(|&c| (c, Know::Water)).collect(),
                    "full line",
                )
            } else if ships + room == k {
                (
                    open.iter().map(|&c| (c, Know::Ship)).collect(),
                    "line needs every open cell",
                )
            } else {
                continue;
            };
            if self.decide(g, &set, rule, out, || match (ships == k, self.digital) {
                (true, false) => format!("{} has all its {k} ship cells", line.name),
                (false, false) => format!(
                    "{} needs {k} ship cells and has only that many left",
                    line.name
                ),
                (true, true) => format!("{}'s ships already sum to {k}", line.name),
                (false, true) => {
                    format!("{} sums to {k} only with every open digit left", line.name)
                }
            })? {
                return Ok(());
            }
        }
        Ok(())
    }
}
