//! `broadside serve`: the local web page with the live exact heat map, and its JSON API
//! (`docs/SERVE.md`); the server itself is [`crate::server`].

use std::net::{IpAddr, SocketAddr};

use anyhow::Result;

use crate::args::seconds;
use crate::server;

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
}

pub fn run(args: &Args) -> Result<bool> {
    server::run(&server::Options {
        addr: SocketAddr::new(args.host, args.port),
        limit: seconds(args.time_limit)?,
        threads: args.threads,
    })
}
