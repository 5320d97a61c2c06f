//! The SAT engine: a CNF encoding of a problem, solved and counted with varisat.
//!
//! Variables: one per allowed placement, "a ship of this type sits here", and one per cell,
//! "a ship covers this cell". Clauses:
//! - a cell is a ship cell exactly when a chosen placement covers it, and at most one chosen
//!   placement covers it (pairwise, no auxiliary variables);
//! - under the no-touch rule, a chosen placement makes every cell of its halo water;
//! - exactly `n` placements of a type the fleet has `n` of, and exactly `k` ship cells in a
//!   row or column whose count is `k`: a unary sequential counter whose auxiliary variables
//!   are each *defined* by an equivalence (`s(i,j) <-> s(i-1,j) or (s(i-1,j-1) and x(i))`),
//!   so they are functions of the inputs and the CNF has exactly one model per layout;
//! - clue cells: water is false, ships are true (segment kinds restrict the placements);
//! - a sonar reading's ring: at least one of its cells is a ship cell.
//!
//! Identical ships need no symmetry breaking: a layout is a set of placement variables.
//! Counting enumerates models and blocks each with one clause over the placement variables
//! that are true in it; since every layout has the same number of ships, that clause rules
//! out exactly that layout. [`SatEngine::write_dimacs`] exports the CNF with the placement
//! variables as the projection set for external model counters.
//!
//! **Stopping.** varisat has no interrupt, but it stops its search at the first failed write
//! of a proof it is asked to write. A stoppable run asks for a proof (varisat's own format,
//! which allows the clauses a count adds) into a sink (`Interrupt`) that discards it and
//! fails once the time limit has passed or the [`Cancel`] flag is raised. The proof is
//! written a few kilobytes at a time, so the search stops within milliseconds; writing it
//! costs 5-10%. Building the encoding and loading it into the solver take long on large
//! boards (64x64 with hundreds of ships: seconds and gigabytes), so both look at the clock and
//! the flag every 65,536 clauses: the encoding is built when a question first needs it, within
//! that question's limit.

use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

use crate::clue::Clue;
use crate::layout::{Layout, Ship};
use crate::problem::Problem;
use crate::rules::Rules;

use super::{Cancel, CountError, CountOptions, CountResult, Stop};

/// The SAT engine for one problem.
pub struct SatEngine<'p> {
    problem: &'p Problem,
    /// The encoding, built when first needed.
    enc: OnceLock<Encoding>,
}

/// Clauses between two looks at the clock while an encoding is built or loaded.
const CHECK_EVERY: usize = 1 << 16;

/// A formula that stops taking clauses once `halt` says to stop (looked at every
/// [`CHECK_EVERY`] clauses): an encoding too large for the time it has is given up.
struct Halting<'a, F> {
    inner: &'a mut F,
    halt: &'a Interrupt,
    added: usize,
    stopped: Option<Stop>,
}

impl<F: ExtendFormula> ExtendFormula for Halting<'_, F> {
    fn add_clause(&mut self, literals: &[Lit]) {
        if self.stopped.is_some() {
            return;
        }
        self.inner.add_clause(literals);
        self.added += 1;
        if self.added.is_multiple_of(CHECK_EVERY) {
            self.stopped = self.halt.stopped();
        }
    }

    fn new_var(&mut self) -> varisat::Var {
        self.inner.new_var()
    }
}

/// A problem's CNF and the map from variables back to placements.
pub struct Encoding {
    /// The clauses.
    pub formula: CnfFormula,
    /// For each ship type, the literal of each allowed placement.
    pub placement_vars: Vec<Vec<Lit>>,
    /// The literal of each cell.
    pub cell_vars: Vec<Lit>,
}

impl Encoding {
    /// Encodes `problem` into a fresh formula.
    pub fn new(problem: &Problem) -> Encoding {
        let mut formula = CnfFormula::new();
        let (placement_vars, cell_vars) = encode(problem, &mut formula);
        Encoding {
            formula,
            placement_vars,
            cell_vars,
        }
    }

    /// [`Encoding::new`], given up once `halt` says to stop.
    fn until(problem: &Problem, halt: &Interrupt) -> Result<Encoding, Stop> {
        let mut formula = CnfFormula::new();
        let mut halting = Halting {
            inner: &mut formula,
            halt,
            added: 0,
            stopped: halt.stopped(),
        };
        let (placement_vars, cell_vars) = encode(problem, &mut halting);
        if let Some(why) = halting.stopped {
            return Err(why);
        }
        Ok(Encoding {
            formula,
            placement_vars,
            cell_vars,
        })
    }
}

/// Writes the clauses of `problem` into `f`; returns the placement and cell literals.
pub fn encode(problem: &Problem, f: &mut impl ExtendFormula) -> (Vec<Vec<Lit>>, Vec<Lit>) {
    let d = problem.dims();
    let ntypes = problem.fleet().types().len();
    let pvars: Vec<Vec<Lit>> = (0..ntypes)
        .map(|ty| {
            (0..problem.placements(ty).len())
                .map(|_| f.new_lit())
                .collect()
        })
        .collect();
    let cells: Vec<Lit> = (0..d.cells()).map(|_| f.new_lit()).collect();
    let mut cover: Vec<Vec<Lit>> = vec![Vec::new(); d.cells()];
    for (ty, vars) in pvars.iter().enumerate() {
        for (p, &x) in problem.placements(ty).iter().zip(vars) {
            for &c in &p.cells {
                cover[c].push(x);
                f.add_clause(&[!x, cells[c]]);
            }
            if problem.rules() == Rules::NoTouch {
                for &h in &p.halo {
                    f.add_clause(&[!x, !cells[h]]);
                }
            }
        }
    }
    for (c, xs) in cover.iter().enumerate() {
        let mut clause = vec![!cells[c]];
        clause.extend(xs);
        f.add_clause(&clause);
        for i in 0..xs.len() {
            for j in i + 1..xs.len() {
                f.add_clause(&[!xs[i], !xs[j]]);
            }
        }
    }
    for (ty, t) in problem.fleet().types().iter().enumerate() {
        exactly(f, &pvars[ty], t.count);
    }
    let spec = problem.spec();
    // A line's number counts its ship cells, or in Digital Battleships sums their digits: a
    // cell's literal then enters the counter once per unit of its digit (a pseudo-Boolean
    // sum in unary; the counter's auxiliaries stay defined, so models are not multiplied).
    let weighted = |line: &mut dyn Iterator<Item = usize>| -> Vec<Lit> {
        line.flat_map(|c| std::iter::repeat_n(cells[c], spec.weight(c)))
            .collect()
    };
    for r in 0..d.height {
        if let Some(k) = spec.row_count(r) {
            let line = weighted(&mut (0..d.width).map(|c| d.index(r, c)));
            exactly(f, &line, k);
        }
    }
    for c in 0..d.width {
        if let Some(k) = spec.col_count(c) {
            let line = weighted(&mut (0..d.height).map(|r| d.index(r, c)));
            exactly(f, &line, k);
        }
    }
    for ring in problem.any_of() {
        let clause: Vec<Lit> = ring.iter().map(|&c| cells[c]).collect();
        f.add_clause(&clause);
    }
    for (c, &y) in cells.iter().enumerate() {
        match spec.clue(c) {
            Some(Clue::Water | Clue::Blocked) => f.add_clause(&[!y]),
            Some(Clue::Ship | Clue::Segment(_)) => f.add_clause(&[y]),
            None => {}
        }
    }
    (pvars, cells)
}

/// Exactly `k` of `xs` are true, by a unary sequential counter with defined auxiliaries.
fn exactly(f: &mut impl ExtendFormula, xs: &[Lit], k: usize) {
    if k > xs.len() {
        f.add_clause(&[]);
        return;
    }
    // prev[j] is "at least j+1 of the inputs so far are true", for j up to k (k+1 counts).
    let mut prev: Vec<Lit> = Vec::new();
    for &x in xs {
        let width = (prev.len() + 1).min(k + 1);
        let mut cur = Vec::with_capacity(width);
        for j in 0..width {
            let s = f.new_lit();
            let a = prev.get(j).copied();
            let b = if j == 0 { None } else { Some(prev[j - 1]) };
            // s <-> a or (b and x), where a missing `a` is false and a missing `b` is true.
            match a {
                Some(a) => {
                    f.add_clause(&[!a, s]);
                    match b {
                        Some(b) => {
                            f.add_clause(&[!s, a, b]);
                            f.add_clause(&[!s, a, x]);
                            f.add_clause(&[!b, !x, s]);
                        }
                        None => {
                            f.add_clause(&[!s, a, x]);
                            f.add_clause(&[!x, s]);
                        }
                    }
                }
                None => match b {
                    Some(b) => {
                        f.add_clause(&[!s, b]);
                        f.add_clause(&[!s, x]);
                        f.add_clause(&[!b, !x, s]);
                    }
                    None => {
                        f.add_clause(&[!s, x]);
                        f.add_clause(&[!x, s]);
                    }
                },
            }
            cur.push(s);
        }
        prev = cur;
    }
    if k > 0 {
        f.add_clause(&[prev[k - 1]]);
    }
    if let Some(&over) = prev.get(k) {
        f.add_clause(&[!over]);
    }
}

impl<'p> SatEngine<'p> {
    /// The engine for `problem`; its encoding is built when a question first needs it.
    pub fn new(problem: &'p Problem) -> Self {
        SatEngine {
            problem,
            enc: OnceLock::new(),
        }
    }

    /// The encoding (built now if no question has built it).
    pub fn encoding(&self) -> &Encoding {
        self.enc.get_or_init(|| Encoding::new(self.problem))
    }

    /// The encoding, built within `halt` if it was not.
    fn encoding_until(&self, halt: &Interrupt) -> Result<&Encoding, Stop> {
        if let Some(e) = self.enc.get() {
            return Ok(e);
        }
        let e = Encoding::until(self.problem, halt)?;
        Ok(self.enc.get_or_init(|| e))
    }

    /// A solver loaded with the formula, stopped by `halt` when it has a limit (while the
    /// formula is built and loaded too).
    fn solver(&self, halt: &Interrupt) -> Result<Solver<'static>, Stop> {
        let enc = self.encoding_until(halt)?;
        let mut s = Solver::new();
        let limited = halt.deadline.is_some() || halt.cancel.is_some();
        if limited {
            s.write_proof(halt.clone(), ProofFormat::Varisat);
        }
        for (i, clause) in enc.formula.iter().enumerate() {
            s.add_clause(clause);
            if limited
                && i.is_multiple_of(CHECK_EVERY)
                && let Some(why) = halt.stopped()
            {
                return Err(why);
            }
        }
        Ok(s)
    }

    fn decode(&self, model: &[Lit]) -> (Layout, Vec<Lit>) {
        let truth = |l: Lit| model.get(l.index()).is_some_and(|m| m.is_positive());
        let mut ships = Vec::new();
        let mut block = Vec::new();
        for (ty, vars) in self.encoding().placement_vars.iter().enumerate() {
            for (i, &x) in vars.iter().enumerate() {
                if truth(x) {
                    ships.push(Ship {
                        ty,
                        cells: self.problem.placements(ty)[i].cells.clone(),
                    });
                    block.push(!x);
                }
            }
        }
        (Layout { ships }, block)
    }

    /// One solution, if there is any.
    pub fn solve(&self) -> Option<Layout> {
        self.solve_until(None, None).unwrap_or(None)
    }

    /// One solution, if there is any, unless the search stops first: at `deadline`
    /// ([`Stop::Time`]) or once `cancel` is raised ([`Stop::Cancelled`]).
    pub fn solve_until(
        &self,
        deadline: Option<Instant>,
        cancel: Option<Cancel>,
    ) -> Result<Option<Layout>, Stop> {
        let halt = Interrupt { deadline, cancel };
        let mut s = self.solver(&halt)?;
        match s.solve() {
            Ok(true) => Ok(s.model().map(|m| self.decode(&m).0)),
            Ok(false) => Ok(None),
            Err(_) => Err(halt.why()),
        }
    }

    /// Counts solutions by enumerating models with blocking clauses; see the module doc.
    /// Cost grows with the number of solutions: use it to cross-check, not on open boards.
    pub fn count(&self, opts: &CountOptions) -> Result<CountResult, CountError> {
        let start = Instant::now();
        let halt = Interrupt {
            deadline: opts.time_limit.and_then(|t| start.checked_add(t)),
            cancel: opts.cancel.clone(),
        };
        let d = self.problem.dims();
        let mut s = match self.solver(&halt) {
            Ok(s) => s,
            Err(why) => {
                return Ok(CountResult {
                    count: 0,
                    complete: false,
                    stopped: Some(why),
                    per_cell: opts.per_cell.then(|| vec![0u128; d.cells()]),
                    engine: super::EngineKind::Sat,
                });
            }
        };
        let mut per_cell = opts.per_cell.then(|| vec![0u128; d.cells()]);
        let mut count = 0u128;
        let mut stopped = None;
        loop {
            if opts.limit.is_some_and(|l| count >= l) {
                stopped = Some(Stop::Limit);
                break;
            }
            match s.solve() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => {
                    stopped = Some(halt.why());
                    break;
                }
            }
            let Some(model) = s.model() else { break };
            let (layout, block) = self.decode(&model);
            if let Some(pc) = per_cell.as_mut() {
                for c in layout.cells() {
                    pc[c] += 1;
                }
            }
            count = count.checked_add(1).ok_or(CountError::Overflow)?;
            if block.is_empty() {
                break;
            }
            s.add_clause(&block);
        }
        Ok(CountResult {
            count,
            complete: stopped.is_none(),
            stopped,
            per_cell,
            engine: super::EngineKind::Sat,
        })
    }

    /// Writes the CNF in DIMACS form, declaring the placement variables as the projection
    /// set (`c p show ... 0` and `c ind ... 0`), so a projected model counter counts layouts,
    /// and mapping each placement variable back to its ship (`c placement VAR TYPE CELLS...`,
    /// the type's index in the fleet and the cells row-major from 0).
    pub fn write_dimacs(&self, out: &mut (impl Write + ?Sized)) -> std::io::Result<()> {
        let enc = self.encoding();
        let f = &enc.formula;
        writeln!(
            out,
            "c broadside: placement variables are the projection set"
        )?;
        writeln!(out, "p cnf {} {}", f.var_count(), f.len())?;
        let show: Vec<String> = enc
            .placement_vars
            .iter()
            .flatten()
            .map(|l| l.to_dimacs().to_string())
            .collect();
        writeln!(out, "c p show {} 0", show.join(" "))?;
        writeln!(out, "c ind {} 0", show.join(" "))?;
        // The map back to layouts, for tools that sample or enumerate models.
        for (ty, vars) in enc.placement_vars.iter().enumerate() {
            for (lit, p) in vars.iter().zip(self.problem.placements(ty)) {
                let cells: Vec<String> = p.cells.iter().map(|c| c.to_string()).collect();
                writeln!(
                    out,
                    "c placement {} {ty} {}",
                    lit.to_dimacs(),
                    cells.join(" ")
                )?;
            }
        }
        for clause in f.iter() {
            for l in clause {
                write!(out, "{} ", l.to_dimacs())?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }
}

/// The proof sink that stops a search: see the module documentation.
#[derive(Clone)]
struct Interrupt {
    deadline: Option<Instant>,
    cancel: Option<Cancel>,
}

impl Interrupt {
    fn stopped(&self) -> Option<Stop> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            Some(Stop::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Time)
        } else {
            None
        }
    }

    /// Why a solve that failed stopped: a stop this sink asked for, or (varisat fails on
    /// nothing else it is given) the time limit.
    fn why(&self) -> Stop {
        self.stopped().unwrap_or(Stop::Time)
    }
}

impl Write for Interrupt {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.stopped() {
            Some(_) => Err(std::io::Error::other("the search was stopped")),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
