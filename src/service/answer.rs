//! [`Answer`]: a JSON answer carrying, beside its body, the facts that the
//! request log and the metrics record about it ([`AnswerFacts`]).

use axum::Json;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// What one answer tells about the work behind it, attached to the response
/// as an extension for the request log and the metrics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFacts {
    /// The nodes the answer reports: searched (mate, prove), counted
    /// (perft) or none (lookups).
    pub nodes: Option<u64>,
    /// Where the answer came from (`search`, `tablebase`, `proof`, `rules`,
    /// `none`).
    pub source: Option<String>,
    /// The error code of an error answer.
    pub error: Option<&'static str>,
}

impl AnswerFacts {
    /// The facts a JSON body states itself: its top-level `nodes` and `source`.
    pub fn of_body(body: &Value) -> AnswerFacts {
        AnswerFacts {
            nodes: body.get("nodes").and_then(Value::as_u64),
            source: body
                .get("source")
                .and_then(Value::as_str)
                .map(str::to_owned),
            error: None,
        }
    }
}

/// A JSON answer (200) with its facts.
#[derive(Debug)]
pub struct Answer(pub Value);

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let facts = AnswerFacts::of_body(&self.0);
        let mut response = Json(self.0).into_response();
        response.extensions_mut().insert(facts);
        response
    }
}
