//! `ransom serve`: the HTTP JSON analysis service (axum + tokio) and its
//! web page.
//!
//! Connections are accepted by hyper's HTTP/1 server with a header timeout
//! and a cap on open connections (`listen`). Lookups (tablebases, stored
//! proofs, the solved-position stores read again every few seconds by
//! `store_refresh`, legal moves) answer on the async threads, those that value many
//! moves on a bounded number of blocking threads; searches (mate, prove, perft) run on a bounded pool of solver
//! threads with per-request budgets capped by the server's
//! ([`ServeConfig`]). Every error is JSON `{"error": {"code", "message"}}`.
//! Each answer is logged (`request_log`, tracing) and counted (`metrics`,
//! `GET /metrics` in the Prometheus text format) by `observe`.
//! The endpoints are listed in `docs/service.md`.

mod answer;
mod body;
mod config;
mod error;
mod health_answer;
mod health_probe;
mod input;
mod jobs;
mod listen;
mod logging;
mod metrics;
mod observe;
mod puzzle_sets;
mod request_log;
mod route_paths;
mod routes;
mod server;
mod state;
mod store_refresh;
mod web;

pub use answer::{Answer, AnswerFacts};
pub use config::ServeConfig;
pub use error::ApiError;
pub use health_probe::{Unhealthy, probe_health};
pub use logging::{LogError, LogFormat, LogGuard, init_logging};
pub use metrics::NAMES as METRIC_NAMES;
pub use puzzle_sets::{PuzzleSet, PuzzleSets};
pub use route_paths::ROUTES;
pub use routes::router;
pub use server::{Server, run};
pub use state::AppState;
