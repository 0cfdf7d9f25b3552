//! `ransom perft`: leaf counts of the legal move tree, optionally per first move.

use super::PositionArgs;
use ransom::notation::uci;
use ransom::perft::{perft, perft_turns};
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
    /// Count whole turns instead of plies: in Hit-and-Run chess a ply is one
    /// sub-move and a turn has one or two of them; `--turns 2` counts the
    /// positions after two complete turns. The same as plies elsewhere.
    #[arg(long)]
    turns: bool,
    /// Depth in plies (sub-moves), or in whole turns with `--turns`.
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
                let nodes = if !args.turns {
                    perft(&child, args.depth - 1)
                } else if child.turn() == pos.turn() {
                    perft_turns(&child, args.depth)
                } else {
                    perft_turns(&child, args.depth - 1)
                };
                (uci::write(m), nodes)
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
        let mut out = serde_json::json!({ "nodes": nodes, "depth": args.depth, "turns": args.turns, "time_ms": elapsed.as_millis() as u64 });
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
        errln!(
            "time {:.3} s, {:.1} Mnps",
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}
