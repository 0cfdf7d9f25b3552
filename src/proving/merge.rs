//! `store merge DIR SHARD…`: the shards of batch jobs folded into a store
//! ([`crate::solved::merge_shards`]), checked against the plan they come
//! from, and what became of each, as a report.

use crate::Variant;
use crate::solved::adopt::Adopted;
use crate::solved::batch::{BatchFileError, Plan, read_json};
use crate::solved::shard::job_result_path;
use crate::solved::{self, merge_shards, variant_dir};
use crate::store::StoreError;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a merge did not run.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// The store folder is a file.
    #[error("{}: is a file, not a store directory", .0.display())]
    NotADirectory(PathBuf),
    /// The plan cannot be read.
    #[error(transparent)]
    Plan(#[from] BatchFileError),
    /// The store is not the one the plan was made over.
    #[error(
        "{}: not the store the plan in {} was made over (the plan's store is {plan_store}, identity {expected}; this one's identity is {found}): merge into the plan's store, or give it with STORE=DIR to make",
        store.display(),
        jobs.display()
    )]
    OtherStore {
        /// The store given.
        store: PathBuf,
        /// The jobs folder.
        jobs: PathBuf,
        /// The plan's store.
        plan_store: String,
        /// The plan's store's identity.
        expected: String,
        /// This store's identity ("none" without one).
        found: String,
    },
    /// The store.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a merge did.
#[derive(Clone, Debug, Serialize)]
pub struct MergeOutcome {
    /// The store's folder.
    pub store: String,
    /// Positions before.
    pub positions_before: u64,
    /// Positions after.
    pub positions_after: u64,
    /// Whether the store was rewritten (something was new).
    pub rewritten: bool,
    /// Each shard, in the order given.
    pub shards: Vec<ShardOutcome>,
}

/// One shard's merge.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ShardOutcome {
    /// Merged.
    Merged {
        /// The shard.
        shard: String,
        /// Always true.
        ok: bool,
        /// Positions it holds.
        positions: u64,
        /// Of those, new to the store.
        new: u64,
        /// Its outer trees handed to the store.
        outer_trees: usize,
        /// Its trees left out (the store's have as many nodes or more).
        outer_trees_older: usize,
        /// Whether the store's tree of the position its job settled was dropped.
        outer_tree_dropped: bool,
        /// Its trees refused, with why.
        outer_trees_refused: Vec<String>,
        /// Why its job result could not be used, if so.
        job_result_problem: Option<String>,
        /// What became of its trees, as the text line says it.
        #[serde(skip)]
        trees_said: String,
    },
    /// Refused and left out.
    Refused {
        /// The shard.
        shard: String,
        /// Always false.
        ok: bool,
        /// Why.
        error: String,
    },
}

/// Merges `shards` into `variant`'s store in `dir` (made if missing);
/// with `plan` (a jobs folder), only into the store the plan was made
/// over. A shard refused, or whose job result is missing or damaged,
/// loses its job result, so that `make` in the jobs folder runs exactly
/// those jobs again.
pub fn merge_into_store(
    dir: &Path,
    variant: Variant,
    shards: &[PathBuf],
    wait: bool,
    plan: Option<&Path>,
) -> Result<MergeOutcome, MergeError> {
    if dir.is_file() {
        return Err(MergeError::NotADirectory(dir.to_path_buf()));
    }
    if let Some(jobs) = plan {
        check_plan_store(jobs, dir, variant)?;
    }
    let report = merge_shards(dir, variant, shards, wait)?;
    for s in &report.shards {
        if s.outcome.is_err() || s.job_result_problem.is_some() {
            let _ = std::fs::remove_file(job_result_path(&s.shard));
        }
    }
    let shards = report
        .shards
        .iter()
        .map(|s| match &s.outcome {
            Ok((positions, new)) => ShardOutcome::Merged {
                shard: s.shard.display().to_string(),
                ok: true,
                positions: *positions,
                new: *new,
                outer_trees: s.trees.taken,
                outer_trees_older: s.trees.older,
                outer_tree_dropped: s.trees.dropped,
                outer_trees_refused: s
                    .trees
                    .refused
                    .iter()
                    .map(|(p, e)| format!("{}: {}", p.display(), e.problem()))
                    .collect(),
                job_result_problem: s.job_result_problem.clone(),
                trees_said: trees_said(&s.trees),
            },
            Err(e) => ShardOutcome::Refused {
                shard: s.shard.display().to_string(),
                ok: false,
                error: e.to_string(),
            },
        })
        .collect();
    Ok(MergeOutcome {
        store: variant_dir(dir, variant).display().to_string(),
        positions_before: report.positions_before,
        positions_after: report
            .compacted
            .as_ref()
            .map_or(report.positions_before, |c| c.positions),
        rewritten: report.compacted.is_some(),
        shards,
    })
}

/// Refuses the merge unless the store under `store` is the one the plan in
/// `jobs` was made over (plans without a recorded identity pass).
fn check_plan_store(jobs: &Path, store: &Path, variant: Variant) -> Result<(), MergeError> {
    let plan: Plan = read_json(&jobs.join("plan.json"), "plan file")?;
    let Some(expected) = &plan.store_id else {
        return Ok(());
    };
    let found = solved::store_id(&variant_dir(store, variant));
    if found.as_deref() != Some(expected.as_str()) {
        return Err(MergeError::OtherStore {
            store: store.to_path_buf(),
            jobs: jobs.to_path_buf(),
            plan_store: plan.store.clone(),
            expected: expected.clone(),
            found: found.unwrap_or_else(|| "none".into()),
        });
    }
    Ok(())
}

/// What became of a shard's outer trees, for the line of its merge.
fn trees_said(trees: &Adopted) -> String {
    let mut said = match (trees.taken, trees.older) {
        (0, 0) => String::new(),
        (1, 0) => ", its outer tree handed on".to_string(),
        (0, 1) => ", its outer tree not (the store's of that position has as many nodes or more)"
            .to_string(),
        (taken, older) => format!(
            ", {taken} outer trees handed on, {older} not (the store's have as many nodes or more)"
        ),
    };
    if trees.dropped {
        said += ", the store's tree of the position it settled dropped";
    }
    said
}

impl MergeOutcome {
    /// Shards refused.
    pub fn refused(&self) -> usize {
        self.shards
            .iter()
            .filter(|s| matches!(s, ShardOutcome::Refused { .. }))
            .count()
    }

    /// Whether anything was refused (a shard, a tree, a job result).
    pub fn failed(&self) -> bool {
        self.shards.iter().any(|s| match s {
            ShardOutcome::Refused { .. } => true,
            ShardOutcome::Merged {
                outer_trees_refused,
                job_result_problem,
                ..
            } => !outer_trees_refused.is_empty() || job_result_problem.is_some(),
        })
    }

    /// The lines for stderr: what was refused, and what to do.
    pub fn messages(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for s in &self.shards {
            if let ShardOutcome::Refused { shard, error, .. } = s {
                lines.push(format!("refused {shard}: {error}"));
            }
        }
        for s in &self.shards {
            if let ShardOutcome::Merged {
                outer_trees_refused,
                ..
            } = s
            {
                for refused in outer_trees_refused {
                    lines.push(format!(
                        "refused the outer tree {refused} (the shard's positions are merged; the store keeps the tree it had of that position, if any)"
                    ));
                }
            }
        }
        for s in &self.shards {
            if let ShardOutcome::Merged {
                job_result_problem: Some(problem),
                ..
            } = s
            {
                lines.push(format!(
                    "{problem} (the shard's positions are merged; the store keeps its tree of the job's position; run the job again)"
                ));
            }
        }
        let refused = self.refused();
        if refused > 0 {
            lines.push(format!(
                "{refused} shard{} refused and left out; the store holds the others (run the refused jobs again, then merge them: `make` in the jobs folder runs exactly those)",
                if refused == 1 { "" } else { "s" }
            ));
        }
        lines
    }
}

impl fmt::Display for MergeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.shards {
            if let ShardOutcome::Merged {
                shard,
                positions,
                new,
                trees_said,
                ..
            } = s
            {
                writeln!(
                    f,
                    "merged {shard}: {positions} positions, {new} new to the store{trees_said}"
                )?;
            }
        }
        writeln!(
            f,
            "{}: {} positions before, {} after{}",
            self.store,
            self.positions_before,
            self.positions_after,
            if self.rewritten {
                " (rewritten as one table)"
            } else {
                " (nothing new: unchanged)"
            }
        )
    }
}
