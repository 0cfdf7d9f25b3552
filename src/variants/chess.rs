//! Standard chess (RULES S).

use crate::board::{Bitboard, Color, Role};
use crate::movegen::{self, PROMOTIONS};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;

/// A position of standard chess (FIDE laws).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    state: State,
}

impl Position for Chess {
    const VARIANT: Variant = Variant::Chess;
    const MUST_CAPTURE: bool = false;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = false;

    fn start() -> Self {
        Chess {
            state: State::from_checked_setup(&Setup::standard()),
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        state::check_common(setup, &mut problems);
        state::check_royal(setup, &mut problems);
        if setup.has_holdings() {
            problems.push(problem(
                ProblemKind::Holdings,
                "standard chess has no holdings (remove the [...] part)",
            ));
        }
        state::finish(problems)?;
        let mut plain = setup.clone();
        plain.pockets = None;
        plain.prisoners = None;
        plain.promoted = Bitboard::EMPTY;
        let mut state = State::from_checked_setup(&plain);
        movegen::forget_unusable_ep(&mut state);
        Ok(Chess { state })
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(false)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        movegen::legal_royal(&self.state, PROMOTIONS, false, moves);
    }

    fn legal_move_count(&self) -> usize {
        movegen::royal_count(&self.state, PROMOTIONS, false)
    }

    fn has_legal_moves(&self) -> bool {
        movegen::has_legal_royal(&self.state, PROMOTIONS, false)
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::Vanish);
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
            let board = self.board();
            let insufficient = Color::ALL
                .into_iter()
                .all(|color| has_insufficient_material(board, color));
            insufficient.then(|| Outcome::draw(OutcomeKind::Draw))
        })
    }
}

/// Checkmate or stalemate, for the royal-king variants.
pub(crate) fn royal_outcome<P: Position>(pos: &P, has_legal_moves: bool) -> Option<Outcome> {
    if has_legal_moves {
        None
    } else if pos.is_check() {
        Some(Outcome::win(OutcomeKind::Checkmate, !pos.turn()))
    } else {
        Some(Outcome::draw(OutcomeKind::Stalemate))
    }
}

/// Whether `color` can never checkmate, whatever the play (the usual
/// approximation of a dead position: lone king, king and one knight against
/// nothing that could block, bishops all on one square colour).
fn has_insufficient_material(board: &crate::board::Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let heavy = board.by_role(Role::Pawn) | board.rooks_and_queens();
    if ours.intersects(heavy) {
        return false;
    }
    if ours.intersects(board.by_role(Role::Knight)) {
        let theirs = board.by_color(!color);
        let blockers = theirs.without(board.by_role(Role::King) | board.by_role(Role::Queen));
        return ours.count() <= 2 && blockers.is_empty();
    }
    if ours.intersects(board.by_role(Role::Bishop)) {
        let bishops = board.by_role(Role::Bishop);
        let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
            || bishops.without(Bitboard::DARK_SQUARES).is_empty();
        return one_colour
            && board.by_role(Role::Knight).is_empty()
            && board.by_role(Role::Pawn).is_empty();
    }
    true
}
