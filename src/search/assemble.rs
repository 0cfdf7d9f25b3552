//! A proof read out of the solved-position store: from a position the store
//! says is won, the stored winning moves where the winner moves and every
//! move where the loser moves, down to positions the rules score, with the
//! endgame tables' quickest wins below positions they cover. The result is
//! a self-contained proof that the verifier checks like any other.

use super::oracle::{Oracle, attacker_wins, expand_win};
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::solved::SolvedLookup;
use hashbrown::{HashMap, HashSet};

/// Adds to `proof` the winning moves of `winner`'s stored proof of `pos`;
/// `false` if the store (with the oracle) holds no complete,
/// repetition-free proof of it. `done` holds positions already added.
pub fn assemble<P: Position>(
    pos: &P,
    winner: Color,
    store: &dyn SolvedLookup,
    oracle: Option<&dyn Oracle<P>>,
    proof: &mut HashMap<u64, Move>,
    done: &mut HashSet<u64>,
) -> bool {
    assemble_at_most(pos, winner, store, oracle, proof, done, usize::MAX)
}

/// [`assemble`], giving up (`false`) once `proof` holds more than `limit`
/// winning moves: the caller tells a proof too large from a missing one by
/// `proof.len() > limit`.
pub fn assemble_at_most<P: Position>(
    pos: &P,
    winner: Color,
    store: &dyn SolvedLookup,
    oracle: Option<&dyn Oracle<P>>,
    proof: &mut HashMap<u64, Move>,
    done: &mut HashSet<u64>,
    limit: usize,
) -> bool {
    let mut walk = Assembly {
        winner,
        store,
        oracle,
        proof,
        done,
        path: HashSet::new(),
        limit,
    };
    walk.visit(pos)
}

struct Assembly<'a, P> {
    winner: Color,
    store: &'a dyn SolvedLookup,
    oracle: Option<&'a dyn Oracle<P>>,
    proof: &'a mut HashMap<u64, Move>,
    done: &'a mut HashSet<u64>,
    path: HashSet<u64>,
    limit: usize,
}

impl<P: Position> Assembly<'_, P> {
    fn visit(&mut self, pos: &P) -> bool {
        if self.proof.len() > self.limit {
            return false;
        }
        let hash = pos.zobrist();
        if self.done.contains(&hash) {
            return true;
        }
        if self.path.contains(&hash) {
            return false;
        }
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return outcome.winner == Some(self.winner);
        }
        let packed = crate::solved::packed::pack(pos);
        let record = self
            .store
            .solved(hash, packed.as_ref())
            .filter(|r| r.is_consistent_for(pos.turn()));
        let winner_moves = pos.turn() == self.winner;
        let stored = record.is_some_and(|r| {
            if winner_moves {
                r.is_win()
            } else {
                r.is_loss()
            }
        });
        if !stored {
            return match self.oracle {
                Some(oracle) if attacker_wins(oracle, pos, self.winner) == Some(true) => {
                    expand_win(oracle, pos, self.winner, self.proof, self.done)
                }
                _ => false,
            };
        }
        self.path.insert(hash);
        let ok = if winner_moves {
            match record.and_then(|r| r.winning_move(&moves)) {
                Some(mv) => {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    let ok = self.visit(&child);
                    if ok {
                        self.proof.insert(hash, mv);
                    }
                    ok
                }
                None => false,
            }
        } else {
            moves.iter().all(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                self.visit(&child)
            })
        };
        self.path.remove(&hash);
        if ok {
            self.done.insert(hash);
        }
        ok
    }
}
