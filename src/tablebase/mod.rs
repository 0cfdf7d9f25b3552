//! Losing-chess endgame tablebases: win/draw/loss and distance to win in
//! plies, exact without the 50-move rule, built by retrograde analysis
//! over the positions of one material key and stored in the table
//! format of [`crate::store`].
//!
//! * [`Material`]: material keys (`KRvK`), stored with the stronger side as
//!   White (a position with the colours the other way round is looked up
//!   colour-flipped).
//! * [`Layout`]: the position <-> index mapping with symmetry reduction.
//! * [`generate`]: builds one table from the smaller ones it leads to.
//! * [`Tablebase`]: probes a directory of tables.
//!
//! A value is a `u16`: `0` draw, `d << 2 | 1` the side to move wins in
//! `d` plies, `d << 2 | 2` the side to move loses in `d` plies, `3` no
//! position (an invalid or non-canonical index). On disk each index takes
//! one byte (see `codec`: distances above 126 plies go to overflow
//! records).

mod build;
mod captures;
mod checkpoint;
mod codec;
mod derive;
mod estimate;
mod generate;
mod index;
mod manifest;
mod material;
mod memtable;
mod open;
mod reader;
mod resident;
pub mod retro;
mod side;
mod slice;
mod spill;
mod stats;
#[cfg(feature = "syzygy")]
pub mod syzygy;
mod syzygy_error;

pub use syzygy_error::SyzygyError;
mod reports;
mod verify;
pub mod wdl;

pub use build::{
    BuildOptions, Built, CHECKPOINT_EVERY, WORKING_BYTES_PER_INDEX, build, build_with_progress,
    plan, write_table,
};
pub use checkpoint::{Checkpointing, checkpoint_path};
pub use estimate::{Estimate, estimate};
pub use generate::{
    BuildPhase, BuildProgress, Generated, generate, generate_checkpointed, generate_with_progress,
};
pub use index::{Layout, transform};
pub use manifest::{
    ManifestEntry, ManifestUpdate, check_manifest, manifest_path, material_of_file, read_manifest,
    scan, table_files, unreadable_tables, update_manifest, write_manifest,
};
pub use material::{KEY_ORDER, Material};
pub use memtable::MemTable;
pub use open::{TableFile, open_table};
pub use reader::Tablebase;
pub use reports::{
    PlanJob, PlanListing, ProbedMove, StatsReport, TableCheck, TbProbeReport, TbReportError,
    check_table, default_build_memory, losing_variant, probe_report, targets,
};
pub use resident::{job_memory, job_memory_all_held, job_memory_within};
pub use slice::Slice;
pub use stats::{Stats, stats, stats_in_dir};
pub use verify::{VerifyReport, verify_file, verify_table_file};

use crate::board::Color;
use crate::position::{Position, Setup};
use crate::store::StoreError;
use crate::variants::{Losing, Variant};
use crate::variants::{LosingRules, StalemateRule};
use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use codec::{CODES_PER_RECORD, LAYOUT_TAG};
pub use side::{SIDE_TAG, SideLayout};
pub use wdl::WDL_TAG;

/// Records per zstd block (256 records = 32768 indices, 33 KB raw).
pub const RECORDS_PER_BLOCK: u32 = 256;

/// The largest number of men a material key may have.
pub const MAX_MEN: usize = 6;

/// Win, draw or loss, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Nobody can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

/// A packed table value (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value(pub u16);

impl Value {
    /// A draw.
    pub const DRAW: Value = Value(0);
    /// Not (yet) known, or not a valid position.
    pub const UNKNOWN: Value = Value(3);
    /// The side to move wins in `d` plies.
    pub fn win(d: u16) -> Value {
        Value((d << 2) | 1)
    }
    /// The side to move loses in `d` plies.
    pub fn loss(d: u16) -> Value {
        Value((d << 2) | 2)
    }
    /// Whether the value is known.
    pub fn is_known(self) -> bool {
        self.0 & 3 != 3
    }
    /// Category and distance (0 for a draw); `None` if unknown.
    pub fn wdl(self) -> Option<(Wdl, u16)> {
        match self.0 & 3 {
            0 => Some((Wdl::Draw, 0)),
            1 => Some((Wdl::Win, self.0 >> 2)),
            2 => Some((Wdl::Loss, self.0 >> 2)),
            _ => None,
        }
    }
    /// The value of the position before a move that leads to `self`.
    pub fn parent_of_best(children: impl IntoIterator<Item = Value>) -> Value {
        let mut best_win: Option<u16> = None;
        let mut draw = false;
        let mut worst_loss: u16 = 0;
        for c in children {
            match c.wdl() {
                Some((Wdl::Loss, d)) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                Some((Wdl::Win, d)) => worst_loss = worst_loss.max(d),
                _ => draw = true,
            }
        }
        if let Some(d) = best_win {
            Value::win(d + 1)
        } else if draw {
            Value::DRAW
        } else {
            Value::loss(worst_loss + 1)
        }
    }
}

/// A tablebase problem: never a panic.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// A material key that cannot be used.
    #[error("bad material key {0}")]
    BadMaterial(String),
    /// A table needed for a lookup is not there.
    #[error(
        "missing table {material} for {variant} (expected {path}); build it with `ransom tb build --variant {variant} --material {material}`"
    )]
    MissingTable {
        /// The variant.
        variant: String,
        /// The material key.
        material: String,
        /// Where it was looked for.
        path: String,
    },
    /// A table file that cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A table whose content does not fit what it claims to be.
    #[error("{path}: {problem}")]
    BadTable {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// A position the tables do not cover.
    #[error("{0}")]
    NotCovered(String),
    /// A covered position whose value the tables do not give (a damaged
    /// or incomplete table).
    #[error("{0}")]
    NoValue(String),
}

impl TbError {
    /// The table of `material` for `variant` is not in `dir`.
    pub fn missing(variant: Variant, dir: &Path, material: &Material) -> TbError {
        TbError::MissingTable {
            variant: variant.name().into(),
            material: material.to_string(),
            path: table_path(dir, variant, material).display().to_string(),
        }
    }
}

/// The file of a table: `DIR/VARIANT-KEY.rtb` (e.g. `tablebases/antichess-KRvK.rtb`).
pub fn table_path(dir: &Path, variant: Variant, material: &Material) -> PathBuf {
    dir.join(format!("{}-{}.rtb", variant.name(), material.canonical()))
}

/// The win/draw/loss file of a table: `DIR/VARIANT-KEY.rwdl`.
pub fn wdl_path(dir: &Path, variant: Variant, material: &Material) -> PathBuf {
    dir.join(format!("{}-{}.rwdl", variant.name(), material.canonical()))
}

/// Whether the table of `material` is in `dir`: its win/draw/loss file
/// and, unless `wdl_only`, its distance file.
pub fn table_present(dir: &Path, variant: Variant, material: &Material, wdl_only: bool) -> bool {
    wdl_path(dir, variant, material).is_file()
        && (wdl_only || table_path(dir, variant, material).is_file())
}

/// Where values of other tables come from.
pub trait Lookup: Sync {
    /// The value stored at `index` of the (canonical) `material` table.
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError>;

    /// The category stored at `index` (`None` where no value is stored):
    /// for callers that need no distance, which some sources answer from a
    /// smaller table.
    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        Ok(self.lookup(material, index)?.wdl().map(|(w, _)| w))
    }

    /// [`Lookup::lookup`], except that where this source derives the value
    /// by one ply of probes (the side a one-side distance file does not
    /// store), it values those moves through `via`: for a source behind
    /// tables held in memory, whose lookups `via` answers first (the
    /// files behind [`MemTables`]). `via` must value positions exactly as
    /// this source does. By default the same as [`Lookup::lookup`].
    fn lookup_via(
        &self,
        material: &Material,
        index: u64,
        via: &dyn Lookup,
    ) -> Result<Value, TbError> {
        let _ = via;
        self.lookup(material, index)
    }
}

/// A source seen through its categories only: every win is `win(0)` and
/// every loss `loss(0)`, so [`evaluate`] through it gives the right
/// category (and no distance) while reading only win/draw/loss tables.
pub struct WdlOnly<'a>(pub &'a dyn Lookup);

impl Lookup for WdlOnly<'_> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        Ok(match self.0.lookup_wdl(material, index)? {
            Some(Wdl::Win) => Value::win(0),
            Some(Wdl::Loss) => Value::loss(0),
            Some(Wdl::Draw) => Value::DRAW,
            None => Value::UNKNOWN,
        })
    }

    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        self.0.lookup_wdl(material, index)
    }
}

/// A source owned and seen through its categories only ([`WdlOnly`]).
struct CategoriesOf<L>(L);

impl<L: Lookup> Lookup for CategoriesOf<L> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        WdlOnly(&self.0).lookup(material, index)
    }

    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        self.0.lookup_wdl(material, index)
    }
}

/// The category of `pos` from `src`'s categories alone (see [`WdlOnly`]).
pub fn evaluate_wdl<R: LosingRules>(
    pos: &Losing<R>,
    src: &dyn Lookup,
) -> Result<Option<Wdl>, TbError> {
    Ok(evaluate(pos, &WdlOnly(src))?.wdl().map(|(w, _)| w))
}

/// The value of a stalemate (the side to move has men but no move).
pub fn stalemate_value<R: LosingRules>(pos: &Losing<R>) -> Value {
    stalemate_value_on::<R>(pos.board(), pos.turn())
}

/// The value of a stalemate of `us` (with men but no move) on `board`.
pub fn stalemate_value_on<R: LosingRules>(board: &crate::board::Board, us: Color) -> Value {
    match R::STALEMATE {
        StalemateRule::Wins => Value::win(0),
        StalemateRule::Draw => Value::DRAW,
        StalemateRule::FewerMenWins => {
            let ours = board.by_color(us).count();
            let theirs = board.by_color(!us).count();
            match ours.cmp(&theirs) {
                std::cmp::Ordering::Less => Value::win(0),
                std::cmp::Ordering::Greater => Value::loss(0),
                std::cmp::Ordering::Equal => Value::DRAW,
            }
        }
    }
}

/// The value of any position covered by `src` (or a game already over):
/// terminal rules, then positions with a capture (not stored in the
/// tables, en passant included: captures are compulsory, so every move is
/// a capture, valued from the smaller tables), then a lookup. A capture
/// leading to a position without a value is an error.
pub fn evaluate<R: LosingRules>(pos: &Losing<R>, src: &dyn Lookup) -> Result<Value, TbError> {
    let board = pos.board();
    let us = pos.turn();
    if pos.state().ep_square.is_none() || board.by_color(us).is_empty() {
        return captures::evaluate_board::<R>(board, us, src);
    }
    // An en-passant square: the move generator knows whether it can be used.
    let moves = pos.legal_moves();
    if !moves.iter().any(|m| m.is_capture()) {
        return captures::evaluate_board::<R>(board, us, src);
    }
    captures::best_of_moves(pos, &moves, src)
}

/// Calls `f` with the layout of `material`, kept per thread for the
/// materials a thread looks up (building a layout costs more than an
/// index). Layouts sit in pairs of slots picked by a hash of the material,
/// the one used last first: finding one is a comparison or two however
/// many materials a build has seen (a scan of the kept layouts was a tenth
/// of a table's generation, and a hash map measured slower), and two
/// materials that share a pair (KQPvK and KQPvP do) do not evict each
/// other.
fn with_layout<T>(material: Material, f: impl FnOnce(&Layout) -> T) -> T {
    /// Slots per thread (a power of two; pairs of two).
    const SLOTS: usize = 256;
    thread_local! {
        static LAYOUTS: std::cell::RefCell<Vec<Option<(Material, Layout)>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    LAYOUTS.with_borrow_mut(|slots| {
        if slots.is_empty() {
            slots.resize_with(SLOTS, || None);
        }
        let pair = material.slot(SLOTS) & !1;
        for i in [pair, pair + 1] {
            if let Some((m, layout)) = &slots[i]
                && *m == material
            {
                return f(layout);
            }
        }
        // The pair's first layout becomes its second; the new one first.
        slots.swap(pair, pair + 1);
        f(&slots[pair].insert((material, Layout::new(material))).1)
    })
}

/// Bytes of file blocks [`MemTables::files_of`] keeps (shared by every
/// table it reads): lookups of tables a build does not hold are scattered,
/// and this keeps the blocks that neighbouring positions read again. A
/// build keeps at most an eighth of its memory budget so
/// ([`file_cache_bytes`]), while it reads a job's tables.
pub const FILE_BLOCK_CACHE_BYTES: u64 = 256 << 20;

/// The bytes of file blocks a build with a memory budget of `memory`
/// bytes keeps while it reads a job's tables: [`FILE_BLOCK_CACHE_BYTES`],
/// or an eighth of the budget if that is less.
pub fn file_cache_bytes(memory: u64) -> u64 {
    FILE_BLOCK_CACHE_BYTES.min(memory / 8)
}

/// What a build holds of a table it reads ([`MemTables::load_read_as`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum ReadAs {
    /// The whole table.
    Whole,
    /// Only this slice (a spilled table is cut to it).
    Slice(Slice),
    /// The slice the reader looks up, in the way that reads fastest: its
    /// slice if the distance file stores that side (reading it whole would
    /// derive the other side for nothing); where the slice must be
    /// derived, the whole table if `keep_whole` (later jobs read it and it
    /// stays held for them), else the slice alone. A spilled table comes
    /// back whole.
    SliceIfFaster { slice: Slice, keep_whole: bool },
}

/// In-memory tables, for generation and verification, in front of the
/// files of their folder.
///
/// A lookup is answered from the tables held; one of a table not held, or
/// of an index outside the [`Slice`] held of it (or where the slice holds
/// no value), is read from the files
/// (when `files` is set): so what is held decides only speed, never a
/// value. Those lookups are counted (`file_lookups`): building a table
/// with every table it reads held makes none.
#[derive(Default)]
pub struct MemTables {
    /// The tables by material.
    pub tables: HashMap<Material, Arc<MemTable>>,
    /// The variant (for error messages).
    pub variant: Option<Variant>,
    /// The directory (for error messages).
    pub dir: PathBuf,
    /// The files of the folder, for what is not held.
    pub files: Option<Arc<dyn Lookup + Send>>,
    /// Lookups answered from `files`.
    pub file_lookups: std::sync::atomic::AtomicU64,
    /// Bytes the spill folder of `dir` (`spill.rs`) may take: a table
    /// dropped for room while a later job reads it goes there if it fits
    /// (0: never).
    pub(crate) spill_limit: u64,
    /// The tables there, with their bytes.
    pub(crate) spilled: HashMap<Material, u64>,
    /// Tables read back from there.
    pub(crate) unspilled: usize,
}

impl MemTables {
    /// No table held yet, in front of the files of `dir` for rule set `R`
    /// (their categories alone if `wdl_only`: wins as `win(0)`, see
    /// [`WdlOnly`]).
    pub fn over_files<R: LosingRules>(dir: &Path, wdl_only: bool) -> MemTables {
        MemTables {
            variant: Some(R::VARIANT),
            dir: dir.to_path_buf(),
            files: Some(Self::files_of::<R>(dir, wdl_only)),
            ..MemTables::default()
        }
    }

    /// The files of `dir` opened afresh, as [`MemTables::over_files`]
    /// reads them: their blocks kept in one cache of
    /// [`FILE_BLOCK_CACHE_BYTES`].
    pub fn files_of<R: LosingRules>(dir: &Path, wdl_only: bool) -> Arc<dyn Lookup + Send> {
        Self::files_with_cache::<R>(dir, wdl_only, Some(FILE_BLOCK_CACHE_BYTES))
    }

    /// [`MemTables::files_of`] with a shared cache of `cache_bytes` bytes
    /// of blocks, or (`None`) a few blocks a table.
    pub fn files_with_cache<R: LosingRules>(
        dir: &Path,
        wdl_only: bool,
        cache_bytes: Option<u64>,
    ) -> Arc<dyn Lookup + Send> {
        let tables = Tablebase::<R>::open(dir);
        let tables = match cache_bytes {
            Some(bytes) => tables.with_block_cache(bytes),
            None => tables,
        };
        if wdl_only {
            Arc::new(CategoriesOf(tables))
        } else {
            Arc::new(tables)
        }
    }

    /// Every table `material` reads ([`Material::reads`]), loaded from
    /// `dir` into memory in dependency order (each table's unstored side is
    /// derived once, through the tables loaded before it and, for the
    /// tables only that derivation needs, the files), so that checking
    /// `material` looks its successors up without reading files or
    /// deriving a distance per lookup. A table `material` reaches only by
    /// its promotions is held as the slice those lookups fall in
    /// (`resident::promotion_slices`, as a build holds it when memory is
    /// short): KPPvKP's ten two-pawn promotion tables would take 21 GB
    /// whole. `wdl_only` loads categories alone. An error names a table
    /// that is missing or damaged.
    pub fn load_reads<R: LosingRules>(
        dir: &Path,
        material: &Material,
        wdl_only: bool,
    ) -> Result<MemTables, TbError> {
        let mut reads = material.reads();
        reads.sort_by_key(|s| (s.men(), s.pawns(), s.to_string()));
        let slices = resident::promotion_slices(material);
        let mut mem = MemTables::over_files::<R>(dir, wdl_only);
        for s in reads {
            let how = match slices.iter().find(|(t, _)| *t == s) {
                Some(&(_, slice)) => ReadAs::Slice(slice),
                None => ReadAs::Whole,
            };
            mem.load_read_as::<R>(material, &s, how, wdl_only)?;
        }
        Ok(mem)
    }

    /// Loads `read` (a table `reader` reads) as `how` says, from the
    /// spill folder if it was spilled, else from this set's folder through
    /// the tables held (for its unstored side), unless it is held already.
    /// Unless `wdl_only`, its distances must be exact: a table built with
    /// `--wdl-only` is an error naming it.
    pub(crate) fn load_read_as<R: LosingRules>(
        &mut self,
        reader: &Material,
        read: &Material,
        how: ReadAs,
        wdl_only: bool,
    ) -> Result<(), TbError> {
        if self.tables.contains_key(read) {
            return Ok(());
        }
        let table = match (self.unspill(read), how) {
            (Some(whole), ReadAs::Slice(slice)) => whole.sliced(slice),
            (Some(whole), _) => whole,
            (None, ReadAs::Whole) => MemTable::load::<R>(&self.dir, read, self, wdl_only)?,
            (None, ReadAs::Slice(slice)) => {
                MemTable::load_slice::<R>(&self.dir, read, slice, self, wdl_only)?
            }
            (None, ReadAs::SliceIfFaster { slice, keep_whole }) => {
                MemTable::load_slice_or_whole::<R>(
                    &self.dir, read, slice, self, wdl_only, keep_whole,
                )?
            }
        };
        self.hold::<R>(reader, table, wdl_only)
    }

    /// The table of `read` from the spill folder, if it was spilled and
    /// reads back (one that does not is forgotten).
    fn unspill(&mut self, read: &Material) -> Option<MemTable> {
        self.spilled.get(read)?;
        let table = spill::read(&self.dir, read);
        match table {
            Some(_) => self.unspilled += 1,
            None => self.forget_spilled(read),
        }
        table
    }

    /// Puts a whole table dropped for room into the spill folder, if it is
    /// not there yet and fits the folder's limit (a table that cannot be
    /// written is read from its own files again).
    pub(crate) fn spill(&mut self, table: &MemTable) {
        if table.slice().is_some() || self.spilled.contains_key(&table.material) {
            return;
        }
        // The limit stops the folder once it holds that much (a table's
        // size compressed is known only once written).
        if self.spilled.values().sum::<u64>() >= self.spill_limit {
            return;
        }
        if let Ok(bytes) = spill::write(&self.dir, table) {
            self.spilled.insert(table.material, bytes);
        }
    }

    /// Removes a table from the spill folder.
    pub(crate) fn forget_spilled(&mut self, material: &Material) {
        if self.spilled.remove(material).is_some() {
            spill::remove(&self.dir, material);
        }
    }

    fn hold<R: LosingRules>(
        &mut self,
        reader: &Material,
        table: MemTable,
        wdl_only: bool,
    ) -> Result<(), TbError> {
        let read = table.material;
        if !wdl_only && !table.exact() {
            return Err(TbError::BadTable {
                path: table_path(&self.dir, R::VARIANT, &read)
                    .display()
                    .to_string(),
                problem: format!(
                    "{reader} needs the distances of {read}, whose table was built with --wdl-only: delete its .rwdl file and build again"
                ),
            });
        }
        self.tables.insert(read, Arc::new(table));
        Ok(())
    }

    /// The files behind the tables held, for a lookup they miss (counted).
    fn files_for(&self, material: &Material) -> Result<&dyn Lookup, TbError> {
        match &self.files {
            Some(files) => {
                self.file_lookups
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(files.as_ref())
            }
            None => {
                let variant = self.variant.unwrap_or(Variant::Antichess);
                Err(TbError::missing(variant, &self.dir, material))
            }
        }
    }
}

impl MemTables {
    /// The value held at `index` of `material`, if any: not where a slice
    /// holds it unknown (a derived promotion slice's positions no
    /// promotion leads to), which the files answer.
    fn held(&self, material: &Material, index: u64) -> Option<Value> {
        let table = self.tables.get(material)?;
        let value = table.get(index)?;
        (table.slice().is_none() || value.is_known()).then_some(value)
    }
}

impl Lookup for MemTables {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        match self.held(material, index) {
            Some(v) => Ok(v),
            // A value the files derive has its moves valued here, so that
            // the tables held answer them.
            None => self.files_for(material)?.lookup_via(material, index, self),
        }
    }

    /// A category missed by the tables held is read from the files'
    /// win/draw/loss table alone (no distance derived).
    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        match self.held(material, index) {
            Some(v) => Ok(v.wdl().map(|(w, _)| w)),
            None => self.files_for(material)?.lookup_wdl(material, index),
        }
    }
}

/// One table held in memory, in front of other tables (for checking or
/// reading a table beside the tables it reads).
pub(crate) struct WithOwn<'a> {
    pub(crate) own: &'a MemTable,
    pub(crate) rest: &'a dyn Lookup,
}

impl Lookup for WithOwn<'_> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        if *material == self.own.material {
            Ok(self.own.value(index))
        } else {
            self.rest.lookup(material, index)
        }
    }

    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        if *material == self.own.material {
            Ok(self.own.value(index).wdl().map(|(w, _)| w))
        } else {
            self.rest.lookup_wdl(material, index)
        }
    }
}

/// A position of rule set `R` from a board and side to move, no en passant.
pub fn position_of<R: LosingRules>(board: crate::board::Board, turn: Color) -> Option<Losing<R>> {
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    Losing::<R>::from_setup(&setup).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout cache keys by pairs of slots: materials that share a
    /// pair replace each other, and every lookup still gets its own
    /// material's layout (the 2–4-man materials are far more than the
    /// slots, in both orientations, and each is asked for twice in a row
    /// and again later).
    #[test]
    fn with_layout_gives_each_material_its_own_layout() {
        let materials: Vec<Material> = Material::all_up_to(4)
            .into_iter()
            .flat_map(|m| [m, m.flipped()])
            .collect();
        assert!(materials.len() > 256);
        for round in 0..2 {
            for &m in &materials {
                for _ in 0..2 {
                    let found = with_layout(m, |layout| layout.material());
                    assert_eq!(found, m.canonical(), "{m}, round {round}");
                }
            }
        }
        for &m in &materials {
            assert!(m.slot(256) < 256 && m.slot(1) == 0, "{m}");
        }
    }
}
