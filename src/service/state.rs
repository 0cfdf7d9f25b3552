//! [`AppState`]: what every request handler shares.

use super::config::ServeConfig;
use super::jobs::JobPool;
use super::puzzle_sets::PuzzleSets;
use crate::analysis::{Knowledge, ProofIndex, ShelfRefresh, StoreShelf};
use std::time::Instant;

/// The service's shared state.
pub struct AppState {
    /// The settings.
    pub config: ServeConfig,
    /// Tablebases, stored proofs and the solved-position stores.
    pub knowledge: Knowledge,
    /// The puzzle sets.
    pub puzzles: PuzzleSets,
    /// The solver workers.
    pub jobs: JobPool,
    /// When the service started.
    pub started: Instant,
    /// Slots for lookups that value many moves (`--heavy-lookups`); a slot
    /// is held by the blocking thread until its lookup ends, even when the
    /// client has gone.
    pub heavy_lookups: std::sync::Arc<tokio::sync::Semaphore>,
    /// Proofs stored by this run (against `config.max_stored_proofs`);
    /// held while a proof is written, so one position is written once.
    pub stored_proofs: std::sync::Mutex<usize>,
    /// What the first reading of the solved-position stores found.
    pub stores_at_start: ShelfRefresh,
}

impl AppState {
    /// Loads tablebases, proofs (verifying each), the stores and puzzles as `config`
    /// says; an error when the Syzygy folder cannot be used.
    pub fn load(config: ServeConfig) -> anyhow::Result<AppState> {
        let proofs = ProofIndex::load_dir(&config.proofs);
        let knowledge = Knowledge::with_syzygy(
            config.tablebases.as_deref(),
            config.syzygy.as_deref(),
            proofs,
        )
        .map_err(|e| anyhow::anyhow!(e))?;
        let (shelf, stores_at_start) = StoreShelf::read(config.stores.clone());
        let knowledge = knowledge.with_stores(shelf);
        let puzzles = config
            .puzzles
            .as_deref()
            .map(PuzzleSets::load)
            .unwrap_or_default();
        let jobs = JobPool::new(config.workers, config.queue);
        Ok(AppState {
            heavy_lookups: std::sync::Arc::new(tokio::sync::Semaphore::new(
                config.heavy_lookups.max(1),
            )),
            config,
            knowledge,
            puzzles,
            jobs,
            started: Instant::now(),
            stored_proofs: std::sync::Mutex::new(0),
            stores_at_start,
        })
    }
}
