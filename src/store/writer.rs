//! Writing tables: records in, compressed blocks out, atomically.

use super::checksum::{header_sum, header_sum_len};
use super::{FORMAT_VERSION, MAGIC, OLDEST_READ_VERSION, StoreError, TableKind};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Collects records and writes them as a table.
pub struct TableWriter {
    kind: TableKind,
    variant: String,
    description: String,
    value_size: usize,
    records_per_block: u32,
    zstd_level: i32,
    version: u16,
    records: Vec<(u64, Vec<u8>)>,
}

impl TableWriter {
    /// A writer for records whose values are `value_size` bytes.
    pub fn new(kind: TableKind, variant: &str, description: &str, value_size: usize) -> Self {
        assert!(
            (1..=255).contains(&value_size),
            "value size from 1 to 255 bytes"
        );
        TableWriter {
            kind,
            variant: variant.to_string(),
            description: description.to_string(),
            value_size,
            records_per_block: 4096,
            zstd_level: 9,
            version: FORMAT_VERSION,
            records: Vec::new(),
        }
    }

    /// Sets how many records go in one block (default 4096).
    pub fn records_per_block(mut self, n: u32) -> Self {
        self.records_per_block = n.max(1);
        self
    }

    /// Sets the zstd compression level (default 9).
    pub fn zstd_level(mut self, level: i32) -> Self {
        self.zstd_level = level;
        self
    }

    /// Writes an older format version (1: keys and values interleaved in a
    /// block; 2: FNV-1a header checksum, a block's first key not stored in
    /// the block), for checking that readers still read it. Panics on a
    /// version this code cannot write.
    pub fn format_version(mut self, version: u16) -> Self {
        assert!(
            (OLDEST_READ_VERSION..=FORMAT_VERSION).contains(&version),
            "format version {version} cannot be written"
        );
        self.version = version;
        self
    }

    /// Adds a record. Keys must be unique; order does not matter.
    pub fn push(&mut self, key: u64, value: &[u8]) {
        assert_eq!(value.len(), self.value_size, "record value size");
        self.records.push((key, value.to_vec()));
    }

    /// Number of records added so far.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no record was added.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Encodes the whole table.
    pub fn to_bytes(mut self) -> Result<Vec<u8>, std::io::Error> {
        self.records.sort_by_key(|r| r.0);
        self.records.dedup_by_key(|r| r.0);
        let per_block = self.records_per_block as usize;
        // Blocks are compressed independently, so in parallel; the output
        // does not depend on the number of threads.
        let blocks: Vec<(u64, Vec<u8>)> = self
            .records
            .par_chunks(per_block)
            .map(|chunk| -> Result<(u64, Vec<u8>), std::io::Error> {
                // Keys first, each as its distance from the key before
                // (the first from 0 from version 3, so the block carries
                // its own first key; from itself in version 2), then the
                // values: consecutive keys become a run of equal bytes.
                let mut raw = Vec::with_capacity(chunk.len() * (8 + self.value_size));
                if self.version == 1 {
                    for (key, value) in chunk {
                        raw.extend_from_slice(&key.to_le_bytes());
                        raw.extend_from_slice(value);
                    }
                } else {
                    let mut previous = if self.version >= 3 { 0 } else { chunk[0].0 };
                    for (key, _) in chunk {
                        raw.extend_from_slice(&(key - previous).to_le_bytes());
                        previous = *key;
                    }
                    for (_, value) in chunk {
                        raw.extend_from_slice(value);
                    }
                }
                let mut compressor = zstd::bulk::Compressor::new(self.zstd_level)?;
                compressor.include_checksum(true)?;
                Ok((chunk[0].0, compressor.compress(&raw)?))
            })
            .collect::<Result<_, _>>()?;

        let mut head = Vec::new();
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&0u32.to_le_bytes()); // header length, patched below
        head.extend_from_slice(&self.version.to_le_bytes());
        head.push(self.kind as u8);
        head.push(self.value_size as u8);
        head.extend_from_slice(&(self.records.len() as u64).to_le_bytes());
        head.extend_from_slice(&self.records_per_block.to_le_bytes());
        head.extend_from_slice(&self.zstd_level.to_le_bytes());
        head.extend_from_slice(&(self.variant.len() as u16).to_le_bytes());
        head.extend_from_slice(self.variant.as_bytes());
        head.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        head.extend_from_slice(self.description.as_bytes());
        head.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
        let index_len = blocks.len() * 20;
        let data_start = (head.len() + index_len + header_sum_len(self.version)) as u64;
        let mut offset = data_start;
        for (first_key, frame) in &blocks {
            head.extend_from_slice(&offset.to_le_bytes());
            head.extend_from_slice(&(frame.len() as u32).to_le_bytes());
            head.extend_from_slice(&first_key.to_le_bytes());
            offset += frame.len() as u64;
        }
        let header_len = (head.len() - 12) as u32;
        head[8..12].copy_from_slice(&header_len.to_le_bytes());
        let checksum = header_sum(self.version, &head);
        head.extend_from_slice(&checksum);
        for (_, frame) in blocks {
            head.extend_from_slice(&frame);
        }
        Ok(head)
    }

    /// Writes the table to `path` atomically (temporary file, then rename).
    pub fn write(self, path: &Path) -> Result<(), StoreError> {
        self.write_then(path, || Ok(()))
    }

    /// [`TableWriter::write`], calling `before_rename` once the table is
    /// built and its temporary file written, just before the rename
    /// ([`write_atomically_then`]).
    pub fn write_then(
        self,
        path: &Path,
        before_rename: impl FnOnce() -> std::io::Result<()>,
    ) -> Result<(), StoreError> {
        let bytes = self.to_bytes().map_err(|error| StoreError::Io {
            path: path.display().to_string(),
            error,
        })?;
        write_atomically_then(path, |file| file.write_all(&bytes), before_rename)
    }
}

/// Writes `bytes` to `path` so that a crash never leaves a half-written
/// file under that name: into a temporary file of a name no other writer
/// uses (`.NAME.PID-N.tmp`, in the same folder), synced, then renamed over
/// `path`. A symlink is followed: the file it names is replaced, the link
/// stays. A target that exists and is not a regular file (a device such as
/// `/dev/null`, a FIFO) is written to directly, never replaced; a
/// directory is an error.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// [`write_atomically`], the bytes written by `write` to the file (for
/// content too large to gather in memory first); a leftover temporary
/// file of a killed writer is named `.NAME.*.tmp` beside `path`.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    write_atomically_then(path, write, || Ok(()))
}

/// [`write_atomically_with`], calling `before_rename` once the temporary
/// file is written and synced, just before it is renamed over `path`: a
/// step that must come after the long part of the write and before the
/// new file appears (removing what belonged with the old file). If it
/// fails, the temporary file is removed and `path` is left as it was.
pub fn write_atomically_then(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
    before_rename: impl FnOnce() -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let io = |error| StoreError::Io {
        path: path.display().to_string(),
        error,
    };
    let target = follow_links(path).map_err(io)?;
    if let Ok(meta) = std::fs::metadata(&target) {
        if meta.is_dir() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory, not a file to write",
            )));
        }
        if !meta.is_file() {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(io)?;
            write(&mut file).map_err(io)?;
            return before_rename().map_err(io);
        }
    }
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    // Room for the dot, the process and the count within 255 bytes.
    let name: String = name
        .char_indices()
        .take_while(|(i, c)| i + c.len_utf8() <= 200)
        .map(|(_, c)| c)
        .collect();
    let tmp = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        before_rename()?;
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io)
}

/// What tells one version of a file from another without reading it: its
/// length, modification time (ns) and inode. An atomic rewrite
/// ([`write_atomically`]) makes a new inode, so even a rewrite of the same
/// length within the clock's resolution changes the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileIdentity {
    /// Bytes.
    pub len: u64,
    /// Modification time, ns since the Unix epoch.
    pub modified: u128,
    /// The inode (0 where the system has none).
    pub inode: u64,
}

/// The identity of the file at `path`; `None` if it cannot be read.
pub fn file_identity(path: &Path) -> Option<FileIdentity> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(FileIdentity {
        len: meta.len(),
        modified,
        inode,
    })
}

/// Removes the temporary files `.NAME.PID-N.tmp` in `dir` that
/// [`write_atomically`] left behind in a process that was killed before it
/// renamed them: those of processes no longer running (where the system
/// tells, as Linux's `/proc` does; elsewhere none is removed). Call it
/// while holding the lock of whatever writes in `dir`. Returns the files
/// removed.
pub fn remove_orphan_temporaries(dir: &Path) -> Vec<std::path::PathBuf> {
    let proc_known = Path::new("/proc/self").exists();
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = temporary_owner(&name) else {
            continue;
        };
        let alive = !proc_known
            || pid == std::process::id()
            || Path::new("/proc").join(pid.to_string()).exists();
        if !alive && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed
}

/// The process that wrote the temporary file `name` (`.NAME.PID-N.tmp`),
/// if it is one.
pub fn temporary_owner(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = inner.rsplit_once('.')?;
    let (pid, count) = tail.split_once('-')?;
    count.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// `path` with symlinks followed (up to 40 of them) to the name of the
/// file itself, which need not exist yet.
fn follow_links(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}
