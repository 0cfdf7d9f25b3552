//! Losing chess / antichess (RULES A) and its rule sets.

use crate::board::{Bitboard, Color, Role};
use crate::movegen::{self, LOSING_PROMOTIONS};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::variants::Variant;
use std::marker::PhantomData;

/// How a stalemated player (no legal move, men remaining) fares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// The stalemated player wins (international rules, RULES A5).
    Wins,
    /// The player with fewer men wins; equal numbers draw (FICS `suicide`, RULES A7).
    FewerMenWins,
}

/// A rule set of Losing chess.
pub trait LosingRules:
    Clone + std::fmt::Debug + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The variant this rule set is.
    const VARIANT: Variant;
    /// The stalemate rule.
    const STALEMATE: StalemateRule;
}

/// The international rules (lichess "antichess").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct International;

impl LosingRules for International {
    const VARIANT: Variant = Variant::Antichess;
    const STALEMATE: StalemateRule = StalemateRule::Wins;
}

/// The FICS rules ("suicide"): stalemate is decided by counting men.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fics;

impl LosingRules for Fics {
    const VARIANT: Variant = Variant::Suicide;
    const STALEMATE: StalemateRule = StalemateRule::FewerMenWins;
}

/// A position of Losing chess under rule set `R`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Losing<R: LosingRules> {
    state: State,
    rules: PhantomData<R>,
}

/// Losing chess, international rules.
pub type Antichess = Losing<International>;
/// Losing chess, FICS rules.
pub type Suicide = Losing<Fics>;

impl<R: LosingRules> Position for Losing<R> {
    const VARIANT: Variant = R::VARIANT;
    const MUST_CAPTURE: bool = true;
    const ROYAL_KING: bool = false;
    const HAS_DROPS: bool = false;

    fn start() -> Self {
        let mut setup = Setup::standard();
        setup.castling = Bitboard::EMPTY;
        Losing {
            state: State::from_checked_setup(&setup),
            rules: PhantomData,
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        state::check_common(setup, &mut problems);
        if setup.castling.any() {
            problems.push(
                "Losing chess has no castling (RULES A3): the castling field must be '-'".into(),
            );
        }
        if setup.has_holdings() {
            problems.push("Losing chess has no holdings (remove the [...] part)".into());
        }
        state::finish(problems)?;
        let mut plain = setup.clone();
        plain.pockets = None;
        plain.prisoners = None;
        plain.promoted = Bitboard::EMPTY;
        Ok(Losing {
            state: State::from_checked_setup(&plain),
            rules: PhantomData,
        })
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(false)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let start = moves.len();
        let their = self.state.board.by_color(!self.state.turn);
        // RULES A1: if any capture (en passant included) exists, only captures.
        movegen::piece_moves(&self.state, Bitboard::FULL, their, moves);
        movegen::king_steps(&self.state, their, moves);
        movegen::pawn_moves(
            &self.state,
            their,
            Bitboard::EMPTY,
            LOSING_PROMOTIONS,
            moves,
        );
        movegen::en_passant_moves(&self.state, moves);
        if moves.len() == start {
            let empty = !self.state.board.occupied();
            movegen::piece_moves(&self.state, Bitboard::FULL, empty, moves);
            movegen::king_steps(&self.state, empty, moves);
            movegen::pawn_moves(
                &self.state,
                Bitboard::EMPTY,
                empty,
                LOSING_PROMOTIONS,
                moves,
            );
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::Vanish);
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_given(&self, legal: &MoveList) -> Option<Outcome> {
        let us = self.state.turn;
        let board = &self.state.board;
        if board.by_color(us).is_empty() {
            // RULES A5: a player with no men left wins.
            return Some(Outcome::win(OutcomeKind::VariantWin, us));
        }
        if board.by_color(!us).is_empty() {
            // Also when it is not his turn (a position given by FEN).
            return Some(Outcome::win(OutcomeKind::VariantWin, !us));
        }
        if legal.is_empty() {
            return Some(stalemate_outcome::<R>(board, us));
        }
        bishops_cannot_meet(board).then(|| Outcome::draw(OutcomeKind::Draw))
    }
}

/// RULES A5 / A7: the result when the side to move (with men) has no move.
fn stalemate_outcome<R: LosingRules>(board: &crate::board::Board, us: Color) -> Outcome {
    match R::STALEMATE {
        StalemateRule::Wins => Outcome::win(OutcomeKind::Stalemate, us),
        StalemateRule::FewerMenWins => {
            let ours = board.by_color(us).count();
            let theirs = board.by_color(!us).count();
            match ours.cmp(&theirs) {
                std::cmp::Ordering::Less => Outcome::win(OutcomeKind::Stalemate, us),
                std::cmp::Ordering::Greater => Outcome::win(OutcomeKind::Stalemate, !us),
                std::cmp::Ordering::Equal => Outcome::draw(OutcomeKind::Stalemate),
            }
        }
    }
}

/// RULES A6: only bishops remain, each side's all on one square colour and
/// the two sides on different colours, so no capture can ever happen.
fn bishops_cannot_meet(board: &crate::board::Board) -> bool {
    if board.occupied() != board.by_role(Role::Bishop) {
        return false;
    }
    let white = board.by_color(Color::White);
    let black = board.by_color(Color::Black);
    let dark = Bitboard::DARK_SQUARES;
    if white.is_empty() || black.is_empty() {
        return false;
    }
    (white.without(dark).is_empty() && (black & dark).is_empty())
        || ((white & dark).is_empty() && black.without(dark).is_empty())
}
