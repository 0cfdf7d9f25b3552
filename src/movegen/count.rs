//! Counting legal moves without listing them: population counts of target
//! sets wherever every square of a set is one move (perft's last ply, the
//! prover's mobility numbers). Each count equals the length of the list the
//! matching generator builds; `tests/move_count.rs` checks that on every
//! node of perft trees in each variant.

use super::drops::drop_count;
use super::legal_royal;
use super::pieces::PawnReach;
use super::royal::{castling_rooks, en_passant_is_safe, leaper_checkers, snipers};
use crate::board::{Bitboard, Role, Square, attacks};
use crate::moves::MoveList;
use crate::position::State;

/// The number of moves [`super::pawn_moves`] generates for the pawns of
/// `pawns` (men of the side to move): captures onto enemy men of
/// `capture_target`, pushes onto `push_target`, a move per promotion role
/// on the last rank.
#[inline]
fn pawn_count(
    state: &State,
    pawns: Bitboard,
    capture_target: Bitboard,
    push_target: Bitboard,
    promotions: usize,
) -> u32 {
    let white = state.turn == crate::board::Color::White;
    let board = &state.board;
    let capture_target = capture_target & board.by_color(!state.turn);
    let reach = PawnReach::of(pawns, !board.occupied(), white);
    let by_promotion = |targets: Bitboard| {
        (targets & Bitboard::BACKRANKS).count() * promotions as u32
            + targets.without(Bitboard::BACKRANKS).count()
    };
    by_promotion(reach.west & capture_target)
        + by_promotion(reach.east & capture_target)
        + by_promotion(reach.single & push_target)
        + (reach.double & push_target).count()
}

/// The number of moves [`super::piece_moves`] generates for the knights,
/// bishops, rooks and queens of `from` onto `target`.
#[inline]
fn piece_count(state: &State, from: Bitboard, target: Bitboard) -> u32 {
    let board = &state.board;
    let occupied = board.occupied();
    let ours = from & board.by_color(state.turn);
    let mut count = 0;
    for sq in ours & board.by_role(Role::Knight) {
        count += (attacks::knight_attacks(sq) & target).count();
    }
    for sq in ours & board.bishops_and_queens() {
        count += (attacks::bishop_attacks(sq, occupied) & target).count();
    }
    for sq in ours & board.rooks_and_queens() {
        count += (attacks::rook_attacks(sq, occupied) & target).count();
    }
    count
}

/// The number of king steps [`super::king_steps`] generates onto `target`.
#[inline]
fn king_step_count(state: &State, target: Bitboard) -> u32 {
    let kings = state.board.by_piece(Role::King.of(state.turn));
    kings
        .into_iter()
        .map(|sq| (attacks::king_attacks(sq) & target).count())
        .sum()
}

/// The number of moves `losing_moves` generates (Losing
/// chess without castling, RULES A1, A2): the captures if there are any,
/// otherwise the quiet moves.
pub(crate) fn losing_count(state: &State, promotions: &[Role]) -> usize {
    let board = &state.board;
    let ours = board.by_color(state.turn);
    let pawns = board.by_piece(Role::Pawn.of(state.turn));
    let their = board.by_color(!state.turn);
    let mut captures = piece_count(state, ours, their)
        + king_step_count(state, their)
        + pawn_count(state, pawns, their, Bitboard::EMPTY, promotions.len());
    if let Some(to) = state.ep_square {
        captures += (attacks::pawn_attacks(!state.turn, to) & pawns).count();
    }
    if captures > 0 {
        return captures as usize;
    }
    let empty = !board.occupied();
    (piece_count(state, ours, empty)
        + king_step_count(state, empty)
        + pawn_count(state, pawns, Bitboard::EMPTY, empty, promotions.len())) as usize
}

/// The number of moves [`legal_royal`] generates (a royal king: chess,
/// crazyhouse with `with_drops`). Out of check the moves are counted from
/// the pins, with en passant and castling tested as when listing; in check
/// the evasions (few) are listed and counted.
pub(crate) fn royal_count(state: &State, promotions: &[Role], with_drops: bool) -> usize {
    let board = &state.board;
    let us = state.turn;
    let Some(king) = board.king_of(us) else {
        return 0;
    };
    let our = board.by_color(us);
    let Some(pinned) = pins_out_of_check(state, king) else {
        let mut moves = MoveList::new();
        legal_royal(state, promotions, with_drops, &mut moves);
        return moves.len();
    };
    let pinned = pinned & our;
    let target = !our;
    let pawns = board.by_piece(Role::Pawn.of(us));
    let mut count = piece_count(state, our.without(pinned), target)
        + pawn_count(
            state,
            pawns.without(pinned),
            Bitboard::FULL,
            Bitboard::FULL,
            promotions.len(),
        );
    for sq in pinned {
        // A pinned man moves along the line through its king only (a
        // pinned knight never does).
        let along = attacks::line(king, sq) & target;
        let single = Bitboard::from(sq);
        count += if pawns.contains(sq) {
            pawn_count(state, single, along, along, promotions.len())
        } else {
            piece_count(state, single, along)
        };
    }
    count += safe_king_step_count(state, king, target);
    if let Some(to) = state.ep_square {
        let capturers = attacks::pawn_attacks(!us, to) & pawns;
        count += capturers
            .into_iter()
            .filter(|&from| en_passant_is_safe(state, king, from, to))
            .count() as u32;
    }
    count += castling_rooks(state, king, true).count();
    if with_drops {
        count += drop_count(state, !board.occupied());
    }
    count as usize
}

/// The number of king steps onto `target` that leave the king unattacked.
fn safe_king_step_count(state: &State, king: Square, target: Bitboard) -> u32 {
    let board = &state.board;
    let occupied = board.occupied() ^ Bitboard::from(king);
    (attacks::king_attacks(king) & target)
        .into_iter()
        .filter(|&to| !board.is_attacked_by(to, !state.turn, occupied))
        .count() as u32
}

/// The men standing alone between `king` and an enemy slider aiming at it,
/// or `None` if the king is in check: one pass over the enemy sliders on the
/// king's lines finds both (what `checkers` and `slider_blockers` find
/// apart).
#[inline]
fn pins_out_of_check(state: &State, king: Square) -> Option<Bitboard> {
    let board = &state.board;
    if leaper_checkers(board, king, state.turn).any() {
        return None;
    }
    let snipers = snipers(board, king, !state.turn);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if between.is_empty() {
            return None;
        }
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    Some(pinned)
}
