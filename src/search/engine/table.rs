//! The engine's transposition table, shared by its threads without locks.
//!
//! Each slot is two atomic words: the entry's data and the position's
//! hash XOR that data. A reader accepts a slot only when the two agree
//! with the hash it looks for, so an entry torn by two writers at once is
//! never read as valid (it reads as a miss). The engine only uses what it
//! reads to order moves and cut off lines it would otherwise search; a
//! wrong entry can cost strength, never a reported proof (the engine
//! proves nothing: proved results come from the solvers and tables).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is exactly this.
    Exact,
    /// The true score is at least this (a cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One entry: the best move's code ([`crate::moves::encode`], 0 for none),
/// the score, the depth searched and the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move's code plus one; 0 for none.
    pub move_code: u32,
    /// The score, forced results counted from this position.
    pub value: i32,
    /// The remaining depth the score was searched to.
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.move_code & 0x1_ffff)
            | (u64::from(self.value as u16) << 17)
            | (u64::from(self.depth) << 33)
            | (bound << 41)
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            move_code: (data & 0x1_ffff) as u32,
            value: i32::from(((data >> 17) & 0xffff) as u16 as i16),
            depth: ((data >> 33) & 0xff) as u8,
            bound: match (data >> 41) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// A table of `2^k` slots.
pub struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
}

impl Table {
    /// A table using at most `bytes` bytes (at least 1,024 slots).
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / 16).max(1024);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        // Zeroed memory from the allocator: the pages are mapped as they
        // are first written, so a large table costs nothing up front (a
        // GUI's `ucinewgame` makes a new one).
        let slots = bytemuck::allocation::zeroed_slice_box::<[AtomicU64; 2]>(len);
        Table {
            slots,
            mask: len - 1,
        }
    }

    /// The entry stored for `hash`, if any.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let slot = &self.slots[hash as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (data != 0 && check ^ data == hash).then(|| Entry::unpack(data))
    }

    /// Stores `entry` for `hash`, replacing what the slot held unless that
    /// is the same position searched deeper, or `entry` is a quiescence
    /// result (depth 0) and the slot holds a search result.
    pub fn store(&self, hash: u64, entry: Entry) {
        let slot = &self.slots[hash as usize & self.mask];
        if let Some(old) = self.probe(hash)
            && old.depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        // A quiescence result (depth 0) never replaces a search result
        // (of any position): quiescence nodes far outnumber the others.
        let held = slot[1].load(Ordering::Relaxed);
        if entry.depth == 0 && held != 0 && Entry::unpack(held).depth > 0 {
            return;
        }
        let data = entry.pack();
        slot[0].store(hash ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots in use (UCI `hashfull`).
    pub fn permille_used(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_hashes_miss() {
        let table = Table::new(1 << 16);
        let entry = Entry {
            move_code: 0x1_2345,
            value: -30_990,
            depth: 17,
            bound: Bound::Upper,
        };
        table.store(0xdead_beef_0000_0001, entry);
        assert_eq!(table.probe(0xdead_beef_0000_0001), Some(entry));
        assert_eq!(table.probe(0xdead_beef_0001_0001), None);
    }

    /// A quiescence result (depth 0) takes an empty slot or one of depth
    /// 0, never the slot of a search result, whatever position that holds.
    #[test]
    fn quiescence_results_never_replace_search_results() {
        let table = Table::new(1 << 16);
        let at = |depth| Entry {
            move_code: 0,
            value: 5,
            depth,
            bound: Bound::Exact,
        };
        // The same slot (the low bits agree), other positions.
        let (searched, quiet, later) = (1u64 << 40 | 7, 2u64 << 40 | 7, 3u64 << 40 | 7);
        table.store(searched, at(3));
        table.store(quiet, at(0));
        assert_eq!(table.probe(searched), Some(at(3)));
        assert_eq!(table.probe(quiet), None);
        table.store(later, at(0));
        assert_eq!(table.probe(searched), Some(at(3)));
        // Into an empty slot, and over another quiescence result.
        let (empty_slot, next) = (1u64 << 40 | 9, 2u64 << 40 | 9);
        table.store(empty_slot, at(0));
        assert_eq!(table.probe(empty_slot), Some(at(0)));
        table.store(next, at(0));
        assert_eq!(table.probe(next), Some(at(0)));
    }
}
