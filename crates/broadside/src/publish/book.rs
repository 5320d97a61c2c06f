//! A puzzle book's pages: a title page with the rules and an example, the puzzles one, two or
//! four to a page, numbered and graded, then their solutions, six to a page; every page but the
//! first numbered at its foot. Pages are A4, in millimetres.

use super::picture::{PictureOptions, picture};
use super::{Picture, escape, num};
use crate::layout::Layout;
use crate::logic::Grade;
use crate::problem::ProblemSpec;

/// A4, in millimetres.
const PAGE: (f64, f64) = (210.0, 297.0);
/// The margin round a page's content.
const MARGIN: f64 = 18.0;

/// One puzzle of a book: the puzzle, its solution, and its grade.
#[derive(Clone, Debug)]
pub struct BookPuzzle {
    /// The puzzle (its counts and clues; a recorded solution is not drawn).
    pub spec: ProblemSpec,
    /// Its one solution.
    pub solution: Layout,
    /// Its grade, when the logical solver gave one.
    pub grade: Option<Grade>,
}

/// How the book looks.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// The title on the first page.
    pub title: String,
    /// Puzzles a page: 1, 2 or 4.
    pub per_page: usize,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            title: "Battleship puzzles".into(),
            per_page: 2,
        }
    }
}

/// The rules, a line each as the title page sets them (paragraphs apart by an empty line).
const RULES: [&str; 11] = [
    "Place the whole fleet in the grid. Each ship lies straight, across",
    "or down, and no two ships touch, not even at a corner.",
    "",
    "The number beside each row, and under each column, says how many",
    "of its cells hold a ship. Some cells are given: a circle is a ship of",
    "one cell, a rounded end is the end of a ship, a square is part of the",
    "middle of a ship, and a wave is water.",
    "",
    "Each puzzle has exactly one solution, which reasoning alone finds.",
    "The grade says how hard the reasoning gets: easy, medium, hard, or",
    "extreme (where trying out a guess may be needed).",
];

/// The rules of a book of Digital Battleships puzzles (every puzzle with digits).
const DIGITAL_RULES: [&str; 10] = [
    "Place the whole fleet in the grid. Each ship lies straight, across",
    "or down, and no two ships touch, not even at a corner.",
    "",
    "Every cell holds a digit. The number beside each row, and under",
    "each column, is the sum of the digits in its cells that hold a ship.",
    "A cell given as a circle, a rounded end or a square is part of a",
    "ship (a ship of one cell, an end, a middle); a grey cell is water.",
    "",
    "Each puzzle has exactly one solution. The grade says how hard the",
    "reasoning gets: easy, medium, hard, or extreme.",
];

/// The example of a digital book's title page: a 5x5 puzzle and its solution.
const DIGITAL_EXAMPLE: &str = "size: 5x5\nfleet: 3 2 1\ngrid:\n   11 4 7 1 8\n9   . . . . .\n0   . . . . .\n19  . . . . .\n0   . . . . .\n3   . . . . .\ndigits:\n5 6 9 1 8\n4 1 3 2 6\n8 4 7 9 2\n4 1 4 7 5\n3 7 3 2 3\nsolution:\n. . . < >\n. . . . .\n< m > . .\n. . . . .\no . . . .\n";

/// The example of the title page: a 6x6 puzzle and its solution.
const EXAMPLE: &str = "size: 6x6\nfleet: 3 2 2 1 1 1\ngrid:\n   2 1 2 2 0 3\n2  . < . . . .\n1  . . . . . .\n3  . . ~ . . m\n1  . . . . . .\n1  . . . . . .\n2  . . . . . .\nsolution:\n. < > . . .\n. . . . . ^\no . . o . m\n. . . . . v\no . . . . .\n. . < > . .\n";

/// A line of text at (`x`, `y`), `size` high, centred when `middle`.
fn text(x: f64, y: f64, size: f64, middle: bool, t: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{}>{}</text>",
        num(x),
        num(y),
        num(size),
        if middle {
            " text-anchor=\"middle\""
        } else {
            ""
        },
        escape(t)
    )
}

/// `pic` scaled down (never up past `most`) to fit a `w` by `h` box at (`x`, `y`), centred
/// across it and set at its top.
fn fitted(pic: &Picture, x: f64, y: f64, w: f64, h: f64, most: f64) -> String {
    let k = (w / pic.width).min(h / pic.height).min(most);
    pic.placed(x + (w - pic.width * k) / 2.0, y, k)
}

/// The pages of a book of `puzzles`, in the order given (number `i + 1` is `puzzles[i]`).
pub fn book_pages(puzzles: &[BookPuzzle], opts: &BookOptions) -> Vec<Picture> {
    let (pw, ph) = PAGE;
    let (cw, ch) = (pw - 2.0 * MARGIN, ph - 2.0 * MARGIN - 8.0);
    let mut pages = Vec::new();
    // The title page.
    let mut first = String::new();
    first.push_str(&text(pw / 2.0, 48.0, 11.0, true, &opts.title));
    let grades: Vec<String> = crate::logic::Grade::ALL
        .iter()
        .filter_map(|g| {
            let n = puzzles.iter().filter(|p| p.grade == Some(*g)).count();
            (n > 0).then(|| format!("{n} {g}"))
        })
        .collect();
    let sizes: std::collections::BTreeSet<String> =
        puzzles.iter().map(|p| p.spec.dims.to_string()).collect();
    let sizes: Vec<String> = sizes.into_iter().collect();
    let subtitle = format!(
        "{} puzzles, {}{}",
        puzzles.len(),
        sizes.join(", "),
        if grades.is_empty() {
            String::new()
        } else {
            format!(": {}", grades.join(", "))
        }
    );
    first.push_str(&text(pw / 2.0, 60.0, 4.6, true, &subtitle));
    first.push_str(&text(MARGIN, 84.0, 6.0, false, "How to play"));
    // A book of Digital Battleships puzzles explains their sums, with an example of its own.
    let digital = !puzzles.is_empty() && puzzles.iter().all(|p| p.spec.is_digital());
    let (rules, example): (&[&str], _) = match digital {
        true => (&DIGITAL_RULES, DIGITAL_EXAMPLE),
        false => (&RULES, EXAMPLE),
    };
    for (i, line) in rules.iter().enumerate() {
        first.push_str(&text(MARGIN, 95.0 + i as f64 * 6.2, 4.4, false, line));
    }
    let example = crate::format::text::parse(example).expect("the example reads");
    let opts_ex = PictureOptions {
        cell: 9.0,
        caption: Some("An example".into()),
        ..PictureOptions::default()
    };
    let puzzle = picture(&example, &opts_ex);
    let solved = picture(
        &example,
        &PictureOptions {
            caption: Some("and its solution".into()),
            solution: example.solution.clone(),
            fleet: false,
            ..opts_ex
        },
    );
    let ey = 172.0;
    first.push_str(&puzzle.placed(MARGIN + 6.0, ey, 1.0));
    first.push_str(&solved.placed(pw / 2.0 + 6.0, ey, 1.0));
    pages.push(first);
    // The puzzles.
    let per = opts.per_page.clamp(1, 4);
    let (cols, rows) = match per {
        1 => (1, 1),
        2 => (1, 2),
        _ => (2, 2),
    };
    let (sw, sh) = (cw / cols as f64, ch / rows as f64);
    let most = match per {
        1 => 1.7,
        2 => 1.4,
        _ => 1.0,
    };
    for (p, chunk) in puzzles.chunks(per).enumerate() {
        let mut page = String::new();
        for (k, bp) in chunk.iter().enumerate() {
            let n = p * per + k + 1;
            let caption = match bp.grade {
                Some(g) => format!("Puzzle {n} · {g}"),
                None => format!("Puzzle {n}"),
            };
            let pic = picture(
                &bp.spec,
                &PictureOptions {
                    caption: Some(caption),
                    ..PictureOptions::default()
                },
            );
            let (x, y) = (
                MARGIN + (k % cols) as f64 * sw,
                MARGIN + (k / cols) as f64 * sh,
            );
            page.push_str(&fitted(&pic, x, y, sw - 6.0, sh - 6.0, most));
        }
        pages.push(page);
    }
    // The solutions.
    let (scols, srows) = (2, 3);
    let (ssw, ssh) = (cw / scols as f64, (ch - 10.0) / srows as f64);
    for (p, chunk) in puzzles.chunks(scols * srows).enumerate() {
        let mut page = String::new();
        if p == 0 {
            page.push_str(&text(pw / 2.0, MARGIN + 4.0, 6.0, true, "Solutions"));
        }
        for (k, bp) in chunk.iter().enumerate() {
            let n = p * scols * srows + k + 1;
            let pic = picture(
                &bp.spec,
                &PictureOptions {
                    caption: Some(format!("Solution {n}")),
                    solution: Some(bp.solution.clone()),
                    fleet: false,
                    ..PictureOptions::default()
                },
            );
            let (x, y) = (
                MARGIN + (k % scols) as f64 * ssw,
                MARGIN + 10.0 + (k / scols) as f64 * ssh,
            );
            page.push_str(&fitted(&pic, x, y, ssw - 6.0, ssh - 6.0, 0.9));
        }
        pages.push(page);
    }
    pages
        .into_iter()
        .enumerate()
        .map(|(i, mut body)| {
            if i > 0 {
                body.push_str(&text(pw / 2.0, ph - 10.0, 3.8, true, &format!("{}", i + 1)));
            }
            Picture {
                width: pw,
                height: ph,
                body,
            }
        })
        .collect()
}
