//! Predecessors for retrograde analysis: the table positions one quiet
//! move before a table position.
//!
//! Within one table (one material, no en-passant square) a move keeps the
//! material only if it captures nothing and promotes nothing, so the
//! predecessors of a position are found by taking back a quiet move of the
//! side that just moved: a piece stepping or sliding back to an empty
//! square, a pawn stepping back one square, or two from its fourth rank.
//! The earlier position must be legal with that move played from it:
//! captures are compulsory (RULES A2), so the mover had no capture there,
//! and a double step that gives the opponent an en-passant capture leads to
//! a position outside the table (valued from the smaller tables), so it is
//! not taken back.

use super::index::transform;
use crate::board::{Bitboard, Board, Color, Role, Square, attacks};

/// Whether `color` has a capture on `board` (no en-passant square).
pub fn has_capture(board: &Board, color: Color) -> bool {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let targets = board.by_color(!color);
    for sq in ours.without(board.by_role(Role::Pawn)) {
        let role = board.role_at(sq).expect("an occupied square");
        if attacks::attacks(color, role, sq, occupied).intersects(targets) {
            return true;
        }
    }
    for sq in ours & board.by_role(Role::Pawn) {
        if attacks::pawn_attacks(color, sq).intersects(targets) {
            return true;
        }
    }
    false
}

/// Calls `visit` with every board from which `mover` reaches `board` by a
/// quiet move that is legal there (see the module documentation). A board
/// is visited once per move leading from it to `board`.
pub fn for_each_predecessor(board: &Board, mover: Color, mut visit: impl FnMut(&Board)) {
    let occupied = board.occupied();
    let empty = !occupied;
    let forward: i32 = if mover == Color::White { 8 } else { -8 };
    for (sq, piece) in board.pieces() {
        if piece.color != mover {
            continue;
        }
        let mut take_back = |from: Square| {
            let mut before = *board;
            before.remove(sq);
            before.set(from, piece);
            if !has_capture(&before, mover) {
                visit(&before);
            }
        };
        if piece.role != Role::Pawn {
            let origins = attacks::attacks(mover, piece.role, sq, occupied) & Bitboard(empty.0);
            for from in origins {
                take_back(from);
            }
            continue;
        }
        // A pawn stepped forward: it came from one square behind (not from
        // its first rank), or two from its fourth rank.
        let Some(one) = sq.offset(-forward) else {
            continue;
        };
        if occupied.contains(one) || one.relative_rank(mover) == 0 {
            continue;
        }
        take_back(one);
        if sq.relative_rank(mover) == 3 {
            let two = one.offset(-forward).expect("second rank is on the board");
            let opponent_pawns = board.by_piece(Role::Pawn.of(!mover));
            let en_passant = attacks::pawn_attacks(mover, one).intersects(opponent_pawns);
            if !occupied.contains(two) && !en_passant {
                take_back(two);
            }
        }
    }
}

/// How many of the symmetries `0..count` (see [`transform`]) map `board`
/// onto itself (at least 1: the identity).
pub fn stabilizer(board: &Board, count: u8) -> u8 {
    if !symmetric_occupancy(board.occupied().0, count) {
        return 1;
    }
    let mut fixed = 1;
    for t in 1..count {
        let same = board.pieces().all(|(sq, piece)| {
            board.piece_at(square(transform(sq.index() as u8, t))) == Some(piece)
        });
        fixed += same as u8;
    }
    fixed
}

/// Whether one of the symmetries `1..count` maps the set of occupied
/// squares onto itself (needed for it to fix the board).
fn symmetric_occupancy(occupied: u64, count: u8) -> bool {
    (1..count).any(|t| transform_bitboard(occupied, t) == occupied)
}

/// The squares of `x` moved by symmetry `t` of [`transform`]: the file
/// mirror, then the rank mirror, then the reflection in the a1-h8
/// diagonal, as its bits say.
fn transform_bitboard(mut x: u64, t: u8) -> u64 {
    if t & 1 != 0 {
        x = mirror_files(x);
    }
    if t & 2 != 0 {
        x = x.swap_bytes();
    }
    if t & 4 != 0 {
        x = transpose(x);
    }
    x
}

/// The bitboard mirrored left-right (file a <-> file h).
fn mirror_files(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// The bitboard reflected in the a1-h8 diagonal.
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

fn square(index: u8) -> Square {
    Square::new(u32::from(index)).expect("a square index below 64")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit tricks agree with [`transform`] on every square.
    #[test]
    fn bitboard_symmetries_match_the_square_transforms() {
        for sq in 0..64u8 {
            let bit = 1u64 << sq;
            assert_eq!(mirror_files(bit), 1 << transform(sq, 1), "mirror {sq}");
            assert_eq!(bit.swap_bytes(), 1 << transform(sq, 2), "ranks {sq}");
            assert_eq!(transpose(bit), 1 << transform(sq, 4), "transpose {sq}");
            for t in 0..8 {
                assert_eq!(
                    transform_bitboard(bit, t),
                    1 << transform(sq, t),
                    "{t} {sq}"
                );
            }
        }
    }
}
