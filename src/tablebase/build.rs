//! Building a set of tables in dependency order, and writing one table.

use super::{
    BuildProgress, Layout, Material, MemTable, MemTables, TbError, generate_with_progress,
    open_table, table_path,
};
use crate::store::{TableKind, TableWriter};
use crate::variants::LosingRules;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// zstd level of table files. KNvKP's values (quiet positions only) take
/// 1.81 MB at level 14, 1.75 MB at 15, 1.95 MB at 13, 2.03 MB at 9 and
/// 1.72 MB at 19, for 1.2, 1.9, 0.7, 0.25 and 8.5 s of compression on one
/// core: 14 is where the size drops (zstd's optimal parser) before the
/// time climbs.
const TABLE_ZSTD_LEVEL: i32 = 14;

/// Writes the valid values of a table to `path` (atomically).
pub fn write_table<R: LosingRules>(
    path: &Path,
    material: &Material,
    values: &[u16],
) -> Result<(), TbError> {
    let mut w = TableWriter::new(
        TableKind::Tablebase,
        R::VARIANT.name(),
        &format!("{material} {}", super::LAYOUT_TAG),
        super::CODES_PER_RECORD,
    )
    .records_per_block(super::RECORDS_PER_BLOCK)
    .zstd_level(TABLE_ZSTD_LEVEL);
    for (key, bytes) in super::codec::encode(values) {
        w.push(key, &bytes);
    }
    w.write(path)?;
    Ok(())
}

/// One table built (or found) by [`build`].
#[derive(Clone, Debug)]
pub struct Built {
    /// The material.
    pub material: Material,
    /// The file.
    pub path: PathBuf,
    /// Whether it was there already.
    pub existed: bool,
    /// Seconds spent generating and writing.
    pub seconds: f64,
    /// File size in bytes.
    pub bytes: u64,
}

/// Builds the tables of `targets` and everything they need that is not yet
/// in `dir`, smallest first; existing tables are kept (so an interrupted
/// build resumes). `progress` is called after each table.
pub fn build<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    build_with_progress::<R>(dir, targets, &BuildProgress::default(), progress)
}

/// The tables `targets` need, each with every table it reads (its
/// captures' and promotions' tables and theirs, [`Material::reads`]: a
/// position with a capture is not stored, so a value can come from several
/// tables down), in an order where every table comes after those it reads:
/// fewest men first, then fewest pawns. Each entry is one job
/// (`ransom tb build --material M`) for a batch runner.
pub fn plan(targets: &[Material]) -> Vec<(Material, Vec<Material>)> {
    let mut seen: hashbrown::HashSet<Material> = hashbrown::HashSet::new();
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if !seen.insert(m) {
            continue;
        }
        stack.extend(m.successors());
        all.push(m);
    }
    all.sort_by_key(|m| (m.men(), m.pawns(), m.to_string()));
    all.into_iter()
        .map(|m| {
            let mut reads = m.reads();
            reads.sort_by_key(|s| (s.men(), s.pawns(), s.to_string()));
            (m, reads)
        })
        .collect()
}

/// [`build`], reporting how far it got in `state`.
pub fn build_with_progress<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    state: &BuildProgress,
    mut progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    // Each table with every table it reads, worked out once, and the last
    // job that reads each table (it stays in memory until then).
    let all = plan(targets);
    let mut last_read: hashbrown::HashMap<Material, usize> = hashbrown::HashMap::new();
    for (job, (_, reads)) in all.iter().enumerate() {
        for &s in reads {
            last_read.insert(s, job);
        }
    }
    let mut mem = MemTables {
        variant: Some(R::VARIANT),
        dir: dir.to_path_buf(),
        ..MemTables::default()
    };
    let mut out = Vec::new();
    let total = all.len();
    state.tables.store(total, Ordering::Relaxed);
    state.positions.store(
        all.iter().map(|(m, _)| Layout::new(*m).size()).sum(),
        Ordering::Relaxed,
    );
    for (done, (m, reads)) in all.iter().enumerate() {
        let path = table_path(dir, R::VARIANT, m);
        *state.current.lock().unwrap_or_else(|e| e.into_inner()) = m.to_string();
        let start = std::time::Instant::now();
        let existed = path.exists();
        if existed {
            // Kept only if it opens as the table it should be: a damaged
            // file is named instead of being counted as built.
            open_table(&path, Some(R::VARIANT), Some(m)).map_err(|e| TbError::BadTable {
                path: path.display().to_string(),
                problem: format!(
                    "an existing table cannot be read ({e}); delete it and run the build again"
                ),
            })?;
        } else {
            for &s in reads {
                if let hashbrown::hash_map::Entry::Vacant(e) = mem.tables.entry(s) {
                    let p = table_path(dir, R::VARIANT, &s);
                    e.insert(Arc::new(MemTable::load(&p, R::VARIANT, &s)?));
                }
            }
            let values = generate_with_progress::<R>(m, &mem, state)?;
            write_table::<R>(&path, m, &values)?;
            // Later tables (promotions of the same size) may read it.
            mem.tables
                .insert(*m, Arc::new(MemTable::from_values(*m, &values)));
        }
        let built = Built {
            material: *m,
            bytes: std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0),
            path,
            existed,
            seconds: start.elapsed().as_secs_f64(),
        };
        state.tables_done.store(done + 1, Ordering::Relaxed);
        state
            .positions_done
            .fetch_add(Layout::new(*m).size(), Ordering::Relaxed);
        progress(done + 1, total, &built);
        out.push(built);
        // Keep in memory only what the remaining tables read.
        mem.tables
            .retain(|k, _| last_read.get(k).is_some_and(|&last| last > done));
    }
    Ok(out)
}
