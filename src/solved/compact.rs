//! Compaction: the table and the logs folded into one new table.

use super::files::{Merged, StoreFiles, read_merged, scan, table_path, write_table};
use super::{lock, variant_dir};
use crate::store::StoreError;
use crate::variants::Variant;
use std::path::{Path, PathBuf};

/// What a compaction did.
#[derive(Clone, Debug, Default)]
pub struct CompactReport {
    /// Distinct positions in the new table.
    pub positions: u64,
    /// Records read (table and logs).
    pub records_read: u64,
    /// The new table's generation.
    pub generation: u32,
    /// The new table.
    pub table: Option<PathBuf>,
    /// Bytes on disk before and after.
    pub bytes_before: u64,
    /// Bytes on disk after.
    pub bytes_after: u64,
}

/// Compacts `variant`'s store under `root` (taking its lock; with `wait`,
/// waiting for it if another process holds it).
pub fn compact(root: &Path, variant: Variant, wait: bool) -> Result<CompactReport, StoreError> {
    let dir = variant_dir(root, variant);
    if !dir.is_dir() {
        return Err(StoreError::Io {
            path: dir.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no store here"),
        });
    }
    let _lock = lock(&dir, true, wait)?;
    super::remove_leftovers(&dir);
    compact_locked(&dir, variant)
}

/// Compaction by the holder of the lock.
pub(super) fn compact_locked(dir: &Path, variant: Variant) -> Result<CompactReport, StoreError> {
    let found = scan(dir)?;
    let merged = read_merged(&found, variant.name())?;
    rewrite(dir, variant, &found, &merged)
}

/// Writes `merged` (every record of the files `found`, and perhaps more)
/// as the store's new table, then removes the files it replaces. The new
/// table's rename is the one moment the store changes: before it the old
/// files are whole, after it the new table holds everything.
pub(super) fn rewrite(
    dir: &Path,
    variant: Variant,
    found: &StoreFiles,
    merged: &Merged,
) -> Result<CompactReport, StoreError> {
    let bytes_before = super::disk_bytes(dir);
    let reading = &merged.reading;
    let generation = found.newest_generation() + 1;
    let table = table_path(dir, generation);
    write_table(
        &table,
        variant.name(),
        "solved positions",
        merged.records.values().map(|m| &m.record),
    )?;
    // The new table holds everything: the older files can go.
    if let Some((_, old)) = &found.table {
        let _ = std::fs::remove_file(old);
    }
    for (_, old) in found.logs.iter() {
        let _ = std::fs::remove_file(old);
        let _ = std::fs::remove_file(super::log::count_path(old));
    }
    for old in &found.stale {
        let _ = std::fs::remove_file(old);
    }
    Ok(CompactReport {
        positions: merged.records.len() as u64,
        records_read: reading.table_records + reading.log_records,
        generation,
        table: Some(table),
        bytes_before,
        bytes_after: super::disk_bytes(dir),
    })
}
