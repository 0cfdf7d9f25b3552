//! `POST /v1/{variant}/prove`: the prover under a budget; a completed,
//! verified proof is written to the proof folder and served from then on.

use super::super::answer::Answer;
use super::super::error::ApiError;
use super::super::input;
use super::super::state::AppState;
use super::budget;
use crate::analysis::state_json;
use crate::dispatch;
use crate::notation::{fen, uci};
use crate::position::Position;
use crate::proving::ProofAnswer;
use crate::search::{Budget, ProofMeta, Verdict, prove_with_oracle};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The request body: a position (`fen`, else the start) and `moves` from it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProveRequest {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    budget: BudgetRequest,
}

/// A request's budget; both capped by the server's.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BudgetRequest {
    max_nodes: Option<u64>,
    max_time_ms: Option<u64>,
}

/// Proves who wins; 422 when the budget runs out first.
pub async fn prove(
    State(state): State<Arc<AppState>>,
    variant: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Answer, ApiError> {
    let variant = input::variant(variant)?;
    let request: ProveRequest = input::json_body(body)?;
    let start = input::position(variant, request.fen.as_deref())?;
    let mut pos = start.clone();
    let line = dispatch!(&mut pos, p => {
        let (after, line) = input::play(p, &request.moves)?;
        *p = after;
        line
    });
    let budget = budget(&state, request.budget.max_nodes, request.budget.max_time_ms)?;
    if let Some(answer) = dispatch!(&pos, p => stored_answer(&state, p)) {
        return Ok(Answer(answer));
    }
    let job_state = Arc::clone(&state);
    let start_fen = dispatch!(&start, p => fen::write(p));
    state
        .jobs
        .run(move || dispatch!(&pos, p => prove_and_store(&job_state, p, budget, start_fen, line)))
        .await?
}

fn prove_and_store<P: Position + std::any::Any>(
    state: &AppState,
    pos: &P,
    budget: Budget,
    start_fen: String,
    line: Vec<String>,
) -> Result<Answer, ApiError> {
    let oracle = state.knowledge.oracle::<P>();
    let report = prove_with_oracle(pos, &budget, oracle, &mut |_| {});
    let mut answer = ProofAnswer {
        nodes: report.nodes,
        time_ms: report.elapsed.as_secs_f64() * 1000.0,
        tablebase_hits: report.oracle_hits,
        position: state_json(pos),
        result: report.verdict.name(),
        winner: None,
        best: None,
        proof_positions: None,
        proof_depth: None,
        verified: false,
        proof_file: None,
        source: "search",
        notes: report.notes.clone(),
    };
    let winner = match report.verdict {
        Verdict::Win => pos.turn(),
        Verdict::Loss => !pos.turn(),
        Verdict::Unknown if report.exhausted => {
            let effort = json!({
                "nodes": answer.nodes,
                "time_ms": answer.time_ms,
                "tablebase_hits": answer.tablebase_hits,
                "notes": answer.notes,
            });
            return Err(ApiError::budget_exhausted(
                format!(
                    "not proved within the budget ({} nodes, {} ms at most)",
                    budget.max_nodes,
                    budget.max_time.map_or(0, |t| t.as_millis())
                ),
                effort,
            ));
        }
        // The search ended without a verified proof (e.g. neither side
        // has a forced win: disproofs are reported, not verified).
        Verdict::Unknown => return answer_with(&answer),
    };
    let (Some(proof), Some(verified)) = (&report.proof, report.verified) else {
        return Err(ApiError::internal(
            "a proof was found but did not pass the verifier",
        ));
    };
    let root_fen = fen::write(pos);
    let meta = ProofMeta {
        root_fen,
        winner: winner.name().into(),
        start_fen,
        line,
    };
    let start_is_initial = meta.start_fen == fen::write(&P::start());
    let path = state
        .config
        .proofs
        .join(meta.file_name(P::VARIANT, start_is_initial));
    let stored = store(state, proof, &path, meta)?;
    answer.winner = Some(winner.name());
    answer.best = report.best.map(uci::write);
    answer.proof_positions = Some(verified.positions);
    answer.proof_depth = Some(verified.depth);
    answer.verified = true;
    answer.proof_file = stored.then(|| path.display().to_string());
    answer.notes.clear();
    answer_with(&answer)
}

/// `answer` as the endpoint's JSON.
fn answer_with(answer: &ProofAnswer) -> Result<Answer, ApiError> {
    serde_json::to_value(answer)
        .map(Answer)
        .map_err(|e| ApiError::internal(format!("cannot write the answer: {e}")))
}

/// The answer a loaded proof rooted at `pos` gives at once (no search,
/// no worker): the result, the winner's move where the side to move wins,
/// and the proof's file and size.
fn stored_answer<P: Position + std::any::Any>(state: &AppState, pos: &P) -> Option<Value> {
    state.knowledge.with_proofs(|index| {
        let stored = index.rooted_at(pos)?;
        let winner = crate::board::Color::from_name(&stored.meta.winner)?;
        let answer = ProofAnswer {
            nodes: 0,
            time_ms: 0.0,
            tablebase_hits: 0,
            position: state_json(pos),
            result: if winner == pos.turn() { "win" } else { "loss" },
            winner: Some(winner.name()),
            best: index.winning_move(pos).map(uci::write),
            proof_positions: Some(stored.positions),
            proof_depth: Some(stored.depth),
            verified: true,
            proof_file: Some(stored.path.display().to_string()),
            source: "proof",
            notes: Vec::new(),
        };
        serde_json::to_value(answer).ok()
    })
}

/// Writes the proof to the proof folder and indexes it, unless this run
/// has stored its allowance already (`false` then).
fn store<P: Position>(
    state: &AppState,
    proof: &crate::search::Proof<P>,
    path: &std::path::Path,
    meta: ProofMeta,
) -> Result<bool, ApiError> {
    let mut stored = state
        .stored_proofs
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if path.is_file() {
        // Stored already (by an earlier request, or one that ran beside
        // this one): nothing new, and no unit of the allowance used.
        return Ok(true);
    }
    if *stored >= state.config.max_stored_proofs {
        return Ok(false);
    }
    let dir = &state.config.proofs;
    std::fs::create_dir_all(dir)
        .map_err(|e| ApiError::internal(format!("cannot create {}: {e}", dir.display())))?;
    // A failed write stores nothing and uses no unit of the allowance.
    proof
        .write(path, &meta)
        .map_err(|e| ApiError::internal(format!("cannot store the proof: {e}")))?;
    *stored += 1;
    state
        .knowledge
        .with_proofs_mut(|index| index.add_proof(proof, path, meta))
        .map_err(|e| ApiError::internal(format!("the stored proof does not verify: {e}")))?;
    Ok(true)
}
