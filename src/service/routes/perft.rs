//! `GET /v1/{variant}/perft?fen=&depth=`: leaf counts, depth capped and
//! the count stopped at the server's node and time budget.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::input;
use super::super::input::QueryParams;
use super::super::state::AppState;
use crate::analysis::state_json;
use crate::dispatch;
use crate::notation::uci;
use crate::position::Position;
use axum::extract::rejection::PathRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The perft count with its divide (per first move).
pub async fn perft(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    params: Result<Query<QueryParams>, QueryRejection>,
) -> Result<Answer, ApiError> {
    let variant = input::variant(variant)?;
    let params = input::query(params)?;
    let pos = input::position(variant, params.get("fen").map(String::as_str))?;
    let cap = state.config.max_perft_depth;
    let depth: u32 = input::number(&params, "depth")?
        .ok_or_else(|| ApiError::bad_request("depth is required (1 to the server's cap)"))?;
    if !(1..=cap).contains(&depth) {
        return Err(ApiError::bad_request(format!(
            "depth {depth} is out of range: this server counts depths 1 to {cap}"
        )));
    }
    let (max_nodes, max_time_ms) = (state.config.max_nodes, state.config.max_time_ms);
    let started = Instant::now();
    let out = state
        .jobs
        .run(move || {
            // The budget starts when a worker takes the count, not in the queue.
            let mut limit = Limit {
                visited: 0,
                max_nodes,
                deadline: Instant::now()
                    .checked_add(Duration::from_millis(max_time_ms))
                    .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365)),
            };
            dispatch!(&pos, p => divide_json(p, depth, &mut limit))
        })
        .await??;
    let mut out = out;
    out["time_ms"] = (started.elapsed().as_secs_f64() * 1000.0).into();
    Ok(Answer(out))
}

/// The node and time budget of one count.
struct Limit {
    visited: u64,
    max_nodes: u64,
    deadline: Instant,
}

impl Limit {
    /// Counts `n` more positions; `None` once the budget is spent.
    fn spend(&mut self, n: u64) -> Option<()> {
        let before = self.visited;
        self.visited += n;
        if self.visited > self.max_nodes {
            return None;
        }
        if before >> 14 != self.visited >> 14 && Instant::now() > self.deadline {
            return None;
        }
        Some(())
    }
}

fn count<P: Position>(pos: &P, depth: u32, limit: &mut Limit) -> Option<u64> {
    if pos.decided_before_moving() {
        return Some(0);
    }
    let moves = pos.legal_moves();
    limit.spend(moves.len() as u64)?;
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut total = 0;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count(&child, depth - 1, limit)?;
    }
    Some(total)
}

fn divide_json<P: Position>(pos: &P, depth: u32, limit: &mut Limit) -> Result<Value, ApiError> {
    let exhausted = |limit: &Limit| {
        ApiError::budget_exhausted(
            format!(
                "perft {depth} stopped at the server's budget after {} positions",
                limit.visited
            ),
            json!({"nodes": limit.visited}),
        )
    };
    let mut rows = Vec::new();
    let mut total = 0;
    let moves = if pos.decided_before_moving() {
        Default::default()
    } else {
        pos.legal_moves()
    };
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let n = if depth == 1 {
            1
        } else {
            match count(&child, depth - 1, limit) {
                Some(n) => n,
                None => return Err(exhausted(limit)),
            }
        };
        total += n;
        rows.push(json!({"uci": uci::write(m), "nodes": n}));
    }
    Ok(json!({
        "position": state_json(pos),
        "depth": depth,
        "nodes": total,
        "divide": rows,
        "visited": limit.visited,
    }))
}
