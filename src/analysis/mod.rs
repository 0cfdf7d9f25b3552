//! What ransom can say about a position without a new search, and the JSON
//! shapes its answers share (CLI, UCI and the HTTP service).
//!
//! [`Knowledge`] combines the rules (a game already over), the endgame
//! tablebases, the stored proofs and the solved-position stores into one [`KnownValue`] per position and
//! per legal move, in the shape of the lichess tablebase API.

mod explorer;
mod explorer_json;
mod explorer_text;
mod json;
mod knowledge;
mod legal_moves;
mod proofs;
mod store_proof;
mod stores;
pub mod think;

pub use explorer::{Exploration, Explored, ExploredMove, Standing, explore, frontier_san};
pub use explorer_json::{explored_json, explorer_json, search_json};
pub use explorer_text::explorer_text;
pub use json::{
    MateSolutionView, analysis_json, holdings_json, mate_report_json, move_steps, state_json,
    verdict_json,
};
pub use knowledge::{Analysis, Category, Knowledge, KnownValue, MoveVerdict, MoveWindow, Source};
pub use legal_moves::{LegalMoves, outcome_text};
pub use proofs::{ProofIndex, StoredProof};
pub use store_proof::{ProofFromStore, StoreProofError, proof_from_stores};
pub use stores::{ShelfRefresh, ShelfSummary, StoreShelf};
