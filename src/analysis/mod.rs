//! What ransom can say about a position without a new search, and the JSON
//! shapes its answers share (CLI, UCI and the HTTP service).
//!
//! [`Knowledge`] combines the rules (a game already over), the endgame
//! tablebases and the stored proofs into one [`Verdict`] per position and
//! per legal move, in the shape of the lichess tablebase API.

mod json;
mod knowledge;
mod proofs;

pub use json::{
    MateSolutionView, analysis_json, holdings_json, mate_report_json, move_steps, state_json,
    verdict_json,
};
pub use knowledge::{Analysis, Category, Knowledge, MoveVerdict, MoveWindow, Source, Verdict};
pub use proofs::{ProofIndex, StoredProof};
