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
//!
//! A job that ends without settling its position also leaves its outer
//! tree, `DIR/<variant>/checkpoints/<hash>-<attacker>.ckpt`, which
//! `store merge` hands to the store, so that the next job on that
//! position resumes it. The search writes it into a staging folder; the
//! earlier tree is removed just before the table is replaced and the new
//! one moved beside it once the table is written: a tree never sits
//! beside a table that lacks the positions it counts as settled, and a
//! run that fails or is killed before its table leaves the earlier
//! table and tree as they were.

use super::files::{scan, table_path, write_table_then};
use super::log::Record;
use super::{CHECKPOINTS_DIR, Solved, variant_dir};
use crate::store::{StoreError, io_error as io};
use crate::variants::Variant;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// The job's result beside its shard (`DIR/job.json`), written by the job
/// once its table and tree are in place and removed just before a new
/// table replaces the one it describes: a job result always speaks of the
/// table beside it, and its absence means the job did not finish.
pub const JOB_RESULT: &str = "job.json";

/// The job result file of the shard under `shard`.
pub fn job_result_path(shard: &Path) -> PathBuf {
    shard.join(JOB_RESULT)
}

/// The store's list of the shard tables merged into it
/// ([`super::merge_shards`]); a folder that holds one is a store, never a
/// shard.
pub(crate) const MERGED_LIST: &str = "merged-shards.txt";

/// The generation of a shard's one table.
const SHARD_GENERATION: u32 = 1;

/// The table file of `variant`'s shard under `shard`.
pub fn shard_table(shard: &Path, variant: Variant) -> PathBuf {
    table_path(&variant_dir(shard, variant), SHARD_GENERATION)
}

/// The folder of the checkpoints a shard hands to the store.
pub fn shard_checkpoints(shard: &Path, variant: Variant) -> PathBuf {
    variant_dir(shard, variant).join(CHECKPOINTS_DIR)
}

/// The folder a job's search writes its checkpoint to until the shard's
/// table is written ([`publish_checkpoints`]).
pub fn staged_checkpoints(shard: &Path, variant: Variant) -> PathBuf {
    variant_dir(shard, variant).join("checkpoints.staged")
}

/// Removes the folder `dir` and what it holds, if it exists.
fn remove_folder(dir: &Path) -> Result<(), StoreError> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(dir)(e)),
        _ => Ok(()),
    }
}

/// Removes what an earlier run of the job left staged (a run killed in
/// its search).
pub fn clear_staged(shard: &Path, variant: Variant) -> Result<(), StoreError> {
    remove_folder(&staged_checkpoints(shard, variant))
}

/// Removes what belongs with the shard's table, the job's result and its
/// tree: done just before the table is replaced ([`write_shard`]).
fn clear_published(shard: &Path, variant: Variant) -> Result<(), StoreError> {
    let result = job_result_path(shard);
    match std::fs::remove_file(&result) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&result)(e)),
        _ => {}
    }
    remove_folder(&shard_checkpoints(shard, variant))
}

/// Moves the staged checkpoints beside the shard's table (call it once
/// the table is written). Returns how many there were.
pub fn publish_checkpoints(shard: &Path, variant: Variant) -> Result<usize, StoreError> {
    let staged = staged_checkpoints(shard, variant);
    let entries = match std::fs::read_dir(&staged) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io(&staged)(e)),
    };
    let target = shard_checkpoints(shard, variant);
    std::fs::create_dir_all(&target).map_err(io(&target))?;
    let mut moved = 0;
    for entry in entries {
        let path = entry.map_err(io(&staged))?.path();
        let Some(name) = path
            .file_name()
            .filter(|n| n.to_string_lossy().ends_with(".ckpt"))
        else {
            continue;
        };
        std::fs::rename(&path, target.join(name)).map_err(io(&path))?;
        moved += 1;
    }
    remove_folder(&staged)?;
    Ok(moved)
}

/// Writes `records` (in the order they were added) as the shard under
/// `shard`, replacing any earlier one atomically. The earlier table's job
/// result and tree are removed once the new table's temporary file is
/// written, just before it is renamed: a run killed while its table is
/// being built or written keeps the earlier table with its tree and
/// result. Returns the number of distinct positions written. A directory
/// that holds a store's log is refused: a shard is never written over a
/// store.
pub fn write_shard(shard: &Path, variant: Variant, records: &[Record]) -> Result<u64, StoreError> {
    check_target(shard, variant)?;
    let mut joined: HashMap<u64, Record> = HashMap::with_capacity(records.len());
    for record in records {
        joined
            .entry(record.key)
            .and_modify(|r| r.value = Solved::merge(r.value, record.value))
            .or_insert(*record);
    }
    write_table_then(
        &shard_table(shard, variant),
        variant.name(),
        "solved positions (a job's shard)",
        joined.values(),
        || clear_published(shard, variant).map_err(|e| std::io::Error::other(e.to_string())),
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
    if dir.join(MERGED_LIST).exists() {
        return Err(StoreError::Io {
            path: shard.display().to_string(),
            error: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "is a store (shards were merged into it), not a job's shard; give the job a folder of its own",
            ),
        });
    }
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
