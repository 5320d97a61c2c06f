//! The routes: each request's path and method to its answer. The API is the CLI's:
//! `POST /api/probs` and `POST /api/best` take a game record (any format the CLI reads) and
//! answer exactly what `probs --json` and `best --json` print for it; `POST /api/svg` draws
//! the map as `probs --svg` does; the match routes are in [`super::matches`], the puzzle
//! page's in [`super::puzzles`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use broadside::answer::{self, label};
use broadside::format::{self, text};
use broadside::play::{Book, Setup};
use broadside::{CountOptions, Engine, ProblemSpec};

use super::http::{Reply, query};
use super::puzzles;
use super::{Server, matches};
use crate::args::seconds;
use crate::report::json_document;

/// The pages and their assets, built into the binary.
const ASSETS: [(&str, &str, &str); 6] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "/puzzle",
        "text/html; charset=utf-8",
        include_str!("web/puzzle.html"),
    ),
    (
        "/puzzle.js",
        "text/javascript; charset=utf-8",
        include_str!("web/puzzle.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("web/favicon.svg"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("web/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("web/style.css"),
    ),
];

/// The API's paths: a method they do not answer is refused with 405.
const API: [&str; 14] = [
    "/api/probs",
    "/api/best",
    "/api/svg",
    "/api/match",
    "/api/match/fire",
    "/api/match/replies",
    "/api/check",
    "/api/hint",
    "/api/grade",
    "/api/convert",
    "/api/generate",
    "/api/puzzle",
    "/api/puzzles",
    "/api/shooters",
];

/// Routes one request.
pub fn route(server: &Server, method: &str, url: &str, body: &str) -> Arc<Reply> {
    let path = url.split('?').next().unwrap_or("");
    let path = if path == "/index.html" { "/" } else { path };
    let q = query(url);
    let asset = ASSETS.iter().find(|(p, ..)| *p == path);
    let reply = match (method, path, asset) {
        ("GET", _, Some((_, content_type, body))) => Reply::asset(content_type, body),
        ("POST", "/api/probs" | "/api/best" | "/api/svg", _) => {
            // Read once: the problems key the kept answers and are what is answered.
            let specs = match problems(body) {
                Ok(s) => s,
                Err(r) => return Arc::new(r),
            };
            return server
                .cache
                .get_or_compute(key(path, &q, &specs), || match path {
                    "/api/probs" => report(
                        server,
                        &q,
                        specs,
                        answer::probs_in,
                        answer::ProbsReport::exact,
                    ),
                    "/api/best" => report(
                        server,
                        &q,
                        specs,
                        answer::best_in,
                        answer::BestReport::exact,
                    ),
                    _ => svg(server, &q, specs),
                });
        }
        ("GET", "/api/puzzles", _) => puzzles::list(),
        ("GET", "/api/puzzle", _) => puzzles::puzzle(&q),
        ("POST", "/api/puzzle", _) => puzzles::parse(body),
        ("POST", "/api/check", _) => puzzles::check(server, body),
        ("POST", "/api/hint", _) => puzzles::hint(server, &q, body),
        ("POST", "/api/grade", _) => puzzles::grade(server, body),
        ("POST", "/api/convert", _) => puzzles::convert(&q, body),
        ("POST", "/api/generate", _) => puzzles::generate(server, &q),
        ("GET", "/api/shooters", _) => matches::shooters(),
        ("POST", "/api/match", _) => server.matches.start(&q, body, server.limit, &server.books),
        ("POST", "/api/match/fire", _) => server.matches.fire(&q),
        ("POST", "/api/match/replies", _) => {
            server.matches.replies(&q, || server.workers.acquire())
        }
        (_, _, Some(_)) => Reply::error(405, format!("{method} is not allowed on {path}")),
        (_, path, None) if API.contains(&path) => {
            Reply::error(405, format!("{method} is not allowed on {path}"))
        }
        _ => Reply::error(404, format!("nothing at {path}")),
    };
    Arc::new(reply)
}

/// What to count with, from the query: `engine=` and `time_limit=` (at most the server's).
fn count_options(
    server: &Server,
    q: &HashMap<String, String>,
) -> Result<(Engine, CountOptions), Reply> {
    let engine = match q.get("engine") {
        Some(e) => e
            .parse::<Engine>()
            .map_err(|e| Reply::error(400, format!("engine: {e}")))?,
        None => Engine::Auto,
    };
    let limit = match q.get("time_limit") {
        Some(t) => {
            let t: f64 = t
                .parse()
                .map_err(|_| Reply::error(400, format!("time_limit: not a number: {t:?}")))?;
            seconds(t)
                .map_err(|_| Reply::error(400, "time_limit must be a positive number of seconds"))?
                .min(server.limit)
        }
        None => server.limit,
    };
    Ok((
        engine,
        CountOptions {
            time_limit: Some(limit),
            parallel: true,
            ..CountOptions::default()
        },
    ))
}

/// The problems of a request body, as the CLI reads a file.
pub fn problems(body: &str) -> Result<Vec<ProblemSpec>, Reply> {
    let specs = format::read("<request>", body).map_err(|e| Reply::error(400, e))?;
    if specs.is_empty() {
        return Err(Reply::error(400, "<request>: no problem in the input"));
    }
    Ok(specs)
}

/// The cache key of a request: the endpoint, its options and the problems as the text format
/// prints them (so a record in JSON and in text share one answer).
fn key(path: &str, q: &HashMap<String, String>, specs: &[ProblemSpec]) -> String {
    let canonical: Vec<String> = specs.iter().map(text::print).collect();
    format!(
        "{path}?engine={}&time_limit={}\n{}",
        q.get("engine").map_or("", String::as_str),
        q.get("time_limit").map_or("", String::as_str),
        canonical.join("---\n")
    )
}

/// A report by `answer` (`probs` or `best`) of every problem in the body, as the CLI's
/// `--json` prints the reports; the flag says whether every answer is exact (and so may be
/// kept).
fn report<R: Serialize>(
    server: &Server,
    q: &HashMap<String, String>,
    specs: Vec<ProblemSpec>,
    answer: fn(&broadside::Problem, &Book, &answer::Options) -> Result<R, broadside::Error>,
    exact: fn(&R) -> bool,
) -> (Reply, bool) {
    let (engine, opts) = match count_options(server, q) {
        Ok(o) => o,
        Err(r) => return (r, false),
    };
    // The limit is the request's, shared by its problems: each counts in what is left.
    let deadline = opts.time_limit.and_then(|t| Instant::now().checked_add(t));
    let mut results = Vec::new();
    let mut all_exact = true;
    for spec in specs {
        let p = match answer::build(spec) {
            Ok(p) => p,
            Err(e) => return (Reply::error(400, e), false),
        };
        let left = answer::Options::new()
            .engine(engine)
            .counting(opts.clone())
            .time_limit(deadline.map(|d| d.saturating_duration_since(Instant::now())));
        let book = server.books.of(&Setup::of(p.given()));
        match answer(&p, &book, &left) {
            Ok(r) => {
                all_exact &= exact(&r);
                results.push(serde_json::to_value(&r).expect("reports always serialise"));
            }
            Err(e) => return (Reply::of_error(&e, format!("{}: {e}", label(&p))), false),
        }
    }
    (Reply::json(json_document(results)), all_exact)
}

/// The heat map of the one problem in the body, drawn as an SVG picture.
fn svg(server: &Server, q: &HashMap<String, String>, mut specs: Vec<ProblemSpec>) -> (Reply, bool) {
    let (engine, opts) = match count_options(server, q) {
        Ok(o) => o,
        Err(r) => return (r, false),
    };
    if specs.len() != 1 {
        return (Reply::error(400, "an SVG takes a single problem"), false);
    }
    let p = match answer::build(specs.remove(0)) {
        Ok(p) => p,
        Err(e) => return (Reply::error(400, e), false),
    };
    let book = server.books.of(&Setup::of(p.given()));
    match answer::probs_in(
        &p,
        &book,
        &answer::Options::new().engine(engine).counting(opts),
    ) {
        Ok(answer::ProbsReport::Map(h)) => {
            let title = format!("{}: {} layouts", label(&p), h.layouts);
            let reply = Reply {
                status: 200,
                content_type: "image/svg+xml",
                body: h.map.render_svg(&title),
            };
            (reply, h.complete)
        }
        Ok(answer::ProbsReport::NoLayout(no)) => (Reply::error(422, no), false),
        Ok(answer::ProbsReport::NoMap(no)) => (Reply::error(422, no.reason), false),
        Err(e) => (Reply::of_error(&e, &e), false),
    }
}
