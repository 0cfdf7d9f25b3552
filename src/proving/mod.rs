//! A prove run as one library call: the search of a line over the store,
//! with the tables at the leaves and a book to steer it, the verified
//! proof written to its file and as PGN, and a typed report that the
//! command line prints as text or JSON. Also the batch-proof protocol
//! built on it: planning a split search into job files ([`plan_line`]) and
//! running one job into its shard ([`run_job`]); merging the shards back is
//! the store's ([`crate::solved::merge_shards`]).
//!
//! ```no_run
//! use ransom::proving::{Line, LineReport, Outputs, ProveOptions, Quiet, prove_line};
//! use ransom::variants::Antichess;
//! use ransom::Position;
//!
//! let line = Line::play(Antichess::start(), &["e4".into(), "b5".into()])?;
//! let options = ProveOptions::default();
//! let report: LineReport = prove_line(&line, &options, &Outputs::none(), &mut Quiet)?;
//! println!("{report}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
mod error;
mod frontier_report;
mod job;
mod line;
mod merge;
mod options;
mod pgn_file;
mod plan;
mod plan_files;
mod plan_status;
mod prepare;
mod report;
mod store_export;
mod store_stats;
mod store_verify;

pub use answer::ProofAnswer;
pub use error::ProveRunError;
pub use frontier_report::{
    FrontierError, FrontierLeaf, FrontierReport, FrontierSearch, LeafEngine, frontier_report,
};
pub use job::{JobReport, run_job};
pub use line::{AUTO_COMPACT_RECORDS, Line, prove_line};
pub use merge::{MergeError, MergeOutcome, ShardOutcome, merge_into_store};
pub use options::{Outputs, PgnOutput, ProveOptions, StoreOptions};
pub use pgn_file::{PgnFileError, PgnWriting, write_pgn};
pub use plan::{PlanOptions, PlanWritten, plan_line};
pub use plan_files::write_plan;
pub use plan_status::{JobState, PlanStatus, plan_status};
pub use report::{GuideReport, LineReport, StatusLine, StoreReport};
pub use store_export::{ExportError, Exported, export_store_pgn};
pub use store_stats::{
    CheckpointStats, RuleSetStats, StoreReportError, StoreStats, store_stats, store_variants,
};
pub use store_verify::{
    CheckedStore, Compacted, DamagedCheckpoint, StoreVerdict, StoreVerifyReport, VerifyWith,
    compact_store, verify_stores,
};

use crate::search::scale::ScaleStatus;

/// Where a run's progress goes while it works: the command line draws a
/// live line, a test or a library caller may keep nothing ([`Quiet`]).
pub trait RunObserver {
    /// A line for the user before or during the search (a store's size,
    /// the book read, damage found and worked around).
    fn note(&mut self, text: &str);
    /// A warning (a file that will be very large).
    fn warn(&mut self, text: &str) {
        self.note(text);
    }
    /// The search's status, about once a second.
    fn status(&mut self, status: &ScaleStatus);
    /// The search has ended (a live line can be cleared).
    fn finish(&mut self) {}
}

/// A [`RunObserver`] that keeps nothing.
pub struct Quiet;

impl RunObserver for Quiet {
    fn note(&mut self, _: &str) {}
    fn status(&mut self, _: &ScaleStatus) {}
}
