//! The answer of the service's prove endpoint: a proof found now or
//! stored earlier, or a search that ended without one.

use serde::Serialize;

/// What `POST /v1/{variant}/prove` answers.
#[derive(Clone, Debug, Serialize)]
pub struct ProofAnswer {
    /// Nodes searched (0 for a stored proof).
    pub nodes: u64,
    /// Milliseconds searched.
    pub time_ms: f64,
    /// Positions the tables settled.
    pub tablebase_hits: u64,
    /// The position (`{variant, fen, check, outcome, winner}`).
    pub position: serde_json::Value,
    /// "win", "loss" (for the side to move) or "unknown".
    pub result: &'static str,
    /// The winner, if proved.
    pub winner: Option<&'static str>,
    /// The winner's first move (UCI), where the side to move wins.
    pub best: Option<String>,
    /// Positions of the verified proof.
    pub proof_positions: Option<u64>,
    /// Its longest line, in plies.
    pub proof_depth: Option<u32>,
    /// Whether the verifier checked a proof.
    pub verified: bool,
    /// The proof's file, where it is stored.
    pub proof_file: Option<String>,
    /// "search" (found now) or "proof" (stored earlier).
    pub source: &'static str,
    /// Notes (why a result is unknown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}
