//! Perft: counting the leaf nodes of the legal move tree, the standard check
//! of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Number of leaf nodes of the legal move tree `depth` plies deep.
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.decided_before_moving() {
        return 0;
    }
    // Generated into this frame's list: returning a list by value copies it.
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move: `(move, nodes below it)` in generation order.
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || pos.decided_before_moving() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

/// Number of leaf nodes of the legal move tree `turns` whole turns deep: a
/// turn of several sub-moves (Hit-and-Run chess) is one step, and a turn
/// ends when the side to move changes. Equals [`perft`] when every turn is
/// one move.
pub fn perft_turns<P: Position>(pos: &P, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    if pos.decided_before_moving() {
        return 0;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let left = if child.turn() == pos.turn() {
                turns
            } else {
                turns - 1
            };
            perft_turns(&child, left)
        })
        .sum()
}

/// [`divide`] over the threads of the current rayon pool, in plies or, with
/// `turns`, in whole turns ([`perft_turns`]): `(move, nodes below it)` in
/// generation order. A game decided before the side to move moves has no
/// first moves (RULES A5), as in [`perft`].
pub fn divide_parallel<P: Position>(pos: &P, depth: u32, turns: bool) -> Vec<(Move, u64)> {
    use rayon::prelude::*;
    if depth == 0 || pos.decided_before_moving() {
        return Vec::new();
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let nodes = if !turns {
                perft(&child, depth - 1)
            } else if child.turn() == pos.turn() {
                perft_turns(&child, depth)
            } else {
                perft_turns(&child, depth - 1)
            };
            (m, nodes)
        })
        .collect()
}
