//! Which tables a build keeps in memory between jobs: every table some
//! later job reads, as long as they fit a memory budget; past it, the one
//! read furthest ahead is dropped first (it is read again from its files
//! when its turn comes), the rule that rereads least.

use super::{Layout, Material, MemTables, Slice};
use hashbrown::HashMap;

/// The jobs of a plan that read each table, in order.
pub(crate) struct Readers {
    jobs: HashMap<Material, Vec<usize>>,
}

impl Readers {
    /// The readers of every table of `plan` (jobs in build order, each
    /// with the tables it reads).
    pub(crate) fn new(plan: &[(Material, Vec<Material>)]) -> Readers {
        let mut jobs: HashMap<Material, Vec<usize>> = HashMap::new();
        for (job, (_, reads)) in plan.iter().enumerate() {
            for &s in reads {
                jobs.entry(s).or_default().push(job);
            }
        }
        Readers { jobs }
    }

    /// The first job after `job` that reads `material`, if any.
    pub(crate) fn next_after(&self, material: &Material, job: usize) -> Option<usize> {
        let jobs = self.jobs.get(material)?;
        let at = jobs.partition_point(|&j| j <= job);
        jobs.get(at).copied()
    }
}

/// Bytes a table takes in memory (one byte an index).
pub(crate) fn resident_bytes(material: &Material) -> u64 {
    Layout::new(*material).size()
}

/// The tables a build of `material` reads only through one of its
/// promotions (as many men, with pawns), each with the [`Slice`] those
/// lookups fall in: what the build holds of them when memory is short.
pub(crate) fn promotion_slices(material: &Material) -> Vec<(Material, Slice)> {
    let successors = material.canonical().promotion_successors();
    successors
        .iter()
        .filter(|(m, _)| successors.iter().filter(|(n, _)| n == m).count() == 1)
        .filter_map(|&(m, piece)| Slice::of_promotion(&Layout::new(m), piece).map(|s| (m, s)))
        .collect()
}

/// The memory one job takes at least: its own working state, every table
/// it reads held (one byte an index), and of the tables reached by its
/// promotions only the slices those reach (see
/// [`job_memory_all_held`] for the whole tables). What a machine running
/// that job alone needs.
pub fn job_memory(material: &Material, reads: &[Material]) -> u64 {
    let slices = promotion_slices(material);
    let working = super::WORKING_BYTES_PER_INDEX * Layout::new(*material).size();
    working
        + reads
            .iter()
            .map(|r| match slices.iter().find(|(m, _)| m == r) {
                Some((_, slice)) => slice.len(),
                None => resident_bytes(r),
            })
            .sum::<u64>()
}

/// [`job_memory`] with every table read held whole: a build holds them so
/// when its memory budget allows.
pub fn job_memory_all_held(material: &Material, reads: &[Material]) -> u64 {
    let working = super::WORKING_BYTES_PER_INDEX * Layout::new(*material).size();
    working + reads.iter().map(resident_bytes).sum::<u64>()
}

/// Bytes of the tables `mem` holds (slices at their size).
fn held_bytes(mem: &MemTables) -> u64 {
    mem.tables
        .values()
        .map(|t| t.slice().map_or(resident_bytes(&t.material), Slice::len))
        .sum()
}

/// Drops from `mem` what no job after `job` reads, then, while the
/// tables kept plus `extra` bytes exceed `budget`, the table (other than
/// those of `keep`) whose next reader comes last.
pub(crate) fn make_room(
    mem: &mut MemTables,
    readers: &Readers,
    job: usize,
    keep: &[Material],
    extra: u64,
    budget: u64,
) {
    mem.tables
        .retain(|m, _| keep.contains(m) || readers.next_after(m, job).is_some());
    let mut total: u64 = held_bytes(mem) + extra;
    while total > budget {
        let furthest = mem
            .tables
            .keys()
            .filter(|m| !keep.contains(m))
            .max_by_key(|m| {
                (
                    readers.next_after(m, job).unwrap_or(usize::MAX),
                    m.to_string(),
                )
            })
            .copied();
        let Some(m) = furthest else { break };
        if let Some(t) = mem.tables.remove(&m) {
            total -= t.slice().map_or(resident_bytes(&m), Slice::len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::MemTable;
    use std::sync::Arc;

    #[test]
    fn the_table_read_furthest_ahead_goes_first() {
        let m = |k: &str| Material::parse(k).unwrap();
        let plan = vec![
            (m("KRvK"), vec![m("KvK"), m("RvK")]),
            (m("KQvK"), vec![m("KvK"), m("QvK")]),
            (m("KBvK"), vec![m("KvK"), m("BvK"), m("RvK")]),
            (m("KNvK"), vec![m("QvK")]),
        ];
        let readers = Readers::new(&plan);
        assert_eq!(readers.next_after(&m("KvK"), 0), Some(1));
        assert_eq!(readers.next_after(&m("KvK"), 2), None);
        let mut mem = MemTables::default();
        for k in ["KvK", "RvK", "QvK", "BvK"] {
            mem.tables
                .insert(m(k), Arc::new(MemTable::from_values(m(k), &[])));
        }
        let each = resident_bytes(&m("KvK"));
        // After job 0: BvK is read at job 2, RvK at 2, QvK at 1, KvK at 1;
        // room for two tables keeps the two read next.
        make_room(&mut mem, &readers, 0, &[], 0, 2 * each);
        let mut kept: Vec<String> = mem.tables.keys().map(|k| k.to_string()).collect();
        kept.sort();
        assert_eq!(kept, ["KvK", "QvK"]);
        // Nothing read after the last job stays.
        make_room(&mut mem, &readers, 3, &[], 0, u64::MAX);
        assert!(mem.tables.is_empty());
    }
}
