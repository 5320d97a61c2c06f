//! The puzzle page's API: the bundled puzzles, a person's progress checked and hinted (what
//! `check --json` and `hint --json` print), puzzles generated, graded and converted.
//!
//! - `GET /api/puzzles`: the catalogue, `[{"id", "group", "name", "size"}]`.
//! - `GET /api/puzzle?id=ID`: one bundled puzzle as `{"id", "group", "problem"}`, the
//!   problem in the JSON format without its solution.
//! - `POST /api/puzzle`: the body's puzzle (any format the CLI reads) as the page loads one.
//! - `POST /api/check` and `POST /api/hint` (`?all=1` for every mistake): the body is a
//!   puzzle with its progress, in any format the CLI reads.
//! - `POST /api/generate?size=WxH&fleet=...&difficulty=...&seed=N`: a new unique puzzle, as
//!   `/api/puzzle` gives one.
//! - `POST /api/grade`: what `grade --json` prints for the body.
//! - `POST /api/convert?to=text|json|puzlink|pzprv3`: the body written as `convert` writes it.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;

use broadside::answer::{self, label};
use broadside::format::{self, json::JsonProblem};
use broadside::generate::{self, GenerateOptions};
use broadside::logic::Grade;
use broadside::{Dims, Fleet, ProblemSpec};

use super::Server;
use super::http::Reply;
use super::routes::problems;

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// The largest board the page generates puzzles for.
const LARGEST: usize = 400;

/// One bundled puzzle.
struct Entry {
    id: String,
    group: String,
    name: String,
    spec: ProblemSpec,
}

/// A catalogue line, as `/api/puzzles` lists it.
#[derive(Serialize)]
struct Listed<'a> {
    id: &'a str,
    group: &'a str,
    name: &'a str,
    size: String,
}

/// A puzzle as the page loads it.
#[derive(Serialize)]
struct Loaded<'a> {
    id: Option<&'a str>,
    group: Option<&'a str>,
    /// The problem in the JSON format, without its solution (with the progress it has).
    problem: JsonProblem,
    /// The fleet's ship lengths, longest first, when every ship is straight.
    lengths: Option<Vec<usize>>,
}

/// The group a bundled file's puzzles are listed under.
fn group_of(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let collection = |stem: &str| match stem {
        "rubin303" => "Moshe Rubin's hard boards (CSPLib)".to_string(),
        "ist25" => "IST Lisbon course tests".to_string(),
        "krazydad12" => "Krazydad".to_string(),
        "lukerissacher11" => "lukerissacher.com".to_string(),
        "cschuerc24" => "BimaruSolver seeds".to_string(),
        other => other.to_string(),
    };
    match parts.as_slice() {
        ["external", file] => collection(file.trim_end_matches(".jsonl")),
        ["generated", size, grade, _] => format!("Generated {size}, {grade}"),
        ["generated", size, _] => format!("Generated {size}"),
        ["made", _] => "Constructed".to_string(),
        [size, _] => format!("Published {size}"),
        _ => "Other".to_string(),
    }
}

/// The bundled puzzles: every problem of [`FILES`] with counts and no shots, read once.
fn catalogue() -> &'static [Entry] {
    static CATALOGUE: OnceLock<Vec<Entry>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut out = Vec::new();
        for (path, content) in FILES {
            let Ok(specs) = format::read(path, content) else {
                continue;
            };
            let many = specs.len() > 1;
            for (i, spec) in specs.into_iter().enumerate() {
                let puzzle = !spec.rows.is_empty() && spec.observations.shots.is_empty();
                if !puzzle || spec.clone().build().is_err() {
                    continue;
                }
                let id = match many {
                    true => format!("{path}#{}", i + 1),
                    false => path.to_string(),
                };
                let name = spec.meta.name.clone().unwrap_or_else(|| id.clone());
                out.push(Entry {
                    group: group_of(path),
                    id,
                    name,
                    spec,
                });
            }
        }
        // Published puzzles by size first, then the constructed, the generated, and the
        // collections; each group in file order.
        let rank = |e: &Entry| {
            let parts: Vec<&str> = e.id.split('/').collect();
            let width = |p: Option<&&str>| {
                p.and_then(|s| s.split_once('x'))
                    .and_then(|(w, _)| w.parse::<usize>().ok())
                    .unwrap_or(0)
            };
            let grade = |p: Option<&&str>| {
                ["easy", "medium", "hard", "extreme"]
                    .iter()
                    .position(|g| Some(g) == p)
                    .unwrap_or(4)
            };
            match parts[0] {
                "made" => (1, 0, 0),
                "generated" => (2, width(parts.get(1)), grade(parts.get(2))),
                "external" => (3, 0, 0),
                _ => (0, width(parts.first()), 0),
            }
        };
        out.sort_by_key(|e| rank(e));
        out
    })
}

/// `GET /api/puzzles`.
pub fn list() -> Reply {
    let listed: Vec<Listed> = catalogue()
        .iter()
        .map(|e| Listed {
            id: &e.id,
            group: &e.group,
            name: &e.name,
            size: e.spec.dims.to_string(),
        })
        .collect();
    Reply::of(&listed)
}

/// A problem as the page loads it: the JSON format, without the solution.
fn loaded<'a>(id: Option<&'a str>, group: Option<&'a str>, spec: &ProblemSpec) -> Reply {
    let mut spec = spec.clone();
    spec.solution = None;
    let mut lengths: Vec<usize> = spec
        .fleet
        .types()
        .iter()
        .flat_map(|t| std::iter::repeat_n(t.shape.straight_len().unwrap_or(0), t.count))
        .collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    Reply::of(&Loaded {
        id,
        group,
        problem: JsonProblem::from_spec(&spec),
        lengths: spec.fleet.is_straight().then_some(lengths),
    })
}

/// `GET /api/puzzle?id=ID`.
pub fn puzzle(q: &HashMap<String, String>) -> Reply {
    let Some(id) = q.get("id") else {
        return Reply::error(400, "give the puzzle's id: /api/puzzle?id=...");
    };
    match catalogue().iter().find(|e| e.id == *id) {
        Some(e) => loaded(Some(&e.id), Some(&e.group), &e.spec),
        None => Reply::error(404, format!("no bundled puzzle {id:?}")),
    }
}

/// `POST /api/puzzle`: the one problem of the body (any format the CLI reads, a puzz.link URL
/// among them) as the page loads it.
pub fn parse(body: &str) -> Reply {
    match one(body) {
        Ok(p) => loaded(None, None, p.given()),
        Err(r) => r,
    }
}

/// The one problem of a request body, built.
fn one(body: &str) -> Result<broadside::Problem, Reply> {
    let mut specs = problems(body)?;
    if specs.len() != 1 {
        return Err(Reply::error(400, "give a single puzzle"));
    }
    answer::build(specs.remove(0)).map_err(|e| Reply::error(400, e))
}

/// The JSON of a report, or the error of the library as the CLI says it.
fn report<R: Serialize>(p: &broadside::Problem, r: Result<R, broadside::Error>) -> Reply {
    match r {
        Ok(r) => Reply::of(&r),
        Err(e) => Reply::of_error(&e, format!("{}: {e}", label(p))),
    }
}

/// `POST /api/check`.
pub fn check(server: &Server, body: &str) -> Reply {
    match one(body) {
        Ok(p) => report(
            &p,
            answer::check(&p, &answer::Options::new().time_limit(server.limit)),
        ),
        Err(r) => r,
    }
}

/// `POST /api/hint`.
pub fn hint(server: &Server, q: &HashMap<String, String>, body: &str) -> Reply {
    let all = q.get("all").is_some_and(|v| v != "0" && v != "false");
    match one(body) {
        Ok(p) => report(
            &p,
            answer::hint(&p, &answer::Options::new().time_limit(server.limit), all),
        ),
        Err(r) => r,
    }
}

/// `POST /api/grade`.
pub fn grade(server: &Server, body: &str) -> Reply {
    match one(body) {
        Ok(p) => report(
            &p,
            answer::grade(&p, &answer::Options::new().time_limit(server.limit)),
        ),
        Err(r) => r,
    }
}

/// `POST /api/convert?to=text|json|puzlink`.
pub fn convert(q: &HashMap<String, String>, body: &str) -> Reply {
    let p = match one(body) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let spec = p.given();
    match q.get("to").map_or("text", String::as_str) {
        "text" => Reply::text(format::text::print(spec)),
        "json" => Reply::json(format::json::print(spec) + "\n"),
        "puzlink" => match format::puzlink::write(spec) {
            Ok(url) => Reply::text(url + "\n"),
            Err(e) => Reply::error(422, e),
        },
        "pzprv3" => match format::pzprv3::write(spec) {
            Ok(file) => Reply::text(file),
            Err(e) => Reply::error(422, e),
        },
        other => Reply::error(
            400,
            format!("to: expected text, json, puzlink or pzprv3, not {other:?}"),
        ),
    }
}

/// `POST /api/generate`: the query's size (default 10x10), fleet (the size's default),
/// difficulty (any) and seed (0), within the server's time limit.
pub fn generate(server: &Server, q: &HashMap<String, String>) -> Reply {
    let dims = match q
        .get("size")
        .map_or(Ok(Dims::new(10, 10)), |s| s.parse::<Dims>())
    {
        Ok(d) if d.width > 0 && d.height > 0 && d.cells() <= LARGEST => d,
        Ok(d) => {
            return Reply::error(
                400,
                format!("size: the page generates boards of at most {LARGEST} cells, not {d}"),
            );
        }
        Err(e) => return Reply::error(400, format!("size: {e}")),
    };
    let mut opts = GenerateOptions::new(dims);
    opts.time_limit = server.limit.min(Duration::from_secs(60));
    if let Some(f) = q.get("fleet").filter(|f| !f.trim().is_empty()) {
        match Fleet::parse(f, &[]) {
            Ok(fleet) => opts.fleet = Some(fleet),
            Err(e) => return Reply::error(400, format!("fleet: {e}")),
        }
    }
    if let Some(d) = q.get("difficulty").filter(|d| !d.is_empty() && *d != "any") {
        match d.parse::<Grade>() {
            Ok(g) => opts.difficulty = Some(g),
            Err(e) => return Reply::error(400, format!("difficulty: {e}")),
        }
    }
    opts.digital = match q.get("digital").map(String::as_str) {
        None | Some("" | "0" | "false") => false,
        Some("1" | "true") => true,
        Some(v) => return Reply::error(400, format!("digital: expected 1 or 0, not {v:?}")),
    };
    let seed = match q.get("seed").map_or(Ok(0), |s| s.trim().parse::<u64>()) {
        Ok(s) => s,
        Err(_) => return Reply::error(400, "seed: expected a whole number from 0"),
    };
    let mut rng = StdRng::seed_from_u64(seed);
    match generate::generate(&opts, &mut rng) {
        Ok(mut spec) => {
            // The name `broadside generate --seed SEED` gives its first puzzle: the same one.
            let kind = if opts.digital { "digital-" } else { "" };
            let name = match opts.difficulty {
                Some(g) => format!("gen-{kind}{dims}-{g}-s{seed}-1"),
                None => format!("gen-{kind}{dims}-s{seed}-1"),
            };
            spec.meta = generate::meta(name, seed, opts.difficulty);
            loaded(None, None, &spec)
        }
        Err(e) => Reply::error(422, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_holds_the_bundled_puzzles_in_groups() {
        let all = catalogue();
        assert!(all.len() > 400, "{} puzzles", all.len());
        let find = |id: &str| all.iter().find(|e| e.id == id).expect(id);
        assert_eq!(find("10x10/rubin-113.txt").group, "Published 10x10");
        assert_eq!(
            find("external/ist25.jsonl#1").group,
            "IST Lisbon course tests"
        );
        assert!(all.iter().all(|e| e.spec.dims.cells() <= LARGEST));
        assert!(all.iter().any(|e| e.group == "Generated 15x15, hard"));
    }
}
