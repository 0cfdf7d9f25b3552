//! [`ApiError`]: every failure as JSON `{"error": {"code", "message"}}` with
//! its HTTP status.

use super::answer::AnswerFacts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable kebab-case code (`bad-fen`, `budget-exhausted`, ...).
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
    /// Further fields merged into the answer (e.g. the effort spent).
    pub extra: Option<Value>,
}

impl ApiError {
    /// An error with a status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: None,
        }
    }

    /// 400: malformed input in general.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 400: a FEN that cannot be read or is not a legal position.
    pub fn bad_fen(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-fen", message)
    }

    /// 400: a move that cannot be read or is not legal.
    pub fn bad_move(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-move", message)
    }

    /// 404: no such thing.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 422: the search ended at its budget without an answer.
    pub fn budget_exhausted(message: impl Into<String>, effort: Value) -> ApiError {
        ApiError {
            extra: Some(effort),
            ..ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "budget-exhausted",
                message,
            )
        }
    }

    /// 503: too many searches running and waiting.
    pub fn overloaded() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "overloaded",
            "every solver worker is busy and the queue is full; try again later",
        )
    }

    /// 500: a bug.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut body = json!({"error": {"code": self.code, "message": self.message}});
        if let (Some(Value::Object(extra)), Value::Object(map)) = (&self.extra, &mut body) {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        body
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // The effort an error reports (`nodes` of a search cut short).
        let effort = self.extra.as_ref().map(AnswerFacts::of_body);
        let facts = AnswerFacts {
            error: Some(self.code),
            source: None,
            ..effort.unwrap_or_default()
        };
        let mut response = (self.status, axum::Json(self.body())).into_response();
        response.extensions_mut().insert(facts);
        response
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}
