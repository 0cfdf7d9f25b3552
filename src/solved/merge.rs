//! Folding shards (the stores of batch jobs, [`super::shard`]) into a
//! store: `ransom store merge DIR SHARD…`.
//!
//! Every shard is read in full first, every checksum checked; a damaged
//! or missing shard is named and left out, and the others are merged. The
//! store and the good shards are then written as one new compacted table
//! (the same atomic step as compaction), so a crash during a merge leaves
//! the store as it was, and merging a shard twice changes nothing the
//! second time.

use super::compact::{CompactReport, rewrite};
use super::files::{Merged, MergedRecord, read_merged, scan};
use super::shard::shard_table;
use super::{lock, variant_dir};
use crate::store::StoreError;
use crate::variants::Variant;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// What merging one shard did.
#[derive(Debug)]
pub struct ShardMerge {
    /// The shard as given.
    pub shard: PathBuf,
    /// Distinct positions it holds and how many of them the store did not
    /// have (or knew less about); or why it was refused.
    pub outcome: Result<(u64, u64), StoreError>,
}

/// What a merge did.
#[derive(Debug, Default)]
pub struct MergeReport {
    /// Each shard, in the order given.
    pub shards: Vec<ShardMerge>,
    /// Positions of the store before.
    pub positions_before: u64,
    /// The rewrite of the store (`None` if no shard added anything).
    pub compacted: Option<CompactReport>,
}

impl MergeReport {
    /// The shards refused.
    pub fn refused(&self) -> impl Iterator<Item = (&Path, &StoreError)> {
        self.shards
            .iter()
            .filter_map(|s| s.outcome.as_ref().err().map(|e| (s.shard.as_path(), e)))
    }
}

/// Reads a shard: `variant`'s store under `shard`, every record checked.
fn read_shard(shard: &Path, variant: Variant) -> Result<Merged, StoreError> {
    let dir = variant_dir(shard, variant);
    if !dir.is_dir() {
        return Err(StoreError::Io {
            path: shard.display().to_string(),
            error: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("not a shard: no {}/ folder with a table", variant.name()),
            ),
        });
    }
    let files = scan(&dir)?;
    if files.table.is_none() && files.logs.is_empty() {
        return Err(StoreError::Io {
            path: dir.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "not a shard: no table"),
        });
    }
    read_merged(&files, variant.name())
}

/// Merges the shards into `variant`'s store under `root` (created if it
/// does not exist), taking the store's lock.
pub fn merge_shards(
    root: &Path,
    variant: Variant,
    shards: &[PathBuf],
) -> Result<MergeReport, StoreError> {
    let dir = variant_dir(root, variant);
    std::fs::create_dir_all(&dir).map_err(|error| StoreError::Io {
        path: dir.display().to_string(),
        error,
    })?;
    let _lock = lock(&dir, true)?;
    let found = scan(&dir)?;
    let mut merged = read_merged(&found, variant.name())?;
    let mut report = MergeReport {
        positions_before: merged.records.len() as u64,
        ..MergeReport::default()
    };
    let mut added = 0u64;
    for shard in shards {
        let outcome = read_shard(shard, variant).map(|part| {
            let mut new = 0u64;
            for m in part.records.values() {
                let record = m.record;
                match merged.records.get_mut(&record.key) {
                    Some(have) => {
                        let joined = have.record.value.merge(record.value);
                        if joined != have.record.value {
                            have.record.value = joined;
                            new += 1;
                        }
                    }
                    None => {
                        merged.records.insert(
                            record.key,
                            MergedRecord {
                                record,
                                file: 0,
                                index: 0,
                            },
                        );
                        new += 1;
                    }
                }
            }
            (part.records.len() as u64, new)
        });
        if let Ok((_, new)) = &outcome {
            added += new;
        }
        report.shards.push(ShardMerge {
            shard: shard.clone(),
            outcome,
        });
    }
    if added > 0 {
        report.compacted = Some(rewrite(&dir, variant, &found, &merged)?);
    }
    // Which shards the store now holds, for `store stats --plan`.
    let MergedShards(mut list) = MergedShards::read(&dir);
    for s in report.shards.iter().filter(|s| s.outcome.is_ok()) {
        let table = shard_table(&s.shard, variant);
        if let Some(identity) = shard_identity(&table) {
            list.insert(absolute(&table), identity);
        }
    }
    let mut text = String::new();
    let mut names: Vec<_> = list.iter().collect();
    names.sort();
    for (name, (bytes, modified)) in names {
        text += &format!("{bytes} {modified} {name}\n");
    }
    crate::store::write_atomically(&dir.join(MERGED_LIST), text.as_bytes())?;
    Ok(report)
}

/// The store's list of the shard tables merged into it.
const MERGED_LIST: &str = "merged-shards.txt";

/// A shard table's identity: its size and modification time (ns). A job
/// run again replaces its table, which changes both.
pub fn shard_identity(table: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(table).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((meta.len(), modified))
}

fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// The shard tables merged into a store, by absolute path, with their
/// identity when merged (read once, asked about many shards).
#[derive(Debug, Default)]
pub struct MergedShards(HashMap<String, (u64, u128)>);

impl MergedShards {
    /// The list of the store in `dir` (one rule set's folder); empty if
    /// nothing was ever merged.
    pub fn read(dir: &Path) -> MergedShards {
        let text = std::fs::read_to_string(dir.join(MERGED_LIST)).unwrap_or_default();
        MergedShards(
            text.lines()
                .filter_map(|line| {
                    let mut parts = line.splitn(3, ' ');
                    let bytes = parts.next()?.parse().ok()?;
                    let modified = parts.next()?.parse().ok()?;
                    Some((parts.next()?.to_string(), (bytes, modified)))
                })
                .collect(),
        )
    }

    /// Whether the shard under `shard` was merged as it is now.
    pub fn holds(&self, shard: &Path, variant: Variant) -> bool {
        let table = shard_table(shard, variant);
        shard_identity(&table).is_some_and(|id| self.0.get(&absolute(&table)) == Some(&id))
    }
}
