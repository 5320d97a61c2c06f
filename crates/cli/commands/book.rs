//! `broadside book`: a puzzle book as a PDF file: puzzles generated (or read from files),
//! each proved unique again and graded, easiest first, one, two or four to a page, with a
//! title page of rules and the solutions at the back.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use broadside::answer::label;
use broadside::generate::{self, GenerateOptions};
use broadside::logic::{self, Grade};
use broadside::publish::{BookOptions, BookPuzzle, book_pages};
use broadside::{CountOptions, Dims, Engine, Fleet, ProblemSpec, output};

use crate::args::{read_problems, seconds};
use crate::pdf;
use crate::usage;

/// The options of `book`.
#[derive(clap::Args)]
pub struct Args {
    /// The PDF file to write.
    #[arg(short = 'o', long, value_name = "FILE.pdf")]
    out: PathBuf,
    /// Generate puzzles of this size (WxH).
    #[arg(long, value_name = "WxH")]
    size: Option<Dims>,
    /// How many puzzles to generate.
    #[arg(long, default_value = "20")]
    count: usize,
    /// The fleet of generated puzzles (default: the magazine fleet for the size).
    #[arg(long)]
    fleet: Option<String>,
    /// The grades of generated puzzles, taken in turn: one, or several separated by commas
    /// (`medium,hard`); any grade when not given.
    #[arg(long, value_delimiter = ',')]
    difficulty: Vec<Grade>,
    /// Generate Digital Battleships puzzles: a digit on every cell, and each line's number the
    /// sum of the digits under its ships (takes no --difficulty).
    #[arg(long, conflicts_with = "difficulty")]
    digital: bool,
    /// The seed: the same seed gives the same book, on any number of cores.
    #[arg(long, default_value = "0")]
    seed: u64,
    /// Instead of generating, the puzzles of these files or folders (every puzzle file in a
    /// folder, in name order; a `.jsonl` file holds many).
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with_all = ["size", "fleet", "difficulty", "digital"])]
    from: Vec<PathBuf>,
    /// Puzzles a page: 1, 2 or 4.
    #[arg(long, default_value = "2", value_parser = clap::value_parser!(u8).range(1..=4))]
    per_page: u8,
    /// The title on the first page (default: "Battleship puzzles", or "Digital Battleships
    /// puzzles" with --digital).
    #[arg(long)]
    title: Option<String>,
    /// Give up on a puzzle after this many seconds (generating it, or proving it unique).
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    time_limit: f64,
}

/// A bar on standard error while the puzzles are made, at a terminal.
fn bar(n: usize, what: &str) -> ProgressBar {
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::new(n as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} puzzles {what}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The puzzles of the files and folders named by `--from`.
fn read_from(paths: &[PathBuf]) -> Result<Vec<ProblemSpec>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| usage(format!("{}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    let mut specs = Vec::new();
    for f in files {
        specs.extend(read_problems(&f.to_string_lossy())?);
    }
    if specs.is_empty() {
        return Err(usage("--from: no puzzle in the files given"));
    }
    Ok(specs)
}

/// `spec` proved unique again (within `limit`), solved and graded; an error naming it when it
/// has no solution or several.
fn proved(spec: ProblemSpec, limit: Duration) -> Result<BookPuzzle> {
    let p = broadside::answer::build(spec)?;
    let opts = CountOptions {
        limit: Some(2),
        time_limit: Some(limit),
        ..CountOptions::default()
    };
    let r = Engine::Auto.count(&p, &opts)?;
    if !r.complete && r.count < 2 {
        return Err(broadside::Error::Stopped(format!(
            "{}: uniqueness not proved within the time limit",
            label(&p)
        ))
        .into());
    }
    if r.count != 1 {
        let what = if r.count == 0 {
            "no solution"
        } else {
            "more than one solution"
        };
        return Err(usage(format!(
            "{}: {what}: a book's puzzles have one each",
            label(&p)
        )));
    }
    let solution = Engine::Auto
        .solve(&p)
        .ok_or_else(|| broadside::Error::Internal("a unique puzzle with no solution".into()))?;
    let grade = logic::grade(&p).ok();
    let mut spec = p.given().clone();
    spec.solution = None;
    spec.progress.clear();
    Ok(BookPuzzle {
        spec,
        solution,
        grade,
    })
}

pub fn run(args: &Args) -> Result<bool> {
    if !pdf::is_pdf(&args.out)? {
        return Err(usage(format!(
            "{}: a book is a PDF file (render writes one puzzle as SVG)",
            args.out.display()
        )));
    }
    let limit = seconds(args.time_limit)?;
    let specs: Vec<ProblemSpec> = if !args.from.is_empty() {
        read_from(&args.from)?
    } else {
        let dims = args
            .size
            .ok_or_else(|| usage("give --size WxH to generate the puzzles, or --from FILES"))?
            .supported()
            .map_err(broadside::Error::from)?;
        if args.count == 0 || args.count > 10_000 {
            return Err(usage("--count must be 1 to 10,000"));
        }
        let fleet = args
            .fleet
            .as_deref()
            .map(|f| Fleet::parse(f, &[]).map_err(|e| usage(format!("--fleet: {e}"))))
            .transpose()?;
        let bar = bar(args.count, "generated");
        let done = AtomicU64::new(0);
        // Puzzle i from its own stream of the seed, its grade the i-th of those asked in
        // turn: the same book on any number of cores.
        let made: Vec<Result<ProblemSpec>> = (0..args.count)
            .into_par_iter()
            .map(|i| {
                let mut opts = GenerateOptions::new(dims);
                opts.fleet = fleet.clone();
                opts.digital = args.digital;
                opts.time_limit = limit;
                opts.difficulty = (!args.difficulty.is_empty())
                    .then(|| args.difficulty[i % args.difficulty.len()]);
                let mut rng = broadside::rng::stream(args.seed, i as u64, 0);
                let spec = generate::generate(&opts, &mut rng)
                    .map_err(|e| anyhow::anyhow!("puzzle {} of {}: {e}", i + 1, args.count))?;
                bar.set_position(done.fetch_add(1, Ordering::Relaxed) + 1);
                Ok(spec)
            })
            .collect();
        bar.finish_and_clear();
        made.into_iter().collect::<Result<_>>()?
    };
    let bar = bar(specs.len(), "proved unique");
    let done = AtomicU64::new(0);
    let mut puzzles: Vec<BookPuzzle> = specs
        .into_par_iter()
        .map(|s| {
            let p = proved(s, limit);
            bar.set_position(done.fetch_add(1, Ordering::Relaxed) + 1);
            p
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    // Easiest first; the order given within a grade.
    puzzles.sort_by_key(|p| p.grade.unwrap_or(Grade::Extreme));
    let pages = book_pages(
        &puzzles,
        &BookOptions {
            title: args.title.clone().unwrap_or_else(|| {
                match args.digital {
                    true => "Digital Battleships puzzles",
                    false => "Battleship puzzles",
                }
                .into()
            }),
            per_page: usize::from(args.per_page),
        },
    );
    output::write_whole(&args.out, pdf::pdf(&pages)?)?;
    eprintln!(
        "{}: {} puzzles, {} pages",
        args.out.display(),
        puzzles.len(),
        pages.len()
    );
    Ok(true)
}
