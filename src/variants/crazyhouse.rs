//! Crazyhouse (RULES Z): captured men change colour and go to the
//! capturer's pocket (promoted men as pawns); a turn may drop a pocket man.

use super::chess::royal_outcome;
use crate::board::{Bitboard, Role};
use crate::movegen::{self, PROMOTIONS};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;

/// A position of crazyhouse (lichess rules).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Crazyhouse {
    state: State,
}

impl Position for Crazyhouse {
    const VARIANT: Variant = Variant::Crazyhouse;
    const MUST_CAPTURE: bool = false;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = true;

    fn start() -> Self {
        Crazyhouse {
            state: State::from_checked_setup(&Setup::standard()),
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        // `~` marks are crazyhouse's own (checked below).
        let unmarked = Setup {
            promoted: Bitboard::EMPTY,
            ..setup.clone()
        };
        state::check_common(&unmarked, &mut problems);
        state::check_royal(setup, &mut problems);
        if setup
            .prisoners
            .is_some_and(|p| p.white.total() + p.black.total() > 0)
        {
            problems.push(problem(
                ProblemKind::Holdings,
                "crazyhouse has no prisons (remove the part after '#')",
            ));
        }
        if let Some(pockets) = &setup.pockets {
            if pockets.white[Role::King] + pockets.black[Role::King] > 0 {
                problems.push(problem(ProblemKind::Kings, "a king cannot be in a pocket"));
            }
            let total =
                setup.board.occupied().count() + pockets.white.total() + pockets.black.total();
            if total > 64 {
                problems.push(problem(
                    ProblemKind::Material,
                    format!("{total} men on the board and in pockets (at most 64)"),
                ));
            }
        }
        let bad_promoted =
            setup.promoted & (setup.board.by_role(Role::Pawn) | setup.board.by_role(Role::King));
        if bad_promoted.any() {
            problems.push(problem(
                ProblemKind::Holdings,
                "only knights, bishops, rooks and queens can be marked promoted (~)",
            ));
        }
        state::finish(problems)?;
        let mut state = State::from_checked_setup(setup);
        movegen::forget_unusable_ep(&mut state);
        Ok(Crazyhouse { state })
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(true)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        movegen::legal_royal(&self.state, PROMOTIONS, true, moves);
    }

    fn legal_move_count(&self) -> usize {
        movegen::royal_count(&self.state, PROMOTIONS, true)
    }

    fn has_legal_moves(&self) -> bool {
        movegen::has_legal_royal(&self.state, PROMOTIONS, true)
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::ToPocket);
        movegen::forget_unusable_ep(&mut self.state);
    }

    fn null_move(&self) -> Option<Self> {
        let mut passed = self.clone();
        passed.state.pass_turn();
        Some(passed)
    }

    fn is_check(&self) -> bool {
        movegen::checkers(&self.state).any()
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
        royal_outcome(self, has_legal_moves).or_else(|| {
            // Only a lone minor piece in the whole game can never mate: no
            // man ever leaves a crazyhouse game.
            let board = self.board();
            let pockets = &self.state.pockets;
            let in_pockets = pockets.white.total() + pockets.black.total();
            let heavy = board.by_role(Role::Pawn) | board.rooks_and_queens();
            let heavy_in_pockets = [Role::Pawn, Role::Rook, Role::Queen]
                .into_iter()
                .any(|role| pockets.white[role] + pockets.black[role] > 0);
            let dead = board.occupied().count() + in_pockets <= 3
                && self.state.promoted == Bitboard::EMPTY
                && heavy.is_empty()
                && !heavy_in_pockets;
            dead.then(|| Outcome::draw(OutcomeKind::Draw))
        })
    }
}
