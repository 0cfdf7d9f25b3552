//! Store shards: what one batch job settled (`prove --job FILE
//! --store-shard DIR`), written as a store of its own that
//! [`super::merge_shards`] folds into the main store.
//!
//! A shard is a store directory holding one compacted table,
//! `DIR/<variant>/solved-000001.rst`, in the store's table format. It is
//! written in one atomic rename, so a job killed at any moment leaves
//! either its earlier shard or none, and a job run again replaces its
//! shard whole. Being a store, a shard can be checked on its own with
//! `ransom store verify DIR` (its wins may rest on positions of the main
//! store that the job read; then only the merged store verifies).

use super::files::{scan, table_path, write_table};
use super::log::Record;
use super::{Solved, variant_dir};
use crate::store::StoreError;
use crate::variants::Variant;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// The generation of a shard's one table.
const SHARD_GENERATION: u32 = 1;

/// The table file of `variant`'s shard under `shard`.
pub fn shard_table(shard: &Path, variant: Variant) -> PathBuf {
    table_path(&variant_dir(shard, variant), SHARD_GENERATION)
}

/// Writes `records` (in the order they were added) as the shard under
/// `shard`, replacing any earlier one atomically. Returns the number of
/// distinct positions written. A directory that holds a store's log is
/// refused: a shard is never written over a store.
pub fn write_shard(shard: &Path, variant: Variant, records: &[Record]) -> Result<u64, StoreError> {
    check_target(shard, variant)?;
    let mut joined: HashMap<u64, Record> = HashMap::with_capacity(records.len());
    for record in records {
        joined
            .entry(record.key)
            .and_modify(|r| r.value = Solved::merge(r.value, record.value))
            .or_insert(*record);
    }
    write_table(
        &shard_table(shard, variant),
        variant.name(),
        "solved positions (a job's shard)",
        joined.values(),
    )?;
    Ok(joined.len() as u64)
}

/// Checks that `shard` can take a shard: it does not exist yet, or holds
/// nothing but an earlier shard (never a store's log or newer tables).
pub fn check_target(shard: &Path, variant: Variant) -> Result<(), StoreError> {
    if shard.is_file() {
        return Err(StoreError::Io {
            path: shard.display().to_string(),
            error: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "is a file, not a shard folder",
            ),
        });
    }
    let dir = variant_dir(shard, variant);
    if dir.is_dir() {
        let found = scan(&dir)?;
        let foreign = found.logs.first().map(|l| l.1.clone()).or_else(|| {
            found
                .table
                .as_ref()
                .filter(|t| t.0 != SHARD_GENERATION)
                .map(|t| t.1.clone())
        });
        if let Some(path) = foreign {
            return Err(StoreError::Io {
                path: shard.display().to_string(),
                error: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!(
                        "is a store, not a job's shard (it holds {}); give the job a folder of its own",
                        path.display()
                    ),
                ),
            });
        }
    }
    Ok(())
}
