//! `GET /v1/puzzles`, `/v1/puzzles/{set}`, `/v1/puzzles/{set}/{id}`. A
//! puzzle is proved again (as `ransom puzzles verify` does) before it is
//! first served; the verdict is kept.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::puzzle_sets::{PuzzleSet, PuzzleVerdict};
use super::super::state::AppState;
use super::budget;
use crate::analysis::{holdings_json, move_steps};
use crate::for_variant;
use crate::notation::{fen, parse_move};
use crate::position::Position;
use crate::search::mate::{Puzzle, PuzzleCheck, check_puzzle};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

/// Every set: name, variant and size.
pub async fn list(State(state): State<Arc<AppState>>) -> Answer {
    let sets: Vec<Value> = state
        .puzzles
        .sets
        .iter()
        .map(|s| json!({"name": s.name, "variant": s.variant.name(), "count": s.puzzles.len()}))
        .collect();
    Answer(json!({"sets": sets}))
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
) -> Result<Answer, ApiError> {
    let Path(name) = path.map_err(|e| ApiError::bad_request(e.to_string()))?;
    let set = find(&state, &name)?;
    let puzzles: Vec<Value> = set
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let checked = match set.verdict(i) {
                None => Value::Null,
                Some(Ok(_)) => "verified".into(),
                Some(Err(_)) => "failed".into(),
            };
            json!({"id": p.id, "mate": p.length, "fen": p.fen, "unique": p.unique(), "checked": checked})
        })
        .collect();
    Ok(Answer(json!({
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
) -> Result<Answer, ApiError> {
    let Path((name, id)) = path.map_err(|e| ApiError::bad_request(e.to_string()))?;
    let set = find(&state, &name)?;
    let index = set
        .puzzles
        .iter()
        .position(|p| p.id == id)
        .or_else(|| {
            let n: usize = id.parse().ok()?;
            n.checked_sub(1).filter(|&i| i < set.puzzles.len())
        })
        .ok_or_else(|| {
            ApiError::not_found(
                "unknown-puzzle",
                format!("set '{name}' has no puzzle '{id}'"),
            )
        })?;
    let puzzle = &set.puzzles[index];
    let verified_positions = match set.verdict(index) {
        Some(verdict) => served(set, puzzle, verdict)?,
        None => served(set, puzzle, &prove_again(&state, set, index).await?)?,
    };
    let mut out = serde_json::to_value(puzzle)
        .map_err(|e| ApiError::internal(format!("puzzle does not serialize: {e}")))?;
    out["variant"] = set.variant.name().into();
    out["set"] = set.name.clone().into();
    out["unique"] = puzzle.unique().into();
    let (holdings, steps) = for_variant!(set.variant, details(puzzle));
    out["holdings"] = holdings;
    out["main_line_steps"] = steps.into();
    out["verified_positions"] = verified_positions.into();
    Ok(Answer(out))
}

/// Proves puzzle `index` of `set` again on a solver worker, within
/// the server's budget, and keeps the verdict (on the worker, so that it
/// is kept even if the client has gone). A check cut short by the budget
/// gives no verdict: 503, nothing kept.
async fn prove_again(
    state: &Arc<AppState>,
    set: &PuzzleSet,
    index: usize,
) -> Result<PuzzleVerdict, ApiError> {
    let budget = budget(state, None, None)?;
    let shared = Arc::clone(state);
    let set_name = set.name.clone();
    let verdict = state
        .jobs
        .run(move || {
            let set = shared.puzzles.get(&set_name)?;
            let puzzle = &set.puzzles[index];
            let check = for_variant!(set.variant, check_puzzle(puzzle, budget));
            let verdict = verdict_of(&check)?;
            Some(set.record_verdict(index, verdict).clone())
        })
        .await?;
    verdict.ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "puzzle-unchecked",
            format!(
                "puzzle '{}' of set '{}' could not be proved again within this server's \
                 budget ({} nodes, {} ms); it is served only once proved",
                set.puzzles[index].id,
                set.name,
                budget.max_nodes,
                budget.max_time.map_or(0, |t| t.as_millis())
            ),
        )
    })
}

/// The verdict of a check, or `None` when the budget cut it short before
/// it could say either way ([`PuzzleCheck::cut_short`]).
fn verdict_of(check: &PuzzleCheck) -> Option<PuzzleVerdict> {
    if check.cut_short {
        return None;
    }
    Some(if check.failures.is_empty() {
        Ok(check.report.verified.map_or(0, |v| v.positions))
    } else {
        Err(check.failures.clone())
    })
}

/// The verified positions of a puzzle that passed, or a 500 naming how its
/// record disagrees with the proof: a wrong solution is never served.
fn served(set: &PuzzleSet, puzzle: &Puzzle, verdict: &PuzzleVerdict) -> Result<u64, ApiError> {
    verdict.clone().map_err(|failures| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "puzzle-failed-check",
            format!(
                "puzzle '{}' of set '{}' does not pass verification: {}",
                puzzle.id,
                set.name,
                failures.join("; ")
            ),
        )
    })
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
