//! The server's own acceptor: it takes each TCP connection in, gives it read and write
//! timeouts, caps the connections open at once, reads one whole request from it and only then
//! hands that request to `tiny_http` over a private local socket, and relays the reply back.
//!
//! `tiny_http` (0.12) accepts its connections itself and sets no timeout on them, so a client
//! that connects and says nothing, or promises a body and never sends it, would keep one of
//! its threads for good; and its thread pool can leave a connection that arrives in a burst
//! queued until one of those threads is free, so a burst of silent clients could stall every
//! other request. Here `tiny_http` only ever sees whole requests, one a connection: its
//! threads are never held by a client, only by the counting they do. A client is let go when
//! it is silent for the timeout, when its request takes over [`REQUEST_DEADLINE`] to arrive,
//! or when it does not take its reply; each connection answers one request and says
//! `Connection: close`.
//!
//! The relay is Linux's (a socket in the abstract namespace, which no file names); elsewhere
//! `tiny_http` listens on the TCP address itself, without these timeouts.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use super::{MAX_BODY, Permits};

/// Connections open at once; past this a new one is answered 503 and closed.
const CONNECTIONS: usize = 512;

/// The longest a whole request may take to arrive, however steadily it trickles in.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(30);

/// The most bytes taken in and dropped from a client whose request was refused.
const DRAIN: u64 = 4 << 20;

/// The largest request line and headers read.
const MAX_HEAD: usize = 16 << 10;

/// The stack of each relay thread: it copies through one small buffer.
const RELAY_STACK: usize = 64 << 10;

/// Listens on `addr`: the `tiny_http` server the requests come from, and the address it
/// listens on (with the port chosen, if `addr` asked for any). `timeout` bounds each wait for
/// the client, `reply_within` the wait for the server's answer to a whole request.
pub fn listen(
    addr: SocketAddr,
    timeout: Duration,
    reply_within: Duration,
) -> Result<(tiny_http::Server, SocketAddr)> {
    let tcp = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let local = tcp.local_addr().context("the server has no address")?;
    relay_to_http(tcp, timeout, reply_within).map(|http| (http, local))
}

#[cfg(target_os = "linux")]
fn relay_to_http(
    tcp: TcpListener,
    timeout: Duration,
    reply_within: Duration,
) -> Result<tiny_http::Server> {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr as UnixAddr, UnixListener};
    use std::sync::atomic::{AtomicU64, Ordering};
    static SERVERS: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        "broadside-serve-{}-{}",
        std::process::id(),
        SERVERS.fetch_add(1, Ordering::Relaxed)
    );
    let inner_addr = UnixAddr::from_abstract_name(name.as_bytes()).context("a private socket")?;
    let inner = UnixListener::bind_addr(&inner_addr).context("listening on a private socket")?;
    let http = tiny_http::Server::from_listener(inner, None)
        .map_err(|e| anyhow::anyhow!("serving on a private socket: {e}"))?;
    let connections = Arc::new(Permits::new(CONNECTIONS));
    std::thread::Builder::new()
        .name("broadside-accept".into())
        .spawn(move || accept(&tcp, &inner_addr, timeout, reply_within, &connections))
        .context("starting the acceptor")?;
    Ok(http)
}

#[cfg(not(target_os = "linux"))]
fn relay_to_http(tcp: TcpListener, _: Duration, _: Duration) -> Result<tiny_http::Server> {
    tiny_http::Server::from_listener(tcp, None).map_err(|e| anyhow::anyhow!("serving: {e}"))
}

/// Takes connections in for as long as the process runs.
#[cfg(target_os = "linux")]
fn accept(
    tcp: &TcpListener,
    inner: &std::os::unix::net::SocketAddr,
    timeout: Duration,
    reply_within: Duration,
    connections: &Arc<Permits>,
) {
    for client in tcp.incoming() {
        let client = match client {
            Ok(client) => client,
            // Out of descriptors, or a connection reset before it was taken: wait a moment
            // rather than spin, and go on.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let Some(permit) = connections.try_acquire() else {
            refuse(client);
            continue;
        };
        let inner = inner.clone();
        // No thread to be had (memory): this connection is closed, the server goes on.
        let _ = std::thread::Builder::new()
            .name("broadside-connection".into())
            .stack_size(RELAY_STACK)
            .spawn(move || {
                let _open = permit;
                let _ = relay(client, &inner, timeout, reply_within);
            });
    }
}

/// Answers a connection past the cap, without waiting on its client.
fn refuse(mut client: TcpStream) {
    let _ = client.set_write_timeout(Some(Duration::from_millis(100)));
    answer(&mut client, 503, "too many connections at once; try again");
}

/// Writes an error reply of the acceptor's own (plain text, as the server's) and closes.
fn answer(client: &mut TcpStream, status: u16, message: &str) {
    let reason = match status {
        400 => "Bad Request",
        505 => "HTTP Version Not Supported",
        504 => "Gateway Timeout",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    let body = format!("{message}\n");
    let _ = write!(
        client,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = client.shutdown(Shutdown::Write);
}

/// A request as read from the client: its head as it goes to `tiny_http` and its body.
#[derive(Debug)]
struct Request {
    head: Vec<u8>,
    body_len: usize,
    /// Whether the client waits for `100 Continue` before it sends the body.
    expects_continue: bool,
}

/// Reads the head of a request from its first bytes, `buf[..end]` with `end` just past the
/// blank line: the head to forward (`Connection: close`, no `Expect`), the body's length, or
/// the status and message to refuse it with.
fn parse_head(head: &[u8]) -> Result<Request, (u16, String)> {
    let text = std::str::from_utf8(head)
        .map_err(|_| (400, "the request's head is not UTF-8 text".to_string()))?;
    let mut lines = text.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    request_line_ok(request_line)?;
    let mut out = format!("{request_line}\r\n");
    let mut body_len = None;
    let mut expects_continue = false;
    for line in lines.filter(|l| !l.is_empty()) {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| (400, format!("a header without a colon: {line:?}")))?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| (400, format!("Content-Length is not a number: {value:?}")))?;
                if body_len.is_some_and(|m| m != n) {
                    return Err((400, "two different Content-Lengths".to_string()));
                }
                body_len = Some(n);
            }
            "transfer-encoding" => {
                return Err((411, "send the body with a Content-Length".to_string()));
            }
            "expect" => {
                expects_continue = value.eq_ignore_ascii_case("100-continue");
                continue;
            }
            "connection" | "keep-alive" => continue,
            _ => {}
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    let body_len = body_len.unwrap_or(0);
    if body_len > MAX_BODY {
        return Err((413, format!("the body is over {MAX_BODY} bytes")));
    }
    out.push_str("Connection: close\r\n\r\n");
    Ok(Request {
        head: out.into_bytes(),
        body_len,
        expects_continue,
    })
}

/// Whether a request line is one this server speaks: `METHOD TARGET HTTP/1.0` or `HTTP/1.1`.
/// Another version (HTTP/2's preface `PRI * HTTP/2.0`, say) is refused with 505, anything
/// else with 400: `tiny_http` would wait on such a connection for good.
fn request_line_ok(line: &str) -> Result<(), (u16, String)> {
    let words: Vec<&str> = line.split(' ').collect();
    let shown: String = line.chars().take(80).collect();
    let [method, target, version] = words[..] else {
        return Err((
            400,
            format!("expected a request line 'METHOD TARGET HTTP/1.1', found {shown:?}"),
        ));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) || target.is_empty() {
        return Err((400, format!("not a request line: {shown:?}")));
    }
    match version {
        "HTTP/1.0" | "HTTP/1.1" => Ok(()),
        v if v.starts_with("HTTP/") => Err((
            505,
            format!("{v} is not spoken here: this server speaks HTTP/1.1"),
        )),
        _ => Err((400, format!("not an HTTP version: {:?}", version))),
    }
}

/// The end of the head in `buf` (just past its blank line), if it is all there.
fn head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// What reading a request came to.
enum Arrival {
    /// The whole request: the head to forward, and the body.
    Whole(Request, Vec<u8>),
    /// The client closed or went silent before it sent anything: nothing to answer.
    Nothing,
    /// Refused with this status and message.
    Refused(u16, String),
}

/// Reads one whole request from `client`, within [`REQUEST_DEADLINE`].
fn read_request(client: &mut TcpStream) -> Arrival {
    let deadline = std::time::Instant::now() + REQUEST_DEADLINE;
    let late = || {
        (
            408,
            format!(
                "the request took over {} s to arrive",
                REQUEST_DEADLINE.as_secs()
            ),
        )
    };
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    // The head.
    let (request, start) = loop {
        if let Some(end) = head_end(&buf) {
            match parse_head(&buf[..end]) {
                Ok(request) => break (request, end),
                Err((status, message)) => return Arrival::Refused(status, message),
            }
        }
        if buf.len() > MAX_HEAD {
            return Arrival::Refused(431, format!("the request's head is over {MAX_HEAD} bytes"));
        }
        if std::time::Instant::now() > deadline {
            let (status, message) = late();
            return Arrival::Refused(status, message);
        }
        match client.read(&mut chunk) {
            Ok(0) | Err(_) if buf.is_empty() => return Arrival::Nothing,
            Ok(0) => return Arrival::Refused(400, "the request ended inside its head".into()),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => {
                let (status, message) = late();
                return Arrival::Refused(status, message);
            }
        }
    };
    if request.expects_continue && buf.len() == start && request.body_len > 0 {
        let _ = client.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    // The body.
    let mut body = buf.split_off(start);
    while body.len() < request.body_len {
        if std::time::Instant::now() > deadline {
            let (status, message) = late();
            return Arrival::Refused(status, message);
        }
        let want = (request.body_len - body.len()).min(chunk.len());
        match client.read(&mut chunk[..want]) {
            Ok(0) => {
                return Arrival::Refused(400, "the body ended before its Content-Length".into());
            }
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => {
                return Arrival::Refused(
                    408,
                    "the client sent nothing for the client timeout; the body is incomplete".into(),
                );
            }
        }
    }
    body.truncate(request.body_len);
    Arrival::Whole(request, body)
}

/// Serves one connection: reads its request whole, hands it to `tiny_http`, and relays the
/// reply with `Connection: close` added to its head.
#[cfg(target_os = "linux")]
fn relay(
    mut client: TcpStream,
    inner: &std::os::unix::net::SocketAddr,
    timeout: Duration,
    reply_within: Duration,
) -> io::Result<()> {
    use std::os::unix::net::UnixStream;
    client.set_read_timeout(Some(timeout))?;
    client.set_write_timeout(Some(timeout))?;
    client.set_nodelay(true)?;
    let (request, body) = match read_request(&mut client) {
        Arrival::Whole(request, body) => (request, body),
        Arrival::Nothing => return Ok(()),
        Arrival::Refused(status, message) => {
            answer(&mut client, status, &message);
            // Take in what the client may still be sending (a body too large), within
            // bounds, so that closing does not reset the connection before it reads why.
            let _ = io::copy(&mut (&client).take(DRAIN), &mut io::sink());
            return Ok(());
        }
    };
    let mut server = UnixStream::connect_addr(inner)?;
    // The answer may wait for a worker and then count for the time limit; past this bound
    // something is wrong, and the client hears so rather than the connection being held.
    server.set_read_timeout(Some(reply_within))?;
    server.set_write_timeout(Some(reply_within))?;
    server.write_all(&request.head)?;
    server.write_all(&body)?;
    server.shutdown(Shutdown::Write)?;
    // The reply: its head with `Connection: close`, then the rest as it comes.
    let mut reply = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match server.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if reply.is_empty() => {
                answer(
                    &mut client,
                    504,
                    &format!(
                        "the server did not answer within {} s",
                        reply_within.as_secs()
                    ),
                );
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            client.write_all(&reply)?;
            break;
        }
        reply.extend_from_slice(&chunk[..n]);
        if let Some(end) = head_end(&reply) {
            client.write_all(&reply[..end - 2])?;
            client.write_all(b"Connection: close\r\n\r\n")?;
            client.write_all(&reply[end..])?;
            io::copy(&mut server, &mut client)?;
            break;
        }
    }
    client.shutdown(Shutdown::Write)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forwarded_head_closes_the_connection_and_drops_expect() {
        let head = b"POST /api/probs HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\
                     Expect: 100-continue\r\ncontent-length: 12\r\n\r\n";
        let r = parse_head(head).unwrap();
        assert_eq!(r.body_len, 12);
        assert!(r.expects_continue);
        assert_eq!(
            String::from_utf8(r.head).unwrap(),
            "POST /api/probs HTTP/1.1\r\nHost: x\r\ncontent-length: 12\r\nConnection: close\r\n\r\n"
        );
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nrest"), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n"), None);
    }

    #[test]
    fn heads_the_acceptor_refuses() {
        let status = |h: &[u8]| parse_head(h).unwrap_err().0;
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n"), 400);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            400
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"),
            413
        );
        assert_eq!(status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nX: \xff\r\n\r\n"), 400);
        assert_eq!(parse_head(b"GET / HTTP/1.1\r\n\r\n").unwrap().body_len, 0);
        // Versions other than HTTP/1.x, and request lines that are none.
        for head in [
            &b"GET / HTTP/2.0\r\n\r\n"[..],
            b"PRI * HTTP/2.0\r\n\r\n",
            b"GET / HTTP/3.0\r\nHost: x\r\n\r\n",
            b"GET / HTTP/0.9\r\n\r\n",
        ] {
            assert_eq!(status(head), 505, "{head:?}");
        }
        for head in [
            &b"GET / FOO\r\n\r\n"[..],
            b"GARBAGE\r\n\r\n",
            b"GET  / HTTP/1.1\r\n\r\n",
            b"get / HTTP/1.1\r\n\r\n",
            b"GET /\r\n\r\n",
        ] {
            assert_eq!(status(head), 400, "{head:?}");
        }
        assert!(parse_head(b"GET / HTTP/1.0\r\n\r\n").is_ok());
    }
}
