//! En passant in Hit-and-Run chess (RULES R7): several squares may be live
//! at once, those skipped by the opponent's double steps of his last turn
//! (capturable now) and, in the middle of a turn, the one skipped by the
//! mover's own double step (capturable next turn). They are told apart by
//! rank: rank 3 for White's pawns, rank 6 for Black's (RULES R8).

use crate::board::{Bitboard, Color, Role, Square, attacks};
use crate::moves::{Move, MoveList};
use crate::position::State;

/// The rank (0-based) of the squares skipped by `color`'s double steps.
const fn skip_rank(color: Color) -> u32 {
    match color {
        Color::White => 2,
        Color::Black => 5,
    }
}

/// Whose pawn skipped `sq`, if it lies on one of the two en-passant ranks.
pub(super) fn owner(sq: Square) -> Option<Color> {
    Color::ALL.into_iter().find(|&c| sq.rank() == skip_rank(c))
}

/// The square where the pawn that skipped `sq` landed.
pub(super) fn landing(sq: Square, owner: Color) -> Square {
    sq.offset(owner.fold(8, -8))
        .expect("skipped squares are on ranks 3 and 6")
}

/// The squares of `ep` skipped by `color`'s pawns.
pub(super) fn owned_by(ep: Bitboard, color: Color) -> Bitboard {
    ep & Bitboard::rank(skip_rank(color))
}

/// The square a pawn's double step skips (empty for any other move).
pub(super) fn skipped_by(m: Move) -> Bitboard {
    match m {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } if from.index().abs_diff(to.index()) == 16 => {
            Square::from_coords(from.file(), (from.rank() + to.rank()) / 2)
                .map_or(Bitboard::EMPTY, Bitboard::from)
        }
        _ => Bitboard::EMPTY,
    }
}

/// Pawns that could take on `sq` (skipped by `owner`'s pawn), not counting
/// the man on `moved` (a man moving a second time never captures, RULES R2).
fn capturers(state: &State, sq: Square, owner: Color, moved: Option<Square>) -> Bitboard {
    let moved = moved.map_or(Bitboard::EMPTY, Bitboard::from);
    (attacks::pawn_attacks(owner, sq) & state.board.by_piece(Role::Pawn.of(!owner))).without(moved)
}

/// The squares of `ep` that can still be taken: the double-stepped pawn
/// still stands where it landed (it has not moved again nor been captured),
/// the skipped square is empty (RULES R7: once occupied it cannot be
/// emptied in time), and an enemy pawn other than the man on `moved` stands
/// ready beside it. Whether that capture would be legal for king safety is
/// not asked; the rule only makes equal positions carry equal sets.
pub(crate) fn live(state: &State, ep: Bitboard, moved: Option<Square>) -> Bitboard {
    let board = &state.board;
    ep.filter(|&sq| {
        owner(sq).is_some_and(|owner| {
            !board.occupied().contains(sq)
                && board.piece_at(landing(sq, owner)) == Some(Role::Pawn.of(owner))
                && capturers(state, sq, owner, moved).any()
        })
    })
    .fold(Bitboard::EMPTY, |set, sq| set | Bitboard::from(sq))
}

/// Appends the legal en-passant captures of the side to move against the
/// opponent's live double steps (RULES R7), by pawns not yet moved this turn.
/// With `guarded`, only those that leave the mover's king safe (RULES R5).
pub(super) fn captures(state: &State, guarded: bool, moves: &mut MoveList) {
    let us = state.turn;
    let moved = state.phase.sub.map(|s| s.square);
    let Some(king) = state.board.king_of(us) else {
        return;
    };
    for to in owned_by(state.phase.ep, !us) {
        let victim = landing(to, !us);
        for from in capturers(state, to, !us, moved) {
            let mut board = state.board;
            board.remove(from);
            board.remove(victim);
            board.set(to, Role::Pawn.of(us));
            if !guarded || !board.is_attacked_by(king, !us, board.occupied()) {
                moves.push(Move::EnPassant { from, to });
            }
        }
    }
}
