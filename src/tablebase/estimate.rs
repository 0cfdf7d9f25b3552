//! What a build will cost before it starts: tables, disk, time and memory,
//! scaled from the measured build of the whole 2–4-man set
//! (tablebases/README.md) by the number of indices.

use super::{Layout, Material, plan, table_present};
use crate::variants::Variant;
use std::path::Path;

/// Bytes on disk of the 2–4-man antichess set, as measured.
const MEASURED_BYTES: f64 = 407_530_189.0;
/// Wall time of that build on the 2-core machine, in seconds (28:52 and
/// 29:13 in two runs).
const MEASURED_SECONDS: f64 = 1_752.0;
/// Peak memory of that build (`/usr/bin/time -v`), in bytes.
const MEASURED_PEAK: f64 = 6.2e9;

/// The estimated cost of building the tables a request names.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Tables the request needs (built or not).
    pub tables: usize,
    /// Of those, the ones not in the folder yet.
    pub missing: usize,
    /// The most men of a missing table (0 when none is missing).
    pub most_men: usize,
    /// Indices of the missing tables.
    pub indices: u64,
    /// Bytes they would take on disk.
    pub bytes: u64,
    /// Wall seconds on a 2-core machine like the one measured.
    pub seconds: f64,
    /// Peak memory in bytes: the tables kept for later ones (within the
    /// build's memory budget), and never less than the largest job with
    /// every table it reads held.
    pub peak_memory: u64,
}

/// Indices of every table of the 2–4-man set (the measured build).
fn measured_indices() -> f64 {
    Material::all_up_to(4)
        .iter()
        .map(|m| Layout::new(*m).size() as f64)
        .sum()
}

/// The cost of building what `targets` need in `dir`: only the missing
/// tables count (a table is there when its files are: both kinds, or the
/// win/draw/loss file alone for a `wdl_only` build).
pub fn estimate(
    dir: &Path,
    variant: Variant,
    targets: &[Material],
    options: super::BuildOptions,
) -> Estimate {
    let wdl_only = options.wdl_only;
    let needed = plan(targets);
    let missing: Vec<Material> = needed
        .iter()
        .map(|(m, _)| *m)
        .filter(|m| !table_present(dir, variant, m, wdl_only))
        .collect();
    let sizes: Vec<f64> = missing
        .iter()
        .map(|m| Layout::new(*m).size() as f64)
        .collect();
    let indices: f64 = sizes.iter().sum();
    // The largest job with every table it reads held (whole if that fits
    // the budget, else the promotion tables as slices): the least memory
    // the build needs.
    let is_missing: hashbrown::HashSet<&Material> = missing.iter().collect();
    let largest_job = needed
        .iter()
        .filter(|(m, _)| is_missing.contains(m))
        .map(|(m, reads)| {
            let whole = super::job_memory_all_held(m, reads);
            if whole <= options.memory {
                whole
            } else {
                super::job_memory(m, reads)
            }
        })
        .max()
        .unwrap_or(0);
    let reference = measured_indices();
    let share = indices / reference;
    Estimate {
        tables: needed.len(),
        missing: missing.len(),
        most_men: missing.iter().map(Material::men).max().unwrap_or(0),
        indices: indices as u64,
        bytes: (MEASURED_BYTES * share) as u64,
        seconds: MEASURED_SECONDS * share,
        peak_memory: ((MEASURED_PEAK * share).min(options.memory as f64) as u64).max(largest_job),
    }
}
