//! The independent proof verifier: the only code allowed to call a result
//! "proved".
//!
//! It walks the proof from the root with the move generator alone. Where
//! the winner moves, the stored move must exist and be legal; where the
//! loser moves, every legal move must be followed; every line must end in a
//! position the rules score as a win for the winner; and no line may repeat
//! a position (positions are compared in full, never by hash). It shares no
//! code with the search.

use crate::board::Color;
use crate::moves::{self, Move};
use crate::notation::{fen, uci};
use crate::position::{Position, PositionKey};
use hashbrown::HashMap;

/// What the verifier found in a sound proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifiedProof {
    /// Distinct positions in the proof graph (terminal ones included).
    pub positions: u64,
    /// Positions where the winner moves (the stored moves used).
    pub winner_moves: u64,
    /// Longest line from the root to a terminal position, in plies.
    pub depth: u32,
}

/// Why a proof is not sound: the first failing position and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("proof fails at {fen} (after {line}): {reason}")]
pub struct VerifyError {
    /// FEN of the failing position.
    pub fen: String,
    /// The moves from the root to it, in UCI.
    pub line: String,
    /// What is wrong there.
    pub reason: String,
}

enum Mark {
    /// On the current line.
    Open,
    /// Fully checked, with the longest line below it.
    Done(u32),
}

/// Checks that `winner` wins from `root` by the moves `lookup` returns (by
/// zobrist hash, as encoded by [`moves::encode`]).
pub fn verify<P: Position>(
    root: &P,
    winner: Color,
    lookup: &dyn Fn(u64) -> Result<Option<u32>, String>,
) -> Result<VerifiedProof, VerifyError> {
    walk(root, winner, lookup, false).map(|(verified, _)| verified)
}

/// As [`verify`], and also returns the zobrist hash and stored move code of
/// every position of the proof where the winner moves (each once): the
/// entries the verifier checked, and no others.
pub fn verify_collecting<P: Position>(
    root: &P,
    winner: Color,
    lookup: &dyn Fn(u64) -> Result<Option<u32>, String>,
) -> Result<(VerifiedProof, Vec<(u64, u32)>), VerifyError> {
    walk(root, winner, lookup, true)
}

fn walk<P: Position>(
    root: &P,
    winner: Color,
    lookup: &dyn Fn(u64) -> Result<Option<u32>, String>,
    collect: bool,
) -> Result<(VerifiedProof, Vec<(u64, u32)>), VerifyError> {
    let mut walk = Walk {
        winner,
        lookup,
        table_leaf: None,
        marks: HashMap::new(),
        line: Vec::new(),
        winner_moves: 0,
        winner_hashes: collect.then(Vec::new),
    };
    let depth = walk.visit(root)?;
    let verified = VerifiedProof {
        positions: walk.marks.len() as u64,
        winner_moves: walk.winner_moves,
        depth,
    };
    Ok((verified, walk.winner_hashes.unwrap_or_default()))
}

/// Checks many proofs of one winner that share positions (a
/// solved-position store's), each position once. Besides positions the
/// rules score, a line may end in one that `table_leaf` says the winner
/// wins (the endgame tables: they are checked by `ransom tb verify`).
pub struct SharedVerifier<'a, P> {
    walk: Walk<'a, P>,
}

impl<'a, P: Position> SharedVerifier<'a, P> {
    /// A verifier for `winner`'s proofs, with stored moves from `lookup`.
    pub fn new(
        winner: Color,
        lookup: &'a dyn Fn(u64) -> Result<Option<u32>, String>,
        table_leaf: Option<&'a dyn Fn(&P) -> bool>,
    ) -> Self {
        SharedVerifier {
            walk: Walk {
                winner,
                lookup,
                table_leaf,
                marks: HashMap::new(),
                line: Vec::new(),
                winner_moves: 0,
                winner_hashes: None,
            },
        }
    }

    /// Checks that the winner wins from `pos`; returns the longest line.
    pub fn check(&mut self, pos: &P) -> Result<u32, VerifyError> {
        self.walk.line.clear();
        self.walk.visit(pos)
    }

    /// Distinct positions checked so far.
    pub fn positions(&self) -> u64 {
        self.walk.marks.len() as u64
    }
}

struct Walk<'a, P> {
    winner: Color,
    lookup: &'a dyn Fn(u64) -> Result<Option<u32>, String>,
    /// Positions whose win the endgame tables vouch for.
    table_leaf: Option<&'a dyn Fn(&P) -> bool>,
    marks: HashMap<PositionKey, Mark>,
    line: Vec<Move>,
    winner_moves: u64,
    /// With [`verify_collecting`]: the winner's positions and moves checked.
    winner_hashes: Option<Vec<(u64, u32)>>,
}

impl<P: Position> Walk<'_, P> {
    fn fail(&self, pos: &P, reason: String) -> VerifyError {
        let line = if self.line.is_empty() {
            "the root".to_string()
        } else {
            self.line
                .iter()
                .map(|&m| uci::write(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        VerifyError {
            fen: fen::write(pos),
            line,
            reason,
        }
    }

    fn visit(&mut self, pos: &P) -> Result<u32, VerifyError> {
        let key = pos.state().key();
        match self.marks.get(&key) {
            Some(Mark::Done(depth)) => return Ok(*depth),
            Some(Mark::Open) => {
                return Err(self.fail(
                    pos,
                    "the line repeats a position (a repetition is never a win)".into(),
                ));
            }
            None => {}
        }
        let legal = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&legal) {
            if outcome.winner == Some(self.winner) {
                self.marks.insert(key, Mark::Done(0));
                return Ok(0);
            }
            return Err(self.fail(
                pos,
                format!(
                    "the line ends in {outcome}, not a win for {}",
                    self.winner.name()
                ),
            ));
        }
        if self.table_leaf.is_some_and(|leaf| leaf(pos)) {
            self.marks.insert(key, Mark::Done(0));
            return Ok(0);
        }
        self.marks.insert(key.clone(), Mark::Open);
        let to_follow: Vec<Move> = if pos.turn() == self.winner {
            let code = (self.lookup)(pos.zobrist())
                .map_err(|e| self.fail(pos, format!("cannot read the proof: {e}")))?
                .ok_or_else(|| {
                    self.fail(
                        pos,
                        format!(
                            "no move stored for this position ({} to move)",
                            self.winner.name()
                        ),
                    )
                })?;
            let mv = moves::decode(&legal, code).ok_or_else(|| {
                self.fail(
                    pos,
                    format!("the stored move (code {code:#x}) is not legal here"),
                )
            })?;
            self.winner_moves += 1;
            if let Some(hashes) = &mut self.winner_hashes {
                hashes.push((pos.zobrist(), code));
            }
            vec![mv]
        } else {
            legal.to_vec()
        };
        let mut deepest = 0;
        for mv in to_follow {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.line.push(mv);
            let depth = self.visit(&child)?;
            self.line.pop();
            deepest = deepest.max(depth + 1);
        }
        self.marks.insert(key, Mark::Done(deepest));
        Ok(deepest)
    }
}
