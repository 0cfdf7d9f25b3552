//! `ransom store stats DIR --plan JOBS`: where each job of a plan stands.

use hashbrown::HashMap;
use ransom::Variant;
use ransom::board::Color;
use ransom::notation::fen;
use ransom::solved::batch::{self as jobs, JobOutcome, Plan};
use ransom::solved::shard::shard_table;
use ransom::solved::{MergedRecord, MergedShards};
use std::path::Path;

/// The state of one job: `proved` or `disproved` (by the store, or by the
/// job once its shard is merged), `open` (merged, not settled by its job),
/// `unmerged` (its shard is not in the store as it is now) or `missing`.
fn job_state(
    entry: &jobs::PlanEntry,
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
    match jobs::read_json::<JobOutcome>(
        &ransom::solved::shard::job_result_path(&shard),
        "job result",
    ) {
        Ok(o) if o.result.settled() => o.result.name(),
        _ => "open",
    }
}

/// The plan read from `dir` (of rule set `variant`) checked against the
/// records of that rule set's store (in `store`): a JSON object with the counts and each job's state.
pub fn plan_status(
    plan: &Plan,
    variant: Variant,
    dir: &Path,
    store: &Path,
    records: &HashMap<u64, MergedRecord>,
) -> anyhow::Result<serde_json::Value> {
    let attacker = plan.attacker;
    let merged = MergedShards::read(store);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut list = Vec::new();
    for entry in &plan.jobs {
        let state = job_state(entry, dir, &merged, variant, attacker, records);
        *counts.entry(state).or_default() += 1;
        list.push(serde_json::json!({"id": entry.id, "state": state, "line": entry.line}));
    }
    let count = |s: &str| counts.get(s).copied().unwrap_or(0);
    Ok(serde_json::json!({
        "plan": dir.display().to_string(), "jobs": plan.jobs.len(),
        "proved": count("proved"), "disproved": count("disproved"),
        "unmerged": count("unmerged"), "open": count("open"), "missing": count("missing"),
        "job_states": list,
    }))
}

/// The plan's status as text lines.
pub fn describe(status: &serde_json::Value) -> Vec<String> {
    let mut lines = vec![format!(
        "plan {}: {} jobs: {} proved, {} disproved, {} open (merged, not settled), {} with a shard not merged yet, {} missing a shard",
        status["plan"].as_str().unwrap_or(""),
        status["jobs"],
        status["proved"],
        status["disproved"],
        status["open"],
        status["unmerged"],
        status["missing"],
    )];
    for job in status["job_states"].as_array().into_iter().flatten() {
        let line: Vec<&str> = job["line"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str())
            .collect();
        lines.push(format!(
            "  {} {}: {}",
            job["id"].as_str().unwrap_or(""),
            job["state"].as_str().unwrap_or(""),
            line.join(" ")
        ));
    }
    lines
}
