//! `ransom moves`: the legal moves of a position and its outcome.

use super::PositionArgs;
use super::game::{outcome_text, state_json};
use ransom::notation::{fen, san, uci};
use ransom::{Position, dispatch};
use std::process::ExitCode;

/// Arguments of `ransom moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object with the game state and "moves": [{"uci", "san"}].
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    let pos = args.position.position()?;
    dispatch!(&pos, p => report(p, args.json))
}

fn report<P: Position>(pos: &P, json: bool) -> anyhow::Result<ExitCode> {
    let legal = pos.playable_moves();
    let mut rows: Vec<(String, String)> = legal
        .iter()
        .map(|&m| (uci::write(m), san::write_in::<P>(&legal, m)))
        .collect();
    rows.sort();
    if json {
        let mut out = state_json(pos);
        out["moves"] = rows
            .iter()
            .map(|(u, s)| serde_json::json!({"uci": u, "san": s}))
            .collect();
        outln!("{out}")?;
    } else {
        for line in ransom::notation::diagram::diagram(&fen::write(pos)) {
            outln!("{line}")?;
        }
        outln!(
            "{}",
            super::checks::counted(rows.len() as u64, "legal move", "legal moves")
        )?;
        for (u, s) in &rows {
            outln!("  {u:<6} {s}")?;
        }
        outln!("outcome: {}", outcome_text(pos))?;
    }
    Ok(ExitCode::SUCCESS)
}
