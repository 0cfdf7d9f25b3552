//! Drops of men from the mover's pocket.

use crate::board::{Bitboard, Role};
use crate::moves::{Move, MoveList};
use crate::position::State;

/// The men that can be dropped, in the order their drops are generated.
pub(crate) const DROP_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// The squares of `target` where a `role` may be dropped: pawns never onto
/// the first or last rank.
#[inline]
pub(crate) fn drop_squares(role: Role, target: Bitboard) -> Bitboard {
    if role == Role::Pawn {
        target.without(Bitboard::BACKRANKS)
    } else {
        target
    }
}

/// Drops of every man in the mover's pocket onto the empty squares of
/// `target`; pawns never onto the first or last rank.
#[inline]
pub(crate) fn drops(state: &State, target: Bitboard, moves: &mut MoveList) {
    let target = target & !state.board.occupied();
    let pocket = &state.pockets[state.turn];
    for role in DROP_ROLES {
        if pocket[role] == 0 {
            continue;
        }
        for to in drop_squares(role, target) {
            moves.push(Move::Drop { role, to });
        }
    }
}

/// Whether the mover can drop some man onto an empty square of `target`
/// (what [`drops`] would generate at least one move for).
#[inline]
pub(crate) fn can_drop(state: &State, target: Bitboard) -> bool {
    drop_count(state, target) > 0
}

/// The number of drops [`drops`] generates onto `target`.
#[inline]
pub(crate) fn drop_count(state: &State, target: Bitboard) -> u32 {
    let target = target & !state.board.occupied();
    let pocket = &state.pockets[state.turn];
    DROP_ROLES
        .into_iter()
        .filter(|&role| pocket[role] > 0)
        .map(|role| drop_squares(role, target).count())
        .sum()
}
