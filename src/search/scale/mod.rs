//! `prove` at scale: a two-level proof-number search (an outer best-first
//! tree whose leaves are expanded by bounded df-pn searches) on every core,
//! over a persistent solved-position store, checkpointed so that a stopped
//! search resumes where it was.
//!
//! See [`tree`] for the outer tree's rules, [`checkpoint`] for its file,
//! and [`crate::solved`] for the store. As everywhere, nothing is reported
//! as won until the proof, read out of the store
//! ([`crate::search::assemble`]), has passed the independent verifier.

pub mod checkpoint;
mod driver;
pub mod frontier;
pub mod open;
mod plan;
mod sums_switch;
pub mod tree;

pub use driver::FrontierLeaf;
pub use plan::{PlanReport, plan_at_scale};

use super::budget::Budget;
use super::dfpn::SearchResult;
use super::oracle::Oracle;
use super::proof::Proof;
use super::prover::{ProveReport, Verdict};
use super::{Pn, assemble::assemble};
use crate::board::Color;
use crate::position::Position;
use crate::search::guide::Guide;
use crate::solved::SolvedStore;
use crate::store::StoreError;
use driver::Phase;
use hashbrown::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a two-level search runs.
#[derive(Clone, Debug)]
pub struct ScaleConfig {
    /// Limits of the whole run (the table memory is shared by the threads).
    pub budget: Budget,
    /// Nodes of one leaf search.
    pub leaf_nodes: u64,
    /// Threads searching leaves at once.
    pub threads: usize,
    /// Positions settled with fewer nodes below them are not stored on
    /// their own (they still are as part of a stored proof).
    pub store_min_work: u32,
    /// How often the outer tree is checkpointed.
    pub checkpoint_every: Duration,
    /// Try only this side's win (a batch job's); by default the side to
    /// move's, then the other's.
    pub attacker: Option<Color>,
    /// What steers the searches (initial numbers, ties, a book); never
    /// what they conclude.
    pub guide: Guide,
}

impl Default for ScaleConfig {
    fn default() -> Self {
        ScaleConfig {
            budget: Budget::default(),
            leaf_nodes: DEFAULT_LEAF_NODES,
            threads: 1,
            store_min_work: DEFAULT_STORE_MIN_WORK,
            checkpoint_every: Duration::from_secs(60),
            attacker: None,
            guide: Guide::default(),
        }
    }
}

/// The default nodes of one leaf search (docs/prover.md says how it was chosen).
pub const DEFAULT_LEAF_NODES: u64 = 100_000;

/// The default least work for a settled position to be stored on its own.
pub const DEFAULT_STORE_MIN_WORK: u32 = 64;

/// A progress report of a running two-level search.
#[derive(Clone, Copy, Debug)]
pub struct ScaleStatus {
    /// The side whose win is being proved.
    pub attacker: Color,
    /// Time since this run started.
    pub elapsed: Duration,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Nodes searched by earlier runs of the same search (from the checkpoint).
    pub earlier_nodes: u64,
    /// The root's proof number.
    pub root_pn: Pn,
    /// The root's disproof number.
    pub root_dn: Pn,
    /// Nodes of the outer tree.
    pub outer_nodes: usize,
    /// Leaf searches so far (earlier runs included).
    pub leaf_searches: u64,
    /// Positions the store held when it was opened.
    pub store_began_with: usize,
    /// Positions the store holds now.
    pub store_positions: usize,
    /// Records this run added to the store.
    pub store_added: u64,
    /// Bytes of the store on disk.
    pub store_bytes: u64,
    /// Whether this search resumed from a checkpoint.
    pub resumed: bool,
}

/// What a two-level search found, beside the usual report.
#[derive(Debug)]
pub struct ScaleReport<P: Position> {
    /// Verdict, proof and verification, as [`crate::search::prove`] gives them.
    pub report: ProveReport<P>,
    /// Nodes searched by earlier runs that this one resumed.
    pub earlier_nodes: u64,
    /// Leaf searches, earlier runs included.
    pub leaf_searches: u64,
    /// Nodes of the outer tree at the end.
    pub outer_nodes: usize,
    /// The root's numbers at the end of the last phase.
    pub root_numbers: (Pn, Pn),
    /// Whether a checkpoint was resumed.
    pub resumed: bool,
    /// The checkpoint to resume from, if the search is unfinished.
    pub checkpoint: Option<PathBuf>,
}

/// Proves who wins from `root` with the two-level search, over `store`.
/// Errors are the store's (a damaged checkpoint, a full disk); the search
/// itself ends with a verdict, "unknown" at a budget.
pub fn prove_at_scale<P: Position>(
    root: &P,
    store: &SolvedStore,
    oracle: Option<&dyn Oracle<P>>,
    config: &ScaleConfig,
    progress: &mut dyn FnMut(&ScaleStatus),
) -> Result<ScaleReport<P>, StoreError> {
    let started = Instant::now();
    let mut scale = ScaleReport {
        report: ProveReport::unknown(),
        earlier_nodes: 0,
        leaf_searches: 0,
        outer_nodes: 0,
        root_numbers: (Pn::ONE, Pn::ONE),
        resumed: false,
        checkpoint: None,
    };
    let us = root.turn();
    for (attacker, verdict) in [(us, Verdict::Win), (!us, Verdict::Loss)] {
        if config.attacker.is_some_and(|only| only != attacker) {
            continue;
        }
        let known = store
            .get(root.zobrist())
            .and_then(|s| s.attacker_wins(attacker, us));
        let result = if known == Some(true) {
            scale.report.notes.push("the root is in the store".into());
            scale.root_numbers = (Pn::ZERO, Pn::INFINITE);
            SearchResult::Proved
        } else {
            let phase = Phase {
                root,
                attacker,
                store,
                oracle,
                config,
                started,
                spent: scale.report.nodes,
                split: None,
            };
            let end = phase.run(progress)?;
            scale.report.nodes += end.nodes;
            scale.report.oracle_hits += end.oracle_hits;
            scale.earlier_nodes += end.earlier_nodes;
            scale.leaf_searches += end.leaf_searches;
            scale.outer_nodes = end.outer_nodes;
            scale.root_numbers = end.root_numbers;
            scale.resumed |= end.resumed;
            scale.checkpoint = end.checkpoint;
            scale.report.notes.extend(end.notes);
            end.result
        };
        match result {
            SearchResult::Unknown => {
                scale.report.exhausted = true;
                scale.report.notes.push(format!(
                    "stopped while trying to prove a {} win",
                    attacker.name()
                ));
                break;
            }
            SearchResult::Disproved => {
                scale
                    .report
                    .notes
                    .push(format!("{} has no forced win", attacker.name()));
            }
            SearchResult::Proved => {
                let mut moves = HashMap::new();
                let mut done = HashSet::new();
                if !assemble(root, attacker, store, oracle, &mut moves, &mut done) {
                    scale.report.notes.push(
                        "the root was proved but its proof could not be read out of the store"
                            .into(),
                    );
                    break;
                }
                let proof = Proof {
                    root: root.clone(),
                    winner: attacker,
                    moves,
                };
                match proof.verify() {
                    Ok(verified) => {
                        scale.report.verdict = verdict;
                        scale.report.verified = Some(verified);
                        if attacker == us {
                            scale.report.best = proof.moves.get(&root.zobrist()).copied();
                        }
                        scale.report.proof = Some(proof);
                    }
                    Err(e) => scale
                        .report
                        .notes
                        .push(format!("the verifier rejected the proof: {e}")),
                }
                break;
            }
        }
    }
    scale.report.elapsed = started.elapsed();
    Ok(scale)
}
