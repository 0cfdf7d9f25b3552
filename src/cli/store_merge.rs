//! `ransom store merge DIR SHARD…`: folds the shards of batch jobs into a
//! store.

use super::progress::Progress;
use ransom::Variant;
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

/// Merges; exits 1 if any shard was refused (the others are merged).
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
    progress.finish();
    let store = variant_dir(&target.dir, variant);
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
                    "merged {}: {positions} positions, {new} new to the store",
                    s.shard.display()
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
    let refused = report.refused().count();
    if refused > 0 {
        errln!(
            "{refused} shard{} refused and left out; the store holds the others (run the refused jobs again, then merge them)",
            if refused == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
