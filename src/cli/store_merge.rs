//! `ransom store merge DIR SHARD…`: folds the shards of batch jobs into a
//! store, then copies the outer trees the open jobs left in their shards
//! into the store's checkpoints (`search::scale::adopt`).

use super::progress::Progress;
use ransom::Variant;
use ransom::search::scale::adopt::{Adopted, adopt_checkpoints};
use ransom::solved::{self, CHECKPOINTS_DIR, shard, variant_dir};
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
    let report = solved::merge_shards(&target.dir, variant, &target.shards)?;
    let store = variant_dir(&target.dir, variant);
    // The outer trees of the jobs that did not settle their positions,
    // once their positions are in the store.
    let trees: Vec<Adopted> = {
        let _lock = solved::lock(&store, true)?;
        report
            .shards
            .iter()
            .map(|s| match &s.outcome {
                Ok(_) => adopt_checkpoints(
                    &shard::shard_checkpoints(&s.shard, variant),
                    &store.join(CHECKPOINTS_DIR),
                ),
                Err(_) => Ok(Adopted::default()),
            })
            .collect::<Result<_, _>>()?
    };
    progress.finish();
    let after = report
        .compacted
        .as_ref()
        .map_or(report.positions_before, |c| c.positions);
    if target.json {
        let shards: Vec<serde_json::Value> = report
            .shards
            .iter()
            .zip(&trees)
            .map(|(s, trees)| match &s.outcome {
                Ok((positions, new)) => serde_json::json!({
                    "shard": s.shard.display().to_string(), "ok": true,
                    "positions": positions, "new": new,
                    "outer_trees": trees.taken, "outer_trees_older": trees.older,
                    "outer_trees_refused": trees.refused.iter()
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
        for (s, trees) in report.shards.iter().zip(&trees) {
            match &s.outcome {
                Ok((positions, new)) => outln!(
                    "merged {}: {positions} positions, {new} new to the store{}",
                    s.shard.display(),
                    match (trees.taken, trees.older) {
                        (0, 0) => String::new(),
                        (1, 0) => ", its outer tree handed on".to_string(),
                        (taken, 0) => format!(", {taken} outer trees handed on"),
                        (taken, older) => format!(
                            ", {taken} outer trees handed on, {older} not (the store's have more nodes)"
                        ),
                    }
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
    for (path, e) in trees.iter().flat_map(|t| &t.refused) {
        errln!(
            "refused the outer tree {}: {e} (its positions are merged; the next job on it starts afresh)",
            path.display()
        );
    }
    let refused = report.refused().count();
    if trees.iter().any(|t| !t.refused.is_empty()) && refused == 0 {
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
