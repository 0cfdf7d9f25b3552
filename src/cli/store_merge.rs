//! `ransom store merge DIR SHARD…`: folds the shards of batch jobs into a
//! store, then copies the outer trees the open jobs left in their shards
//! into the store's checkpoints (`search::scale::adopt`).

use super::jobs::{self, JobOutcome};
use super::progress::Progress;
use ransom::Variant;
use ransom::search::scale::adopt::Adopted;
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
    // A job that settled its position leaves the store's tree of it
    // unneeded; its `job.json` names it.
    let settled_tree = |shard: &std::path::Path| {
        jobs::read_json::<JobOutcome>(&jobs::outcome_path(shard), "job result")
            .ok()
            .and_then(|outcome| outcome.settled_tree())
    };
    let report = solved::merge_shards(&target.dir, variant, &target.shards, &settled_tree)?;
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
                        .map(|(p, e)| format!("{}: {e}", p.display())).collect::<Vec<_>>(),
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
        errln!(
            "refused the outer tree {}: {e} (the shard's positions are merged; the store keeps the tree it had of that position, if any)",
            path.display()
        );
    }
    let refused = report.refused().count();
    if !trees_refused.is_empty() && refused == 0 {
        return Ok(ExitCode::FAILURE);
    }
    if refused > 0 {
        errln!(
            "{refused} shard{} refused and left out; the store holds the others (run the refused jobs again, then merge them)",
            if refused == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
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
