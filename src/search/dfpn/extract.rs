//! Reading proofs off the transposition table: as winning moves for a
//! proof file, or as records for the solved-position store.

use super::{DfPn, Settled};
use crate::moves::Move;
use crate::position::Position;
use crate::search::assemble::assemble;
use crate::search::oracle::{attacker_wins, expand_win};
use crate::solved::{Record, Solved, packed};
use hashbrown::{HashMap, HashSet};

/// Store records read off a search: every position of the proofs of its
/// settled positions, children before parents.
#[derive(Debug, Default)]
pub struct ProofRecords {
    /// The records, in the order they may be stored.
    pub records: Vec<Record>,
    /// Proved positions whose proof could not be read off the table (a
    /// pruned table, or a line that runs back into itself); not stored.
    pub unreadable: u64,
}

/// What a proof is read for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Winning moves for a self-contained proof: positions the oracle or
    /// the store settles are expanded into full subtrees.
    Proof,
    /// Store records: positions the oracle or the store settles are leaves.
    Records,
}

/// Positions where reading off a proof failed whatever the path to them,
/// and how often a line ran into the current path (such failures depend on
/// the path and are not remembered).
#[derive(Default)]
struct Failures {
    known: HashSet<u64>,
    path_hits: u64,
}

struct Reader<'s, 'p, P: Position> {
    search: &'s DfPn<'p, P>,
    purpose: Purpose,
    path: HashSet<u64>,
    done: HashSet<u64>,
    failed: Failures,
    proof: HashMap<u64, Move>,
    records: Vec<Record>,
}

impl<'p, P: Position> DfPn<'p, P> {
    /// The winning moves of a proof found by [`DfPn::search`]: for every
    /// position of a proof tree where the attacker moves, one move whose
    /// subtree is proved, chosen so that no line repeats a position. `None`
    /// if no such tree can be read off the table (the caller then reports
    /// "unknown").
    pub fn extract_proof(&self, root: &P) -> Option<HashMap<u64, Move>> {
        let mut reader = Reader::new(self, Purpose::Proof);
        reader.read(root).then_some(reader.proof)
    }

    /// Store records for `settled` positions of this search (from
    /// [`DfPn::take_settled`]): the proof of each proved one, children
    /// first, and a "no forced win" record for each disproved one.
    /// Positions the store already knows are left out.
    pub fn proof_records(&self, settled: &[Settled<P>]) -> ProofRecords {
        let mut reader = Reader::new(self, Purpose::Records);
        let mut unreadable = 0;
        for s in settled {
            let hash = s.pos.zobrist();
            let known = self.store.and_then(|st| st.get(hash));
            if s.proved {
                let stored = known
                    .and_then(|k| k.attacker_wins(self.attacker, s.pos.turn()))
                    .unwrap_or(false);
                if !stored && !reader.read(&s.pos) {
                    unreadable += 1;
                }
            } else if !known.is_some_and(|k| k.no_win(self.attacker)) {
                reader.records.push(Record {
                    key: hash,
                    value: Solved::no_win_for(self.attacker, u64::from(s.work)),
                    position: packed::pack(&s.pos),
                });
            }
        }
        ProofRecords {
            records: reader.records,
            unreadable,
        }
    }
}

impl<'s, 'p, P: Position> Reader<'s, 'p, P> {
    fn new(search: &'s DfPn<'p, P>, purpose: Purpose) -> Self {
        Reader {
            search,
            purpose,
            path: HashSet::new(),
            done: HashSet::new(),
            failed: Failures::default(),
            proof: HashMap::new(),
            records: Vec::new(),
        }
    }

    /// The nodes the table says were spent below `hash` (1 if unknown).
    fn work(&self, hash: u64) -> u64 {
        self.search
            .table
            .get(&hash)
            .map_or(1, |e| u64::from(e.work))
    }

    /// Whether a proof of `pos` for the attacker can be read; on success
    /// its moves (or records) have been added.
    fn read(&mut self, pos: &P) -> bool {
        let search = self.search;
        let attacker = search.attacker;
        let hash = pos.zobrist();
        if self.done.contains(&hash) {
            return true;
        }
        if self.path.contains(&hash) {
            self.failed.path_hits += 1;
            return false;
        }
        if self.failed.known.contains(&hash) {
            return false;
        }
        let path_hits_before = self.failed.path_hits;
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return outcome.winner == Some(attacker);
        }
        if let Some(oracle) = search.oracle
            && let Some(win) = attacker_wins(oracle, pos, attacker)
        {
            return match self.purpose {
                Purpose::Records => win,
                Purpose::Proof => {
                    win && expand_win(oracle, pos, attacker, &mut self.proof, &mut self.done)
                }
            };
        }
        if let Some(store) = search.store
            && let Some(win) = store
                .get(hash)
                .and_then(|s| s.attacker_wins(attacker, pos.turn()))
        {
            return match self.purpose {
                Purpose::Records => win,
                Purpose::Proof => {
                    win && assemble(
                        pos,
                        attacker,
                        store,
                        search.oracle,
                        &mut self.proof,
                        &mut self.done,
                    )
                }
            };
        }
        // Records keep the packed position where it has one (an in-memory
        // store keeps the others for its run).
        let position = match self.purpose {
            Purpose::Records => Some(packed::pack(pos)),
            Purpose::Proof => None,
        };
        self.path.insert(hash);
        let ok = if pos.turn() == attacker {
            let mut candidates: Vec<(u32, Move, P)> = moves
                .iter()
                .filter_map(|&mv| {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    let rank = match search.terminal(&child, child.has_legal_moves()) {
                        Some(true) => 0,
                        Some(false) => return None,
                        None => match search.table.get(&child.zobrist()) {
                            Some(e) if e.pn.is_zero() => 1 + e.work.min(u32::MAX - 1),
                            _ => return None,
                        },
                    };
                    Some((rank, mv, child))
                })
                .collect();
            candidates.sort_by_key(|c| c.0);
            let mut found = None;
            for (_, mv, child) in candidates {
                if self.read(&child) {
                    found = Some(mv);
                    break;
                }
            }
            if let Some(mv) = found {
                self.proof.insert(hash, mv);
                if let Some(position) = position {
                    self.records.push(Record {
                        key: hash,
                        value: Solved::win(mv, self.work(hash)),
                        position,
                    });
                }
            }
            found.is_some()
        } else {
            let all = moves.iter().all(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                self.read(&child)
            });
            if all && let Some(position) = position {
                self.records.push(Record {
                    key: hash,
                    value: Solved::loss(self.work(hash)),
                    position,
                });
            }
            all
        };
        self.path.remove(&hash);
        if ok {
            self.done.insert(hash);
        } else if self.failed.path_hits == path_hits_before {
            // A failure met because a line came back to the current path
            // may succeed from another path: only path-free failures are kept.
            self.failed.known.insert(hash);
        }
        ok
    }
}
