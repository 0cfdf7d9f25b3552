//! A cheap test that rules out moves which cannot give check, so that the
//! mate search's last move (where only checks can mate) plays only the
//! moves that may check.

use crate::board::{Bitboard, attacks};
use crate::moves::Move;
use crate::position::Position;
use crate::variants::Variant;

/// Whether `mv`, played in `pos`, may give check: `false` only when it
/// certainly gives none. Exact for drops and for direct checks by the
/// moved (or promoted) man; any move from a square on a line through the
/// enemy king may uncover a check and counts as "may". Castling, en
/// passant and the moves of other variants always count as "may".
pub(super) fn may_give_check<P: Position>(pos: &P, mv: Move) -> bool {
    if !matches!(P::VARIANT, Variant::Chess | Variant::Crazyhouse) {
        return true;
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return true;
    };
    match mv {
        Move::Drop { role, to } => {
            let occupied = board.occupied() | Bitboard::from(to);
            attacks::attacks(us, role, to, occupied).contains(king)
        }
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
            attacks::attacks(us, promotion.unwrap_or(role), to, occupied).contains(king)
                || attacks::queen_attacks(king, Bitboard::EMPTY).contains(from)
        }
        _ => true,
    }
}
