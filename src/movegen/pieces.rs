//! Pseudo-legal moves of pawns and pieces towards a target set.

use crate::board::{Bitboard, Role, Square, attacks};
use crate::moves::{Move, MoveList};
use crate::position::State;

/// Moves of the knights, bishops, rooks and queens in `from` (men of the side
/// to move) onto squares of `target`.
#[inline]
pub(crate) fn piece_moves(state: &State, from: Bitboard, target: Bitboard, moves: &mut MoveList) {
    let board = &state.board;
    let occupied = board.occupied();
    let ours = from & board.by_color(state.turn);
    for sq in ours & board.by_role(Role::Knight) {
        push_normal(
            state,
            Role::Knight,
            sq,
            attacks::knight_attacks(sq) & target,
            moves,
        );
    }
    for sq in ours & board.by_role(Role::Bishop) {
        let reach = attacks::bishop_attacks(sq, occupied) & target;
        push_normal(state, Role::Bishop, sq, reach, moves);
    }
    for sq in ours & board.by_role(Role::Rook) {
        let reach = attacks::rook_attacks(sq, occupied) & target;
        push_normal(state, Role::Rook, sq, reach, moves);
    }
    for sq in ours & board.by_role(Role::Queen) {
        let reach = attacks::queen_attacks(sq, occupied) & target;
        push_normal(state, Role::Queen, sq, reach, moves);
    }
}

/// Non-castling king steps onto `target`, without any safety check
/// (Losing chess, where the king is an ordinary man).
#[inline]
pub(crate) fn king_steps(state: &State, target: Bitboard, moves: &mut MoveList) {
    let kings = state.board.by_piece(Role::King.of(state.turn));
    for sq in kings {
        push_normal(
            state,
            Role::King,
            sq,
            attacks::king_attacks(sq) & target,
            moves,
        );
    }
}

#[inline]
fn push_normal(state: &State, role: Role, from: Square, reach: Bitboard, moves: &mut MoveList) {
    let occupied = state.board.occupied();
    for to in reach & occupied {
        moves.push(Move::Normal {
            role,
            from,
            capture: state.board.role_at(to),
            to,
            promotion: None,
        });
    }
    for to in reach.without(occupied) {
        moves.push(Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        });
    }
}

/// The squares the pawns of one side reach, all pawns at once, before any
/// target is applied.
pub(super) struct PawnReach {
    /// Capture squares towards the a-file (any occupant).
    pub west: Bitboard,
    /// Capture squares towards the h-file (any occupant).
    pub east: Bitboard,
    /// Empty squares one step ahead.
    pub single: Bitboard,
    /// Empty squares two steps ahead, from the starting rank over an empty square.
    pub double: Bitboard,
}

impl PawnReach {
    /// What `pawns` (White's if `white`) reach on a board whose empty
    /// squares are `empty`.
    #[inline]
    pub fn of(pawns: Bitboard, empty: Bitboard, white: bool) -> PawnReach {
        let not_a = !Bitboard::file(0);
        let not_h = !Bitboard::file(7);
        let (west, east) = if white {
            (
                Bitboard((pawns & not_a).0 << 7),
                Bitboard((pawns & not_h).0 << 9),
            )
        } else {
            (
                Bitboard((pawns & not_a).0 >> 9),
                Bitboard((pawns & not_h).0 >> 7),
            )
        };
        let single = pawns.shift_forward(white) & empty;
        let double_rank = Bitboard::rank(if white { 3 } else { 4 });
        let double = single.shift_forward(white) & empty & double_rank;
        PawnReach {
            west,
            east,
            single,
            double,
        }
    }
}

/// Pawn moves of the side to move: captures onto `capture_target` (enemy men
/// only) and pushes onto `push_target` (empty squares only), with each of
/// `promotions` on the last rank. En passant is separate.
#[inline]
pub(crate) fn pawn_moves(
    state: &State,
    capture_target: Bitboard,
    push_target: Bitboard,
    promotions: &[Role],
    moves: &mut MoveList,
) {
    let us = state.turn;
    let board = &state.board;
    let white = us == crate::board::Color::White;
    let pawns = board.by_piece(Role::Pawn.of(us));
    let their = board.by_color(!us);
    let empty = !board.occupied();
    let capture_target = capture_target & their;

    let reach = PawnReach::of(pawns, empty, white);
    let (west_back, east_back) = if white { (-7, -9) } else { (9, 7) };
    for (targets, back) in [
        (reach.west & capture_target, west_back),
        (reach.east & capture_target, east_back),
    ] {
        for to in targets {
            let from = to.offset(back).expect("pawn captured from the board");
            push_pawn(from, to, board.role_at(to), promotions, moves);
        }
    }

    let back = if white { -8 } else { 8 };
    for to in reach.single & push_target {
        let from = to.offset(back).expect("pawn pushed from the board");
        push_pawn(from, to, None, promotions, moves);
    }
    for to in reach.double & push_target {
        let from = to.offset(2 * back).expect("pawn pushed from the board");
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture: None,
            to,
            promotion: None,
        });
    }
}

/// A pawn move, once per role of `promotions` when it reaches the first or
/// last rank (none if `promotions` is empty), otherwise once.
#[inline]
pub(crate) fn push_pawn(
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotions: &[Role],
    moves: &mut MoveList,
) {
    if Bitboard::BACKRANKS.contains(to) {
        for &promotion in promotions {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: Some(promotion),
            });
        }
    } else {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: None,
        });
    }
}

/// En-passant captures available to the side to move (pseudo-legal).
#[inline]
pub(crate) fn en_passant_moves(state: &State, moves: &mut MoveList) {
    if let Some(to) = state.ep_square {
        let capturers = attacks::pawn_attacks(!state.turn, to)
            & state.board.by_piece(Role::Pawn.of(state.turn));
        for from in capturers {
            moves.push(Move::EnPassant { from, to });
        }
    }
}
