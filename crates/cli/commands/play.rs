//! `broadside play`: a person against the computer in the terminal. Both boards are shown;
//! the person types cells, the computer answers with its shooter, and the game record is
//! written after every turn, so that neither the end of the game, end of input nor Ctrl-C
//! loses it.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use broadside::CountOptions;
use broadside::answer::{self, ProbsReport};
use broadside::observe::{Shot, ShotResult, print_shot};
use broadside::output;
use broadside::play::{Game, PlacerKind, ShooterKind, Versus};

use crate::args::{ColorChoice, GameArgs, placer_help, seconds, shooter_help};
use crate::report::ask;
use crate::{interrupt, usage};

/// The record's name when --save is not given.
const DEFAULT_RECORD: &str = "broadside-game.txt";

/// The options of `play`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[arg(long, default_value = "greedy", help = shooter_help("How the computer fires"))]
    shooter: ShooterKind,
    #[arg(long, default_value = "uniform", help = placer_help("How the computer hides its fleet"))]
    placer: PlacerKind,
    /// How your fleet is placed: uniform (at random for you), or file:PATH for your own layout
    /// (the first of the file's solutions or layouts).
    #[arg(long, default_value = "uniform")]
    my_placer: PlacerKind,
    /// The seed of both fleets and the computer's choices (by default one from the clock,
    /// written in the record).
    #[arg(long)]
    seed: Option<u64>,
    /// After each of the computer's shots, show its exact heat map of your board.
    #[arg(long)]
    show_heat: bool,
    /// Where the game record is written, after every shot (by default broadside-game.txt, or
    /// broadside-game-2.txt and on when that exists: an earlier record is never replaced).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Replace the --save file when it exists.
    #[arg(long, requires = "save")]
    force: bool,
    /// Colour: auto (a terminal without NO_COLOR), always or never.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// The longest the computer counts, in seconds: to hide its fleet (past it the game does
    /// not start, exit 3), for each of its shots (past it, it fires as without a map) and for
    /// the --show-heat map (past it, the map shown is marked partial).
    #[arg(long, value_name = "SECONDS", default_value = "10")]
    time_limit: f64,
}

/// What a shot reported, as the record writes it after the cell.
fn reported(game: &Game, cell: usize, result: &ShotResult) -> String {
    let setup = game.setup();
    let line = print_shot(
        setup.dims,
        &setup.fleet,
        &Shot {
            cell,
            result: result.clone(),
        },
    );
    let name = setup.dims.cell_name(cell);
    format!("{name}: {}", line[name.len()..].trim())
}

/// The rows of one board: the person's own shows its ships; the computer's only the shots
/// (and its ships once `reveal`).
fn board(game: &Game, show_ships: bool, colour: bool) -> Vec<String> {
    let d = game.setup().dims;
    let mut ship = vec![false; d.cells()];
    for c in game.layout().cells() {
        ship[c] = true;
    }
    let paint = |s: &str, code: &str| {
        if colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let mut rows = vec![format!(
        "    {}",
        (0..d.width)
            .map(|c| format!("{:>2}", broadside::geom::column_name(c)))
            .collect::<String>()
    )];
    for r in 0..d.height {
        let mut row = format!("{:>3} ", r + 1);
        for c in 0..d.width {
            let cell = d.index(r, c);
            row.push(' ');
            row.push_str(&match (game.fired(cell), ship[cell]) {
                (true, true) => paint("X", "1;31"),
                (true, false) => paint("o", "34"),
                (false, true) if show_ships => paint("#", "37"),
                _ => ".".to_string(),
            });
        }
        rows.push(row);
    }
    rows
}

/// Both boards side by side.
fn print_boards(out: &mut dyn Write, v: &Versus, colour: bool) -> Result<()> {
    let over = v.winner().is_some();
    let yours = board(v.yours(), true, colour);
    let theirs = board(v.theirs(), over, colour);
    let left = format!("Your fleet ({} shots at it)", v.yours().shots().len());
    // Colour codes take no room on screen: pad by the visible width.
    let visible = 4 + 2 * v.yours().setup().dims.width;
    let width = visible.max(left.chars().count()) + 4;
    writeln!(
        out,
        "\n{left:<width$}The computer's fleet ({} shots)",
        v.theirs().shots().len()
    )?;
    for (a, b) in yours.iter().zip(&theirs) {
        writeln!(out, "{a}{}{b}", " ".repeat(width - visible))?;
    }
    writeln!(out, "X hit, o miss, # your ships")?;
    Ok(())
}

/// Writes the record whole or not at all, so that an interrupted write never leaves half a
/// record behind.
fn save(path: &Path, v: &Versus, reveal: bool) -> Result<()> {
    output::write_whole(path, v.record(reveal))?;
    Ok(())
}

pub fn run(args: &Args) -> Result<bool> {
    let setup = args.game.setup()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let limit = seconds(args.time_limit)?;
    let mut v = Versus::within(
        &setup,
        &args.placer,
        args.shooter,
        &args.my_placer,
        seed,
        Some(limit),
        None,
    )?;
    let colour = args.color.enabled();
    let d = setup.dims;
    let record = match &args.save {
        Some(path) if path.exists() && !args.force => {
            return Err(usage(format!(
                "{} exists: give another --save, or --force to replace it",
                path.display()
            )));
        }
        Some(path) => path.clone(),
        // A record of an earlier game is never replaced: the first free name.
        None => output::free_name(Path::new(DEFAULT_RECORD)),
    };
    save(&record, &v, false)?;
    interrupt::exit_on_ctrl_c(format!(
        "\ninterrupted: the game record is saved in {}\n",
        record.display()
    ));
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "You against the computer ({} shooter, seed {seed}) on {d}, fleet {}, {}, sinking {}.\n\
         Fire by typing a cell (e.g. B5); quit to stop. The record is kept in {}.",
        args.shooter,
        setup.fleet.describe(),
        setup.rules,
        setup.sinking,
        record.display()
    )?;
    let mut input = stdin.lock();
    let mut line = String::new();
    // The computer chooses its shots while the person types (they depend on its own shots
    // alone), the whole game ahead, and fires each at once if it is already chosen. The
    // thread ends with the computer's game, or with the command.
    let ponderer = v.ponderer();
    std::thread::Builder::new()
        .name("broadside-ponder".into())
        .spawn(move || ponderer.ponder(usize::MAX))
        .context("starting the computer's thread")?;
    while v.winner().is_none() {
        print_boards(&mut out, &v, colour)?;
        let answered = ask(&mut out, &mut input, "your shot> ", &mut line)?;
        if !answered {
            writeln!(out)?;
            break;
        }
        if !interactive {
            // Echo piped input, so that a transcript reads like a game.
            write!(out, "{line}")?;
        }
        let word = line.trim();
        if word.is_empty() {
            continue;
        }
        if matches!(word.to_ascii_lowercase().as_str(), "quit" | "exit" | "q") {
            break;
        }
        let cell = match d.parse_cell(word) {
            Ok(cell) => cell,
            Err(e) => {
                writeln!(out, "not a cell: {e}")?;
                continue;
            }
        };
        let result = match v.fire(cell) {
            Ok(result) => result,
            Err(e) => {
                writeln!(out, "{e}")?;
                continue;
            }
        };
        writeln!(out, "you fire at {}", reported(v.theirs(), cell, &result))?;
        // The person's shot is kept before the computer thinks, which may take a while.
        save(&record, &v, false)?;
        if let Some((cell, result)) = v.reply() {
            writeln!(
                out,
                "the computer fires at {}",
                reported(v.yours(), cell, &result)
            )?;
            if args.show_heat && v.winner().is_none() {
                show_heat(&mut out, v.yours(), colour, limit)?;
            }
        }
        save(&record, &v, false)?;
    }
    save(&record, &v, true)?;
    print_boards(&mut out, &v, colour)?;
    match v.winner() {
        Some(w) => writeln!(out, "{}", w.says())?,
        None => writeln!(out, "game stopped")?,
    }
    writeln!(out, "the game record is saved in {}", record.display())?;
    out.flush().context("writing to standard output")?;
    Ok(true)
}

/// The computer's exact heat map of the person's board.
fn show_heat(out: &mut dyn Write, game: &Game, colour: bool, limit: Duration) -> Result<()> {
    let p = answer::build(game.record())?;
    let opts = CountOptions {
        parallel: true,
        time_limit: Some(limit),
        ..CountOptions::default()
    };
    if let ProbsReport::Map(h) = answer::probs(&p, &answer::Options::new().counting(opts))? {
        let partial = if h.complete {
            ""
        } else {
            ", partial: the time limit cut the count short"
        };
        writeln!(
            out,
            "the computer's heat map of your board ({} layouts{partial}):",
            h.layouts
        )?;
        write!(out, "{}", h.map.render_text(colour))?;
    }
    Ok(())
}
