//! puzz.link URLs of Battleship puzzles, the form the pzprjs editor (puzz.link, pzv.jp and
//! their mirrors) and the cspuz solvers share puzzles in.
//!
//! `https://puzz.link/p?battleship/COLS/ROWS/BODY`, width first. The body holds, in order:
//!
//! 1. the column counts, then the row counts: each a hex digit (0–15), `-xx` (16–255) or `.`
//!    (a count drawn as `?`: not given), and `g` to `z` a run of 1 to 20 counts not given;
//! 2. the cells in reading order, coded the same way: `0` water, `1` a top end `^`, `2` a
//!    bottom end `v`, `3` a left end `<`, `4` a right end `>`, `5` a middle, `6` a one-cell
//!    ship, `.` a ship cell of unknown kind (`7` to `a`, the corner pieces of polyomino
//!    fleets, are refused: broadside's clues name straight segments only);
//! 3. the fleet: `//c` (3 ships of 1, 2 of 2, 1 of 3), `//d` (4, 3, 2 and 1 ships of 1 to 4
//!    cells), `//e` (5 to 1 ships of 1 to 5 cells), `//t` (the five tetrominoes), `//p` (the
//!    twelve pentominoes), or `/N/PIECE/...`: N pieces, each its width and height (a base-36
//!    digit each) and its cells as bits in reading order, five to a base-32 digit, high bit
//!    first, trailing zero digits left out (`21o` a ship of 2, `31s` of 3, `22u` a 2x2
//!    square). A body that starts with `/` gives no counts and no clues; one with no fleet
//!    part has pzprjs's default, `//d`.
//!
//! Ships never touch, not even diagonally (the puzzle's rule). [`write`](fn@write) gives the URL of a
//! problem this format can hold.

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::problem::ProblemSpec;
use crate::rules::Rules;
use crate::shape::{Segment, Shape};

use super::ParseError;

/// A cell of the number-16 coding: `Some(value)`, `Some(None)` for `.` (a clue of no value),
/// `None` for a cell the run-lengths skip.
type Coded = Option<Option<usize>>;

/// Whether `s` is a puzz.link-style URL of a Battleship puzzle (any host, with or without the
/// scheme): `...?battleship/...`.
pub fn is_url(s: &str) -> bool {
    let s = s.trim();
    !s.contains(char::is_whitespace)
        && s.split_once('?')
            .is_some_and(|(_, q)| q.starts_with("battleship/"))
}

/// The presets of the fleet part: shortcut letter, and the pieces.
const PRESETS: [(char, &[&str]); 5] = [
    ('c', &["11g", "11g", "11g", "21o", "21o", "31s"]),
    (
        'd',
        &[
            "11g", "11g", "11g", "11g", "21o", "21o", "21o", "31s", "31s", "41u",
        ],
    ),
    (
        'e',
        &[
            "11g", "11g", "11g", "11g", "11g", "21o", "21o", "21o", "21o", "31s", "31s", "31s",
            "41u", "41u", "51v",
        ],
    ),
    ('t', &["14u", "23bg", "22u", "23f", "23eg"]),
    (
        'p',
        &[
            "337k", "15v", "24as", "24bo", "23fg", "337i", "23rg", "334u", "335s", "33bk", "24bk",
            "337o",
        ],
    ),
];

/// Reads the URLs of `content`, one a line (blank lines skipped).
pub fn parse_many(content: &str) -> Result<Vec<ProblemSpec>, ParseError> {
    content
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l, i + 1))
        .collect()
}

/// Reads one URL.
pub fn parse(url: &str) -> Result<ProblemSpec, ParseError> {
    parse_line(url, 1)
}

/// A cursor over a URL line: errors say the line and the column.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    /// The whole line, and where `text` starts in it (in bytes), for columns.
    whole: &'a str,
    offset: usize,
    line: usize,
}

/// The column (from 1, in characters, as an editor counts) of byte `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    line.char_indices().take_while(|&(b, _)| b < at).count() + 1
}

/// `text` as an error quotes it: whole when short, else its start and its length.
fn quoted(text: &str) -> String {
    const SHOWN: usize = 40;
    let n = text.chars().count();
    if n <= SHOWN {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head:?}... ({n} characters)")
}

impl Reader<'_> {
    fn error(&self, message: impl ToString) -> ParseError {
        ParseError::new(
            self.line,
            column(self.whole, self.offset + self.at),
            message,
        )
    }

    /// The character at the cursor (the byte there may start a longer one).
    fn char_here(&self) -> char {
        self.whole[self.offset + self.at..]
            .chars()
            .next()
            .unwrap_or('?')
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Hex digits `n` long, as a number.
    fn hex(&mut self, n: usize) -> Result<usize, ParseError> {
        let digits = self
            .text
            .get(self.at..self.at + n)
            .and_then(|d| std::str::from_utf8(d).ok())
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error(format!("expected {n} hex digits")))?;
        self.at += n;
        Ok(usize::from_str_radix(digits, 16).expect("hex digits"))
    }

    /// `n` values in the number-16 coding: each `Some(value)`, `Some(None)` for `.`, `None`
    /// for a cell the run-lengths skip. `large` admits the cells' `+`, `=` and `%` forms.
    fn numbers(&mut self, n: usize) -> Result<Vec<Coded>, ParseError> {
        let mut out = vec![None; n];
        let mut i = 0;
        while i < n {
            let Some(b) = self.peek() else { break };
            if b == b'/' {
                break;
            }
            match b {
                b'0'..=b'9' | b'a'..=b'f' => {
                    out[i] = Some(Some(self.hex(1)?));
                    i += 1;
                }
                b'-' => {
                    self.at += 1;
                    out[i] = Some(Some(self.hex(2)?));
                    i += 1;
                }
                b'+' | b'=' | b'%' => {
                    let base = match b {
                        b'+' => 0,
                        b'=' => 4096,
                        _ => 8192,
                    };
                    self.at += 1;
                    out[i] = Some(Some(base + self.hex(3)?));
                    i += 1;
                }
                b'.' => {
                    self.at += 1;
                    out[i] = Some(None);
                    i += 1;
                }
                b'g'..=b'z' => {
                    self.at += 1;
                    i += usize::from(b - b'g') + 1;
                }
                _ => {
                    return Err(self.error(format!(
                        "unexpected {:?} in the counts and clues",
                        self.char_here()
                    )));
                }
            }
        }
        Ok(out)
    }
}

/// The clue of a cell code.
pub(super) fn clue(code: Option<usize>) -> Result<Clue, String> {
    Ok(match code {
        None => Clue::Ship,
        Some(0) => Clue::Water,
        Some(1) => Clue::Segment(Segment::Top),
        Some(2) => Clue::Segment(Segment::Bottom),
        Some(3) => Clue::Segment(Segment::Left),
        Some(4) => Clue::Segment(Segment::Right),
        Some(5) => Clue::Segment(Segment::Middle),
        Some(6) => Clue::Segment(Segment::Single),
        Some(7..=10) => {
            return Err(
                "a corner clue (7 to a) of a polyomino fleet: broadside's clues name straight segments only"
                    .into(),
            );
        }
        Some(n) => return Err(format!("{n} is not a cell clue (0 to 6, or .)")),
    })
}

/// The code of a clue; `None` for one the format lacks.
pub(super) fn code(clue: Clue) -> Option<char> {
    Some(match clue {
        Clue::Ship => '.',
        Clue::Water => '0',
        Clue::Segment(Segment::Top) => '1',
        Clue::Segment(Segment::Bottom) => '2',
        Clue::Segment(Segment::Left) => '3',
        Clue::Segment(Segment::Right) => '4',
        Clue::Segment(Segment::Middle) => '5',
        Clue::Segment(Segment::Single) => '6',
        Clue::Blocked => return None,
    })
}

/// The shape of a piece code (`31s`); `None` for a malformed one.
pub(super) fn piece(code: &str) -> Option<Shape> {
    let digits: Vec<char> = code.chars().collect();
    if digits.len() < 3 {
        return None;
    }
    let w = digits[0].to_digit(36)? as usize;
    let h = digits[1].to_digit(36)? as usize;
    let mut bits = Vec::new();
    for d in &digits[2..] {
        let v = d.to_digit(32)?;
        bits.extend((0..5).rev().map(|k| (v >> k) & 1 == 1));
    }
    let cells = (0..w * h).filter(|&i| bits.get(i).copied().unwrap_or(false));
    Shape::new(cells.map(|i| (i / w, i % w)).collect::<Vec<_>>()).ok()
}

/// The code of a shape, as pzprjs writes it: laid flat (a straight ship lies horizontally).
fn piece_code(shape: &Shape) -> Option<String> {
    let (h, w) = shape.extent();
    let (h, w, cells): (usize, usize, Vec<(usize, usize)>) = if shape.straight_len().is_some() {
        let n = shape.size();
        (1, n, (0..n).map(|c| (0, c)).collect())
    } else {
        (h, w, shape.cells().to_vec())
    };
    let (wd, hd) = (
        char::from_digit(w as u32, 36)?,
        char::from_digit(h as u32, 36)?,
    );
    let mut bits = vec![false; w * h];
    for (r, c) in cells {
        bits[r * w + c] = true;
    }
    let mut out = format!("{wd}{hd}");
    for chunk in bits.chunks(5) {
        let v = chunk
            .iter()
            .chain(std::iter::repeat(&false))
            .take(5)
            .fold(0, |v, &b| v * 2 + u32::from(b));
        out.push(char::from_digit(v, 32).expect("five bits"));
    }
    while out.len() > 2 && out.ends_with('0') {
        out.pop();
    }
    Some(out)
}

/// Names for the polyominoes of a fleet read from a URL: the usual letter of a tetromino or
/// pentomino (`tetromino-T`), else `piece-N`.
fn polyomino_name(shape: &Shape, n: usize) -> String {
    const LETTERS: [(&str, &str); 15] = [
        ("23bg", "tetromino-L"),
        ("22u", "tetromino-O"),
        ("23f", "tetromino-S"),
        ("23eg", "tetromino-T"),
        ("337k", "pentomino-F"),
        ("24as", "pentomino-L"),
        ("24bo", "pentomino-N"),
        ("23fg", "pentomino-P"),
        ("337i", "pentomino-T"),
        ("23rg", "pentomino-U"),
        ("334u", "pentomino-V"),
        ("335s", "pentomino-W"),
        ("33bk", "pentomino-X"),
        ("24bk", "pentomino-Y"),
        ("337o", "pentomino-Z"),
    ];
    LETTERS
        .iter()
        .find(|(code, _)| piece(code).is_some_and(|s| s.canonical() == shape.canonical()))
        .map(|(_, name)| name.to_string())
        .unwrap_or_else(|| format!("piece-{n}"))
}

/// The fleet of pieces, each a ship: straight ones by length, the others as named polyominoes.
pub(super) fn fleet_of(pieces: &[Shape]) -> Fleet {
    let mut names: Vec<(Shape, String)> = Vec::new();
    let mut unnamed = 0;
    let entries: Vec<(Shape, usize, String)> = pieces
        .iter()
        .map(|s| {
            let name = match s.straight_len() {
                Some(l) => l.to_string(),
                None => match names.iter().find(|(t, _)| t.canonical() == s.canonical()) {
                    Some((_, n)) => n.clone(),
                    None => {
                        let n = polyomino_name(s, unnamed + 1);
                        if n.starts_with("piece-") {
                            unnamed += 1;
                        }
                        names.push((s.clone(), n.clone()));
                        n
                    }
                },
            };
            (s.clone(), 1, name)
        })
        .collect();
    Fleet::new(entries)
}

fn parse_line(line: &str, ln: usize) -> Result<ProblemSpec, ParseError> {
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    let url = trimmed.trim_end();
    let err = |at: usize, m: &str| ParseError::new(ln, column(line, lead + at), m);
    let Some(q) = url.find('?') else {
        return Err(err(0, "not a puzz.link URL: no `?battleship/...`"));
    };
    let query = &url[q + 1..];
    let query = query.split(['#', '&']).next().unwrap_or("");
    let Some(rest) = query.strip_prefix("battleship/") else {
        let kind = query.split('/').next().unwrap_or("");
        return Err(err(
            q + 1,
            &format!(
                "a puzz.link URL of {}, not of a Battleship puzzle",
                quoted(kind)
            ),
        ));
    };
    let mut at = q + 1 + "battleship/".len();
    let mut parts = rest.splitn(2, '/');
    let mut first = parts.next().unwrap_or("");
    let mut rest = parts.next().unwrap_or("");
    // An optional flag word (pzprjs's pflag: letters) before the size; anything else there
    // is read, and refused, as the number of columns.
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_alphabetic()) {
        at += first.len() + 1;
        let mut p = rest.splitn(2, '/');
        first = p.next().unwrap_or("");
        rest = p.next().unwrap_or("");
    }
    let number = |s: &str, at: usize, what: &str| -> Result<usize, ParseError> {
        s.parse::<usize>()
            .ok()
            .filter(|&n| (1..=4096).contains(&n))
            .ok_or_else(|| {
                err(
                    at,
                    &format!("expected the {what}, a whole number, not {}", quoted(s)),
                )
            })
    };
    let cols = number(first, at, "number of columns")?;
    at += first.len() + 1;
    let (second, body) = rest.split_once('/').unwrap_or((rest, ""));
    let rows = number(second, at, "number of rows")?;
    at += second.len() + 1;
    let dims = Dims::new(cols, rows)
        .supported()
        .map_err(|e| err(at, &e.to_string()))?;
    let mut r = Reader {
        text: body.as_bytes(),
        at: 0,
        whole: line,
        offset: lead + at,
        line: ln,
    };
    // Counts and clues, unless the body starts with the fleet.
    let (mut counts, mut cells) = (Vec::new(), Vec::new());
    if r.peek().is_some_and(|b| b != b'/') {
        counts = r.numbers(cols + rows)?;
        cells = r.numbers(dims.cells())?;
    }
    for (i, c) in counts.iter().enumerate() {
        if let Some(Some(n)) = *c {
            let (line_len, what) = if i < cols {
                (rows, "column")
            } else {
                (cols, "row")
            };
            if n > line_len {
                return Err(r.error(format!(
                    "{what} count {n} is more than the {line_len} cells of a {what}"
                )));
            }
        }
    }
    let col_counts: Vec<Option<usize>> = (0..cols)
        .map(|i| counts.get(i).copied().flatten().flatten())
        .collect();
    let row_counts: Vec<Option<usize>> = (0..rows)
        .map(|i| counts.get(cols + i).copied().flatten().flatten())
        .collect();
    let mut clues = vec![None; dims.cells()];
    for (i, c) in cells.iter().enumerate() {
        if let Some(code) = *c {
            clues[i] = Some(clue(code).map_err(|m| {
                let (row, col) = dims.row_col(i);
                r.error(format!("cell row {}, column {}: {m}", row + 1, col + 1))
            })?);
        }
    }
    // The fleet.
    let fleet_at = r.at;
    let fleet_text = std::str::from_utf8(&r.text[r.at..]).expect("a suffix of a str at ASCII");
    let pieces: Vec<Shape> = if fleet_text.is_empty() {
        preset('d')
    } else if let Some(key) = fleet_text.strip_prefix("//") {
        let mut k = key.chars();
        match (k.next(), k.next()) {
            (Some(c), None) if PRESETS.iter().any(|(p, _)| *p == c) => preset(c),
            _ => {
                return Err(r.error(format!(
                    "unknown fleet preset {} (//c, //d, //e, //t or //p)",
                    quoted(&format!("//{key}"))
                )));
            }
        }
    } else if let Some(list) = fleet_text.strip_prefix('/') {
        let mut fields = list.split('/');
        let n: usize = fields
            .next()
            .and_then(|n| n.parse().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| r.error("expected the number of pieces after /"))?;
        let codes: Vec<&str> = fields.filter(|f| !f.is_empty()).collect();
        if codes.len() != n {
            return Err(r.error(format!("{n} pieces announced, {} given", codes.len())));
        }
        let mut pieces = Vec::new();
        let mut col = fleet_at + 1 + n.to_string().len() + 1;
        for c in codes {
            let shape = piece(c).ok_or_else(|| {
                ParseError::new(
                    ln,
                    column(line, lead + at + col),
                    format!(
                        "{} is not a piece (width, height, cells in base 32)",
                        quoted(c)
                    ),
                )
            })?;
            pieces.push(shape);
            col += c.len() + 1;
        }
        pieces
    } else {
        return Err(r.error("expected the fleet: //c, //d, //e, //t, //p or /N/PIECE/..."));
    };
    let spec = ProblemSpec {
        dims,
        fleet: fleet_of(&pieces),
        rules: Rules::NoTouch,
        rows: if row_counts.iter().all(Option::is_none) {
            Vec::new()
        } else {
            row_counts
        },
        cols: if col_counts.iter().all(Option::is_none) {
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
        progress: Vec::new(),
        digits: Vec::new(),
        meta: Default::default(),
    };
    super::described(spec, ln)
}

/// The pieces of a preset.
pub(super) fn preset(key: char) -> Vec<Shape> {
    PRESETS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, codes)| {
            codes
                .iter()
                .map(|c| piece(c).expect("a preset piece"))
                .collect()
        })
        .unwrap_or_default()
}

/// A fleet as pzprjs's piece bank holds it: a preset's letter, or every piece's code.
pub(super) enum Bank {
    /// A preset (`c`, `d`, `e`, `t`, `p`).
    Preset(char),
    /// The pieces' codes, largest first.
    Pieces(Vec<String>),
}

/// The bank of `fleet`: a preset when it is one, else its pieces; the reason when a piece has
/// no code (wider or taller than 35 cells).
pub(super) fn bank(fleet: &Fleet) -> Result<Bank, String> {
    let mut pieces = Vec::new();
    for t in fleet.types() {
        let code = piece_code(&t.shape)
            .ok_or_else(|| format!("ship {} is over 35 cells wide or tall", t.shape.art()))?;
        pieces.extend(std::iter::repeat_n(code, t.count));
    }
    let same = |codes: &[&str]| {
        let mut a: Vec<Shape> = codes.iter().filter_map(|c| piece(c)).collect();
        let mut b: Vec<Shape> = pieces.iter().filter_map(|c| piece(c)).collect();
        a.iter_mut().for_each(|s| *s = s.canonical());
        b.iter_mut().for_each(|s| *s = s.canonical());
        a.sort();
        b.sort();
        a == b
    };
    if let Some((key, _)) = PRESETS.iter().find(|(_, codes)| same(codes)) {
        return Ok(Bank::Preset(*key));
    }
    pieces.sort_by_key(|c| std::cmp::Reverse(piece(c).map_or(0, |s| s.size())));
    Ok(Bank::Pieces(pieces))
}

/// Why a problem has no puzz.link URL.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no puzz.link URL: {0}")]
pub struct Unwritable(pub String);

/// The number-16 coding of `values` (`None` skipped in runs, `Some(None)` as `.`).
fn encode_numbers(values: impl IntoIterator<Item = Option<Option<usize>>>, out: &mut String) {
    let mut run = 0;
    let flush = |run: &mut usize, out: &mut String| {
        if *run > 0 {
            out.push(char::from_digit((15 + *run) as u32, 36).expect("a run of 1 to 20"));
            *run = 0;
        }
    };
    for v in values {
        match v {
            None => {
                run += 1;
                if run == 20 {
                    flush(&mut run, out);
                }
            }
            Some(v) => {
                flush(&mut run, out);
                match v {
                    None => out.push('.'),
                    Some(n) if n < 16 => out.push_str(&format!("{n:x}")),
                    Some(n) => out.push_str(&format!("-{n:02x}")),
                }
            }
        }
    }
    flush(&mut run, out);
}

/// The puzz.link URL of `spec`: a puzzle under the no-touch rule, with counts of at most 255,
/// clues the format has (no rock), no shots, and ships no wider or taller than 35 cells.
pub fn write(spec: &ProblemSpec) -> Result<String, Unwritable> {
    if spec.rules != Rules::NoTouch {
        return Err(Unwritable(
            "puzz.link's Battleship has ships that never touch; this problem lets them touch"
                .into(),
        ));
    }
    if !spec.observations.shots.is_empty() {
        return Err(Unwritable(
            "a game record (shots) is not a puzzle; puzz.link holds counts and clues only".into(),
        ));
    }
    if spec.is_digital() {
        return Err(Unwritable(
            "puzz.link's Battleship has no digits; this is a Digital Battleships puzzle".into(),
        ));
    }
    let d = spec.dims;
    let mut body = String::new();
    let count = |v: &[Option<usize>], i: usize| v.get(i).copied().flatten();
    let mut counts = Vec::new();
    for i in 0..d.width {
        counts.push(count(&spec.cols, i));
    }
    for i in 0..d.height {
        counts.push(count(&spec.rows, i));
    }
    if counts.iter().flatten().any(|&n| n > 255) {
        return Err(Unwritable("a count over 255".into()));
    }
    encode_numbers(counts.into_iter().map(|c| c.map(Some)), &mut body);
    let mut cells = Vec::new();
    for i in 0..d.cells() {
        match spec.clues.get(i).copied().flatten() {
            None => cells.push(None),
            Some(c) => {
                let ch = code(c).ok_or_else(|| {
                    let (r, col) = d.row_col(i);
                    Unwritable(format!(
                        "a rock at row {}, column {}: the format has no rocks",
                        r + 1,
                        col + 1
                    ))
                })?;
                cells.push(Some(ch.to_digit(16)));
            }
        }
    }
    encode_numbers(
        cells.into_iter().map(|c| c.map(|d| d.map(|d| d as usize))),
        &mut body,
    );
    // The fleet: a preset when it is one, else every piece.
    match bank(&spec.fleet).map_err(Unwritable)? {
        Bank::Preset(key) => body.push_str(&format!("//{key}")),
        Bank::Pieces(pieces) => body.push_str(&format!("/{}/{}", pieces.len(), pieces.join("/"))),
    }
    Ok(format!(
        "https://puzz.link/p?battleship/{}/{}/{body}",
        d.width, d.height
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_and_write_as_pzprjs_codes() {
        for (code, art) in [
            ("11g", "#"),
            ("21o", "##"),
            ("31s", "###"),
            ("41u", "####"),
            ("51v", "#####"),
            ("22u", "##/##"),
            ("23fg", ".#/##/##"),
            ("337k", "..#/###/.#."),
        ] {
            let s = piece(code).unwrap();
            assert_eq!(
                s.canonical(),
                Shape::parse_art(art).unwrap().canonical(),
                "{code}"
            );
        }
        for code in ["11g", "21o", "31s", "51v", "22u", "23fg", "337k", "35iff"] {
            let s = piece(code).unwrap();
            assert_eq!(piece_code(&s).as_deref(), Some(code), "{code}");
        }
        // A vertical straight piece reads as the same ship and is written lying flat.
        assert_eq!(piece_code(&piece("12o").unwrap()).as_deref(), Some("21o"));
        for bad in ["1", "1g", "11!", "00g", "21", "12!"] {
            assert!(piece(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn number_runs_code_as_pzprjs_writes_them() {
        let mut s = String::new();
        let mut v = vec![None; 25];
        v[0] = Some(Some(1));
        v[3] = Some(None);
        v[4] = Some(Some(17));
        encode_numbers(v, &mut s);
        // 1, two skipped (h), ?, 17 (-11), twenty skipped (z), none left.
        assert_eq!(s, "1h.-11z");
    }
}
