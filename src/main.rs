//! The `broadside` command: flags and output around the library.
//!
//! Exit codes: 0 answered; 1 an answer of "no solution" (or a recorded solution that does not
//! match); 2 bad input or usage.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand, ValueEnum};

use broadside::format::{self, json::JsonProblem};
use broadside::heat::HeatMap;
use broadside::{
    CountOptions, CountResult, Dims, Engine, Fleet, Layout, Problem, ProblemSpec, Rules, SatEngine,
    Stop, validate,
};

#[derive(Parser)]
#[command(
    name = "broadside",
    version,
    about = "Exact Battleship puzzle solving and layout counting"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle: print one solution.
    Solve {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
    },
    /// Count the layouts consistent with a problem (and so decide uniqueness).
    Count {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        /// Stop once this many layouts are found (`--limit 2` decides uniqueness).
        #[arg(long)]
        limit: Option<u128>,
        /// Stop after this many seconds with a partial count, marked as partial.
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
        /// Also count, for each cell, the layouts with a ship on it.
        #[arg(long)]
        cells: bool,
        /// Count with identical ships told apart (multiplies by the count's symmetry factor).
        #[arg(long)]
        labelled: bool,
        /// Write the SAT encoding in DIMACS form (placement variables as the projection set)
        /// to this file instead of counting.
        #[arg(long, value_name = "FILE")]
        dimacs: Option<PathBuf>,
    },
    /// The exact probability of a ship on each cell, as a heat map.
    Probs {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        /// Also draw the heat map as an SVG picture in this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        limit: TimeLimit,
        /// Colour the terminal map: auto (when standard output is a terminal and NO_COLOR is
        /// unset), always, or never.
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorChoice,
    },
    /// The open cell(s) most likely to hold a ship: where to fire next.
    Best {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        limit: TimeLimit,
    },
    /// Convert a problem to broadside's text or JSON format.
    Convert {
        #[command(flatten)]
        input: Input,
        /// The output format.
        #[arg(long = "to", value_enum, default_value = "text")]
        to: To,
    },
}

#[derive(Args)]
struct TimeLimit {
    /// Stop counting after this many seconds; the map is then marked partial (its counts are
    /// lower bounds and its probabilities not exact).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

impl TimeLimit {
    fn duration(&self) -> Result<Option<Duration>> {
        match self.time_limit {
            Some(t) if !(t > 0.0 && t.is_finite()) => {
                Err(bad("--time-limit must be a positive number of seconds"))
            }
            t => Ok(t.map(Duration::from_secs_f64)),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
enum To {
    Text,
    Json,
}

#[derive(Args)]
struct Input {
    /// The problem file (`-` for standard input): text, JSON, JSON lines, .dzn or XCSP3 JSON.
    file: Option<String>,
    /// An empty board of this size (WxH) instead of a file.
    #[arg(long, value_name = "WxH")]
    size: Option<Dims>,
    /// The fleet of an empty board, e.g. "5 4 3 3 2" or "1x4 2x3 3x2 4x1".
    #[arg(long)]
    fleet: Option<String>,
    /// The rules of an empty board: touch or no-touch.
    #[arg(long, default_value = "no-touch")]
    rules: Rules,
}

#[derive(Args)]
struct Output {
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// The engine: auto (the fastest exact one that applies), enum (bitboard enumerator),
    /// sat (varisat), or dp (transfer-matrix DP; counting only).
    #[arg(long, default_value = "auto")]
    engine: Engine,
}

/// An error that is the user's input, not a failure: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

impl Input {
    fn problems(&self) -> Result<Vec<ProblemSpec>> {
        match (&self.file, &self.size) {
            (Some(_), Some(_)) => Err(bad("give a file or --size/--fleet, not both")),
            (None, None) => Err(bad(
                "give a problem file (or -) or --size WxH --fleet \"...\"",
            )),
            (None, Some(dims)) => {
                let text = self
                    .fleet
                    .as_deref()
                    .ok_or_else(|| bad("--size needs --fleet"))?;
                let fleet = Fleet::parse(text, &[]).map_err(|e| bad(format!("--fleet: {e}")))?;
                Ok(vec![ProblemSpec::empty(*dims, fleet, self.rules)])
            }
            (Some(file), None) => {
                let content = if file == "-" {
                    let mut s = String::new();
                    std::io::stdin()
                        .read_to_string(&mut s)
                        .map_err(|e| bad(format!("standard input: {e}")))?;
                    s
                } else {
                    std::fs::read_to_string(file).map_err(|e| bad(format!("{file}: {e}")))?
                };
                let name = if file == "-" {
                    "<stdin>"
                } else {
                    file.as_str()
                };
                let specs = format::read(name, &content).map_err(|e| bad(e.to_string()))?;
                if specs.is_empty() {
                    return Err(bad(format!("{name}: no problem in the input")));
                }
                Ok(specs)
            }
        }
    }
}

fn build(spec: ProblemSpec) -> Result<Problem> {
    let name = spec.meta.name.clone();
    spec.build().map_err(|e| {
        bad(match name {
            Some(n) => format!("{n}: {e}"),
            None => e.to_string(),
        })
    })
}

fn label(p: &Problem) -> String {
    p.spec()
        .meta
        .name
        .clone()
        .unwrap_or_else(|| format!("{} {} {}", p.dims(), p.fleet().describe(), p.rules()))
}

/// The solution grid with the counts around it.
fn render(p: &Problem, layout: &Layout) -> String {
    let symbols: Vec<char> = layout
        .to_rows(p.dims(), p.fleet())
        .concat()
        .chars()
        .collect();
    format::text::framed_grid(p.spec(), |cell| symbols[cell])
}

/// Reports obvious conflicts; `true` when there are any.
fn report_conflicts(p: &Problem, json: bool, results: &mut Vec<serde_json::Value>) -> bool {
    let conflicts = p.conflicts();
    if conflicts.is_empty() {
        return false;
    }
    let reasons: Vec<String> = conflicts.iter().map(|c| c.to_string()).collect();
    if json {
        results.push(serde_json::json!({
            "name": p.spec().meta.name, "solved": false, "count": 0, "reasons": reasons,
        }));
    } else {
        println!("{}: no solution", label(p));
        for r in reasons {
            println!("  because {r}");
        }
    }
    true
}

/// Checks a found solution against the recorded one; returns a mismatch message.
fn check_recorded(p: &Problem, found: &Layout) -> Option<String> {
    let rec = p.spec().solution.as_ref()?;
    if let Err(e) = validate::check(p.spec(), rec) {
        return Some(format!(
            "the recorded solution is not valid: {}",
            e.join("; ")
        ));
    }
    (rec != found).then(|| {
        "found a valid solution other than the recorded one, so the problem is not unique"
            .to_string()
    })
}

fn solve(input: &Input, out: &Output) -> Result<bool> {
    let mut ok = true;
    let mut results = Vec::new();
    for spec in input.problems()? {
        let p = build(spec)?;
        if report_conflicts(&p, out.json, &mut results) {
            ok = false;
            continue;
        }
        let start = Instant::now();
        let found = out.engine.solve(&p);
        let secs = start.elapsed().as_secs_f64();
        let Some(layout) = found else {
            ok = false;
            if out.json {
                results.push(serde_json::json!({"name": p.spec().meta.name, "solved": false}));
            } else {
                println!("{}: no solution", label(&p));
            }
            continue;
        };
        if let Err(e) = validate::check(p.spec(), &layout) {
            return Err(anyhow!(
                "internal error: the engine's solution fails the check: {e:?}"
            ));
        }
        let mismatch = check_recorded(&p, &layout);
        ok &= mismatch.is_none();
        if out.json {
            results.push(serde_json::json!({
                "name": p.spec().meta.name,
                "solved": true,
                "solution": layout.to_rows(p.dims(), p.fleet()),
                "matches_recorded": p.spec().solution.as_ref().map(|_| mismatch.is_none()),
                "engine": format!("{:?}", out.engine).to_lowercase(),
                "seconds": secs,
            }));
        } else {
            println!("{}: solved in {:.3} ms", label(&p), secs * 1e3);
            print!("{}", render(&p, &layout));
            if let Some(m) = mismatch {
                println!("  warning: {m}");
            }
        }
    }
    if out.json {
        print_json(results);
    }
    Ok(ok)
}

fn print_json(results: Vec<serde_json::Value>) {
    let v = if results.len() == 1 {
        results.into_iter().next().expect("one result")
    } else {
        serde_json::Value::Array(results)
    };
    println!("{}", serde_json::to_string_pretty(&v).expect("JSON output"));
}

struct CountArgs {
    limit: Option<u128>,
    time_limit: Option<f64>,
    cells: bool,
    labelled: bool,
}

/// The count in words, and the count itself, times `factor` (per-cell counts, never above
/// the total, then fit too).
fn describe_count(r: &CountResult, factor: u128, puzzle: bool) -> Result<(String, u128)> {
    let n = r
        .count
        .checked_mul(factor)
        .ok_or_else(|| anyhow!("the labelled count exceeds 2^128"))?;
    let noun = |n: u128| if n == 1 { "layout" } else { "layouts" };
    let text = match r.stopped {
        None if n == 1 => "1 solution (unique)".to_string(),
        None if n == 0 => "no solution".to_string(),
        None if puzzle => format!("{n} {} (not unique)", noun(n)),
        None => format!("{n} {}", noun(n)),
        Some(Stop::Limit) => format!("at least {n} {} (stopped at the limit)", noun(n)),
        Some(Stop::Time) => format!("at least {n} {} (partial: time limit reached)", noun(n)),
        Some(Stop::Overflow) => "count overflow".to_string(),
    };
    Ok((text, n))
}

fn count(input: &Input, out: &Output, args: &CountArgs, dimacs: Option<&PathBuf>) -> Result<bool> {
    let specs = input.problems()?;
    if let Some(path) = dimacs {
        if specs.len() != 1 {
            return Err(bad("--dimacs takes a single problem"));
        }
        let p = build(specs.into_iter().next().expect("one problem"))?;
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        );
        SatEngine::new(&p).write_dimacs(&mut f)?;
        f.flush()?;
        eprintln!("wrote {}", path.display());
        return Ok(true);
    }
    let mut ok = true;
    let mut results = Vec::new();
    for spec in specs {
        let p = build(spec)?;
        if report_conflicts(&p, out.json, &mut results) {
            ok = false;
            continue;
        }
        let show_progress = std::io::stderr().is_terminal() && !out.json;
        let last = std::sync::Mutex::new(Instant::now());
        let opts = CountOptions {
            limit: args.limit,
            time_limit: args.time_limit.map(Duration::from_secs_f64),
            per_cell: args.cells,
            parallel: true,
            progress: show_progress.then(|| {
                Box::new(move |done: u64, total: u64| {
                    let mut l = last.lock().expect("progress lock");
                    if l.elapsed() > Duration::from_millis(500) || done == total {
                        *l = Instant::now();
                        eprint!("\r{done}/{total} subtrees counted");
                        if done == total {
                            eprint!("\r{}\r", " ".repeat(40));
                        }
                    }
                }) as Box<dyn Fn(u64, u64) + Sync + Send>
            }),
        };
        let start = Instant::now();
        let r = out
            .engine
            .count(&p, &opts)
            .map_err(|e| anyhow!("{}: {e}", label(&p)))?;
        let secs = start.elapsed().as_secs_f64();
        let factor = if args.labelled {
            p.fleet()
                .labelling_factor()
                .ok_or_else(|| anyhow!("{}: the labelled count exceeds 2^128", label(&p)))?
        } else {
            1
        };
        // Uniqueness is news for a puzzle (a problem with counts), not for a game state.
        let puzzle = !p.spec().rows.is_empty() || !p.spec().cols.is_empty();
        let (text, n) = describe_count(&r, factor, puzzle)?;
        if r.complete && r.count == 0 {
            ok = false;
        }
        let d = p.dims();
        if out.json {
            let per_cell = r.per_cell.as_ref().map(|v| {
                v.chunks(d.width)
                    .map(|row| row.iter().map(|&x| x * factor).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            });
            results.push(serde_json::json!({
                "name": p.spec().meta.name,
                "count": n,
                "complete": r.complete,
                "partial_reason": r.stopped.map(|s| format!("{s:?}").to_lowercase()),
                "unique": r.complete.then_some(r.count == 1),
                "labelled": args.labelled,
                "per_cell": per_cell,
                "engine": r.engine,
                "seconds": secs,
            }));
        } else {
            println!("{}: {text} [{} engine, {:.3} s]", label(&p), r.engine, secs);
            if let Some(pc) = &r.per_cell {
                let w = pc
                    .iter()
                    .map(|x| (x * factor).to_string().len())
                    .max()
                    .unwrap_or(1);
                for row in pc.chunks(d.width) {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|x| format!("{:>w$}", x * factor, w = w))
                        .collect();
                    println!("  {}", cells.join(" "));
                }
            }
        }
        if r.complete
            && r.count == 1
            && let Some(layout) = out.engine.solve(&p)
            && let Some(m) = check_recorded(&p, &layout)
        {
            ok = false;
            eprintln!("{}: {m}", label(&p));
        }
    }
    if out.json {
        print_json(results);
    }
    Ok(ok)
}

/// The heat map of each problem in the input, or a "no layout" answer (false).
fn heat_maps(
    input: &Input,
    out: &Output,
    limit: &TimeLimit,
) -> Result<Vec<(Problem, Option<HeatMap>)>> {
    let opts = CountOptions {
        time_limit: limit.duration()?,
        parallel: true,
        ..CountOptions::default()
    };
    let mut maps = Vec::new();
    for spec in input.problems()? {
        let p = build(spec)?;
        if !p.conflicts().is_empty() {
            maps.push((p, None));
            continue;
        }
        let h = HeatMap::compute_with(&p, out.engine, &opts)
            .map_err(|e| anyhow!("{}: {e}", label(&p)))?;
        // A partial map with no layout yet is not an answer of "no layout".
        let h = (h.layouts > 0 || !h.complete).then_some(h);
        maps.push((p, h));
    }
    Ok(maps)
}

fn no_layout(p: &Problem, json: bool) -> serde_json::Value {
    let reasons: Vec<String> = p.conflicts().iter().map(|c| c.to_string()).collect();
    let spec = p.given();
    let shots: Vec<String> = broadside::observe::conflicting_shots(spec)
        .unwrap_or_default()
        .iter()
        .map(|&i| {
            broadside::observe::print_shot(spec.dims, &spec.fleet, &spec.observations.shots[i])
        })
        .collect();
    if !json {
        println!("{}: no layout is consistent with these shots", label(p));
        for r in &reasons {
            println!("  because {r}");
        }
        if !shots.is_empty() {
            println!(
                "  these shots cannot all be true (drop any one and a layout fits): {}",
                shots.join(", ")
            );
        }
    }
    serde_json::json!({"name": spec.meta.name, "layouts": 0, "reasons": reasons, "conflicting_shots": shots})
}

fn cell_name(p: &Problem, cell: usize) -> String {
    let (r, c) = p.dims().row_col(cell);
    format!("{}{}", broadside::heat::column_name(c), r + 1)
}

/// The warning a partial map carries.
const PARTIAL: &str = "partial: the time limit ran out, so the counts are lower bounds and the \
                       probabilities are not exact";

fn probs(
    input: &Input,
    out: &Output,
    svg: Option<&PathBuf>,
    color: ColorChoice,
    limit: &TimeLimit,
) -> Result<bool> {
    let maps = heat_maps(input, out, limit)?;
    if svg.is_some() && maps.len() != 1 {
        return Err(bad("--svg takes a single problem"));
    }
    let colour = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let mut ok = true;
    let mut results = Vec::new();
    for (p, h) in &maps {
        let Some(h) = h else {
            ok = false;
            let v = no_layout(p, out.json);
            results.push(v);
            continue;
        };
        let d = p.dims();
        if let Some(path) = svg {
            let title = format!("{}: {} layouts", label(p), h.layouts);
            std::fs::write(path, h.render_svg(&title))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        if out.json {
            let rows = |f: &dyn Fn(usize) -> serde_json::Value| {
                (0..d.height)
                    .map(|r| (0..d.width).map(|c| f(d.index(r, c))).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            };
            results.push(serde_json::json!({
                "name": p.spec().meta.name,
                "layouts": h.layouts,
                "counts": rows(&|c| serde_json::json!(h.per_cell[c])),
                "probabilities": rows(&|c| serde_json::json!(h.probability(c))),
                "engine": h.engine,
                "complete": h.complete,
            }));
        } else {
            println!("{}: {} layouts [{} engine]", label(p), h.layouts, h.engine);
            if !h.complete {
                println!("  {PARTIAL}");
            }
            print!("{}", h.render_text(colour));
        }
    }
    if out.json {
        print_json(results);
    }
    Ok(ok)
}

fn best(input: &Input, out: &Output, limit: &TimeLimit) -> Result<bool> {
    let mut ok = true;
    let mut results = Vec::new();
    for (p, h) in heat_maps(input, out, limit)? {
        let Some(h) = h else {
            ok = false;
            results.push(no_layout(&p, out.json));
            continue;
        };
        let (cells, prob) = h.best();
        // A cut-short search counts some regions and not others: its maximum means nothing.
        ok &= h.complete;
        let names: Vec<String> = cells.iter().map(|&c| cell_name(&p, c)).collect();
        if out.json {
            let cells: Vec<serde_json::Value> = if h.complete { cells } else { Vec::new() }
                .iter()
                .map(|&c| {
                    let (row, col) = p.dims().row_col(c);
                    serde_json::json!({"cell": cell_name(&p, c), "row": row, "col": col, "count": h.per_cell[c]})
                })
                .collect();
            results.push(serde_json::json!({
                "name": p.spec().meta.name, "layouts": h.layouts, "probability": h.complete.then_some(prob),
                "cells": cells, "engine": h.engine, "complete": h.complete,
            }));
        } else if !h.complete {
            println!("{}: no exact answer: {PARTIAL}", label(&p));
        } else if names.is_empty() {
            println!("{}: no open cell can hold a ship", label(&p));
        } else {
            println!(
                "{}: fire at {} (probability {:.4}, {} of {} layouts)",
                label(&p),
                names.join(" "),
                prob,
                h.per_cell[cells[0]],
                h.layouts
            );
        }
    }
    if out.json {
        print_json(results);
    }
    Ok(ok)
}

fn convert(input: &Input, to: To) -> Result<bool> {
    let specs = input.problems()?;
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 && matches!(to, To::Text) {
            println!();
        }
        match to {
            To::Text => print!("{}", format::text::print(spec)),
            To::Json => println!("{}", serde_json::to_string(&JsonProblem::from_spec(spec))?),
        }
    }
    Ok(true)
}

fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::Solve { input, out } => solve(&input, &out),
        Command::Count {
            input,
            out,
            limit,
            time_limit,
            cells,
            labelled,
            dimacs,
        } => {
            if time_limit.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
                return Err(bad("--time-limit must be a positive number of seconds"));
            }
            let args = CountArgs {
                limit,
                time_limit,
                cells,
                labelled,
            };
            count(&input, &out, &args, dimacs.as_ref())
        }
        Command::Probs {
            input,
            out,
            svg,
            color,
            limit,
        } => probs(&input, &out, svg.as_ref(), color, &limit),
        Command::Best { input, out, limit } => best(&input, &out, &limit),
        Command::Convert { input, to } => convert(&input, to),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("broadside: {e:#}");
            if e.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(3)
            }
        }
    }
}
