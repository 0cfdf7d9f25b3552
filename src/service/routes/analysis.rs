//! `GET /v1/{variant}?fen=`: what is known about a position; `GET
//! /v1/{variant}/moves?fen=`: its legal moves.

use super::super::error::ApiError;
use super::super::input;
use super::super::state::AppState;
use crate::analysis::{Knowledge, analysis_json, holdings_json, state_json};
use crate::dispatch;
use crate::notation::{fen, san, uci};
use crate::position::Position;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use serde_json::{Value, json};
use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The position's category and distance from the rules, a tablebase or a
/// stored proof, and every legal move with its category after it, best first.
pub async fn lookup(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let started = Instant::now();
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let pos = input::position(variant, params.get("fen").map(String::as_str))?;
    let mut out = dispatch!(&pos, p => lookup_json(&state.knowledge, p));
    out["nodes"] = 0.into();
    out["time_ms"] = (started.elapsed().as_secs_f64() * 1000.0).into();
    Ok(Json(out))
}

fn lookup_json<P: Position + Any>(knowledge: &Knowledge, pos: &P) -> Value {
    analysis_json(pos, &knowledge.analyse(pos))
}

/// The legal moves, each with its SAN and the position after it.
pub async fn moves(
    variant: Result<Path<String>, PathRejection>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let pos = input::position(variant, params.get("fen").map(String::as_str))?;
    Ok(Json(dispatch!(&pos, p => moves_json(p))))
}

fn moves_json<P: Position>(pos: &P) -> Value {
    let legal = pos.playable_moves();
    let moves: Vec<Value> = legal
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
    })
}
