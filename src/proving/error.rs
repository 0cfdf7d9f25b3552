//! Why a prove run (a line, a plan or a job) could not run or finish.

use crate::search::guide::BookError;
use crate::solved::batch::BatchFileError;
use crate::store::StoreError;
use crate::tablebase::SyzygyError;
use std::path::PathBuf;

/// Why a prove run failed. Nothing the search had settled is lost: the
/// store and the checkpoint are written before any of these is returned.
#[derive(Debug, thiserror::Error)]
pub enum ProveRunError {
    /// The book cannot be read.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The Syzygy tables cannot be used.
    #[error(transparent)]
    Syzygy(#[from] SyzygyError),
    /// The store cannot be opened (busy, damaged, not a store).
    #[error("{error}")]
    StoreOpen {
        /// The store's root folder.
        dir: PathBuf,
        /// Why.
        error: StoreError,
    },
    /// The saved outer tree of the search is damaged.
    #[error("{0}")]
    Checkpoint(StoreError),
    /// Reading or writing the store, a checkpoint, a shard or the proof.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The PGN file.
    #[error(transparent)]
    Pgn(#[from] super::PgnFileError),
    /// A job or plan file.
    #[error(transparent)]
    BatchFile(#[from] BatchFileError),
    /// A job file that reads but does not describe a job this run can do.
    #[error("{}: {problem}", path.display())]
    Job {
        /// The job file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The store a job reads cannot be opened.
    #[error("{0}")]
    JobStore(StoreError),
    /// The outer tree an earlier job left in the store for the job's
    /// position is damaged.
    #[error(
        "{}: {problem}\n(the outer tree an earlier job left in the store for this position: remove {} and the job starts afresh without it)",
        path.display(),
        path.display()
    )]
    StoreTree {
        /// The tree's file in the store.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// A plan that cannot be made.
    #[error("{0}")]
    Plan(String),
}
