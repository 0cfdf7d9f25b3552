//! `prove … --plan JOBS --split N`: grows the outer tree of the search
//! (resuming its checkpoint in the store) until it offers N open positions
//! worth searching, and writes one batch job for each.

use super::line::Line;
use super::options::ProveOptions;
use super::plan_files::write_plan;
use super::prepare::prepare;
use super::{ProveRunError, RunObserver};
use crate::notation::{fen, san, uci};
use crate::position::Position;
use crate::search::scale::plan_at_scale;
use crate::solved::batch::{JOB_FORMAT, Job, PLAN_FORMAT, Plan, PlanEntry, SHARDS, job_id};
use crate::text::counted;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

/// What `--plan` asks for.
#[derive(Clone, Debug)]
pub struct PlanOptions {
    /// The jobs folder (it must hold no plan yet).
    pub dir: PathBuf,
    /// How many jobs.
    pub split: usize,
    /// Each job's node budget.
    pub job_nodes: u64,
    /// Each job's time budget, in seconds.
    pub job_time: Option<f64>,
}

/// What planning did.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum PlanWritten {
    /// The root was settled while planning: no jobs were written.
    Settled {
        /// The attacker.
        attacker: &'static str,
        /// Whether it wins (else it has no forced win).
        wins: bool,
    },
    /// The plan and its jobs were written.
    Written {
        /// The plan (`plan.json`).
        #[serde(flatten)]
        plan: Box<Plan>,
        /// The jobs folder.
        dir: String,
        /// Jobs asked for.
        #[serde(skip)]
        asked: usize,
        /// Nodes searched by this run.
        nodes: u64,
        /// Nodes of earlier runs of the same search.
        earlier_nodes: u64,
        /// Nodes of the outer tree.
        outer_nodes: usize,
        /// Whether a checkpoint was resumed.
        resumed: bool,
        /// The outer tree's checkpoint, which `prove` continues after the
        /// merge.
        checkpoint: Option<String>,
    },
}

/// Plans the search of the end of `line` into `plan.dir`: jobs for the
/// most-proving open positions of the outer tree, with their plan, a
/// Makefile, a Slurm array script and a Kubernetes manifest. Needs the
/// store on disk (the plan's outer tree and the merged shards live there).
pub fn plan_line<P: Position>(
    line: &Line<P>,
    options: &ProveOptions,
    plan: &PlanOptions,
    observer: &mut dyn RunObserver,
) -> Result<PlanWritten, ProveRunError> {
    let prepared = prepare::<P>(options, observer)?;
    let store = &prepared.store;
    let Some(store_dir) = store.dir() else {
        return Err(ProveRunError::Plan(
            "--plan needs the store on disk (the plan's outer tree and the merged shards live there)".into(),
        ));
    };
    if plan.dir.join("plan.json").exists() {
        return Err(ProveRunError::Plan(format!(
            "{}: this folder already holds a plan; give each round a folder of its own",
            plan.dir.display()
        )));
    }
    let root = &line.pos;
    let attacker = root.turn();
    let report = plan_at_scale(
        root,
        attacker,
        plan.split,
        store,
        prepared.oracle.as_deref(),
        &prepared.config,
        &mut |status| observer.status(status),
    )?;
    observer.finish();
    if let Some(wins) = report.settled {
        return Ok(PlanWritten::Settled {
            attacker: attacker.name(),
            wins,
        });
    }
    if report.leaves.is_empty() {
        return Err(ProveRunError::Plan(
            "the budget ended before the outer tree had an open position to hand out".into(),
        ));
    }
    // The store's path as every job will see it: absolute.
    let store_root = store_dir
        .parent()
        .ok_or_else(|| ProveRunError::Plan(format!("{}: no store root", store_dir.display())))?;
    let store_root = std::path::absolute(store_root).map_err(crate::store::io_error(store_root))?;
    let mut jobs = Vec::new();
    let mut entries = Vec::new();
    for (i, leaf) in report.leaves.iter().enumerate() {
        let id = job_id(i);
        let mut at = root.clone();
        let mut line_san = Vec::new();
        for &mv in &leaf.line {
            line_san.push(san::write(&at, mv));
            at.play_unchecked(mv);
        }
        let key = format!("{:016x}", leaf.pos.zobrist());
        let leaf_fen = fen::write(&leaf.pos);
        let (pn, dn) = (leaf.numbers.0.get(), leaf.numbers.1.get());
        jobs.push(Job {
            format: JOB_FORMAT.into(),
            id: id.clone(),
            variant: P::VARIANT,
            start_fen: line.start_fen.clone(),
            root_moves: line.moves.clone(),
            moves: leaf.line.iter().map(|&m| uci::write(m)).collect(),
            fen: leaf_fen.clone(),
            key: key.clone(),
            attacker,
            max_nodes: plan.job_nodes,
            max_time: plan.job_time,
            leaf_nodes: prepared.config.leaf_nodes,
            pn,
            dn,
        });
        entries.push(PlanEntry {
            file: format!("{id}.json"),
            shard: format!("{SHARDS}/{id}"),
            id,
            key,
            line: line_san,
            fen: leaf_fen,
            pn,
            dn,
        });
    }
    let listing = Plan {
        format: PLAN_FORMAT.into(),
        variant: P::VARIANT,
        root_fen: fen::write(root),
        root_moves: line.moves.clone(),
        attacker,
        store: store_root.display().to_string(),
        store_id: Some(crate::solved::ensure_store_id(store_dir)?),
        root_pn: report.root_numbers.0.get(),
        root_dn: report.root_numbers.1.get(),
        jobs: entries,
    };
    write_plan(&plan.dir, &listing, &jobs)?;
    Ok(PlanWritten::Written {
        plan: Box::new(listing),
        dir: plan.dir.display().to_string(),
        asked: plan.split,
        nodes: report.nodes,
        earlier_nodes: report.earlier_nodes,
        outer_nodes: report.outer_nodes,
        resumed: report.resumed,
        checkpoint: report.checkpoint.as_ref().map(|p| p.display().to_string()),
    })
}

impl fmt::Display for PlanWritten {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanWritten::Settled { attacker, wins } => {
                let what = if *wins {
                    format!("{attacker} wins")
                } else {
                    format!("{attacker} has no forced win")
                };
                writeln!(
                    f,
                    "settled while planning: {what}; no jobs written (run the same prove without --plan for the verified result)"
                )
            }
            PlanWritten::Written {
                plan,
                dir,
                asked,
                nodes,
                earlier_nodes,
                outer_nodes,
                resumed,
                ..
            } => {
                writeln!(
                    f,
                    "plan: {} in {dir} ({} to win in {}; root pn {} dn {}, outer tree {outer_nodes} nodes, {nodes} nodes searched{})",
                    counted(plan.jobs.len() as u64, "job", "jobs"),
                    plan.attacker.name(),
                    plan.root_fen,
                    plan.root_pn,
                    plan.root_dn,
                    if *resumed {
                        format!(", {earlier_nodes} in earlier runs")
                    } else {
                        String::new()
                    }
                )?;
                if plan.jobs.len() < *asked {
                    writeln!(
                        f,
                        "note: {asked} jobs asked for, {} open positions when the budget ended",
                        plan.jobs.len()
                    )?;
                }
                Ok(())
            }
        }
    }
}
