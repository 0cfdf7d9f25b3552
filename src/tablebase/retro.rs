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

use super::MAX_MEN;
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
///
/// An origin is legal when the mover has no capture on the board before
/// the move. Only the moved man changes between the boards tried for one
/// man, so what does not depend on its origin is worked out once: a
/// capture by another pawn, knight or king rules out every origin; the
/// origins from which the man itself would capture are one union of
/// attacks from the targets (attacks are symmetric, and the man's origin
/// is not between it and a target); only the other sliders are looked at
/// per origin (the origin may block them). `has_capture` on each board is
/// the reference (tests).
pub fn for_each_predecessor(board: &Board, mover: Color, mut visit: impl FnMut(&Board)) {
    let occupied = board.occupied();
    let empty = !occupied;
    let targets = board.by_color(!mover);
    let forward: i32 = if mover == Color::White { 8 } else { -8 };
    // The mover's sliders, and its other men that capture wherever any
    // one man came from (their attacks do not depend on occupancy).
    let mut sliders: [(Square, Role); MAX_MEN] = [(Square::A1, Role::King); MAX_MEN];
    let mut slider_count = 0;
    let mut capturing_steppers = Bitboard(0);
    for (at, man) in board.pieces().filter(|(_, p)| p.color == mover) {
        if is_slider(man.role) {
            sliders[slider_count] = (at, man.role);
            slider_count += 1;
        } else if attacks::attacks(mover, man.role, at, occupied).intersects(targets) {
            capturing_steppers.add(at);
        }
    }
    let sliders = &sliders[..slider_count];
    for (sq, piece) in board.pieces() {
        if piece.color != mover || capturing_steppers.without(Bitboard::from_square(sq)).any() {
            continue;
        }
        let lifted = occupied.without(Bitboard::from_square(sq));
        let mut capturing_from = Bitboard(0);
        for t in targets {
            capturing_from |= if piece.role == Role::Pawn {
                attacks::pawn_attacks(!mover, t)
            } else {
                attacks::attacks(mover, piece.role, t, lifted)
            };
        }
        let mut take_back = |from: Square| {
            if capturing_from.contains(from) {
                return;
            }
            let before_occupied = lifted | Bitboard::from_square(from);
            if sliders.iter().any(|&(at, role)| {
                at != sq && attacks::attacks(mover, role, at, before_occupied).intersects(targets)
            }) {
                return;
            }
            let mut before = *board;
            before.remove(sq);
            before.set(from, piece);
            debug_assert!(!has_capture(&before, mover));
            visit(&before);
        };
        if piece.role != Role::Pawn {
            let origins = attacks::attacks(mover, piece.role, sq, occupied) & empty;
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

/// Whether a man of `role` attacks along lines that other men can block.
fn is_slider(role: Role) -> bool {
    matches!(role, Role::Bishop | Role::Rook | Role::Queen)
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

    /// The predecessors found with the per-man shortcuts are exactly those
    /// of the plain rule: every quiet move taken back, kept when the board
    /// before it has no capture for the mover (RULES A2), on random boards
    /// of several materials, both movers.
    #[test]
    fn predecessors_match_the_plain_rule() {
        let materials = ["KQRvKB", "KRBvNN", "KPPvKP", "QNPvBP", "KBvKPP", "RRvBB"];
        let mut predecessors = 0;
        for key in materials {
            let material = super::super::Material::parse(key).unwrap();
            for board in material.random_boards(0x2545_f491_4f6c_dd1d).take(4000) {
                for mover in [Color::White, Color::Black] {
                    let mut found = Vec::new();
                    for_each_predecessor(&board, mover, |b| found.push(format!("{b:?}")));
                    let mut plain: Vec<String> = plain_predecessors(&board, mover)
                        .iter()
                        .map(|b| format!("{b:?}"))
                        .collect();
                    found.sort();
                    plain.sort();
                    assert_eq!(found, plain, "{key}: {board:?}, {mover:?} moved");
                    predecessors += found.len();
                }
            }
        }
        assert!(predecessors > 100_000, "{predecessors} predecessors found");
    }

    /// The predecessors by the rule alone: each man of `mover` put back on
    /// every square it could have come from by a quiet move, kept when
    /// the mover had no capture there.
    fn plain_predecessors(board: &Board, mover: Color) -> Vec<Board> {
        let occupied = board.occupied();
        let mut out = Vec::new();
        for (sq, piece) in board.pieces().filter(|(_, p)| p.color == mover) {
            let mut origins = Vec::new();
            if piece.role == Role::Pawn {
                let back = if mover == Color::White { -8 } else { 8 };
                if let Some(one) = sq.offset(back).filter(|o| !occupied.contains(*o)) {
                    if one.relative_rank(mover) != 0 {
                        origins.push(one);
                    }
                    let ep_risk = attacks::pawn_attacks(mover, one)
                        .intersects(board.by_piece(Role::Pawn.of(!mover)));
                    if sq.relative_rank(mover) == 3 && !ep_risk {
                        let two = one.offset(back).unwrap();
                        if !occupied.contains(two) {
                            origins.push(two);
                        }
                    }
                }
            } else {
                origins.extend(attacks::attacks(mover, piece.role, sq, occupied) & !occupied);
            }
            for from in origins {
                let mut before = *board;
                before.remove(sq);
                before.set(from, piece);
                if !has_capture(&before, mover) {
                    out.push(before);
                }
            }
        }
        out
    }
}
