//! [`StoreReader`]: a store read by another process while its writer runs.
//!
//! A search writing a store holds the store's lock; a reader (the service,
//! `ransom store show`) takes none, so that it never stops a `prove` from
//! opening the store, and never blocks one. It memory-maps the compacted
//! table (compaction writes a new file and renames it, so an open map is
//! never changed under it) and reads the logs into memory.
//! [`StoreReader::refresh`] picks up what the writer has synced since:
//! the records its logs gained, or a whole new table after a compaction.
//!
//! A log being appended to may end in a record written half-way: reading
//! drops it as a torn write, and the next refresh reads it whole. Each
//! lookup compares the record's packed position with the position asked
//! about, so a result is only ever given for the very position it was
//! proved for.

use super::files::{open_table, scan};
use super::log::{self, Record};
use super::packed::{Packed, pack};
use super::value::Solved;
use crate::position::Position;
use crate::store::{BlockCache, StoreError, TableReader};
use crate::variants::Variant;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How often a read that found a file gone (removed by a compaction
/// between listing the folder and reading it) is tried again.
const READ_ATTEMPTS: usize = 5;

/// A read-only view of one rule set's store, taken without the lock.
pub struct StoreReader {
    variant: Variant,
    dir: PathBuf,
    /// The compacted table, its generation and records.
    table: Option<(u32, TableReader)>,
    /// The logs read, with the records read from each.
    logs: Vec<(u32, u64)>,
    /// Every log record, joined per position.
    recent: HashMap<u64, (Solved, Packed)>,
    /// Decompressed blocks of the table, shared with other readers.
    cache: Option<Arc<BlockCache>>,
    /// The damage the last refresh found.
    problems: Vec<String>,
}

/// What a store's files hold beyond what a reader has read
/// ([`StoreReader::read_update`]).
pub struct StoreUpdate {
    /// A new compacted table (or none left), when it changed.
    table: Option<Option<(u32, TableReader)>>,
    /// Every log with the records read from it before, and those new.
    logs: Vec<(u32, u64, Vec<Record>)>,
    /// Damage found in the logs, each naming its file.
    problems: Vec<String>,
}

impl StoreUpdate {
    /// Whether there is nothing new.
    pub fn is_empty(&self) -> bool {
        self.table.is_none() && self.logs.iter().all(|l| l.2.is_empty()) && self.problems.is_empty()
    }
}

/// What a [`StoreReader::refresh`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// A new compacted table was opened (the logs read again).
    pub new_table: bool,
    /// Log records read (all of them again when `new_table`).
    pub records: u64,
    /// Damage found in the logs (records lost beyond a torn write), each
    /// naming its file: what remains is served.
    pub problems: Vec<String>,
}

impl StoreReader {
    /// Opens `variant`'s store under `root` for reading: an error if there
    /// is none or a file of it is damaged.
    pub fn open(root: &Path, variant: Variant) -> Result<StoreReader, StoreError> {
        Self::open_with_cache(root, variant, None)
    }

    /// [`StoreReader::open`], keeping the table's decompressed blocks in
    /// `cache` (shared with other readers) instead of the table's own few:
    /// lookups scattered over a large store then decompress each block
    /// once.
    pub fn open_with_cache(
        root: &Path,
        variant: Variant,
        cache: Option<Arc<BlockCache>>,
    ) -> Result<StoreReader, StoreError> {
        let dir = super::variant_dir(root, variant);
        if !dir.is_dir() {
            return Err(super::no_store_here(&dir));
        }
        let mut reader = StoreReader {
            variant,
            dir,
            table: None,
            logs: Vec::new(),
            recent: HashMap::new(),
            cache,
            problems: Vec::new(),
        };
        reader.refresh()?;
        Ok(reader)
    }

    /// The damage the last refresh found in the logs (records lost
    /// beyond a torn write), each naming its file.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The store's folder of this rule set.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Positions known: the table's records plus those of the logs (a
    /// position in both counts twice).
    pub fn len(&self) -> u64 {
        self.table.as_ref().map_or(0, |t| t.1.len()) + self.recent.len() as u64
    }

    /// Whether the store holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads what was synced since the last read: new log records, or
    /// everything again when a compaction has written a new table.
    pub fn refresh(&mut self) -> Result<Refreshed, StoreError> {
        let update = self.read_update()?;
        Ok(self.apply(update))
    }

    /// What the store's files hold that this reader has not read yet,
    /// read without changing the reader (so that lookups can go on while
    /// it reads); [`StoreReader::apply`] takes it in.
    pub fn read_update(&self) -> Result<StoreUpdate, StoreError> {
        let mut last = None;
        for _ in 0..READ_ATTEMPTS {
            match self.read_update_once() {
                Err(StoreError::Io { error, .. })
                    if error.kind() == std::io::ErrorKind::NotFound =>
                {
                    // A compaction removed a file between the listing and
                    // the read: list again.
                    last = Some(error);
                }
                other => return other,
            }
        }
        Err(StoreError::Io {
            path: self.dir.display().to_string(),
            error: last.unwrap_or_else(|| std::io::Error::other("store files kept changing")),
        })
    }

    fn read_update_once(&self) -> Result<StoreUpdate, StoreError> {
        let files = scan(&self.dir)?;
        let generation = files.table.as_ref().map(|t| t.0);
        let table = if generation == self.table.as_ref().map(|t| t.0) {
            None
        } else {
            Some(match &files.table {
                Some((generation, path)) => {
                    let table = open_table(path, self.variant.name())?;
                    let table = match &self.cache {
                        Some(cache) => table.with_shared_cache(Arc::clone(cache)),
                        None => table,
                    };
                    Some((*generation, table))
                }
                None => None,
            })
        };
        let mut logs = Vec::new();
        let mut problems = Vec::new();
        for (generation, path) in &files.logs {
            let seen = self
                .logs
                .iter()
                .find(|l| l.0 == *generation)
                .map(|l| l.1)
                .filter(|_| table.is_none());
            let records = match seen {
                // Only what was appended since: a log only grows.
                Some(seen) => log::read_after(path, self.variant.name(), seen)?,
                None => {
                    let contents = log::read(path, self.variant.name())?;
                    if let Some(damage) = contents.damage {
                        problems.push(format!("{}: {damage}", path.display()));
                    }
                    contents.records
                }
            };
            logs.push((*generation, seen.unwrap_or(0), records));
        }
        Ok(StoreUpdate {
            table,
            logs,
            problems,
        })
    }

    /// Takes in what [`StoreReader::read_update`] read.
    pub fn apply(&mut self, update: StoreUpdate) -> Refreshed {
        let mut refreshed = Refreshed::default();
        if let Some(table) = update.table {
            self.table = table;
            self.recent.clear();
            refreshed.new_table = true;
        }
        self.logs.clear();
        for (generation, before, records) in update.logs {
            refreshed.records += records.len() as u64;
            let read = before + records.len() as u64;
            for record in records {
                self.add(record);
            }
            self.logs.push((generation, read));
        }
        refreshed.problems = update.problems;
        self.problems.clone_from(&refreshed.problems);
        refreshed
    }

    fn add(&mut self, record: Record) {
        let Some(position) = record.position else {
            return;
        };
        self.recent
            .entry(record.key)
            .and_modify(|(value, packed)| {
                if *packed == position {
                    *value = value.merge(record.value);
                }
            })
            .or_insert((record.value, position));
    }

    /// What the store knows about `pos`: `None` when nothing, or when the
    /// record under its hash belongs to another position.
    pub fn lookup<P: Position>(&self, pos: &P) -> Option<Solved> {
        if P::VARIANT != self.variant {
            return None;
        }
        let packed = pack(pos)?;
        self.lookup_packed(pos.zobrist(), &packed)
    }

    /// What the store knows about the position packed as `packed` whose
    /// hash is `key`.
    pub fn lookup_packed(&self, key: u64, packed: &Packed) -> Option<Solved> {
        self.lookup_checked(key, Some(packed))
    }

    /// What the store knows under `key`, whatever position it belongs to
    /// (for walks that play moves and let the verifier check the result).
    pub fn lookup_key(&self, key: u64) -> Option<Solved> {
        self.lookup_checked(key, None)
    }

    /// The table's and the logs' records under `key`, joined; with
    /// `packed`, only those of that very position.
    pub(super) fn lookup_checked(&self, key: u64, packed: Option<&Packed>) -> Option<Solved> {
        let belongs = |position: Option<&Packed>| packed.is_none_or(|p| position == Some(p));
        let from_table = self.table.as_ref().and_then(|(_, table)| {
            table
                .with_value(key, |bytes| Record::from_table(key, bytes))
                .ok()
                .flatten()
                .flatten()
                .filter(|record| belongs(record.position.as_ref()))
                .map(|record| record.value)
        });
        let from_logs = self
            .recent
            .get(&key)
            .filter(|(_, position)| belongs(Some(position)))
            .map(|(value, _)| *value);
        joined(from_table, from_logs)
    }

    /// The files a refresh read last: the table's generation and the
    /// logs' generations with the records read from each.
    pub fn files(&self) -> (Option<u32>, &[(u32, u64)]) {
        (self.table.as_ref().map(|t| t.0), &self.logs)
    }
}

/// The rule sets with a store folder under `root`.
pub fn variants_in(root: &Path) -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|&v| super::variant_dir(root, v).is_dir())
        .collect()
}

/// A table's value joined with the logs' (the table's is the earlier), or
/// `None` when neither knows anything or the two contradict each other.
fn joined(table: Option<Solved>, logs: Option<Solved>) -> Option<Solved> {
    let value = match (table, logs) {
        (Some(table), Some(logs)) => table.merge(logs),
        (one, other) => one.or(other)?,
    };
    (!value.is_contradictory()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::notation::parse_move;
    use crate::solved::SolvedStore;
    use crate::variants::Antichess;

    fn after(moves: &[&str]) -> Antichess {
        let mut pos = Antichess::start();
        for text in moves {
            let m = parse_move(&pos, text).expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    fn record(pos: &Antichess, value: Solved) -> Record {
        Record {
            key: pos.zobrist(),
            value,
            position: pack(pos),
        }
    }

    /// A reader sees what a writer holding the lock syncs, at each
    /// refresh: new log records, then a compaction's new table; a record
    /// under a position's hash that belongs to another position is never
    /// given for it.
    #[test]
    fn a_reader_follows_a_writer() {
        let root = std::env::temp_dir().join(format!("ransom-reader-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let writer = SolvedStore::open(&root, Variant::Antichess, 1 << 20, false).unwrap();
        let (e4, d4, e3) = (after(&["e4"]), after(&["d4"]), after(&["e3"]));
        let b5 = parse_move(&e4, "b5").unwrap();
        writer.record(&[record(&e4, Solved::win(b5, 10))]).unwrap();
        writer.flush().unwrap();

        let mut reader = StoreReader::open(&root, Variant::Antichess).unwrap();
        assert_eq!(reader.lookup(&e4).map(|s| s.size()), Some(10));
        assert!(reader.lookup(&e4).unwrap().is_win());
        assert_eq!(reader.lookup(&d4), None);

        writer
            .record(&[record(&d4, Solved::no_win_for(Color::White, 7))])
            .unwrap();
        assert_eq!(reader.lookup(&d4), None, "not synced, not refreshed");
        writer.flush().unwrap();
        let refreshed = reader.refresh().unwrap();
        assert!(!refreshed.new_table);
        assert!(reader.lookup(&d4).unwrap().no_win(Color::White));
        assert_eq!(reader.refresh().unwrap(), Refreshed::default());

        writer.compact().unwrap();
        writer.record(&[record(&e3, Solved::loss(3))]).unwrap();
        writer.flush().unwrap();
        assert!(reader.refresh().unwrap().new_table);
        assert!(reader.lookup(&e4).unwrap().is_win(), "from the new table");
        assert!(reader.lookup(&e3).unwrap().is_loss(), "from the new log");
        assert_eq!(reader.len(), 3);

        // A record filed under e4's hash but holding d4's position.
        let mut stray = record(&d4, Solved::loss(1));
        stray.key = e4.zobrist();
        let mut other = StoreReader::open(&root, Variant::Antichess).unwrap();
        other.add(stray);
        assert!(
            other.lookup(&e4).unwrap().is_win(),
            "the table's own record"
        );
        other.table = None;
        assert_eq!(other.lookup(&e4), None, "never another position's record");
        assert!(other.lookup_key(e4.zobrist()).unwrap().is_loss());
        drop(writer);
        let _ = std::fs::remove_dir_all(&root);
    }

    /// No store folder: a clear error naming it.
    #[test]
    fn a_missing_store_is_named() {
        let root = std::env::temp_dir().join(format!("ransom-reader-none-{}", std::process::id()));
        let error = StoreReader::open(&root, Variant::Antichess)
            .err()
            .expect("no store");
        assert!(error.to_string().contains("no store of this rule set here"));
    }
}
