//! `GET /v1/{variant}/explorer?moves=e2e3,c7c5` (or `fen=`, or both: the
//! moves played from the FEN): the position and every legal move with what
//! the rules, the tables, the proofs and the solved-position stores know
//! after it, best first; open positions of checkpointed searches with their
//! numbers, and the searches rooted at the position with their frontiers.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::input;
use super::super::input::QueryParams;
use super::super::state::AppState;
use super::analysis::bounded;
use crate::analysis::{explore, explorer_json};
use crate::dispatch;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// The most moves `moves=` may hold.
const MAX_LINE_MOVES: usize = 1000;

/// The explorer's answer (see the module's notes).
pub async fn explorer(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    params: Result<Query<QueryParams>, QueryRejection>,
) -> Result<Answer, ApiError> {
    let started = Instant::now();
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let mut pos = input::position(variant, params.get("fen").map(String::as_str))?;
    let line: Vec<String> = params
        .get("moves")
        .map(|text| {
            text.split([',', ' '])
                .filter(|m| !m.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if line.len() > MAX_LINE_MOVES {
        return Err(ApiError::bad_request(format!(
            "moves holds {} moves; at most {MAX_LINE_MOVES}",
            line.len()
        )));
    }
    let played = dispatch!(&mut pos, p => {
        let (reached, played) = input::play(p, &line)?;
        *p = reached;
        played
    });
    let window = input::move_window(&params)?;
    let shared = Arc::clone(&state);
    let mut out = bounded(&state, &pos, window, move |pos| {
        dispatch!(pos, p => {
            let exploration = explore(&shared.knowledge, p, window);
            explorer_json(p, &exploration)
        })
    })
    .await?;
    out["variant"] = variant.name().into();
    out["line"] = played.into();
    out["stores"] = state
        .knowledge
        .stores()
        .map(|s| {
            s.summary()
                .iter()
                .filter(|x| x.variant == variant)
                .map(|x| {
                    json!({
                        "dir": x.root.display().to_string(),
                        "positions": x.positions,
                        "searches": x.searches,
                        "open_positions": x.open_positions,
                    })
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into();
    out["time_ms"] = (started.elapsed().as_secs_f64() * 1000.0).into();
    Ok(Answer(out))
}
