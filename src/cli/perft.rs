//! `ransom perft`: leaf counts of the legal move tree, optionally per first move.

use super::PositionArgs;
use ransom::perft::PerftReport;
use ransom::{Position, dispatch};
use std::process::ExitCode;

/// Arguments of `ransom perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count below each first move (`e2e4: 20`), as Stockfish does.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object: {"nodes": N, "divide": {...}}.
    #[arg(long)]
    json: bool,
    /// Count whole turns instead of plies: in Hit-and-Run chess a ply is one
    /// sub-move and a turn has one or two of them; `--turns 2` counts the
    /// positions after two complete turns. The same as plies elsewhere.
    #[arg(long)]
    turns: bool,
    /// Threads that count (the first moves are shared among them); 0, the
    /// default, uses every core. A comparison with a one-threaded program
    /// uses `--threads 1`.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Depth in plies (sub-moves), or in whole turns with `--turns`.
    depth: u32,
}

pub fn run(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let pos = args.position.position()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {} counting threads: {e}", args.threads))?;
    pool.install(|| dispatch!(&pos, p => report(p, args)))
}

fn report<P: Position>(pos: &P, args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let report = PerftReport::count(pos, args.depth, args.turns, args.divide);
    if args.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        out!("{report}")?;
        errln!("{}", report.speed());
    }
    Ok(ExitCode::SUCCESS)
}
