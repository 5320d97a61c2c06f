//! The web server of `broadside serve`: a local page with the live exact heat map, a page to
//! solve puzzles with hints and checks, and their JSON API (`docs/SERVE.md`). Every asset is
//! in the binary.
//!
//! - [`accept`]: connections taken in, with timeouts, and relayed to `tiny_http`;
//! - [`http`]: the reply and the query string;
//! - [`routes`]: each path to its answer (the API is the CLI's `--json`);
//! - [`cache`]: answers kept, so a state asked again answers at once;
//! - [`books`]: the heat maps of positions counted, per game, so a position met again in
//!   any request (or its mirror image) is looked up;
//! - [`matches`]: games against the computer, whose hidden fleets stay on the server;
//! - [`puzzles`]: the puzzle page's bundled puzzles, checks, hints and generation.
//!
//! Requests are answered by a pool of threads; each is guarded, so a request that fails
//! answers 500 and the server goes on serving.

mod accept;
mod books;
mod cache;
mod http;
mod matches;
mod puzzles;
mod routes;

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use broadside::format;
use broadside::play::Setup;

use books::Books;
use cache::Cache;
use http::Reply;
use matches::Matches;

/// The largest request body read, in bytes; larger ones are refused with 413.
const MAX_BODY: usize = 1 << 20;
/// Answers kept, so that a state asked again (the opening, an undo) answers at once.
const CACHE_ENTRIES: usize = 1024;
/// The most bytes of request keys and replies kept.
const CACHE_BYTES: usize = 64 << 20;
/// Matches kept; the oldest is dropped past this.
const MATCHES: usize = 256;

/// How the server runs.
pub struct Options {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The longest a request may count.
    pub limit: Duration,
    /// Threads answering requests.
    pub threads: usize,
    /// The longest the server waits for a client's next bytes, or for it to take the reply's.
    pub client_timeout: Duration,
}

/// What every request thread shares.
pub struct Server {
    /// The longest a request may count.
    limit: Duration,
    cache: Cache,
    books: Books,
    matches: Matches,
    /// The permits of the requests that count (every request but a `GET` and
    /// [`waits_unpermitted`]'s).
    workers: Arc<Permits>,
}

/// Whether a request to `url` waits for a match's computer without a worker's permit: it takes
/// one only where it must choose a shot itself ([`Matches::replies`]).
fn waits_unpermitted(url: &str) -> bool {
    url.split('?').next() == Some("/api/match/replies")
}

/// Requests being read or answered at once; past this a request is answered 503 at once.
/// (On Linux the acceptor hands over whole requests only; elsewhere a client that sends its
/// body slowly holds one of these, never a worker.)
const READERS: usize = 256;

/// A counting semaphore: at most so many holders at once.
struct Permits {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Permits {
    fn new(n: usize) -> Permits {
        Permits {
            free: Mutex::new(n),
            freed: Condvar::new(),
        }
    }

    /// Waits for a permit.
    fn acquire(self: &Arc<Self>) -> Permit {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Permit(self.clone())
    }

    /// A permit if one is free now.
    fn try_acquire(self: &Arc<Self>) -> Option<Permit> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        (*free > 0).then(|| {
            *free -= 1;
            Permit(self.clone())
        })
    }
}

/// A permit, given back when dropped.
struct Permit(Arc<Permits>);

impl Drop for Permit {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

/// A reader that fails once its deadline has passed. Each read of a client's socket waits at
/// most the client timeout, so a body read through this is over by the deadline plus that.
struct Deadline<R> {
    inner: R,
    end: Instant,
}

impl<R> Deadline<R> {
    fn new(inner: R, within: Duration) -> Self {
        Deadline {
            inner,
            end: Instant::now() + within,
        }
    }
}

impl<R: Read> Read for Deadline<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if Instant::now() > self.end {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "the body took over {} s",
                    accept::REQUEST_DEADLINE.as_secs()
                ),
            ));
        }
        self.inner.read(buf)
    }
}

/// Sends `reply` to the client of `request`.
fn send(request: tiny_http::Request, reply: &Reply) {
    let header =
        tiny_http::Header::from_bytes("Content-Type", reply.content_type).expect("a valid header");
    let response = tiny_http::Response::from_string(reply.body.clone())
        .with_status_code(reply.status)
        .with_header(header);
    // A client that went away is not the server's error.
    let _ = request.respond(response);
}

/// Answers one request, whatever happens in it: its body is read on this thread (its own),
/// and the answer computed once one of the server's worker permits is free (none for a `GET`,
/// nor for `/api/match/replies` while it waits).
fn respond(server: &Server, mut request: tiny_http::Request) {
    let method = request.method().as_str().to_ascii_uppercase();
    let url = request.url().to_string();
    let too_large = || {
        Arc::new(Reply::error(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        ))
    };
    let reply = if request.body_length().is_some_and(|n| n > MAX_BODY) {
        too_large()
    } else {
        let mut body = Vec::new();
        let read = Deadline::new(request.as_reader(), accept::REQUEST_DEADLINE)
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        match (read, String::from_utf8(body)) {
            (Err(e), _) => Arc::new(Reply::error(400, format!("reading the body: {e}"))),
            (Ok(n), _) if n > MAX_BODY => too_large(),
            (Ok(n), _) if request.body_length().is_some_and(|len| n < len) => Arc::new(
                Reply::error(400, "the body ended before its Content-Length"),
            ),
            (Ok(_), Err(_)) => Arc::new(Reply::error(400, "the body is not UTF-8 text")),
            (Ok(_), Ok(body)) => {
                // Counting is what the permits bound; the page's assets need none.
                let _working =
                    (method != "GET" && !waits_unpermitted(&url)).then(|| server.workers.acquire());
                catch_unwind(AssertUnwindSafe(|| {
                    routes::route(server, &method, &url, &body)
                }))
                .unwrap_or_else(|_| {
                    Arc::new(Reply::error(
                        500,
                        "internal error: the request failed; the server goes on",
                    ))
                })
            }
        }
    };
    send(request, &reply);
}

/// Serves until the process is stopped, after printing the address it listens on.
pub fn run(options: &Options) -> Result<bool> {
    // A request waits for one of the workers, then counts for at most the time limit: a
    // reply later than this bound is a server in trouble, and the client is told so.
    let reply_within = options
        .limit
        .saturating_mul(4)
        .saturating_add(Duration::from_secs(60));
    let (http, local) = accept::listen(options.addr, options.client_timeout, reply_within)?;
    println!("broadside serve: listening on http://{local}/ (Ctrl-C stops)");
    std::io::stdout()
        .flush()
        .context("writing to standard output")?;
    let server = Arc::new(Server {
        limit: options.limit,
        cache: Cache::new(CACHE_ENTRIES, CACHE_BYTES),
        books: Books::new(),
        matches: Matches::new(MATCHES, options.threads.max(1)),
        workers: Arc::new(Permits::new(options.threads.max(1))),
    });
    // The page opens on the standard game: its map is counted once, now, not on the first visit.
    let warm = server.clone();
    std::thread::spawn(move || {
        let opening = format::text::print(&Setup::standard().empty());
        routes::route(&warm, "POST", "/api/probs", &opening);
    });
    // One thread takes the requests in; each is read and answered on a thread of its own.
    let readers = Arc::new(Permits::new(READERS));
    for request in http.incoming_requests() {
        let Some(reader) = readers.try_acquire() else {
            send(
                request,
                &Reply::error(503, "too many requests at once; try again"),
            );
            continue;
        };
        let server = server.clone();
        let spawned = std::thread::Builder::new()
            .name("broadside-request".into())
            .spawn(move || {
                let _reading = reader;
                respond(&server, request);
            });
        if spawned.is_err() {
            // No thread to be had (memory): this request is dropped, the server goes on.
            continue;
        }
    }
    Ok(true)
}
