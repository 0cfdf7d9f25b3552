//! The append-only log of results added since the last compaction.
//!
//! ```text
//! header   32 bytes: magic "RANSOMLG", version u16 (1), record size u16 (48),
//!          variant name (16 bytes, zero-padded), CRC-32C u32 of the 28 bytes before
//! records  48 bytes each: key u64, value u64, packed position (28 bytes),
//!          CRC-32C u32 of the 44 bytes before
//! ```
//!
//! Records are appended in batches and each batch is synced before the
//! outer search's checkpoint that depends on it is written. A process
//! killed while appending leaves at most a torn tail: an incomplete last
//! record, or records at the end whose checksums fail. Those are dropped
//! (and cut off before the next append). A record whose checksum fails
//! with good records after it is damage, not a torn write: the log is
//! refused, naming the file and the record.

use super::packed::{PACKED_BYTES, Packed};
use super::value::Solved;
use crate::store::StoreError;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"RANSOMLG";
const VERSION: u16 = 1;
/// Bytes of the log header.
pub const HEADER_BYTES: u64 = 32;
/// Bytes of one log record.
pub const RECORD_BYTES: usize = 8 + 8 + PACKED_BYTES + 4;

/// One stored result with the position it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's zobrist hash.
    pub key: u64,
    /// What is known about it.
    pub value: Solved,
    /// The position itself; `None` where it has no packed form (an
    /// in-memory store keeps such results for its run; they are never
    /// written to disk, where every record must be re-provable).
    pub position: Option<Packed>,
}

impl Record {
    /// The record as log bytes (`None` without a packed position).
    fn encode(&self) -> Option<[u8; RECORD_BYTES]> {
        let position = self.position?;
        let mut out = [0u8; RECORD_BYTES];
        out[..8].copy_from_slice(&self.key.to_le_bytes());
        out[8..16].copy_from_slice(&self.value.bits().to_le_bytes());
        out[16..16 + PACKED_BYTES].copy_from_slice(&position);
        let sum = crc32c::crc32c(&out[..RECORD_BYTES - 4]);
        out[RECORD_BYTES - 4..].copy_from_slice(&sum.to_le_bytes());
        Some(out)
    }

    fn decode(bytes: &[u8]) -> Option<Record> {
        let (body, sum) = bytes.split_at(RECORD_BYTES - 4);
        if crc32c::crc32c(body).to_le_bytes() != sum {
            return None;
        }
        let word = |r: std::ops::Range<usize>| u64::from_le_bytes(body[r].try_into().expect("8"));
        Some(Record {
            key: word(0..8),
            value: Solved::from_bits(word(8..16))?,
            position: Some(body[16..16 + PACKED_BYTES].try_into().expect("packed")),
        })
    }

    /// The record as a table value: the value's bits, then the position
    /// (`None` without a packed position).
    pub fn table_value(&self) -> Option<[u8; 8 + PACKED_BYTES]> {
        let position = self.position?;
        let mut out = [0u8; 8 + PACKED_BYTES];
        out[..8].copy_from_slice(&self.value.bits().to_le_bytes());
        out[8..].copy_from_slice(&position);
        Some(out)
    }

    /// A record read back from a table's `(key, value)`.
    pub fn from_table(key: u64, value: &[u8]) -> Option<Record> {
        if value.len() != 8 + PACKED_BYTES {
            return None;
        }
        Some(Record {
            key,
            value: Solved::from_bits(u64::from_le_bytes(value[..8].try_into().ok()?))?,
            position: Some(value[8..].try_into().ok()?),
        })
    }
}

fn header(variant: &str) -> [u8; HEADER_BYTES as usize] {
    let mut out = [0u8; HEADER_BYTES as usize];
    out[..8].copy_from_slice(MAGIC);
    out[8..10].copy_from_slice(&VERSION.to_le_bytes());
    out[10..12].copy_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    let name = variant.as_bytes();
    out[12..12 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    let sum = crc32c::crc32c(&out[..28]);
    out[28..].copy_from_slice(&sum.to_le_bytes());
    out
}

/// What reading a log found.
#[derive(Debug, Default)]
pub struct LogContents {
    /// The good records, in order.
    pub records: Vec<Record>,
    /// Bytes at the end dropped as a torn write.
    pub torn_bytes: u64,
}

fn corrupt(path: &Path, problem: String) -> StoreError {
    StoreError::Corrupt {
        path: path.display().to_string(),
        problem,
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> StoreError + '_ {
    move |error| StoreError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// Reads a log of `variant`, checking every record.
pub fn read(path: &Path, variant: &str) -> Result<LogContents, StoreError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io(path))?;
    if bytes.len() < HEADER_BYTES as usize {
        // A log whose header was never completely written holds nothing.
        return Ok(LogContents {
            records: Vec::new(),
            torn_bytes: bytes.len() as u64,
        });
    }
    let head = &bytes[..HEADER_BYTES as usize];
    if &head[..8] != MAGIC {
        return Err(corrupt(path, "not a ransom store log (bad magic)".into()));
    }
    if head[28..] != crc32c::crc32c(&head[..28]).to_le_bytes() {
        return Err(corrupt(path, "log header checksum mismatch".into()));
    }
    if head != header(variant) {
        return Err(corrupt(
            path,
            format!(
                "a log of another variant or format version (expected {variant}, version {VERSION})"
            ),
        ));
    }
    let body = &bytes[HEADER_BYTES as usize..];
    let chunks: Vec<&[u8]> = body.chunks_exact(RECORD_BYTES).collect();
    let decoded: Vec<Option<Record>> = chunks.iter().map(|c| Record::decode(c)).collect();
    let good_end = decoded
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1);
    if let Some(bad) = decoded[..good_end].iter().position(Option::is_none) {
        return Err(corrupt(
            path,
            format!(
                "record {bad} (byte {}): checksum mismatch, with good records after it",
                HEADER_BYTES as usize + bad * RECORD_BYTES
            ),
        ));
    }
    let records: Vec<Record> = decoded.into_iter().take(good_end).flatten().collect();
    let torn_bytes = (body.len() - good_end * RECORD_BYTES) as u64;
    Ok(LogContents {
        records,
        torn_bytes,
    })
}

/// Appends records to a log, in batches.
pub struct LogWriter {
    path: PathBuf,
    file: std::fs::File,
    buffer: Vec<u8>,
    records: u64,
}

impl LogWriter {
    /// Opens the log at `path` for appending (creating it if needed), after
    /// cutting off a torn tail of `good_records` good records.
    pub fn open(path: &Path, variant: &str, good_records: u64) -> Result<LogWriter, StoreError> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io(path))?;
        let good_len = HEADER_BYTES + good_records * RECORD_BYTES as u64;
        let len = file.metadata().map_err(io(path))?.len();
        if len < HEADER_BYTES {
            file.set_len(0).map_err(io(path))?;
            file.write_all(&header(variant)).map_err(io(path))?;
            file.sync_all().map_err(io(path))?;
        } else if len != good_len {
            file.set_len(good_len).map_err(io(path))?;
            file.sync_all().map_err(io(path))?;
        }
        file.seek(SeekFrom::End(0)).map_err(io(path))?;
        Ok(LogWriter {
            path: path.to_path_buf(),
            file,
            buffer: Vec::new(),
            records: good_records,
        })
    }

    /// Queues a record (written by the next [`LogWriter::flush`]).
    /// Queues a record (written by the next [`LogWriter::flush`]); one
    /// without a packed position is not written.
    pub fn push(&mut self, record: &Record) {
        if let Some(bytes) = record.encode() {
            self.buffer.extend_from_slice(&bytes);
            self.records += 1;
        }
    }

    /// Records in the log, queued ones included.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Bytes queued and not yet written.
    pub fn pending_bytes(&self) -> usize {
        self.buffer.len()
    }

    /// Writes the queued records and syncs the file.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.file.write_all(&self.buffer).map_err(io(&self.path))?;
        self.file.sync_data().map_err(io(&self.path))?;
        self.buffer.clear();
        Ok(())
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
