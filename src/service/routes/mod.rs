//! The routes: one file per group of endpoints.

mod analysis;
mod explorer;
mod health;
mod mate;
mod mate_answer;
mod mate_stream;
mod metrics;
mod perft;
mod prove;
mod puzzles;

use super::body::{BodyLimits, read_body};
use super::error::ApiError;
use super::state::AppState;
use super::web;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::routing::{get, post};
use std::sync::Arc;

/// The service's routes over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    let limit = state.config.max_body_bytes;
    let router = Router::new()
        .route("/", get(web::index))
        .route("/app.js", get(web::script))
        .route("/style.css", get(web::style))
        .route("/health", get(health::health))
        .route("/metrics", get(metrics::scrape))
        .route("/v1/puzzles", get(puzzles::list))
        .route("/v1/puzzles/{set}", get(puzzles::set))
        .route("/v1/puzzles/{set}/{id}", get(puzzles::puzzle))
        .route("/v1/{variant}", get(analysis::lookup))
        .route("/v1/{variant}/moves", get(analysis::moves))
        .route("/v1/{variant}/explorer", get(explorer::explorer))
        .route("/v1/{variant}/perft", get(perft::perft))
        .route("/v1/{variant}/mate", post(mate::mate))
        .route("/v1/{variant}/prove", post(prove::prove))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // `read_body` enforces the size limit before any extractor runs.
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(
            BodyLimits {
                bytes: limit,
                time: state.config.body_timeout,
            },
            read_body,
        ))
        // Outside the body limits: every answer is logged and counted,
        // refusals included.
        .layer(axum::middleware::from_fn(super::observe::observe));
    super::observe::request_ids(router).with_state(state)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found("not-found", format!("no such endpoint: {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// The budget of one search: what the request asks, within the server's
/// caps. A request asking for no nodes or no time at all is refused (400),
/// as the command line refuses `--max-nodes 0`.
fn budget(
    state: &AppState,
    max_nodes: Option<u64>,
    max_time_ms: Option<u64>,
) -> Result<crate::search::Budget, ApiError> {
    for (field, asked) in [("max_nodes", max_nodes), ("max_time_ms", max_time_ms)] {
        if asked == Some(0) {
            return Err(ApiError::bad_request(format!(
                "{field} must be at least 1 (leave it out for the server's cap)"
            )));
        }
    }
    let cfg = &state.config;
    Ok(crate::search::Budget {
        max_nodes: max_nodes.unwrap_or(cfg.max_nodes).min(cfg.max_nodes),
        max_time: Some(std::time::Duration::from_millis(
            max_time_ms.unwrap_or(cfg.max_time_ms).min(cfg.max_time_ms),
        )),
        hash_bytes: cfg.hash_mb.saturating_mul(1 << 20),
        stop: None,
    })
}
