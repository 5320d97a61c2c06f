//! Tier 3, line overlap: every way to fill a row or column from the remaining fleet agrees on
//! a cell.

use super::Know;
use super::solver::{Contradiction, Found, Line, Out, Solver};

impl Solver {
    /// Tier 3: line overlap, with the pieces the remaining fleet can supply.
    pub(super) fn overlap(&self, g: &mut [Know], out: &mut Out, left: &[usize]) -> Found {
        let longer_left = left.iter().skip(2).any(|&n| n > 0);
        // The fillings count ship cells; a Digital Battleships line sums digits.
        if self.digital {
            return Ok(());
        }
        for line in &self.lines {
            let Some(k) = line.count else { continue };
            if !line.cells.iter().any(|&c| g[c] == Know::Unknown) {
                continue;
            }
            let can = self.line_options(g, line, k, left, longer_left)?;
            let set: Vec<(usize, Know)> = line
                .cells
                .iter()
                .zip(&can)
                .filter(|(c, _)| g[**c] == Know::Unknown)
                .filter_map(|(&c, &(water, ship))| match (water, ship) {
                    (true, false) => Some((c, Know::Water)),
                    (false, true) => Some((c, Know::Ship)),
                    _ => None,
                })
                .collect();
            if self.decide(g, &set, "line overlap", out, || {
                format!(
                    "every way to fill {} with its {k} ship cells, from the ships left, agrees here",
                    line.name
                )
            })? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// For each cell of a line, whether some filling has (water, ship) there.
    fn line_options(
        &self,
        g: &[Know],
        line: &Line,
        k: usize,
        left: &[usize],
        longer_left: bool,
    ) -> Result<Vec<(bool, bool)>, Contradiction> {
        let d = self.d;
        let n = line.cells.len();
        // Per cell: may it be part of a run along the line (no ship across it), and may it be
        // a run of one (a one-cell ship, a ship crossing the line, or already a ship).
        let across = |c: usize| -> [Know; 2] {
            let (r, col) = d.row_col(c);
            let (r, col) = (r as isize, col as isize);
            if line.horizontal {
                [self.at(g, r - 1, col), self.at(g, r + 1, col)]
            } else {
                [self.at(g, r, col - 1), self.at(g, r, col + 1)]
            }
        };
        let multi: Vec<bool> = line
            .cells
            .iter()
            .map(|&c| !across(c).contains(&Know::Ship))
            .collect();
        let single: Vec<bool> = line
            .cells
            .iter()
            .map(|&c| {
                g[c] == Know::Ship
                    || left.get(1).is_some_and(|&x| x > 0)
                    || (longer_left && across(c).iter().any(|&x| x != Know::Water))
            })
            .collect();
        // State: ships so far, current run, whether the run is all known ship cells, whether
        // all its cells may lie in a run along the line; packed densely.
        let runs = self.max_len + 1;
        let width = (k + 1) * runs * 4;
        let pack = |ships: usize, run: usize, known: bool, along: bool| {
            ((ships * runs + run) * 2 + usize::from(known)) * 2 + usize::from(along)
        };
        let unpack = |s: usize| (s / 4 / runs, s / 4 % runs, s / 2 % 2 == 1, s % 2 == 1);
        let run_ok = |end: usize, s: usize| -> bool {
            let (_, run, known, along) = unpack(s);
            match run {
                0 => true,
                1 => single[end - 1],
                _ => along && (known || left.get(run).is_some_and(|&x| x > 0)),
            }
        };
        let step = |i: usize, s: usize, ship: bool| -> Option<usize> {
            let (ships, run, known, along) = unpack(s);
            if ship {
                if ships + 1 > k || run + 1 > self.max_len {
                    return None;
                }
                Some(pack(
                    ships + 1,
                    run + 1,
                    known && g[line.cells[i]] == Know::Ship,
                    along && multi[i],
                ))
            } else {
                run_ok(i, s).then(|| pack(ships, 0, true, true))
            }
        };
        let choices = |i: usize| -> &'static [bool] {
            match g[line.cells[i]] {
                Know::Unknown => &[false, true],
                Know::Water => &[false],
                Know::Ship => &[true],
            }
        };
        // Forward: the states reachable before each cell.
        let mut fwd = vec![false; (n + 1) * width];
        fwd[pack(0, 0, true, true)] = true;
        for i in 0..n {
            for s in 0..width {
                if !fwd[i * width + s] {
                    continue;
                }
                for &ship in choices(i) {
                    if let Some(t) = step(i, s, ship) {
                        fwd[(i + 1) * width + t] = true;
                    }
                }
            }
        }
        // Backward: of those, the states from which the line can be finished.
        let mut alive = vec![false; width];
        let mut any = false;
        for (s, a) in alive.iter_mut().enumerate() {
            *a = fwd[n * width + s] && unpack(s).0 == k && run_ok(n, s);
            any |= *a;
        }
        if !any {
            return Err(Contradiction);
        }
        let mut can = vec![(false, false); n];
        let mut before = vec![false; width];
        for i in (0..n).rev() {
            before.fill(false);
            for s in 0..width {
                if !fwd[i * width + s] {
                    continue;
                }
                for &ship in choices(i) {
                    if let Some(t) = step(i, s, ship)
                        && alive[t]
                    {
                        before[s] = true;
                        if ship {
                            can[i].1 = true;
                        } else {
                            can[i].0 = true;
                        }
                    }
                }
            }
            std::mem::swap(&mut alive, &mut before);
        }
        Ok(can)
    }
}
