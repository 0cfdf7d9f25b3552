//! The files of one store directory: compacted tables and logs, numbered
//! by generation, and the lock.
//!
//! `solved-G.rst` holds every result of the logs numbered below `G`; the
//! logs numbered `G` or more hold what came after. Compaction writes
//! `solved-H.rst` (H above every number in use) and only then removes the
//! older files, so a crash at any moment leaves a directory that opens with
//! nothing lost: before the rename the old files are complete, after it the
//! new table is.

use super::log::{self, Record};
use crate::store::{StoreError, TableKind, TableReader, TableWriter};
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// The files found in a store directory.
#[derive(Clone, Debug, Default)]
pub struct StoreFiles {
    /// The newest compacted table's generation and path, if any.
    pub table: Option<(u32, PathBuf)>,
    /// The logs to read after it, oldest first.
    pub logs: Vec<(u32, PathBuf)>,
    /// Files that a newer table has made redundant.
    pub stale: Vec<PathBuf>,
}

impl StoreFiles {
    /// The highest generation in use (0 if none).
    pub fn newest_generation(&self) -> u32 {
        let table = self.table.as_ref().map_or(0, |t| t.0);
        self.logs.iter().map(|l| l.0).max().unwrap_or(0).max(table)
    }
}

/// `dir/solved-G.rst`.
pub fn table_path(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("solved-{generation:06}.rst"))
}

/// `dir/log-G.rsl`.
pub fn log_path(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("log-{generation:06}.rsl"))
}

fn generation(name: &str, prefix: &str, suffix: &str) -> Option<u32> {
    name.strip_prefix(prefix)?
        .strip_suffix(suffix)?
        .parse()
        .ok()
}

/// Lists a store directory (which must exist).
pub fn scan(dir: &Path) -> Result<StoreFiles, StoreError> {
    let io = |error| StoreError::Io {
        path: dir.display().to_string(),
        error,
    };
    let mut tables = Vec::new();
    let mut logs = Vec::new();
    let mut counts = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(g) = generation(&name, "solved-", ".rst") {
            tables.push((g, entry.path()));
        } else if let Some(g) = generation(&name, "log-", ".rsl") {
            logs.push((g, entry.path()));
        } else if let Some(g) = generation(&name, "log-", ".rsc") {
            counts.push((g, entry.path()));
        }
    }
    tables.sort();
    logs.sort();
    let newest = tables.pop();
    let since = newest.as_ref().map_or(0, |t| t.0);
    let mut files = StoreFiles {
        table: newest,
        ..StoreFiles::default()
    };
    files.stale.extend(tables.into_iter().map(|t| t.1));
    for (g, path) in logs {
        if g < since {
            files.stale.push(log::count_path(&path));
            files.stale.push(path);
        } else {
            files.logs.push((g, path));
        }
    }
    // A count file whose log is gone (removed by a compaction killed
    // before it removed the count file) is stale too.
    for (g, path) in counts {
        if (g < since || !files.logs.iter().any(|l| l.0 == g)) && !files.stale.contains(&path) {
            files.stale.push(path);
        }
    }
    Ok(files)
}

/// Opens a compacted table and checks that it is a store table of `variant`.
pub fn open_table(path: &Path, variant: &str) -> Result<TableReader, StoreError> {
    let reader = TableReader::open(path)?;
    let corrupt = |problem: String| StoreError::Corrupt {
        path: path.display().to_string(),
        problem,
    };
    if reader.kind() != TableKind::Solved {
        return Err(corrupt("not a solved-position store table".into()));
    }
    if reader.variant() != variant {
        return Err(corrupt(format!(
            "a store of {}, not {variant}",
            reader.variant()
        )));
    }
    if reader.value_size() != 8 + super::packed::PACKED_BYTES {
        return Err(corrupt(format!(
            "records of {} bytes (expected {})",
            reader.value_size(),
            8 + super::packed::PACKED_BYTES
        )));
    }
    Ok(reader)
}

/// Writes `records` (one per position) as a store table of `variant` at
/// `path`, atomically: the table [`open_table`] reads.
pub fn write_table<'a>(
    path: &Path,
    variant: &str,
    description: &str,
    records: impl Iterator<Item = &'a Record>,
) -> Result<(), StoreError> {
    write_table_then(path, variant, description, records, || Ok(()))
}

/// [`write_table`], calling `before_rename` just before the new table
/// takes the name `path` (its temporary file written and synced).
pub fn write_table_then<'a>(
    path: &Path,
    variant: &str,
    description: &str,
    records: impl Iterator<Item = &'a Record>,
    before_rename: impl FnOnce() -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let mut writer = TableWriter::new(
        TableKind::Solved,
        variant,
        description,
        8 + super::packed::PACKED_BYTES,
    );
    for record in records {
        if let Some(value) = record.table_value() {
            writer.push(record.key, &value);
        }
    }
    writer.write_then(path, before_rename)
}

/// What reading every file of a store found.
#[derive(Debug, Default)]
pub struct StoreReading {
    /// Records of the compacted table.
    pub table_records: u64,
    /// Records of the logs.
    pub log_records: u64,
    /// Bytes dropped as torn writes at the ends of logs.
    pub torn_bytes: u64,
    /// Records lost from logs beyond a torn write (damage), in all.
    pub lost_records: u64,
    /// Bytes of those records (and of headers cut short).
    pub lost_bytes: u64,
    /// Each damaged log and what is wrong with it.
    pub damaged_logs: Vec<(PathBuf, String)>,
    /// Good records of the newest log (where appends continue).
    pub last_log_records: u64,
}

impl StoreReading {
    /// One line naming each damaged log and what it lost, if any is.
    pub fn damage_report(&self) -> Option<String> {
        if self.damaged_logs.is_empty() {
            return None;
        }
        let logs: Vec<String> = self
            .damaged_logs
            .iter()
            .map(|(path, problem)| format!("{}: {problem}", path.display()))
            .collect();
        let what = if self.lost_records > 0 || self.lost_bytes > 0 {
            format!(
                "{} records ({} bytes) lost from the store's logs beyond a torn write",
                self.lost_records, self.lost_bytes
            )
        } else {
            "damage beside the store's logs".to_string()
        };
        Some(format!(
            "{what}; what remains is sound. {}",
            logs.join("; ")
        ))
    }
}

/// Reads every record of a store directory (table first, then logs in
/// order) into `f`, checking every checksum; damage is an error naming the
/// file and the record or block.
pub fn read_all(
    files: &StoreFiles,
    variant: &str,
    mut f: impl FnMut(Record, &Path, u64) -> Result<(), StoreError>,
) -> Result<StoreReading, StoreError> {
    let mut reading = StoreReading::default();
    if let Some((_, path)) = &files.table {
        let reader = open_table(path, variant)?;
        let mut n = 0u64;
        let mut failure = None;
        reader.for_each_record(|key, value| {
            if failure.is_some() {
                return;
            }
            match Record::from_table(key, value) {
                Some(record) => {
                    if let Err(e) = f(record, path, n) {
                        failure = Some(e);
                    }
                }
                None => {
                    failure = Some(StoreError::Corrupt {
                        path: path.display().to_string(),
                        problem: format!("record {n} (key {key:016x}): not a valid result"),
                    })
                }
            }
            n += 1;
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        reading.table_records = n;
    }
    for (_, path) in &files.logs {
        let contents = log::read(path, variant)?;
        reading.torn_bytes += contents.torn_bytes;
        reading.lost_records += contents.lost_records;
        reading.lost_bytes += contents.lost_bytes;
        if let Some(problem) = contents.damage {
            reading.damaged_logs.push((path.clone(), problem));
        }
        reading.last_log_records = contents.records.len() as u64;
        for (n, record) in contents.records.into_iter().enumerate() {
            f(record, path, n as u64)?;
            reading.log_records += 1;
        }
    }
    Ok(reading)
}

/// One position's records joined (see [`super::Solved::merge`]), with the
/// place of its first record.
#[derive(Clone, Copy, Debug)]
pub struct MergedRecord {
    /// The first record, its value joined with every later one's.
    pub record: Record,
    /// The file of the first record, as an index into [`Merged::files`].
    pub file: u32,
    /// The first record's number in that file.
    pub index: u64,
}

/// Every record of a store, one per position.
#[derive(Debug, Default)]
pub struct Merged {
    /// The positions, by hash.
    pub records: HashMap<u64, MergedRecord>,
    /// The files read, in order.
    pub files: Vec<PathBuf>,
    /// What reading found.
    pub reading: StoreReading,
}

/// Reads every record of a store directory ([`read_all`]) and joins the
/// records of each position.
pub fn read_merged(files: &StoreFiles, variant: &str) -> Result<Merged, StoreError> {
    let mut merged = Merged::default();
    let (records, names) = (&mut merged.records, &mut merged.files);
    merged.reading = read_all(files, variant, |record, path, index| {
        if names.last().is_none_or(|last| last != path) {
            names.push(path.to_path_buf());
        }
        let file = names.len() as u32 - 1;
        records
            .entry(record.key)
            .and_modify(|m| m.record.value = m.record.value.merge(record.value))
            .or_insert(MergedRecord {
                record,
                file,
                index,
            });
        Ok(())
    })?;
    Ok(merged)
}
