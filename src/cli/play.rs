//! `ransom play`: plays SAN or UCI moves and prints the final position.

use super::PositionArgs;
use super::game::{outcome_text, state_json};
use ransom::notation::{fen, parse_turn, pgn, san, uci};
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

fn replay<P: Position>(mut pos: P, moves: &[String], json: bool) -> anyhow::Result<ExitCode> {
    let mut played = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        if let Some(outcome) = pos.outcome() {
            return fail(
                json,
                i + 1,
                text,
                &pos,
                &format!("the game is already over: {outcome}"),
            );
        }
        match parse_turn(&pos, text) {
            Ok(turn) => {
                for m in turn {
                    played.push(
                        serde_json::json!({"uci": uci::write(m), "san": san::write_plus(&pos, m)}),
                    );
                    pos.play_unchecked(m);
                }
            }
            Err(e) => return fail(json, i + 1, text, &pos, &e.to_string()),
        }
    }
    if json {
        let mut out = state_json(&pos);
        out["moves"] = played.into();
        outln!("{out}")?;
    } else {
        outln!("fen: {}", fen::write(&pos))?;
        outln!("outcome: {}", outcome_text(&pos))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn fail<P: Position>(
    json: bool,
    ply: usize,
    text: &str,
    pos: &P,
    why: &str,
) -> anyhow::Result<ExitCode> {
    let moves = pos.playable_moves();
    let legal = moves.len();
    // Losing chess: a quiet move refused because a capture must be made.
    let compulsory = if P::MUST_CAPTURE && !moves.is_empty() && moves.iter().all(|m| m.is_capture())
    {
        "; a capture is compulsory here"
    } else {
        ""
    };
    let message = format!(
        "ply {ply}: cannot play '{text}': {why}{compulsory} ({} in {})",
        super::checks::counted(legal as u64, "legal move", "legal moves"),
        fen::write(pos)
    );
    if json {
        let out = serde_json::json!({"error": {
            "code": "illegal-move", "message": message, "ply": ply, "move": text,
            "legal_moves": legal, "fen": fen::write(pos)}});
        outln!("{out}")?;
    } else {
        errln!("error: {message}");
    }
    Ok(ExitCode::FAILURE)
}
