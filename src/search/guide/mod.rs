//! Knowledge that steers the prover: where it looks first, never what it
//! concludes. Every result still comes from the rules, the tables and the
//! store, and every proof passes the verifier; a guide only changes the
//! order in which the searches work.
//!
//! - **Initial numbers** ([`Numbers`]): mobility alone (the default), or
//!   mobility scaled by the engine's evaluation (evaluation-based numbers,
//!   Winands and Schadd's EF-PN): a fresh position the attacker stands well
//!   in gets a smaller proof number and a larger disproof number.
//! - **Deep numbers** ([`Guide::deep`], after Song, Iida and van den
//!   Herik's deep df-pn): a fresh position's numbers grow the nearer it
//!   lies to the root, so that a line already opened looks cheaper than a
//!   sibling not yet opened and the search goes deeper before it goes
//!   wider.
//! - **Ties** ([`Ties`]): among children with the same number, the first
//!   generated (the default) or the one with the larger other number.
//! - **A book** ([`Book`], `prove --book FILE`): suggested moves, tried
//!   first where they apply. The other moves of a position the book knows
//!   count their number `defer` times on the side the node minimises, so
//!   the search turns to them only once the book's moves have grown that
//!   much harder (a weight, like the virtual loss of threads: proved and
//!   disproved children stay exactly 0 and infinite).
//! - **The engine's choice** ([`Guide::engine_moves`]): where the attacker
//!   moves in the outer tree, a short engine search picks the moves tried
//!   first, the others deferred in the same way.
//! - **Likely values** ([`Likely`], the checkers proof manager): each fresh
//!   node of the outer tree is scored by a short engine search; a node
//!   scored past a threshold counts as a likely win or loss when the outer
//!   tree chooses where to work, and the threshold rises each time the
//!   judgement is refuted by a result.
//! - **Sums** ([`Sums`]): how the numbers of the children a node needs all
//!   of are added up (weak proof numbers by default, or plain sums).
//! - **No-win rules** ([`NoWin`]): heuristic judgements that stop the
//!   attacker's search in a line; such a disproof is never stored, never
//!   final and never reported.

mod book;
mod evaluation;
mod likely;
mod no_win;

pub use book::{Book, BookError};
pub use evaluation::{EVAL_SCALE, EVAL_SPREAD, evaluation_factors, evaluation_factors_with};
pub use likely::{DEFAULT_LIKELY_NODES, Likely, LikelyClass};
pub use no_win::NoWin;

use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::Pn;
use std::sync::Arc;

/// How a fresh position's numbers are set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// 1 for the side to move's own goal, its number of moves for the other.
    #[default]
    Mobility,
    /// Mobility scaled by the evaluation ([`evaluation_factors_with`]).
    Evaluation {
        /// The evaluation (centipawns) three quarters up the step.
        scale: i32,
        /// Each factor lies in `1..=1 + 2 * spread`.
        spread: u32,
    },
}

impl Numbers {
    /// Evaluation-based numbers at the default scale and spread.
    pub const EVALUATION: Numbers = Numbers::Evaluation {
        scale: EVAL_SCALE,
        spread: EVAL_SPREAD,
    };
}

/// Which of several children with the same number is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ties {
    /// The first in generation order.
    #[default]
    First,
    /// The one with the larger other number (the larger disproof number
    /// where the attacker moves), as Watkins' solver sorts them.
    LargerOther,
}

/// How the "sum" side of a node's numbers (the proof number where the
/// defender moves, the disproof number where the attacker moves) adds up
/// its children's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sums {
    /// Weak proof numbers: the largest plus one for each other open child
    /// (bounded where subtrees are shared).
    #[default]
    Weak,
    /// Plain sums (saturating): a shared subtree counts once per path.
    Plain,
    /// Plain sums, except where source-node detection (after Kishimoto
    /// 2010) finds two children whose subtrees meet: those count their
    /// largest number once. In the df-pn leaf searches; the outer tree,
    /// whose transpositions are separate nodes, adds plainly.
    SourceNodes,
    /// Weak numbers until the run has searched `after` nodes since the
    /// root's proof number last reached a new low, then plain sums for
    /// the rest of the run (outer tree and leaf searches): the weak form
    /// where it settles, the plain one where it stalls. The watch is kept
    /// in the outer tree's checkpoint: a resumed search goes on watching
    /// where it stopped.
    Switch {
        /// Nodes without a new lowest root proof number.
        after: u64,
    },
}

/// The default `after` of [`Sums::Switch`] (docs/prover.md, "Sums that
/// switch": no measured line that settles within it with the default
/// leaves changes).
pub const DEFAULT_SWITCH_AFTER: u64 = 1_000_000;

impl Sums {
    /// The sums a run starts with ([`Sums::Switch`] starts weak).
    pub fn at_start(self) -> Sums {
        match self {
            Sums::Switch { .. } => Sums::Weak,
            other => other,
        }
    }
}

/// The default weight of the moves a book does not suggest.
pub const DEFAULT_BOOK_DEFER: u32 = 8;

/// Everything that steers a proof search (see the module's notes).
#[derive(Clone, Debug)]
pub struct Guide {
    /// Initial numbers.
    pub numbers: Numbers,
    /// Tie breaks.
    pub ties: Ties,
    /// Suggested moves.
    pub book: Option<Arc<Book>>,
    /// The weight of the moves the book does not suggest where it
    /// suggests some (at least 1); also of the moves the engine does not
    /// choose where [`Guide::engine_moves`] is set.
    pub book_defer: u32,
    /// Where the attacker moves in the outer tree, the engine's best this
    /// many moves are searched first and the others deferred like a
    /// book's (0: off). A book's suggestions take precedence.
    pub engine_moves: u32,
    /// Nodes of the engine's search that chooses them.
    pub engine_nodes: u64,
    /// Likely values in the outer tree (`None`: off).
    pub likely: Option<Likely>,
    /// How the numbers of the children a node needs all of add up.
    pub sums: Sums,
    /// Heuristic no-win rules that prune the attacker's search.
    pub no_win: NoWin,
    /// Deep numbers: a fresh position `d` plies below the searched root
    /// has its numbers multiplied by `deep - d` while that is more than 1
    /// ([`deep_factor`]; 0: off).
    pub deep: u32,
}

/// The default nodes of the engine search that orders an outer node's moves.
pub const DEFAULT_ENGINE_NODES: u64 = 20_000;

impl Default for Guide {
    fn default() -> Self {
        Guide {
            numbers: Numbers::Mobility,
            ties: Ties::First,
            book: None,
            book_defer: DEFAULT_BOOK_DEFER,
            engine_moves: 0,
            engine_nodes: DEFAULT_ENGINE_NODES,
            likely: None,
            sums: Sums::default(),
            no_win: NoWin::Off,
            deep: 0,
        }
    }
}

impl Guide {
    /// Whether this guide changes nothing of the plain search (switching
    /// sums start weak; a run that switches tells its searches with
    /// `DfPn::set_sums`).
    pub fn is_plain(&self) -> bool {
        self.numbers == Numbers::Mobility
            && self.ties == Ties::First
            && self.book.is_none()
            && self.engine_moves == 0
            && self.likely.is_none()
            && matches!(self.sums, Sums::Weak | Sums::Switch { .. })
            && self.no_win == NoWin::Off
            && self.deep == 0
    }

    /// The numbers of a fresh, unsettled position with `moves` legal moves
    /// (at least 1 counted), `depth` plies below the searched root, for
    /// `attacker`.
    pub fn initial<P: Position>(
        &self,
        pos: &P,
        attacker: Color,
        moves: usize,
        depth: u32,
    ) -> (Pn, Pn) {
        let n = moves.max(1) as u64;
        let (own, other) = match self.numbers {
            Numbers::Mobility => (1, n),
            Numbers::Evaluation { scale, spread } => {
                let (pn_factor, dn_factor) = evaluation_factors_with(pos, attacker, scale, spread);
                if pos.turn() == attacker {
                    (pn_factor, n * dn_factor)
                } else {
                    (dn_factor, n * pn_factor)
                }
            }
        };
        let deep = deep_factor(self.deep, depth);
        let (own, other) = (own * deep, other * deep);
        if pos.turn() == attacker {
            (Pn::new(own), Pn::new(other))
        } else {
            (Pn::new(other), Pn::new(own))
        }
    }

    /// The weights of the moves of a position with hash `key`, in the
    /// order of `moves`: 1 for every move, unless the book suggests some
    /// of them here, when the others weigh `book_defer`. `None` where the
    /// book says nothing (every weight 1).
    pub fn weights(&self, key: u64, moves: impl Iterator<Item = Move>) -> Option<Vec<u32>> {
        let suggested = self.book.as_ref()?.moves(key)?;
        self.preferring(suggested, moves)
    }

    /// The weights of `moves` when `preferred` are searched first: 1 for
    /// those, `book_defer` for the others; `None` if none of `moves` is
    /// preferred.
    pub fn preferring(
        &self,
        preferred: &[Move],
        moves: impl Iterator<Item = Move>,
    ) -> Option<Vec<u32>> {
        let defer = self.book_defer.max(1);
        let weights: Vec<u32> = moves
            .map(|m| if preferred.contains(&m) { 1 } else { defer })
            .collect();
        weights.contains(&1).then_some(weights)
    }
}

/// The factor of deep numbers ([`Guide::deep`]) at `depth` plies below
/// the searched root: `deep - depth`, at least 1 (1 when `deep` is 0).
pub fn deep_factor(deep: u32, depth: u32) -> u64 {
    u64::from(deep.saturating_sub(depth).max(1))
}

/// `number` weighted by `weight` (0 and infinity unchanged).
pub fn weigh(number: Pn, weight: u32) -> Pn {
    if weight <= 1 || number.is_zero() || number.is_infinite() {
        number
    } else {
        Pn::new(u64::from(number.get()) * u64::from(weight))
    }
}

/// A threshold on a weighted number brought back to the unweighted one:
/// the unweighted number reaches `threshold / weight` (rounded up) exactly
/// when the weighted one reaches `threshold`.
pub fn unweigh_threshold(threshold: Pn, weight: u32) -> Pn {
    if weight <= 1 || threshold.is_infinite() {
        threshold
    } else {
        Pn::new(u64::from(threshold.get()).div_ceil(u64::from(weight)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_keep_zero_and_infinity_and_thresholds_round_up() {
        assert_eq!(weigh(Pn::ZERO, 8), Pn::ZERO);
        assert_eq!(weigh(Pn::INFINITE, 8), Pn::INFINITE);
        assert_eq!(weigh(Pn::new(3), 8), Pn::new(24));
        for raw in 1..50u64 {
            for threshold in 1..200u64 {
                let weighted_reached = raw * 8 >= threshold;
                let raw_reached = Pn::new(raw) >= unweigh_threshold(Pn::new(threshold), 8);
                assert_eq!(weighted_reached, raw_reached, "{raw} {threshold}");
            }
        }
    }

    #[test]
    fn deep_numbers_grow_towards_the_root_and_keep_the_mobility_ratio() {
        assert_eq!(deep_factor(0, 0), 1);
        assert_eq!(deep_factor(5, 0), 5);
        assert_eq!(deep_factor(5, 3), 2);
        assert_eq!(deep_factor(5, 4), 1);
        assert_eq!(deep_factor(5, 40), 1);
        let pos = crate::variants::Antichess::start();
        let moves = pos.legal_move_count();
        let plain = Guide::default();
        let deep = Guide {
            deep: 5,
            ..Guide::default()
        };
        assert!(plain.is_plain() && !deep.is_plain());
        // White to move and attacking: 1 to prove, the moves to disprove.
        let expected = |f: u32| (Pn::new(u64::from(f)), Pn::new(u64::from(f) * moves as u64));
        assert_eq!(plain.initial(&pos, Color::White, moves, 1), expected(1));
        assert_eq!(deep.initial(&pos, Color::White, moves, 1), expected(4));
        assert_eq!(deep.initial(&pos, Color::White, moves, 9), expected(1));
        // The defender to move: the roles swap, the factor is the same.
        let (pn, dn) = deep.initial(&pos, Color::Black, moves, 2);
        assert_eq!((dn, pn), expected(3));
    }
}
