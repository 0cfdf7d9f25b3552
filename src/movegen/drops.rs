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
