//! Text forms: FEN (with holdings), UCI moves, SAN and PGN movetext.

pub mod diagram;
pub mod fen;
pub mod pgn;
pub mod replay;
pub mod san;
pub mod uci;

use crate::moves::Move;
use crate::position::Position;

/// Parses a move in SAN or UCI form (UCI is tried first, then SAN) and
/// returns it if it is legal in `pos`.
pub fn parse_move<P: Position>(pos: &P, text: &str) -> Result<Move, MoveParseError> {
    let text = text.trim();
    let as_uci = uci::parse(pos, text);
    if as_uci.is_ok() {
        return as_uci;
    }
    match san::parse(pos, text) {
        // Well-formed UCI (`N#B@c7`) that is not SAN: report it as illegal.
        Err(MoveParseError::Syntax(_)) if matches!(as_uci, Err(MoveParseError::Illegal(_))) => {
            as_uci
        }
        result => result,
    }
}

/// Parses a whole turn: sub-moves separated by commas (`e2e4,g1f3` or
/// `e4,Nf3`, Hit-and-Run chess, RULES R1), each in SAN or UCI, played in
/// turn on a copy of `pos`. A single sub-move is accepted wherever it is
/// legal (also in the middle of a turn); a comma-separated list must not go
/// on after the turn has ended and may not be longer than
/// [`Position::SUB_MOVES_PER_TURN`].
pub fn parse_turn<P: Position>(pos: &P, text: &str) -> Result<Vec<Move>, MoveParseError> {
    let parts: Vec<&str> = text.trim().split(',').map(str::trim).collect();
    if parts.len() > P::SUB_MOVES_PER_TURN as usize {
        return Err(MoveParseError::Turn(
            text.to_string(),
            format!(
                "a turn of {} has at most {} move(s)",
                P::VARIANT,
                P::SUB_MOVES_PER_TURN
            ),
        ));
    }
    let mut current = pos.clone();
    let mut moves = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 && current.turn() != pos.turn() {
            return Err(MoveParseError::Turn(
                text.to_string(),
                format!("the turn already ended after '{}'", parts[i - 1]),
            ));
        }
        if part.is_empty() {
            return Err(MoveParseError::Syntax(text.to_string()));
        }
        let m = parse_move(&current, part)?;
        current.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// The UCI text of a turn: its sub-moves joined by commas (`e2e4,g1f3`).
pub fn write_turn_uci(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| uci::write(m))
        .collect::<Vec<_>>()
        .join(",")
}

/// The SAN of a turn played from `pos`: its sub-moves joined by commas
/// (`e4,Nf3`), each disambiguated in the position it is played in.
pub fn write_turn_san<P: Position>(pos: &P, moves: &[Move]) -> String {
    let mut current = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(san::write(&current, m));
        current.play_unchecked(m);
    }
    out.join(",")
}

/// A move string that could not be read or is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not a move in any form ransom reads.
    #[error("'{0}' is not a move in SAN or UCI notation")]
    Syntax(String),
    /// The move is well formed but not legal here.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
    /// The SAN move matches more than one legal move.
    #[error("'{0}' is ambiguous: it matches {1} legal moves")]
    Ambiguous(String, usize),
    /// A turn of several sub-moves that cannot be played as written.
    #[error("'{0}' is not a legal turn: {1}")]
    Turn(String, String),
}

/// A move of a line that cannot be played: its number (from 1), its text,
/// why, and the position it was tried in.
#[derive(Debug, thiserror::Error)]
#[error("move {number} ('{text}'): {error} in {fen}")]
pub struct LineError {
    /// The move's number in the line, from 1.
    pub number: usize,
    /// The move as given.
    pub text: String,
    /// Why it cannot be played.
    pub error: MoveParseError,
    /// The position it was tried in (FEN).
    pub fen: String,
}

/// Plays `moves` (SAN or UCI, one move each) from `start`: the position
/// reached and the moves played, or the first move that cannot be played.
pub fn play_line<P: Position>(start: P, moves: &[String]) -> Result<(P, Vec<Move>), LineError> {
    let mut pos = start;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(&pos, text).map_err(|error| LineError {
            number: i + 1,
            text: text.clone(),
            error,
            fen: fen::write(&pos),
        })?;
        played.push(m);
        pos.play_unchecked(m);
    }
    Ok((pos, played))
}
