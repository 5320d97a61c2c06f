//! `broadside shooters`: the shooters and placers, their parameters, presets, sources and
//! costs, from the one table the words are read with.

use anyhow::Result;

use broadside::play::vocabulary::{PLACERS, SHOOTERS};

/// The options of `shooters`.
#[derive(clap::Args)]
pub struct Args {
    /// The table as JSON: each shooter and placer with its parameters (values, default,
    /// meaning), source, summary and cost class, and the presets.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// The tables as Markdown, as docs/PLAY.md holds them.
    #[arg(long)]
    markdown: bool,
}

pub fn run(args: &Args) -> Result<bool> {
    if args.json {
        let v = serde_json::json!({ "shooters": &SHOOTERS, "placers": &PLACERS });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.markdown {
        print!("{}\n{}", SHOOTERS.markdown(), PLACERS.markdown());
    } else {
        println!("Shooters (--shooter NAME, NAME:PARAM=VALUE,... or a preset):\n");
        print!("{}", SHOOTERS.listing());
        println!("\nPlacers (--placer):\n");
        print!("{}", PLACERS.listing());
    }
    Ok(true)
}
