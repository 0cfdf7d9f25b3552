//! `POST /v1/{variant}/mate` with `"stream": true`: the answer as JSON lines
//! (`application/x-ndjson`), each a whole mate answer with an `event`:
//!
//! - `"found"`: a mate found and verified whose length is not certified yet
//!   (`"shortest": false`), sent as soon as it is known;
//! - `"final"`: the answer `ransom mate --json` gives, `"shortest": true`
//!   once no shorter mate exists, `"proven": "unknown"` with an `error`
//!   object when the budget ended with no mate at all;
//! - `"error"`: the search failed (`{"error": {"code", "message"}}`).
//!
//! The request is checked and admitted to the worker pool before the status
//! line is sent, so a bad request is still a 4xx and a full pool a 503.

use super::super::answer::AnswerFacts;
use super::super::jobs::Admission;
use super::super::state::AppState;
use super::mate_answer::answer_json;
use crate::analysis::Knowledge;
use crate::dispatch;
use crate::position::Position;
use crate::search::mate::{MateOptions, MateReport, MateStatus, solve_mate_streaming};
use crate::variants::AnyPosition;
use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

/// The streamed answer: the search runs on the admitted worker and sends
/// each line as it is ready; the body ends when the search does.
pub fn respond(
    admission: Admission,
    state: Arc<AppState>,
    pos: AnyPosition,
    options: MateOptions,
    limit: usize,
) -> Response {
    let (lines, receiver) = unbounded_channel::<Bytes>();
    tokio::spawn(async move {
        let sender = lines.clone();
        let work = admission.run(
            move || dispatch!(&pos, p => solve(p, &options, limit, &state.knowledge, &sender)),
        );
        let ran = tokio::select! {
            // The client left while the search waited for a worker: its
            // place is given back. (A search that has started owns its
            // place and runs to its budget.)
            () = lines.closed() => return,
            ran = work => ran,
        };
        if let Err(error) = ran {
            let mut line = error.body();
            line["event"] = "error".into();
            send(&lines, &line);
        }
    });
    let body = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let line = receiver.recv().await?;
        Some((Ok::<_, Infallible>(line), receiver))
    });
    let mut response = (
        [(CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response();
    response.extensions_mut().insert(AnswerFacts {
        source: Some("search".into()),
        ..AnswerFacts::default()
    });
    response
}

/// Searches, sending the `found` line from inside the search and the
/// `final` line at its end. A client that has gone away does not stop the
/// search (it runs to its budget, as every search of the service does).
fn solve<P: Position>(
    pos: &P,
    options: &MateOptions,
    limit: usize,
    knowledge: &Knowledge,
    lines: &UnboundedSender<Bytes>,
) {
    let max = options.max;
    let mut on_found = |early: &MateReport| {
        let mut line = answer_json(pos, early, max, limit);
        line["event"] = "found".into();
        send(lines, &line);
    };
    let report = solve_mate_streaming(
        pos,
        options,
        knowledge.oracle::<P>(),
        &mut |_| {},
        &mut on_found,
    );
    let mut line = answer_json(pos, &report, max, limit);
    line["event"] = "final".into();
    if report.status == MateStatus::Unknown {
        line["error"] = json!({
            "code": "budget-exhausted",
            "message": "no answer within the budget",
        });
    }
    send(lines, &line);
}

/// Sends one JSON line; a closed channel (the client left) is not an error.
fn send(lines: &UnboundedSender<Bytes>, line: &Value) {
    let _ = lines.send(Bytes::from(format!("{line}\n")));
}
