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
//!
//! Beside each log, `log-G.rsc` holds the number of records synced so far
//! (written atomically after each sync): magic "RANSOMLC", the count u64,
//! CRC-32C u32 of the 16 bytes before. A log that holds fewer good records
//! than its count says has lost records to damage (a cut, zeros over its
//! end), not to a torn write: reading reports how many records and bytes
//! are gone ([`LogContents::lost_records`]) instead of passing over them. A
//! log is created whole (its header written to a temporary file and
//! renamed), so a log shorter than its header is damage too.

use super::packed::{PACKED_BYTES, Packed};
use super::value::Solved;
use crate::store::{StoreError, io_error as io};
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
    /// Records the log's count file says were synced that it no longer
    /// holds (damage, not a torn write).
    pub lost_records: u64,
    /// Bytes of those records (and of a header cut short) that are gone.
    pub lost_bytes: u64,
    /// What is wrong, when something beyond a torn write is.
    pub damage: Option<String>,
}

const COUNT_MAGIC: &[u8; 8] = b"RANSOMLC";

/// The count file beside the log `log` (`log-G.rsc`).
pub fn count_path(log: &Path) -> PathBuf {
    log.with_extension("rsc")
}

/// The records the count file beside `log` says were synced: `Ok(None)`
/// without a count file (a store written before they existed), `Err` with
/// what is wrong if it is damaged.
fn read_count(log: &Path) -> Result<Option<u64>, String> {
    let path = count_path(log);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("its count file {name} cannot be read: {e}")),
    };
    if bytes.len() != 20 || &bytes[..8] != COUNT_MAGIC {
        return Err(format!(
            "its count file {name} is damaged (bad length or magic): how many records were synced is not known"
        ));
    }
    if bytes[16..] != crc32c::crc32c(&bytes[..16]).to_le_bytes() {
        return Err(format!(
            "its count file {name} is damaged (checksum mismatch): how many records were synced is not known"
        ));
    }
    Ok(Some(u64::from_le_bytes(
        bytes[8..16].try_into().expect("8 bytes"),
    )))
}

/// Writes the count file beside `log`: `records` are synced.
fn write_count(log: &Path, records: u64) -> Result<(), StoreError> {
    let mut out = [0u8; 20];
    out[..8].copy_from_slice(COUNT_MAGIC);
    out[8..16].copy_from_slice(&records.to_le_bytes());
    let sum = crc32c::crc32c(&out[..16]);
    out[16..].copy_from_slice(&sum.to_le_bytes());
    crate::store::write_atomically(&count_path(log), &out)
}

fn corrupt(path: &Path, problem: String) -> StoreError {
    StoreError::Damaged {
        path: path.display().to_string(),
        kind: "store log",
        problem,
    }
}

/// Reads a log of `variant`, checking every record.
pub fn read(path: &Path, variant: &str) -> Result<LogContents, StoreError> {
    // The count first: a writer appending meanwhile syncs its records
    // before it raises the count, so the log read after holds at least
    // as many records as the count read before.
    let count = read_count(path);
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io(path))?;
    let expected = *count.as_ref().unwrap_or(&None);
    if bytes.len() < HEADER_BYTES as usize {
        // Logs are created whole: a header cut short is damage.
        let lost_records = expected.unwrap_or(0);
        return Ok(LogContents {
            lost_records,
            lost_bytes: HEADER_BYTES + lost_records * RECORD_BYTES as u64,
            damage: Some(format!(
                "the log is {} bytes long, shorter than its header: {}",
                bytes.len(),
                match expected {
                    Some(n) => format!("its {n} records are lost"),
                    None => "what it held is lost".into(),
                }
            )),
            ..LogContents::default()
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
    let records = decode_records(path, body, 0)?;
    let good_end = records.len();
    let mut contents = LogContents {
        records,
        torn_bytes: (body.len() - good_end * RECORD_BYTES) as u64,
        ..LogContents::default()
    };
    match count {
        Ok(Some(synced)) if synced > good_end as u64 => {
            // Synced records are gone: the bytes past the good ones that
            // a torn write could not explain are lost, not torn.
            let lost = synced - good_end as u64;
            contents.lost_records = lost;
            contents.lost_bytes = lost * RECORD_BYTES as u64;
            contents.torn_bytes = contents.torn_bytes.saturating_sub(contents.lost_bytes);
            contents.damage = Some(format!(
                "{lost} of its {synced} synced records are lost ({} bytes): the log was cut or overwritten",
                contents.lost_bytes
            ));
        }
        Ok(_) => {}
        Err(problem) => contents.damage = Some(problem),
    }
    Ok(contents)
}

/// The whole records of the log at `path` after its first `skip`, for a
/// reader beside a writer ([`super::StoreReader`]): the header is checked;
/// an incomplete or bad last record is left for the next read (a write in
/// progress); a bad record with good ones after it is damage.
pub fn read_after(path: &Path, variant: &str, skip: u64) -> Result<Vec<Record>, StoreError> {
    let mut file = std::fs::File::open(path).map_err(io(path))?;
    let mut head = [0u8; HEADER_BYTES as usize];
    if file.read_exact(&mut head).is_err() {
        // Logs are created whole: one this short is not ours to read yet.
        return Ok(Vec::new());
    }
    if head != header(variant) {
        return Err(corrupt(
            path,
            format!("not a store log of {variant} (bad header)"),
        ));
    }
    file.seek(SeekFrom::Start(HEADER_BYTES + skip * RECORD_BYTES as u64))
        .map_err(io(path))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io(path))?;
    decode_records(path, &bytes, skip)
}

/// The records of `body` (log bytes from record number `first` on) up to
/// the last good one: what follows it is a torn write, left out; a bad
/// record with good ones after it is damage, named by its number and byte.
fn decode_records(path: &Path, body: &[u8], first: u64) -> Result<Vec<Record>, StoreError> {
    let decoded: Vec<Option<Record>> = body
        .chunks_exact(RECORD_BYTES)
        .map(Record::decode)
        .collect();
    let good_end = decoded
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1);
    if let Some(bad) = decoded[..good_end].iter().position(Option::is_none) {
        let number = first + bad as u64;
        return Err(corrupt(
            path,
            format!(
                "record {number} (byte {}): checksum mismatch, with good records after it",
                HEADER_BYTES + number * RECORD_BYTES as u64
            ),
        ));
    }
    Ok(decoded.into_iter().take(good_end).flatten().collect())
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
    /// A log that lost records is taken as it is now (the loss was
    /// reported when it was read); its count file is written anew.
    pub fn open(path: &Path, variant: &str, good_records: u64) -> Result<LogWriter, StoreError> {
        if !path.exists() {
            // Created whole: a log shorter than its header is damage.
            crate::store::write_atomically(path, &header(variant))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(false)
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
        if read_count(path) != Ok(Some(good_records)) {
            write_count(path, good_records)?;
        }
        Ok(LogWriter {
            path: path.to_path_buf(),
            file,
            buffer: Vec::new(),
            records: good_records,
        })
    }

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
        write_count(&self.path, self.records)
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
