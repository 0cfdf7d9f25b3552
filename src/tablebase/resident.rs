//! Which tables a build keeps in memory between jobs: every table some
//! later job reads, as long as they fit a memory budget; past it, the one
//! read furthest ahead is dropped first (to the spill folder, `spill.rs`,
//! or read again from its files when its turn comes), the rule that
//! rereads least.

use super::{BuildOptions, Layout, Material, MemTables, ReadAs, Slice, TbError};
use crate::variants::LosingRules;
use hashbrown::HashMap;
use std::sync::{Arc, Mutex};

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

/// The bytes of a memory budget left for tables and working state once
/// the cache of file blocks of a job's reading has its share
/// ([`super::file_cache_bytes`]).
pub(crate) fn tables_budget(memory: u64) -> u64 {
    memory - super::file_cache_bytes(memory)
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
    job_bytes(material, reads, &promotion_slices(material))
}

/// [`job_memory`] with every table read held whole: a build holds them so
/// when its memory budget allows.
pub fn job_memory_all_held(material: &Material, reads: &[Material]) -> u64 {
    job_bytes(material, reads, &[])
}

/// The memory a build with `budget` bytes takes for one job: every table
/// it reads whole if that fits, else [`job_memory`] (what
/// `hold_reads` holds).
pub fn job_memory_within(material: &Material, reads: &[Material], budget: u64) -> u64 {
    let whole = job_memory_all_held(material, reads);
    if whole <= budget {
        whole
    } else {
        job_memory(material, reads)
    }
}

/// The working state of a job building `material` and the tables it reads,
/// those of `slices` as their slice.
fn job_bytes(material: &Material, reads: &[Material], slices: &[(Material, Slice)]) -> u64 {
    working_bytes(material) + reads.iter().map(|r| read_bytes(r, slices)).sum::<u64>()
}

/// The working state of a job building `material`.
fn working_bytes(material: &Material) -> u64 {
    super::WORKING_BYTES_PER_INDEX * Layout::new(*material).size()
}

/// Bytes `read` takes held: its slice among `slices`, or the whole table.
fn read_bytes(read: &Material, slices: &[(Material, Slice)]) -> u64 {
    slice_of(read, slices).map_or(resident_bytes(read), |slice| slice.len())
}

/// The slice of `read` among `slices`, if any.
fn slice_of(read: &Material, slices: &[(Material, Slice)]) -> Option<Slice> {
    slices
        .iter()
        .find(|(t, _)| t == read)
        .map(|&(_, slice)| slice)
}

/// Bytes a table held takes (a slice at its size).
fn table_bytes(table: &super::MemTable) -> u64 {
    table
        .slice()
        .map_or(resident_bytes(&table.material), Slice::len)
}

/// Bytes of the tables `mem` holds.
fn held_bytes(mem: &MemTables) -> u64 {
    mem.tables.values().map(|t| table_bytes(t)).sum()
}

/// Loads into `mem` every table `reads` that job `job` (building
/// `material`) reads, after making room for them and the job's working
/// state within `options.memory`, less the cache of file blocks
/// ([`tables_budget`], [`make_room`]). When the whole tables do
/// not fit, the tables its promotions reach are held as the slices those
/// lookups fall in (cut from a whole table held, or read as slices).
/// When they fit, such a table read from its files is held as its slice
/// all the same where that takes less time
/// ([`ReadAs::SliceIfFaster`]). Names the table it reads in `reading`
/// as it goes. Returns how many are held as slices.
pub(crate) fn hold_reads<R: LosingRules>(
    mem: &mut MemTables,
    readers: &Readers,
    job: usize,
    material: &Material,
    reads: &[Material],
    options: BuildOptions,
    reading: &Mutex<String>,
) -> Result<usize, TbError> {
    let working = working_bytes(material);
    let all_slices = promotion_slices(material);
    *reading.lock().unwrap_or_else(|e| e.into_inner()) = String::new();
    // The cache of file blocks takes its share first.
    let budget = tables_budget(options.memory);
    let slices = if job_memory_all_held(material, reads) > budget {
        all_slices.clone()
    } else {
        Vec::new()
    };
    let missing: u64 = reads
        .iter()
        .filter(|s| !mem.tables.contains_key(*s))
        .map(|s| read_bytes(s, &slices))
        .sum();
    make_room(mem, readers, job, reads, missing + working, budget);
    // Promotion tables held whole stay so if everything fits.
    if held_bytes(mem) + missing + working > budget {
        for (s, slice) in &slices {
            if let Some(whole) = mem.tables.get(s).filter(|t| t.slice().is_none()) {
                let whole = Arc::clone(whole);
                let part = Arc::new(whole.sliced(*slice));
                mem.tables.insert(*s, part);
                // The whole table stays on disk for later jobs.
                if readers.next_after(s, job).is_some() {
                    mem.spill(&whole);
                }
            }
        }
    }
    for (i, s) in reads.iter().enumerate() {
        *reading.lock().unwrap_or_else(|e| e.into_inner()) =
            format!("{s}, {} of {}", i + 1, reads.len());
        let how = match (slice_of(s, &slices), slice_of(s, &all_slices)) {
            (Some(slice), _) => ReadAs::Slice(slice),
            // Room for the whole table: its slice all the same where that
            // takes less time to read.
            (None, Some(slice)) => ReadAs::SliceIfFaster {
                slice,
                // Deriving the whole table's unstored side costs the same as
                // deriving a half slice (it is that side), but eight times a
                // sixteenth one's: only then is it worth keeping for later.
                keep_whole: readers.next_after(s, job).is_some()
                    && 2 * slice.len() >= resident_bytes(s),
            },
            (None, None) => ReadAs::Whole,
        };
        mem.load_read_as::<R>(material, s, how, options.wdl_only)?;
    }
    Ok(reads
        .iter()
        .filter(|s| mem.tables.get(*s).is_some_and(|t| t.slice().is_some()))
        .count())
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
    let unwanted: Vec<Material> = mem
        .spilled
        .keys()
        .filter(|m| !keep.contains(m) && readers.next_after(m, job).is_none())
        .copied()
        .collect();
    for m in &unwanted {
        mem.forget_spilled(m);
    }
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
            total -= table_bytes(&t);
            // Kept on disk while a later job reads it.
            mem.spill(&t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::MemTable;
    use std::sync::Arc;

    #[test]
    fn a_job_reads_its_promotions_but_not_theirs() {
        let m = |k: &str| Material::parse(k).unwrap();
        let kppvkp = m("KPPvKP");
        let reads = kppvkp.reads();
        let five: Vec<String> = {
            let mut v: Vec<String> = reads
                .iter()
                .filter(|r| r.men() == 5)
                .map(|r| r.to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            five,
            [
                "KBPvKP", "KKPvKP", "KNPvKP", "KPPvKB", "KPPvKK", "KPPvKN", "KPPvKQ", "KPPvKR",
                "KQPvKP", "KRPvKP"
            ]
        );
        // Their own promotions are needed first, not read.
        let needs = kppvkp.needs();
        assert!(needs.contains(&m("KQQvKP")) && !reads.contains(&m("KQQvKP")));
        assert!(reads.iter().all(|r| needs.contains(r)));
        // Where a capture of a promotion leads is read (KQPvKP takes on
        // to KQPvK, KQvKP, ...).
        assert!(reads.contains(&m("KQPvK")) && reads.contains(&m("KQvKP")));
        // Every 5-man read but KKPvKP (two kings in the first group) is
        // sliced, each to a sixteenth.
        let slices = promotion_slices(&kppvkp);
        let mut sliced: Vec<String> = slices.iter().map(|(t, _)| t.to_string()).collect();
        sliced.sort();
        let without_kk: Vec<&String> = five.iter().filter(|k| *k != "KKPvKP").collect();
        assert_eq!(sliced.iter().collect::<Vec<_>>(), without_kk);
        for (t, slice) in &slices {
            assert_eq!(slice.len() * 16, resident_bytes(t), "{t}");
        }
        assert!(job_memory(&kppvkp, &reads) < 12_000_000_000);
        assert!(job_memory_all_held(&kppvkp, &reads) > 20_000_000_000);
    }

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
