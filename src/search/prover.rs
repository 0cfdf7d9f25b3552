//! `prove`: who wins from a position, with a verified proof.
//!
//! First the search tries to prove that the side to move wins; if that is
//! disproved, it tries to prove that the other side wins. A result is only
//! returned as won or lost after the proof has been extracted and passed
//! the independent verifier; anything else is "unknown".

use super::budget::{Budget, Progress};
use super::dfpn::{DfPn, SearchResult};
use super::oracle::Oracle;
use super::proof::Proof;
use super::verify::VerifiedProof;
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use std::time::Duration;

/// The verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins (proved and verified).
    Win,
    /// The side to move loses (proved and verified).
    Loss,
    /// Not established within the budget (or not a forced win for anyone).
    Unknown,
}

impl Verdict {
    /// `"win"`, `"loss"` or `"unknown"`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Unknown => "unknown",
        }
    }
}

/// Everything `prove` learned.
#[derive(Debug)]
pub struct ProveReport<P: Position> {
    /// The verdict for the side to move at the root.
    pub verdict: Verdict,
    /// The verified proof, if any.
    pub proof: Option<Proof<P>>,
    /// What the verifier measured.
    pub verified: Option<VerifiedProof>,
    /// The winner's first move, if the side to move wins.
    pub best: Option<Move>,
    /// Nodes expanded (both searches).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Notes for the user (why a result is unknown, for instance).
    pub notes: Vec<String>,
    /// Positions whose value the oracle (tablebases) settled.
    pub oracle_hits: u64,
    /// Whether the search stopped at its budget (an unknown verdict
    /// otherwise means neither side was found to have a forced win).
    pub exhausted: bool,
}

impl<P: Position> ProveReport<P> {
    /// A report with nothing found yet: unknown, no nodes, no notes.
    pub fn unknown() -> Self {
        ProveReport {
            verdict: Verdict::Unknown,
            proof: None,
            verified: None,
            best: None,
            nodes: 0,
            elapsed: Duration::ZERO,
            notes: Vec::new(),
            oracle_hits: 0,
            exhausted: false,
        }
    }
}

/// Proves who wins from `root` within `budget`.
pub fn prove<P: Position>(
    root: &P,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> ProveReport<P> {
    prove_with_oracle(root, budget, None, progress)
}

/// [`prove`], taking the values of the positions `oracle` covers (endgame
/// tablebases) as settled. The proof still ends only in positions the
/// rules score: below an oracle position it follows the oracle's quickest
/// win, and the verifier checks those lines like the rest.
pub fn prove_with_oracle<P: Position>(
    root: &P,
    budget: &Budget,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
) -> ProveReport<P> {
    let mut report = ProveReport::unknown();
    let start = std::time::Instant::now();
    let us = root.turn();
    for (attacker, verdict) in [(us, Verdict::Win), (!us, Verdict::Loss)] {
        let remaining = Budget {
            max_nodes: budget.max_nodes.saturating_sub(report.nodes),
            max_time: budget.max_time.map(|t| t.saturating_sub(start.elapsed())),
            ..*budget
        };
        if remaining.max_nodes == 0 || remaining.max_time.is_some_and(|t| t.is_zero()) {
            report.notes.push("budget exhausted".into());
            report.exhausted = true;
            break;
        }
        let mut search = DfPn::<P>::new(attacker, &remaining)
            .with_progress(progress)
            .with_oracle(oracle);
        let result = search.search(root);
        report.nodes += search.nodes();
        report.oracle_hits += search.oracle_hits();
        match result {
            SearchResult::Unknown => {
                report.notes.push(format!(
                    "budget exhausted while trying to prove a {} win",
                    attacker.name()
                ));
                report.exhausted = true;
                break;
            }
            SearchResult::Disproved => {
                report
                    .notes
                    .push(format!("{} has no forced win", attacker.name()));
                continue;
            }
            SearchResult::Proved => {
                if let Some(proof) = checked_proof(&search, root, attacker, &mut report.notes) {
                    report.verdict = verdict;
                    report.verified = proof.verify().ok();
                    if attacker == us {
                        report.best = proof.moves.get(&root.zobrist()).copied();
                    }
                    report.proof = Some(proof);
                }
                break;
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}

fn checked_proof<P: Position>(
    search: &DfPn<'_, P>,
    root: &P,
    winner: Color,
    notes: &mut Vec<String>,
) -> Option<Proof<P>> {
    let Some(moves) = search.extract_proof(root) else {
        notes.push("the search proved the root but no repetition-free proof tree could be read off its table".into());
        return None;
    };
    let proof = Proof {
        root: root.clone(),
        winner,
        moves,
    };
    match proof.verify() {
        Ok(_) => Some(proof),
        Err(e) => {
            notes.push(format!("the verifier rejected the proof: {e}"));
            None
        }
    }
}
