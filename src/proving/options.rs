//! What a prove run is asked to do: the search's settings, the knowledge
//! it uses (tables, a book, the store) and the files it writes.

use crate::search::scale::ScaleConfig;
use std::path::PathBuf;

/// How a prove run searches and what it reads.
#[derive(Clone, Debug, Default)]
pub struct ProveOptions {
    /// The two-level search's settings (budget, threads, leaf size, guide).
    pub config: ScaleConfig,
    /// A book of suggested moves (PGN or EPD), read for the line's variant
    /// into `config.guide`.
    pub book: Option<PathBuf>,
    /// This project's endgame tables at the leaves (used where the folder
    /// holds tables of the variant).
    pub tablebases: Option<PathBuf>,
    /// Syzygy giveaway tables at the leaves (feature `syzygy`).
    pub syzygy: Option<PathBuf>,
    /// The solved-position store.
    pub store: StoreOptions,
}

/// Where the store is and how it is opened.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// The store's root folder (one store per rule set below it); `None`
    /// keeps results in memory only (no checkpoint, no resume).
    pub dir: Option<PathBuf>,
    /// Whether the folder was chosen by the user rather than the default
    /// (a batch job reads a store only then).
    pub given: bool,
    /// Memory for the in-memory index, in bytes.
    pub memory_bytes: usize,
    /// Wait for a store another process is writing instead of refusing it.
    pub wait: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            dir: None,
            given: false,
            memory_bytes: 1 << 30,
            wait: false,
        }
    }
}

/// The files a settled run writes.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// The proof table (`None`: none is written).
    pub proof: Option<PathBuf>,
    /// The proof as PGN with variations.
    pub pgn: Option<PgnOutput>,
}

impl Outputs {
    /// No files.
    pub fn none() -> Outputs {
        Outputs::default()
    }
}

/// A PGN file to write.
#[derive(Clone, Debug)]
pub struct PgnOutput {
    /// The file.
    pub path: PathBuf,
    /// Every transposed subtree written again in place, so that every line
    /// runs to the game's end (else each position once).
    pub full: bool,
}
