//! `ransom store merge DIR SHARD…`: folds the shards of batch jobs into a
//! store, then copies the outer trees the open jobs left in their shards
//! into the store's checkpoints (`solved::adopt`).

use super::progress::Progress;
use ransom::Variant;
use ransom::solved::adopt::Adopted;
use ransom::solved::batch as jobs;
use ransom::solved::{self, variant_dir};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom store merge`.
#[derive(Debug, clap::Args)]
pub struct MergeTarget {
    /// The store to merge into (as given to `prove --store`; created if missing).
    dir: PathBuf,
    /// The shards: folders written by `prove --job FILE --store-shard DIR`.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// The rule set of the shards.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress spinner or progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Wait for a store another ransom process is writing, instead of
    /// refusing it as busy.
    #[arg(long)]
    wait: bool,
    /// The jobs folder of the plan the shards come from (`prove --plan`):
    /// the merge is refused unless the store is the one the plan was made
    /// over (the plan records the store's identity), so that a copied jobs
    /// folder never merges into another store by mistake.
    #[arg(long, value_name = "JOBS")]
    plan: Option<PathBuf>,
}

/// Merges; exits 1 if any shard or outer tree was refused (the others
/// are merged).
pub fn merge(target: &MergeTarget) -> anyhow::Result<ExitCode> {
    let variant: Variant = target.variant.parse()?;
    if target.dir.is_file() {
        anyhow::bail!("{}: is a file, not a store directory", target.dir.display());
    }
    let mut progress = Progress::busy("store merge", target.quiet);
    progress.set_message(format!(
        "{} shards into {}",
        target.shards.len(),
        variant_dir(&target.dir, variant).display()
    ));
    if let Some(jobs_dir) = &target.plan {
        check_plan_store(jobs_dir, &target.dir, variant)?;
    }
    let report = solved::merge_shards(&target.dir, variant, &target.shards, target.wait)?;
    // A shard refused, or whose job result is missing or damaged, loses
    // its job result: the Makefile's target for the job is that file, so
    // `make` runs exactly those jobs again.
    for s in &report.shards {
        if s.outcome.is_err() || s.job_result_problem.is_some() {
            let _ = std::fs::remove_file(ransom::solved::shard::job_result_path(&s.shard));
        }
    }
    let store = variant_dir(&target.dir, variant);
    progress.finish();
    let after = report
        .compacted
        .as_ref()
        .map_or(report.positions_before, |c| c.positions);
    if target.json {
        let shards: Vec<serde_json::Value> = report
            .shards
            .iter()
            .map(|s| match &s.outcome {
                Ok((positions, new)) => serde_json::json!({
                    "shard": s.shard.display().to_string(), "ok": true,
                    "positions": positions, "new": new,
                    "outer_trees": s.trees.taken, "outer_trees_older": s.trees.older,
                    "outer_tree_dropped": s.trees.dropped,
                    "outer_trees_refused": s.trees.refused.iter()
                        .map(|(p, e)| format!("{}: {}", p.display(), e.problem())).collect::<Vec<_>>(),
                    "job_result_problem": s.job_result_problem,
                }),
                Err(e) => serde_json::json!({
                    "shard": s.shard.display().to_string(), "ok": false, "error": e.to_string(),
                }),
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({
                "store": store.display().to_string(), "positions_before": report.positions_before,
                "positions_after": after, "rewritten": report.compacted.is_some(), "shards": shards,
            })
        )?;
    } else {
        for s in &report.shards {
            match &s.outcome {
                Ok((positions, new)) => outln!(
                    "merged {}: {positions} positions, {new} new to the store{}",
                    s.shard.display(),
                    trees_said(&s.trees)
                )?,
                Err(e) => errln!("refused {}: {e}", s.shard.display()),
            }
        }
        outln!(
            "{}: {} positions before, {after} after{}",
            store.display(),
            report.positions_before,
            if report.compacted.is_some() {
                " (rewritten as one table)"
            } else {
                " (nothing new: unchanged)"
            }
        )?;
    }
    let trees_refused: Vec<_> = report
        .shards
        .iter()
        .flat_map(|s| &s.trees.refused)
        .collect();
    for (path, e) in &trees_refused {
        let e = e.problem();
        errln!(
            "refused the outer tree {}: {e} (the shard's positions are merged; the store keeps the tree it had of that position, if any)",
            path.display()
        );
    }
    let without_result: Vec<_> = report
        .shards
        .iter()
        .filter_map(|s| s.job_result_problem.as_ref())
        .collect();
    for problem in &without_result {
        errln!(
            "{problem} (the shard's positions are merged; the store keeps its tree of the job's position; run the job again)"
        );
    }
    let refused = report.refused().count();
    if (!trees_refused.is_empty() || !without_result.is_empty()) && refused == 0 {
        return Ok(ExitCode::FAILURE);
    }
    if refused > 0 {
        errln!(
            "{refused} shard{} refused and left out; the store holds the others (run the refused jobs again, then merge them: `make` in the jobs folder runs exactly those)",
            if refused == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// What became of a shard's outer trees, for the line of its merge.
/// Refuses the merge unless the store under `store` is the one the plan in
/// `jobs_dir` was made over (plans without a recorded identity pass).
fn check_plan_store(
    jobs_dir: &std::path::Path,
    store: &std::path::Path,
    variant: Variant,
) -> anyhow::Result<()> {
    let plan: jobs::Plan = jobs::read_json(&jobs_dir.join("plan.json"), "plan file")?;
    let Some(expected) = &plan.store_id else {
        return Ok(());
    };
    let found = solved::store_id(&variant_dir(store, variant));
    if found.as_deref() != Some(expected.as_str()) {
        anyhow::bail!(
            "{}: not the store the plan in {} was made over (the plan's store is {}, identity {expected}; this one's identity is {}): merge into the plan's store, or give it with STORE=DIR to make",
            store.display(),
            jobs_dir.display(),
            plan.store,
            found.as_deref().unwrap_or("none")
        );
    }
    Ok(())
}

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
