//! `GET /health`: liveness and what the service has loaded.

use super::super::answer::Answer;
use super::super::state::AppState;
use axum::extract::State;
use serde_json::json;
use std::sync::Arc;

/// `{"status": "ok", ...}` with tablebases, proofs, puzzles and the workers' load.
pub async fn health(State(state): State<Arc<AppState>>) -> Answer {
    let (antichess, suicide) = state.knowledge.tablebase_men();
    let (files, positions, errors) = state
        .knowledge
        .with_proofs(|p| (p.files().len(), p.len(), p.errors().to_vec()));
    Answer(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_s": state.started.elapsed().as_secs_f64(),
        "tablebases": {
            "antichess_max_men": antichess.map(|m| m.1),
            "antichess_complete_men": antichess.map(|m| m.0),
            "suicide_max_men": suicide.map(|m| m.1),
            "suicide_complete_men": suicide.map(|m| m.0),
        },
        "proofs": {"files": files, "positions": positions, "errors": errors},
        "puzzles": {"sets": state.puzzles.sets.len(), "errors": state.puzzles.errors},
        "workers": {
            "total": state.jobs.workers(),
            "running": state.jobs.running(),
            "waiting": state.jobs.waiting(),
            "queue": state.config.queue,
        },
        "limits": {
            "max_nodes": state.config.max_nodes,
            "max_time_ms": state.config.max_time_ms,
            "max_mate": state.config.max_mate,
            "max_perft_depth": state.config.max_perft_depth,
            "max_body_bytes": state.config.max_body_bytes,
        },
    }))
}
