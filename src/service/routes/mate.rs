//! `POST /v1/{variant}/mate`: the shortest mate with its verified solution tree.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::input;
use super::super::state::AppState;
use super::budget;
use super::mate_answer::answer_json;
use crate::analysis::Knowledge;
use crate::dispatch;
use crate::position::Position;
use crate::search::Budget;
use crate::search::mate::{MateOptions, MateStatus, solve_mate_with};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MateRequest {
    /// The position (default: the variant's start).
    fen: Option<String>,
    /// Moves played from it first.
    #[serde(default)]
    moves: Vec<String>,
    /// The longest mate to look for (default 5).
    max: Option<u16>,
    max_nodes: Option<u64>,
    max_time_ms: Option<u64>,
    /// List every key of the shortest length.
    #[serde(default)]
    all_keys: bool,
    /// The most moves of the tree to return (default 400).
    tree_limit: Option<usize>,
    /// Answer in JSON lines: the first verified mate as soon as it is
    /// found, then the final answer (see [`super::mate_stream`]).
    #[serde(default)]
    stream: bool,
}

/// Solves the mate; 422 when the budget runs out first. With `"stream":
/// true` the answer is JSON lines instead ([`super::mate_stream`]).
pub async fn mate(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let variant = input::variant(variant)?;
    let request: MateRequest = input::json_body(body)?;
    let cap = state.config.max_mate;
    let max = request.max.unwrap_or(5);
    if !(1..=cap).contains(&max) {
        return Err(ApiError::bad_request(format!(
            "max {max} is out of range: this server looks for mates of 1 to {cap} moves"
        )));
    }
    let mut pos = input::position(variant, request.fen.as_deref())?;
    dispatch!(&mut pos, p => *p = input::play(p, &request.moves)?.0);
    let options = MateOptions {
        max,
        all_keys: request.all_keys,
        budget: budget(&state, request.max_nodes, request.max_time_ms)?,
        threads: 1,
    };
    let limit = request.tree_limit.unwrap_or(400).min(5000);
    if request.stream {
        let admission = state.jobs.admit()?;
        return Ok(super::mate_stream::respond(
            admission, state, pos, options, limit,
        ));
    }
    let shared = Arc::clone(&state);
    state
        .jobs
        .run(move || dispatch!(&pos, p => solve(p, options, limit, &shared.knowledge)))
        .await?
        .map(IntoResponse::into_response)
}

/// Solves with the tables the service has (Losing chess: they rule lines
/// out, see [`crate::search::mate::MateSearch::with_oracle`]).
fn solve<P: Position>(
    pos: &P,
    options: MateOptions,
    limit: usize,
    knowledge: &Knowledge,
) -> Result<Answer, ApiError> {
    let max = options.max;
    let budget: Budget = options.budget;
    let report = solve_mate_with(pos, &options, knowledge.oracle::<P>(), &mut |_| {});
    if report.status == MateStatus::Unknown {
        return Err(ApiError::budget_exhausted(
            format!(
                "no answer within the budget ({} nodes, {} ms at most)",
                budget.max_nodes,
                budget.max_time.map_or(0, |t| t.as_millis())
            ),
            json!({
                "nodes": report.nodes,
                "time_ms": report.elapsed.as_secs_f64() * 1000.0,
                "notes": report.notes,
            }),
        ));
    }
    Ok(Answer(answer_json(pos, &report, max, limit)))
}
