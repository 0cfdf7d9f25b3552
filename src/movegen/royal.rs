//! Legal moves for variants with a royal king (chess, crazyhouse): check
//! evasions, pins, castling through unattacked squares, and the en-passant
//! discovered-check case.

use super::{drops, en_passant_moves, pawn_moves, piece_moves};
use crate::board::{Bitboard, Board, Color, Role, Square, attacks, zobrist};
use crate::moves::{Move, MoveList, castling_king_target, castling_rook_target};
use crate::position::State;

/// Men of the side not to move that attack the king of the side to move.
#[inline]
pub(crate) fn checkers(state: &State) -> Bitboard {
    let board = &state.board;
    let Some(king) = board.king_of(state.turn) else {
        return Bitboard::EMPTY;
    };
    let theirs = board.by_color(!state.turn);
    let occupied = board.occupied();
    let mut found = leaper_checkers(board, king, state.turn);
    let rook_like = board.rooks_and_queens() & theirs;
    if (attacks::rook_attacks(king, Bitboard::EMPTY) & rook_like).any() {
        found |= attacks::rook_attacks(king, occupied) & rook_like;
    }
    let bishop_like = board.bishops_and_queens() & theirs;
    if (attacks::bishop_attacks(king, Bitboard::EMPTY) & bishop_like).any() {
        found |= attacks::bishop_attacks(king, occupied) & bishop_like;
    }
    found
}

/// Forgets the en-passant square of `state` when every en-passant capture
/// would leave the mover's king attacked (a pinned capturer, the rank opened
/// by removing both pawns, or a check the capture does not answer). The
/// square is then no part of the position: the FEN omits it, so the hash
/// must too, or equal positions would hash differently.
pub(crate) fn forget_unusable_ep(state: &mut State) {
    let Some(ep) = state.ep_square else {
        return;
    };
    let board = &state.board;
    let us = state.turn;
    let (Some(king), Some(victim)) = (board.king_of(us), ep.offset(us.fold(-8, 8))) else {
        return;
    };
    let victim = Bitboard::from(victim);
    let mut capturers = attacks::pawn_attacks(!us, ep) & board.by_piece(Role::Pawn.of(us));
    let safe = |from: Square| {
        let occupied = (board.occupied() ^ Bitboard::from(from) ^ victim) | Bitboard::from(ep);
        board
            .attacks_by(king, !us, occupied)
            .without(victim)
            .is_empty()
    };
    if !Iterator::any(&mut capturers, safe) {
        state.ep_square = None;
        state.hash ^= zobrist::en_passant(ep);
    }
}

/// Appends every legal move of the side to move. With `with_drops`, pocket
/// drops are included (crazyhouse).
pub(crate) fn legal_royal(
    state: &State,
    promotions: &[Role],
    with_drops: bool,
    moves: &mut MoveList,
) {
    let board = &state.board;
    let us = state.turn;
    let Some(king) = board.king_of(us) else {
        return;
    };
    let our = board.by_color(us);
    let checkers = checkers(state);
    let start = moves.len();

    if checkers.is_empty() {
        let target = !our;
        piece_moves(state, Bitboard::FULL, target, moves);
        pawn_moves(state, Bitboard::FULL, Bitboard::FULL, promotions, moves);
        en_passant_moves(state, moves);
        safe_king_steps(state, king, target, moves);
        castling_moves(state, king, true, moves);
        if with_drops {
            drops(state, Bitboard::FULL, moves);
        }
    } else {
        evasions(state, king, checkers, promotions, moves);
        if with_drops && let Some(checker) = checkers.single_square() {
            drops(state, attacks::between(king, checker), moves);
        }
    }

    let blockers = slider_blockers(board, king, !us);
    // An en-passant square is only kept while a pawn of the mover attacks
    // it, so this is exactly "en-passant moves may have been generated".
    let has_ep = state.ep_square.is_some();
    if (blockers & our).any() || has_ep {
        let mut i = start;
        while i < moves.len() {
            if is_safe(state, king, moves[i], blockers) {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }
}

/// Whether the side to move has a legal move: what `legal_royal` would
/// generate at least one move for, found more cheaply in check (a drop
/// between the king and a single checker, or a safe king step, settles it
/// without generating the other evasions).
pub(crate) fn has_legal_royal(state: &State, promotions: &[Role], with_drops: bool) -> bool {
    let board = &state.board;
    let Some(king) = board.king_of(state.turn) else {
        return false;
    };
    let checkers = checkers(state);
    if checkers.any() {
        if with_drops
            && let Some(checker) = checkers.single_square()
            && super::drops::can_drop(state, attacks::between(king, checker))
        {
            return true;
        }
        let mut steps = MoveList::new();
        safe_king_steps(state, king, !board.by_color(state.turn), &mut steps);
        if !steps.is_empty() {
            return true;
        }
        if checkers.more_than_one() {
            return false;
        }
    }
    let mut moves = MoveList::new();
    legal_royal(state, promotions, with_drops, &mut moves);
    !moves.is_empty()
}

/// The knights and pawns of the side other than `us` that attack `king`
/// (`us`'s king).
#[inline]
pub(super) fn leaper_checkers(board: &Board, king: Square, us: Color) -> Bitboard {
    (attacks::knight_attacks(king) & board.by_role(Role::Knight)
        | attacks::pawn_attacks(us, king) & board.by_role(Role::Pawn))
        & board.by_color(!us)
}

/// The rooks, bishops and queens of `them` on a line through `king`, with
/// or without men between.
#[inline]
pub(super) fn snipers(board: &Board, king: Square, them: Color) -> Bitboard {
    (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & board.by_color(them)
}

/// Men (of either side) that stand alone between `king` and a rook,
/// bishop or queen of `them`: the only men whose move can open a line to
/// the king.
pub(crate) fn slider_blockers(board: &Board, king: Square, them: Color) -> Bitboard {
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers(board, king, them) {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// Whether a pseudo-legal non-king move keeps the king safe.
fn is_safe(state: &State, king: Square, m: Move, blockers: Bitboard) -> bool {
    match m {
        Move::Normal { role, from, to, .. } => {
            role == Role::King || !blockers.contains(from) || attacks::aligned(from, to, king)
        }
        Move::EnPassant { from, to } => en_passant_is_safe(state, king, from, to),
        Move::Castle { .. } | Move::Drop { .. } | Move::Exchange { .. } => true,
    }
}

/// Whether the en-passant capture `from`-`to` leaves no enemy slider
/// aiming at `king` (both pawns leave their squares at once).
pub(super) fn en_passant_is_safe(state: &State, king: Square, from: Square, to: Square) -> bool {
    let board = &state.board;
    let captured = Square::from_coords(to.file(), from.rank()).expect("on board");
    let occupied =
        (board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(captured)) | Bitboard::from(to);
    let them = board.by_color(!state.turn);
    let rook_like = attacks::rook_attacks(king, occupied) & board.rooks_and_queens() & them;
    let bishop_like = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens() & them;
    (rook_like | bishop_like).is_empty()
}

fn safe_king_steps(state: &State, king: Square, target: Bitboard, moves: &mut MoveList) {
    let board = &state.board;
    let occupied = board.occupied() ^ Bitboard::from(king);
    for to in attacks::king_attacks(king) & target {
        if !board.is_attacked_by(to, !state.turn, occupied) {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

fn evasions(
    state: &State,
    king: Square,
    checkers: Bitboard,
    promotions: &[Role],
    moves: &mut MoveList,
) {
    let board = &state.board;
    let our = board.by_color(state.turn);
    safe_king_steps(state, king, !our, moves);
    if let Some(checker) = checkers.single_square() {
        let block = attacks::between(king, checker);
        let target = block | Bitboard::from(checker);
        piece_moves(state, Bitboard::FULL, target, moves);
        pawn_moves(state, Bitboard::from(checker), block, promotions, moves);
        if let Some(ep) = state.ep_square {
            let victim = ep.offset(state.turn.fold(-8, 8));
            if victim == Some(checker) || block.contains(ep) {
                en_passant_moves(state, moves);
            }
        }
    }
}

/// Appends the castling moves of the king on `king`: the squares between
/// king and rook and the targets must be empty; with `guarded`, the king
/// must also not start on, cross or reach an attacked square (a royal king).
pub(crate) fn castling_moves(state: &State, king: Square, guarded: bool, moves: &mut MoveList) {
    for rook in castling_rooks(state, king, guarded) {
        moves.push(Move::Castle { king, rook });
    }
}

/// The rooks the king on `king` may castle with now (see [`castling_moves`]).
#[inline]
pub(crate) fn castling_rooks(state: &State, king: Square, guarded: bool) -> Bitboard {
    let board = &state.board;
    let us = state.turn;
    let rights = state.castling & Bitboard::rank(us.fold(0, 7));
    let mut rooks = Bitboard::EMPTY;
    for rook in rights {
        // The usual refusal, found first: a man between king and rook.
        if board.occupied().intersects(attacks::between(king, rook)) {
            continue;
        }
        let king_to = castling_king_target(king, rook);
        let rook_to = castling_rook_target(king, rook);
        let must_be_empty = (attacks::between(king, rook)
            | attacks::between(king, king_to)
            | Bitboard::from(king_to)
            | Bitboard::from(rook_to))
        .without(Bitboard::from(king) | Bitboard::from(rook));
        if board.occupied().intersects(must_be_empty) {
            continue;
        }
        let occupied_after = board.occupied() ^ Bitboard::from(king) ^ Bitboard::from(rook);
        let king_path = attacks::between(king, king_to) | Bitboard::from(king_to);
        let safe = !guarded
            || king_path
                .into_iter()
                .all(|sq| !board.is_attacked_by(sq, !us, occupied_after));
        if safe {
            rooks |= Bitboard::from(rook);
        }
    }
    rooks
}
