//! Checking a Hit-and-Run setup (RULES R8): the orthodox rules, the
//! en-passant list and the mid-turn field. Every impossible state is
//! reported with the rule it breaks, never accepted or a panic.

use super::{HitAndRunChess, HitAndRunRules, ep};
use crate::board::{Bitboard, Color, Role, Square, attacks};
use crate::moves::MoveList;
use crate::position::state;
use crate::position::{Position, PositionError, Setup, State, SubMove, TurnPhase};
use crate::position::{PositionProblem, ProblemKind, problem};

/// Validates `setup` and builds the state, per-turn data included.
pub(super) fn from_setup<R: HitAndRunRules>(setup: &Setup) -> Result<State, PositionError> {
    let mut problems = Vec::new();
    let mut orthodox = setup.clone();
    orthodox.ep_square = None;
    orthodox.more_ep = Bitboard::EMPTY;
    orthodox.sub = None;
    state::check_common(&orthodox, &mut problems);
    state::check_one_king_each(setup, &mut problems);
    if setup.has_holdings() {
        problems.push(problem(
            ProblemKind::Holdings,
            "Hit-and-Run chess has no holdings (remove the [...] part)",
        ));
    }
    check_ep(setup, &mut problems);
    match setup.sub {
        None => check_turn_start(setup, &mut problems),
        Some(sub) => check_mid_turn(setup, sub, R::SIMULTANEOUS, &mut problems),
    }
    state::finish(problems)?;

    let mut plain = orthodox;
    plain.pockets = None;
    plain.prisoners = None;
    plain.promoted = Bitboard::EMPTY;
    let mut state = State::from_checked_setup(&plain);
    let moved = setup.sub.map(|s| s.square);
    state.phase = TurnPhase {
        ep: ep::live(&state, setup.ep_squares(), moved),
        sub: setup.sub,
        first_turn: setup.fullmoves == 1 && setup.sub.is_none(),
    };
    state.hash = state.compute_hash();
    if setup.sub.is_some() {
        let pos = HitAndRunChess::<R>::from_state(state.clone());
        let mut legal = MoveList::new();
        pos.legal_moves_into(&mut legal);
        if legal.is_empty() {
            return Err(PositionError {
                problems: vec![problem(
                    ProblemKind::Turn,
                    "impossible mid-turn position: no second sub-move is legal, so the turn would already have ended (RULES R1)",
                )],
            });
        }
    }
    Ok(state)
}

/// The en-passant list: squares on rank 3 or 6 whose double-stepped pawn
/// still stands in front of them, at most two of the opponent's (one on his
/// single-move first turn, none before White's first move) and, mid-turn,
/// at most one of the mover's, skipped by the man that made the first
/// sub-move (RULES R7, R8).
fn check_ep(setup: &Setup, problems: &mut Vec<PositionProblem>) {
    let us = setup.turn;
    let squares = setup.ep_squares();
    for sq in squares {
        let Some(owner) = ep::owner(sq) else {
            problems.push(problem(ProblemKind::EnPassant, format!(
                "invalid en-passant square {sq}: it must be on rank 3 (skipped by a White pawn) or rank 6 (by a Black pawn) (RULES R8)"
            )));
            continue;
        };
        let landing = ep::landing(sq, owner);
        if setup.board.piece_at(landing) != Some(Role::Pawn.of(owner)) {
            problems.push(problem(ProblemKind::EnPassant, format!(
                "invalid en-passant square {sq}: no {} pawn stands on {landing} after a double step over it (RULES R7)",
                owner.name()
            )));
        }
        if owner == us {
            match setup.sub {
                None => problems.push(problem(ProblemKind::EnPassant, format!(
                    "invalid en-passant square {sq}: at the start of {}'s turn only squares skipped by {}'s pawns can be listed (RULES R8)",
                    us.name(),
                    (!us).name()
                ))),
                Some(sub) if sub.square != landing => problems.push(problem(ProblemKind::EnPassant, format!(
                    "invalid en-passant square {sq}: in the middle of a turn the mover's own square must be skipped by the man that made the first sub-move ({}) (RULES R8)",
                    sub.square
                ))),
                Some(_) => {}
            }
        }
    }
    let theirs = ep::owned_by(squares, !us).count();
    let first_turn = setup.fullmoves == 1;
    let most = match (first_turn, us) {
        (true, Color::White) => 0,
        (true, Color::Black) => 1,
        (false, _) => 2,
    };
    if theirs > most {
        problems.push(problem(ProblemKind::EnPassant, format!(
            "{theirs} en-passant squares of {}'s pawns, but its last turn had at most {most} double step(s) (RULES R1, R7)",
            (!us).name()
        )));
    }
}

/// At the start of a turn the side not to move may not be in check.
fn check_turn_start(setup: &Setup, problems: &mut Vec<PositionProblem>) {
    let board = &setup.board;
    let them = !setup.turn;
    if let Some(king) = board.king_of(them)
        && board.attacks_by(king, setup.turn, board.occupied()).any()
    {
        problems.push(problem(
            ProblemKind::Check,
            format!(
                "the side not to move ({}) is in check at the start of a turn (RULES R5)",
                them.name()
            ),
        ));
    }
}

/// A mid-turn position: not on a side's single-move first turn, the man
/// that moved is the mover's and no longer has castling rights, a capture
/// origin is empty and the man could have captured from there, and the
/// mover's king is safe (RULES R1, R3, R5, R6, R8; with `simultaneous`,
/// RULES R9, the king may stand attacked if a second sub-move saves it,
/// which the caller checks).
fn check_mid_turn(
    setup: &Setup,
    sub: SubMove,
    simultaneous: bool,
    problems: &mut Vec<PositionProblem>,
) {
    let board = &setup.board;
    let us = setup.turn;
    if setup.fullmoves == 1 {
        problems.push(problem(ProblemKind::Turn, "impossible mid-turn position: a side's first turn (fullmove number 1) is a single move (RULES R1)"));
    }
    let Some(piece) = board.piece_at(sub.square).filter(|p| p.color == us) else {
        problems.push(problem(ProblemKind::Turn, format!(
            "impossible mid-turn position: sub={} names a square without a {} man, the side making the second sub-move (RULES R8)",
            sub.square,
            us.name()
        )));
        return;
    };
    let home_rank = Bitboard::rank(us.fold(0, 7));
    let rights = setup.castling & home_rank;
    if rights.contains(sub.square) || (piece.role == Role::King && rights.any()) {
        problems.push(problem(ProblemKind::Turn, format!(
            "impossible mid-turn position: the man on {} has just moved, so it cannot keep a castling right (RULES R6)",
            sub.square
        )));
    }
    if let Some(origin) = sub.captured_from {
        if board.occupied().contains(origin) {
            problems.push(problem(ProblemKind::Turn, format!(
                "impossible mid-turn position: the capturer left {origin}, but it is occupied (RULES R8)"
            )));
        } else if !could_capture(setup, piece.role, origin, sub.square) {
            problems.push(problem(ProblemKind::Turn, format!(
                "impossible mid-turn position: the man '{}' on {} cannot have captured from {origin} (RULES R8)",
                piece.char(),
                sub.square
            )));
        }
    }
    if let Some(king) = board.king_of(us)
        && !simultaneous
        && board.attacks_by(king, !us, board.occupied()).any()
    {
        problems.push(problem(ProblemKind::Turn, format!(
            "impossible mid-turn position: {}'s first sub-move left its own king in check (RULES R5)",
            us.name()
        )));
    }
}

/// Whether a man of `role` now on `to` can have captured from `origin`:
/// by its own move, or as a pawn that captured onto the last rank and
/// promoted (RULES R4).
fn could_capture(setup: &Setup, role: Role, origin: Square, to: Square) -> bool {
    let us = setup.turn;
    let pawn_capture = attacks::pawn_attacks(us, origin).contains(to);
    let promoted = pawn_capture && to.relative_rank(us) == 7 && role != Role::King;
    let own_move = match role {
        Role::Pawn => pawn_capture,
        _ => attacks::attacks(us, role, origin, setup.board.occupied()).contains(to),
    };
    own_move || promoted
}
