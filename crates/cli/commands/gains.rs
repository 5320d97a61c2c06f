//! `broadside gains`: what a shooter's departures from `density:50.1` are worth, shot by shot,
//! in the games `simulate --out` wrote (the performance difference lemma).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use broadside::ProblemSpec;
use broadside::format::ParseError;
use broadside::output::Lines;
use broadside::play::{Gains, GameGains, gains};

use crate::args::{read_problems, seconds};
use crate::report::{Printer, progress_bar};
use crate::{interrupt, usage};

/// The options of `gains`.
#[derive(clap::Args)]
pub struct Args {
    /// The games, as `simulate --out` writes them (any shooter's; the parts of a run, in
    /// order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Layouts each departure is played out on, drawn exactly uniformly among those its
    /// shots allow (every one of them where there are no more, and the figure is exact).
    #[arg(long, default_value = "2000")]
    layouts: usize,
    /// The seed of the draws.
    #[arg(long, default_value = "1")]
    seed: u64,
    /// Stop after this many seconds: the games under way are given up, the table is of the
    /// games measured, marked partial.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Every departure too (with --json, each game's list; as text, a line each).
    #[arg(long)]
    each: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// Keep each game's figures in this file as it is measured, a JSON line each after a
    /// first line naming the run (docs/JSON.md): a run killed outright keeps them, and
    /// --resume goes on from them.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Go on with a run that was cut short: the games in the --out file (measured with the
    /// same --layouts and --seed, of the same games; a last line cut mid-way is dropped) are
    /// not measured again, and the table is the whole run's.
    #[arg(long, requires = "out")]
    resume: bool,
}

/// The first line of an --out file: the run its games belong to.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    /// Games given.
    games: usize,
    layouts: usize,
    seed: u64,
}

/// A line of an --out file: game `game` (from 1, in the order given), then its figures.
fn line_of(game: usize, gains: &GameGains) -> String {
    let fields = serde_json::to_string(gains).expect("a game's figures print as JSON");
    // `{"game":K,` and the fields, in their own order.
    format!("{{\"game\":{game},{}", &fields[1..])
}

/// Measures the games' departures and prints the gain per game.
pub fn run(args: &Args) -> Result<bool> {
    let limit = args.time_limit.map(seconds).transpose()?;
    let mut games = Vec::new();
    for f in &args.files {
        games.extend(read_problems(f)?);
    }
    let header = Header {
        games: games.len(),
        layouts: args.layouts,
        seed: args.seed,
    };
    let (out, kept) = match &args.out {
        Some(path) => {
            let (mut lines, old) = if args.resume && path.exists() {
                Lines::resume(path)?
            } else {
                (Lines::create(path)?, Vec::new())
            };
            let kept = read_kept(path, &old, &header, &games)?;
            // A new file, or one cut off before its first line was whole, starts with it.
            if old.is_empty() {
                lines.push(&serde_json::to_string(&header)?)?;
            }
            (Some(lines), kept)
        }
        None => (None, Vec::new()),
    };
    let resumed = kept.iter().flatten().count() as u64;
    let run = Gains {
        games,
        layouts: args.layouts,
        seed: args.seed,
        kept,
    };
    let asked = run.games.len() as u64;
    let stop = interrupt::stop_on_ctrl_c_or_after(limit);
    let bar = progress_bar(asked);
    bar.set_position(resumed);
    let out = out.map(Mutex::new);
    let write_error = Mutex::new(None);
    let result = gains(&run, stop, &|i, game, done| {
        bar.set_position(done);
        if let Some(lines) = &out {
            let line = line_of(i + 1, game);
            let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = lines.push(&line) {
                // Stop the run: what is measured from here on could not be kept.
                write_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let kept = out.map_or(0, |l| l.into_inner().map_or(0, |l| l.lines()));
        return Err(anyhow::Error::from(e).context(format!(
            "the run stopped; {} games measured are in the --out file",
            kept.saturating_sub(1)
        )));
    }
    let mut table = result?;
    let mut printer = Printer::new(args.json);
    if args.json {
        if !args.each {
            table.each.clear();
        }
        let mut v = serde_json::to_value(&table)?;
        if args.resume {
            v["resumed"] = resumed.into();
        }
        printer.push(&v)?;
    } else {
        let w = printer.out();
        writeln!(
            w,
            "{} games: {:+.3} shots a game on {} (95% CI {:+.3} to {:+.3}), sd {:.3}, {:.2} departures a game, up to {} layouts each",
            table.games,
            table.gain,
            table.base,
            table.ci95[0],
            table.ci95[1],
            table.sd,
            table.departures,
            table.layouts
        )?;
        if args.resume {
            writeln!(w, "  {resumed} of them kept from the --out file")?;
        }
        let by: Vec<String> = table
            .by_sinkings
            .iter()
            .enumerate()
            .map(|(k, g)| format!("{k}: {g:+.3}"))
            .collect();
        if !by.is_empty() {
            writeln!(w, "  by ships sunk before the departure: {}", by.join(", "))?;
        }
        if args.each {
            for g in &table.each {
                for d in &g.departures {
                    writeln!(
                        w,
                        "  {} shot {}: {} for {} {:+.3} ± {:.3} ({} layouts{})",
                        g.name.as_deref().unwrap_or("game"),
                        d.shot,
                        d.fired,
                        d.base,
                        d.gain,
                        d.se,
                        d.layouts,
                        if d.exact { ", all" } else { "" }
                    )?;
                }
            }
        }
    }
    printer.finish()?;
    Ok(table.complete || interrupt::partial(table.games, asked, ""))
}

/// The games an --out file already holds, an entry per game of `games` (`Some` where it is
/// measured), after checking it was written by this run: the same games, layouts and seed.
/// `lines` are its whole lines.
fn read_kept(
    path: &Path,
    lines: &[String],
    header: &Header,
    games: &[ProblemSpec],
) -> Result<Vec<Option<GameGains>>> {
    let name = path.display().to_string();
    let mut kept = vec![None; games.len()];
    let Some(first) = lines.first() else {
        return Ok(kept);
    };
    // Line `n` of the file is not JSON of the form expected.
    let parse_error = |n: usize, e: serde_json::Error| {
        usage(format!(
            "{} (not as `gains --out` writes)",
            ParseError::from_json(&e, n - 1).in_file(&name)
        ))
    };
    let was: Header = serde_json::from_str(first).map_err(|e| parse_error(1, e))?;
    if &was != header {
        return Err(usage(format!(
            "{name}: line 1: measured {} games with --layouts {} --seed {}, not {} with --layouts {} --seed {}: resume with the same, or write to another file",
            was.games, was.layouts, was.seed, header.games, header.layouts, header.seed
        )));
    }
    for (n, line) in lines.iter().enumerate().skip(1) {
        let n = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        #[derive(Deserialize)]
        struct Game {
            game: usize,
        }
        let m: Game = serde_json::from_str(line).map_err(|e| parse_error(n, e))?;
        let gains: GameGains = serde_json::from_str(line).map_err(|e| parse_error(n, e))?;
        let record = m
            .game
            .checked_sub(1)
            .and_then(|i| games.get(i))
            .ok_or_else(|| {
                usage(format!(
                    "{name}: line {n}: game {} is not among the {} games given",
                    m.game,
                    games.len()
                ))
            })?;
        if record.meta.name != gains.name || record.observations.shots.len() != gains.shots {
            return Err(usage(format!(
                "{name}: line {n}: game {} was another game ({} shots, not {}): resume with the same files in the same order",
                m.game,
                gains.shots,
                record.observations.shots.len()
            )));
        }
        let slot = &mut kept[m.game - 1];
        if slot.is_some() {
            return Err(usage(format!(
                "{name}: line {n}: game {} is there twice",
                m.game
            )));
        }
        *slot = Some(gains);
    }
    Ok(kept)
}
