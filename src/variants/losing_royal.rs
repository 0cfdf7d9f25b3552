//! The rule sets of Losing chess with a royal king (RULES A8):
//! `losing-royal`, `losing-royal-mated`, `losers` and `kamikaze`.
//!
//! One generator serves them all: the orthodox legal moves of a royal king
//! (no move leaves one's own king attacked), then the duty to capture
//! (RULES A1) among them, which either yields to check (the duty holds only
//! when not in check) or holds in check too (`losers`). The rule sets differ
//! only in the constants of [`RoyalLosingRules`].
//!
//! In `kamikaze` the king stops being royal when it is its side's last man
//! (it may then move into attack and be captured, and its capture ends the
//! game: the side without men wins); such a lone king moves as in plain
//! Losing chess. A lone king attacks the squares around it like any man, so
//! it can give check.
//!
//! Rule questions settled here are listed in docs/rules.md, section A8.

use crate::board::{Bitboard, Color, Role};
use crate::movegen::{self, PROMOTIONS, QUEEN_ONLY};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;
use crate::variants::losing::{StalemateRule, losing_moves, stalemate_outcome};
use std::marker::PhantomData;

/// How the game is won by losing men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenRule {
    /// A player reduced to a lone king wins (`losing-royal`,
    /// `losing-royal-mated`, `losers`).
    LoneKingWins,
    /// The king is lost last: a lone king is no longer royal, and a player
    /// with no men left wins (`kamikaze`).
    KingLast,
}

/// A rule set of Losing chess with a royal king.
pub trait RoyalLosingRules:
    Clone + std::fmt::Debug + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The variant this rule set is.
    const VARIANT: Variant;
    /// Whether castling exists (as in orthodox chess).
    const CASTLING: bool;
    /// Whether the duty to capture holds in check too (`losers`: a capture
    /// that escapes check is compulsory), or getting out of check comes
    /// first and any evasion is allowed.
    const CAPTURE_IN_CHECK: bool;
    /// What a pawn may promote to.
    const PROMOTIONS: &'static [Role];
    /// Whether checkmate is a win for the checkmated side.
    const MATED_SIDE_WINS: bool;
    /// The result of a stalemate.
    const STALEMATE: StalemateRule;
    /// How losing men wins.
    const MEN: MenRule;
}

/// `losing-royal` ("variant 3"): win by a lone king or by checkmating.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoyalKing;

impl RoyalLosingRules for RoyalKing {
    const VARIANT: Variant = Variant::LosingRoyal;
    const CASTLING: bool = false;
    const CAPTURE_IN_CHECK: bool = false;
    const PROMOTIONS: &'static [Role] = PROMOTIONS;
    const MATED_SIDE_WINS: bool = false;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const MEN: MenRule = MenRule::LoneKingWins;
}

/// `losing-royal-mated` ("variant 4"): win by a lone king or by being checkmated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoyalKingMated;

impl RoyalLosingRules for RoyalKingMated {
    const VARIANT: Variant = Variant::LosingRoyalMated;
    const CASTLING: bool = false;
    const CAPTURE_IN_CHECK: bool = false;
    const PROMOTIONS: &'static [Role] = PROMOTIONS;
    const MATED_SIDE_WINS: bool = true;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const MEN: MenRule = MenRule::LoneKingWins;
}

/// `losers` (Internet Chess Club): castling, captures compulsory among the
/// legal moves even in check; a lone king, being checkmated or being
/// stalemated wins.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IccLosers;

impl RoyalLosingRules for IccLosers {
    const VARIANT: Variant = Variant::Losers;
    const CASTLING: bool = true;
    const CAPTURE_IN_CHECK: bool = true;
    const PROMOTIONS: &'static [Role] = PROMOTIONS;
    const MATED_SIDE_WINS: bool = true;
    const STALEMATE: StalemateRule = StalemateRule::Wins;
    const MEN: MenRule = MenRule::LoneKingWins;
}

/// `kamikaze`: the king is lost last, promotion to a queen only; win by
/// losing all men or by checkmating.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KingLast;

impl RoyalLosingRules for KingLast {
    const VARIANT: Variant = Variant::Kamikaze;
    const CASTLING: bool = false;
    const CAPTURE_IN_CHECK: bool = false;
    const PROMOTIONS: &'static [Role] = QUEEN_ONLY;
    const MATED_SIDE_WINS: bool = false;
    const STALEMATE: StalemateRule = StalemateRule::Draw;
    const MEN: MenRule = MenRule::KingLast;
}

/// A position of Losing chess with a royal king under rule set `R`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoyalLosing<R: RoyalLosingRules> {
    state: State,
    rules: PhantomData<R>,
}

/// `losing-royal`.
pub type LosingRoyal = RoyalLosing<RoyalKing>;
/// `losing-royal-mated`.
pub type LosingRoyalMated = RoyalLosing<RoyalKingMated>;
/// `losers`.
pub type Losers = RoyalLosing<IccLosers>;
/// `kamikaze`.
pub type Kamikaze = RoyalLosing<KingLast>;

impl<R: RoyalLosingRules> RoyalLosing<R> {
    /// Whether the king of `color` is royal: always, except a `kamikaze`
    /// king that is its side's last man.
    fn is_royal(&self, color: Color) -> bool {
        R::MEN == MenRule::LoneKingWins || self.state.board.by_color(color).count() > 1
    }

    /// Whether the king of `color` is royal and attacked.
    fn king_attacked(state: &State, color: Color, royal: bool) -> bool {
        let board = &state.board;
        royal
            && board
                .king_of(color)
                .is_some_and(|king| board.is_attacked_by(king, !color, board.occupied()))
    }

    /// Whether `m` leaves the mover's own king unattacked (the slow test,
    /// for the one case the orthodox generator does not foresee: a lone
    /// `kamikaze` king standing next to the mover's king).
    fn keeps_king_safe(&self, m: Move) -> bool {
        let mut state = self.state.clone();
        let us = state.turn;
        state.play(m, Captures::Vanish);
        !Self::king_attacked(&state, us, true)
    }
}

impl<R: RoyalLosingRules> RoyalLosing<R> {
    /// Whether a side has been reduced to what ends the game: a lone king
    /// (it wins), or no men at all where the king goes last.
    fn reduced(&self) -> impl Fn(Color) -> bool + '_ {
        let board = &self.state.board;
        move |color: Color| match R::MEN {
            MenRule::LoneKingWins => {
                let ours = board.by_color(color);
                ours.count() == 1 && ours == ours & board.by_role(Role::King)
            }
            MenRule::KingLast => board.by_color(color).is_empty(),
        }
    }
}

impl<R: RoyalLosingRules> Position for RoyalLosing<R> {
    const VARIANT: Variant = R::VARIANT;
    const MUST_CAPTURE: bool = true;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = false;
    const ONLY_CHECKMATE_WINS: bool = false;

    fn start() -> Self {
        let mut setup = Setup::standard();
        if !R::CASTLING {
            setup.castling = Bitboard::EMPTY;
        }
        RoyalLosing {
            state: State::from_checked_setup(&setup),
            rules: PhantomData,
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        state::check_common(setup, &mut problems);
        let name = R::VARIANT.name();
        for color in Color::ALL {
            let men = setup.board.by_color(color).count();
            let kings = setup.board.count(Role::King.of(color));
            let king_last = R::MEN == MenRule::KingLast && men == 0;
            if kings != 1 && !king_last {
                problems.push(problem(
                    ProblemKind::Kings,
                    format!(
                        "{} has {kings} kings (needs exactly one{})",
                        color.name(),
                        if R::MEN == MenRule::KingLast {
                            ", or no men at all"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        if setup.castling.any() && !R::CASTLING {
            problems.push(problem(
                ProblemKind::Castling,
                format!("{name} has no castling (RULES A3): the castling field must be '-'"),
            ));
        }
        if setup.has_holdings() {
            problems.push(problem(
                ProblemKind::Holdings,
                format!("{name} has no holdings (remove the [...] part)"),
            ));
        }
        state::finish(problems)?;
        let mut plain = setup.clone();
        plain.pockets = None;
        plain.prisoners = None;
        plain.promoted = Bitboard::EMPTY;
        let mut pos = RoyalLosing::<R> {
            state: State::from_checked_setup(&plain),
            rules: PhantomData,
        };
        let them = !setup.turn;
        if Self::king_attacked(&pos.state, them, pos.is_royal(them)) {
            return Err(PositionError {
                problems: vec![problem(
                    ProblemKind::Check,
                    format!("the side not to move ({}) is in check", them.name()),
                )],
            });
        }
        movegen::forget_unusable_ep(&mut pos.state);
        Ok(pos)
    }

    fn to_setup(&self) -> Setup {
        self.state.to_setup(false)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let us = self.state.turn;
        if !self.is_royal(us) {
            // A lone `kamikaze` king: an ordinary man (RULES A8).
            losing_moves(&self.state, R::PROMOTIONS, moves);
            return;
        }
        let start = moves.len();
        movegen::legal_royal(&self.state, R::PROMOTIONS, false, moves);
        let them = !us;
        let royal_enemy = self.is_royal(them);
        let lone_enemy_king = !royal_enemy
            && self.state.board.king_of(them).is_some_and(|king| {
                self.state
                    .board
                    .king_of(us)
                    .is_some_and(|ours| crate::board::attacks::king_attacks(ours).contains(king))
            });
        // (A lone enemy king next to ours gives check too: `is_check`
        // counts every attacker, kings included.)
        let in_check = self.is_check();
        let mut i = start;
        while i < moves.len() {
            let m = moves[i];
            let ok = (m.capture() != Some(Role::King) || !royal_enemy)
                && (!lone_enemy_king || self.keeps_king_safe(m));
            if ok {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
        // RULES A1 among the legal moves; in check only if the rule set says so.
        let must_capture = !in_check || R::CAPTURE_IN_CHECK;
        if must_capture && moves[start..].iter().any(|m| m.is_capture()) {
            let mut i = start;
            while i < moves.len() {
                if moves[i].is_capture() {
                    i += 1;
                } else {
                    moves.swap_remove(i);
                }
            }
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::Vanish);
        movegen::forget_unusable_ep(&mut self.state);
    }

    fn is_check(&self) -> bool {
        let us = self.state.turn;
        Self::king_attacked(&self.state, us, self.is_royal(us))
    }

    fn decided_before_moving(&self) -> bool {
        let reduced = self.reduced();
        reduced(self.state.turn) || reduced(!self.state.turn)
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
        let us = self.state.turn;
        let board = &self.state.board;
        let reduced = self.reduced();
        match (reduced(us), reduced(!us)) {
            (true, true) => return Some(Outcome::draw(OutcomeKind::Draw)),
            (true, false) => return Some(Outcome::win(OutcomeKind::VariantWin, us)),
            (false, true) => return Some(Outcome::win(OutcomeKind::VariantWin, !us)),
            (false, false) => {}
        }
        if has_legal_moves {
            return None;
        }
        if self.is_check() {
            let winner = if R::MATED_SIDE_WINS { us } else { !us };
            Some(Outcome::win(OutcomeKind::Checkmate, winner))
        } else {
            Some(stalemate_outcome(R::STALEMATE, board, us))
        }
    }
}
