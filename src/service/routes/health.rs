//! `GET /health`: liveness and what the service has loaded.

use super::super::answer::Answer;
use super::super::health_answer::HealthAnswer;
use super::super::state::AppState;
use axum::extract::State;
use std::sync::Arc;

/// `{"status": "ok", ...}` with tablebases, proofs, puzzles and the workers' load.
pub async fn health(State(state): State<Arc<AppState>>) -> Answer {
    Answer(serde_json::to_value(HealthAnswer::of(&state)).unwrap_or_default())
}
