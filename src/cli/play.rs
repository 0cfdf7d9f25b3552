//! `ransom play`: plays SAN or UCI moves and prints the final position.

use super::PositionArgs;
use ransom::analysis::{outcome_text, state_json};
use ransom::notation::{fen, pgn};
use ransom::{Position, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object with the final game state and the moves played.
    #[arg(long)]
    json: bool,
    /// Read the moves of the first game of this PGN file first (its `FEN`
    /// tag gives the start unless `--fen` is given; variations, comments and
    /// NAGs are skipped; Hostage exchanges `(B-N)N*c7` are moves).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Moves in SAN (`Nf3`, `e8=Q`, `N@f3`) or UCI (`g1f3`, `e7e8q`, `N@f3`).
    /// Hit-and-Run chess: a whole turn as its sub-moves joined by a comma
    /// (`e2e4,g1f3` or `e4,Nf3`), or one sub-move at a time.
    moves: Vec<String>,
}

pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let mut moves = Vec::new();
    let mut position = args.position.clone();
    if let Some(path) = &args.pgn {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let game = pgn::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if position.fen.is_none() {
            position.fen = game.tag("FEN").map(str::to_string);
        }
        moves = game.moves;
    }
    moves.extend(args.moves.iter().cloned());
    let pos = position.position()?;
    dispatch!(pos, p => replay(p, &moves, args.json))
}

fn replay<P: Position>(pos: P, moves: &[String], json: bool) -> anyhow::Result<ExitCode> {
    match ransom::notation::replay::replay(pos, moves) {
        Ok((pos, played)) if json => {
            let mut out = state_json(&pos);
            out["moves"] = serde_json::to_value(played)?;
            outln!("{out}")?;
        }
        Ok((pos, _)) => {
            outln!("fen: {}", fen::write(&pos))?;
            outln!("outcome: {}", outcome_text(&pos))?;
        }
        Err(error) if json => {
            let mut object = serde_json::to_value(&*error)?;
            object["message"] = error.to_string().into();
            outln!("{}", serde_json::json!({ "error": object }))?;
            return Ok(ExitCode::FAILURE);
        }
        Err(error) => {
            errln!("error: {error}");
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}
