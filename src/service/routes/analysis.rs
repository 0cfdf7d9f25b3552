//! `GET /v1/{variant}?fen=`: what is known about a position (with
//! `&eval=MS`, also the engine's score and line); `GET
//! /v1/{variant}/moves?fen=`: its legal moves.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::input;
use super::super::input::QueryParams;
use super::super::state::AppState;
use crate::analysis::Knowledge;
use crate::analysis::think::EngineView;
use crate::analysis::{MoveWindow, analysis_json, holdings_json, state_json};
use crate::dispatch;
use crate::notation::{fen, san, uci};
use crate::position::Position;
use crate::variants::AnyPosition;
use axum::extract::rejection::PathRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

type Params = Result<Query<QueryParams>, QueryRejection>;

/// A request that values more moves than this runs on a blocking thread,
/// behind `--heavy-lookups`, so that it never holds up the async workers
/// that answer cheap requests.
const HEAVY_MOVES: usize = 64;

/// The position's category and distance from the rules, a tablebase or a
/// stored proof, and the legal moves of the window asked for with their
/// categories after them, best first.
pub async fn lookup(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    params: Params,
) -> Result<Answer, ApiError> {
    let started = Instant::now();
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let pos = input::position(variant, params.get("fen").map(String::as_str))?;
    let window = input::move_window(&params)?;
    let shared = Arc::clone(&state);
    let mut out = bounded(&state, &pos, window, move |pos| {
        dispatch!(pos, p => {
            let analysis = shared.knowledge.analyse_window(p, window);
            super::super::metrics::count_verdicts(&analysis);
            analysis_json(p, &analysis)
        })
    })
    .await?;
    out["nodes"] = 0.into();
    if let Some(ms) = eval_ms(&state, &params)? {
        let shared = Arc::clone(&state);
        let engine = state
            .jobs
            .run(move || dispatch!(&pos, p => engine_json(p, ms, &shared.knowledge)))
            .await?;
        out["nodes"] = engine["nodes"].clone();
        out["engine"] = engine;
    }
    out["time_ms"] = (started.elapsed().as_secs_f64() * 1000.0).into();
    Ok(Answer(out))
}

/// The engine's table size for one lookup, in MB (at most).
const ENGINE_HASH_MB: usize = 16;

/// The `eval` parameter: the engine's time in ms, capped by the server's
/// `--max-time-ms`; `None` without one.
fn eval_ms(state: &AppState, params: &QueryParams) -> Result<Option<u64>, ApiError> {
    let Some(text) = params.get("eval") else {
        return Ok(None);
    };
    match text.parse::<u64>() {
        Ok(ms) if ms >= 1 => Ok(Some(ms.min(state.config.max_time_ms))),
        _ => Err(ApiError::bad_request(format!(
            "eval must be the engine's time in ms, a whole number from 1 (capped at {}), not '{text}'",
            state.config.max_time_ms
        ))),
    }
}

/// The engine's view of `pos` after `ms` ms ([`EngineView`]: the
/// thinking policy's engine step, as UCI's `go` uses it), with the
/// server's endgame tables where they cover its variant.
fn engine_json<P: Position>(pos: &P, ms: u64, knowledge: &Knowledge) -> Value {
    let view = EngineView::search(
        pos,
        Duration::from_millis(ms),
        ENGINE_HASH_MB << 20,
        knowledge.oracle::<P>(),
    );
    serde_json::to_value(view).unwrap_or(Value::Null)
}

/// The legal moves of the window asked for, each with its SAN and the
/// position after it.
pub async fn moves(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    params: Params,
) -> Result<Answer, ApiError> {
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let pos = input::position(variant, params.get("fen").map(String::as_str))?;
    let window = input::move_window(&params)?;
    let out = bounded(
        &state,
        &pos,
        window,
        move |pos| dispatch!(pos, p => moves_json(p, window)),
    )
    .await?;
    Ok(Answer(out))
}

/// `work` on `pos`: at once when the window holds few moves, else on a
/// blocking thread once one of the `--heavy-lookups` slots is free.
pub(super) async fn bounded(
    state: &AppState,
    pos: &AnyPosition,
    window: MoveWindow,
    work: impl FnOnce(&AnyPosition) -> Value + Send + 'static,
) -> Result<Value, ApiError> {
    let valued = window.range(pos.legal_moves().len()).len();
    if valued <= HEAVY_MOVES {
        return Ok(work(pos));
    }
    let slot = Arc::clone(&state.heavy_lookups)
        .acquire_owned()
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let pos = pos.clone();
    // The slot goes with the work: a client that leaves does not free it
    // while the lookup still runs.
    tokio::task::spawn_blocking(move || {
        let answer = work(&pos);
        drop(slot);
        answer
    })
    .await
    .map_err(|e| ApiError::internal(format!("a lookup failed: {e}")))
}

fn moves_json<P: Position>(pos: &P, window: MoveWindow) -> Value {
    let legal = pos.playable_moves();
    let moves: Vec<Value> = legal[window.range(legal.len())]
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            json!({
                "uci": uci::write(m),
                "san": san::write_in::<P>(&legal, m),
                "fen": fen::write(&child),
            })
        })
        .collect();
    json!({
        "position": state_json(pos),
        "holdings": holdings_json(pos),
        "moves": moves,
        "moves_total": legal.len(),
        "truncated": moves.len() < legal.len(),
    })
}
