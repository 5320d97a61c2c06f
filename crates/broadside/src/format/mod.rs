//! File formats: broadside's text and JSON formats, and the formats people already have.
//!
//! - [`text`]: the plain-text format a person reads and types (`docs/FORMAT.md`).
//! - [`json`]: the same content as JSON, for programs.
//! - [`jsonl`]: the JSON-lines puzzle records of the external puzzle collections.
//! - [`dzn`]: MiniZinc data files of the "solbat" benchmark.
//! - [`xcsp`]: the XCSP3/PyCSP3 Battleships JSON.
//! - [`samples`]: files of sampled layouts, for judging a sampler.
//! - [`puzlink`]: puzz.link URLs of Battleship puzzles (pzprjs, cspuz), one a line.
//! - [`pzprv3`]: pzprjs's own files of Battleship puzzles, a person's marks included.
//! - [`input`]: an input file or stream read whole, refusing devices and endless lines.
//!
//! [`read`] detects the format from the file name and the content and returns every problem
//! in the input (a JSON-lines file holds many). Errors carry the line and column.

pub mod dzn;
pub mod input;
pub mod json;
pub mod jsonl;
pub mod puzlink;
pub mod pzprv3;
pub mod samples;
pub mod text;
pub mod xcsp;

use crate::problem::ProblemSpec;

/// A malformed input: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}line {line}, column {column}: {message}", file.as_ref().map(|f| format!("{f}: ")).unwrap_or_default())]
pub struct ParseError {
    /// The file, when known.
    pub file: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was wrong or expected.
    pub message: String,
}

impl ParseError {
    /// An error at a line and column.
    pub fn new(line: usize, column: usize, message: impl ToString) -> Self {
        ParseError {
            file: None,
            line,
            column,
            message: message.to_string(),
        }
    }

    /// The same error, naming the file.
    pub fn in_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }

    /// An error from serde_json, which reports line and column itself.
    pub fn from_json(e: &serde_json::Error, line_offset: usize) -> Self {
        // serde's message ends with the place, which the error already says.
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message).to_string();
        ParseError::new(e.line() + line_offset, e.column().max(1), message)
    }
}

/// The formats broadside reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// broadside's text format.
    Text,
    /// broadside's JSON format.
    Json,
    /// JSON lines, one external puzzle record per line.
    Jsonl,
    /// MiniZinc data.
    Dzn,
    /// XCSP3/PyCSP3 JSON.
    Xcsp,
    /// puzz.link URLs, one a line.
    Puzlink,
    /// pzprjs's own file (`pzprv3`).
    Pzprv3,
}

impl Format {
    /// Detects the format from a file name (may be `-`) and the content.
    pub fn detect(name: &str, content: &str) -> Format {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".dzn") {
            return Format::Dzn;
        }
        // JSON lines are the external collections' records (which carry "hints"), or
        // broadside's own JSON problems a line each (as `simulate --out` writes them).
        if (lower.ends_with(".jsonl") || lower.ends_with(".ndjson"))
            && (content.contains("\"hints\"") || !content.contains("\"width\""))
        {
            return Format::Jsonl;
        }
        let trimmed = content.trim_start();
        if trimmed.lines().next().is_some_and(puzlink::is_url) {
            return Format::Puzlink;
        }
        if pzprv3::is_pzprv3(trimmed) {
            return Format::Pzprv3;
        }
        // A JSON array of broadside's JSON problems.
        if trimmed.starts_with('[') {
            return Format::Json;
        }
        if trimmed.starts_with('{') {
            if content.contains("\"rowSums\"") {
                return Format::Xcsp;
            }
            let objects = content
                .lines()
                .filter(|l| l.trim_start().starts_with('{'))
                .count();
            let json_lines = content
                .lines()
                .filter(|l| !l.trim().is_empty())
                .all(|l| l.trim_start().starts_with('{') && l.trim_end().ends_with('}'));
            if content.contains("\"hints\"") && json_lines && objects >= 1 {
                return Format::Jsonl;
            }
            return Format::Json;
        }
        if !lower.ends_with(".txt") && content.contains("rowsum") && content.contains(';') {
            return Format::Dzn;
        }
        Format::Text
    }
}

/// `spec` if it describes a board, else its defects ([`ProblemSpec::defects`]) as an error
/// at `line` (where the problem was written), for readers that cannot point closer.
fn described(spec: ProblemSpec, line: usize) -> Result<ProblemSpec, ParseError> {
    let defects = spec.defects();
    if defects.is_empty() {
        Ok(spec)
    } else {
        Err(ParseError::new(line, 1, crate::ProblemError(defects)))
    }
}

/// Parses every problem in `content`, detecting the format from `name` and the content.
/// Errors name the file.
pub fn read(name: &str, content: &str) -> Result<Vec<ProblemSpec>, ParseError> {
    // A byte-order mark is how some editors start a UTF-8 file; it is not content.
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let r = match Format::detect(name, content) {
        Format::Text => text::parse_many(content),
        Format::Json => json::parse_many(content),
        Format::Jsonl => jsonl::parse(content),
        Format::Dzn => dzn::parse(content).map(|p| vec![p]),
        Format::Xcsp => xcsp::parse(content).map(|p| vec![p]),
        Format::Puzlink => puzlink::parse_many(content),
        Format::Pzprv3 => pzprv3::parse(content).map(|p| vec![p]),
    };
    r.map_err(|e| e.in_file(name))
}
