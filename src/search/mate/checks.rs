//! A cheap test that rules out moves which cannot give check, so that the
//! mate search's last move (where only checks can mate) plays only the
//! moves that may check (and the engine's quiescence, where it tries
//! checks, tests only those).

use crate::board::{Bitboard, Role, Square, attacks};
use crate::moves::Move;
use crate::position::Position;
use crate::variants::Variant;

/// For one position, which moves of the side to move may give check:
/// `false` only when a move certainly gives none. Exact for drops and for
/// direct checks by the moved (or promoted) man; any move from a square on
/// a line through the enemy king may uncover a check and counts as "may".
/// Castling, en passant and the moves of other variants always count as
/// "may".
pub(crate) struct CheckTest {
    /// `None`: every move may check (another variant, or no enemy king).
    squares: Option<CheckSquares>,
}

/// The squares from which each role of the side to move attacks the enemy
/// king, with the men where they stand, and the squares on lines through
/// that king.
struct CheckSquares {
    by_role: [Bitboard; 6],
    lines: Bitboard,
}

impl CheckTest {
    /// The test for the moves of the side to move in `pos`.
    pub(crate) fn new<P: Position>(pos: &P) -> CheckTest {
        if !matches!(P::VARIANT, Variant::Chess | Variant::Crazyhouse) {
            return CheckTest { squares: None };
        }
        let board = pos.board();
        let us = pos.turn();
        let squares = board.king_of(!us).map(|king| {
            let occupied = board.occupied();
            // The attacks of a man of `us` reach the king exactly from the
            // squares a man of that role of the king's colour attacks from
            // the king's square (pawns capture the other way round).
            let by_role = Role::ALL.map(|role| attacks::attacks(!us, role, king, occupied));
            CheckSquares {
                by_role,
                lines: attacks::queen_attacks(king, Bitboard::EMPTY),
            }
        });
        CheckTest { squares }
    }

    /// Whether `mv` may give check. A drop leaves the squares between its
    /// target and the king as they are; so does a move from a square off
    /// every line through the king (the squares between its target and the
    /// king lie on such a line), and a move from a square on one counts as
    /// "may" anyway. So the squares computed with the men where they stand
    /// are exact for both.
    pub(crate) fn may_give_check(&self, mv: Move) -> bool {
        let Some(s) = &self.squares else {
            return true;
        };
        let attacks_king = |role: Role, to: Square| s.by_role[role.index()].contains(to);
        match mv {
            Move::Drop { role, to } => attacks_king(role, to),
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => s.lines.contains(from) || attacks_king(promotion.unwrap_or(role), to),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::Crazyhouse;

    /// Every legal move that gives check must pass the test, and a drop
    /// passes exactly when it checks, over the
    /// positions two plies deep from a few crazyhouse positions with full
    /// pockets (drops, promotions, discovered checks).
    #[test]
    fn every_checking_move_may_give_check() {
        let fens = [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[NBRQPnbrqp] w KQkq - 0 1",
            "4r2k/pPN3pp/2Np2p1/4p1nb/4P3/3P4/PPP2bPP/R6K[RQBBPrpqn] w - - 42 22",
            "r2q1rk1/pp2bb1p/2pp2pK/7N/3pPR1P/1B1P2p1/PPPq4/R7[PPBNNN] b - - 49 25",
        ];
        let mut checked = 0;
        for text in fens {
            let root: Crazyhouse = fen::parse_position(text).expect("valid FEN");
            let mut positions = vec![root.clone()];
            for &m in &root.legal_moves() {
                let mut child = root.clone();
                child.play_unchecked(m);
                positions.push(child);
            }
            for pos in positions {
                let test = CheckTest::new(&pos);
                for &m in &pos.legal_moves() {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    if child.is_check() {
                        assert!(test.may_give_check(m), "{text}: {m:?}");
                        checked += 1;
                    }
                    if let Move::Drop { .. } = m {
                        assert_eq!(test.may_give_check(m), child.is_check(), "{text}: {m:?}");
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} checking moves");
    }
}
