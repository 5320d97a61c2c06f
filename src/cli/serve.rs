//! `broadside serve`: a local web page with the live exact heat map, and its JSON API
//! (`docs/SERVE.md`). Every asset is in the binary.
//!
//! The API is the CLI's: `POST /api/probs` and `POST /api/best` take a game record (any format
//! the CLI reads) and answer exactly what `probs --json` and `best --json` print for it;
//! `POST /api/svg` draws the map as `probs --svg` does. A match against the computer keeps its
//! hidden fleet on the server (`/api/match`, `/api/match/fire`). Requests are answered by a
//! pool of threads; each is guarded, so a request that fails answers 500 and the server goes
//! on serving.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use broadside::answer::{self, label};
use broadside::format::{self, text};
use broadside::play::{PlacerKind, Setup, ShooterKind, Versus, Winner};
use broadside::{CountOptions, Engine, ProblemSpec};

use super::args::seconds;
use super::report::json_document;

/// The options of `serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The port (0 picks a free one; the address is printed).
    #[arg(long, default_value = "8080")]
    port: u16,
    /// The address to bind: 127.0.0.1 (this machine only) unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The longest a request may count, in seconds; an answer cut short is marked partial.
    /// A request may ask for less with `?time_limit=`.
    #[arg(long, value_name = "SECONDS", default_value = "10")]
    time_limit: f64,
    /// Threads answering requests.
    #[arg(long, default_value = "8")]
    threads: usize,
}

/// The largest request body read, in bytes; larger ones are refused with 413.
pub const MAX_BODY: usize = 1 << 20;
/// Answers kept, so that a state asked again (the opening, an undo) answers at once.
const CACHE_ENTRIES: usize = 1024;
/// Matches kept; the oldest is dropped past this.
const MATCHES: usize = 256;

const INDEX_HTML: &str = include_str!("web/index.html");

/// An HTTP answer.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: String,
}

impl Reply {
    fn json(body: String) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body,
        }
    }

    fn of<T: Serialize>(value: &T) -> Reply {
        Reply::json(json_document(vec![
            serde_json::to_value(value).expect("reports always serialise"),
        ]))
    }

    fn error(status: u16, message: impl std::fmt::Display) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{message}\n"),
        }
    }
}

/// What every request thread shares.
struct Server {
    /// The longest a request may count.
    limit: Duration,
    /// Answers by request, each computed once even when asked by many at the same time.
    cache: Mutex<Cache>,
    matches: Mutex<BTreeMap<u64, Arc<Mutex<Versus>>>>,
    next_match: AtomicU64,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<String, Arc<OnceLock<Arc<Reply>>>>,
    order: std::collections::VecDeque<String>,
}

impl Server {
    /// The reply to `key`, computed by `compute` unless another request already has it (or
    /// is computing it: then this one waits for it). Only exact answers are kept.
    fn cached(&self, key: String, compute: impl FnOnce() -> (Reply, bool)) -> Arc<Reply> {
        let cell = {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(cell) = cache.entries.get(&key) {
                cell.clone()
            } else {
                let cell = Arc::new(OnceLock::new());
                cache.entries.insert(key.clone(), cell.clone());
                cache.order.push_back(key.clone());
                while cache.order.len() > CACHE_ENTRIES {
                    if let Some(old) = cache.order.pop_front() {
                        cache.entries.remove(&old);
                    }
                }
                cell
            }
        };
        let mut keep = true;
        let reply = cell
            .get_or_init(|| {
                let (reply, exact) = compute();
                keep = exact;
                Arc::new(reply)
            })
            .clone();
        if !keep {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if cache
                .entries
                .get(&key)
                .is_some_and(|c| Arc::ptr_eq(c, &cell))
            {
                cache.entries.remove(&key);
                cache.order.retain(|k| k != &key);
            }
        }
        reply
    }
}

/// A request's query string, decoded.
fn query(url: &str) -> HashMap<String, String> {
    let Some((_, q)) = url.split_once('?') else {
        return HashMap::new();
    };
    q.split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

/// Percent-decoding, `+` as a space; a `%` not followed by two hex digits stays as it is.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', h, l]) => hex(*h).zip(hex(*l)).map(|(h, l)| h * 16 + l),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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
                .map_err(|e| Reply::error(400, e))?
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
fn problems(body: &str) -> Result<Vec<ProblemSpec>, Reply> {
    let specs = format::read("<request>", body).map_err(|e| Reply::error(400, e))?;
    if specs.is_empty() {
        return Err(Reply::error(400, "<request>: no problem in the input"));
    }
    Ok(specs)
}

/// Answers every problem of `body` with `answer`, as the CLI's `--json` prints the reports;
/// the flag says whether every answer is exact (and so may be kept).
fn answer_all<R: Serialize>(
    specs: Vec<ProblemSpec>,
    mut answer: impl FnMut(&broadside::Problem) -> Result<(R, bool), broadside::Error>,
) -> (Reply, bool) {
    let mut results = Vec::new();
    let mut exact = true;
    for spec in specs {
        let p = match answer::build(spec) {
            Ok(p) => p,
            Err(e) => return (Reply::error(400, e), false),
        };
        match answer(&p) {
            Ok((r, complete)) => {
                exact &= complete;
                results.push(serde_json::to_value(&r).expect("reports always serialise"));
            }
            Err(e) => {
                let status = if e.is_bad_input() { 400 } else { 500 };
                return (Reply::error(status, format!("{}: {e}", label(&p))), false);
            }
        }
    }
    (Reply::json(json_document(results)), exact)
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

/// A report by `answer` (`probs` or `best`) of every problem in the body; `exact` says
/// whether one may be kept.
fn report<R: Serialize>(
    server: &Server,
    q: &HashMap<String, String>,
    specs: Vec<ProblemSpec>,
    answer: fn(&broadside::Problem, Engine, &CountOptions) -> Result<R, broadside::Error>,
    exact: fn(&R) -> bool,
) -> (Reply, bool) {
    let (engine, opts) = match count_options(server, q) {
        Ok(o) => o,
        Err(r) => return (r, false),
    };
    answer_all(specs, |p| {
        let r = answer(p, engine, &opts)?;
        let exact = exact(&r);
        Ok((r, exact))
    })
}

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
    match answer::probs(&p, engine, &opts) {
        Ok(answer::ProbsReport::Map(h)) => {
            let title = format!("{}: {} layouts", label(&p), h.layouts);
            let reply = Reply {
                status: 200,
                content_type: "image/svg+xml",
                body: h.map.render_svg(&title),
            };
            (reply, h.complete)
        }
        Ok(answer::ProbsReport::NoLayout(_)) => (
            Reply::error(422, "no layout is consistent with these shots"),
            false,
        ),
        Ok(answer::ProbsReport::NoMap(no)) => (Reply::error(422, no.reason), false),
        Err(e) => (Reply::error(500, e), false),
    }
}

/// A match's state as the page draws it.
#[derive(Serialize)]
struct MatchState {
    id: String,
    /// The person's fleet, as solution rows.
    yours: Vec<String>,
    /// The computer's fleet, once the game is over.
    theirs: Option<Vec<String>>,
    /// The person's shot, as a record line.
    you: Option<String>,
    /// The computer's shot, as a record line.
    computer: Option<String>,
    /// "you" or "computer" once the game is over.
    winner: Option<&'static str>,
    /// The game as `broadside play` saves it (the computer's fleet once it is over).
    record: String,
}

fn match_state(id: u64, v: &Versus, you: Option<String>, computer: Option<String>) -> MatchState {
    let rows = |g: &broadside::play::Game| {
        let s = g.setup();
        g.layout().to_rows(s.dims, &s.fleet)
    };
    let over = v.winner();
    MatchState {
        id: id.to_string(),
        yours: rows(v.yours()),
        theirs: over.map(|_| rows(v.theirs())),
        you,
        computer,
        winner: over.map(|w| match w {
            Winner::You => "you",
            Winner::Computer => "computer",
        }),
        record: v.record(over.is_some()),
    }
}

fn new_match(server: &Server, q: &HashMap<String, String>, body: &str) -> Reply {
    let mut specs = match problems(body) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if specs.len() != 1 {
        return Reply::error(400, "a match takes a single game");
    }
    let setup = Setup::of(&specs.remove(0));
    let parse = |name: &str, default: &str| q.get(name).map_or(default, String::as_str).to_string();
    let shooter: ShooterKind = match parse("shooter", "greedy").parse() {
        Ok(s) => s,
        Err(e) => return Reply::error(400, format!("shooter: {e}")),
    };
    let placer: PlacerKind = match parse("placer", "uniform").parse() {
        Ok(PlacerKind::File(_)) => return Reply::error(400, "placer: no files on the server"),
        Ok(p) => p,
        Err(e) => return Reply::error(400, format!("placer: {e}")),
    };
    let seed = match q.get("seed") {
        Some(s) => match s.parse() {
            Ok(s) => s,
            Err(_) => return Reply::error(400, format!("seed: not a number: {s:?}")),
        },
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let v = match Versus::new(&setup, &placer, shooter, &PlacerKind::Uniform, seed) {
        Ok(v) => v,
        Err(e) => return Reply::error(if e.is_bad_input() { 400 } else { 500 }, e),
    };
    let id = server.next_match.fetch_add(1, Ordering::Relaxed);
    let state = match_state(id, &v, None, None);
    let mut matches = server.matches.lock().unwrap_or_else(|e| e.into_inner());
    matches.insert(id, Arc::new(Mutex::new(v)));
    while matches.len() > MATCHES {
        matches.pop_first();
    }
    Reply::of(&state)
}

fn fire(server: &Server, q: &HashMap<String, String>) -> Reply {
    let Some(id) = q.get("id").and_then(|id| id.parse::<u64>().ok()) else {
        return Reply::error(400, "give the match's id=");
    };
    let Some(game) = server
        .matches
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .cloned()
    else {
        return Reply::error(
            404,
            format!("no match {id} (matches end when the server stops)"),
        );
    };
    let mut v = game.lock().unwrap_or_else(|e| e.into_inner());
    let d = v.theirs().setup().dims;
    let cell = match d.parse_cell(q.get("cell").map_or("", String::as_str)) {
        Ok(c) => c,
        Err(e) => return Reply::error(400, format!("cell: {e}")),
    };
    let shot = |g: &broadside::play::Game| {
        let s = g.setup();
        let last = g.shots().last().expect("a shot was just fired");
        broadside::observe::print_shot(s.dims, &s.fleet, last)
    };
    if let Err(e) = v.fire(cell) {
        return Reply::error(409, e);
    }
    let you = shot(v.theirs());
    let computer = v.reply().map(|_| shot(v.yours()));
    Reply::of(&match_state(id, &v, Some(you), computer))
}

/// Routes one request.
fn route(server: &Server, method: &str, url: &str, body: &str) -> Arc<Reply> {
    let path = url.split('?').next().unwrap_or("");
    let q = query(url);
    let reply = match (method, path) {
        ("GET", "/" | "/index.html") => Reply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: INDEX_HTML.to_string(),
        },
        ("POST", "/api/probs" | "/api/best" | "/api/svg") => {
            // Read once: the problems key the kept answers and are what is answered.
            let specs = match problems(body) {
                Ok(s) => s,
                Err(r) => return Arc::new(r),
            };
            return server.cached(key(path, &q, &specs), || match path {
                "/api/probs" => {
                    report(server, &q, specs, answer::probs, answer::ProbsReport::exact)
                }
                "/api/best" => report(server, &q, specs, answer::best, answer::BestReport::exact),
                _ => svg(server, &q, specs),
            });
        }
        ("POST", "/api/match") => new_match(server, &q, body),
        ("POST", "/api/match/fire") => fire(server, &q),
        (
            _,
            "/" | "/index.html" | "/api/probs" | "/api/best" | "/api/svg" | "/api/match"
            | "/api/match/fire",
        ) => Reply::error(405, format!("{method} is not allowed on {path}")),
        _ => Reply::error(404, format!("nothing at {path}")),
    };
    Arc::new(reply)
}

/// Answers one request, whatever happens in it.
fn respond(server: &Server, mut request: tiny_http::Request) {
    let method = request.method().as_str().to_ascii_uppercase();
    let url = request.url().to_string();
    let reply = if request.body_length().is_some_and(|n| n > MAX_BODY) {
        Arc::new(Reply::error(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        ))
    } else {
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        match (read, String::from_utf8(body)) {
            (Err(e), _) => Arc::new(Reply::error(400, format!("reading the body: {e}"))),
            (Ok(n), _) if n > MAX_BODY => Arc::new(Reply::error(
                413,
                format!("the body is over {MAX_BODY} bytes"),
            )),
            (Ok(_), Err(_)) => Arc::new(Reply::error(400, "the body is not UTF-8 text")),
            (Ok(_), Ok(body)) => {
                catch_unwind(AssertUnwindSafe(|| route(server, &method, &url, &body)))
                    .unwrap_or_else(|_| {
                        Arc::new(Reply::error(
                            500,
                            "internal error: the request failed; the server goes on",
                        ))
                    })
            }
        }
    };
    let header =
        tiny_http::Header::from_bytes("Content-Type", reply.content_type).expect("a valid header");
    let response = tiny_http::Response::from_string(reply.body.clone())
        .with_status_code(reply.status)
        .with_header(header);
    // A client that went away is not the server's error.
    let _ = request.respond(response);
}

pub fn serve(args: &ServeArgs) -> Result<bool> {
    let limit = seconds(args.time_limit)?;
    let addr = SocketAddr::new(args.host, args.port);
    let http = tiny_http::Server::http(addr)
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = http
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?;
    println!("broadside serve: listening on http://{local}/ (Ctrl-C stops)");
    use std::io::Write;
    std::io::stdout()
        .flush()
        .context("writing to standard output")?;
    let server = Arc::new(Server {
        limit,
        cache: Mutex::new(Cache::default()),
        matches: Mutex::new(BTreeMap::new()),
        next_match: AtomicU64::new(1),
    });
    // The page opens on the standard game: its map is counted once, now, not on the first visit.
    let warm = server.clone();
    std::thread::spawn(move || {
        let opening = format::text::print(&Setup::standard().empty());
        route(&warm, "POST", "/api/probs", &opening);
    });
    let http = Arc::new(http);
    let threads: Vec<_> = (0..args.threads.max(1))
        .map(|_| {
            let (http, server) = (http.clone(), server.clone());
            std::thread::spawn(move || {
                while let Ok(request) = http.recv() {
                    respond(&server, request);
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    Ok(true)
}
