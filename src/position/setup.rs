//! `Setup`: a position as parsed from text, before any rule is checked.

use super::SubMove;
use crate::board::{Bitboard, Board, ByColor, ByRole, Color, Square};

/// Raw position data, as read from a FEN. Nothing here is validated: turn
/// it into a variant's position with [`crate::Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Placement of the men.
    pub board: Board,
    /// Men marked as promoted (`Q~` in crazyhouse FEN).
    pub promoted: Bitboard,
    /// Holdings written in brackets after the placement (crazyhouse pockets,
    /// Hostage airfields: the part before `#`), or `None` if the FEN had no
    /// bracket. Indexed by the men's colour (`[Q]`: a White queen held by White).
    pub pockets: Option<ByColor<ByRole<u8>>>,
    /// Hostage prisoners (RULES H11: the part of the brackets after `#`),
    /// indexed by the men's own colour: `prisoners[White][Knight]` counts
    /// White knights held in Black's prison. `None` if the FEN had no `#`.
    pub prisoners: Option<ByColor<ByRole<u8>>>,
    /// The side to move.
    pub turn: Color,
    /// Castling rights, as the squares of the rooks that may castle. In
    /// Hostage chess the square of a king may appear too (FEN `E`/`e`,
    /// RULES H11): that king stands unmoved on its home square.
    pub castling: Bitboard,
    /// The en-passant square, if the FEN names one (the first one, if the
    /// field lists several).
    pub ep_square: Option<Square>,
    /// Hit-and-Run (RULES R8): the further en-passant squares when the field
    /// lists several (`d6,e6`). Empty in every other variant.
    pub more_ep: Bitboard,
    /// Hit-and-Run (RULES R8): the seventh field `sub=...` of a mid-turn
    /// position, `None` at the start of a turn.
    pub sub: Option<SubMove>,
    /// Half-moves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1.
    pub fullmoves: u32,
}

impl Setup {
    /// Whether any man is held outside the board (pockets, airfields, prisons).
    pub fn has_holdings(&self) -> bool {
        let held = |h: &Option<ByColor<ByRole<u8>>>| {
            h.is_some_and(|h| h.white.total() + h.black.total() > 0)
        };
        held(&self.pockets) || held(&self.prisoners)
    }

    /// Every en-passant square the setup names.
    pub fn ep_squares(&self) -> Bitboard {
        self.ep_square.map_or(Bitboard::EMPTY, Bitboard::from) | self.more_ep
    }

    /// The orthodox starting position with all castling rights.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            prisoners: None,
            turn: Color::White,
            castling: Bitboard::CORNERS,
            ep_square: None,
            more_ep: Bitboard::EMPTY,
            sub: None,
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
            prisoners: None,
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            more_ep: Bitboard::EMPTY,
            sub: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}
