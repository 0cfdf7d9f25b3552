//! Request bodies are read before routing, with two guards a slow or
//! lying client cannot get past: a declared `Content-Length` over the
//! limit is refused at once (413) without reading, and a body that has not
//! arrived within the configured time (`ServeConfig::body_timeout`, 10 s by
//! default) is refused (408), so a client that declares more bytes than it
//! sends cannot hold a connection for ever.

use super::error::ApiError;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::pin::Pin;
use std::time::Duration;

/// The body's limits: its size in bytes and the time it may take.
#[derive(Clone, Copy)]
pub struct BodyLimits {
    /// The largest body, in bytes.
    pub bytes: usize,
    /// How long it may take to arrive.
    pub time: Duration,
}

/// Reads the whole body (within its limits) before the handler runs.
pub async fn read_body(State(limits): State<BodyLimits>, request: Request, next: Next) -> Response {
    let limit = limits.bytes;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large(limit).into_response();
    }
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(limits.time, collect(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(Unread::TooLarge)) => return too_large(limit).into_response(),
        Ok(Err(Unread::Broken(e))) => {
            return ApiError::bad_request(format!("cannot read the request body: {e}"))
                .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "body-timeout",
                format!(
                    "the request body did not arrive within {} ms (is Content-Length right?)",
                    limits.time.as_millis()
                ),
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body-too-large",
        format!("request body too large: at most {limit} bytes"),
    )
}

/// Why a body was not read.
enum Unread {
    TooLarge,
    Broken(axum::Error),
}

/// The body's bytes, at most `limit` of them.
async fn collect(mut body: Body, limit: usize) -> Result<Bytes, Unread> {
    let mut bytes = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let Ok(data) = frame.map_err(Unread::Broken)?.into_data() else {
            continue; // trailers
        };
        if bytes.len() + data.len() > limit {
            return Err(Unread::TooLarge);
        }
        bytes.extend_from_slice(&data);
    }
    Ok(bytes.into())
}
