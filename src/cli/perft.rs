//! `ransom perft`: leaf counts of the legal move tree, optionally per first move.

use super::PositionArgs;
use ransom::notation::uci;
use ransom::perft::perft;
use ransom::{Position, dispatch};
use rayon::prelude::*;
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
    /// Depth in plies.
    depth: u32,
}

pub fn run(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let pos = args.position.position()?;
    dispatch!(&pos, p => report(p, args))
}

fn report<P: Position>(pos: &P, args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let moves = pos.legal_moves();
    let mut divide: Vec<(String, u64)> = if args.depth == 0 {
        Vec::new()
    } else {
        moves
            .par_iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (uci::write(m), perft(&child, args.depth - 1))
            })
            .collect()
    };
    let nodes = if args.depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    divide.sort();
    if args.json {
        let mut out = serde_json::json!({ "nodes": nodes, "depth": args.depth, "time_ms": elapsed.as_millis() as u64 });
        if args.divide {
            let map: serde_json::Map<String, serde_json::Value> =
                divide.into_iter().map(|(m, n)| (m, n.into())).collect();
            out["divide"] = map.into();
        }
        println!("{out}");
    } else {
        if args.divide {
            for (m, n) in &divide {
                println!("{m}: {n}");
            }
            println!();
        }
        println!("Nodes searched: {nodes}");
        let secs = elapsed.as_secs_f64();
        eprintln!(
            "time {:.3} s, {:.1} Mnps",
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}
