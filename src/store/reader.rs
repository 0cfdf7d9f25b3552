//! Reading tables through a memory map, one block at a time.

use super::block::Block;
use super::block_cache::BlockCache;
use super::checksum::{header_sum, header_sum_len};
use super::cursor::Cursor;
use super::{FORMAT_VERSION, MAGIC, OLDEST_READ_VERSION, StoreError, TableKind};
use memmap2::Mmap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy, Debug)]
struct BlockEntry {
    offset: u64,
    len: u32,
    first_key: u64,
}

/// An open table. Lookups decompress one block and keep the few most
/// recently used blocks in a small cache shared by all threads, or in a
/// [`BlockCache`] shared with other tables
/// ([`TableReader::with_shared_cache`]).
pub struct TableReader {
    path: String,
    map: Mmap,
    kind: TableKind,
    variant: String,
    description: String,
    value_size: usize,
    record_count: u64,
    records_per_block: u32,
    blocks: Vec<BlockEntry>,
    version: u16,
    cache: Mutex<Vec<(usize, Arc<Block>)>>,
    /// A cache shared with other tables, with this table's number in it.
    shared: Option<(Arc<BlockCache>, u64)>,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// How often lookups found their block in a table's cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCounts {
    /// Lookups whose block was in the cache.
    pub hits: u64,
    /// Lookups that decompressed their block.
    pub misses: u64,
}

impl std::ops::Add for CacheCounts {
    type Output = CacheCounts;
    fn add(self, other: CacheCounts) -> CacheCounts {
        CacheCounts {
            hits: self.hits + other.hits,
            misses: self.misses + other.misses,
        }
    }
}

const CACHE_BLOCKS: usize = 8;

impl TableReader {
    /// Opens and validates a table file.
    ///
    /// The file is memory-mapped: it must not be modified or truncated while
    /// the reader is alive (tables are immutable once written, and writers
    /// replace files by renaming, which leaves an open map intact).
    pub fn open(path: &Path) -> Result<TableReader, StoreError> {
        let name = path.display().to_string();
        let io = |error| StoreError::Io {
            path: name.clone(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        if file.metadata().map_err(io)?.is_dir() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory, not a table file",
            )));
        }
        // Safety: the map is read-only and the documented contract above is
        // that table files are never modified in place while mapped (writers
        // rename a new file over the old one). Reading through the map avoids
        // loading multi-gigabyte tables into memory, which is why it is used.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Self::from_map(name, map)
    }

    fn from_map(path: String, map: Mmap) -> Result<TableReader, StoreError> {
        let corrupt = |problem: &str| StoreError::Corrupt {
            path: path.clone(),
            problem: problem.to_string(),
        };
        let bytes: &[u8] = &map;
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(corrupt("not a ransom table (bad magic)"));
        }
        let header_len = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        // The version decides the checksum's width; it is read before the
        // checksum is checked, and vouched for by it after.
        let version = bytes
            .get(12..14)
            .map(|b| u16::from_le_bytes(b.try_into().expect("2 bytes")))
            .ok_or_else(|| corrupt("truncated header"))?;
        if !(OLDEST_READ_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(corrupt(&format!(
                "format version {version} (this build reads {OLDEST_READ_VERSION} to {FORMAT_VERSION})"
            )));
        }
        let sum_len = header_sum_len(version);
        let checked_end = 12usize
            .checked_add(header_len)
            .filter(|&end| end >= 14 && end + sum_len <= bytes.len())
            .ok_or_else(|| corrupt("truncated header"))?;
        if header_sum(version, &bytes[..checked_end]) != bytes[checked_end..checked_end + sum_len] {
            return Err(corrupt("header checksum mismatch"));
        }
        let mut c = Cursor {
            bytes: &bytes[..checked_end],
            pos: 14,
        };
        let trunc = || corrupt("truncated header");
        let kind = TableKind::from_u8(c.u8().ok_or_else(trunc)?)
            .ok_or_else(|| corrupt("unknown table kind"))?;
        let value_size = c.u8().ok_or_else(trunc)? as usize;
        let record_count = c.u64().ok_or_else(trunc)?;
        let records_per_block = c.u32().ok_or_else(trunc)?;
        let _level = c.u32().ok_or_else(trunc)?;
        let vlen = c.u16().ok_or_else(trunc)? as usize;
        let variant = c.string(vlen).ok_or_else(trunc)?;
        let dlen = c.u32().ok_or_else(trunc)? as usize;
        let description = c.string(dlen).ok_or_else(trunc)?;
        let block_count = c.u32().ok_or_else(trunc)? as usize;
        if records_per_block == 0 {
            return Err(corrupt("zero records per block"));
        }
        if value_size == 0 {
            return Err(corrupt("zero value size"));
        }
        let expected_blocks = record_count.div_ceil(u64::from(records_per_block));
        if expected_blocks != block_count as u64 {
            return Err(corrupt("block count does not match record count"));
        }
        let mut blocks = Vec::with_capacity(block_count.min(1 << 20));
        let data_start = (checked_end + sum_len) as u64;
        let mut expected_offset = data_start;
        for _ in 0..block_count {
            let offset = c.u64().ok_or_else(trunc)?;
            let len = c.u32().ok_or_else(trunc)?;
            let first_key = c.u64().ok_or_else(trunc)?;
            if offset != expected_offset
                || offset.saturating_add(u64::from(len)) > bytes.len() as u64
            {
                return Err(corrupt("block index points outside the file (truncated?)"));
            }
            if blocks
                .last()
                .is_some_and(|b: &BlockEntry| b.first_key >= first_key)
            {
                return Err(corrupt("block index keys out of order"));
            }
            expected_offset = offset + u64::from(len);
            blocks.push(BlockEntry {
                offset,
                len,
                first_key,
            });
        }
        if expected_offset != bytes.len() as u64 {
            return Err(corrupt("file length does not match the block index"));
        }
        Ok(TableReader {
            path,
            map,
            kind,
            variant,
            description,
            value_size,
            record_count,
            records_per_block,
            blocks,
            version,
            cache: Mutex::new(Vec::new()),
            shared: None,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        })
    }

    /// What the table holds.
    pub fn kind(&self) -> TableKind {
        self.kind
    }

    /// The variant name stored in the header.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The description stored in the header (root FEN, material key, …).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.record_count
    }

    /// Whether the table has no records.
    pub fn is_empty(&self) -> bool {
        self.record_count == 0
    }

    /// Bytes per record value.
    pub fn value_size(&self) -> usize {
        self.value_size
    }

    /// How often lookups found their block in the cache since the table
    /// was opened.
    pub fn cache_counts(&self) -> CacheCounts {
        CacheCounts {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    /// The same table, its blocks kept in `cache` (shared with other
    /// tables) instead of its own few-block cache.
    pub fn with_shared_cache(mut self, cache: Arc<BlockCache>) -> TableReader {
        self.shared = Some((cache, BlockCache::table_id()));
        self
    }

    fn block(&self, index: usize) -> Result<Arc<Block>, StoreError> {
        if let Some((cache, table)) = &self.shared {
            let mut missed = false;
            let block = cache.block(*table, index, || {
                missed = true;
                self.block_uncached(index).map(Arc::new)
            })?;
            let count = if missed { &self.misses } else { &self.hits };
            count.fetch_add(1, Ordering::Relaxed);
            return Ok(block);
        }
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, block)) = cache.iter().find(|(i, _)| *i == index) {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(Arc::clone(block));
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let block = Arc::new(self.block_uncached(index)?);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_BLOCKS {
            cache.remove(0);
        }
        cache.push((index, Arc::clone(&block)));
        Ok(block)
    }

    /// Block `index`, decompressed and checked, bypassing the cache.
    fn block_uncached(&self, index: usize) -> Result<Block, StoreError> {
        let corrupt = |problem: String| StoreError::Corrupt {
            path: self.path.clone(),
            problem: format!("block {index}: {problem}"),
        };
        let entry = self.blocks[index];
        let start = entry.offset as usize;
        let frame = &self.map[start..start + entry.len as usize];
        let records = if index + 1 == self.blocks.len() {
            (self.record_count - (index as u64) * u64::from(self.records_per_block)) as usize
        } else {
            self.records_per_block as usize
        };
        let size = records * (8 + self.value_size);
        let data = decompress(frame, size).map_err(|e| corrupt(e.to_string()))?;
        if data.len() != size {
            return Err(corrupt(format!("{} bytes, expected {size}", data.len())));
        }
        self.split_block(&data, records, index, &corrupt)
    }

    /// The keys and values of a decompressed block of `records` records,
    /// checked against the block index: its first key is the index's, its
    /// keys increase and stay below the next block's first key.
    /// Version 1 interleaves `(key, value)`; versions 2 and 3 have every
    /// key first (each as its distance from the key before; the first from
    /// 0 in version 3, from the index's first key in version 2), then every
    /// value.
    fn split_block(
        &self,
        data: &[u8],
        records: usize,
        index: usize,
        corrupt: &dyn Fn(String) -> StoreError,
    ) -> Result<Block, StoreError> {
        let first_key = self.blocks[index].first_key;
        let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        let (keys, values): (Vec<u64>, Vec<u8>) = if self.version == 1 {
            let stride = 8 + self.value_size;
            let keys = data.chunks_exact(stride).map(|r| word(&r[..8])).collect();
            let values = data
                .chunks_exact(stride)
                .flat_map(|r| r[8..].iter().copied())
                .collect();
            (keys, values)
        } else {
            let (deltas, values) = data.split_at(records * 8);
            let mut keys = Vec::with_capacity(records);
            let mut key = if self.version >= 3 { 0 } else { first_key };
            for delta in deltas.chunks_exact(8) {
                key = key
                    .checked_add(word(delta))
                    .ok_or_else(|| corrupt("key overflow".into()))?;
                keys.push(key);
            }
            (keys, values.to_vec())
        };
        if keys.first() != Some(&first_key) {
            return Err(corrupt(format!(
                "its first key is {}, the block index says {first_key}",
                keys.first().map_or("missing".to_string(), u64::to_string)
            )));
        }
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(corrupt("keys out of order".into()));
        }
        if let (Some(next), Some(&last)) = (self.blocks.get(index + 1), keys.last())
            && last >= next.first_key
        {
            return Err(corrupt(format!(
                "its last key {last} is not below the next block's first key {}",
                next.first_key
            )));
        }
        Ok(Block { keys, values })
    }

    /// The value stored under `key`, if any.
    pub fn get(&self, key: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.with_value(key, |value| value.to_vec())
    }

    /// `f` applied to the value stored under `key`, if any, without copying
    /// the value out of the block cache.
    pub fn with_value<T>(
        &self,
        key: u64,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Result<Option<T>, StoreError> {
        let index = match self.blocks.partition_point(|b| b.first_key <= key) {
            0 => return Ok(None),
            n => n - 1,
        };
        let block = self.block(index)?;
        Ok(block
            .keys
            .binary_search(&key)
            .ok()
            .map(|i| f(&block.values[i * self.value_size..(i + 1) * self.value_size])))
    }

    /// Calls `f` on every record in key order (reads and checks every
    /// block); a damaged block is an error naming it and its records.
    pub fn for_each_record(&self, mut f: impl FnMut(u64, &[u8])) -> Result<(), StoreError> {
        for index in 0..self.blocks.len() {
            let block = self.block_uncached(index).map_err(|e| match e {
                StoreError::Corrupt { path, problem } => {
                    let first = index as u64 * u64::from(self.records_per_block);
                    let last = (first + u64::from(self.records_per_block)).min(self.record_count);
                    StoreError::Corrupt {
                        path,
                        problem: format!("{problem} (records {first} to {})", last - 1),
                    }
                }
                other => other,
            })?;
            for (key, value) in block
                .keys
                .iter()
                .zip(block.values.chunks_exact(self.value_size))
            {
                f(*key, value);
            }
        }
        Ok(())
    }

    /// Every record in key order (reads and checks every block).
    pub fn records(&self) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        let mut out = Vec::with_capacity(self.record_count.min(1 << 24) as usize);
        for index in 0..self.blocks.len() {
            let block = self.block(index)?;
            for (key, value) in block
                .keys
                .iter()
                .zip(block.values.chunks_exact(self.value_size))
            {
                out.push((*key, value.to_vec()));
            }
        }
        Ok(out)
    }
}

/// A zstd frame decompressed with this thread's decompression context
/// (creating one per block was about a tenth of the samples of a build
/// reading scattered lookups from large tables' files).
fn decompress(frame: &[u8], size: usize) -> std::io::Result<Vec<u8>> {
    thread_local! {
        static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    CONTEXT.with_borrow_mut(|context| {
        let context = match context {
            Some(c) => c,
            None => context.insert(zstd::bulk::Decompressor::new()?),
        };
        context.decompress(frame, size)
    })
}
