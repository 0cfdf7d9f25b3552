//! The on-disk table format shared by stored proofs and tablebases.
//!
//! A table is a sorted list of fixed-size records `(key: u64, value: [u8; N])`,
//! cut into blocks of `block_records` records, each block compressed as an
//! independent zstd frame with its content checksum on. Layout:
//!
//! ```text
//! magic "RANSOMT1"            8 bytes
//! header length               u32 (bytes from here to the end of the block index)
//! format version              u16 (3; versions 1 and 2 are still read)
//! kind                        u8  (1 tablebase, 2 proof)
//! value size                  u8  (bytes per record value)
//! record count                u64
//! records per block           u32
//! zstd level                  i32
//! variant name                u16 length + UTF-8
//! description                 u32 length + UTF-8 (root FEN, material key, JSON…)
//! block count                 u32
//! block index                 per block: offset u64, compressed length u32, first key u64
//! checksum                    u32 CRC-32C of everything above, magic included
//!                             (versions 1 and 2: u64 FNV-1a)
//! blocks                      zstd frames
//! ```
//!
//! A decompressed block (versions 2 and 3) holds every key first, each as
//! its distance from the key before, then every value in the same order;
//! the first key's distance is from 0 in version 3 (the block carries its
//! first key, checked against the block index when the block is read) and
//! from the index's first key in version 2; version 1 interleaved
//! `(key, value)`.
//!
//! All integers are little-endian. The reader checks the magic, the version,
//! the header checksum and every block's bounds when the file is opened, so a
//! corrupt or truncated table is an error at open, never a panic; a block's
//! zstd checksum is checked when the block is read.

mod block;
mod block_cache;
pub(crate) mod checksum;
pub(crate) mod cursor;
mod output;
mod reader;
mod writer;

pub use block_cache::BlockCache;
pub use checksum::fnv1a64;
pub use output::{OutputPathError, check_output_dir, check_output_path};
pub use reader::{CacheCounts, TableReader};
pub use writer::{
    FileIdentity, TableWriter, file_identity, remove_orphan_temporaries, write_atomically,
    write_atomically_then, write_atomically_with,
};

/// The first 8 bytes of every table file.
pub const MAGIC: &[u8; 8] = b"RANSOMT1";
/// The format version this code writes (the newest it reads).
pub const FORMAT_VERSION: u16 = 3;
/// The oldest format version this code reads.
pub const OLDEST_READ_VERSION: u16 = 1;

/// What a table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// An endgame tablebase.
    Tablebase = 1,
    /// A stored proof.
    Proof = 2,
    /// The compacted part of a solved-position store (`crate::solved`).
    Solved = 3,
}

impl TableKind {
    fn from_u8(byte: u8) -> Option<TableKind> {
        match byte {
            1 => Some(TableKind::Tablebase),
            2 => Some(TableKind::Proof),
            3 => Some(TableKind::Solved),
            _ => None,
        }
    }
}

/// A file that cannot be read or written: names the file, its kind where
/// it is not a table, and the problem.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be opened, read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The operating-system error (part of the message, not a source:
        /// a report of the whole chain would print it twice).
        error: std::io::Error,
    },
    /// The file is not a valid table.
    #[error("{path}: corrupt table: {problem}")]
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// A file of the solved-position store that is not a table (a log, a
    /// log's count file, a checkpoint) is damaged.
    #[error("{path}: damaged {kind}: {problem}")]
    Damaged {
        /// The file.
        path: String,
        /// What kind of file it is ("store log", "checkpoint").
        kind: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The store is in use: another process holds its lock.
    #[error(
        "{path}: the store is busy: another ransom process holds its lock (give --wait to wait for it)"
    )]
    Busy {
        /// The store's folder.
        path: String,
    },
    /// A sound file that no longer goes with the files it was written
    /// with (a shard's outer tree whose table changed while it was read).
    #[error("{path}: {problem}")]
    Mismatched {
        /// The file.
        path: String,
        /// Why it does not go with them.
        problem: String,
    },
}

/// An I/O error on `path`, as a [`StoreError`] naming the file.
pub fn io_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> StoreError + '_ {
    move |error| StoreError::Io {
        path: path.display().to_string(),
        error,
    }
}

impl StoreError {
    /// The file the error is about.
    pub fn path(&self) -> &str {
        match self {
            StoreError::Io { path, .. }
            | StoreError::Corrupt { path, .. }
            | StoreError::Damaged { path, .. }
            | StoreError::Busy { path }
            | StoreError::Mismatched { path, .. } => path,
        }
    }

    /// The message without the file's path, for a report that names the
    /// file already.
    pub fn problem(&self) -> String {
        let text = self.to_string();
        text.strip_prefix(self.path())
            .and_then(|rest| rest.strip_prefix(": "))
            .map_or_else(|| text.clone(), str::to_string)
    }
}
