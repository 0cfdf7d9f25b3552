//! The walk both evaluations make: each man of one side with the squares
//! it attacks.

use crate::board::{Bitboard, Color, Role, Square, attacks};
use crate::position::State;

/// Calls `f` with the role, square and attacked squares (its own side's
/// men's squares included) of each of `us`'s men on the board.
pub(super) fn for_each_man(state: &State, us: Color, mut f: impl FnMut(Role, Square, Bitboard)) {
    let board = &state.board;
    let occupied = board.occupied();
    for role in Role::ALL {
        for sq in board.by_piece(role.of(us)) {
            f(role, sq, attacks::attacks(us, role, sq, occupied));
        }
    }
}
