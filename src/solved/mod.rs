//! The solved-position store: every position a search has settled, kept
//! on disk across runs and probed by every search like a tablebase.
//!
//! A store is a directory per rule set (`DIR/antichess/`, `DIR/suicide/`,
//! ...) holding a compacted table in the project's table format
//! (`solved-G.rst`, [`crate::store`]: memory-mapped, zstd blocks, sorted by
//! position hash) and an append-only log of the results added since
//! (`log-G.rsl`, [`log`]). Each record holds the position's hash, what is
//! known (the side to move wins, with the winning move; loses; or one side
//! has no forced win) with the nodes that settled it, and the position
//! itself, packed, so that `ransom store verify` can re-prove every stored
//! win without anything else.
//!
//! **Invariant.** Every stored win or loss has its whole proof in the
//! store: from the position, the stored moves where the winner moves and
//! every move where the loser moves lead only to positions that are stored
//! wins or losses, scored by the rules, or covered by the endgame tables.
//! Searches record a proof's positions children first, and a record reaches
//! the log before any search can see it, so every prefix of the log (what
//! survives a crash) keeps the invariant.
//!
//! When a store is opened, its files are read in full (every checksum
//! checked; a damaged file is refused, naming the file and the record) into
//! an in-memory [`SolvedIndex`] that search threads probe without locks.
//! One process writes a store at a time (a lock file says so).
//!
//! Besides: the shards of batch jobs and their merge ([`shard`],
//! [`merge_shards`], [`batch`] for the job and plan files), the outer
//! trees of unfinished searches kept beside the store (the frame of their
//! files in [`tree_file`], handed between shards and the store by
//! [`adopt`]), and the lock-free [`StoreReader`]. Re-proving a store's
//! records needs the verifier and lives in `search` (`verify_store`).

pub mod adopt;
pub mod batch;
mod compact;
mod files;
mod index;
pub mod log;
mod merge;
pub mod packed;
mod reader;
pub mod shard;
pub mod tree_file;
mod value;

pub use compact::{CompactReport, compact};
pub use files::{Merged, MergedRecord, StoreFiles, StoreReading, read_all, read_merged, scan};
pub use merge::{MergeReport, MergedShards, ShardMerge, merge_shards};

pub use index::{SLOT_BYTES, SolvedIndex};
pub use log::Record;
pub use reader::{Refreshed, StoreReader, StoreUpdate, variants_in};
pub use value::Solved;

use crate::store::{StoreError, io_error};
use crate::variants::Variant;
use log::LogWriter;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where a walk over stored results reads them: a store open for
/// writing, or a [`StoreReader`].
pub trait SolvedLookup {
    /// What is known under the position hash `hash`; where the lookup
    /// keeps positions and `packed` is given, only a record of that very
    /// position.
    fn solved(&self, hash: u64, packed: Option<&packed::Packed>) -> Option<Solved>;
}

impl SolvedLookup for SolvedStore {
    fn solved(&self, hash: u64, _: Option<&packed::Packed>) -> Option<Solved> {
        // The in-memory index keeps no positions: the verifier checks
        // whatever a walk over it finds.
        self.get(hash)
    }
}

impl SolvedLookup for StoreReader {
    fn solved(&self, hash: u64, packed: Option<&packed::Packed>) -> Option<Solved> {
        self.lookup_checked(hash, packed)
    }
}

/// The error for a rule set's store folder `dir` that does not exist.
fn no_store_here(dir: &Path) -> StoreError {
    StoreError::Io {
        path: dir.display().to_string(),
        error: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no store of this rule set here",
        ),
    }
}

/// The default store directory.
pub const DEFAULT_DIR: &str = "proofs/store";

/// The directory of `variant`'s store under a store root.
pub fn variant_dir(root: &Path, variant: Variant) -> PathBuf {
    root.join(variant.name())
}

/// Where a store's new records go.
enum Sink {
    /// Nowhere (a store in memory only).
    Nothing,
    /// The store's log on disk.
    Log(LogWriter),
    /// A list kept in memory, written out as one shard at the end
    /// ([`SolvedStore::for_job`]).
    Collect(Vec<Record>),
}

impl Sink {
    fn writer(&mut self) -> Option<&mut LogWriter> {
        match self {
            Sink::Log(writer) => Some(writer),
            _ => None,
        }
    }
}

/// An open store: its in-memory index and, unless it lives in memory only,
/// the log that new results are appended to.
pub struct SolvedStore {
    variant: Variant,
    dir: Option<PathBuf>,
    index: SolvedIndex,
    log: Mutex<Sink>,
    _lock: Option<std::fs::File>,
    began_with: usize,
    added: AtomicU64,
    reading: StoreReading,
    /// Where the searches over the store resume and write their
    /// checkpoints (none for a store in memory).
    checkpoints: Option<PathBuf>,
}

/// The folder of a store's rule set that holds the checkpoints of the
/// searches over it ([`tree_file`]), one file a search.
pub const CHECKPOINTS_DIR: &str = "checkpoints";

/// Takes the store directory's lock: exclusive for writers, shared for
/// readers. A store in use is refused ([`StoreError::Busy`]), or with
/// `wait` waited for.
pub fn lock(dir: &Path, exclusive: bool, wait: bool) -> Result<std::fs::File, StoreError> {
    let path = dir.join("lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_error(&path))?;
    if wait {
        let taken = if exclusive {
            file.lock()
        } else {
            file.lock_shared()
        };
        return taken.map(|()| file).map_err(io_error(&path));
    }
    let taken = if exclusive {
        file.try_lock()
    } else {
        file.try_lock_shared()
    };
    match taken {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Busy {
            path: dir.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(error)) => Err(io_error(&path)(error)),
    }
}

/// The file in a store's rule-set folder holding its identity.
pub const STORE_ID_FILE: &str = "store-id";

/// The identity of the store in `dir` (one rule set's folder), if it has
/// one ([`ensure_store_id`]).
pub fn store_id(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(STORE_ID_FILE)).ok()?;
    let id = text.trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// The identity of the store in `dir`, made (a random 64-bit number, in
/// hex) if it has none: a plan records it, so that its shards merge only
/// into the store it was made over. A copy of the store keeps it.
pub fn ensure_store_id(dir: &Path) -> Result<String, StoreError> {
    if let Some(id) = store_id(dir) {
        return Ok(id);
    }
    use std::hash::BuildHasher;
    let random = std::collections::hash_map::RandomState::new().hash_one((
        std::process::id(),
        std::time::SystemTime::now(),
        dir,
    ));
    let id = format!("{random:016x}");
    crate::store::write_atomically(&dir.join(STORE_ID_FILE), format!("{id}\n").as_bytes())?;
    Ok(id)
}

/// Removes what writers killed before they finished left in the store
/// folder `dir` and its checkpoints: temporary files of processes no
/// longer running ([`crate::store::remove_orphan_temporaries`]). Call it
/// holding the store's exclusive lock. Returns how many were removed.
pub fn remove_leftovers(dir: &Path) -> usize {
    crate::store::remove_orphan_temporaries(dir).len()
        + crate::store::remove_orphan_temporaries(&dir.join(CHECKPOINTS_DIR)).len()
}

impl SolvedStore {
    /// Opens (or creates) `variant`'s store under `root` for writing, with
    /// an index of about `memory_bytes` (more if the store already holds
    /// more). Every file is read and checked.
    /// With `wait`, a store another process is writing is waited for
    /// instead of refused.
    pub fn open(
        root: &Path,
        variant: Variant,
        memory_bytes: usize,
        wait: bool,
    ) -> Result<SolvedStore, StoreError> {
        let dir = variant_dir(root, variant);
        if root.is_file() {
            return Err(StoreError::Io {
                path: root.display().to_string(),
                error: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "is a file, not a store directory",
                ),
            });
        }
        std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        let lock = lock(&dir, true, wait)?;
        remove_leftovers(&dir);
        let files = scan(&dir)?;
        let (index, reading) = read_index(&files, variant, memory_bytes)?;
        for stale in &files.stale {
            let _ = std::fs::remove_file(stale);
        }
        let generation = files.newest_generation().max(1);
        let log_records = match files.logs.last() {
            Some((g, _)) if *g == generation => reading.last_log_records,
            _ => 0,
        };
        let writer = LogWriter::open(
            &files::log_path(&dir, generation),
            variant.name(),
            log_records,
        )?;
        let checkpoints = Some(dir.join(CHECKPOINTS_DIR));
        Ok(SolvedStore {
            variant,
            began_with: index.len(),
            dir: Some(dir),
            index,
            log: Mutex::new(Sink::Log(writer)),
            _lock: Some(lock),
            added: AtomicU64::new(0),
            reading,
            checkpoints,
        })
    }

    /// A store kept in memory only (`prove --no-store`): searches share
    /// their results through it, and nothing is written.
    pub fn in_memory(variant: Variant, memory_bytes: usize) -> SolvedStore {
        SolvedStore {
            variant,
            dir: None,
            index: SolvedIndex::with_capacity(slots_for(memory_bytes)),
            log: Mutex::new(Sink::Nothing),
            _lock: None,
            began_with: 0,
            added: AtomicU64::new(0),
            reading: StoreReading::default(),
            checkpoints: None,
        }
    }

    /// The store of one batch job (`prove --job`): it starts with what the
    /// store under `base` holds (read, not written: a shared lock is taken
    /// while reading), and keeps every record added in memory, for
    /// [`SolvedStore::take_added`] to hand to [`shard::write_shard`].
    /// With `tree` (a checkpoint's file name and a folder), the store's
    /// checkpoint of that name is copied into the folder under the same
    /// lock (so that it never counts as settled a position the job's
    /// store lacks), and the job's search resumes and writes its
    /// checkpoint there.
    /// With `wait`, a store another process is writing is waited for.
    pub fn for_job(
        base: Option<&Path>,
        variant: Variant,
        memory_bytes: usize,
        tree: Option<(&str, &Path)>,
        wait: bool,
    ) -> Result<SolvedStore, StoreError> {
        let (index, reading) = match base {
            Some(root) => {
                let dir = variant_dir(root, variant);
                if !dir.is_dir() {
                    return Err(no_store_here(&dir));
                }
                let _shared = lock(&dir, false, wait)?;
                let read = read_index(&scan(&dir)?, variant, memory_bytes)?;
                if let Some((name, folder)) = tree {
                    adopt::stage_from_store(&dir.join(CHECKPOINTS_DIR), name, folder)?;
                }
                read
            }
            None => (
                SolvedIndex::with_capacity(slots_for(memory_bytes)),
                StoreReading::default(),
            ),
        };
        Ok(SolvedStore {
            variant,
            dir: None,
            began_with: index.len(),
            index,
            log: Mutex::new(Sink::Collect(Vec::new())),
            _lock: None,
            added: AtomicU64::new(0),
            reading,
            checkpoints: tree.map(|(_, folder)| folder.to_path_buf()),
        })
    }

    /// The folder a search over this store resumes and writes its
    /// checkpoint in: the store's own, or a job's folder given to
    /// [`SolvedStore::for_job`]; none for a store in memory.
    pub fn checkpoints(&self) -> Option<&Path> {
        self.checkpoints.as_deref()
    }

    /// The records added since the store was made (a job's store), taken
    /// out; empty for other stores.
    pub fn take_added(&self) -> Vec<Record> {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        match &mut *log {
            Sink::Collect(list) => std::mem::take(list),
            _ => Vec::new(),
        }
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The store's directory (`None` in memory).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// What is known about the position with this hash.
    pub fn get(&self, hash: u64) -> Option<Solved> {
        self.index.get(hash)
    }

    /// Positions held in memory now.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Positions the store held when it was opened.
    pub fn began_with(&self) -> usize {
        self.began_with
    }

    /// Records added by this process.
    pub fn added(&self) -> u64 {
        self.added.load(Ordering::Relaxed)
    }

    /// Positions the in-memory index could not take (it was full); they
    /// are on disk and are read by the next run.
    pub fn refused(&self) -> usize {
        self.index.refused()
    }

    /// What opening the store read.
    pub fn reading(&self) -> &StoreReading {
        &self.reading
    }

    /// Adds records: first to the log, then to the index, so that no
    /// search sees a result that a crash could lose while keeping records
    /// that rest on it. Records must come children first.
    pub fn record(&self, records: &[Record]) -> Result<(), StoreError> {
        if records.is_empty() {
            return Ok(());
        }
        {
            let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            match &mut *log {
                Sink::Nothing => {}
                Sink::Log(writer) => {
                    for record in records {
                        writer.push(record);
                    }
                    if writer.pending_bytes() >= 8 << 20 {
                        writer.flush()?;
                    }
                }
                Sink::Collect(list) => list.extend_from_slice(records),
            }
        }
        for record in records {
            self.index.insert(record.key, record.value);
        }
        self.added
            .fetch_add(records.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    /// Writes and syncs the records added so far.
    pub fn flush(&self) -> Result<(), StoreError> {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        match log.writer() {
            Some(writer) => writer.flush(),
            None => Ok(()),
        }
    }

    /// Bytes the store's files take on disk.
    pub fn disk_bytes(&self) -> u64 {
        self.dir.as_deref().map_or(0, disk_bytes)
    }

    /// Records in the current log (written or queued).
    pub fn log_records(&self) -> u64 {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.writer().map_or(0, |w| w.records())
    }

    /// Flushes, then folds the log into a new compacted table (the lock
    /// stays held). Appends go on in a fresh log.
    pub fn compact(&self) -> Result<CompactReport, StoreError> {
        let Some(dir) = &self.dir else {
            return Ok(CompactReport::default());
        };
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(writer) = log.writer() {
            writer.flush()?;
        }
        let report = compact::compact_locked(dir, self.variant)?;
        *log = Sink::Log(LogWriter::open(
            &files::log_path(dir, report.generation),
            self.variant.name(),
            0,
        )?);
        Ok(report)
    }
}

impl Drop for SolvedStore {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// The positions an index in `memory_bytes` is made for: 7/8 of the
/// slots that memory buys.
fn slots_for(memory_bytes: usize) -> usize {
    memory_bytes / SLOT_BYTES / 8 * 7
}

/// Reads every record of a store's files into a new index of about
/// `memory_bytes` (more if the files hold more).
fn read_index(
    files: &StoreFiles,
    variant: Variant,
    memory_bytes: usize,
) -> Result<(SolvedIndex, StoreReading), StoreError> {
    let mut records = Vec::new();
    let reading = read_all(files, variant.name(), |record, _, _| {
        records.push((record.key, record.value));
        Ok(())
    })?;
    let index =
        SolvedIndex::with_capacity(slots_for(memory_bytes).max(records.len() * 3 / 2 + (1 << 20)));
    for (key, value) in records {
        index.insert(key, value);
    }
    Ok((index, reading))
}

/// Bytes of the store files in `dir`.
pub fn disk_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
