//! The `Position` trait that every variant implements, the raw `Setup`,
//! validation errors and game outcomes.

mod outcome;
mod setup;
pub(crate) mod state;
mod turn;

pub use outcome::{Outcome, OutcomeKind};
pub use setup::Setup;
pub use state::{PositionKey, State};
pub use turn::{SubMove, TurnPhase};

use crate::board::{Board, Color};
use crate::moves::{Move, MoveList};
use crate::variant::Variant;

/// A setup that breaks the rules of the variant; lists every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal position: {}", messages(problems))]
pub struct PositionError {
    /// Every broken rule, in the order found.
    pub problems: Vec<PositionProblem>,
}

impl PositionError {
    /// Whether one of the problems is of `kind`.
    pub fn has(&self, kind: ProblemKind) -> bool {
        self.problems.iter().any(|p| p.kind == kind)
    }

    /// The kinds of the problems, in the order found.
    pub fn kinds(&self) -> impl Iterator<Item = ProblemKind> + '_ {
        self.problems.iter().map(|p| p.kind)
    }
}

fn messages(problems: &[PositionProblem]) -> String {
    let texts: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    texts.join("; ")
}

/// What kind of rule a position breaks, for a caller to match (the
/// message says which rule and where).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// Kings: not exactly one a side where the variant needs it, or a king
    /// held or captured.
    Kings,
    /// A pawn on a back rank.
    Pawns,
    /// A castling right without its king and rook, or in a variant without
    /// castling.
    Castling,
    /// An en-passant square no double step explains, or in a variant
    /// without en passant.
    EnPassant,
    /// The side not to move is in check (or the mover left its king in
    /// check mid-turn).
    Check,
    /// Men in hand, prisons or promoted marks the variant does not have or
    /// cannot hold.
    Holdings,
    /// More men than the game can have, or none at all.
    Material,
    /// A turn in progress that the variant does not have or that cannot
    /// have happened.
    Turn,
}

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionProblem {
    /// Its kind.
    pub kind: ProblemKind,
    /// One sentence naming the rule and where it is broken.
    pub message: String,
}

impl std::fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A problem of `kind` with `message`.
pub(crate) fn problem(kind: ProblemKind, message: impl Into<String>) -> PositionProblem {
    PositionProblem {
        kind,
        message: message.into(),
    }
}

/// A move that is not legal in the position it was tried in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?}")]
pub struct IllegalMove {
    /// The rejected move.
    pub mv: Move,
}

/// A legal position of one variant. The shared generators (perft, the
/// solvers) are generic over this trait, so each variant is compiled on its
/// own and pays nothing for the others.
pub trait Position: Clone + Send + Sync + 'static {
    /// Which variant this is.
    const VARIANT: Variant;
    /// Whether captures are compulsory (Losing chess).
    const MUST_CAPTURE: bool;
    /// Whether the king is royal (check and checkmate exist).
    const ROYAL_KING: bool;
    /// Whether men can be dropped from a holding.
    const HAS_DROPS: bool;
    /// Whether a position can hold men off the board (in hand, in prison,
    /// or counted as captured for promotion, RULES C6): such positions have
    /// no packed form in the solved-position store.
    const HOLDINGS: bool = Self::HAS_DROPS;
    /// Whether the only way a move can win at once is by checkmating the
    /// opponent, so that a move giving no check never wins and a defender
    /// not in check is not lost yet. The mate solver's checks-only passes
    /// and shortcuts rely on it. True for the royal-king variants unless
    /// they win otherwise too (the royal rule sets of Losing chess, RULES A8).
    const ONLY_CHECKMATE_WINS: bool = Self::ROYAL_KING;
    /// The sign between a dropped man and its square in SAN: `@` (`N@f3`,
    /// crazyhouse) unless the variant's own notation says otherwise (Hostage
    /// chess: `N*f3`, RULES H10).
    const DROP_SIGN: char = '@';
    /// How many sub-moves a full turn has at most (Hit-and-Run chess: 2,
    /// RULES R1). [`Position::turn`] stays the same between the sub-moves
    /// of a turn and changes when the turn ends.
    const SUB_MOVES_PER_TURN: u32 = 1;
    /// Whether the en-passant squares of [`Position::to_setup`] are exactly
    /// the position's own and are written to FEN as they are (Hit-and-Run
    /// chess keeps squares that become capturable only next turn, RULES R8).
    /// Otherwise the FEN writer omits an en-passant square no legal move uses.
    const EXACT_EP: bool = false;

    /// The position with the turn passed and nothing moved, for the
    /// engine's null-move pruning (never a legal move, never stored as a
    /// result). `None` where the variant has no such pass: where a side
    /// may have to move into a loss (Losing chess), where a turn has
    /// sub-moves, or where the rules tie state to the last move. Only
    /// asked of a side not in check.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// The variant's starting position.
    fn start() -> Self;

    /// Checks `setup` against the variant's rules.
    fn from_setup(setup: &Setup) -> Result<Self, PositionError>;

    /// The raw data of the position (for FEN output).
    fn to_setup(&self) -> Setup;

    /// The shared state.
    fn state(&self) -> &State;

    /// Appends all legal moves to `moves`.
    fn legal_moves_into(&self, moves: &mut MoveList);

    /// Plays a move that must be legal in this position.
    fn play_unchecked(&mut self, m: Move);

    /// Whether the side to move is in check (always false without a royal king).
    fn is_check(&self) -> bool;

    /// The outcome, given whether the side to move has a legal move (every
    /// variant's rules need no more of the moves). Includes draws by
    /// insufficient material, which the solvers do not use as terminal.
    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome>;

    /// The outcome, given the legal moves of this position (to avoid
    /// generating them twice): [`Position::outcome_with`].
    fn outcome_given(&self, legal: &MoveList) -> Option<Outcome> {
        self.outcome_with(!legal.is_empty())
    }

    /// All legal moves.
    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// How many legal moves the side to move has: `legal_moves().len()`,
    /// counted without listing the moves where the variant can (chess,
    /// crazyhouse and Losing chess count most moves by population counts).
    /// Perft's last ply and the prover's mobility numbers use it.
    fn legal_move_count(&self) -> usize {
        self.legal_moves().len()
    }

    /// For search heuristics only: about how many moves the side to move
    /// has, where that can be had much more cheaply than the legal list
    /// (`None`: generate the legal moves). Says nothing about whether the
    /// game is over; a search that uses it must settle the position by its
    /// legal moves before relying on it (df-pn does, when it expands it).
    fn mobility_hint(&self) -> Option<usize> {
        None
    }

    /// Whether the side to move has a legal move (`!legal_moves().is_empty()`,
    /// cheaper in some variants).
    fn has_legal_moves(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether the game is over although the side to move may still have
    /// legal moves: a Losing-chess side without men has won, a lone king
    /// has won in `losers`. Cheap (no move generation): perft asks it at
    /// every node and counts no moves below a decided game.
    fn decided_before_moving(&self) -> bool {
        false
    }

    /// The outcome if the game is over.
    fn outcome(&self) -> Option<Outcome> {
        self.outcome_given(&self.legal_moves())
    }

    /// The moves that can still be played: the legal moves, or none once
    /// the game is over (an antichess side with no men left has won,
    /// whatever the other side's men could still do).
    fn playable_moves(&self) -> MoveList {
        let moves = self.legal_moves();
        if self.outcome_given(&moves).is_some() {
            MoveList::new()
        } else {
            moves
        }
    }

    /// Whether the side to move is in the middle of its turn (Hit-and-Run
    /// chess between two sub-moves, RULES R8). When a move leaves the same
    /// side to move and the position is not mid-turn, the other side passed
    /// a whole turn (`kamikaze2`, RULES A8).
    fn is_mid_turn(&self) -> bool {
        false
    }

    /// Whether a move by `mover` that reached `child` used up one turn of
    /// `player`: `player` moved and his turn is over, or `player` is not the
    /// mover and had to pass (the mover moves again at a new turn).
    fn uses_turn_of(player: Color, mover: Color, child: &Self) -> bool {
        !child.is_mid_turn() && (mover == player || child.turn() == mover)
    }

    /// The placement of the men.
    fn board(&self) -> &Board {
        &self.state().board
    }

    /// The side to move.
    fn turn(&self) -> Color {
        self.state().turn
    }

    /// The zobrist hash: equal positions (placement, holdings, side to move,
    /// castling rights, capturable en-passant square) have equal hashes.
    fn zobrist(&self) -> u64 {
        self.state().hash
    }

    /// Whether `m` is legal here.
    fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays `m` after checking that it is legal.
    fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove { mv: m })
        }
    }
}
