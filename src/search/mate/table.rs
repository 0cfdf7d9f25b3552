//! The mate search's transposition table: per position, the numbers for
//! the bound last searched, the smallest bound proved and the largest
//! disproved, bounded in memory with replacement by work. A search owns
//! its table, or shares one with the other threads of a split search
//! ([`SharedTable`]: shards by hash, each behind its own lock).

use crate::search::numbers::table_capacity;
use crate::search::pn::Pn;
use hashbrown::HashMap;
use std::sync::{Mutex, MutexGuard};

/// `proved_at` of a position with no proof yet.
/// A mate bound: attacker moves still allowed.
pub type Bound = u16;

const NOT_PROVED: Bound = Bound::MAX;

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Numbers for the bound `bound` (meaningful only while unsolved there).
    pn: Pn,
    dn: Pn,
    bound: Bound,
    /// The smallest bound the position is proved for.
    proved_at: Bound,
    /// The largest bound the position is disproved for (0: none beyond the
    /// trivial "no moves left").
    disproved_at: Bound,
    /// Nodes expanded below this entry (for replacement).
    work: u32,
}

impl Entry {
    fn is_settled(&self) -> bool {
        self.proved_at != NOT_PROVED || self.disproved_at > 0
    }
}

const BUCKET_BYTES: usize = 8 + std::mem::size_of::<Entry>() + 1;

/// Positions by zobrist hash, at most as many as fit in the memory given.
pub(super) struct MateTable {
    map: HashMap<u64, Entry>,
    capacity: usize,
}

impl MateTable {
    /// An empty table that stays within `hash_bytes`.
    pub(super) fn new(hash_bytes: usize) -> Self {
        MateTable {
            map: HashMap::new(),
            capacity: table_capacity(hash_bytes, BUCKET_BYTES),
        }
    }

    /// Positions stored.
    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    /// The smallest bound `hash` is proved for.
    pub(super) fn proved_at(&self, hash: u64) -> Option<Bound> {
        self.map
            .get(&hash)
            .map(|e| e.proved_at)
            .filter(|&b| b != NOT_PROVED)
    }

    /// The settled result of `hash` for `bound`: `Some(true)` proved,
    /// `Some(false)` disproved.
    pub(super) fn settled(&self, hash: u64, bound: Bound) -> Option<bool> {
        let e = self.map.get(&hash)?;
        if bound >= e.proved_at {
            Some(true)
        } else if bound <= e.disproved_at {
            Some(false)
        } else {
            None
        }
    }

    /// The numbers of `hash` for `bound`: settled ones for any bound they
    /// cover, unsettled ones only for the bound they were stored for.
    pub(super) fn lookup(&self, hash: u64, bound: Bound) -> Option<(Pn, Pn)> {
        let e = self.map.get(&hash)?;
        if bound >= e.proved_at {
            Some((Pn::ZERO, Pn::INFINITE))
        } else if bound <= e.disproved_at {
            Some((Pn::INFINITE, Pn::ZERO))
        } else if e.bound == bound {
            Some((e.pn, e.dn))
        } else {
            None
        }
    }

    /// Stores numbers for `bound`: a proof lowers `proved_at`, a disproof
    /// raises `disproved_at`, other numbers replace the unsettled ones.
    /// `work` (nodes spent) adds to the entry's.
    pub(super) fn store(&mut self, hash: u64, bound: Bound, pn: Pn, dn: Pn, work: u32) {
        if self.map.len() >= self.capacity && !self.map.contains_key(&hash) {
            self.collect_garbage();
        }
        let e = self.map.entry(hash).or_insert(Entry {
            pn: Pn::ONE,
            dn: Pn::ONE,
            bound,
            proved_at: NOT_PROVED,
            disproved_at: 0,
            work: 0,
        });
        if pn.is_zero() {
            e.proved_at = e.proved_at.min(bound);
        } else if dn.is_zero() {
            e.disproved_at = e.disproved_at.max(bound);
        } else {
            e.pn = pn;
            e.dn = dn;
            e.bound = bound;
        }
        e.work = e.work.saturating_add(work);
    }

    /// Frees a quarter of the table or more, the entries with the least
    /// work below them first: unsettled ones, then (only if that is not
    /// enough) settled ones, so that a long disproof keeps its costly
    /// results. Work is compared by its order of magnitude (powers of two).
    fn collect_garbage(&mut self) {
        let target = self.capacity * 3 / 4;
        let magnitude = |e: &Entry| (u32::BITS - e.work.leading_zeros()) as usize;
        let kind = |e: &Entry| usize::from(e.is_settled());
        let mut counts = [[0usize; u32::BITS as usize + 1]; 2];
        for e in self.map.values() {
            counts[kind(e)][magnitude(e)] += 1;
        }
        // Entries of kind k with a magnitude below cut[k] go.
        let mut excess = self.map.len().saturating_sub(target);
        let mut cut = [0usize; 2];
        for k in 0..2 {
            while excess > 0 && cut[k] < counts[k].len() {
                excess = excess.saturating_sub(counts[k][cut[k]]);
                cut[k] += 1;
            }
        }
        self.map.retain(|_, e| magnitude(e) >= cut[kind(e)]);
    }
}

/// Shards of a [`SharedTable`]: with two threads, a lock is rarely found
/// taken.
const SHARDS: usize = 64;

/// A table for several threads: the positions split by hash into shards,
/// each a [`MateTable`] with an equal share of the memory behind its own
/// lock. Every settled result is sound whichever thread stored it; the
/// unsettled numbers only guide the searches.
pub(super) struct SharedTable {
    shards: Box<[Mutex<MateTable>]>,
}

impl SharedTable {
    /// An empty table that stays within `hash_bytes`.
    pub(super) fn new(hash_bytes: usize) -> Self {
        SharedTable {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(MateTable::new(hash_bytes / SHARDS)))
                .collect(),
        }
    }

    fn shard(&self, hash: u64) -> MutexGuard<'_, MateTable> {
        // The low bits pick the bucket inside a shard's map; the high
        // bits pick the shard.
        let shard = &self.shards[(hash >> 58) as usize % SHARDS];
        shard.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The table a search uses: its own, or one shared with other threads.
pub(super) enum Table<'t> {
    Own(MateTable),
    Shared(&'t SharedTable),
}

impl Table<'_> {
    #[inline]
    pub(super) fn len(&self) -> usize {
        match self {
            Table::Own(t) => t.len(),
            Table::Shared(s) => s
                .shards
                .iter()
                .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).len())
                .sum(),
        }
    }

    #[inline]
    pub(super) fn proved_at(&self, hash: u64) -> Option<Bound> {
        match self {
            Table::Own(t) => t.proved_at(hash),
            Table::Shared(s) => s.shard(hash).proved_at(hash),
        }
    }

    #[inline]
    pub(super) fn settled(&self, hash: u64, bound: Bound) -> Option<bool> {
        match self {
            Table::Own(t) => t.settled(hash, bound),
            Table::Shared(s) => s.shard(hash).settled(hash, bound),
        }
    }

    #[inline]
    pub(super) fn lookup(&self, hash: u64, bound: Bound) -> Option<(Pn, Pn)> {
        match self {
            Table::Own(t) => t.lookup(hash, bound),
            Table::Shared(s) => s.shard(hash).lookup(hash, bound),
        }
    }

    #[inline]
    pub(super) fn store(&mut self, hash: u64, bound: Bound, pn: Pn, dn: Pn, work: u32) {
        match self {
            Table::Own(t) => t.store(hash, bound, pn, dn, work),
            Table::Shared(s) => s.shard(hash).store(hash, bound, pn, dn, work),
        }
    }
}
