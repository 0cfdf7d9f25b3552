//! What the search cuts and what it adds beyond alpha-beta (docs/engine.md,
//! "Crazyhouse: king-zone holes, null move, checks in quiescence").
//!
//! Null-move pruning: where the side to move, given a free pass, would
//! still be at or above beta after a shallower search, the position is cut
//! without searching its moves. Only for variants whose positions offer a
//! pass ([`Position::null_move`]: chess and crazyhouse), never in check,
//! never twice in a row, and only where the mover holds a man other than
//! pawns and the king (on the board or in hand): with pawns alone a pass
//! can be worth more than any move (zugzwang), and the cut would be wrong.

use crate::board::Role;
use crate::moves::Move;
use crate::position::Position;
use crate::search::mate::checks::CheckTest;

/// What the search prunes and adds beyond alpha-beta (both off by
/// default: neither measured better, docs/engine.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selectivity {
    /// Whether a null move may cut a node (where the variant has one).
    pub null_move: bool,
    /// Whether quiescence's first ply also tries the quiet moves that give
    /// check, drops included, in the drop variants with a royal king
    /// (crazyhouse), where a dropped man's check is the usual threat.
    pub quiescence_checks: bool,
}

/// Whether `mv` gives check in `pos`: played only where `test` (the mate
/// search's cheap test, made for `pos`) says it may.
pub(super) fn gives_check<P: Position>(pos: &P, test: &CheckTest, mv: Move) -> bool {
    if !test.may_give_check(mv) {
        return false;
    }
    let mut child = pos.clone();
    child.play_unchecked(mv);
    child.turn() != pos.turn() && child.is_check()
}

/// Plies left at least for a null move to be tried.
pub(super) const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// How many plies shallower than the node's own search the null move's
/// reply is searched.
pub(super) fn null_move_reduction(depth: i32) -> i32 {
    2 + i32::from(depth >= 6)
}

/// Whether the side to move has a man that keeps a pass from being better
/// than every move: a piece on the board, or any man in hand.
pub(super) fn has_pieces<P: Position>(pos: &P) -> bool {
    let state = pos.state();
    let us = pos.turn();
    let board = &state.board;
    let pieces = board
        .by_color(us)
        .without(board.by_role(Role::Pawn) | board.by_role(Role::King));
    pieces.any() || state.pockets[us].total() > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::notation::fen;
    use crate::variants::{Antichess, Chess, Crazyhouse};

    /// A pass changes the side to move, lets the en-passant square lapse
    /// and keeps the incremental hash equal to one computed from scratch.
    #[test]
    fn a_pass_hands_over_the_move_and_keeps_the_hash_true() {
        let text = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
        let chess: Chess = fen::parse_position(text).unwrap();
        assert!(chess.state().ep_square.is_some());
        let passed = chess.null_move().unwrap();
        assert_eq!(passed.turn(), Color::Black);
        assert_eq!(passed.state().ep_square, None);
        assert_eq!(passed.zobrist(), passed.state().compute_hash());
        assert_eq!(passed.board(), chess.board());
        let zh: Crazyhouse =
            fen::parse_position("r3k2r/8/8/8/8/8/8/R3K2R[QNpp] b KQkq - 0 1").unwrap();
        let passed = zh.null_move().unwrap();
        assert_eq!(passed.turn(), Color::White);
        assert_eq!(passed.zobrist(), passed.state().compute_hash());
        assert_eq!(passed.state().pockets, zh.state().pockets);
    }

    /// Losing chess has no pass: a side may have to capture.
    #[test]
    fn losing_chess_offers_no_pass() {
        assert!(Antichess::start().null_move().is_none());
    }

    /// A pass is tried only by a side with a piece on the board or a man in
    /// hand (with pawns alone a pass can be better than every move).
    #[test]
    fn pawns_alone_offer_no_pass() {
        let pawns: Chess = fen::parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(!has_pieces(&pawns));
        let knight: Chess = fen::parse_position("4k3/8/8/8/8/8/4P3/4KN2 w - - 0 1").unwrap();
        assert!(has_pieces(&knight));
        let in_hand: Crazyhouse =
            fen::parse_position("4k3/8/8/8/8/8/4P3/4K3[P] w - - 0 1").unwrap();
        assert!(has_pieces(&in_hand));
    }
}
