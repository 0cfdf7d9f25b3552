//! The independent mate verifier: a mate is reported only after this has
//! walked its whole solution graph with the move generator alone.
//!
//! Where the attacker moves, the solution's move must exist, be legal and
//! carry a label no larger than the moves the attacker has left; where the
//! defender moves, every legal move is followed; every line must end in a
//! position the rules score as won by the attacker, within the labels (so
//! labels strictly fall and no line can repeat a position). Positions are
//! remembered by their full content, never by hash alone.

use super::solution::MateSolution;
use crate::board::Color;
use crate::notation::{fen, uci};
use crate::position::{Position, PositionKey};
use hashbrown::HashMap;

/// What the verifier measured on a sound solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifiedMate {
    /// The longest line, in attacker moves (turns in Hit-and-Run): the mate
    /// length the solution proves.
    pub length: u16,
    /// Distinct positions in the solution graph.
    pub positions: u64,
}

/// Why a solution is not sound: the first failing position and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("mate solution fails at {fen} (after {line}): {reason}")]
pub struct MateVerifyError {
    /// FEN of the failing position.
    pub fen: String,
    /// The moves from the root to it, in UCI.
    pub line: String,
    /// What is wrong there.
    pub reason: String,
}

/// Checks that `attacker` mates within `bound` of his moves from `root`
/// by following `solution`.
pub fn verify_mate<P: Position>(
    root: &P,
    attacker: Color,
    solution: &MateSolution,
    bound: u16,
) -> Result<VerifiedMate, MateVerifyError> {
    let mut walk = Walk {
        attacker,
        solution,
        verified: HashMap::new(),
        line: Vec::new(),
    };
    let length = walk.check(root, bound)?;
    Ok(VerifiedMate {
        length,
        positions: walk.verified.len() as u64,
    })
}

struct Walk<'s> {
    attacker: Color,
    solution: &'s MateSolution,
    /// For each position checked: the smallest bound it was checked with
    /// and the mate length found then.
    verified: HashMap<(PositionKey, u64), (u16, u16)>,
    line: Vec<String>,
}

impl Walk<'_> {
    fn fail<P: Position>(&self, pos: &P, reason: String) -> MateVerifyError {
        MateVerifyError {
            fen: fen::write::<P>(pos),
            line: if self.line.is_empty() {
                "the root".to_string()
            } else {
                self.line.join(" ")
            },
            reason,
        }
    }

    /// The longest mate from `pos` in attacker moves, checked within `bound`.
    fn check<P: Position>(&mut self, pos: &P, bound: u16) -> Result<u16, MateVerifyError> {
        let id = (pos.state().key(), pos.zobrist());
        if let Some(&(checked, length)) = self.verified.get(&id)
            && checked <= bound
        {
            return Ok(length);
        }
        let legal = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&legal) {
            return if outcome.winner == Some(self.attacker) {
                self.verified.insert(id, (0, 0));
                Ok(0)
            } else {
                Err(self.fail(pos, format!("the game ends without a mate: {outcome}")))
            };
        }
        let length = if pos.turn() == self.attacker {
            let Some((mv, label)) = self.solution.get(pos.zobrist()) else {
                return Err(self.fail(pos, "no attacker move stored".to_string()));
            };
            if label == 0 || label > bound {
                return Err(self.fail(
                    pos,
                    format!("label {label} does not fit the {bound} attacker move(s) left"),
                ));
            }
            if !legal.contains(&mv) {
                return Err(self.fail(pos, format!("stored move {} is illegal", uci::write(mv))));
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let passes = P::uses_turn_of(self.attacker, self.attacker, &child);
            self.line.push(uci::write(mv));
            let below = self.check(&child, label - u16::from(passes))?;
            self.line.pop();
            below + u16::from(passes)
        } else {
            let mut longest = 0;
            for &mv in &legal {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                // A turn the attacker has to pass (RULES A8 `kamikaze2`)
                // is one of his moves.
                let passed = P::uses_turn_of(self.attacker, pos.turn(), &child);
                self.line.push(uci::write(mv));
                let below = if passed {
                    if bound == 0 {
                        return Err(self.fail(
                            &child,
                            "the attacker must pass with no move left".to_string(),
                        ));
                    }
                    self.check(&child, bound - 1)? + 1
                } else {
                    self.check(&child, bound)?
                };
                longest = longest.max(below);
                self.line.pop();
            }
            longest
        };
        self.verified.insert(id, (bound, length));
        Ok(length)
    }
}
