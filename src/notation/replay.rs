//! A game replayed move by move from text (`ransom play`): each move read
//! as SAN or UCI (a whole Hit-and-Run turn joined by a comma), and the
//! first one that cannot be played named with why, the number of legal
//! moves and the position.

use super::{fen, parse_turn, san, uci};
use crate::position::Position;
use serde::Serialize;

/// A move played, in both notations.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedMove {
    /// SAN (with check marks after a move played).
    pub san: String,
    /// UCI.
    pub uci: String,
}

/// A move of a game that cannot be played.
#[derive(Clone, Debug, Serialize, thiserror::Error)]
#[error(
    "ply {ply}: cannot play '{text}': {why}{compulsory} ({legal_moves} legal move{} in {fen})",
    if *legal_moves == 1 { "" } else { "s" }
)]
pub struct ReplayError {
    /// Always "illegal-move".
    pub code: &'static str,
    /// Its number in the game, from 1.
    pub ply: usize,
    /// The move as given.
    #[serde(rename = "move")]
    pub text: String,
    /// Why it cannot be played.
    #[serde(skip)]
    pub why: String,
    /// "; a capture is compulsory here" where Losing chess refused a quiet
    /// move because a capture must be made.
    #[serde(skip)]
    pub compulsory: &'static str,
    /// Legal moves in the position.
    pub legal_moves: usize,
    /// The position (FEN).
    pub fen: String,
}

/// Plays `moves` from `pos`: the position reached and the moves played.
pub fn replay<P: Position>(
    mut pos: P,
    moves: &[String],
) -> Result<(P, Vec<PlayedMove>), Box<ReplayError>> {
    let mut played = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        if let Some(outcome) = pos.outcome() {
            return Err(refused(
                &pos,
                i + 1,
                text,
                format!("the game is already over: {outcome}"),
            ));
        }
        match parse_turn(&pos, text) {
            Ok(turn) => {
                for m in turn {
                    played.push(PlayedMove {
                        uci: uci::write(m),
                        san: san::write_plus(&pos, m),
                    });
                    pos.play_unchecked(m);
                }
            }
            Err(e) => return Err(refused(&pos, i + 1, text, e.to_string())),
        }
    }
    Ok((pos, played))
}

fn refused<P: Position>(pos: &P, ply: usize, text: &str, why: String) -> Box<ReplayError> {
    let moves = pos.playable_moves();
    // Losing chess: a quiet move refused because a capture must be made.
    let compulsory = if P::MUST_CAPTURE && !moves.is_empty() && moves.iter().all(|m| m.is_capture())
    {
        "; a capture is compulsory here"
    } else {
        ""
    };
    Box::new(ReplayError {
        code: "illegal-move",
        ply,
        text: text.to_string(),
        why,
        compulsory,
        legal_moves: moves.len(),
        fen: fen::write(pos),
    })
}
