//! `prove --job FILE --store-shard DIR`: settles one job of a plan into
//! its own shard: the positions it settled and, if it did not settle its
//! own, its outer tree (which `store merge` hands to the store, and the
//! next job on that position resumes). Nothing else is written (no proof
//! file, nothing in the store it reads), so a job can run anywhere, in any
//! order, more than once.

use super::options::ProveOptions;
use super::prepare::guided_config;
use super::{ProveRunError, RunObserver};
use crate::notation::{fen, parse_move};
use crate::position::Position;
use crate::search::leaf_oracle::leaf_oracle;
use crate::search::scale::{checkpoint, prove_at_scale};
use crate::search::{Pn, Verdict};
use crate::solved::batch::{self, JOB_FORMAT, Job, JobOutcome, JobResult, read_json, write_json};
use crate::solved::{self, SolvedStore, packed, shard};
use crate::{AnyPosition, dispatch};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a job did (`job.json` in its shard, and more).
#[derive(Clone, Debug, Serialize)]
pub struct JobReport {
    /// The job's result file, as written.
    #[serde(flatten)]
    pub outcome: JobOutcome,
    /// The shard.
    pub shard: String,
    /// Whether the verifier checked a proof.
    pub verified: bool,
    /// Whether a signal stopped the search.
    pub interrupted: bool,
    /// Notes for the user.
    pub notes: Vec<String>,
    /// The job's position.
    #[serde(skip)]
    pub fen: String,
    /// Whether the job resumed an earlier job's outer tree.
    #[serde(skip)]
    pub resumed: bool,
}

/// Reads the job at `file` and runs it into `shard`. `options` give the
/// store to read (only where `options.store.given`), the tables, threads
/// and guide; the job's own budget applies where `options.config.budget`
/// sets none.
pub fn run_job(
    file: &Path,
    shard: &Path,
    options: &ProveOptions,
    observer: &mut dyn RunObserver,
) -> Result<JobReport, ProveRunError> {
    let job: Job = read_json(file, "job file")?;
    let bad = |problem: String| ProveRunError::Job {
        path: file.to_path_buf(),
        problem,
    };
    if job.format != JOB_FORMAT {
        return Err(bad(format!(
            "not a job file (format '{}', expected '{JOB_FORMAT}')",
            job.format
        )));
    }
    let setup = fen::parse(&job.start_fen).map_err(|e| bad(format!("start_fen: {e}")))?;
    let start = AnyPosition::from_setup(job.variant, &setup).map_err(|e| bad(format!("{e}")))?;
    let mut options = options.clone();
    let config = &mut options.config;
    config.attacker = Some(job.attacker);
    if config.budget.max_nodes == u64::MAX {
        config.budget.max_nodes = job.max_nodes;
    }
    if config.budget.max_time.is_none() {
        config.budget.max_time = job.max_time.map(Duration::from_secs_f64);
    }
    config.leaf_nodes = job.leaf_nodes.max(1);
    dispatch!(start, p => run_from(p, &job, file, shard, &options, observer))
}

/// Plays the job's moves from `start`, checks that they reach the job's
/// position, searches it and writes the shard.
fn run_from<P: Position>(
    start: P,
    job: &Job,
    file: &Path,
    shard: &Path,
    options: &ProveOptions,
    observer: &mut dyn RunObserver,
) -> Result<JobReport, ProveRunError> {
    let bad = |problem: String| ProveRunError::Job {
        path: file.to_path_buf(),
        problem,
    };
    let config = guided_config::<P>(options)?;
    let mut pos = start;
    for (i, text) in job.root_moves.iter().chain(&job.moves).enumerate() {
        let m =
            parse_move(&pos, text).map_err(|e| bad(format!("move {} ('{text}'): {e}", i + 1)))?;
        pos.play_unchecked(m);
    }
    if fen::write(&pos) != job.fen || format!("{:016x}", pos.zobrist()) != job.key {
        return Err(bad(format!(
            "the moves lead to {}, not to the job's position {}",
            fen::write(&pos),
            job.fen
        )));
    }
    if !packed::supported::<P>() {
        return Err(bad(format!(
            "the store keeps no {} positions, so a job has nothing to hand back",
            P::VARIANT.name()
        )));
    }
    shard::check_target(shard, P::VARIANT)?;
    // What a run killed in its search left; the earlier run's table and
    // tree stay until this run's table replaces them.
    shard::clear_staged(shard, P::VARIANT)?;
    let attacker = config.attacker.unwrap_or(pos.turn());
    let tree = checkpoint::file_name(pos.zobrist(), attacker);
    let staged = shard::staged_checkpoints(shard, P::VARIANT);
    let base = options.store.dir.as_deref().filter(|_| options.store.given);
    let store_tree: Option<PathBuf> = base.map(|b| {
        solved::variant_dir(b, P::VARIANT)
            .join(solved::CHECKPOINTS_DIR)
            .join(&tree)
    });
    let store = SolvedStore::for_job(
        base,
        P::VARIANT,
        options.store.memory_bytes,
        Some((&tree, &staged)),
        options.store.wait,
    )
    .map_err(|e| match &store_tree {
        Some(path) if Path::new(e.path()) == path.as_path() => ProveRunError::StoreTree {
            path: path.clone(),
            problem: e.problem(),
        },
        _ => ProveRunError::JobStore(e),
    })?;
    let oracle = leaf_oracle::<P>(options.tablebases.as_deref(), options.syzygy.as_deref())?;
    let scale = prove_at_scale(&pos, &store, oracle.as_deref(), &config, &mut |status| {
        observer.status(status)
    })
    .map_err(|e| {
        // The search loads the tree copied from the store whole (its
        // header must name the job's position and side): damage the
        // copy's checksum missed names the store's file, not the copy.
        let staged_tree = staged.join(&tree);
        match &store_tree {
            Some(path) if Path::new(e.path()) == staged_tree.as_path() => {
                let _ = shard::clear_staged(shard, P::VARIANT);
                ProveRunError::StoreTree {
                    path: path.clone(),
                    problem: e.problem(),
                }
            }
            _ => ProveRunError::Store(e),
        }
    })?;
    observer.finish();
    let report = scale.report;
    let mut records = store.take_added();
    let disproved = report.verdict == Verdict::Unknown && scale.root_numbers.1 == Pn::ZERO;
    if disproved {
        records.extend(batch::root_disproof_record(&pos, attacker, report.nodes));
    }
    let positions = shard::write_shard(shard, P::VARIANT, &records)?;
    if report.verdict == Verdict::Unknown && !disproved {
        shard::publish_checkpoints(shard, P::VARIANT)?;
    } else {
        // Settled: the shard's records say so, the tree is not needed.
        shard::clear_staged(shard, P::VARIANT)?;
    }
    let result = match report.verdict {
        Verdict::Win | Verdict::Loss => JobResult::Proved,
        Verdict::Unknown if disproved => JobResult::Disproved,
        Verdict::Unknown => JobResult::Unknown,
    };
    let outcome = JobOutcome {
        id: job.id.clone(),
        result,
        nodes: report.nodes,
        seconds: report.elapsed.as_secs_f64(),
        positions,
        pn: scale.root_numbers.0.get(),
        dn: scale.root_numbers.1.get(),
        earlier_nodes: scale.earlier_nodes,
        key: job.key.clone(),
        attacker: Some(job.attacker),
    };
    write_json(&shard::job_result_path(shard), &outcome)?;
    Ok(JobReport {
        outcome,
        shard: shard.display().to_string(),
        verified: report.verified.is_some(),
        interrupted: config.budget.stop.is_some_and(|s| s.is_raised()),
        notes: report.notes,
        fen: job.fen.clone(),
        resumed: scale.resumed,
    })
}

impl fmt::Display for JobReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.outcome;
        writeln!(
            f,
            "{}: {} ({} to win in {}), {} nodes{} in {:.1} s, pn {} dn {}; shard {}: {} positions{}",
            o.id,
            o.result,
            o.attacker.map_or("?", |c| c.name()),
            self.fen,
            o.nodes,
            if self.resumed {
                format!(
                    " (resuming the outer tree of {} nodes of earlier jobs)",
                    o.earlier_nodes
                )
            } else {
                String::new()
            },
            o.seconds,
            o.pn,
            o.dn,
            self.shard,
            o.positions,
            if self.interrupted {
                " (interrupted)"
            } else {
                ""
            }
        )?;
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        Ok(())
    }
}
