//! The per-turn state of a variant whose turn has several sub-moves
//! (Hit-and-Run chess, RULES R1, R7, R8): the en-passant squares that are
//! still alive and, in the middle of a turn, which man made the first
//! sub-move. Every other variant leaves it empty, which hashes to 0.

use crate::board::{Bitboard, Square, zobrist};
use std::fmt;

/// The man that made the first sub-move of the current turn (RULES R8:
/// the FEN field `sub=<square>` or `sub=<square>x<origin>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubMove {
    /// Where that man stands now.
    pub square: Square,
    /// The square it captured from, if its first sub-move was a capture
    /// (RULES R3 forbids it to return there or move along the capture line).
    pub captured_from: Option<Square>,
}

impl SubMove {
    /// The zobrist key of this mid-turn state.
    pub(crate) fn key(self) -> u64 {
        let origin = self.captured_from.map_or(0, |sq| sq.index() as u64 + 1);
        zobrist::extra(self.square.index() as u64 * 65 + origin)
    }
}

impl fmt::Display for SubMove {
    /// The FEN field, `sub=e4` or `sub=d5xe4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sub={}", self.square)?;
        if let Some(origin) = self.captured_from {
            write!(f, "x{origin}")?;
        }
        Ok(())
    }
}

/// Hit-and-Run per-turn state, part of the position's identity (hash,
/// equality, repetition key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnPhase {
    /// Every en-passant square still alive: on rank 3 squares skipped by
    /// White's pawns, on rank 6 by Black's (RULES R7, R8).
    pub ep: Bitboard,
    /// `Some` in the middle of a turn, after the first sub-move.
    pub sub: Option<SubMove>,
    /// A side's first turn, which is a single sub-move (RULES R1): the
    /// same placement later in the game moves differently, so it is part
    /// of the position's identity and hash.
    pub first_turn: bool,
}

/// The zobrist feature of [`TurnPhase::first_turn`] (above every sub-move key).
const FIRST_TURN_FEATURE: u64 = 0x10_0000;

impl TurnPhase {
    /// The part of the zobrist hash this state contributes (0 when empty).
    pub(crate) fn hash(&self) -> u64 {
        let mut hash = self.sub.map_or(0, SubMove::key);
        if self.first_turn {
            hash ^= zobrist::extra(FIRST_TURN_FEATURE);
        }
        for sq in self.ep {
            hash ^= zobrist::en_passant(sq);
        }
        hash
    }
}
