//! Reading tables through a memory map, one block at a time.

use super::{FORMAT_VERSION, MAGIC, StoreError, TableKind, fnv1a64};
use memmap2::Mmap;
use std::path::Path;
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy, Debug)]
struct BlockEntry {
    offset: u64,
    len: u32,
    first_key: u64,
}

/// An open table. Lookups decompress one block and keep the few most
/// recently used blocks in a small cache shared by all threads.
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
    cache: Mutex<Vec<(usize, Arc<Vec<u8>>)>>,
}

const CACHE_BLOCKS: usize = 8;

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let out = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn string(&mut self, len: usize) -> Option<String> {
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

impl TableReader {
    /// Opens and validates a table file.
    ///
    /// The file is memory-mapped: it must not be modified or truncated while
    /// the reader is alive (tables are immutable once written, and writers
    /// replace files by renaming, which leaves an open map intact).
    pub fn open(path: &Path) -> Result<TableReader, StoreError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|source| StoreError::Io {
            path: name.clone(),
            source,
        })?;
        // Safety: the map is read-only and the documented contract above is
        // that table files are never modified in place while mapped (writers
        // rename a new file over the old one). Reading through the map avoids
        // loading multi-gigabyte tables into memory, which is why it is used.
        let map = unsafe { Mmap::map(&file) }.map_err(|source| StoreError::Io {
            path: name.clone(),
            source,
        })?;
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
        let checked_end = 12usize
            .checked_add(header_len)
            .filter(|&end| end + 8 <= bytes.len())
            .ok_or_else(|| corrupt("truncated header"))?;
        let stored_sum = u64::from_le_bytes(
            bytes[checked_end..checked_end + 8]
                .try_into()
                .expect("8 bytes"),
        );
        if fnv1a64(&bytes[..checked_end]) != stored_sum {
            return Err(corrupt("header checksum mismatch"));
        }
        let mut c = Cursor {
            bytes: &bytes[..checked_end],
            pos: 12,
        };
        let trunc = || corrupt("truncated header");
        let version = c.u16().ok_or_else(trunc)?;
        if version != FORMAT_VERSION {
            return Err(corrupt(&format!(
                "format version {version} (this build reads {FORMAT_VERSION})"
            )));
        }
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
        let expected_blocks = record_count.div_ceil(u64::from(records_per_block));
        if expected_blocks != block_count as u64 {
            return Err(corrupt("block count does not match record count"));
        }
        let mut blocks = Vec::with_capacity(block_count.min(1 << 20));
        let data_start = (checked_end + 8) as u64;
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
            cache: Mutex::new(Vec::new()),
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

    fn block(&self, index: usize) -> Result<Arc<Vec<u8>>, StoreError> {
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, data)) = cache.iter().find(|(i, _)| *i == index) {
                return Ok(Arc::clone(data));
            }
        }
        let entry = self.blocks[index];
        let start = entry.offset as usize;
        let frame = &self.map[start..start + entry.len as usize];
        let records = if index + 1 == self.blocks.len() {
            (self.record_count - (index as u64) * u64::from(self.records_per_block)) as usize
        } else {
            self.records_per_block as usize
        };
        let size = records * (8 + self.value_size);
        let data = zstd::bulk::decompress(frame, size).map_err(|e| StoreError::Corrupt {
            path: self.path.clone(),
            problem: format!("block {index}: {e}"),
        })?;
        if data.len() != size {
            return Err(StoreError::Corrupt {
                path: self.path.clone(),
                problem: format!("block {index}: {} bytes, expected {size}", data.len()),
            });
        }
        let data = Arc::new(data);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_BLOCKS {
            cache.remove(0);
        }
        cache.push((index, Arc::clone(&data)));
        Ok(data)
    }

    /// The value stored under `key`, if any.
    pub fn get(&self, key: u64) -> Result<Option<Vec<u8>>, StoreError> {
        let index = match self.blocks.partition_point(|b| b.first_key <= key) {
            0 => return Ok(None),
            n => n - 1,
        };
        let data = self.block(index)?;
        let stride = 8 + self.value_size;
        let count = data.len() / stride;
        let key_at = |i: usize| {
            u64::from_le_bytes(
                data[i * stride..i * stride + 8]
                    .try_into()
                    .expect("8 bytes"),
            )
        };
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match key_at(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    return Ok(Some(data[mid * stride + 8..(mid + 1) * stride].to_vec()));
                }
            }
        }
        Ok(None)
    }

    /// Every record in key order (reads and checks every block).
    pub fn records(&self) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        let stride = 8 + self.value_size;
        let mut out = Vec::with_capacity(self.record_count.min(1 << 24) as usize);
        for index in 0..self.blocks.len() {
            let data = self.block(index)?;
            for rec in data.chunks_exact(stride) {
                let key = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
                out.push((key, rec[8..].to_vec()));
            }
        }
        Ok(out)
    }
}
