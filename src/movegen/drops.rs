//! Drops of men from the mover's pocket.

use crate::board::{Bitboard, Role};
use crate::moves::{Move, MoveList};
use crate::position::State;

/// Drops of every man in the mover's pocket onto the empty squares of
/// `target`; pawns never onto the first or last rank.
#[inline]
pub(crate) fn drops(state: &State, target: Bitboard, moves: &mut MoveList) {
    let target = target & !state.board.occupied();
    let pocket = &state.pockets[state.turn];
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        if pocket[role] == 0 {
            continue;
        }
        let squares = if role == Role::Pawn {
            target.without(Bitboard::BACKRANKS)
        } else {
            target
        };
        for to in squares {
            moves.push(Move::Drop { role, to });
        }
    }
}

/// Whether the mover can drop some man onto an empty square of `target`
/// (what [`drops`] would generate at least one move for).
#[inline]
pub(crate) fn can_drop(state: &State, target: Bitboard) -> bool {
    let target = target & !state.board.occupied();
    let pocket = &state.pockets[state.turn];
    let pieces = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .any(|role| pocket[role] > 0);
    (pieces && target.any())
        || (pocket[Role::Pawn] > 0 && target.without(Bitboard::BACKRANKS).any())
}
