//! `store stats DIR --plan JOBS`: where each job of a plan stands.

use crate::Variant;
use crate::board::Color;
use crate::notation::fen;
use crate::solved::batch::{JobOutcome, Plan, PlanEntry, read_json};
use crate::solved::shard::{job_result_path, shard_table};
use crate::solved::{MergedRecord, MergedShards};
use hashbrown::HashMap;
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// The state of every job of a plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlanStatus {
    /// The jobs folder.
    pub plan: String,
    /// Jobs in the plan.
    pub jobs: usize,
    /// Settled: the attacker wins.
    pub proved: usize,
    /// Settled: the attacker has no forced win.
    pub disproved: usize,
    /// Shards written but not merged into the store as it is now.
    pub unmerged: usize,
    /// Merged, not settled by the job.
    pub open: usize,
    /// No shard yet.
    pub missing: usize,
    /// Each job's state.
    pub job_states: Vec<JobState>,
}

/// One job's state.
#[derive(Clone, Debug, Serialize)]
pub struct JobState {
    /// The job's name.
    pub id: String,
    /// "proved", "disproved", "open", "unmerged" or "missing".
    pub state: &'static str,
    /// Its line from the planned root, in SAN.
    pub line: Vec<String>,
}

/// The state of one job: `proved` or `disproved` (by the store, or by the
/// job once its shard is merged), `open` (merged, not settled by its job),
/// `unmerged` (its shard is not in the store as it is now) or `missing`.
fn job_state(
    entry: &PlanEntry,
    dir: &Path,
    merged: &MergedShards,
    variant: Variant,
    attacker: Color,
    records: &HashMap<u64, MergedRecord>,
) -> &'static str {
    let turn = fen::parse(&entry.fen).map_or(Color::White, |setup| setup.turn);
    let known = u64::from_str_radix(&entry.key, 16)
        .ok()
        .and_then(|key| records.get(&key))
        .and_then(|m| m.record.value.attacker_wins(attacker, turn));
    match known {
        Some(true) => return "proved",
        Some(false) => return "disproved",
        None => {}
    }
    let shard = dir.join(&entry.shard);
    if !shard_table(&shard, variant).is_file() {
        return "missing";
    }
    if !merged.holds(&shard, variant) {
        return "unmerged";
    }
    match read_json::<JobOutcome>(&job_result_path(&shard), "job result") {
        Ok(o) if o.result.settled() => o.result.name(),
        _ => "open",
    }
}

/// The plan read from `dir` (of rule set `variant`) checked against the
/// records of that rule set's store (the folder `store`).
pub fn plan_status(
    plan: &Plan,
    variant: Variant,
    dir: &Path,
    store: &Path,
    records: &HashMap<u64, MergedRecord>,
) -> PlanStatus {
    let merged = MergedShards::read(store);
    let job_states: Vec<JobState> = plan
        .jobs
        .iter()
        .map(|entry| JobState {
            id: entry.id.clone(),
            state: job_state(entry, dir, &merged, variant, plan.attacker, records),
            line: entry.line.clone(),
        })
        .collect();
    let count = |s: &str| job_states.iter().filter(|j| j.state == s).count();
    PlanStatus {
        plan: dir.display().to_string(),
        jobs: plan.jobs.len(),
        proved: count("proved"),
        disproved: count("disproved"),
        unmerged: count("unmerged"),
        open: count("open"),
        missing: count("missing"),
        job_states,
    }
}

impl fmt::Display for PlanStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "plan {}: {} jobs: {} proved, {} disproved, {} open (merged, not settled), {} with a shard not merged yet, {} missing a shard",
            self.plan,
            self.jobs,
            self.proved,
            self.disproved,
            self.open,
            self.unmerged,
            self.missing
        )?;
        for job in &self.job_states {
            writeln!(f, "  {} {}: {}", job.id, job.state, job.line.join(" "))?;
        }
        Ok(())
    }
}
