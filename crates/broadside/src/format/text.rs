//! broadside's plain-text problem format.
//!
//! ```text
//! // Lines starting with // are comments.
//! name: rubin-113
//! source: CSPLib prob014 (Moshe Rubin 2005)
//! size: 10x10
//! fleet: 4 3 3 2 2 2 1 1 1 1
//! rules: no-touch
//! grid:
//!      0 5 0 2 2 3 1 3 2 2
//!   2  . . . . . ~ . . . .
//!   ...
//! solution:
//!   . . . . . . . < > .
//!   ...
//! ```
//!
//! Header lines are `key: value`: `size` (`WxH`, width first; required), `fleet` (the
//! [`Fleet::parse`] syntax; required), `rules` (`touch` or `no-touch`, default `no-touch`),
//! `name`, `source`, and `shape NAME: ART` to declare a polyomino (`#` ship, `.` empty, rows
//! separated by `/`) that the fleet may then name.
//!
//! `sinking: none|announced|revealed` (default `none`) says how a game reports sunk ships,
//! and a `shots:` section lists the shots in order, one per line: `B5 miss`, `C5 hit`,
//! `D5 sunk 3` (announced: the type, by name or length), `D5 sunk 3 D3 D4 D5` (revealed: the
//! ship's cells too), `E2 sonar 3` (a miss whose nearest ship cell is 3 steps away). Cells are
//! named by column letter and row number, `A1` at the top left. See [`crate::observe`].
//!
//! `grid:` starts the board: an optional first line of column counts (integers or `?`), then
//! one line per row: an optional row count (integer or `?`) and the row's cells, separated by
//! spaces or written together. Cell symbols: `.` no clue, `~` water, `*` a ship segment of
//! unknown kind, `o < > ^ v m` the segment kinds (single, left/right end, top/bottom end,
//! middle), `#` a rock (blocked). Without `grid:` the board is empty. `progress:` gives a
//! person's marks on a puzzle, one line per row of the grid's symbols (`.` nothing yet, `~`
//! water, `*` or a segment symbol a ship cell; see [`crate::progress`]), written back with `*`
//! for every ship cell. `solution:` gives a layout in the [`Layout`] grid form.
//!
//! `digits:` makes the puzzle a Digital Battleships one: one line per row of its digits
//! (0 to 9), separated by spaces or written together; the numbers beside the rows and above
//! the columns are then the sums of the digits under each line's ship cells.
//!
//! ```text
//! size: 3x3
//! fleet: 2 1
//! rules: no-touch
//! grid:
//!      7 1 5
//!   8  . . .
//!   0  . . .
//!   5  . . .
//! digits:
//!   7 1 4
//!   2 5 3
//!   4 6 5
//! ```

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::observe::{Observations, ShotError, Sinking, parse_shot, print_shot};
use crate::problem::{Invalid, Meta, ProblemError, ProblemSpec};
use crate::progress::Know;
use crate::rules::Rules;
use crate::shape::Shape;

use super::ParseError;

#[derive(PartialEq)]
enum Section {
    Header,
    Grid,
    Solution,
    Shots,
    Progress,
    Digits,
}

/// Parses one problem in the text format.
/// Parses one or more problems, separated by lines of `---` (what `broadside generate
/// --count N` prints on standard output). Errors give the line in the whole input.
pub fn parse_many(input: &str) -> Result<Vec<ProblemSpec>, ParseError> {
    let mut out = Vec::new();
    let mut chunk = String::new();
    let (mut first_line, mut line) = (0, 0);
    for raw in input.lines().chain(std::iter::once("---")) {
        if raw.trim() == "---" {
            if !chunk.trim().is_empty() || out.is_empty() {
                out.push(parse(&chunk).map_err(|mut e| {
                    e.line += first_line;
                    e
                })?);
            }
            chunk.clear();
            line += 1;
            first_line = line;
            continue;
        }
        chunk.push_str(raw);
        chunk.push('\n');
        line += 1;
    }
    Ok(out)
}

/// Parses one problem.
pub fn parse(input: &str) -> Result<ProblemSpec, ParseError> {
    let mut dims: Option<Dims> = None;
    let mut fleet_text: Option<(String, usize, usize)> = None;
    let mut rules = Rules::default();
    let mut meta = Meta::default();
    let mut shapes: Vec<(String, Shape)> = Vec::new();
    let mut section = Section::Header;
    let mut col_counts: Option<Vec<Option<usize>>> = None;
    let mut grid_rows: Vec<(Option<usize>, Vec<Option<Clue>>, bool)> = Vec::new();
    // Where each column count and each row (its count, or its first cell) was written.
    let mut col_count_at: Vec<(usize, usize)> = Vec::new();
    let mut row_at: Vec<(usize, usize)> = Vec::new();
    let mut solution_rows: Vec<(String, usize)> = Vec::new();
    let mut shot_lines: Vec<(String, usize, usize)> = Vec::new();
    let mut progress: Vec<Know> = Vec::new();
    // Where `progress:` was written, and how many rows followed it.
    let mut progress_at: Option<usize> = None;
    let mut progress_rows = 0;
    let mut digits: Vec<u8> = Vec::new();
    // Where `digits:` was written, and how many rows followed it.
    let mut digits_at: Option<usize> = None;
    let mut digit_rows = 0;
    let mut sinking = Sinking::None;
    let mut last_line = 0;
    // Header keys given so far, with their lines.
    let mut seen: Vec<(String, usize)> = Vec::new();

    for (i, raw) in input.lines().enumerate() {
        let ln = i + 1;
        last_line = ln;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        let indent = line.chars().count() - trimmed.chars().count();
        let lower = trimmed.to_ascii_lowercase();
        if lower == "grid:" {
            section = Section::Grid;
            continue;
        }
        if lower == "shots:" {
            section = Section::Shots;
            continue;
        }
        if lower == "solution:" {
            section = Section::Solution;
            continue;
        }
        // The sections that may be given once, and where each was.
        let once = match lower.as_str() {
            "digits:" => Some((Section::Digits, &mut digits_at)),
            "progress:" => Some((Section::Progress, &mut progress_at)),
            _ => None,
        };
        if let Some((next, at)) = once {
            if let Some(first) = *at {
                return Err(ParseError::new(
                    ln,
                    indent + 1,
                    format!("'{lower}' is given twice (first on line {first})"),
                ));
            }
            section = next;
            *at = Some(ln);
            continue;
        }
        match section {
            Section::Header => {
                let Some((key, value)) = trimmed.split_once(':') else {
                    return Err(ParseError::new(
                        ln,
                        indent + 1,
                        "expected 'key: value', 'grid:', 'shots:', 'digits:', 'progress:' or 'solution:'",
                    ));
                };
                let vcol =
                    indent + key.chars().count() + 2 + (value.len() - value.trim_start().len());
                let value = value.trim();
                let key_l = key.trim().to_ascii_lowercase();
                // A key said twice would silently win or lose: say where it was first.
                let canonical = match key_l.starts_with("shape ") {
                    // Shape names are case-sensitive, as the fleet names them.
                    true => format!("shape {}", key.trim()[6..].trim()),
                    false => key_l.clone(),
                };
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == canonical) {
                    return Err(ParseError::new(
                        ln,
                        indent + 1,
                        format!("{:?} is given twice (first on line {first})", key.trim()),
                    ));
                }
                seen.push((canonical, ln));
                match key_l.as_str() {
                    "size" => {
                        dims = Some(
                            value
                                .parse()
                                .and_then(Dims::supported)
                                .map_err(|e| ParseError::new(ln, vcol, e))?,
                        )
                    }
                    "fleet" => fleet_text = Some((value.to_string(), ln, vcol)),
                    "rules" => rules = value.parse().map_err(|e| ParseError::new(ln, vcol, e))?,
                    "name" => meta.name = Some(value.to_string()),
                    "sinking" => {
                        sinking = value.parse().map_err(|e| ParseError::new(ln, vcol, e))?
                    }
                    "source" => meta.source = Some(value.to_string()),
                    k if k.starts_with("shape ") => {
                        let name = key.trim()[6..].trim().to_string();
                        if name.is_empty() || name.parse::<usize>().is_ok() {
                            return Err(ParseError::new(
                                ln,
                                indent + 1,
                                "a shape needs a name that is not a number",
                            ));
                        }
                        let shape = Shape::parse_art(value)
                            .map_err(|e| ParseError::new(ln, vcol, e.to_string()))?;
                        shapes.push((name, shape));
                    }
                    _ => {
                        return Err(ParseError::new(
                            ln,
                            indent + 1,
                            format!(
                                "unknown key {:?}: expected size, fleet, rules, name, source or shape NAME",
                                key.trim()
                            ),
                        ));
                    }
                }
            }
            Section::Grid => {
                let d =
                    dims.ok_or_else(|| ParseError::new(ln, 1, "'size:' must come before 'grid:'"))?;
                let tokens = tokenize(line);
                let is_counts = |t: &[(usize, &str)]| {
                    t.iter()
                        .all(|(_, s)| *s == "?" || s.parse::<usize>().is_ok())
                };
                if grid_rows.is_empty()
                    && col_counts.is_none()
                    && tokens.len() == d.width
                    && is_counts(&tokens)
                {
                    col_counts = Some(
                        tokens
                            .iter()
                            .map(|(_, s)| count_token(s, ln, 0))
                            .collect::<Result<_, _>>()?,
                    );
                    col_count_at = tokens.iter().map(|&(c, _)| (ln, c)).collect();
                    continue;
                }
                if grid_rows.len() == d.height {
                    return Err(ParseError::new(
                        ln,
                        indent + 1,
                        format!("more than {} grid rows", d.height),
                    ));
                }
                let (count, cells_tokens, has_count) = match tokens.first() {
                    Some((c, s)) if *s == "?" || s.parse::<usize>().is_ok() => {
                        (count_token(s, ln, *c)?, &tokens[1..], true)
                    }
                    _ => (None, &tokens[..], false),
                };
                let mut cells: Vec<(usize, char)> = Vec::new();
                for (col, tok) in cells_tokens {
                    for (k, ch) in tok.chars().enumerate() {
                        cells.push((col + k, ch));
                    }
                }
                if cells.len() != d.width {
                    let col = cells.get(d.width).map_or(line.chars().count() + 1, |c| c.0);
                    return Err(ParseError::new(
                        ln,
                        col,
                        format!(
                            "expected {} cells in this row, found {}",
                            d.width,
                            cells.len()
                        ),
                    ));
                }
                let row = cells
                    .iter()
                    .map(|&(col, ch)| match ch {
                        '.' => Ok(None),
                        _ => Clue::from_symbol(ch).map(Some).ok_or_else(|| {
                            ParseError::new(
                                ln,
                                col,
                                format!("unknown cell symbol {ch:?}: expected one of . ~ * o < > ^ v m #"),
                            )
                        }),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                grid_rows.push((count, row, has_count));
                row_at.push((ln, tokens.first().map_or(indent + 1, |t| t.0)));
            }
            Section::Progress => {
                let d = dims.ok_or_else(|| {
                    ParseError::new(ln, 1, "'size:' must come before 'progress:'")
                })?;
                if progress_rows == d.height {
                    return Err(ParseError::new(
                        ln,
                        indent + 1,
                        format!("more than {} progress rows", d.height),
                    ));
                }
                let cells = symbol_row(line, ln, d.width, "cells in this progress row", |ch| {
                    Know::from_symbol(ch).ok_or_else(|| {
                        format!(
                            "unknown progress symbol {ch:?}: expected . (nothing yet), ~ (water), or * or a segment symbol (a ship cell)"
                        )
                    })
                })?;
                progress.extend(cells);
                progress_rows += 1;
            }
            Section::Digits => {
                let d = dims
                    .ok_or_else(|| ParseError::new(ln, 1, "'size:' must come before 'digits:'"))?;
                if digit_rows == d.height {
                    return Err(ParseError::new(
                        ln,
                        indent + 1,
                        format!("more than {} rows of digits", d.height),
                    ));
                }
                let row = symbol_row(line, ln, d.width, "digits in this row", |ch| {
                    ch.to_digit(10)
                        .map(|d| d as u8)
                        .ok_or_else(|| format!("expected a digit 0 to 9, found {ch:?}"))
                })?;
                digits.extend(row);
                digit_rows += 1;
            }
            Section::Solution => solution_rows.push((trimmed.to_string(), ln)),
            Section::Shots => shot_lines.push((trimmed.to_string(), ln, indent)),
        }
    }

    let dims = dims.ok_or_else(|| ParseError::new(last_line.max(1), 1, "missing 'size: WxH'"))?;
    let (ftext, fline, fcol) =
        fleet_text.ok_or_else(|| ParseError::new(last_line.max(1), 1, "missing 'fleet: ...'"))?;
    let fleet =
        Fleet::parse(&ftext, &shapes).map_err(|e| ParseError::new(fline, fcol, e.to_string()))?;
    if !grid_rows.is_empty() && grid_rows.len() != dims.height {
        return Err(ParseError::new(
            last_line,
            1,
            format!(
                "the grid has {} rows for a height of {}",
                grid_rows.len(),
                dims.height
            ),
        ));
    }
    if let Some(at) = progress_at
        && progress_rows != dims.height
    {
        return Err(ParseError::new(
            at,
            1,
            format!(
                "the progress has {progress_rows} rows for a height of {}",
                dims.height
            ),
        ));
    }
    if let Some(at) = digits_at
        && digit_rows != dims.height
    {
        return Err(ParseError::new(
            at,
            1,
            format!(
                "the digits have {digit_rows} rows for a height of {}",
                dims.height
            ),
        ));
    }
    let any_row_count = grid_rows.iter().any(|r| r.2);
    let rows = if any_row_count {
        grid_rows.iter().map(|r| r.0).collect()
    } else {
        Vec::new()
    };
    let clues: Vec<Option<Clue>> = grid_rows.iter().flat_map(|r| r.1.iter().copied()).collect();
    let clues = if clues.iter().all(Option::is_none) {
        Vec::new()
    } else {
        clues
    };
    let mut shots: Vec<crate::observe::Shot> = Vec::new();
    for (line, ln, indent) in &shot_lines {
        let shot = parse_shot(dims, &fleet, line).map_err(|e| {
            // The column of the offending word.
            let col = tokenize(line)
                .get(e.word)
                .map_or(line.chars().count() + 1, |t| t.0);
            ParseError::new(*ln, indent + col, e.message)
        })?;
        shots.push(shot);
    }
    let solution = if solution_rows.is_empty() {
        None
    } else {
        let first = solution_rows[0].1;
        let rows: Vec<String> = solution_rows.iter().map(|r| r.0.clone()).collect();
        Some(Layout::from_rows(&rows, dims, &fleet).map_err(|e| ParseError::new(first, 1, e))?)
    };
    let spec = ProblemSpec {
        dims,
        fleet,
        rules,
        rows,
        cols: col_counts.unwrap_or_default(),
        clues,
        solution,
        observations: Observations { sinking, shots },
        progress,
        digits,
        meta,
    };
    // A problem the parser read but that describes no board: say where, as for a typo.
    let defects = spec.defects();
    let Some(first) = defects.first() else {
        return Ok(spec);
    };
    let shot_at = |i: usize| (shot_lines[i].1, shot_lines[i].2 + 1);
    let named = |cell: &str| -> Vec<usize> {
        let shots = &spec.observations.shots;
        (0..shots.len())
            .filter(|&i| dims.cell_name(shots[i].cell) == cell)
            .collect()
    };
    let (line, column) = match first {
        Invalid::RowCountTooLarge { row, .. } => row_at[*row],
        Invalid::ColCountTooLarge { col, .. } => col_count_at[*col],
        Invalid::EmptyFleet => (fline, fcol),
        Invalid::Solution(_) => (solution_rows[0].1, 1),
        Invalid::ProgressOnGame | Invalid::ProgressLength { .. } => (progress_at.unwrap_or(1), 1),
        Invalid::DigitsOnGame | Invalid::Digit { .. } | Invalid::DigitsLength { .. } => {
            (digits_at.unwrap_or(1), 1)
        }
        Invalid::SumTooLarge { what, name, .. } => match *what {
            "row" => name
                .parse::<usize>()
                .ok()
                .and_then(|r| r.checked_sub(1))
                .and_then(|r| row_at.get(r).copied())
                .unwrap_or((1, 1)),
            _ => (0..dims.width)
                .find(|&c| crate::geom::column_name(c) == *name)
                .and_then(|c| col_count_at.get(c).copied())
                .unwrap_or((1, 1)),
        },
        // The second shot at a cell fired at twice; the shot at the cell otherwise.
        Invalid::Shots(e @ ShotError::Twice(_)) => e
            .cell()
            .and_then(|c| named(c).last().copied())
            .map_or((shot_lines[0].1, 1), shot_at),
        Invalid::Shots(e) => e
            .cell()
            .and_then(|c| named(c).first().copied())
            .or((!shot_lines.is_empty()).then_some(0))
            .map_or((1, 1), shot_at),
        _ => (1, 1),
    };
    Err(ParseError::new(line, column, ProblemError(defects)))
}

/// One row of a section whose cells are a character each (`progress:`, `digits:`): its
/// `width` values, each read by `value` (or the message for a character it does not take);
/// `noun` names what a row holds in the messages (`cells in this progress row`).
fn symbol_row<T>(
    line: &str,
    ln: usize,
    width: usize,
    noun: &str,
    value: impl Fn(char) -> Result<T, String>,
) -> Result<Vec<T>, ParseError> {
    let mut cells = Vec::with_capacity(width);
    for (col, tok) in tokenize(line) {
        for (k, ch) in tok.chars().enumerate() {
            if cells.len() == width {
                return Err(ParseError::new(
                    ln,
                    col + k,
                    format!("expected {width} {noun}"),
                ));
            }
            cells.push(value(ch).map_err(|m| ParseError::new(ln, col + k, m))?);
        }
    }
    if cells.len() != width {
        return Err(ParseError::new(
            ln,
            line.chars().count() + 1,
            format!("expected {width} {noun}, found {}", cells.len()),
        ));
    }
    Ok(cells)
}

fn tokenize(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut col = 0;
    let mut byte_start = 0;
    for (b, ch) in line.char_indices() {
        col += 1;
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[byte_start..b]));
            }
        } else if start.is_none() {
            start = Some(col);
            byte_start = b;
        }
    }
    if let Some(s) = start {
        out.push((s, &line[byte_start..]));
    }
    out
}

fn count_token(s: &str, line: usize, col: usize) -> Result<Option<usize>, ParseError> {
    if s == "?" {
        return Ok(None);
    }
    s.parse::<usize>().map(Some).map_err(|_| {
        ParseError::new(
            line,
            col.max(1),
            format!("expected a count or '?', found {s:?}"),
        )
    })
}

/// The board as the `grid:` section writes it: the column counts above (if given), each row's
/// count before it (if given), and `symbol(cell)` for every cell, aligned in columns. The CLI
/// shows solutions the same way.
pub fn framed_grid(spec: &ProblemSpec, symbol: impl Fn(usize) -> char) -> String {
    let d = spec.dims;
    let show = |c: Option<usize>| c.map_or("?".to_string(), |k| k.to_string());
    let width = spec
        .rows
        .iter()
        .chain(&spec.cols)
        .map(|&c| show(c).len())
        .max()
        .unwrap_or(1);
    let has_rows = !spec.rows.is_empty();
    let pad = if has_rows { width + 2 } else { 0 };
    let mut out = String::new();
    if !spec.cols.is_empty() {
        let cols: Vec<String> = spec
            .cols
            .iter()
            .map(|&c| format!("{:>width$}", show(c)))
            .collect();
        out.push_str(&format!("{}{}\n", " ".repeat(pad), cols.join(" ")));
    }
    for r in 0..d.height {
        if has_rows {
            // A spec not yet built may have too few counts: the missing show as unknown.
            out.push_str(&format!("{:>width$}  ", show(spec.row_count(r))));
        }
        let cells: Vec<String> = (0..d.width)
            .map(|c| format!("{:>width$}", symbol(d.index(r, c))))
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// Prints a problem in the text format; [`parse`] reads it back to an equal spec.
pub fn print(spec: &ProblemSpec) -> String {
    let mut out = String::new();
    if let Some(n) = &spec.meta.name {
        out.push_str(&format!("name: {n}\n"));
    }
    if let Some(s) = &spec.meta.source {
        out.push_str(&format!("source: {s}\n"));
    }
    out.push_str(&format!("size: {}\n", spec.dims));
    for t in spec.fleet.polyominoes() {
        out.push_str(&format!("shape {}: {}\n", t.name, t.shape.art()));
    }
    out.push_str(&format!("fleet: {}\n", spec.fleet.describe()));
    out.push_str(&format!("rules: {}\n", spec.rules));
    if spec.observations.sinking != Sinking::None {
        out.push_str(&format!("sinking: {}\n", spec.observations.sinking));
    }
    if !spec.rows.is_empty() || !spec.cols.is_empty() || !spec.clues.is_empty() {
        out.push_str("grid:\n");
        out.push_str(&framed_grid(spec, |cell| {
            spec.clue(cell).map_or('.', Clue::symbol)
        }));
    }
    if !spec.observations.shots.is_empty() {
        out.push_str("shots:\n");
        for shot in &spec.observations.shots {
            out.push_str(&print_shot(spec.dims, &spec.fleet, shot));
            out.push('\n');
        }
    }
    if !spec.digits.is_empty() {
        out.push_str("digits:\n");
        for row in spec.digits.chunks(spec.dims.width) {
            let spaced: Vec<String> = row.iter().map(u8::to_string).collect();
            out.push_str(&spaced.join(" "));
            out.push('\n');
        }
    }
    if !spec.progress.is_empty() {
        out.push_str("progress:\n");
        for row in crate::progress::rows(&spec.progress, spec.dims.width) {
            let spaced: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            out.push_str(&spaced.join(" "));
            out.push('\n');
        }
    }
    if let Some(sol) = &spec.solution {
        out.push_str("solution:\n");
        for row in sol.to_rows(spec.dims, &spec.fleet) {
            let spaced: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            out.push_str(&spaced.join(" "));
            out.push('\n');
        }
    }
    out
}
