//! `GET /metrics`: the Prometheus text exposition of the service's metrics
//! (their names are in `service::metrics`).

use super::super::error::ApiError;
use super::super::metrics::{ScrapeSample, render};
use super::super::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// `GET /metrics`: the Prometheus text exposition.
pub async fn scrape(State(state): State<Arc<AppState>>) -> Response {
    let cache = state.knowledge.table_cache_counts();
    let sample = ScrapeSample {
        jobs_running: state.jobs.running(),
        jobs_waiting: state.jobs.waiting(),
        cache_hits: cache.hits,
        cache_misses: cache.misses,
        proofs_loaded: state.knowledge.with_proofs(|p| p.files().len()),
    };
    match render(&sample) {
        Some(text) => (
            [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
            text,
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            "metrics-unavailable",
            "another metrics recorder is installed in this process",
        )
        .into_response(),
    }
}
