//! A cache of decompressed blocks shared by many open tables and bounded
//! in bytes ([`quick_cache`]): for readers whose lookups are scattered over
//! large tables, where each table's own few-block cache misses nearly
//! every time (a table build valuing positions of tables it does not hold,
//! through their files).

use super::block::Block;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Blocks of any number of tables, at most a given number of bytes of
/// them; the least useful go first when it is full.
pub struct BlockCache {
    blocks: quick_cache::sync::Cache<(u64, usize), Arc<Block>, BlockBytes>,
}

/// The weight of a block: the bytes it holds.
#[derive(Clone)]
struct BlockBytes;

impl quick_cache::Weighter<(u64, usize), Arc<Block>> for BlockBytes {
    fn weight(&self, _key: &(u64, usize), block: &Arc<Block>) -> u64 {
        block.bytes()
    }
}

/// A rough size of a block, to size the cache's index by.
const TYPICAL_BLOCK_BYTES: u64 = 64 * 1024;

impl BlockCache {
    /// A cache of at most `bytes` bytes of blocks.
    pub fn new(bytes: u64) -> Arc<BlockCache> {
        let items = (bytes / TYPICAL_BLOCK_BYTES).clamp(16, 1 << 20) as usize;
        Arc::new(BlockCache {
            blocks: quick_cache::sync::Cache::with_weighter(items, bytes, BlockBytes),
        })
    }

    /// The bytes it may hold (those asked for, rounded up to its
    /// shards).
    pub fn capacity(&self) -> u64 {
        self.blocks.capacity()
    }

    /// The bytes it holds now.
    pub fn held(&self) -> u64 {
        self.blocks.weight()
    }

    /// Block `index` of the table `table` (see [`BlockCache::table_id`]),
    /// from the cache or else from `read`, which is kept if it fits.
    pub(crate) fn block<E>(
        &self,
        table: u64,
        index: usize,
        read: impl FnOnce() -> Result<Arc<Block>, E>,
    ) -> Result<Arc<Block>, E> {
        self.blocks.get_or_insert_with(&(table, index), read)
    }

    /// A number no other open table has, to key its blocks by.
    pub(crate) fn table_id() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }
}
