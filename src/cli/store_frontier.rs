//! `ransom store frontier LINE`: prints the library's
//! [`ransom::proving::frontier_report`] of a line.

use ransom::board::Color;
use ransom::proving::frontier_report;
use ransom::solved::DEFAULT_DIR;
use ransom::{Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom store frontier`.
#[derive(Debug, clap::Args)]
pub struct FrontierArgs {
    /// Moves (SAN or UCI) from the start to the searched position: the
    /// line given to `prove`.
    moves: Vec<String>,
    /// Position the moves start from (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Variant.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// The store whose checkpoint to read (as given to `prove --store`).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    store: PathBuf,
    /// How many positions to list.
    #[arg(long, default_value_t = 10, value_parser = super::arguments::parse_at_least_one::<usize>)]
    top: usize,
    /// Only the search for this side's win (default: every checkpointed one).
    #[arg(long, value_parser = ["white", "black"])]
    attacker: Option<String>,
    /// Nodes of the engine's search of each listed position (0: none).
    #[arg(long, default_value_t = 200_000)]
    engine_nodes: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &FrontierArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let start = super::arguments::start_position(variant, args.fen.as_deref())?;
    dispatch!(start, p => list(p, args))
}

fn list<P: Position>(start: P, args: &FrontierArgs) -> anyhow::Result<ExitCode> {
    let (root, _) = super::arguments::play_moves(start, &args.moves)?;
    let attacker = args.attacker.as_deref().and_then(Color::from_name);
    let report = frontier_report(&root, &args.store, attacker, args.top, args.engine_nodes)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        out!("{report}")?;
    }
    Ok(ExitCode::SUCCESS)
}
