//! What a build will cost before it starts: tables, disk, time and memory,
//! scaled by the number of indices from measured builds
//! (tablebases/README.md): the whole 2–4-man set for tables of up to 4
//! men, the 5-man tables of KRPvKN for larger ones (a 5-man index takes
//! fewer bytes on disk).

use super::{Layout, Material, plan, table_present};
use crate::variants::Variant;
use std::path::Path;

/// Bytes on disk of the 2–4-man antichess set (both kinds of file), as
/// measured: 110.7 MB of win/draw/loss files and 143.0 MB of distances.
const MEASURED_BYTES: f64 = 253_662_520.0;
/// Wall time of that build on the 2-core machine with nothing else
/// running (21:13; 2,407 CPU-s), in seconds.
const MEASURED_SECONDS: f64 = 1_273.0;
/// Peak memory of that build (`/usr/bin/time -v`), in bytes.
const MEASURED_PEAK: f64 = 3.49e9;
/// Indices of the six 5-man tables of KRPvKN's build (KRPvKN and its five
/// pawnless promotion tables).
const MEASURED_5_MAN_INDICES: f64 = 2_751_463_424.0;
/// Their wall time on the 2-core machine with nothing else running, in
/// seconds (75.6 + 103.0 + 100.9 + 92.1 + 53.6 + 243.4 for KKRvKN, KQRvKN,
/// KRBvKN, KRNvKN, KRRvKN and KRPvKN; 1,529 s before the generator's last
/// speed-ups, beside other work).
const MEASURED_5_MAN_SECONDS: f64 = 668.5;
/// Their bytes on disk (both kinds).
const MEASURED_5_MAN_BYTES: f64 = 102_900_000.0;
/// The win/draw/loss files' share of the bytes: 110.7 of 253.7 MB for
/// the 2–4-man set, 25.5 of 63.3 MB for KRPvKN (what a `--wdl-only` build
/// writes).
const WDL_SHARE_4: f64 = 110.7 / 253.7;
const WDL_SHARE_5: f64 = 25.5 / 63.3;

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
    let indices_of = |large: bool| -> f64 {
        missing
            .iter()
            .filter(|m| (m.men() > 4) == large)
            .map(|m| Layout::new(*m).size() as f64)
            .sum()
    };
    let (small, large) = (indices_of(false), indices_of(true));
    let indices = small + large;
    // The largest job with every table it reads held (whole if that fits
    // the budget, else the promotion tables as slices): the least memory
    // the build needs.
    let is_missing: hashbrown::HashSet<&Material> = missing.iter().collect();
    let largest_job = needed
        .iter()
        .filter(|(m, _)| is_missing.contains(m))
        .map(|(m, reads)| {
            super::job_memory_within(m, reads, super::resident::tables_budget(options.memory))
        })
        .max()
        .unwrap_or(0);
    let share = small / measured_indices();
    let large_share = large / MEASURED_5_MAN_INDICES;
    Estimate {
        tables: needed.len(),
        missing: missing.len(),
        most_men: missing.iter().map(Material::men).max().unwrap_or(0),
        indices: indices as u64,
        bytes: if wdl_only {
            MEASURED_BYTES * WDL_SHARE_4 * share + MEASURED_5_MAN_BYTES * WDL_SHARE_5 * large_share
        } else {
            MEASURED_BYTES * share + MEASURED_5_MAN_BYTES * large_share
        } as u64,
        seconds: MEASURED_SECONDS * share + MEASURED_5_MAN_SECONDS * large_share,
        peak_memory: ((MEASURED_PEAK * share).min(options.memory as f64) as u64).max(largest_job),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::BuildOptions;

    #[test]
    fn five_man_tables_scale_from_krpvkn_and_wdl_only_builds_fewer_bytes() {
        let dir = std::env::temp_dir().join(format!("ransom-estimate-{}", std::process::id()));
        let one = |key: &str, wdl_only: bool| {
            let options = BuildOptions {
                wdl_only,
                ..BuildOptions::default()
            };
            estimate(
                &dir,
                Variant::Antichess,
                &[Material::parse(key).unwrap()],
                options,
            )
        };
        let full = one("KRPvKN", false);
        assert_eq!(full.most_men, 5);
        let wdl = one("KRPvKN", true);
        assert!(wdl.bytes < full.bytes / 2, "{wdl:?} {full:?}");
        assert_eq!(wdl.seconds, full.seconds);
        // KRPvKN's build from an empty folder: its six measured 5-man
        // tables, and a share of the 2–4-man set's time for its smaller
        // tables (a part of that set).
        let four = one("KNvKP", false);
        assert_eq!(four.most_men, 4);
        assert!(full.seconds > MEASURED_5_MAN_SECONDS, "{full:?}");
        assert!(
            full.seconds < MEASURED_5_MAN_SECONDS + MEASURED_SECONDS,
            "{full:?}"
        );
        assert!(
            four.seconds > 0.0 && four.seconds < MEASURED_SECONDS,
            "{four:?}"
        );
    }
}
