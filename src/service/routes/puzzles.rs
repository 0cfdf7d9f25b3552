//! `GET /v1/puzzles`, `/v1/puzzles/{set}`, `/v1/puzzles/{set}/{id}`.

use super::super::error::ApiError;
use super::super::puzzle_sets::PuzzleSet;
use super::super::state::AppState;
use crate::analysis::{holdings_json, move_steps};
use crate::for_variant;
use crate::notation::{fen, parse_move};
use crate::position::Position;
use crate::search::mate::Puzzle;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

/// Every set: name, variant and size.
pub async fn list(State(state): State<Arc<AppState>>) -> Json<Value> {
    let sets: Vec<Value> = state
        .puzzles
        .sets
        .iter()
        .map(|s| json!({"name": s.name, "variant": s.variant.name(), "count": s.puzzles.len()}))
        .collect();
    Json(json!({"sets": sets}))
}

fn find<'a>(state: &'a AppState, name: &str) -> Result<&'a PuzzleSet, ApiError> {
    state
        .puzzles
        .get(name)
        .ok_or_else(|| ApiError::not_found("unknown-set", format!("no puzzle set '{name}'")))
}

/// One set: its puzzles' ids, lengths and positions.
pub async fn set(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let Path(name) = path.map_err(|e| ApiError::bad_request(e.to_string()))?;
    let set = find(&state, &name)?;
    let puzzles: Vec<Value> = set
        .puzzles
        .iter()
        .map(|p| json!({"id": p.id, "mate": p.length, "fen": p.fen, "unique": p.unique()}))
        .collect();
    Ok(Json(json!({
        "name": set.name,
        "variant": set.variant.name(),
        "puzzles": puzzles,
    })))
}

/// One puzzle (by its id, or by its 1-based number in the set), with its
/// holdings and the main line's positions.
pub async fn puzzle(
    State(state): State<Arc<AppState>>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let Path((name, id)) = path.map_err(|e| ApiError::bad_request(e.to_string()))?;
    let set = find(&state, &name)?;
    let puzzle = set
        .puzzles
        .iter()
        .find(|p| p.id == id)
        .or_else(|| {
            let n: usize = id.parse().ok()?;
            set.puzzles.get(n.checked_sub(1)?)
        })
        .ok_or_else(|| {
            ApiError::not_found(
                "unknown-puzzle",
                format!("set '{name}' has no puzzle '{id}'"),
            )
        })?;
    let mut out = serde_json::to_value(puzzle)
        .map_err(|e| ApiError::internal(format!("puzzle does not serialize: {e}")))?;
    out["variant"] = set.variant.name().into();
    out["set"] = set.name.clone().into();
    out["unique"] = puzzle.unique().into();
    let (holdings, steps) = for_variant!(set.variant, details(puzzle));
    out["holdings"] = holdings;
    out["main_line_steps"] = steps.into();
    Ok(Json(out))
}

/// The holdings of the puzzle's position and the positions along its main
/// line (as far as the line reads).
fn details<P: Position>(puzzle: &Puzzle) -> (Value, Vec<Value>) {
    let Ok(pos) = fen::parse_position::<P>(&puzzle.fen) else {
        return (Value::Null, Vec::new());
    };
    let mut line = Vec::new();
    let mut at = pos.clone();
    for token in puzzle.pv.split([' ', ',']).filter(|t| !t.is_empty()) {
        if token == "--" {
            break; // a passed turn cannot be stepped through
        }
        let Ok(m) = parse_move(&at, token) else { break };
        line.push(m);
        at.play_unchecked(m);
    }
    (holdings_json(&pos), move_steps(&pos, &line))
}
