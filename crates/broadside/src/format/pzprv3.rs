//! pzprjs's own file format for Battleship puzzles (`pzprv3`): what its editor saves and
//! opens, a puzzle with a person's progress. Lines, in order:
//!
//! ```text
//! pzprv3
//! battleship
//! 6                  rows
//! 6                  columns
//! c                  the fleet: a preset's letter (c, d, e, t, p), or a count N and N piece codes
//! . . 1 2 . . 2      the corner, then the column counts
//! . . . . . . 0      each row: its count, then its cells' clues
//! 3 . . . . . .      ...
//! # + . . . .        then each row's marks: # a ship cell, + water, . nothing
//! ...
//! 0 0 0 0 0 0        then a completion flag per piece of the fleet
//! ```
//!
//! A count or a clue is `.` when there is none and `-` when it is a `?` count or a ship cell
//! of unknown kind; a clue is `0` water, `1`-`6` the segments (top, bottom, left and right
//! ends, middle, single; puzz.link's codes) and `7`-`10` a polyomino's corners, which
//! broadside does not read. A `c` before a number marks it done, which broadside ignores. The
//! pieces are puzz.link's codes ([`super::puzlink`]). pzprjs's tests write the lines joined by
//! `/`: a file of one line is read so too. The marks become the problem's progress
//! ([`crate::progress`]).

use super::ParseError;
use super::puzlink::{Bank, bank, clue, code, fleet_of, piece, preset};
use crate::clue::Clue;
use crate::geom::Dims;
use crate::problem::{Meta, ProblemSpec};
use crate::progress::Know;
use crate::rules::Rules;

/// Whether `content` is a pzprv3 file (of any puzzle: the reader says when it is not
/// Battleship).
pub fn is_pzprv3(content: &str) -> bool {
    content.trim_start().starts_with("pzprv3")
}

/// The file's lines with their numbers (1-based), blank ones skipped; a file of one line
/// split at its `/`s, numbered as one line.
fn lines(content: &str) -> Vec<(usize, &str)> {
    let trimmed = content.trim();
    let one_line = !trimmed.contains('\n');
    let raw: Vec<(usize, &str)> = if one_line {
        trimmed.split('/').map(|l| (1, l)).collect()
    } else {
        content
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .collect()
    };
    raw.into_iter()
        .map(|(n, l)| (n, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

/// A line's tokens with their columns (1-based).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, (b, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((i + 1, b)),
            (true, Some((col, from))) => {
                out.push((col, &line[from..b]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, from)) = start {
        out.push((col, &line[from..]));
    }
    out
}

/// Reads one pzprv3 Battleship file.
pub fn parse(content: &str) -> Result<ProblemSpec, ParseError> {
    let lines = lines(content);
    let mut at = 0;
    let end = lines.last().map_or(1, |l| l.0);
    let mut next = |what: &str| -> Result<(usize, &str), ParseError> {
        let line = lines
            .get(at)
            .copied()
            .ok_or_else(|| ParseError::new(end, 1, format!("the file ends before {what}")))?;
        at += 1;
        Ok(line)
    };
    let (ln, head) = next("its header")?;
    if !head.trim().starts_with("pzprv3") {
        return Err(ParseError::new(
            ln,
            1,
            "not a pzprv3 file: no `pzprv3` line first",
        ));
    }
    let (ln, kind) = next("the puzzle's kind")?;
    if kind.trim() != "battleship" {
        return Err(ParseError::new(
            ln,
            1,
            format!("a pzprv3 file of {:?}, not of Battleship", kind.trim()),
        ));
    }
    let number = |(ln, s): (usize, &str), what: &str| -> Result<usize, ParseError> {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| (1..=4096).contains(&n))
            .ok_or_else(|| ParseError::new(ln, 1, format!("expected the number of {what}")))
    };
    let rows = number(next("the number of rows")?, "rows")?;
    let cols = number(next("the number of columns")?, "columns")?;
    let dims = Dims::new(cols, rows)
        .supported()
        .map_err(|e| ParseError::new(ln + 2, 1, e.to_string()))?;
    // The fleet.
    let (ln, head) = next("the fleet")?;
    let head = head.trim();
    let pieces = match head.parse::<usize>() {
        Ok(n) => {
            let mut pieces = Vec::with_capacity(n.min(4096));
            for _ in 0..n {
                let (pl, code) = next("the fleet's pieces")?;
                pieces.push(piece(code.trim()).ok_or_else(|| {
                    ParseError::new(pl, 1, format!("{:?} is not a piece code", code.trim()))
                })?);
            }
            pieces
        }
        Err(_) => {
            let mut k = head.chars();
            let pieces = match (k.next(), k.next()) {
                (Some(c), None) => preset(c),
                _ => Vec::new(),
            };
            if pieces.is_empty() {
                return Err(ParseError::new(
                    ln,
                    1,
                    format!(
                        "unknown fleet {head:?}: a preset (c, d, e, t, p) or a number of pieces"
                    ),
                ));
            }
            pieces
        }
    };
    if pieces.is_empty() {
        return Err(ParseError::new(ln, 1, "the fleet has no ship"));
    }
    // The counts and clues: a row of column counts, then each row's count and cells.
    let strip = |t: &str| t.strip_prefix('c').unwrap_or(t).to_string();
    let row_tokens =
        |(ln, line): (usize, &str), n: usize| -> Result<Vec<(usize, usize, String)>, ParseError> {
            let t = tokens(line);
            if t.len() != n {
                return Err(ParseError::new(
                    ln,
                    t.get(n).map_or(line.chars().count() + 1, |x| x.0),
                    format!("expected {n} entries in this line, found {}", t.len()),
                ));
            }
            Ok(t.into_iter().map(|(c, s)| (ln, c, strip(s))).collect())
        };
    let count =
        |(ln, col, s): &(usize, usize, String), most: usize| -> Result<Option<usize>, ParseError> {
            match s.as_str() {
                "." | "-" => Ok(None),
                s => s
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= most)
                    .map(Some)
                    .ok_or_else(|| {
                        ParseError::new(
                            *ln,
                            *col,
                            format!("expected a count of 0 to {most}, found {s:?}"),
                        )
                    }),
            }
        };
    let top = row_tokens(next("the column counts")?, cols + 1)?;
    let col_counts: Vec<Option<usize>> = top[1..]
        .iter()
        .map(|t| count(t, rows))
        .collect::<Result<_, _>>()?;
    let mut row_counts = Vec::with_capacity(rows);
    let mut clues = Vec::with_capacity(dims.cells());
    for _ in 0..rows {
        let line = row_tokens(next("a row of clues")?, cols + 1)?;
        row_counts.push(count(&line[0], cols)?);
        for (ln, col, s) in &line[1..] {
            clues.push(match s.as_str() {
                "." => None,
                "-" => Some(Clue::Ship),
                s => {
                    let n = s.parse::<usize>().map_err(|_| {
                        ParseError::new(
                            *ln,
                            *col,
                            format!("expected a clue (. - or 0 to 6), found {s:?}"),
                        )
                    })?;
                    Some(clue(Some(n)).map_err(|m| ParseError::new(*ln, *col, m))?)
                }
            });
        }
    }
    // The marks.
    let mut progress = Vec::with_capacity(dims.cells());
    for _ in 0..rows {
        let (ln, line) = next("a row of marks")?;
        let t = tokens(line);
        if t.len() != cols {
            return Err(ParseError::new(
                ln,
                1,
                format!("expected {cols} marks in this line, found {}", t.len()),
            ));
        }
        for (col, s) in t {
            progress.push(match s {
                "#" => Know::Ship,
                "+" => Know::Water,
                "." => Know::Unknown,
                other => {
                    return Err(ParseError::new(
                        ln,
                        col,
                        format!("expected a mark (# a ship, + water, . none), found {other:?}"),
                    ));
                }
            });
        }
    }
    // pzprjs keeps marks on clue cells too (water on a given ship end, say); the clue is
    // what the cell holds.
    for (mark, clue) in progress.iter_mut().zip(&clues) {
        if clue.is_some() {
            *mark = Know::Unknown;
        }
    }
    // The completion flags of the pieces follow: nothing broadside keeps.
    let none = |v: &[Option<usize>]| v.iter().all(Option::is_none);
    let spec = ProblemSpec {
        dims,
        fleet: fleet_of(&pieces),
        rules: Rules::NoTouch,
        rows: if none(&row_counts) {
            Vec::new()
        } else {
            row_counts
        },
        cols: if none(&col_counts) {
            Vec::new()
        } else {
            col_counts
        },
        clues: if clues.iter().all(Option::is_none) {
            Vec::new()
        } else {
            clues
        },
        solution: None,
        observations: Default::default(),
        progress: if progress.iter().all(|&k| k == Know::Unknown) {
            Vec::new()
        } else {
            progress
        },
        digits: Vec::new(),
        meta: Meta::default(),
    };
    super::described(spec, 1)
}

/// Why a problem has no pzprv3 file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no pzprv3 file: {0}")]
pub struct Unwritable(pub String);

/// The pzprv3 file of `spec`: a puzzle under the no-touch rule, with clues the format has
/// (no rock) and no shots; its progress as the marks.
pub fn write(spec: &ProblemSpec) -> Result<String, Unwritable> {
    if spec.rules != Rules::NoTouch {
        return Err(Unwritable(
            "pzprjs's Battleship has ships that never touch; this problem lets them touch".into(),
        ));
    }
    if !spec.observations.shots.is_empty() {
        return Err(Unwritable("a game record (shots) is not a puzzle".into()));
    }
    if spec.is_digital() {
        return Err(Unwritable(
            "pzprjs's Battleship has no digits; this is a Digital Battleships puzzle".into(),
        ));
    }
    let d = spec.dims;
    let mut out = format!("pzprv3\nbattleship\n{}\n{}\n", d.height, d.width);
    match bank(&spec.fleet).map_err(Unwritable)? {
        Bank::Preset(key) => out.push_str(&format!("{key}\n")),
        Bank::Pieces(p) => {
            out.push_str(&format!("{}\n", p.len()));
            for code in p {
                out.push_str(&code);
                out.push('\n');
            }
        }
    }
    let count = |n: Option<usize>| n.map_or(". ".to_string(), |n| format!("{n} "));
    out.push_str(". ");
    for c in 0..d.width {
        out.push_str(&count(spec.col_count(c)));
    }
    out.push('\n');
    for r in 0..d.height {
        out.push_str(&count(spec.row_count(r)));
        for c in 0..d.width {
            let cell = d.index(r, c);
            match spec.clue(cell) {
                None => out.push_str(". "),
                Some(Clue::Ship) => out.push_str("- "),
                Some(clue) => {
                    let ch = code(clue).ok_or_else(|| {
                        Unwritable(format!(
                            "a rock at {}: the format has no rocks",
                            d.cell_name(cell)
                        ))
                    })?;
                    out.push(ch);
                    out.push(' ');
                }
            }
        }
        out.push('\n');
    }
    for r in 0..d.height {
        for c in 0..d.width {
            out.push_str(match spec.mark(d.index(r, c)) {
                Know::Ship => "# ",
                Know::Water => "+ ",
                Know::Unknown => ". ",
            });
        }
        out.push('\n');
    }
    out.push_str(&"0 ".repeat(spec.fleet.ship_count()));
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solved state of pzprjs's own test puzzle (its `test/script/battleship.js`, the
    /// puzzle of `https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c`), lines joined by
    /// `/` as its tests write them.
    const SOLVED: &str = "pzprv3/battleship/6/6/c/. . 1 2 . . 2 /. . . . . . 0 /3 . . . . . . /0 . . . . . . /. 3 . . . . . /3 . . . . . . /. . . . . . . /+ + # + + + /# + # + + # /+ + + + + + /+ # + + + + /+ + + # # # /# + + + + + /0 0 0 0 0 0 /";

    #[test]
    fn pzprjs_s_test_file_reads_as_its_url_does() {
        let spec = parse(SOLVED).unwrap();
        let url =
            super::super::puzlink::parse("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c")
                .unwrap();
        assert_eq!(
            (&spec.rows, &spec.cols, &spec.clues),
            (&url.rows, &url.cols, &url.clues)
        );
        assert_eq!(spec.fleet.describe(), url.fleet.describe());
        // The marks are the solution: every ship cell but the given end at A4 marked (a
        // fleet of 10 cells), and the marks are right.
        let ships = spec.progress.iter().filter(|&&k| k == Know::Ship).count();
        assert_eq!(ships, 9);
        let p = spec.clone().build().unwrap();
        let r = crate::answer::check(&p, &crate::answer::Options::new()).unwrap();
        assert!(r.solved, "{r:?}");
        // Written and read again, the same problem.
        let again = parse(&write(&spec).unwrap()).unwrap();
        assert_eq!(again, spec);
    }

    #[test]
    fn bad_files_say_where() {
        let cases = [
            ("pzprv3/nurikabe/2/2/", "not of Battleship"),
            ("pzprv3/battleship/2/x/c/", "number of columns"),
            ("pzprv3/battleship/2/2/q/", "unknown fleet"),
            (
                "pzprv3/battleship/2/2/c/. . . /. 7 . /. . . /",
                "corner clue",
            ),
            (
                "pzprv3/battleship/2/2/c/. . . /. . . /. . /",
                "expected 3 entries",
            ),
            (
                "pzprv3/battleship/2/2/c/. . . /. . . /. . . /# x /",
                "expected a mark",
            ),
        ];
        for (file, says) in cases {
            let e = parse(file).unwrap_err();
            assert!(e.to_string().contains(says), "{file}: {e}");
        }
    }
}
