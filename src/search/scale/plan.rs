//! Splitting a search into batch jobs: the outer tree is grown until it
//! offers enough distinct open leaves worth searching, and those leaves
//! become the jobs (`prove --plan JOBS --split N`).

use super::driver::{FrontierLeaf, Phase};
use super::{ScaleConfig, ScaleStatus};
use crate::board::Color;
use crate::position::Position;
use crate::search::Pn;
use crate::search::dfpn::SearchResult;
use crate::search::oracle::Oracle;
use crate::solved::SolvedStore;
use crate::store::StoreError;
use std::path::PathBuf;
use std::time::Instant;

/// What planning found.
#[derive(Debug)]
pub struct PlanReport<P> {
    /// Settled while planning (then there are no jobs): `Some(true)` the
    /// attacker wins, `Some(false)` it has no forced win; `None` open.
    pub settled: Option<bool>,
    /// The leaves chosen for jobs, most-proving first.
    pub leaves: Vec<FrontierLeaf<P>>,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Nodes of earlier runs of the same search.
    pub earlier_nodes: u64,
    /// Nodes of the outer tree.
    pub outer_nodes: usize,
    /// The root's numbers.
    pub root_numbers: (Pn, Pn),
    /// Whether a checkpoint was resumed.
    pub resumed: bool,
    /// The outer tree's checkpoint (which `prove` continues after the merge).
    pub checkpoint: Option<PathBuf>,
}

/// Grows `attacker`'s outer tree for `root` (resuming its checkpoint in
/// `store`) until it offers `jobs` distinct open leaves, the root is
/// settled, or the budget runs out; then returns up to `jobs` leaves.
pub fn plan_at_scale<P: Position>(
    root: &P,
    attacker: Color,
    jobs: usize,
    store: &SolvedStore,
    oracle: Option<&dyn Oracle<P>>,
    config: &ScaleConfig,
    progress: &mut dyn FnMut(&ScaleStatus),
) -> Result<PlanReport<P>, StoreError> {
    let phase = Phase {
        root,
        attacker,
        store,
        oracle,
        config,
        started: Instant::now(),
        spent: 0,
        split: Some(jobs.max(1)),
    };
    let end = phase.run(progress)?;
    Ok(PlanReport {
        settled: match end.result {
            SearchResult::Proved => Some(true),
            SearchResult::Disproved => Some(false),
            SearchResult::Unknown => None,
        },
        leaves: end.frontier,
        nodes: end.nodes,
        earlier_nodes: end.earlier_nodes,
        outer_nodes: end.outer_nodes,
        root_numbers: end.root_numbers,
        resumed: end.resumed,
        checkpoint: end.checkpoint,
    })
}
