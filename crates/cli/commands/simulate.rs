//! `broadside simulate`: many games of one shooter against one placer, and the shots they
//! took.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use broadside::answer::ShotsFile;
use broadside::format::{self, json::JsonProblem};
use broadside::output;
use broadside::play::{Book, PlacerKind, Setup, ShooterKind, Simulation, simulate_each};
use broadside::sample::SamplerKind;

use crate::args::{GameArgs, placer_help, seconds, shooter_help};
use crate::report::{Printer, describe, figures, progress_bar};
use crate::{interrupt, usage};

/// The options of `simulate`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(long, help = shooter_help("Who shoots"))]
    shooter: ShooterKind,
    /// The sampler of a sampled shooter (its sampler= parameter): uniform (exact) or weighted
    /// (Naslausky & Figueiredo's).
    #[arg(long)]
    sampler: Option<SamplerKind>,
    #[arg(long, default_value = "uniform", help = placer_help("Who places"))]
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
    /// Stop after this many seconds: the games under way are given up, the summary is of the games
    /// played, marked partial (as after Ctrl-C, with exit 0); --resume plays on.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Machine-readable output: the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Write every game, with its hidden layout as the solution, to this file, a JSON problem
    /// a line (any command reads it back).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Go on with a run that was cut short: the games already in the --out file are kept (a
    /// last line cut mid-way is dropped), checked to be this run's first games, and the run
    /// plays on from the next; the summary is the whole run's.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Write the shots of every game to this shots file, with the command that plays them
    /// again: a compact record of the run (`summarize` reads it; docs/RESULTS.md).
    #[arg(long, value_name = "FILE")]
    shots: Option<PathBuf>,
    /// While the run goes on, write the --shots file again (whole, with the games played so
    /// far, in order) once this many seconds have passed since it last was: a run killed
    /// outright keeps them, and a long run's file can be summarised as it goes. 0: after
    /// every game.
    #[arg(long, value_name = "SECONDS", default_value = "60", requires = "shots")]
    save_every: f64,
    /// Start exact play from the heat maps kept in this book file, when it exists, and write
    /// the book back with what this run counted (docs/PLAY.md).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// A book for the run's games under `setup`, with the positions of the book file at `path`
/// when there is one.
fn open_book(setup: &Setup, path: &Path) -> Result<Arc<Book>> {
    let book = Book::for_run(setup);
    read_book(&book, path)?;
    Ok(book)
}

/// Adds the positions of the book file at `path`, when there is one, to `book`.
fn read_book(book: &Book, path: &Path) -> Result<()> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let name = path.display().to_string();
            let content = String::from_utf8(bytes)
                .map_err(|_| usage(format!("{name}: not a book (not UTF-8 text)")))?;
            book.load(&name, &content).map_err(broadside::Error::from)?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    }
    Ok(())
}

/// Writes `book` to `path` whole or not at all, with the positions another run wrote there
/// since this one read it: two runs on one book add up rather than the last one winning.
/// Reading and writing hold an exclusive lock on the book's folder (the book itself is
/// replaced by a rename, so a lock on it would not be shared), so two runs ending at once
/// take turns; where the folder cannot be locked, they merge without it.
fn save_book(book: &Book, path: &Path) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let lock = std::fs::File::open(folder)
        .ok()
        .filter(|f| f.lock().is_ok());
    read_book(book, path)?;
    output::write_whole_with(path, |w| book.save(w).map(|_| ()))?;
    drop(lock);
    Ok(())
}

/// Writes `file` to `path`, whole or not at all.
fn save_shots(path: &Path, file: &ShotsFile) -> Result<(), output::OutputError> {
    let text = serde_json::to_string(file).expect("a shots file always prints as JSON");
    output::write_whole(path, format!("{text}\n").as_bytes())
}

/// The `broadside` arguments that play `sim`'s games again, but for `--games` and `--first`:
/// the game as given (its file, or every option spelled out, so a change of defaults does
/// not change the games), the shooter, the placer and the seed.
fn replay_argv(args: &Args, sim: &Simulation) -> Vec<String> {
    let mut argv: Vec<String> = vec![
        "simulate".into(),
        "--shooter".into(),
        sim.shooter.to_string(),
    ];
    if sim.placer != PlacerKind::Uniform {
        argv.extend(["--placer".into(), sim.placer.to_string()]);
    }
    argv.extend(["--seed".into(), sim.seed.to_string()]);
    match &args.game.file {
        Some(file) => argv.push(file.clone()),
        None => {
            let s = &sim.setup;
            argv.extend([
                "--size".into(),
                s.dims.to_string(),
                "--fleet".into(),
                s.fleet.describe(),
                "--rules".into(),
                s.rules.to_string(),
                "--sinking".into(),
                s.sinking.to_string(),
            ]);
        }
    }
    argv
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
    // What the run writes is checked before the first game, not after the last.
    for path in [&args.book, &args.out, &args.shots].into_iter().flatten() {
        output::check_writable(path).map_err(|e| usage(e.to_string()))?;
    }
    let book = match &args.book {
        Some(path) => Some((path, open_book(&setup, path)?)),
        None => None,
    };
    let mut sim = Simulation {
        setup,
        shooter,
        placer: args.placer.clone(),
        games: args.games,
        first: args.first,
        seed: args.seed,
        book: book.as_ref().map(|(_, b)| b.clone()),
    };
    let (first, games) = (sim.first, sim.games);
    if games == 0 {
        return Err(usage("--games: there must be at least one game"));
    }
    // The games a cut-short run already wrote, when resuming it.
    let mut shots: Vec<u32> = Vec::new();
    let mut out = match &args.out {
        Some(path) if args.resume && path.exists() => {
            let (lines, old) = output::Lines::resume(path)?;
            let name = path.display().to_string();
            let records = if old.iter().all(|l| l.trim().is_empty()) {
                Vec::new()
            } else {
                format::read(&name, &old.join("\n")).map_err(broadside::Error::from)?
            };
            let kept = sim
                .kept_games(&records)
                .map_err(|e| usage(format!("{name}: {e}")))?;
            if kept > games {
                return Err(usage(format!(
                    "{name} holds {kept} games, more than the {games} asked for"
                )));
            }
            shots.extend(records.iter().map(|r| r.observations.shots.len() as u32));
            sim.first += kept;
            sim.games -= kept;
            Some(lines)
        }
        // A new file is made when the first game is done: a request the library refuses
        // leaves an old file there as it was.
        _ => None,
    };
    let mut create = args.out.as_deref().filter(|_| out.is_none());
    let kept = shots.len() as u64;
    let argv = replay_argv(args, &sim);
    if args.save_every.is_nan() || args.save_every < 0.0 {
        return Err(usage("--save-every must be a number of seconds, 0 or more"));
    }
    let save_every = Duration::try_from_secs_f64(args.save_every).unwrap_or(Duration::MAX);
    // The shots file of the games played so far.
    let shots_file = |shots: Vec<u32>| ShotsFile {
        argv: argv.clone(),
        seed: sim.seed,
        first,
        games: shots.len() as u64,
        shots,
    };
    let mut saved = Instant::now();
    let mut write_error = None;
    let stop = interrupt::stop_on_ctrl_c_or_after(args.time_limit.map(seconds).transpose()?);
    let bar = progress_bar(sim.games);
    let summary = if sim.games == 0 {
        None
    } else {
        Some(simulate_each(
            &sim,
            &|done| bar.set_position(done),
            stop,
            &mut |p| {
                shots.push(p.shots as u32);
                // The game's record first, then the shots file: that never holds a game the
                // --out file does not.
                if let Some(path) = create.take() {
                    match output::Lines::create(path) {
                        Ok(lines) => out = Some(lines),
                        Err(e) => {
                            write_error = Some(e);
                            return false;
                        }
                    }
                }
                if let Some(lines) = &mut out {
                    let line = serde_json::to_string(&JsonProblem::from_spec(&p.record))
                        .expect("a game record always prints as JSON");
                    if let Err(e) = lines.push(&line) {
                        write_error = Some(e);
                        return false;
                    }
                }
                if let Some(path) = &args.shots
                    && saved.elapsed() >= save_every
                {
                    saved = Instant::now();
                    if let Err(e) = save_shots(path, &shots_file(shots.clone())) {
                        write_error = Some(e);
                        return false;
                    }
                }
                true
            },
        ))
    };
    bar.finish_and_clear();
    // The book is kept even when the run fails: what it counted is still right.
    if let Some((path, book)) = book {
        save_book(&book, path)?;
    }
    let summary = summary.transpose()?;
    let complete = summary.as_ref().is_none_or(|s| s.complete);
    // The shots file holds the games played, also when the run was cut short.
    let file = shots_file(shots);
    if let Some(path) = &args.shots {
        save_shots(path, &file)?;
    }
    if file.games == 0 && write_error.is_none() {
        // Stopped before any game ended: nothing to summarise (as `match` and `accuracy`).
        return Err(broadside::Error::Stopped(
            "the run was stopped before any game finished".into(),
        )
        .into());
    }
    let mut printer = Printer::new(args.json);
    match (&summary, kept) {
        (Some(summary), 0) => print_summary(&mut printer, args.json, summary, &sim)?,
        // Resumed: the whole run, the games kept and those played now.
        _ => {
            let mut s = file.summary();
            let played: f64 = file.shots.iter().map(|&n| f64::from(n)).sum();
            s.hit_ratio = Some(sim.setup.fleet.cell_count() as f64 * s.games as f64 / played);
            if args.json {
                let mut v = serde_json::to_value(&s)?;
                v["shooter"] = sim.shooter.to_string().into();
                v["placer"] = sim.placer.to_string().into();
                v["complete"] = complete.into();
                v["resumed"] = kept.into();
                printer.push(&v)?;
            } else {
                let w = printer.out();
                writeln!(
                    w,
                    "{} against the {} placer, {}: {} games ({kept} kept from the --out file)",
                    sim.shooter,
                    sim.placer,
                    describe(&sim.setup),
                    s.games
                )?;
                let f = figures(s.mean, s.ci95, s.sd, s.median, s.min, s.max);
                writeln!(w, "  {f}")?;
            }
        }
    }
    printer.finish()?;
    let kept_lines = |lines: &Option<output::Lines>| {
        lines.as_ref().map_or(String::new(), |l| {
            format!("; the first {} are in {}", l.lines(), l.path().display())
        })
    };
    let done = file.games;
    if let Some(e) = write_error {
        return Err(anyhow::Error::from(e).context(format!(
            "the run stopped after {done} of {games} games{}",
            kept_lines(&out)
        )));
    }
    if !complete {
        let then = format!(
            "{} (--resume, or --first {}, plays on from there)",
            kept_lines(&out),
            first + done
        );
        return Ok(interrupt::partial(done, games, &then));
    }
    Ok(true)
}

/// Prints the summary of a run played in one go.
fn print_summary(
    printer: &mut Printer,
    json: bool,
    summary: &broadside::play::Summary,
    sim: &Simulation,
) -> Result<()> {
    if json {
        printer.push(summary)?;
    } else {
        let s = summary;
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
        let f = figures(s.mean, s.ci95, s.sd, s.median, s.min, s.max);
        writeln!(w, "  {f}")?;
        writeln!(
            w,
            "  hit ratio {:.4}, {:.3} ms per game",
            s.hit_ratio,
            s.seconds_per_game * 1e3
        )?;
    }
    Ok(())
}
