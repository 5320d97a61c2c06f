//! `broadside simulate`: many games of one shooter against one placer, and the shots they
//! took.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};

use broadside::format::json::JsonProblem;
use broadside::play::{Book, PlacerKind, Setup, ShooterKind, Simulation, simulate};
use broadside::sample::SamplerKind;

use crate::args::GameArgs;
use crate::report::{Printer, describe, progress_bar};
use crate::usage;

/// The options of `simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Who shoots: random, hunt-target, parity, checkerboard, knight, density, greedy (exact),
    /// mp:X, sampled:N, lookahead:D (or lookahead:D.Y.X), endgame:N, rollout:N or mcts:N; see
    /// docs/PLAY.md.
    #[arg(long)]
    shooter: ShooterKind,
    /// The sampler of a sampled:N shooter: uniform (exact) or weighted (Naslausky & Figueiredo's).
    #[arg(long)]
    sampler: Option<SamplerKind>,
    /// Who places: uniform (exactly uniform over legal layouts), sequential, ed1, ed2, pk,
    /// pk:AxB, each of those four with -sp (separated), adversarial:SHOOTER or file:PATH.
    #[arg(long, default_value = "uniform")]
    placer: PlacerKind,
    /// How many games.
    #[arg(long, default_value = "1000")]
    games: u64,
    /// Play the games numbered from N + 1 on: a long run in parts, each the same games as in
    /// the whole run (sum their --out files up with `broadside summarize`).
    #[arg(long, value_name = "N", default_value = "0")]
    first: u64,
    /// The seed: the same seed gives the same games, whatever the number of threads.
    #[arg(long, default_value = "0")]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
    /// Machine-readable output: the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Write every game, with its hidden layout as the solution, to this file, a JSON problem
    /// a line (any command reads it back).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Start exact play from the heat maps kept in this book file, when it exists, and write
    /// the book back with what this run counted (docs/PLAY.md).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// A book for the run's games under `setup`, with the positions of the book file at `path`
/// when there is one.
fn open_book(setup: &Setup, path: &Path) -> Result<Arc<Book>> {
    let book = Book::for_run(setup);
    match std::fs::read_to_string(path) {
        Ok(content) => {
            book.load(&path.display().to_string(), &content)
                .map_err(broadside::Error::from)?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    }
    Ok(book)
}

/// Writes `book` to `path` whole or not at all: to a file beside it, then renamed over it.
fn save_book(book: &Book, path: &Path) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = PathBuf::from(tmp);
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?,
    );
    book.save(&mut f)
        .and_then(|_| f.flush())
        .with_context(|| format!("writing {}", tmp.display()))?;
    drop(f);
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

pub fn run(args: &Args) -> Result<bool> {
    let shooter = match (args.shooter, args.sampler) {
        (ShooterKind::Sampled { boards, .. }, Some(sampler)) => {
            ShooterKind::Sampled { boards, sampler }
        }
        (_, Some(_)) => {
            return Err(usage("--sampler is for a sampled:N shooter"));
        }
        (shooter, None) => shooter,
    };
    let setup = args.game.setup()?;
    let book = match &args.book {
        Some(path) => Some((path, open_book(&setup, path)?)),
        None => None,
    };
    let sim = Simulation {
        setup,
        shooter,
        placer: args.placer.clone(),
        games: args.games,
        first: args.first,
        seed: args.seed,
        book: book.as_ref().map(|(_, b)| b.clone()),
    };
    let bar = progress_bar(sim.games);
    let played = simulate(&sim, &|done| bar.set_position(done));
    bar.finish_and_clear();
    // The book is kept even when the run fails: what it counted is still right.
    if let Some((path, book)) = book {
        save_book(&book, path)?;
    }
    let (summary, played) = played?;
    if let Some(path) = &args.out {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        );
        for p in &played {
            writeln!(
                f,
                "{}",
                serde_json::to_string(&JsonProblem::from_spec(&p.record))?
            )?;
        }
        f.flush()?;
    }
    let mut printer = Printer::new(args.json);
    if args.json {
        printer.push(&summary)?;
    } else {
        let s = &summary;
        let setup = &sim.setup;
        let w = printer.out();
        writeln!(
            w,
            "{} against the {} placer, {}: {} games",
            s.shooter,
            s.placer,
            describe(setup),
            s.games
        )?;
        writeln!(
            w,
            "  mean {:.2} shots (95% CI {:.2} to {:.2}), sd {:.2}, median {}, min {}, max {}",
            s.mean, s.ci95[0], s.ci95[1], s.sd, s.median, s.min, s.max
        )?;
        writeln!(
            w,
            "  hit ratio {:.4}, {:.3} ms per game",
            s.hit_ratio,
            s.seconds_per_game * 1e3
        )?;
    }
    printer.finish()?;
    Ok(true)
}
