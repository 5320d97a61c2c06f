//! `broadside render`: a puzzle (or a game state) drawn as puzzle books print it, as an SVG or
//! a PDF file; with `--solution` its solution, with `--progress` a person's marks.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use broadside::answer::{self, GradeReport, label};
use broadside::output;
use broadside::publish::{PictureOptions, picture};
use broadside::{Engine, Problem};

use crate::args::Input;
use crate::pdf;
use crate::usage;

/// The options of `render`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// The file to write: `.svg` or `.pdf`.
    #[arg(short = 'o', long, value_name = "FILE")]
    out: PathBuf,
    /// Draw the solution too (grey over what is given; the first found when there are
    /// several, with a warning).
    #[arg(long)]
    solution: bool,
    /// Draw the problem's progress (a person's marks, in grey).
    #[arg(long)]
    progress: bool,
    /// The side of a cell, in millimetres.
    #[arg(long, value_name = "MM", default_value = "8")]
    cell: f64,
    /// The caption above the grid (default: the name and, for a puzzle, its grade).
    #[arg(long)]
    caption: Option<String>,
    /// Leave the fleet out.
    #[arg(long)]
    no_fleet: bool,
}

/// The caption a puzzle gets: its name, and its grade when it has one (within a second).
fn caption(p: &Problem) -> Option<String> {
    let name = p.spec().meta.name.clone();
    let puzzle = !p.spec().rows.is_empty() && p.spec().observations.shots.is_empty();
    let grade = match puzzle {
        true => match answer::grade(
            p,
            &answer::Options::new().time_limit(Duration::from_secs(1)),
        ) {
            Ok(GradeReport::Graded(g)) => Some(g.grade.to_string()),
            _ => None,
        },
        false => None,
    };
    match (name, grade) {
        (Some(n), Some(g)) => Some(format!("{n} · {g}")),
        (Some(n), None) => Some(n),
        (None, Some(g)) => Some(g),
        (None, None) => None,
    }
}

pub fn run(args: &Args) -> Result<bool> {
    let pdf_out = pdf::is_pdf(&args.out)?;
    if !(2.0..=40.0).contains(&args.cell) {
        return Err(usage("--cell must be 2 to 40 millimetres"));
    }
    let p = answer::build(args.input.single()?)?;
    let solution = match args.solution {
        false => None,
        true => {
            let found = Engine::Auto.solve(&p).ok_or_else(|| {
                broadside::Error::Request(format!("{}: no solution to draw", label(&p)))
            })?;
            let to_two = broadside::CountOptions {
                limit: Some(2),
                ..Default::default()
            };
            if Engine::Auto.count(&p, &to_two).is_ok_and(|r| r.count > 1) {
                eprintln!(
                    "broadside: warning: {} has more than one solution; drawing one",
                    label(&p)
                );
            }
            Some(found)
        }
    };
    let opts = PictureOptions {
        cell: args.cell,
        caption: args.caption.clone().or_else(|| caption(&p)),
        solution,
        progress: args.progress,
        fleet: !args.no_fleet,
    };
    // The problem as given: a game's shots are drawn as shots, not as the clues they imply.
    let drawn = picture(p.given(), &opts);
    if pdf_out {
        output::write_whole(&args.out, pdf::pdf(&[drawn])?)?;
    } else {
        output::write_whole(&args.out, drawn.svg())?;
    }
    Ok(true)
}
