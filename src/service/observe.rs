//! The middleware that observes every answer: it logs it
//! ([`super::request_log`]) and counts it ([`super::metrics`]). Request
//! ids come from tower-http ([`request_ids`]): a client's `x-request-id`
//! is kept, else the service numbers its requests; either way the answer
//! carries it back.

use super::answer::AnswerFacts;
use super::metrics;
use super::request_log::{self, RequestRecord};
use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};

/// Logs and counts one request's answer.
pub async fn observe(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = metrics::route_label(
        request
            .extensions()
            .get::<MatchedPath>()
            .map(MatchedPath::as_str),
    );
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .map(str::to_owned);
    let response = next.run(request).await;
    let latency = started.elapsed();
    let facts = response.extensions().get::<AnswerFacts>();
    request_log::log(&RequestRecord {
        method: method.as_str(),
        path: &path,
        route,
        request_id: request_id.as_deref(),
        status: response.status().as_u16(),
        latency,
        facts,
    });
    metrics::count(route, method.as_str(), response.status(), latency, facts);
    response
}

/// Numbers requests `1`, `2`, ... per server.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicU64>);

impl MakeRequestId for Counter {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        Some(RequestId::new(n.to_string().parse().ok()?))
    }
}

/// `router` with `x-request-id` set on each request (a client's own is
/// kept) and copied to its answer.
pub fn request_ids<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(Counter::default()))
}
