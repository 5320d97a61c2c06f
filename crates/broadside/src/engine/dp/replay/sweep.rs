//! The replay's sweeps along a wider position's trails: forward counts scattered along the
//! kept edges, completions gathered back, each worker's share of a layer.

use super::super::tight::{Counts, INDEX_BITS, SHIP, Trail};
use super::Kept;

/// Where a worker's forward counts at a layer come from: its trail (the wider position's)
/// or the share of a swept layer.
pub(super) enum Source<'a> {
    Trail(&'a Counts),
    Swept(&'a [u64]),
}

/// Each worker's forward counts at a layer: `swept` when the layer was swept again, else the
/// trails'.
pub(super) fn counts_of<'a>(workers: &'a [Trail], swept: Option<&'a [u64]>) -> Vec<Source<'a>> {
    let mut at = 0;
    workers
        .iter()
        .map(|tr| match swept {
            Some(s) => {
                let n = tr.degrees.len();
                at += n;
                Source::Swept(&s[at - n..at])
            }
            None => Source::Trail(&tr.counts),
        })
        .collect()
}

impl Source<'_> {
    /// Adds each state's forward count to its successors along the kept edges; given the
    /// successors' completions (`dot`), returns the layouts with a ship on the cell.
    pub(super) fn scatter(
        &self,
        tr: &Trail,
        kept: Kept,
        lists: &mut [&mut [u64]],
        dot: Option<&[u64]>,
    ) -> u128 {
        match dot {
            Some(after) => self.scatter_as::<true>(tr, kept, lists, after),
            None => self.scatter_as::<false>(tr, kept, lists, &[]),
        }
    }

    fn scatter_as<const DOT: bool>(
        &self,
        tr: &Trail,
        kept: Kept,
        lists: &mut [&mut [u64]],
        after: &[u64],
    ) -> u128 {
        match self {
            Source::Trail(Counts::Narrow(c)) => {
                scatter_by::<DOT>(tr, c.iter().map(|&n| u64::from(n)), kept, lists, after)
            }
            Source::Trail(Counts::Wide(c)) => {
                scatter_by::<DOT>(tr, c.iter().copied(), kept, lists, after)
            }
            Source::Trail(Counts::None) => unreachable!("a replay's trails keep their counts"),
            Source::Swept(c) => scatter_by::<DOT>(tr, c.iter().copied(), kept, lists, after),
        }
    }

    /// Each state's completions along the kept edges into `here`; returns the layouts with
    /// a ship on the cell.
    pub(super) fn gather(&self, tr: &Trail, kept: Kept, after: &[u64], here: &mut [u64]) -> u128 {
        match self {
            Source::Trail(Counts::Narrow(c)) => {
                gather_by(tr, c.iter().map(|&n| u64::from(n)), kept, after, here)
            }
            Source::Trail(Counts::Wide(c)) => gather_by(tr, c.iter().copied(), kept, after, here),
            Source::Trail(Counts::None) => unreachable!("a replay's trails keep their counts"),
            Source::Swept(c) => gather_by(tr, c.iter().copied(), kept, after, here),
        }
    }
}

#[inline]
/// Adds each state's forward count to its successors along the kept edges; with `DOT`,
/// returns the sum over ship moves of the forward count times the successor's completions
/// in `after`.
fn scatter_by<const DOT: bool>(
    tr: &Trail,
    counts: impl Iterator<Item = u64>,
    kept: Kept,
    lists: &mut [&mut [u64]],
    after: &[u64],
) -> u128 {
    let index = (1u32 << INDEX_BITS) - 1;
    let mut k = 0;
    let mut ships = 0u128;
    for (n, &d) in counts.zip(&tr.degrees) {
        let edges = &tr.edges[k..k + usize::from(d)];
        k += usize::from(d);
        if n == 0 {
            continue;
        }
        let mut ship = 0u64;
        for &e in edges {
            if kept.keeps(e) {
                let list = ((e & !SHIP) >> INDEX_BITS) as usize;
                // Narrowed counts are at most the wider position's, which fit.
                lists[list][(e & index) as usize] += n;
                if DOT && e & SHIP != 0 {
                    ship += after[tr.successor_of(e)];
                }
            }
        }
        if DOT {
            ships += u128::from(n) * u128::from(ship);
        }
    }
    ships
}

#[inline]
fn gather_by(
    tr: &Trail,
    counts: impl Iterator<Item = u64>,
    kept: Kept,
    after: &[u64],
    here: &mut [u64],
) -> u128 {
    let mut ships = 0u128;
    let mut k = 0;
    for ((n, &d), out) in counts.zip(&tr.degrees).zip(here) {
        let (mut all, mut ship) = (0u64, 0u64);
        for &e in &tr.edges[k..k + usize::from(d)] {
            if kept.keeps(e) {
                let c = after[tr.successor_of(e)];
                all += c;
                if e & SHIP != 0 {
                    ship += c;
                }
            }
        }
        k += usize::from(d);
        *out = all;
        ships += u128::from(n) * u128::from(ship);
    }
    ships
}

/// A layer's vector cut into each worker's lists, in the order the tight pass laid them out
/// (list by list, worker by worker): per worker, a slice per list.
pub(super) fn split_lists<'a>(workers: &[Trail], next: &'a mut [u64]) -> Vec<Vec<&'a mut [u64]>> {
    let lists = workers.first().map_or(0, |t| t.starts.len());
    let mut out: Vec<Vec<&mut [u64]>> = workers.iter().map(|_| Vec::with_capacity(lists)).collect();
    let total = next.len();
    let mut rest = next;
    for l in 0..lists {
        for p in 0..workers.len() {
            let start = workers[p].starts[l] as usize;
            let end = if p + 1 < workers.len() {
                workers[p + 1].starts[l] as usize
            } else if l + 1 < lists {
                workers[0].starts[l + 1] as usize
            } else {
                total
            };
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(end - start);
            out[p].push(mine);
            rest = tail;
        }
    }
    out
}
