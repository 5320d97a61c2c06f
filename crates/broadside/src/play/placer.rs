//! Placers: who hides the fleet.
//!
//! - [`PlacerKind::Uniform`]: exactly uniform over every legal layout (the exact sampler of
//!   [`crate::sample`]); the default.
//! - [`PlacerKind::Sequential`]: ship by ship, each uniform among the positions that still fit,
//!   as the papers place (Sakuta & Iida's R); not uniform over layouts (`broadside validate --sampler
//!   sequential` measures by how much).
//! - [`PlacerKind::Edge`]: Sakuta & Iida's ED1 (every ship on the outermost line of the board) and ED2
//!   (every ship within the outermost two lines), ship by ship as the sequential placer.
//! - [`PlacerKind::Packed`]: Sakuta & Iida's PK: every ship but one of the smallest packed in a
//!   rectangle (2x10 by default, at a random spot, either way round), the last anywhere
//!   outside it.
//! - Each of these four has Sakuta & Iida's *separated* variant (`-sp`: RSP, ED1SP, ED2SP, PKSP), where
//!   ships do not touch even when the rules let them; in PKSP only the last ship keeps clear of
//!   the rectangle, as the seed defines it.
//! - [`PlacerKind::Adversarial`]: against a named shooter: draws a few uniform layouts, plays
//!   the shooter against each (with its own throw of the dice) and hides the fleet as in the
//!   one that took it longest.
//! - [`PlacerKind::File`]: the layouts of a file, in order, again from the first when they run
//!   out.

use std::path::PathBuf;
use std::sync::Arc;

use rand::Rng;
use rand::RngExt;

use super::book::Book;
use super::game::{Game, Setup};
use super::shooter::{ShooterKind, play};
use super::vocabulary::{PLACERS, Value};
use crate::choice::UnknownChoice;
use crate::error::Error;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;
use crate::sample::{Sampler, SamplerKind};

/// The placers broadside has; see the module documentation. As words (`FromStr` and
/// `Display`): `uniform`, `sequential`, `ed1`, `ed2`, `pk` (or `pk:AxB`), each of the last
/// four with `-sp` for its separated variant (`rsp`, `ed1sp`, ... also read), `adversarial:SHOOTER`
/// and `file:PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacerKind {
    /// Exactly uniform over legal layouts.
    Uniform,
    /// Ship by ship, uniform among the positions that still fit; ships kept apart when
    /// `separated`.
    Sequential {
        /// Ships never touch.
        separated: bool,
    },
    /// Ship by ship within the outermost `lines` lines of the board (1: ED1, 2: ED2).
    Edge {
        /// 1 or 2.
        lines: usize,
        /// Ships never touch.
        separated: bool,
    },
    /// Every ship but one of the smallest within a `short` x `long` rectangle, the last
    /// outside it.
    Packed {
        /// The rectangle's short side.
        short: usize,
        /// Its long side.
        long: usize,
        /// The last ship keeps clear of the rectangle.
        separated: bool,
    },
    /// The layout, of a few uniform ones, that took `shooter` the most shots.
    Adversarial {
        /// The shooter played against.
        shooter: ShooterKind,
    },
    /// The layouts of a layout file.
    File(PathBuf),
}

/// The number of uniform layouts the adversarial placer tries per game.
pub const ADVERSARIAL_CANDIDATES: u64 = 16;

/// How many times a sequential-style placer starts over before giving up.
const RESTARTS: usize = 10_000;

impl std::str::FromStr for PlacerKind {
    type Err = UnknownChoice;

    /// A word of [`PLACERS`], or one of Sakuta & Iida's names the table's older forms read:
    /// `r` for `sequential`, `-sp` (or `sp`) after a name for `separated=yes` (`ed1-sp`,
    /// `rsp`), `pk:AxB` for `pk:short=A,long=B`.
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        let w = PLACERS.parse(&older_form(s.trim())).map_err(|mut e| {
            e.found = s.to_string();
            e
        })?;
        let yes = |name: &str| w.whole(name) == Some(1);
        Ok(match w.entry.name {
            "uniform" => PlacerKind::Uniform,
            "sequential" => PlacerKind::Sequential {
                separated: yes("separated"),
            },
            "ed1" | "ed2" => PlacerKind::Edge {
                lines: if w.entry.name == "ed1" { 1 } else { 2 },
                separated: yes("separated"),
            },
            "pk" => {
                let (a, b) = (w.whole("short"), w.whole("long"));
                let (a, b) = (a.unwrap_or(2) as usize, b.unwrap_or(10) as usize);
                PlacerKind::Packed {
                    short: a.min(b),
                    long: a.max(b),
                    separated: yes("separated"),
                }
            }
            "adversarial" => PlacerKind::Adversarial {
                shooter: w.text("shooter").parse()?,
            },
            "file" => PlacerKind::File(PathBuf::from(w.text("path"))),
            other => unreachable!("the placer {other} of the table has no kind"),
        })
    }
}

/// `word` with Sakuta & Iida's names written as the table's words: `r` → `sequential`, a
/// name ending `-sp` or `sp` → `separated=yes`, `pk:AxB` → `pk:short=A,long=B`.
fn older_form(word: &str) -> String {
    if word.starts_with("adversarial:") || word.starts_with("file:") {
        return word.to_string();
    }
    let (name, separated) = match word.strip_suffix("-sp").or_else(|| word.strip_suffix("sp")) {
        Some(name) if !name.contains('=') => (name, true),
        _ => (word, false),
    };
    let name = if name == "r" { "sequential" } else { name };
    let mut out = match name
        .strip_prefix("pk:")
        .and_then(|p| p.split_once(['x', 'X']))
    {
        Some((a, b)) if !b.contains('=') => format!("pk:short={a},long={b}"),
        _ => name.to_string(),
    };
    if separated {
        out.push(if out.contains(':') { ',' } else { ':' });
        out += "separated=yes";
    }
    out
}

impl std::fmt::Display for PlacerKind {
    /// The word of [`PLACERS`] that reads back as this placer.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = Value::Whole;
        let flag = |x: bool| n(x.into());
        let (name, values) = match self {
            PlacerKind::Uniform => ("uniform", vec![]),
            PlacerKind::Sequential { separated } => ("sequential", vec![flag(*separated)]),
            PlacerKind::Edge { lines, separated } => (
                if *lines == 1 { "ed1" } else { "ed2" },
                vec![flag(*separated)],
            ),
            PlacerKind::Packed {
                short,
                long,
                separated,
            } => (
                "pk",
                vec![n(*short as u64), n(*long as u64), flag(*separated)],
            ),
            PlacerKind::Adversarial { shooter } => {
                ("adversarial", vec![Value::Text(shooter.to_string())])
            }
            PlacerKind::File(path) => ("file", vec![Value::Text(path.display().to_string())]),
        };
        PLACERS.write(f, name, &values)
    }
}

impl serde::Serialize for PlacerKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Hidden layouts for the games of one setup.
pub struct Placer {
    kind: PlacerKind,
    setup: Setup,
    empty: Arc<Problem>,
    /// The exact sampler (uniform and adversarial placers).
    sampler: Option<Sampler>,
    /// The book of the adversarial placer's trial games.
    book: Option<Arc<Book>>,
    /// The layouts of a file, and the next to hand out.
    layouts: Vec<Layout>,
    next: usize,
}

impl Placer {
    /// A placer of `kind` for `setup`, drawing on `empty`, the setup's empty board (see
    /// [`empty_board`]); an error when the fleet does not fit, or a layout file cannot be
    /// read or holds a layout the rules forbid.
    pub fn new(kind: &PlacerKind, setup: &Setup, empty: Arc<Problem>) -> Result<Placer, Error> {
        Placer::within(kind, setup, empty, None, None)
    }

    /// [`Placer::new`], prepared within `time_limit` and until `cancel` is raised (the exact
    /// count behind the uniform placer is what can take long: a sampler error past either).
    /// The time limit also bounds the drawing; the cancel flag only the preparing.
    pub fn within(
        kind: &PlacerKind,
        setup: &Setup,
        empty: Arc<Problem>,
        time_limit: Option<std::time::Duration>,
        cancel: Option<crate::Cancel>,
    ) -> Result<Placer, Error> {
        let sampler = match kind {
            PlacerKind::Uniform | PlacerKind::Adversarial { .. } => {
                Some(Sampler::within_or_cancelled(
                    empty.clone(),
                    SamplerKind::Uniform,
                    time_limit,
                    cancel,
                )?)
            }
            _ => None,
        };
        let layouts = match kind {
            PlacerKind::File(path) => read_layouts(path, setup)?,
            _ => Vec::new(),
        };
        Ok(Placer {
            kind: kind.clone(),
            setup: setup.clone(),
            empty,
            sampler,
            book: matches!(kind, PlacerKind::Adversarial { .. }).then(|| Book::for_run(setup)),
            layouts,
            next: 0,
        })
    }

    /// Whether this placer is of `kind` for `setup`.
    pub fn is_for(&self, kind: &PlacerKind, setup: &Setup) -> bool {
        &self.kind == kind && &self.setup == setup
    }

    /// A placer as [`Placer::new`] would make it now, sharing this one's tables (the exact
    /// sampler's): the same layouts from the same dice, without counting again.
    pub fn fresh(&self) -> Placer {
        Placer {
            kind: self.kind.clone(),
            setup: self.setup.clone(),
            empty: self.empty.clone(),
            sampler: self.sampler.as_ref().map(Sampler::fork),
            book: matches!(self.kind, PlacerKind::Adversarial { .. })
                .then(|| Book::for_run(&self.setup)),
            layouts: self.layouts.clone(),
            next: 0,
        }
    }

    /// One hidden layout; `None` when the placer gave up (the fleet is too tight for it).
    pub fn place(&mut self, rng: &mut dyn Rng) -> Option<Layout> {
        match &self.kind {
            PlacerKind::Uniform => self.sampler.as_mut()?.sample(rng),
            PlacerKind::Adversarial { shooter } => {
                let shooter = *shooter;
                let sampler = self.sampler.as_mut()?;
                let mut worst: Option<(usize, Layout)> = None;
                for _ in 0..ADVERSARIAL_CANDIDATES {
                    let layout = sampler.sample(rng)?;
                    let mut game = Game::new(self.setup.clone(), layout.clone());
                    let shots = play(&mut game, shooter, self.book.as_ref(), rng);
                    if worst.as_ref().is_none_or(|(most, _)| shots > *most) {
                        worst = Some((shots, layout));
                    }
                }
                worst.map(|(_, layout)| layout)
            }
            PlacerKind::File(_) => {
                let layout = self.layouts.get(self.next % self.layouts.len())?.clone();
                self.next += 1;
                Some(layout)
            }
            PlacerKind::Sequential { separated } => {
                let region = Region::everywhere(self.setup.dims.cells());
                self.regional(&region, *separated, rng)
            }
            PlacerKind::Edge { lines, separated } => {
                let d = self.setup.dims;
                let region = Region {
                    inside: (0..d.cells())
                        .map(|c| {
                            let (r, col) = d.row_col(c);
                            r.min(d.height - 1 - r).min(col).min(d.width - 1 - col) < *lines
                        })
                        .collect(),
                    last: None,
                    clear_of_inside: false,
                };
                self.regional(&region, *separated, rng)
            }
            PlacerKind::Packed {
                short,
                long,
                separated,
            } => {
                let d = self.setup.dims;
                // Either way round, shrunk to the board where it is larger.
                let (h, w) = if rng.random_bool(0.5) {
                    (*short, *long)
                } else {
                    (*long, *short)
                };
                let (h, w) = (h.min(d.height), w.min(d.width));
                let (top, left) = (
                    rng.random_range(0..=d.height - h),
                    rng.random_range(0..=d.width - w),
                );
                let smallest = smallest_ship(&self.setup);
                let region = Region {
                    inside: (0..d.cells())
                        .map(|c| {
                            let (r, col) = d.row_col(c);
                            (top..top + h).contains(&r) && (left..left + w).contains(&col)
                        })
                        .collect(),
                    last: Some(smallest),
                    clear_of_inside: *separated,
                };
                self.regional(&region, false, rng)
            }
        }
    }

    /// Ships in fleet order (the `last` one, when given, at the end), each uniform among the
    /// positions in its region that still fit; starts over when one does not fit.
    fn regional(&self, region: &Region, separated: bool, rng: &mut dyn Rng) -> Option<Layout> {
        let p = &self.empty;
        let apart = separated || p.rules() == Rules::NoTouch;
        let mut order: Vec<(usize, bool)> = Vec::new();
        for (ty, t) in p.fleet().types().iter().enumerate() {
            for k in 0..t.count {
                let is_last = region.last == Some(ty) && k + 1 == t.count;
                if !is_last {
                    order.push((ty, true));
                }
            }
        }
        if let Some(ty) = region.last {
            order.push((ty, false));
        }
        let cells = p.dims().cells();
        'attempt: for _ in 0..RESTARTS {
            let mut blocked = vec![false; cells];
            let mut ships = Vec::with_capacity(order.len());
            for &(ty, inside) in &order {
                let fits: Vec<usize> = p
                    .placements(ty)
                    .iter()
                    .enumerate()
                    .filter(|(_, pl)| {
                        pl.cells
                            .iter()
                            .all(|&c| !blocked[c] && region.inside[c] == inside)
                            && (inside
                                || !region.clear_of_inside
                                || pl.halo.iter().all(|&c| !region.inside[c]))
                    })
                    .map(|(i, _)| i)
                    .collect();
                if fits.is_empty() {
                    continue 'attempt;
                }
                let pl = &p.placements(ty)[fits[rng.random_range(0..fits.len())]];
                for &c in &pl.cells {
                    blocked[c] = true;
                }
                if apart {
                    for &c in &pl.halo {
                        blocked[c] = true;
                    }
                }
                ships.push(Ship {
                    ty,
                    cells: pl.cells.clone(),
                });
            }
            return Some(Layout { ships });
        }
        None
    }
}

/// Where a regional placer puts the ships: `inside` the region, except the `last` ship (a type),
/// which goes outside it, kept clear of it when `clear_of_inside`.
struct Region {
    inside: Vec<bool>,
    last: Option<usize>,
    clear_of_inside: bool,
}

impl Region {
    fn everywhere(cells: usize) -> Region {
        Region {
            inside: vec![true; cells],
            last: None,
            clear_of_inside: false,
        }
    }
}

/// The type of one of the smallest ships (the last listed of those).
fn smallest_ship(setup: &Setup) -> usize {
    let types = setup.fleet.types();
    (0..types.len())
        .rev()
        .min_by_key(|&ty| types[ty].shape.cells().len())
        .unwrap_or(0)
}

/// The layouts of a layout file (JSON lines `{"layout": [...]}` or pictures separated by blank
/// lines), each checked against the rules.
fn read_layouts(path: &std::path::Path, setup: &Setup) -> Result<Vec<Layout>, Error> {
    let name = path.display().to_string();
    let text = crate::format::input::read_file(path)?;
    let layouts = crate::format::samples::read(&name, &text, setup.dims, &setup.fleet)?;
    if layouts.is_empty() {
        return Err(Error::Request(format!("{name}: no layout in the file")));
    }
    let empty = setup.empty();
    for (i, layout) in layouts.iter().enumerate() {
        crate::check::layout(&empty, layout).map_err(|why| {
            Error::Request(format!(
                "{name}: layout {} breaks the rules: {}",
                i + 1,
                why.join("; ")
            ))
        })?;
    }
    Ok(layouts)
}

/// The empty board of `setup`, built: what a placer draws on (shared by the placers of a
/// run).
pub fn empty_board(setup: &Setup) -> Result<Arc<Problem>, Error> {
    Ok(Arc::new(setup.empty().build()?))
}
