//! Text forms: FEN (with holdings), UCI moves, SAN and PGN movetext.

pub mod fen;
pub mod pgn;
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
}
