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
use broadside::logic::{self, Grade, Know};
use broadside::sample::{Sampler, SamplerKind};
use broadside::stats;
use broadside::{
    CountOptions, CountResult, Dims, Engine, Fleet, Layout, Problem, ProblemSpec, Rules, SatEngine,
    Stop, validate,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

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
        /// Solve with the logical rules and print each deduction (rule, cells, reason); search
        /// finishes what the rules leave open.
        #[arg(long)]
        explain: bool,
    },
    /// Grade a puzzle: easy, medium, hard or extreme, from the rules its solution needs.
    Grade {
        #[command(flatten)]
        input: Input,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
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
    /// Draw random layouts consistent with a problem.
    Sample {
        #[command(flatten)]
        input: Input,
        /// How many layouts.
        #[arg(short = 'n', long, default_value = "10")]
        n: u64,
        /// The seed of the random draws: the same seed gives the same layouts.
        #[arg(long, default_value = "0")]
        seed: u64,
        /// uniform (exact), rejection (exact, by rejection), sequential or weighted (biased).
        #[arg(long, default_value = "uniform")]
        sampler: SamplerKind,
        /// Print the estimated heat map (with 95% intervals in JSON) instead of the layouts.
        #[arg(long)]
        probs: bool,
        /// JSON output (one layout per line, or the estimates with --probs).
        #[arg(long)]
        json: bool,
    },
    /// Measure a sampler (or a file of samples) against the exact answer: exit 0 when it
    /// passes, 1 when it fails.
    Validate {
        #[command(flatten)]
        input: Input,
        /// The sampler to measure: uniform, rejection, sequential or weighted.
        #[arg(long, default_value = "uniform")]
        sampler: SamplerKind,
        /// How many samples to draw.
        #[arg(short = 'n', long, default_value = "100000")]
        n: u64,
        /// The seed of the random draws.
        #[arg(long, default_value = "0")]
        seed: u64,
        /// Read the samples from this file instead (JSON lines {"layout": [rows]} as
        /// `sample --json` writes, or grids of rows separated by blank lines).
        #[arg(long, value_name = "FILE")]
        samples: Option<PathBuf>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Generate puzzles with a unique solution and a minimal set of clues.
    Generate {
        /// Board size, WxH.
        #[arg(long, value_name = "WxH")]
        size: Dims,
        /// The fleet (default: the magazine fleet for the size).
        #[arg(long)]
        fleet: Option<String>,
        /// The seed: the same seed gives the same puzzles.
        #[arg(long, default_value = "0")]
        seed: u64,
        /// How many puzzles.
        #[arg(long, default_value = "1")]
        count: usize,
        /// Write each puzzle to a file in this folder instead of standard output.
        #[arg(short = 'o', long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// How many row and column counts to withhold.
        #[arg(long, default_value = "0")]
        hidden_counts: usize,
        /// Give ship clues as '*' only, never as segment kinds.
        #[arg(long)]
        no_segments: bool,
        /// Give no water clues (only ship clues).
        #[arg(long)]
        no_water: bool,
        /// The grade every puzzle must have: easy, medium, hard or extreme (default: any).
        #[arg(long)]
        difficulty: Option<Grade>,
        /// Give up on a puzzle after this many seconds.
        #[arg(long, value_name = "SECONDS", default_value = "60")]
        time_limit: f64,
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

/// Cells as names, runs along a row or column joined: "A1-C1 E4".
fn cell_list(d: Dims, cells: &[usize]) -> String {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    let name = |c: usize| d.cell_name(c);
    let mut parts: Vec<String> = Vec::new();
    let mut used = vec![false; cells.len()];
    for i in 0..cells.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        // Extend along the row, else down the column.
        let mut last = cells[i];
        for step in [1, d.width] {
            let mut run = vec![];
            let mut next = last + step;
            while let Some(j) = cells.iter().position(|&c| c == next) {
                if used[j] || (step == 1 && next.is_multiple_of(d.width)) {
                    break;
                }
                run.push(j);
                next += step;
            }
            if !run.is_empty() {
                for &j in &run {
                    used[j] = true;
                }
                last = cells[*run.last().expect("a run")];
                break;
            }
        }
        parts.push(if last == cells[i] {
            name(last)
        } else {
            format!("{}-{}", name(cells[i]), name(last))
        });
    }
    parts.join(" ")
}

/// The logical solver on a problem, or a usage error saying why it does not apply.
fn logic_problem(spec: ProblemSpec) -> Result<Problem> {
    let p = build(spec)?;
    logic::supports(&p).map_err(|e| bad(format!("{}: {e}", label(&p))))?;
    Ok(p)
}

fn explain(input: &Input, out: &Output) -> Result<bool> {
    let mut ok = true;
    let mut results = Vec::new();
    for spec in input.problems()? {
        let p = logic_problem(spec)?;
        if report_conflicts(&p, out.json, &mut results) {
            ok = false;
            continue;
        }
        let o = logic::solve(&p, 4).map_err(|e| bad(e.to_string()))?;
        let d = p.dims();
        let open = o.grid.iter().filter(|&&k| k == Know::Unknown).count();
        // Search finishes what the rules leave open (and proves a contradiction is real).
        let found = if o.contradiction {
            None
        } else {
            out.engine.solve(&p)
        };
        if found.is_none() {
            ok = false;
        }
        if out.json {
            let steps: Vec<serde_json::Value> = o
                .steps
                .iter()
                .map(|s| {
                    let of = |k: Know| -> Vec<String> {
                        s.cells
                            .iter()
                            .filter(|c| c.1 == k)
                            .map(|c| d.cell_name(c.0))
                            .collect()
                    };
                    serde_json::json!({
                        "rule": s.rule, "tier": s.tier, "why": s.why,
                        "water": of(Know::Water), "ship": of(Know::Ship),
                    })
                })
                .collect();
            results.push(serde_json::json!({
                "name": p.spec().meta.name,
                "steps": steps,
                "solved_by_rules": o.solved,
                "open_cells": open,
                "grade": o.grade.to_string(),
                "solved": found.is_some(),
                "solution": found.as_ref().map(|l| l.to_rows(d, p.fleet())),
            }));
            continue;
        }
        println!("{}:", label(&p));
        for (i, s) in o.steps.iter().enumerate() {
            let of = |k: Know| -> Vec<usize> {
                s.cells.iter().filter(|c| c.1 == k).map(|c| c.0).collect()
            };
            let mut decided = Vec::new();
            for (k, word) in [(Know::Ship, "ship"), (Know::Water, "water")] {
                let cells = of(k);
                if !cells.is_empty() {
                    decided.push(format!("{word} {}", cell_list(d, &cells)));
                }
            }
            println!(
                "{:>4}. {} (tier {}): {}. So: {}.",
                i + 1,
                s.rule,
                s.tier,
                s.why,
                decided.join("; ")
            );
        }
        if o.contradiction {
            println!("the rules reach a contradiction: the puzzle has no solution");
            continue;
        }
        if o.solved {
            println!(
                "solved by the rules in {} steps (grade {})",
                o.steps.len(),
                o.grade
            );
        } else {
            println!(
                "the rules stop here with {open} cells open (grade extreme); what they know, '.' open:"
            );
            print!(
                "{}",
                format::text::framed_grid(p.spec(), |c| match o.grid[c] {
                    Know::Unknown => '.',
                    Know::Water => '~',
                    Know::Ship => '*',
                })
            );
            println!("search finishes it:");
        }
        match &found {
            Some(layout) => print!("{}", render(&p, layout)),
            None => println!("no solution"),
        }
    }
    if out.json {
        print_json(results);
    }
    Ok(ok)
}

fn grade(input: &Input, json: bool) -> Result<bool> {
    let mut ok = true;
    let mut results = Vec::new();
    let specs = input.problems()?;
    let many = specs.len() > 1;
    let mut tally = std::collections::BTreeMap::new();
    for spec in specs {
        let p = logic_problem(spec)?;
        if report_conflicts(&p, json, &mut results) {
            ok = false;
            continue;
        }
        // A grade is for a puzzle with exactly one solution.
        let opts = CountOptions {
            limit: Some(2),
            ..CountOptions::default()
        };
        let n = Engine::Auto
            .count(&p, &opts)
            .map_err(|e| anyhow!("{e}"))?
            .count;
        if n != 1 {
            ok = false;
            let what = if n == 0 { "no solution" } else { "not unique" };
            if json {
                results.push(serde_json::json!({
                    "name": p.spec().meta.name, "grade": null, "solutions_seen": n, "reason": what,
                }));
            } else {
                println!(
                    "{}: {what}: grades are for puzzles with one solution",
                    label(&p)
                );
            }
            continue;
        }
        let o = logic::solve(&p, 4).map_err(|e| bad(e.to_string()))?;
        *tally.entry((o.grade, o.top_tier)).or_insert(0usize) += 1;
        let cells = o.grid.len();
        let open = o.grid.iter().filter(|&&k| k == Know::Unknown).count();
        let hardest = o
            .steps
            .iter()
            .find(|s| s.tier == o.top_tier)
            .map(|s| format!("{} (tier {}): {}", s.rule, s.tier, s.why));
        let by_tier: Vec<String> = (1..=4)
            .map(|t| format!("tier {t} {}", o.decided_by_tier[t - 1]))
            .collect();
        if json {
            results.push(serde_json::json!({
                "name": p.spec().meta.name,
                "grade": o.grade.to_string(),
                "solved_by_rules": o.solved,
                "top_tier": o.top_tier,
                "decided_by_tier": o.decided_by_tier,
                "open_cells": open,
                "hardest_step": hardest,
            }));
            continue;
        }
        println!("{}: {}", label(&p), o.grade);
        if o.solved {
            println!(
                "  the rules solve it in {} steps; cells decided by {}",
                o.steps.len(),
                by_tier.join(", ")
            );
        } else {
            println!(
                "  the rules decide {} of {cells} cells ({}); the other {open} need search",
                cells - open,
                by_tier.join(", ")
            );
        }
        if let Some(h) = hardest {
            println!("  hardest step: {h}");
        }
    }
    if json {
        print_json(results);
    } else if many {
        let graded: usize = tally.values().sum();
        let parts: Vec<String> = Grade::ALL
            .iter()
            .map(|g| {
                let n: usize = tally.iter().filter(|(k, _)| k.0 == *g).map(|x| x.1).sum();
                format!("{n} {g}")
            })
            .collect();
        let tiers: Vec<String> = (1..=4u8)
            .map(|t| {
                let n: usize = tally
                    .iter()
                    .filter(|(k, _)| k.0 != Grade::Extreme && k.1.max(1) == t)
                    .map(|x| x.1)
                    .sum();
                format!("{n} need tier {t}")
            })
            .collect();
        println!("{graded} graded: {}", parts.join(", "));
        println!("solved by the rules: {}", tiers.join(", "));
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
    let shots: Vec<String> = broadside::diagnose::conflicting_shots(spec)
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
    p.dims().cell_name(cell)
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

fn single(input: &Input) -> Result<Problem> {
    let specs = input.problems()?;
    if specs.len() != 1 {
        return Err(bad("this command takes a single problem"));
    }
    build(specs.into_iter().next().expect("one problem"))
}

/// The single problem of the input, or `None` (after saying why) when it has an obvious
/// conflict.
fn single_consistent(input: &Input, json: bool) -> Result<Option<Problem>> {
    let p = single(input)?;
    if !p.conflicts().is_empty() {
        no_layout(&p, json);
        return Ok(None);
    }
    Ok(Some(p))
}

/// A map of per-cell counts over `n` samples, drawn like an exact one.
fn estimated_map(p: &Problem, counts: &[u64], n: u64) -> HeatMap {
    let spec = p.spec();
    HeatMap {
        width: p.dims().width,
        layouts: n as u128,
        per_cell: counts.iter().map(|&c| c as u128).collect(),
        open: (0..p.dims().cells())
            .map(|c| spec.clue(c).is_none())
            .collect(),
        marks: (0..p.dims().cells())
            .map(|c| spec.clue(c).map(broadside::Clue::symbol))
            .collect(),
        engine: "sample",
        complete: true,
    }
}

/// The Wilson 95% interval of a proportion `k / n`.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn sample(
    input: &Input,
    n: u64,
    seed: u64,
    kind: SamplerKind,
    probs: bool,
    json: bool,
) -> Result<bool> {
    let Some(p) = single_consistent(input, json)? else {
        return Ok(false);
    };
    let mut sampler = Sampler::new(&p, kind).map_err(|e| anyhow!("{}: {e}", label(&p)))?;
    let mut rng = StdRng::seed_from_u64(seed);
    let d = p.dims();
    let mut counts = vec![0u64; d.cells()];
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let start = Instant::now();
    let mut drawn = 0;
    for _ in 0..n {
        let Some(layout) = sampler.sample(&mut rng) else {
            break;
        };
        drawn += 1;
        if probs {
            for c in layout.cells() {
                counts[c] += 1;
            }
        } else if json {
            writeln!(
                out,
                "{}",
                serde_json::json!({"layout": layout.to_rows(d, p.fleet())})
            )?;
        } else {
            for row in layout.to_rows(d, p.fleet()) {
                writeln!(out, "{row}")?;
            }
            writeln!(out)?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if drawn == 0 {
        drop(out);
        if sampler.acceptance().is_some() {
            // A rejection-style sampler that rejected every draw has not shown that no
            // layout exists.
            let msg = format!(
                "{}: the {} sampler gave up: {} draws in a row were all rejected (too tight for it; no answer about whether a layout exists)",
                label(&p),
                sampler.method(),
                broadside::sample::MAX_ATTEMPTS
            );
            if json {
                print_json(vec![
                    serde_json::json!({"name": p.spec().meta.name, "drawn": 0, "gave_up": msg}),
                ]);
            } else {
                println!("{msg}");
            }
        } else {
            no_layout(&p, json);
        }
        return Ok(false);
    }
    if probs {
        if json {
            let rows = |f: &dyn Fn(usize) -> serde_json::Value| {
                (0..d.height)
                    .map(|r| (0..d.width).map(|c| f(d.index(r, c))).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            };
            let v = serde_json::json!({
                "name": p.spec().meta.name, "samples": drawn, "sampler": format!("{kind:?}").to_lowercase(),
                "seed": seed, "acceptance": sampler.acceptance(),
                "estimates": rows(&|c| serde_json::json!(counts[c] as f64 / drawn as f64)),
                "intervals95": rows(&|c| { let (lo, hi) = wilson(counts[c], drawn); serde_json::json!([lo, hi]) }),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            writeln!(
                out,
                "{}: {drawn} samples ({kind:?} sampler by {}, seed {seed}, {:.0} layouts/s){}",
                label(&p),
                sampler.method(),
                drawn as f64 / secs,
                sampler
                    .acceptance()
                    .map_or(String::new(), |a| format!(", acceptance {a:.4}"))
            )?;
            write!(
                out,
                "{}",
                estimated_map(&p, &counts, drawn).render_text(false)
            )?;
            let widest = counts
                .iter()
                .map(|&k| {
                    let (lo, hi) = wilson(k, drawn);
                    (hi - lo) / 2.0
                })
                .fold(0.0, f64::max);
            writeln!(
                out,
                "95% intervals: every estimate within +/-{:.2} percentage points (--json gives each interval)",
                widest * 100.0
            )?;
        }
    } else if let Some(a) = sampler.acceptance() {
        eprintln!("acceptance {a:.4}");
    }
    if drawn < n {
        eprintln!(
            "{}: the sampler gave up after {drawn} of {n} layouts ({} rejected draws in a row)",
            label(&p),
            broadside::sample::MAX_ATTEMPTS
        );
        return Ok(false);
    }
    Ok(true)
}

/// Reads layouts written by `sample` (JSON lines or blank-line-separated grids).
fn read_samples(path: &PathBuf, p: &Problem) -> Result<Vec<Layout>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("{name}: {e}")))?;
    let d = p.dims();
    let mut out = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let mut block_line = 0;
    let flush = |block: &mut Vec<String>, line: usize, out: &mut Vec<Layout>| -> Result<()> {
        if !block.is_empty() {
            let l = Layout::from_rows(block, d, p.fleet())
                .map_err(|e| bad(format!("{name}: line {line}, column 1: {e}")))?;
            out.push(l);
            block.clear();
        }
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('{') {
            #[derive(serde::Deserialize)]
            struct Rec {
                layout: Vec<String>,
            }
            let r: Rec = serde_json::from_str(t).map_err(|e| {
                bad(format!(
                    "{name}: line {}, column {}: {e}",
                    i + 1,
                    e.column()
                ))
            })?;
            let l = Layout::from_rows(&r.layout, d, p.fleet())
                .map_err(|e| bad(format!("{name}: line {}, column 1: {e}", i + 1)))?;
            out.push(l);
        } else if t.is_empty() {
            flush(&mut block, block_line, &mut out)?;
        } else {
            if block.is_empty() {
                block_line = i + 1;
            }
            block.push(t.to_string());
        }
    }
    flush(&mut block, block_line, &mut out)?;
    Ok(out)
}

fn validate_sampler(
    input: &Input,
    kind: SamplerKind,
    n: u64,
    seed: u64,
    samples: Option<&PathBuf>,
    json: bool,
) -> Result<bool> {
    let Some(p) = single_consistent(input, json)? else {
        return Ok(false);
    };
    let exact = HeatMap::compute(&p, Engine::Auto).map_err(|e| anyhow!("{}: {e}", label(&p)))?;
    if exact.layouts == 0 {
        no_layout(&p, json);
        return Ok(false);
    }
    let index = (exact.layouts <= stats::MAX_LAYOUTS_FOR_FIT as u128)
        .then(|| stats::LayoutIndex::new(broadside::Enumerator::new(&p).solutions()));
    let mut counts = vec![0u64; p.dims().cells()];
    let mut freqs = vec![0u64; index.as_ref().map_or(0, |i| i.len())];
    let mut invalid = 0u64;
    let mut drawn = 0u64;
    let mut tally = |l: &Layout| {
        drawn += 1;
        let ok = match &index {
            Some(ix) => ix.get(l).map(|i| freqs[i] += 1).is_some(),
            None => validate::check(p.spec(), l).is_ok(),
        };
        if ok {
            for c in l.cells() {
                counts[c] += 1;
            }
        } else {
            invalid += 1;
        }
    };
    let source = match samples {
        Some(path) => {
            for l in read_samples(path, &p)? {
                tally(&l);
            }
            format!("samples from {}", path.display())
        }
        None => {
            let mut sampler = Sampler::new(&p, kind).map_err(|e| anyhow!("{}: {e}", label(&p)))?;
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..n {
                match sampler.sample(&mut rng) {
                    Some(l) => tally(&l),
                    None => break,
                }
            }
            format!("{kind:?} sampler by {}, seed {seed}", sampler.method()).to_lowercase()
        }
    };
    if drawn == 0 {
        return Err(bad("no samples to validate"));
    }
    let cells = stats::per_cell(&exact, &counts, drawn);
    let fit = index
        .as_ref()
        .filter(|ix| drawn >= 5 * ix.len() as u64)
        .map(|_| stats::chi_square(&freqs));
    let v = stats::verdict(&cells, fit.as_ref(), invalid);
    if json {
        print_json(vec![serde_json::json!({
            "name": p.spec().meta.name, "source": source, "samples": drawn, "layouts": exact.layouts,
            "pass": v.pass, "invalid": invalid,
            "cells": {"max_error": cells.max_error, "mean_error": cells.mean_error, "outside_99": cells.outside, "tested": cells.cells, "allowed": cells.allowed},
            "fit": fit.as_ref().map(|f| serde_json::json!({"chi2": f.chi2, "df": f.df, "p_value": f.p_value, "tv": f.tv})),
        })]);
    } else {
        println!(
            "{}: {} layouts; {drawn} samples ({source})",
            label(&p),
            exact.layouts
        );
        for line in &v.lines {
            println!("  {line}");
        }
        if fit.is_none() {
            match &index {
                Some(ix) => println!(
                    "  (layout test skipped: it needs at least {} samples, 5 per layout)",
                    5 * ix.len()
                ),
                None => println!(
                    "  (layout test skipped: more than {} layouts)",
                    stats::MAX_LAYOUTS_FOR_FIT
                ),
            }
        }
        println!(
            "verdict: {}",
            if v.pass {
                "PASS (consistent with uniform sampling)"
            } else {
                "FAIL (not uniform)"
            }
        );
    }
    Ok(v.pass)
}

/// The clue kinds a generated puzzle may show.
struct Clues {
    segments: bool,
    water: bool,
}

#[allow(clippy::too_many_arguments)]
fn generate(
    size: Dims,
    fleet: Option<&str>,
    seed: u64,
    count: usize,
    out: Option<&PathBuf>,
    hidden_counts: usize,
    clues: Clues,
    difficulty: Option<Grade>,
    time_limit: f64,
) -> Result<bool> {
    use broadside::generate::{self, GenerateError, GenerateOptions};
    if !(time_limit > 0.0 && time_limit.is_finite()) {
        return Err(bad("--time-limit must be a positive number of seconds"));
    }
    let mut opts = GenerateOptions::new(size.supported().map_err(|e| bad(e.to_string()))?);
    opts.fleet = fleet
        .map(|f| Fleet::parse(f, &[]).map_err(|e| bad(format!("--fleet: {e}"))))
        .transpose()?;
    opts.hidden_counts = hidden_counts;
    opts.segments = clues.segments;
    opts.water = clues.water;
    opts.difficulty = difficulty;
    opts.time_limit = Duration::from_secs_f64(time_limit);
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..count {
        let t = Instant::now();
        let mut spec = match generate::generate(&opts, &mut rng) {
            Ok(s) => s,
            Err(e @ GenerateError::Request(_)) => return Err(bad(e.to_string())),
            Err(e) => {
                eprintln!("broadside: puzzle {} of {count}: {e}", i + 1);
                return Ok(false);
            }
        };
        let name = match difficulty {
            Some(g) => format!("gen-{size}-{g}-s{seed}-{}", i + 1),
            None => format!("gen-{size}-s{seed}-{}", i + 1),
        };
        spec.meta = generate::meta(name.clone(), seed, difficulty);
        let text = format::text::print(&spec);
        match out {
            Some(dir) => {
                let path = dir.join(format!("{name}.txt"));
                std::fs::write(&path, &text)
                    .with_context(|| format!("writing {}", path.display()))?;
                eprintln!(
                    "{} ({:.0} ms)",
                    path.display(),
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
            None => {
                if i > 0 {
                    println!("---");
                }
                print!("{text}");
            }
        }
    }
    Ok(true)
}

fn convert(input: &Input, to: To) -> Result<bool> {
    let specs = input.problems()?;
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 && matches!(to, To::Text) {
            println!("---");
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
        Command::Solve {
            input,
            out,
            explain: false,
        } => solve(&input, &out),
        Command::Solve {
            input,
            out,
            explain: true,
        } => explain(&input, &out),
        Command::Grade { input, json } => grade(&input, json),
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
        Command::Sample {
            input,
            n,
            seed,
            sampler,
            probs,
            json,
        } => sample(&input, n, seed, sampler, probs, json),
        Command::Validate {
            input,
            sampler,
            n,
            seed,
            samples,
            json,
        } => validate_sampler(&input, sampler, n, seed, samples.as_ref(), json),
        Command::Generate {
            size,
            fleet,
            seed,
            count,
            out,
            hidden_counts,
            no_segments,
            no_water,
            difficulty,
            time_limit,
        } => generate(
            size,
            fleet.as_deref(),
            seed,
            count,
            out.as_ref(),
            hidden_counts,
            Clues {
                segments: !no_segments,
                water: !no_water,
            },
            difficulty,
            time_limit,
        ),
        Command::Convert { input, to } => convert(&input, to),
    }
}

fn main() -> ExitCode {
    // A closed pipe (`broadside ... | head`) ends the program quietly, as it does for other
    // command-line tools, instead of failing on the next write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
