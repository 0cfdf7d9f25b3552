//! `ransom perft`: leaf counts of the legal move tree, optionally per first move.

use super::PositionArgs;
use ransom::notation::uci;
use ransom::perft::divide_parallel;
use ransom::{Position, dispatch};
use std::process::ExitCode;
use std::time::Instant;

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
    let start = Instant::now();
    let mut divide: Vec<(String, u64)> = divide_parallel(pos, args.depth, args.turns)
        .into_iter()
        .map(|(m, nodes)| (uci::write(m), nodes))
        .collect();
    let nodes = if args.depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    divide.sort();
    if args.json {
        let threads = rayon::current_num_threads();
        let mut out = serde_json::json!({ "nodes": nodes, "depth": args.depth, "turns": args.turns, "threads": threads, "time_ms": elapsed.as_millis() as u64 });
        if args.divide {
            let map: serde_json::Map<String, serde_json::Value> =
                divide.into_iter().map(|(m, n)| (m, n.into())).collect();
            out["divide"] = map.into();
        }
        outln!("{out}")?;
    } else {
        if args.divide {
            for (m, n) in &divide {
                outln!("{m}: {n}")?;
            }
            outln!()?;
        }
        outln!("Nodes searched: {nodes}")?;
        let secs = elapsed.as_secs_f64();
        let threads = rayon::current_num_threads();
        errln!(
            "time {:.3} s, {:.1} Mnps on {threads} thread{}",
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6,
            if threads == 1 { "" } else { "s" }
        );
    }
    Ok(ExitCode::SUCCESS)
}
