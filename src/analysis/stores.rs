//! [`StoreShelf`]: the solved-position stores a reader looks at, one
//! [`StoreReader`] per store directory and rule set, with the searches
//! their checkpoints hold open; refreshed while writers run.

use crate::for_variant;
use crate::position::Position;
use crate::search::scale::open::{OpenNumbers, OpenSearch, OpenSearches, read_open_searches};
use crate::solved::{CHECKPOINTS_DIR, Solved, StoreReader, variants_in};
use crate::store::BlockCache;
use crate::variants::Variant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// One rule set's store in one directory.
struct Shelf {
    root: PathBuf,
    variant: Variant,
    reader: RwLock<StoreReader>,
    open: RwLock<Arc<OpenSearches>>,
}

impl Shelf {
    fn checkpoints(&self) -> PathBuf {
        crate::solved::variant_dir(&self.root, self.variant).join(CHECKPOINTS_DIR)
    }
}

/// What one store holds, for a summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShelfSummary {
    /// The store directory.
    pub root: PathBuf,
    /// The rule set.
    pub variant: Variant,
    /// Positions stored.
    pub positions: u64,
    /// Checkpointed searches.
    pub searches: usize,
    /// Open positions of those searches.
    pub open_positions: usize,
}

/// What a [`StoreShelf::refresh`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShelfRefresh {
    /// Stores opened for the first time (directory, rule set).
    pub opened: Vec<(PathBuf, Variant)>,
    /// Stores that had new records.
    pub changed: usize,
    /// Checkpoint folders read again.
    pub searches_read: usize,
    /// What could not be read, each naming its file.
    pub problems: Vec<String>,
}

/// The stores of a list of directories, every rule set found in each.
pub struct StoreShelf {
    roots: Vec<PathBuf>,
    shelves: RwLock<Vec<Arc<Shelf>>>,
    /// Decompressed blocks of every store's table.
    cache: Arc<BlockCache>,
    /// Held by a refresh, so that two never interleave.
    refreshing: std::sync::Mutex<()>,
}

/// Bytes of decompressed table blocks a shelf keeps by default: a store of
/// a million positions (about 36 MB of records) fits whole.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

impl StoreShelf {
    /// The stores under `roots` (none read yet: see
    /// [`StoreShelf::refresh`]). A directory that does not exist yet is
    /// looked for again at each refresh.
    pub fn new(roots: Vec<PathBuf>) -> StoreShelf {
        Self::with_cache_bytes(roots, DEFAULT_CACHE_BYTES)
    }

    /// The stores under `roots`, read now: the shelf and what reading
    /// found (stores opened, problems, each naming its file).
    pub fn read(roots: Vec<PathBuf>) -> (StoreShelf, ShelfRefresh) {
        let shelf = StoreShelf::new(roots);
        let refresh = shelf.refresh();
        (shelf, refresh)
    }

    /// [`StoreShelf::new`] keeping at most `bytes` of decompressed table
    /// blocks, over every store.
    pub fn with_cache_bytes(roots: Vec<PathBuf>, bytes: u64) -> StoreShelf {
        StoreShelf {
            roots,
            shelves: RwLock::new(Vec::new()),
            cache: BlockCache::new(bytes),
            refreshing: std::sync::Mutex::new(()),
        }
    }

    /// The directories looked at.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    fn shelves(&self) -> Vec<Arc<Shelf>> {
        self.shelves
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Opens the stores that have appeared and reads what the open ones
    /// gained since the last refresh (new log records, a new compacted
    /// table, changed checkpoints). Lookups go on meanwhile; each store
    /// is changed at once, under a short lock.
    pub fn refresh(&self) -> ShelfRefresh {
        let _one_at_a_time = self.refreshing.lock().unwrap_or_else(|e| e.into_inner());
        let mut refresh = ShelfRefresh::default();
        let known = self.shelves();
        for root in &self.roots {
            for variant in variants_in(root) {
                if known
                    .iter()
                    .any(|s| &s.root == root && s.variant == variant)
                {
                    continue;
                }
                match StoreReader::open_with_cache(root, variant, Some(Arc::clone(&self.cache))) {
                    Ok(reader) => {
                        refresh.problems.extend(reader.problems().iter().cloned());
                        let shelf = Arc::new(Shelf {
                            root: root.clone(),
                            variant,
                            reader: RwLock::new(reader),
                            open: RwLock::new(Arc::new(OpenSearches::default())),
                        });
                        self.shelves
                            .write()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(shelf);
                        refresh.opened.push((root.clone(), variant));
                    }
                    Err(e) => refresh.problems.push(e.to_string()),
                }
            }
        }
        for shelf in self.shelves() {
            let update = shelf
                .reader
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .read_update();
            match update {
                Ok(update) if update.is_empty() => {}
                Ok(update) => {
                    let applied = shelf
                        .reader
                        .write()
                        .unwrap_or_else(|e| e.into_inner())
                        .apply(update);
                    refresh.problems.extend(applied.problems);
                    refresh.changed += 1;
                }
                Err(e) => refresh.problems.push(e.to_string()),
            }
            let dir = shelf.checkpoints();
            let changed = shelf
                .open
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .changed(&dir);
            if changed {
                let open = for_variant!(shelf.variant, read_searches(&dir));
                refresh.problems.extend(open.problems.iter().cloned());
                *shelf.open.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(open);
                refresh.searches_read += 1;
            }
        }
        refresh
    }

    /// What the stores know about `pos` (joined over the directories, the
    /// first one's winning move kept); `None` when nothing.
    pub fn lookup<P: Position>(&self, pos: &P) -> Option<Solved> {
        self.joined(P::VARIANT, |reader| reader.lookup(pos))
            .filter(|v| v.is_consistent_for(pos.turn()))
    }

    /// What the stores of `variant` hold under the position hash `key`,
    /// whatever position it belongs to (for walks whose result the
    /// verifier checks).
    pub fn lookup_key(&self, variant: Variant, key: u64) -> Option<Solved> {
        self.joined(variant, |reader| reader.lookup_key(key))
    }

    /// What the stores of `variant` hold under `key`; with `packed`, only
    /// for that very position (see [`crate::solved::SolvedLookup`]).
    pub fn lookup_checked(
        &self,
        variant: Variant,
        key: u64,
        packed: Option<&crate::solved::packed::Packed>,
    ) -> Option<Solved> {
        self.joined(variant, |reader| {
            crate::solved::SolvedLookup::solved(reader, key, packed)
        })
    }

    /// `read`'s answers from every store of `variant`, joined.
    fn joined(
        &self,
        variant: Variant,
        read: impl Fn(&StoreReader) -> Option<Solved>,
    ) -> Option<Solved> {
        let mut found: Option<Solved> = None;
        for shelf in self.shelves() {
            if shelf.variant != variant {
                continue;
            }
            let value = read(&shelf.reader.read().unwrap_or_else(|e| e.into_inner()));
            if let Some(value) = value {
                found = Some(found.map_or(value, |f| f.merge(value)));
            }
        }
        found.filter(|v| !v.is_contradictory())
    }

    /// The numbers the checkpointed searches have for `pos`, where it is
    /// open in their outer trees.
    pub fn open_numbers<P: Position>(&self, pos: &P) -> Vec<OpenNumbers> {
        let key = pos.zobrist();
        self.open_of(P::VARIANT)
            .iter()
            .flat_map(|open| open.numbers(key).to_vec())
            .collect()
    }

    /// The checkpointed searches of `pos` itself.
    pub fn searches_of<P: Position>(&self, pos: &P) -> Vec<OpenSearch> {
        let key = pos.zobrist();
        self.open_of(P::VARIANT)
            .iter()
            .flat_map(|open| open.rooted_at(key).cloned().collect::<Vec<_>>())
            .collect()
    }

    fn open_of(&self, variant: Variant) -> Vec<Arc<OpenSearches>> {
        self.shelves()
            .iter()
            .filter(|s| s.variant == variant)
            .map(|s| Arc::clone(&s.open.read().unwrap_or_else(|e| e.into_inner())))
            .collect()
    }

    /// What each store holds.
    pub fn summary(&self) -> Vec<ShelfSummary> {
        self.shelves()
            .iter()
            .map(|s| {
                let open = s.open.read().unwrap_or_else(|e| e.into_inner());
                ShelfSummary {
                    root: s.root.clone(),
                    variant: s.variant,
                    positions: s.reader.read().unwrap_or_else(|e| e.into_inner()).len(),
                    searches: open.searches.len(),
                    open_positions: open.positions(),
                }
            })
            .collect()
    }

    /// Whether a store of `variant` is open.
    pub fn has(&self, variant: Variant) -> bool {
        self.shelves().iter().any(|s| s.variant == variant)
    }
}

fn read_searches<P: Position>(dir: &Path) -> OpenSearches {
    read_open_searches::<P>(dir)
}
