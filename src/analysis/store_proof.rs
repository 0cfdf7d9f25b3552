//! A proof read out of the solved-position stores a [`Knowledge`] reads:
//! from a stored win or loss, the stored winning moves and every defence,
//! down to the ends of the games (the endgame tables' quickest wins below
//! the positions they cover), checked by the verifier before it is handed
//! out (`ransom store export`).

use super::knowledge::Knowledge;
use crate::board::Color;
use crate::notation::fen;
use crate::position::Position;
use crate::search::assemble::assemble_at_most;
use crate::search::proof::Proof;
use crate::search::verify::VerifiedProof;
use crate::solved::SolvedLookup;
use crate::variants::Variant;
use hashbrown::{HashMap, HashSet};
use std::any::Any;

/// Why no proof could be read out of the stores.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreProofError {
    /// The stores hold no result for the position.
    #[error("the store holds no win or loss for {fen}")]
    NotSettled {
        /// The position.
        fen: String,
    },
    /// The stored moves do not reach the ends of the games.
    #[error("the store's proof of {fen} is incomplete (a stored move is missing below it)")]
    Incomplete {
        /// The position.
        fen: String,
    },
    /// The proof holds more winning moves than allowed (reading it out
    /// stops there).
    #[error(
        "the proof holds more than the limit of {limit} positions where the winner moves: choose a line deeper in it, or raise the limit"
    )]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// The verifier rejected it (a damaged store: `ransom store verify`).
    #[error("the verifier rejected the store's proof: {0}")]
    Rejected(String),
}

/// A verified proof read out of the stores.
#[derive(Clone, Debug)]
pub struct ProofFromStore<P: Position> {
    /// The proof.
    pub proof: Proof<P>,
    /// What the verifier counted.
    pub verified: VerifiedProof,
}

/// The stores of one rule set, looked up by hash and packed position.
struct ByHash<'a> {
    knowledge: &'a Knowledge,
    variant: Variant,
}

impl SolvedLookup for ByHash<'_> {
    fn solved(
        &self,
        hash: u64,
        packed: Option<&crate::solved::packed::Packed>,
    ) -> Option<crate::solved::Solved> {
        self.knowledge
            .stores()?
            .lookup_checked(self.variant, hash, packed)
    }
}

/// The proof the stores hold for `pos` (a stored win of the side to
/// move, or a stored loss), with at most `limit` positions where the
/// winner moves, checked by the verifier.
pub fn proof_from_stores<P: Position + Any>(
    knowledge: &Knowledge,
    pos: &P,
    limit: usize,
) -> Result<ProofFromStore<P>, StoreProofError> {
    let stored = knowledge.stores().and_then(|s| s.lookup(pos));
    let winner: Color = match stored {
        Some(s) if s.is_win() => pos.turn(),
        Some(s) if s.is_loss() => !pos.turn(),
        _ => {
            return Err(StoreProofError::NotSettled {
                fen: fen::write(pos),
            });
        }
    };
    let lookup = ByHash {
        knowledge,
        variant: P::VARIANT,
    };
    let mut moves = HashMap::new();
    let mut done = HashSet::new();
    let complete = assemble_at_most(
        pos,
        winner,
        &lookup,
        knowledge.oracle::<P>(),
        &mut moves,
        &mut done,
        limit,
    );
    if moves.len() > limit {
        // Stopped as soon as the proof outgrew the limit.
        return Err(StoreProofError::TooLarge { limit });
    }
    if !complete {
        return Err(StoreProofError::Incomplete {
            fen: fen::write(pos),
        });
    }
    let proof = Proof {
        root: pos.clone(),
        winner,
        moves,
    };
    let verified = proof
        .verify()
        .map_err(|e| StoreProofError::Rejected(e.to_string()))?;
    Ok(ProofFromStore { proof, verified })
}
