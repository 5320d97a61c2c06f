//! `broadside gains`: what a shooter's departures from `density:50.1` are worth, shot by shot,
//! in the games `simulate --out` wrote (the performance difference lemma).

use anyhow::Result;
use serde::{Deserialize, Serialize};

use broadside::play::{Gains, GameGains, gains};

use crate::args::{read_problems, seconds};
use crate::interrupt;
use crate::journal::{Journal, JournalArgs, Run};
use crate::report::{Printer, progress_bar};

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
    #[command(flatten)]
    journal: JournalArgs,
}

/// The first line of an --out file: the run its games belong to.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    /// Games given.
    games: usize,
    layouts: usize,
    seed: u64,
}

impl Run for Header {
    const WRITER: &'static str = "gains --out";
    const ITEM: &'static str = "game";
    fn items(&self) -> usize {
        self.games
    }
    fn describe(&self) -> String {
        format!(
            "{} games measured with --layouts {} --seed {}",
            self.games, self.layouts, self.seed
        )
    }
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
    let (journal, kept) = args.journal.open(&header, |i, g: &GameGains| {
                let record = &games[i];
                if record.meta.name != g.name || record.observations.shots.len() != g.shots {
                    return Err(format!(
                        "game {} was another game ({} shots, not {}): resume with the same files in the same order",
                        i + 1,
                        g.shots,
                        record.observations.shots.len()
                    ));
                }
                Ok(())
            })?;
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
    let result = gains(&run, stop, &|i, game, done| {
        bar.set_position(done);
        if let Some(journal) = &journal {
            journal.keep(i, game, stop);
        }
    });
    bar.finish_and_clear();
    Journal::finish(journal)?;
    let mut table = result?;
    let mut printer = Printer::new(args.json);
    if args.json {
        if !args.each {
            table.each.clear();
        }
        printer.push(&args.journal.json(&table, resumed)?)?;
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
        if args.journal.resume {
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
    Ok(table.complete || interrupt::partial(table.games, asked, args.journal.then()))
}
