//! Losing chess / antichess (RULES A) and its rule sets.

use crate::board::{Bitboard, Color, Role, zobrist};
use crate::movegen::{self, LOSING_PROMOTIONS, QUEEN_ONLY};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;
use std::marker::PhantomData;

/// How a stalemated player (no legal move, men remaining) fares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// The stalemated player wins (international rules, RULES A5).
    Wins,
    /// The player with fewer men wins; equal numbers draw (FICS `suicide`, RULES A7).
    FewerMenWins,
    /// A draw (RULES A8: `losing-qpromo` and the royal-king rule sets).
    Draw,
}

/// A rule set of Losing chess.
pub trait LosingRules:
    Clone + std::fmt::Debug + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The variant this rule set is.
    const VARIANT: Variant;
    /// The stalemate rule.
    const STALEMATE: StalemateRule;
    /// What a pawn may promote to (RULES A4; A8 `losing-qpromo`: a queen only).
    const PROMOTIONS: &'static [Role] = LOSING_PROMOTIONS;
    /// Whether castling exists (RULES A3: no; A8 `kamikaze2`: yes, with the
    /// usual emptiness conditions and no attack conditions, as nothing is
    /// royal).
    const CASTLING: bool = false;
    /// The side that moves first (RULES A8 `kamikaze2`: Black).
    const FIRST: Color = Color::White;
    /// RULES A8 `kamikaze2`: a player whose only man is a pawn that cannot
    /// move passes, and the opponent moves again (see [`Losing`]).
    const LONE_PAWN_PASSES: bool = false;
}

/// Losing chess with promotion to a queen only; stalemate is a draw
/// (RULES A8 `losing-qpromo`, "variant 2").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueenPromotion;

impl LosingRules for QueenPromotion {
    const VARIANT: Variant = Variant::LosingQpromo;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const PROMOTIONS: &'static [Role] = QUEEN_ONLY;
}

/// Kamikaze, second form (RULES A8 `kamikaze2`, "variant 6"): Black moves
/// first, castling is allowed, and a lone blocked pawn passes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KamikazeBlackFirst;

impl LosingRules for KamikazeBlackFirst {
    const VARIANT: Variant = Variant::Kamikaze2;
    const STALEMATE: StalemateRule = StalemateRule::Wins;
    const CASTLING: bool = true;
    const FIRST: Color = Color::Black;
    const LONE_PAWN_PASSES: bool = true;
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
///
/// With [`LosingRules::LONE_PAWN_PASSES`] the pass is played at once: a
/// position never has the passing player to move. After a move that leaves
/// the opponent with a lone pawn and no legal move, the mover keeps the
/// turn (the hash and the FEN say so); a FEN with the passing player to
/// move is read the same way. If both players would pass, the game is
/// drawn (docs/rules.md, A8).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Losing<R: LosingRules> {
    state: State,
    rules: PhantomData<R>,
}

/// Losing chess, international rules.
pub type Antichess = Losing<International>;
/// Losing chess, FICS rules.
pub type Suicide = Losing<Fics>;
/// Losing chess, promotion to a queen only (`losing-qpromo`).
pub type LosingQpromo = Losing<QueenPromotion>;
/// Kamikaze, Black first (`kamikaze2`).
pub type Kamikaze2 = Losing<KamikazeBlackFirst>;

impl<R: LosingRules> Losing<R> {
    /// Whether the side to move must pass (RULES A8 `kamikaze2`): its only
    /// man is a pawn and it has no legal move.
    fn must_pass(&self) -> bool {
        let ours = self.state.board.by_color(self.state.turn);
        R::LONE_PAWN_PASSES
            && ours.count() == 1
            && ours == ours & self.state.board.by_role(Role::Pawn)
            && self.legal_moves().is_empty()
    }

    /// Hands the turn to the other side without a move. The en-passant
    /// square goes: the passing player could not use it, and the other
    /// side's own double step is not for it to take.
    fn pass(&mut self) {
        if let Some(ep) = self.state.ep_square.take() {
            self.state.hash ^= zobrist::en_passant(ep);
        }
        // A passed Black turn ends the move number, as a Black move would.
        if self.state.turn == Color::Black {
            self.state.fullmoves = self.state.fullmoves.saturating_add(1);
        }
        self.state.turn = !self.state.turn;
        self.state.hash ^= zobrist::black_to_move();
    }

    /// Plays the passes of RULES A8 `kamikaze2`: if the side to move must
    /// pass and the opponent need not, the opponent moves.
    fn settle_passes(&mut self) {
        if self.must_pass() {
            let fullmoves = self.state.fullmoves;
            self.pass();
            if self.must_pass() {
                // Both blocked: the position stays as it was, a dead draw
                // (its move number too, so that its FEN reads back as itself).
                self.pass();
                self.state.fullmoves = fullmoves;
            }
        }
    }
}

impl<R: LosingRules> Position for Losing<R> {
    const VARIANT: Variant = R::VARIANT;
    const MUST_CAPTURE: bool = true;
    const ROYAL_KING: bool = false;
    const HAS_DROPS: bool = false;

    fn start() -> Self {
        let mut setup = Setup::standard();
        if !R::CASTLING {
            setup.castling = Bitboard::EMPTY;
        }
        setup.turn = R::FIRST;
        Losing {
            state: State::from_checked_setup(&setup),
            rules: PhantomData,
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        state::check_common(setup, &mut problems);
        if setup.castling.any() && !R::CASTLING {
            problems.push(problem(
                ProblemKind::Castling,
                "Losing chess has no castling (RULES A3): the castling field must be '-'",
            ));
        }
        if setup.has_holdings() {
            problems.push(problem(
                ProblemKind::Holdings,
                "Losing chess has no holdings (remove the [...] part)",
            ));
        }
        if setup.board.occupied().is_empty() {
            // RULES A5: the game ends when the first side has no men left,
            // so both sides can never be without men.
            problems.push(problem(
                ProblemKind::Material,
                "the board is empty: at least one side must have men",
            ));
        }
        state::finish(problems)?;
        let mut plain = setup.clone();
        plain.pockets = None;
        plain.prisoners = None;
        plain.promoted = Bitboard::EMPTY;
        let mut pos = Losing {
            state: State::from_checked_setup(&plain),
            rules: PhantomData,
        };
        pos.settle_passes();
        Ok(pos)
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(false)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        losing_moves(&self.state, R::PROMOTIONS, moves);
        if R::CASTLING && !moves.iter().any(|m| m.is_capture()) {
            let home = Bitboard::rank(self.state.turn.fold(0, 7));
            let kings = self.state.board.by_piece(Role::King.of(self.state.turn)) & home;
            if let Some(king) = kings.single_square() {
                movegen::castling_moves(&self.state, king, false, moves);
            }
        }
    }

    fn legal_move_count(&self) -> usize {
        if R::CASTLING {
            // Castling depends on whether any capture exists: listed.
            self.legal_moves().len()
        } else {
            movegen::losing_count(&self.state, R::PROMOTIONS)
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::Vanish);
        if R::CASTLING && m.capture() == Some(Role::King) {
            // A side whose castling king is captured can no longer castle.
            let them = self.state.turn;
            let home = Bitboard::rank(them.fold(0, 7));
            if !self
                .state
                .board
                .by_piece(Role::King.of(them))
                .intersects(home)
            {
                self.state.drop_castling(home);
            }
        }
        if R::LONE_PAWN_PASSES {
            self.settle_passes();
        }
    }

    fn is_check(&self) -> bool {
        false
    }

    fn decided_before_moving(&self) -> bool {
        // RULES A5: the side not to move has no men left (a position given
        // by FEN); the side to move without men has no moves anyway.
        self.state.board.by_color(!self.state.turn).is_empty()
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
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
        if !has_legal_moves {
            if R::LONE_PAWN_PASSES && self.must_pass() {
                // Both sides would pass (see `settle_passes`).
                return Some(Outcome::draw(OutcomeKind::Stalemate));
            }
            return Some(stalemate_outcome(R::STALEMATE, board, us));
        }
        bishops_cannot_meet(board).then(|| Outcome::draw(OutcomeKind::Draw))
    }
}

/// Appends the moves of Losing chess without castling (RULES A1, A2): if
/// any capture (en passant included) exists, only the captures.
pub(crate) fn losing_moves(state: &State, promotions: &[Role], moves: &mut MoveList) {
    let start = moves.len();
    let their = state.board.by_color(!state.turn);
    movegen::piece_moves(state, Bitboard::FULL, their, moves);
    movegen::king_steps(state, their, moves);
    movegen::pawn_moves(state, their, Bitboard::EMPTY, promotions, moves);
    movegen::en_passant_moves(state, moves);
    if moves.len() == start {
        let empty = !state.board.occupied();
        movegen::piece_moves(state, Bitboard::FULL, empty, moves);
        movegen::king_steps(state, empty, moves);
        movegen::pawn_moves(state, Bitboard::EMPTY, empty, promotions, moves);
    }
}

/// RULES A5 / A7 / A8: the result when the side to move (with men) has no move.
pub(crate) fn stalemate_outcome(
    rule: StalemateRule,
    board: &crate::board::Board,
    us: Color,
) -> Outcome {
    match rule {
        StalemateRule::Draw => Outcome::draw(OutcomeKind::Stalemate),
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
