//! `Setup`: a position as parsed from text, before any rule is checked.

use crate::board::{Bitboard, Board, ByColor, ByRole, Color, Square};

/// Raw position data, as read from a FEN. Nothing here is validated: turn
/// it into a variant's position with [`crate::Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Placement of the men.
    pub board: Board,
    /// Men marked as promoted (`Q~` in crazyhouse FEN).
    pub promoted: Bitboard,
    /// Holdings written in brackets after the placement (crazyhouse pockets),
    /// or `None` if the FEN had no bracket.
    pub pockets: Option<ByColor<ByRole<u8>>>,
    /// The side to move.
    pub turn: Color,
    /// Castling rights, as the squares of the rooks that may castle.
    pub castling: Bitboard,
    /// The en-passant square, if the FEN names one.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1.
    pub fullmoves: u32,
}

impl Setup {
    /// The orthodox starting position with all castling rights.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: Color::White,
            castling: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, White to move.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}
