//! A directory of tables, probed through memory-mapped files: the
//! win/draw/loss file for categories, the distance file only where a
//! distance is asked for.

use super::codec;
use super::open::{TableFile, open_table};
use super::{
    Lookup, MAX_MEN, Material, TbError, Value, Wdl, WdlOnly, evaluate, table_path, wdl_path,
};
use crate::moves::Move;
use crate::position::Position;
use crate::store::{BlockCache, TableReader};
use crate::variants::{Losing, LosingRules};
use hashbrown::HashMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The open files of one table.
struct Files {
    /// The win/draw/loss file, if there is one.
    wdl: Option<TableReader>,
    /// The distance file and its kind, if there is one.
    dist: Option<(TableReader, TableFile)>,
}

/// A directory of tables for rule set `R`, opened lazily (memory-mapped).
///
/// Which tables are missing is remembered too (so a search probing many
/// positions of uncovered material does not ask the file system each
/// time): open it again to see tables built since.
pub struct Tablebase<R: LosingRules> {
    dir: PathBuf,
    files: Mutex<HashMap<Material, Option<Arc<Files>>>>,
    /// Where every table keeps its blocks, if shared.
    cache: Option<Arc<BlockCache>>,
    rules: PhantomData<R>,
}

impl<R: LosingRules> Lookup for Tablebase<R> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        self.lookup_via(material, index, self)
    }

    fn lookup_via(
        &self,
        material: &Material,
        index: u64,
        via: &dyn Lookup,
    ) -> Result<Value, TbError> {
        let files = self.files(material)?;
        let path = || {
            table_path(&self.dir, R::VARIANT, material)
                .display()
                .to_string()
        };
        match &files.dist {
            Some((reader, TableFile::BothSides)) => codec::lookup(reader, index, &path()),
            Some((reader, TableFile::OneSide(layout))) => {
                let wdl = self.category(&files, material, index)?;
                let size = super::with_layout(*material, |l| l.size());
                if wdl == Wdl::Draw {
                    Ok(Value::DRAW)
                } else if super::SideLayout::side_of(index, size) == layout.side {
                    super::side::lookup(reader, *layout, index, wdl, &path())
                } else {
                    super::derive::derive_value::<R>(material, index, wdl, via)
                }
            }
            _ => Err(TbError::NotCovered(format!(
                "{material}: only its win/draw/loss table is in {} (built with --wdl-only); build it without --wdl-only for distances",
                self.dir.display()
            ))),
        }
    }

    fn lookup_wdl(&self, material: &Material, index: u64) -> Result<Option<Wdl>, TbError> {
        let files = self.files(material)?;
        self.category(&files, material, index).map(Some)
    }
}

impl<R: LosingRules> Tablebase<R> {
    /// The tables in `dir` (files named by [`table_path`] and [`wdl_path`]).
    pub fn open(dir: impl Into<PathBuf>) -> Tablebase<R> {
        Tablebase {
            dir: dir.into(),
            files: Mutex::new(HashMap::new()),
            cache: None,
            rules: PhantomData,
        }
    }

    /// The same tables, every one keeping the blocks it reads in one cache
    /// of `bytes` bytes instead of a few blocks each: for lookups
    /// scattered over large tables (a build's lookups of tables it does
    /// not hold).
    pub fn with_block_cache(mut self, bytes: u64) -> Tablebase<R> {
        self.cache = Some(BlockCache::new(bytes));
        self
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The block-cache counts of every table opened so far, summed.
    pub fn cache_counts(&self) -> crate::store::CacheCounts {
        let map = self.files.lock().unwrap_or_else(|e| e.into_inner());
        map.values()
            .flatten()
            .flat_map(|f| f.wdl.iter().chain(f.dist.iter().map(|(r, _)| r)))
            .fold(Default::default(), |sum, r| sum + r.cache_counts())
    }

    /// The category at `index`: from the WDL file, or from a distance file
    /// of both sides where there is none.
    fn category(&self, files: &Files, material: &Material, index: u64) -> Result<Wdl, TbError> {
        if let Some(reader) = &files.wdl {
            let path = wdl_path(&self.dir, R::VARIANT, material);
            return super::wdl::lookup(reader, index, &path.display().to_string());
        }
        let path = table_path(&self.dir, R::VARIANT, material);
        match &files.dist {
            Some((reader, TableFile::BothSides)) => {
                let v = codec::lookup(reader, index, &path.display().to_string())?;
                v.wdl().map(|(w, _)| w).ok_or_else(|| TbError::BadTable {
                    path: path.display().to_string(),
                    problem: format!("index {index}: no value"),
                })
            }
            _ => Err(TbError::BadTable {
                path: path.display().to_string(),
                problem: format!(
                    "a one-side distance table needs its win/draw/loss file beside it ({})",
                    wdl_path(&self.dir, R::VARIANT, material).display()
                ),
            }),
        }
    }

    fn files(&self, material: &Material) -> Result<Arc<Files>, TbError> {
        let mut map = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let missing = || TbError::missing(R::VARIANT, &self.dir, material);
        match map.get(material) {
            Some(Some(f)) => return Ok(Arc::clone(f)),
            Some(None) => return Err(missing()),
            None => {}
        }
        let dist_path = table_path(&self.dir, R::VARIANT, material);
        let wdl_file = wdl_path(&self.dir, R::VARIANT, material);
        if !dist_path.exists() && !wdl_file.exists() {
            map.insert(*material, None);
            return Err(missing());
        }
        let open = |path: &Path| -> Result<TableReader, TbError> {
            let reader = open_table(path, Some(R::VARIANT), Some(material))?;
            Ok(match &self.cache {
                Some(cache) => reader.with_shared_cache(Arc::clone(cache)),
                None => reader,
            })
        };
        let dist = if dist_path.exists() {
            let r = open(&dist_path)?;
            let kind = TableFile::of(&r);
            Some((r, kind))
        } else {
            None
        };
        let wdl = if wdl_file.exists() {
            Some(open(&wdl_file)?)
        } else {
            None
        };
        let files = Arc::new(Files { wdl, dist });
        map.insert(*material, Some(Arc::clone(&files)));
        Ok(files)
    }

    /// Category and distance to win (plies) of `pos` for the side to move,
    /// or an error (missing table, corrupt file, too many men).
    pub fn try_probe(&self, pos: &Losing<R>) -> Result<(Wdl, u16), TbError> {
        let v = evaluate(pos, self)?;
        v.wdl().ok_or_else(|| {
            TbError::NoValue(format!(
                "{}: no value stored (corrupt table?)",
                crate::notation::fen::write(pos)
            ))
        })
    }

    /// The category of `pos` for the side to move from the win/draw/loss
    /// files alone (no distance file is read), or an error.
    pub fn try_probe_wdl(&self, pos: &Losing<R>) -> Result<Wdl, TbError> {
        let v = evaluate(pos, &WdlOnly(self))?;
        v.wdl().map(|(w, _)| w).ok_or_else(|| {
            TbError::NoValue(format!(
                "{}: no value stored (corrupt table?)",
                crate::notation::fen::write(pos)
            ))
        })
    }

    /// Category and distance to win of `pos`, or `None` when the tables do
    /// not cover it (too many men, table missing or unreadable).
    pub fn probe(&self, pos: &Losing<R>) -> Option<(Wdl, u16)> {
        if pos.board().occupied().count() as usize > MAX_MEN {
            return None;
        }
        self.try_probe(pos).ok()
    }

    /// The category of `pos`, or `None` when the tables do not cover it:
    /// the call for a search at its leaves (win/draw/loss files only).
    pub fn probe_wdl(&self, pos: &Losing<R>) -> Option<Wdl> {
        if pos.board().occupied().count() as usize > MAX_MEN {
            return None;
        }
        self.try_probe_wdl(pos).ok()
    }

    /// The value after each legal move, from the opponent's side, best
    /// move for the side to move first (quickest win, then draws, then the
    /// longest loss).
    pub fn probe_moves(&self, pos: &Losing<R>) -> Result<Vec<(Move, Wdl, u16)>, TbError> {
        let mut out = Vec::new();
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let (w, d) = self.try_probe(&child)?;
            out.push((m, w, d));
        }
        out.sort_by_key(|&(_, w, d)| match w {
            Wdl::Loss => (0, d as i32),
            Wdl::Draw => (1, 0),
            Wdl::Win => (2, -(d as i32)),
        });
        Ok(out)
    }
}
