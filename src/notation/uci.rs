//! UCI move notation: `e2e4`, `e7e8q`, `a7a8k` (Losing chess), drops
//! `N@c7`, Hostage exchanges `N#B@c7` (rescued man, `#`, paid man, `@`,
//! square; RULES H10), castling as the king's two-square move (`e1g1`; `e1h1` is read too).

use super::MoveParseError;
use crate::board::{Role, Square};
use crate::moves::Move;
use crate::position::Position;

/// A move as written in UCI, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciMove {
    /// From a square to a square, maybe promoting.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Promotion role.
        promotion: Option<Role>,
    },
    /// A drop.
    Drop {
        /// Dropped role.
        role: Role,
        /// Target square.
        to: Square,
    },
    /// A Hostage exchange: `N#B@c7`.
    Exchange {
        /// The mover's man rescued from the opponent's prison and dropped.
        rescue: Role,
        /// The enemy man paid from the mover's prison.
        pay: Role,
        /// Target square.
        to: Square,
    },
}

/// Reads the UCI text of a move (syntax only).
pub fn parse_syntax(text: &str) -> Option<UciMove> {
    let bytes = text.as_bytes();
    if bytes.len() == 4 && bytes[1] == b'@' {
        let role = Role::from_char(bytes[0] as char).filter(|&r| r != Role::King)?;
        let to = Square::parse(text.get(2..4)?)?;
        return Some(UciMove::Drop { role, to });
    }
    if bytes.len() == 6 && bytes[1] == b'#' && bytes[3] == b'@' {
        let held = |c: u8| {
            Some(c)
                .filter(u8::is_ascii_uppercase)
                .and_then(|c| Role::from_char(c as char))
                .filter(|&r| r != Role::King)
        };
        let rescue = held(bytes[0])?;
        let pay = held(bytes[2])?;
        let to = Square::parse(text.get(4..6)?)?;
        return Some(UciMove::Exchange { rescue, pay, to });
    }
    if bytes.len() != 4 && bytes.len() != 5 {
        return None;
    }
    let from = Square::parse(text.get(0..2)?)?;
    let to = Square::parse(text.get(2..4)?)?;
    let promotion = match bytes.get(4) {
        None => None,
        Some(&c) => Some(Role::from_char(c as char).filter(|&r| r != Role::Pawn)?),
    };
    Some(UciMove::Normal {
        from,
        to,
        promotion,
    })
}

/// Whether the legal move `m` is what `uci` describes.
pub fn matches(uci: UciMove, m: Move) -> bool {
    match (uci, m) {
        (UciMove::Drop { role, to }, Move::Drop { role: r, to: t }) => role == r && to == t,
        (UciMove::Exchange { rescue, pay, to }, _) => m == Move::Exchange { rescue, pay, to },
        (
            UciMove::Normal {
                from,
                to,
                promotion,
            },
            _,
        ) => match m {
            Move::Normal {
                from: f,
                to: t,
                promotion: p,
                ..
            } => from == f && to == t && promotion == p,
            Move::EnPassant { from: f, to: t } => from == f && to == t && promotion.is_none(),
            Move::Castle { king, rook } => {
                from == king
                    && (to == rook || (is_standard_castling(king, rook) && to == m.to()))
                    && promotion.is_none()
            }
            Move::Drop { .. } | Move::Exchange { .. } => false,
        },
        _ => false,
    }
}

/// Reads a UCI move and returns the legal move it names in `pos`.
pub fn parse<P: Position>(pos: &P, text: &str) -> Result<Move, MoveParseError> {
    let uci = parse_syntax(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
    pos.legal_moves()
        .into_iter()
        .find(|&m| matches(uci, m))
        .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
}

/// The UCI text of a move.
pub fn write(m: Move) -> String {
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => {
            let mut s = format!("{from}{to}");
            if let Some(role) = promotion {
                s.push(role.char());
            }
            s
        }
        Move::EnPassant { from, to } => format!("{from}{to}"),
        Move::Castle { king, rook } if is_standard_castling(king, rook) => {
            format!("{king}{}", m.to())
        }
        Move::Castle { king, rook } => format!("{king}{rook}"),
        Move::Drop { role, to } => format!("{}@{to}", role.upper_char()),
        Move::Exchange { rescue, pay, to } => {
            format!("{}#{}@{to}", rescue.upper_char(), pay.upper_char())
        }
    }
}

/// Whether castling has the orthodox geometry (king on the e-file, rook in a
/// corner); such castling is written as the king's two-square move, other
/// (Chess960-style) castling as the king capturing its own rook.
fn is_standard_castling(king: Square, rook: Square) -> bool {
    king.file() == 4 && (rook.file() == 0 || rook.file() == 7)
}
