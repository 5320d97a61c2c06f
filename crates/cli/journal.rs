//! The `--out FILE [--resume]` of the commands that play or measure many games one by one
//! (`gains`, `match`, `accuracy`): a first line naming the run, then a JSON line per game as
//! it is done, flushed, so a run killed outright keeps what it did; `--resume` reads the
//! file back, checks it was written by the same run, and the command does only what it lacks
//! (docs/JSON.md). Nothing is written before the first item is done, so a run refused for its
//! input, or stopped at once, leaves an earlier run's file as it was.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;

use broadside::format::ParseError;
use broadside::output::{self, Lines, OutputError};

use crate::usage;

/// What a command's --out file is of: its first line, and how its other lines are keyed.
pub trait Run: Serialize + DeserializeOwned + PartialEq {
    /// The command that writes such files, as a refusal names it (`gains --out`).
    const WRITER: &'static str;
    /// The key of an item's line: `game` or `pair`, numbered from 1.
    const ITEM: &'static str;
    /// How many items the run has.
    fn items(&self) -> usize;
    /// The run in words, for a refusal of another run's file (`6 games measured with
    /// --layouts 300 --seed 1`).
    fn describe(&self) -> String;
}

/// The options of a command that keeps its games in an --out file.
#[derive(clap::Args)]
pub struct JournalArgs {
    /// Keep each game (for `match`, each pair of games) in this file as it is done, a JSON
    /// line each after a first line naming the run (docs/JSON.md): a run killed outright keeps
    /// them, and --resume goes on from them.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Go on with a run that was cut short, given the same arguments: what the --out file
    /// holds (checked to be this run's; a last line cut mid-way is dropped) is not done again,
    /// and the answer is the whole run's.
    #[arg(long, requires = "out")]
    pub resume: bool,
}

impl JournalArgs {
    /// The journal of `run`, with what it holds (an entry per item), or none and nothing
    /// kept without --out; see [`Journal::open`].
    pub fn open<R: Run, T: DeserializeOwned>(
        &self,
        run: &R,
        check: impl Fn(usize, &T) -> Result<(), String>,
    ) -> Result<(Option<Journal>, Vec<Option<T>>)> {
        match &self.out {
            Some(path) => {
                let (journal, kept) = Journal::open(path, self.resume, run, check)?;
                Ok((Some(journal), kept))
            }
            None => Ok((None, Vec::new())),
        }
    }

    /// `answer` as JSON, with `"resumed"`: the games kept from the --out file, when resuming.
    pub fn json(&self, answer: &impl Serialize, resumed: u64) -> Result<serde_json::Value> {
        let mut v = serde_json::to_value(answer)?;
        if self.resume {
            v["resumed"] = resumed.into();
        }
        Ok(v)
    }

    /// What a partial answer's notice adds: how to go on.
    pub fn then(&self) -> &'static str {
        if self.out.is_some() {
            "; --resume goes on from the --out file"
        } else {
            ""
        }
    }
}

/// A command's --out file, shared by the threads that finish items. It is written from the
/// first item done on: a run refused or stopped before then leaves the file there as it was.
pub struct Journal {
    path: PathBuf,
    /// The run's first line.
    header: String,
    item: &'static str,
    /// Whether the items go after the whole lines of the file there (`--resume` on a file).
    append: bool,
    /// The file, once an item is written.
    lines: Mutex<Option<Lines>>,
    /// The first write that failed: the run stops there.
    error: Mutex<Option<OutputError>>,
}

impl Journal {
    /// The --out file `path` of `run`: a new file (one there is replaced once the first item
    /// is done) or, with `resume` and a file there, that file, whose whole lines are read and
    /// checked to be `run`'s (the items then go after them, a last line cut mid-way dropped).
    /// Returns the journal and the items the file holds, an entry per item of the run.
    /// `check(i, item)` refuses an item read back that cannot be item `i` (from 0) of this
    /// run, saying why. A refusal is a usage error naming the file's line.
    fn open<R: Run, T: DeserializeOwned>(
        path: &Path,
        resume: bool,
        run: &R,
        check: impl Fn(usize, &T) -> Result<(), String>,
    ) -> Result<(Journal, Vec<Option<T>>)> {
        output::check_writable(path).map_err(|e| usage(e.to_string()))?;
        let append = resume && path.exists();
        let old = if append {
            let content =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            // Its whole lines: a last line cut mid-way is not one.
            let whole = content
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            String::from_utf8_lossy(&content[..whole])
                .lines()
                .map(str::to_string)
                .collect()
        } else {
            Vec::new()
        };
        let kept = read(path, &old, run, check)?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                header: serde_json::to_string(run)?,
                item: R::ITEM,
                append,
                lines: Mutex::new(None),
                error: Mutex::new(None),
            },
            kept,
        ))
    }

    /// Writes item `i` (from 0) as a line, `{"ITEM":i+1,` and the item's own fields. When the
    /// write fails, raises `stop`: what is done from there on could not be kept.
    pub fn keep<T: Serialize>(&self, i: usize, item: &T, stop: &AtomicBool) {
        let fields = serde_json::to_string(item).expect("an item prints as JSON");
        debug_assert!(
            fields.starts_with('{') && fields.len() > 2,
            "an item is an object"
        );
        let line = format!("{{\"{}\":{},{}", self.item, i + 1, &fields[1..]);
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let written = match lines.as_mut() {
            Some(lines) => lines.push(&line),
            None => self.start().and_then(|mut l| {
                let pushed = l.push(&line);
                *lines = Some(l);
                pushed
            }),
        };
        if let Err(e) = written {
            self.error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// The file opened for the first item: after the whole lines there, or new, with the
    /// run's first line where it has none.
    fn start(&self) -> Result<Lines, OutputError> {
        let (mut lines, old) = if self.append {
            Lines::resume(&self.path)?
        } else {
            (Lines::create(&self.path)?, Vec::new())
        };
        if old.is_empty() {
            lines.push(&self.header)?;
        }
        Ok(lines)
    }

    /// After the run: the error that stopped it, if a write failed, with how many items the
    /// file holds.
    pub fn finish(journal: Option<Journal>) -> Result<()> {
        let Some(journal) = journal else {
            return Ok(());
        };
        journal.close()
    }

    fn close(self) -> Result<()> {
        let error = self.error.into_inner().unwrap_or_else(|e| e.into_inner());
        let Some(e) = error else {
            return Ok(());
        };
        let lines = self
            .lines
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .map_or(0, |l| l.lines());
        Err(anyhow::Error::from(e).context(format!(
            "the run stopped; {} {}s done are in the --out file",
            lines.saturating_sub(1),
            self.item
        )))
    }
}

/// The items `lines` (the whole lines of the file at `path`) hold, an entry per item of `run`,
/// after checking the file was written by `run`.
fn read<R: Run, T: DeserializeOwned>(
    path: &Path,
    lines: &[String],
    run: &R,
    check: impl Fn(usize, &T) -> Result<(), String>,
) -> Result<Vec<Option<T>>> {
    let name = path.display().to_string();
    let mut kept: Vec<Option<T>> = std::iter::repeat_with(|| None).take(run.items()).collect();
    let Some(first) = lines.first() else {
        return Ok(kept);
    };
    // Line `n` of the file is not JSON of the form expected.
    let parse_error = |n: usize, e: serde_json::Error| {
        usage(format!(
            "{} (not as `{}` writes)",
            ParseError::from_json(&e, n - 1).in_file(&name),
            R::WRITER
        ))
    };
    let was: R = serde_json::from_str(first).map_err(|e| parse_error(1, e))?;
    if &was != run {
        return Err(usage(format!(
            "{name}: line 1: written by another run ({}), not by this one ({}): resume with the same, or write to another file",
            was.describe(),
            run.describe()
        )));
    }
    let item = R::ITEM;
    for (n, line) in lines.iter().enumerate().skip(1) {
        let n = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let key: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).map_err(|e| parse_error(n, e))?;
        let k = key
            .get(item)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| usage(format!("{name}: line {n}: no \"{item}\" number")))?;
        let value: T = serde_json::from_str(line).map_err(|e| parse_error(n, e))?;
        let slot = usize::try_from(k)
            .ok()
            .and_then(|k| k.checked_sub(1))
            .filter(|&i| i < kept.len())
            .ok_or_else(|| {
                usage(format!(
                    "{name}: line {n}: {item} {k} is not among the run's {} {item}s",
                    kept.len()
                ))
            })?;
        check(slot, &value).map_err(|why| usage(format!("{name}: line {n}: {why}")))?;
        if kept[slot].is_some() {
            return Err(usage(format!(
                "{name}: line {n}: {item} {k} is there twice"
            )));
        }
        kept[slot] = Some(value);
    }
    Ok(kept)
}
