//! Building a set of tables in dependency order, and writing one table.

use super::resident::{Readers, hold_reads, make_room};
use super::{
    BuildPhase, BuildProgress, Checkpointing, Layout, Material, MemTable, MemTables, TbError,
    checkpoint, generate_checkpointed, open_table, side, table_path, wdl,
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

/// Writes a table's files (atomically, each): its win/draw/loss file
/// and, unless `wdl_only`, its distance file (one side to move stored,
/// `side.rs`). `values` are by raw index, [`super::Value::UNKNOWN`] where
/// not stored.
pub fn write_table<R: LosingRules>(
    dir: &Path,
    material: &Material,
    values: &[u16],
    wdl_only: bool,
) -> Result<(), TbError> {
    let writer = |description: String, value_size: usize, per_block: u32, level: i32| {
        TableWriter::new(
            TableKind::Tablebase,
            R::VARIANT.name(),
            &format!("{material} {description}"),
            value_size,
        )
        .records_per_block(per_block)
        .zstd_level(level)
    };
    let mut w = writer(
        super::WDL_TAG.to_string(),
        wdl::WDL_RECORD_BYTES,
        wdl::WDL_RECORDS_PER_BLOCK,
        wdl::WDL_ZSTD_LEVEL,
    );
    for (key, bytes) in wdl::encode(values) {
        w.push(key, &bytes);
    }
    w.write(&super::wdl_path(dir, R::VARIANT, material))?;
    if wdl_only {
        return Ok(());
    }
    let layout = side::choose_layout(values);
    let mut w = writer(
        layout.description(),
        side::SIDE_PER_RECORD,
        super::RECORDS_PER_BLOCK,
        TABLE_ZSTD_LEVEL,
    );
    for (key, bytes) in side::encode(values, layout) {
        w.push(key, &bytes);
    }
    w.write(&table_path(dir, R::VARIANT, material))?;
    Ok(())
}

/// Bytes of working state per index of the table being built: a value,
/// a move counter and a pending outside value (5 bytes), the values handed
/// on (2 bytes), and the records being written.
pub const WORKING_BYTES_PER_INDEX: u64 = 8;

/// What a build writes, and the memory it may keep tables in.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Only the win/draw/loss files (a table counts as there when its
    /// `.rwdl` file is; the tables it reads may be WDL-only too).
    pub wdl_only: bool,
    /// Bytes for the tables kept in memory between jobs plus the working
    /// state of the table being built: past it, tables read later are
    /// dropped and read again from their files when needed.
    pub memory: u64,
    /// The least time between two checkpoints of a table being built
    /// (`DIR/VARIANT-KEY.checkpoint`, `checkpoint.rs`), so that a build
    /// killed in the middle of a long table resumes it; `None`: none.
    pub checkpoint_every: Option<std::time::Duration>,
}

/// The default time between checkpoints of a table being built: tables
/// done sooner (every table up to 4 men) write none.
pub const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

impl Default for BuildOptions {
    /// Both kinds; no memory limit; checkpoints every [`CHECKPOINT_EVERY`].
    fn default() -> Self {
        BuildOptions {
            wdl_only: false,
            memory: u64::MAX,
            checkpoint_every: Some(CHECKPOINT_EVERY),
        }
    }
}

/// One table built (or found) by [`build`].
#[derive(Clone, Debug)]
pub struct Built {
    /// The material.
    pub material: Material,
    /// Its distance file (its WDL file in a `--wdl-only` build).
    pub path: PathBuf,
    /// Whether it was there already.
    pub existed: bool,
    /// Seconds spent generating and writing.
    pub seconds: f64,
    /// Size of its files in bytes (both kinds, or the WDL file alone).
    pub bytes: u64,
    /// Of `seconds`, those spent reading into memory the tables it reads
    /// that were not held already (and making room for them).
    pub load_seconds: f64,
    /// How many of the tables it reads came back from the build's spill
    /// folder rather than their own files.
    pub spill_reads: usize,
    /// How many of the tables it reads were held as the slices its
    /// promotions reach (memory was short for the whole tables, or the
    /// slice read from files faster).
    pub sliced: usize,
    /// Lookups of its generation answered from files rather than memory
    /// (none when every table it reads is held).
    pub file_lookups: u64,
    /// The level (plies) its generation resumed at from a checkpoint left
    /// by an earlier, interrupted build.
    pub resumed_at: Option<u16>,
    /// Why a checkpoint it found could not be used (it was then built from
    /// the start).
    pub checkpoint_ignored: Option<String>,
}

/// Builds the tables of `targets` and everything they need that is not yet
/// in `dir`, smallest first; existing tables are kept (so an interrupted
/// build resumes). `progress` is called after each table.
pub fn build<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    build_with_progress::<R>(
        dir,
        targets,
        &BuildProgress::default(),
        BuildOptions::default(),
        progress,
    )
}

/// The tables `targets` need, each with every table it reads (its
/// captures' and promotions' tables and where their captures lead,
/// [`Material::reads`]: a position with a capture is not stored, so a
/// value can come from several tables down), in an order where every
/// table comes after those it reads: fewest men first, then fewest pawns. Each entry is one job
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
    options: BuildOptions,
    mut progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    // Each table with every table it reads, worked out once, and the jobs
    // that read each table (it stays in memory until the last, budget
    // permitting: `resident.rs`).
    let all = plan(targets);
    let readers = Readers::new(&all);
    let mut mem = MemTables::over_files::<R>(dir, options.wdl_only);
    // Tables dropped for room go to a spill folder for this build only,
    // until it holds as many bytes as the memory budget (at least 1 GiB).
    mem.spill_limit = options.memory.max(1 << 30);
    super::spill::clear_abandoned(dir);
    struct ClearSpill<'a>(&'a Path);
    impl Drop for ClearSpill<'_> {
        fn drop(&mut self) {
            super::spill::clear(self.0);
        }
    }
    super::spill::clear(dir);
    let _clear = ClearSpill(dir);
    let mut out = Vec::new();
    let total = all.len();
    state.tables.store(total, Ordering::Relaxed);
    state.positions.store(
        all.iter().map(|(m, _)| Layout::new(*m).size()).sum(),
        Ordering::Relaxed,
    );
    for (done, (m, reads)) in all.iter().enumerate() {
        let files = [
            super::wdl_path(dir, R::VARIANT, m),
            table_path(dir, R::VARIANT, m),
        ];
        let files = if options.wdl_only {
            &files[..1]
        } else {
            &files[..]
        };
        *state.current.lock().unwrap_or_else(|e| e.into_inner()) = m.to_string();
        let start = std::time::Instant::now();
        // A file that is there is kept only if it opens as the table it
        // should be: a damaged file is named instead of being counted as
        // built or silently replaced.
        for path in files.iter().filter(|f| f.exists()) {
            open_table(path, Some(R::VARIANT), Some(m)).map_err(|e| TbError::BadTable {
                path: path.display().to_string(),
                problem: format!(
                    "an existing table cannot be read ({e}); delete it and run the build again"
                ),
            })?;
        }
        let existed = files.iter().all(|f| f.exists());
        let (mut sliced, mut file_lookups, mut load_seconds, mut spill_reads) = (0, 0, 0.0, 0);
        let checkpoint_file = checkpoint::checkpoint_path(dir, R::VARIANT, m);
        let (mut resumed_at, mut checkpoint_ignored) = (None, None);
        if existed {
            checkpoint::remove(&checkpoint_file);
        } else {
            // Opened afresh per job: the files cache no table as missing
            // that an earlier job wrote.
            let cache = super::file_cache_bytes(options.memory);
            mem.files = Some(MemTables::files_with_cache::<R>(
                dir,
                options.wdl_only,
                Some(cache),
            ));
            let reading = std::time::Instant::now();
            let unspilled = mem.unspilled;
            state.set_phase(BuildPhase::Reading);
            sliced = hold_reads::<R>(&mut mem, &readers, done, m, reads, options, &state.reading)?;
            load_seconds = reading.elapsed().as_secs_f64();
            spill_reads = mem.unspilled - unspilled;
            // The generation looks up only what is held: the cache of file
            // blocks goes, its memory with it.
            mem.files = Some(MemTables::files_with_cache::<R>(
                dir,
                options.wdl_only,
                None,
            ));
            mem.file_lookups.store(0, Ordering::Relaxed);
            let checkpointing = options
                .checkpoint_every
                .map(|every| Checkpointing::new(checkpoint_file.clone(), every, options.wdl_only));
            let generated = generate_checkpointed::<R>(m, &mem, state, checkpointing.as_ref())?;
            (resumed_at, checkpoint_ignored) = (generated.resumed_at, generated.checkpoint_ignored);
            let values = generated.values.ok_or_else(|| {
                TbError::BadMaterial(format!("{m}: the generation stopped unfinished"))
            })?;
            file_lookups = mem.file_lookups.load(Ordering::Relaxed);
            // Slices serve this job only.
            mem.tables.retain(|_, t| t.slice().is_none());
            state.set_phase(BuildPhase::Writing);
            write_table::<R>(dir, m, &values, options.wdl_only)?;
            checkpoint::remove(&checkpoint_file);
            // Later tables (promotions of the same size) may read it.
            if readers.next_after(m, done).is_some() {
                mem.tables
                    .insert(*m, Arc::new(MemTable::from_values(*m, &values)));
            }
        }
        let built = Built {
            material: *m,
            bytes: files
                .iter()
                .map(|f| std::fs::metadata(f).map(|md| md.len()).unwrap_or(0))
                .sum(),
            path: files[files.len() - 1].clone(),
            existed,
            seconds: start.elapsed().as_secs_f64(),
            sliced,
            file_lookups,
            load_seconds,
            spill_reads,
            resumed_at,
            checkpoint_ignored,
        };
        state.tables_done.store(done + 1, Ordering::Relaxed);
        let size = Layout::new(*m).size();
        if existed {
            state.positions_found.fetch_add(size, Ordering::Relaxed);
        }
        state.positions_done.fetch_add(size, Ordering::Relaxed);
        progress(done + 1, total, &built);
        out.push(built);
        // Keep in memory only what the remaining tables read.
        make_room(&mut mem, &readers, done, &[], 0, options.memory);
    }
    Ok(out)
}
