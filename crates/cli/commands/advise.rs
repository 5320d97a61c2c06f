//! `broadside advise`: a prompt for someone playing elsewhere. They type what their shots
//! reported, and after each line see the exact heat map and where to fire next.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result};

use broadside::answer::{self, NoLayout, ProbsReport};
use broadside::format::text;
use broadside::observe::parse_shot;
use broadside::output;
use broadside::play::{Adviser, Counting, Setup, ShooterKind};
use broadside::{CountOptions, Engine, ProblemSpec};

use crate::args::{ColorChoice, Input, SetupOptions, TimeLimit, shooter_help};
use crate::report::ask;
use crate::usage;

/// The options of `advise`.
#[derive(clap::Args)]
pub struct Args {
    /// A game record to start from, its shots included; instead of --size, --fleet, --rules
    /// and --sinking.
    file: Option<String>,
    #[command(flatten)]
    options: SetupOptions,
    /// The engine: auto, enum, sat or dp.
    #[arg(long, default_value = "auto")]
    engine: Engine,
    #[command(flatten)]
    limit: TimeLimit,
    /// Colour the heat map: auto (a terminal without NO_COLOR), always or never.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    #[arg(long, value_name = "SHOOTER", help = shooter_help("Also say where this shooter fires next (strongest, say), after the exact best shot"))]
    shooter: Option<ShooterKind>,
    /// The seed of --shooter's random numbers.
    #[arg(long, default_value = "0", requires = "shooter")]
    seed: u64,
}

const HELP: &str = "\
Type what each shot reported, one per line:
  B5 miss          no ship at B5
  C5 hit           a ship at C5, not sunk
  D5 sunk 3        a hit that sank a ship of type 3 (its name, or a straight ship's length)
  D5 sunk 3 D3 D4 D5   the same, the sunk ship's cells shown (sinking: revealed)
  E2 sonar 3       a sonar ping: the nearest ship cell is 3 away
and: undo (take back the last shot), save FILE (write the game record), show (the map
again), help, quit. A line that cannot be true is refused and changes nothing.";

/// The position and how to answer it.
struct Advisor {
    spec: ProblemSpec,
    engine: Engine,
    opts: CountOptions,
    colour: bool,
    /// The shooter asked where it fires next, if any.
    adviser: Option<Adviser>,
}

impl Advisor {
    /// Prints the heat map and the best shot of the position; an error when no layout fits,
    /// saying why, and the position is then not a possible one.
    fn analyse(&mut self, out: &mut dyn Write) -> Result<std::result::Result<(), String>> {
        let p = match answer::build(self.spec.clone()) {
            Ok(p) => p,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let shots = self.spec.observations.shots.len();
        // A position the engine cannot answer (the DP and a sonar reading, say) is refused
        // like an impossible one: the session goes on.
        let report = match answer::probs(
            &p,
            &answer::Options::new()
                .engine(self.engine)
                .counting(self.opts.clone()),
        ) {
            Ok(r) => r,
            Err(e) => return Ok(Err(e.to_string())),
        };
        match report {
            ProbsReport::NoLayout(no) => {
                let mut why = vec![NoLayout::HEADLINE.to_string()];
                why.extend(no.why());
                Ok(Err(why.join("\n  ")))
            }
            ProbsReport::NoMap(no) => {
                writeln!(out, "after {shots} shots: no heat map: {}", no.reason)?;
                self.shooter_says(out)?;
                Ok(Ok(()))
            }
            ProbsReport::Map(h) => {
                let best = h.best(p.dims());
                writeln!(
                    out,
                    "after {shots} shot{}: {} layouts [{} engine]{}",
                    if shots == 1 { "" } else { "s" },
                    h.layouts,
                    h.engine,
                    if h.complete {
                        ""
                    } else {
                        " (partial: the time limit ran out; lower bounds)"
                    }
                )?;
                write!(out, "{}", h.map.render_text(self.colour))?;
                match (best.cells.first(), best.probability) {
                    (Some(_), Some(prob)) => {
                        let names: Vec<&str> = best.cells.iter().map(|c| c.cell.as_str()).collect();
                        writeln!(
                            out,
                            "best: {} (probability {prob:.4}, {} of {} layouts)",
                            names.join(" "),
                            best.cells[0].count,
                            best.layouts
                        )?;
                    }
                    (None, Some(_)) => writeln!(out, "best: no open cell can hold a ship")?,
                    _ => writeln!(out, "best: not known (the count is partial)")?,
                }
                self.shooter_says(out)?;
                Ok(Ok(()))
            }
        }
    }

    /// Acts on one line; false to stop.
    fn line(&mut self, line: &str, out: &mut dyn Write) -> Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return Ok(true);
        };
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "show" => self.show(out)?,
            "undo" => match self.spec.observations.shots.pop() {
                None => writeln!(out, "nothing to undo")?,
                Some(shot) => {
                    let d = self.spec.dims;
                    writeln!(out, "took back {}", d.cell_name(shot.cell))?;
                    self.show(out)?;
                }
            },
            "save" => {
                let path = line.trim()[first.len()..].trim();
                if path.is_empty() {
                    writeln!(out, "save what file? (save FILE)")?;
                } else {
                    match output::write_whole(Path::new(path), text::print(&self.spec)) {
                        Ok(()) => writeln!(
                            out,
                            "saved {} shots to {path}",
                            self.spec.observations.shots.len()
                        )?,
                        Err(e) => writeln!(out, "could not save: {e}")?,
                    }
                }
            }
            _ => self.shot(line, out)?,
        }
        Ok(true)
    }

    /// Where the --shooter fires next: `shooter WORD: CELL` (nothing without one, or once
    /// the game is over).
    fn shooter_says(&mut self, out: &mut dyn Write) -> Result<()> {
        let Some(adviser) = self.adviser.as_mut() else {
            return Ok(());
        };
        let setup = Setup::of(&self.spec);
        if let Some(cell) = adviser.choose(&setup, &self.spec.observations.shots) {
            let name = self.spec.dims.cell_name(cell);
            writeln!(out, "shooter {}: {name}", adviser.kind())?;
        }
        Ok(())
    }

    fn show(&mut self, out: &mut dyn Write) -> Result<()> {
        if let Err(why) = self.analyse(out)? {
            writeln!(out, "{why}")?;
        }
        Ok(())
    }

    /// Records a shot line, or refuses it and says why.
    fn shot(&mut self, line: &str, out: &mut dyn Write) -> Result<()> {
        let shot = match parse_shot(self.spec.dims, &self.spec.fleet, line) {
            Ok(shot) => shot,
            Err(e) => {
                writeln!(
                    out,
                    "refused {:?}: {e} (type help for the forms)",
                    line.trim()
                )?;
                return Ok(());
            }
        };
        self.spec.observations.shots.push(shot);
        if let Err(why) = self.analyse(out)? {
            self.spec.observations.shots.pop();
            writeln!(out, "refused {:?}: {why}", line.trim())?;
        }
        Ok(())
    }
}

pub fn run(args: &Args) -> Result<bool> {
    let spec = match &args.file {
        Some(_) if args.options.any() => {
            return Err(usage(
                "a game record gives the board, fleet, rules and sinking: give it or the options, not both",
            ));
        }
        Some(file) => Input {
            file: Some(file.clone()),
            size: None,
            fleet: None,
            rules: None,
        }
        .single()?,
        None => args.options.setup()?.empty(),
    };
    // The starting position must be a possible one, and well formed.
    answer::build(spec.clone())?;
    let time_limit = args.limit.duration()?;
    let mut advisor = Advisor {
        spec,
        engine: args.engine,
        opts: CountOptions {
            time_limit,
            parallel: true,
            ..CountOptions::default()
        },
        colour: args.color.enabled(),
        adviser: args.shooter.map(|kind| {
            let counting = Counting {
                time_limit,
                ..Counting::default()
            };
            Adviser::new(kind, counting, args.seed)
        }),
    };
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut out = std::io::stdout().lock();
    if interactive {
        writeln!(out, "{HELP}\n")?;
    }
    if let Err(why) = advisor.analyse(&mut out)? {
        writeln!(out, "{why}")?;
        return Ok(false);
    }
    let mut input = stdin.lock();
    let mut line = String::new();
    let prompt = if interactive { "> " } else { "" };
    while ask(&mut out, &mut input, prompt, &mut line)? {
        if !advisor.line(&line, &mut out)? {
            break;
        }
    }
    out.flush().context("writing to standard output")?;
    Ok(true)
}
