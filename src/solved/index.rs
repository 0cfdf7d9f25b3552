//! The store's in-memory index: position hash → [`Solved`], shared by every
//! search thread without locks.
//!
//! An open-addressing table of `(key, value)` pairs of atomic words with a
//! fixed number of slots, chosen when the store is opened. Readers do two
//! atomic loads and never write, so threads probing it do not slow each
//! other down (a lock, even an uncontended one, writes to a shared cache
//! line on every probe). A writer claims an empty slot by swapping its key
//! in, then publishes the value; a reader that sees the key before the
//! value reads "nothing known", which is always safe. Once the table is
//! 7/8 full it takes no new positions (they still reach the disk and are
//! loaded by the next run with a larger table).
//!
//! The table is sized by the store's memory budget (a gigabyte by default)
//! and a young search holds few positions, so most probes ask about a page
//! of the table no position was ever written to. Reading such a page costs
//! a page fault (the kernel maps it on first touch) and a TLB miss, and a
//! search's probes touch every page of a large table: a third of a
//! two-million-node search's time. A bitmap with one bit per page of slots
//! (32 KB for a gigabyte, so it stays in cache) marks the pages a key was
//! ever written to; a probe whose home slot lies in an unmarked page
//! answers "nothing known" without touching it.

use super::value::Solved;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Bytes one slot takes.
pub const SLOT_BYTES: usize = 16;

/// Slots per page of the occupancy map: 256 slots of 16 bytes, one 4 KB
/// memory page.
const SLOTS_PER_PAGE_BITS: u32 = 8;

/// A fixed-size concurrent hash table of solved positions.
pub struct SolvedIndex {
    /// `2 * i` holds slot `i`'s key, `2 * i + 1` its value; key 0 is empty.
    words: Box<[AtomicU64]>,
    /// Bit `p` is set once a key was written to page `p` (slots
    /// `p << SLOTS_PER_PAGE_BITS` onwards); it is never cleared.
    written_pages: Box<[AtomicU64]>,
    mask: usize,
    len: AtomicUsize,
    refused: AtomicUsize,
}

/// The stored key of a position hash: 0 marks an empty slot, so a hash of
/// 0 is kept as 1 (the verifier never trusts a hash, so a shared key can
/// only cost a failed proof).
fn key_of(hash: u64) -> u64 {
    hash.max(1)
}

impl SolvedIndex {
    /// An empty index with room for at least `positions` positions.
    pub fn with_capacity(positions: usize) -> SolvedIndex {
        let slots = (positions.max(1024) * 8 / 7 + 1).next_power_of_two();
        // Zeroed by the allocator: the pages are only touched as slots fill,
        // so a large index costs nothing until it is used.
        let words = bytemuck::allocation::zeroed_slice_box::<AtomicU64>(slots * 2);
        let pages = (slots >> SLOTS_PER_PAGE_BITS).max(1);
        let written_pages = bytemuck::allocation::zeroed_slice_box::<AtomicU64>(pages.div_ceil(64));
        SolvedIndex {
            words,
            written_pages,
            mask: slots - 1,
            len: AtomicUsize::new(0),
            refused: AtomicUsize::new(0),
        }
    }

    /// Slots in the table.
    pub fn slots(&self) -> usize {
        self.mask + 1
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Positions that did not fit (the table was full).
    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::Relaxed)
    }

    /// Whether the table takes no more positions.
    pub fn is_full(&self) -> bool {
        self.len() >= self.slots() / 8 * 7
    }

    /// Whether a key was ever written to the page holding `slot`.
    fn page_written(&self, slot: usize) -> bool {
        let page = slot >> SLOTS_PER_PAGE_BITS;
        self.written_pages[page / 64].load(Ordering::Acquire) & (1 << (page % 64)) != 0
    }

    /// Marks the page holding `slot` as written, before a key goes there.
    fn mark_page_written(&self, slot: usize) {
        let page = slot >> SLOTS_PER_PAGE_BITS;
        let word = &self.written_pages[page / 64];
        let bit = 1 << (page % 64);
        // Read first: the bit is usually set already, and a load does not
        // take the cache line from the other threads.
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::AcqRel);
        }
    }

    /// What is known about the position with this hash.
    pub fn get(&self, hash: u64) -> Option<Solved> {
        let key = key_of(hash);
        let mut slot = (key as usize) & self.mask;
        // A home slot in a page no key was written to is empty: answer
        // without touching the page (see the module's note). A key being
        // written at this moment may be missed, which is safe: "nothing
        // known" is always a true answer.
        if !self.page_written(slot) {
            return None;
        }
        loop {
            match self.words[2 * slot].load(Ordering::Acquire) {
                0 => return None,
                k if k == key => {
                    let bits = self.words[2 * slot + 1].load(Ordering::Acquire);
                    return Solved::from_bits(bits);
                }
                _ => slot = (slot + 1) & self.mask,
            }
        }
    }

    /// Adds `value` for `hash`, merged with what is there. Returns `false`
    /// if the table is full and the position is new.
    pub fn insert(&self, hash: u64, value: Solved) -> bool {
        let key = key_of(hash);
        let mut slot = (key as usize) & self.mask;
        loop {
            let word = &self.words[2 * slot];
            let mut current = word.load(Ordering::Acquire);
            if current == 0 {
                if self.is_full() {
                    self.refused.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                self.mark_page_written(slot);
                match word.compare_exchange(0, key, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => {
                        self.len.fetch_add(1, Ordering::Relaxed);
                        current = key;
                    }
                    Err(other) => current = other,
                }
            }
            if current == key {
                let cell = &self.words[2 * slot + 1];
                let mut old = cell.load(Ordering::Acquire);
                loop {
                    let merged = Solved::from_bits(old).map_or(value, |o| o.merge(value));
                    match cell.compare_exchange_weak(
                        old,
                        merged.bits(),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    ) {
                        Ok(_) => return true,
                        Err(now) => old = now,
                    }
                }
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// Every `(hash key, value)` held, in slot order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, Solved)> + '_ {
        (0..self.slots()).filter_map(|slot| {
            if !self.page_written(slot) {
                return None;
            }
            let key = self.words[2 * slot].load(Ordering::Acquire);
            let value = Solved::from_bits(self.words[2 * slot + 1].load(Ordering::Acquire))?;
            (key != 0).then_some((key, value))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    #[test]
    fn inserts_merge_and_the_table_refuses_when_full() {
        let index = SolvedIndex::with_capacity(0);
        assert_eq!(index.slots(), 2048);
        assert!(index.insert(42, Solved::no_win_for(Color::White, 5)));
        assert!(index.insert(42, Solved::no_win_for(Color::Black, 5)));
        let both = index.get(42).unwrap();
        assert!(both.no_win(Color::White) && both.no_win(Color::Black));
        assert_eq!(index.get(43), None);
        assert!(index.insert(0, Solved::loss(1)));
        assert!(index.get(0).unwrap().is_loss());
        let mut added = 0;
        for hash in 1000..10_000u64 {
            if index.insert(hash.wrapping_mul(0x9e37_79b9_7f4a_7c15), Solved::loss(1)) {
                added += 1;
            }
        }
        assert_eq!(added + 2, 2048 / 8 * 7);
        assert!(index.refused() > 0);
        assert_eq!(index.entries().count(), index.len());
    }

    #[test]
    fn a_chain_of_keys_crossing_into_an_unwritten_page_is_found() {
        let index = SolvedIndex::with_capacity(100_000);
        let mask = index.slots() as u64 - 1;
        // Three keys whose home is the last slot of page 0: the second and
        // third go to page 1, which no key has as its home.
        let last_of_page = (1u64 << SLOTS_PER_PAGE_BITS) - 1;
        let keys: Vec<u64> = (1..=3).map(|i| last_of_page + i * (mask + 1)).collect();
        for (depth, &key) in keys.iter().enumerate() {
            assert!(index.insert(key, Solved::loss(depth as u64 + 1)));
        }
        for (depth, &key) in keys.iter().enumerate() {
            assert_eq!(index.get(key), Some(Solved::loss(depth as u64 + 1)));
        }
        // A key whose home is page 1 is not known, and says so without a
        // probe of its own page's chain going wrong.
        assert_eq!(index.get((1 << SLOTS_PER_PAGE_BITS) + 5), None);
        assert_eq!(index.get(last_of_page + 4 * (mask + 1)), None);
        assert_eq!(index.entries().count(), 3);
    }

    #[test]
    fn threads_insert_and_read_at_once() {
        let index = SolvedIndex::with_capacity(100_000);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let index = &index;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let hash = (i * 2 + t).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        assert!(index.insert(hash, Solved::loss(i + 1)));
                        assert!(index.get(hash).unwrap().is_loss());
                    }
                });
            }
        });
        assert_eq!(index.len(), 40_000);
    }
}
