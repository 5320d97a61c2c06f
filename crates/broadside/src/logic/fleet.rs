//! Tier 2, fleet accounting: the ships found and those still to be found, and where the
//! remaining ships can still lie.

use super::Know;
use super::solver::{Contradiction, Found, Out, Piece, Place, Solver};

impl Solver {
    /// Tier 2.
    pub(super) fn fleet_rules(
        &self,
        g: &mut [Know],
        out: &mut Out,
        pieces: &[Piece],
        left: &[usize],
    ) -> Found {
        let snap = g.to_vec();
        let longest = (1..left.len()).rev().find(|&l| left[l] > 0).unwrap_or(0);
        let d = self.d;
        // A run as long as the longest ship left is that ship.
        for p in pieces {
            if p.complete || p.cells.len() != longest || longest < 2 {
                continue;
            }
            let (first, last) = (p.cells[0], p.cells[p.cells.len() - 1]);
            let horizontal = last - first < d.width;
            let (r0, c0) = d.row_col(first);
            let (r1, c1) = d.row_col(last);
            let ends: Vec<(usize, Know)> = if horizontal {
                [
                    d.checked(r0 as isize, c0 as isize - 1),
                    d.checked(r1 as isize, c1 as isize + 1),
                ]
            } else {
                [
                    d.checked(r0 as isize - 1, c0 as isize),
                    d.checked(r1 as isize + 1, c1 as isize),
                ]
            }
            .into_iter()
            .flatten()
            .map(|n| (n, Know::Water))
            .collect();
            if self.decide(g, &ends, "longest ship is whole", out, || {
                format!(
                    "the run {}-{} is as long as the longest ship left ({longest}), so its ends are water",
                    self.name(first),
                    self.name(last)
                )
            })? {
                return Ok(());
            }
        }
        let ships = self.ships_per_line(&snap);
        let fits: Vec<Vec<bool>> = (0..self.places.len())
            .map(|len| {
                self.places[len]
                    .iter()
                    .map(|p| left[len] > 0 && self.fits(&snap, &ships, p))
                    .collect()
            })
            .collect();
        // The ships that can hold a partly found ship.
        for p in pieces.iter().filter(|p| !p.complete) {
            let holding: Vec<&Place> = self.places_at[p.cells[0]]
                .iter()
                .filter(|&&(len, i)| fits[len][i])
                .map(|&(len, i)| &self.places[len][i])
                .filter(|pl| p.cells.iter().all(|c| pl.cells.contains(c)))
                .collect();
            if holding.is_empty() {
                return Err(Contradiction);
            }
            let mut set: Vec<(usize, Know)> = holding[0]
                .cells
                .iter()
                .copied()
                .filter(|c| holding.iter().all(|pl| pl.cells.contains(c)))
                .map(|c| (c, Know::Ship))
                .collect();
            for &c in &p.cells {
                for n in d.neighbours8(c) {
                    if snap[n] == Know::Unknown
                        && !set.iter().any(|s| s.0 == n)
                        && holding.iter().all(|pl| !pl.cells.contains(&n))
                    {
                        set.push((n, Know::Water));
                    }
                }
            }
            let lens: Vec<usize> = {
                let mut v: Vec<usize> = holding.iter().map(|pl| pl.cells.len()).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            if self.decide(g, &set, "ships that fit here", out, || {
                let lens: Vec<String> = lens.iter().map(|l| l.to_string()).collect();
                let places = match holding.len() {
                    1 => "in one place".to_string(),
                    n => format!("in one of {n} places"),
                };
                format!(
                    "{} can only belong to a ship of length {} still to be found, {places}; those settle these cells",
                    self.name(p.cells[0]),
                    lens.join(" or "),
                )
            })? {
                return Ok(());
            }
        }
        // A cell no remaining ship can cover is water.
        let mut covered = vec![false; d.cells()];
        for (len, fl) in fits.iter().enumerate() {
            for (i, &f) in fl.iter().enumerate() {
                if f {
                    for &c in &self.places[len][i].cells {
                        covered[c] = true;
                    }
                }
            }
        }
        for cell in 0..d.cells() {
            if snap[cell] == Know::Unknown
                && !covered[cell]
                && self.decide(g, &[(cell, Know::Water)], "no ship fits", out, || {
                    format!("no ship still to be found fits through {}", self.name(cell))
                })?
            {
                return Ok(());
            }
        }
        // A length with exactly as many places as ships.
        for len in (1..left.len()).rev() {
            if left[len] == 0 {
                continue;
            }
            let ps: Vec<&Place> = self.places[len]
                .iter()
                .zip(&fits[len])
                .filter(|x| *x.1)
                .map(|x| x.0)
                .collect();
            if ps.len() < left[len] {
                return Err(Contradiction);
            }
            let set: Vec<(usize, Know)> = if ps.len() == left[len] {
                ps.iter()
                    .flat_map(|pl| pl.cells.iter().map(|&c| (c, Know::Ship)))
                    .collect()
            } else if left[len] == 1 {
                ps[0]
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| ps.iter().all(|pl| pl.cells.contains(c)))
                    .map(|c| (c, Know::Ship))
                    .collect()
            } else {
                continue;
            };
            let (n, places) = (left[len], ps.len());
            if self.decide(g, &set, "ships must fit", out, || {
                if n == 1 {
                    format!("the ship of length {len} left has only one place")
                } else if n == places {
                    format!("the {n} ships of length {len} left have only {places} places")
                } else {
                    format!("every place left for the ship of length {len} covers these cells")
                }
            })? {
                return Ok(());
            }
        }
        Ok(())
    }
}
