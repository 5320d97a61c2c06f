//! MiniZinc data files of the "solbat" benchmark.
//!
//! Assignments `name = value;` with `%` comments. Read: `height`, `width`, `maxship`,
//! `ship` (how many ships of each length `1..=maxship`), `hint` (a 2-D array, `[| ... | ... |]`
//! or `array2d(1..h, 1..w, [...])`, with codes 0 none, 1 water, 2 single, 3 left end, 4 right
//! end, 5 top end, 6 bottom end, 7 middle), `rowsum` and `colsum`. Other names are ignored.
//! The rules are no-touch.

use std::collections::HashMap;

use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::problem::{Meta, ProblemSpec};
use crate::rules::Rules;
use crate::shape::{Segment, Shape};

use super::ParseError;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(i64),
    Ident(String),
    Sym(char),
    Bar2Open,  // [|
    Bar2Close, // |]
    DotDot,
}

/// A value and where it started.
type Pos = (usize, usize);

fn lex(input: &str) -> Result<Vec<(Tok, Pos)>, ParseError> {
    let mut out = Vec::new();
    for (li, line) in input.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let pos = (li + 1, i + 1);
            if c == '%' {
                break;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if c.is_ascii_digit()
                || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                let v = s.parse().map_err(|_| {
                    ParseError::new(pos.0, pos.1, format!("number {s} is out of range"))
                })?;
                out.push((Tok::Int(v), pos));
                continue;
            }
            if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Ident(chars[start..i].iter().collect()), pos));
                continue;
            }
            let next = chars.get(i + 1).copied();
            let tok = match (c, next) {
                ('[', Some('|')) => {
                    i += 1;
                    Tok::Bar2Open
                }
                ('|', Some(']')) => {
                    i += 1;
                    Tok::Bar2Close
                }
                ('.', Some('.')) => {
                    i += 1;
                    Tok::DotDot
                }
                ('=' | ';' | ',' | '[' | ']' | '|' | '(' | ')', _) => Tok::Sym(c),
                _ => {
                    return Err(ParseError::new(
                        pos.0,
                        pos.1,
                        format!("unexpected character {c:?}"),
                    ));
                }
            };
            out.push((tok, pos));
            i += 1;
        }
    }
    Ok(out)
}

#[derive(Debug)]
enum Value {
    Int(i64),
    /// A flat list, or a 2-D array's rows (one inner list per row).
    List(Vec<i64>),
    Rows(Vec<Vec<i64>>),
}

struct P {
    toks: Vec<(Tok, Pos)>,
    at: usize,
    end: Pos,
}

impl P {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.0)
    }
    fn pos(&self) -> Pos {
        self.toks.get(self.at).map_or(self.end, |t| t.1)
    }
    fn err(&self, m: impl ToString) -> ParseError {
        let (l, c) = self.pos();
        ParseError::new(l, c, m)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).map(|t| t.0.clone());
        self.at += 1;
        t
    }
    fn expect(&mut self, t: Tok, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(&t) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }
    fn int(&mut self) -> Result<i64, ParseError> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.at += 1;
                Ok(v)
            }
            _ => Err(self.err("expected an integer")),
        }
    }
    fn ints_until(&mut self, close: &[Tok]) -> Result<Vec<i64>, ParseError> {
        let mut v = Vec::new();
        loop {
            if self.peek().is_some_and(|t| close.contains(t)) {
                return Ok(v);
            }
            v.push(self.int()?);
            if self.peek() == Some(&Tok::Sym(',')) {
                self.at += 1;
            }
        }
    }
    fn value(&mut self) -> Result<Value, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Int(_)) => Ok(Value::Int(self.int()?)),
            Some(Tok::Sym('[')) => {
                self.at += 1;
                let v = self.ints_until(&[Tok::Sym(']')])?;
                self.expect(Tok::Sym(']'), "']'")?;
                Ok(Value::List(v))
            }
            Some(Tok::Bar2Open) => {
                self.at += 1;
                let mut rows = Vec::new();
                loop {
                    rows.push(self.ints_until(&[Tok::Sym('|'), Tok::Bar2Close])?);
                    match self.next() {
                        Some(Tok::Bar2Close) => break,
                        Some(Tok::Sym('|')) => {
                            if self.peek() == Some(&Tok::Sym(']')) {
                                self.at += 1;
                                break;
                            }
                        }
                        _ => return Err(self.err("expected '|' or '|]'")),
                    }
                }
                Ok(Value::Rows(rows))
            }
            Some(Tok::Ident(name)) if name == "array2d" => {
                self.at += 1;
                self.expect(Tok::Sym('('), "'('")?;
                let mut dims = Vec::new();
                for _ in 0..2 {
                    let lo = self.int()?;
                    self.expect(Tok::DotDot, "'..'")?;
                    let hi = self.int()?;
                    self.expect(Tok::Sym(','), "','")?;
                    dims.push((hi - lo + 1).max(0) as usize);
                }
                self.expect(Tok::Sym('['), "'['")?;
                let flat = self.ints_until(&[Tok::Sym(']')])?;
                self.expect(Tok::Sym(']'), "']'")?;
                self.expect(Tok::Sym(')'), "')'")?;
                if flat.len() != dims[0] * dims[1] || dims[1] == 0 {
                    return Err(self.err("array2d: the list does not fill the index ranges"));
                }
                Ok(Value::Rows(
                    flat.chunks(dims[1]).map(<[i64]>::to_vec).collect(),
                ))
            }
            _ => Err(self.err("expected a value: an integer, [...], [|...|] or array2d(...)")),
        }
    }
}

fn hint(code: i64) -> Option<Option<Clue>> {
    Some(match code {
        0 => None,
        1 => Some(Clue::Water),
        2 => Some(Clue::Segment(Segment::Single)),
        3 => Some(Clue::Segment(Segment::Left)),
        4 => Some(Clue::Segment(Segment::Right)),
        5 => Some(Clue::Segment(Segment::Top)),
        6 => Some(Clue::Segment(Segment::Bottom)),
        7 => Some(Clue::Segment(Segment::Middle)),
        _ => return None,
    })
}

/// Parses a solbat data file.
pub fn parse(input: &str) -> Result<ProblemSpec, ParseError> {
    let toks = lex(input)?;
    let end = (input.lines().count().max(1), 1);
    let mut p = P { toks, at: 0, end };
    let mut vals: HashMap<String, (Value, Pos)> = HashMap::new();
    while p.peek().is_some() {
        let pos = p.pos();
        let Some(Tok::Ident(name)) = p.next() else {
            return Err(ParseError::new(pos.0, pos.1, "expected a name"));
        };
        p.expect(Tok::Sym('='), "'='")?;
        let vpos = p.pos();
        let v = p.value()?;
        p.expect(Tok::Sym(';'), "';'")?;
        vals.insert(name, (v, vpos));
    }
    let get_int = |n: &str| -> Result<usize, ParseError> {
        match vals.get(n) {
            Some((Value::Int(v), pos)) => usize::try_from(*v)
                .map_err(|_| ParseError::new(pos.0, pos.1, format!("{n} must not be negative"))),
            Some((_, pos)) => Err(ParseError::new(
                pos.0,
                pos.1,
                format!("{n} must be an integer"),
            )),
            None => Err(ParseError::new(end.0, 1, format!("missing '{n} = ...;'"))),
        }
    };
    let get_list = |n: &str, len: usize| -> Result<Vec<usize>, ParseError> {
        match vals.get(n) {
            Some((Value::List(v), pos)) => {
                if v.len() != len {
                    return Err(ParseError::new(
                        pos.0,
                        pos.1,
                        format!("{n} has {} entries, expected {len}", v.len()),
                    ));
                }
                v.iter()
                    .map(|&x| {
                        usize::try_from(x).map_err(|_| {
                            ParseError::new(pos.0, pos.1, format!("{n} has a negative entry"))
                        })
                    })
                    .collect()
            }
            Some((_, pos)) => Err(ParseError::new(
                pos.0,
                pos.1,
                format!("{n} must be a list [...]"),
            )),
            None => Err(ParseError::new(end.0, 1, format!("missing '{n} = [...];'"))),
        }
    };
    let height = get_int("height")?;
    let width = get_int("width")?;
    let maxship = get_int("maxship")?;
    if maxship > 4096 {
        return Err(ParseError::new(end.0, 1, "maxship is too large"));
    }
    let dims = Dims::new(width, height)
        .supported()
        .map_err(|e| ParseError::new(end.0, 1, e))?;
    let ships = get_list("ship", maxship)?;
    let rows = get_list("rowsum", height)?;
    let cols = get_list("colsum", width)?;
    let mut clues = Vec::new();
    if let Some((v, pos)) = vals.get("hint") {
        let Value::Rows(grid) = v else {
            return Err(ParseError::new(pos.0, pos.1, "hint must be a 2-D array"));
        };
        if grid.len() != height || grid.iter().any(|r| r.len() != width) {
            return Err(ParseError::new(
                pos.0,
                pos.1,
                format!("hint must be {height} rows of {width}"),
            ));
        }
        for &code in grid.iter().flatten() {
            clues.push(hint(code).ok_or_else(|| {
                ParseError::new(pos.0, pos.1, format!("unknown hint code {code}"))
            })?);
        }
        if clues.iter().all(Option::is_none) {
            clues.clear();
        }
    }
    let fleet = Fleet::new(
        ships
            .iter()
            .enumerate()
            .map(|(i, &n)| (Shape::straight(i + 1), n, (i + 1).to_string())),
    );
    Ok(ProblemSpec {
        dims,
        fleet,
        rules: Rules::NoTouch,
        rows: rows.into_iter().map(Some).collect(),
        cols: cols.into_iter().map(Some).collect(),
        clues,
        solution: None,
        observations: Default::default(),
        progress: Vec::new(),
        digits: Vec::new(),
        meta: Meta::default(),
    })
}
