//! Hit-and-Run chess (RULES R, Stephen Howell 2020): orthodox chess, but
//! after each side's single-move first turn every turn is two sub-moves.
//!
//! A [`Move`] is one sub-move. The position carries the per-turn state in
//! the shared [`TurnPhase`] (hashed, compared and part of the repetition
//! key): the live en-passant squares of both sides and, in the middle of a
//! turn, the square of the man that made the first sub-move and the square
//! it captured from (RULES R8).
//!
//! - [`Position::turn`] is the player making the sub-move: it stays the same
//!   after a first sub-move and changes when the turn ends, so a solver's OR
//!   node stays an OR node between the two sub-moves.
//! - The turn ends after the second sub-move, after the first one on a
//!   side's first turn (fullmove number 1, RULES R1), and after a first
//!   sub-move that leaves no legal second sub-move: the forfeit (RULES R1)
//!   happens inside [`Position::play_unchecked`], so a mid-turn position
//!   always has a legal move and checkmate and stalemate are only ever
//!   judged at the start of a turn (RULES R5).
//! - Legal sub-moves are the orthodox legal moves of the mover at that
//!   moment (own king never left in check, castling under the usual
//!   conditions, RULES R5, R6), minus captures of the enemy king (which may
//!   stand in check after a first sub-move) and, for the man moving a second
//!   time, any capture and any square on its capture line or its capture
//!   origin (RULES R2, R3); plus en-passant captures against each live
//!   double step of the opponent's last turn (RULES R7).
//! - The half-move clock counts sub-moves; the fullmove number counts turns.
//!
//! - The `hitandrun-simultaneous` rule set (RULES R9) judges both sub-moves
//!   together: at the start of a turn that has two sub-moves, a first
//!   sub-move that leaves the mover's king attacked is legal too if some
//!   second sub-move then makes the king safe (the mid-turn generator only
//!   offers such second sub-moves, so a first sub-move is legal exactly when
//!   it keeps the turn going). Castling keeps its usual conditions.
//!
//! Rule questions settled here are listed in docs/rules.md, section R.

mod ep;
mod validate;

use super::chess::royal_outcome;
use crate::board::{Bitboard, Color, Role, zobrist};
use crate::movegen::{self, PROMOTIONS};
use crate::moves::{Move, MoveList};
use crate::position::state::Captures;
use crate::position::{
    Outcome, OutcomeKind, Position, PositionError, Setup, State, SubMove, TurnPhase,
};
use crate::variants::Variant;
use std::marker::PhantomData;

/// A rule set of Hit-and-Run chess.
pub trait HitAndRunRules:
    Clone + std::fmt::Debug + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The variant this rule set is.
    const VARIANT: Variant;
    /// RULES R9: both sub-moves of a turn are judged together for the
    /// safety of the mover's king.
    const SIMULTANEOUS: bool;
}

/// The author's main rules (RULES R1–R8): every sub-move leaves the king safe.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sequential;

impl HitAndRunRules for Sequential {
    const VARIANT: Variant = Variant::HitAndRun;
    const SIMULTANEOUS: bool = false;
}

/// The author's "simultaneous" variation (RULES R9).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Simultaneous;

impl HitAndRunRules for Simultaneous {
    const VARIANT: Variant = Variant::HitAndRunSimultaneous;
    const SIMULTANEOUS: bool = true;
}

/// Hit-and-Run chess, main rules.
pub type HitAndRun = HitAndRunChess<Sequential>;
/// Hit-and-Run chess, "simultaneous" variation (RULES R9).
pub type HitAndRunSimultaneous = HitAndRunChess<Simultaneous>;

/// A position of Hit-and-Run chess, at the start of a turn or between its
/// two sub-moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HitAndRunChess<R: HitAndRunRules> {
    state: State,
    rules: PhantomData<R>,
}

impl<R: HitAndRunRules> HitAndRunChess<R> {
    /// Wraps a checked state.
    fn from_state(state: State) -> Self {
        HitAndRunChess {
            state,
            rules: PhantomData,
        }
    }

    /// The man that made the first sub-move of this turn, if the position
    /// is in the middle of a turn (RULES R8).
    pub fn sub_move(&self) -> Option<SubMove> {
        self.state.phase.sub
    }

    /// Whether the position is in the middle of a turn.
    pub fn is_mid_turn(&self) -> bool {
        self.state.phase.sub.is_some()
    }

    /// Every live en-passant square: on rank 3 those skipped by White's
    /// pawns, on rank 6 by Black's (RULES R7, R8).
    pub fn ep_squares(&self) -> Bitboard {
        self.state.phase.ep
    }

    /// Whether the next sub-move ends the turn by itself: a second sub-move,
    /// or the single move of a side's first turn (RULES R1).
    pub fn next_sub_move_ends_turn(&self) -> bool {
        self.is_mid_turn() || self.state.fullmoves == 1
    }

    /// Replaces the per-turn state, keeping the hash in step.
    fn set_phase(&mut self, phase: TurnPhase) {
        self.state.hash ^= self.state.phase.hash() ^ phase.hash();
        self.state.phase = phase;
    }

    /// Ends the turn after a first sub-move that leaves no legal second one
    /// (RULES R1): the side to move changes, as the shared make-move would
    /// have done.
    fn end_turn_early(&mut self) {
        let us = self.state.turn;
        if us == Color::Black {
            self.state.fullmoves = self.state.fullmoves.saturating_add(1);
        }
        self.state.turn = !us;
        self.state.hash ^= zobrist::black_to_move();
        let ep = ep::live(&self.state, ep::owned_by(self.state.phase.ep, us), None);
        self.set_phase(TurnPhase {
            ep,
            sub: None,
            first_turn: self.state.fullmoves == 1,
        });
    }

    /// Undoes the change of side the shared make-move makes: the turn goes on.
    fn keep_turn(&mut self, us: Color) {
        if us == Color::Black {
            self.state.fullmoves -= 1;
        }
        self.state.turn = us;
        self.state.hash ^= zobrist::black_to_move();
    }

    /// RULES R9: appends the first sub-moves that leave the mover's king
    /// attacked but keep the turn going (a second sub-move that makes the
    /// king safe exists). `moves[start..]` holds the safe ones already.
    fn first_sub_moves_saved_later(&self, start: usize, moves: &mut MoveList) {
        let state = &self.state;
        let us = state.turn;
        let not_ours = !state.board.by_color(us);
        let mut candidates = MoveList::new();
        movegen::piece_moves(state, Bitboard::FULL, not_ours, &mut candidates);
        movegen::king_steps(state, not_ours, &mut candidates);
        movegen::pawn_moves(
            state,
            Bitboard::FULL,
            Bitboard::FULL,
            PROMOTIONS,
            &mut candidates,
        );
        ep::captures(state, false, &mut candidates);
        for m in candidates {
            if m.capture() == Some(Role::King) || moves[start..].contains(&m) {
                continue;
            }
            let mut child = self.clone();
            child.play_unchecked(m);
            if child.turn() == us {
                moves.push(m);
            }
        }
    }

    /// Whether the man that made the first sub-move may make `m` (RULES R2,
    /// R3): never a capture, and after a capture never onto the origin or
    /// along the capture line (a knight's capture has no line: the line
    /// table is empty for squares off a common line).
    fn allowed_for_sub_man(sub: SubMove, m: Move) -> bool {
        if m.from() != Some(sub.square) {
            return true;
        }
        if m.is_capture() {
            return false;
        }
        match sub.captured_from {
            Some(origin) => {
                let forbidden =
                    crate::board::attacks::line(origin, sub.square) | Bitboard::from(origin);
                !forbidden.contains(m.to())
            }
            None => true,
        }
    }
}

impl<R: HitAndRunRules> Position for HitAndRunChess<R> {
    const VARIANT: Variant = R::VARIANT;
    const MUST_CAPTURE: bool = false;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = false;
    const SUB_MOVES_PER_TURN: u32 = 2;
    const EXACT_EP: bool = true;

    fn start() -> Self {
        Self::from_state(State::from_checked_setup(&Setup::standard()))
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        validate::from_setup::<R>(setup).map(Self::from_state)
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(false)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let start = moves.len();
        movegen::legal_royal(&self.state, PROMOTIONS, false, moves);
        let sub = self.state.phase.sub;
        // RULES R9: a first sub-move may have taken the king next to the
        // enemy king (the orthodox generator never meets this attack): only
        // a king step away saves it.
        let kings_touch = R::SIMULTANEOUS && kings_touch(&self.state);
        let mut i = start;
        while i < moves.len() {
            let m = moves[i];
            // RULES R5: kings are never captured (after a checking first
            // sub-move the enemy king stands attacked).
            let ok = m.capture() != Some(Role::King)
                && sub.is_none_or(|sub| Self::allowed_for_sub_man(sub, m))
                && (!kings_touch || m.role() == Role::King);
            if ok {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
        ep::captures(&self.state, true, moves);
        if R::SIMULTANEOUS && !self.next_sub_move_ends_turn() {
            self.first_sub_moves_saved_later(start, moves);
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.state.turn;
        let ends_turn = self.next_sub_move_ends_turn();
        self.state.play(m, Captures::Vanish);
        // The shared make-move knows one en-passant square; this variant
        // keeps its own set.
        if let Some(sq) = self.state.ep_square.take() {
            self.state.hash ^= zobrist::en_passant(sq);
        }
        let ep = self.state.phase.ep | ep::skipped_by(m);
        if ends_turn {
            // RULES R7: the opponent's double steps expire; the mover's own
            // become capturable by the new side to move.
            let ep = ep::live(&self.state, ep::owned_by(ep, us), None);
            self.set_phase(TurnPhase {
                ep,
                sub: None,
                first_turn: self.state.fullmoves == 1,
            });
            return;
        }
        self.keep_turn(us);
        let sub = SubMove {
            square: m.to(),
            captured_from: m.is_capture().then(|| m.from()).flatten(),
        };
        let ep = ep::live(&self.state, ep, Some(sub.square));
        self.set_phase(TurnPhase {
            ep,
            sub: Some(sub),
            first_turn: false,
        });
        let mut second = MoveList::new();
        self.legal_moves_into(&mut second);
        if second.is_empty() {
            self.end_turn_early();
        }
    }

    fn is_check(&self) -> bool {
        movegen::checkers(&self.state).any() || (R::SIMULTANEOUS && kings_touch(&self.state))
    }

    fn is_mid_turn(&self) -> bool {
        self.state.phase.sub.is_some()
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
        // RULES R5: judged at the start of a turn (a mid-turn position
        // always has a legal move). Two bare kings can never mate.
        royal_outcome(self, has_legal_moves).or_else(|| {
            (self.state.board.occupied() == self.state.board.by_role(Role::King))
                .then(|| Outcome::draw(OutcomeKind::Draw))
        })
    }
}

/// Whether the two kings stand next to each other (only ever mid-turn, after
/// a first sub-move of the simultaneous rules, RULES R9).
fn kings_touch(state: &State) -> bool {
    let board = &state.board;
    match (board.king_of(Color::White), board.king_of(Color::Black)) {
        (Some(white), Some(black)) => crate::board::attacks::king_attacks(white).contains(black),
        _ => false,
    }
}
