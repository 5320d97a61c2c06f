//! `broadside serve`: the local web page with the live exact heat map, and its JSON API
//! (`docs/SERVE.md`); the server itself is [`crate::server`].

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use anyhow::Result;

use crate::args::seconds;
use crate::server;
use crate::usage;

/// The options of `serve`.
#[derive(clap::Args)]
pub struct Args {
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
    /// Requests computed at once (each request's body is read on a thread of its own, so a
    /// slow or silent client holds none of these).
    #[arg(long, default_value = "8")]
    threads: usize,
    /// The longest the server waits for a client's next bytes (or for it to take a reply), in
    /// seconds; a silent client is let go after this, and a request body must arrive within 30.
    #[arg(long, value_name = "SECONDS", default_value = "5")]
    client_timeout: f64,
}

pub fn run(args: &Args) -> Result<bool> {
    server::run(&server::Options {
        addr: SocketAddr::new(args.host, args.port),
        limit: seconds(args.time_limit)?,
        threads: args.threads,
        client_timeout: client_timeout(args.client_timeout)?,
    })
}

/// `--client-timeout` as a duration: at least a millisecond (a socket timeout of zero would
/// mean none).
fn client_timeout(t: f64) -> Result<Duration> {
    if t.is_nan() || t < 0.001 {
        return Err(usage("--client-timeout must be at least 0.001 seconds"));
    }
    Ok(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX))
}
