//! The request log: one `answered` event per request (method, path,
//! variant, route, status, latency, nodes, source, error code, request id),
//! recorded with `tracing` by [`super::observe`]. What is printed, and how
//! (text or JSON lines), is the subscriber's business: `ransom serve`
//! installs one ([`crate::service::init_logging`]).
//!
//! One event and no per-request span: a span costs the subscriber a slot,
//! its fields formatted when it opens and, in JSON, parsed again for each
//! event (measured in docs/service.md, "Logs and metrics").

use super::answer::AnswerFacts;
use std::time::Duration;

/// The longest variant name logged; a longer path segment is cut.
const VARIANT_CHARS: usize = 24;
/// The longest path logged.
const PATH_CHARS: usize = 256;
/// The longest request id logged.
const REQUEST_ID_CHARS: usize = 64;

/// What the log says of one request and its answer.
#[derive(Debug)]
pub struct RequestRecord<'a> {
    /// The method.
    pub method: &'a str,
    /// The path asked for (without the query).
    pub path: &'a str,
    /// The route's pattern (`/v1/{variant}`), `unmatched` for none.
    pub route: &'a str,
    /// The `x-request-id` of the request (the client's, or the one the
    /// service gave it).
    pub request_id: Option<&'a str>,
    /// The status sent.
    pub status: u16,
    /// From the request's arrival to its answer.
    pub latency: Duration,
    /// What the answer says of its work.
    pub facts: Option<&'a AnswerFacts>,
}

/// Logs `record` as one `answered` event at level info.
pub fn log(record: &RequestRecord) {
    let facts = record.facts;
    // Written with Display, not Debug: no quoting or escaping to pay for,
    // and none needed (a path is percent-encoded, a header value visible
    // ASCII: neither can break a line).
    let request_id = record.request_id.map_or("", |id| cut(id, REQUEST_ID_CHARS));
    tracing::info!(
        method = %record.method,
        path = %cut(record.path, PATH_CHARS),
        variant = variant_of(record.path).map(tracing::field::display),
        route = %record.route,
        status = record.status,
        latency_ms = record.latency.as_micros() as f64 / 1000.0,
        nodes = facts.and_then(|f| f.nodes),
        source = facts.and_then(|f| f.source.as_deref()).map(tracing::field::display),
        error = facts.and_then(|f| f.error).map(tracing::field::display),
        request_id = %request_id,
        "answered"
    );
}

/// `text` cut to at most `chars` characters.
fn cut(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The variant a path names (`/v1/{variant}...`), cut to a few characters;
/// `None` for other paths.
fn variant_of(path: &str) -> Option<&str> {
    let mut parts = path.split('/').skip(1);
    match (parts.next(), parts.next()) {
        (Some("v1"), Some(v)) if v != "puzzles" => Some(cut(v, VARIANT_CHARS)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{cut, variant_of};

    #[test]
    fn the_variant_is_the_segment_after_v1() {
        assert_eq!(variant_of("/v1/antichess"), Some("antichess"));
        assert_eq!(variant_of("/v1/hostage/moves"), Some("hostage"));
        assert_eq!(variant_of("/v1/puzzles/set/1"), None);
        assert_eq!(variant_of("/health"), None);
        let long = format!("/v1/{}", "é".repeat(40));
        assert_eq!(variant_of(&long).map(|v| v.chars().count()), Some(24));
    }

    #[test]
    fn long_fields_are_cut_on_character_boundaries() {
        assert_eq!(cut("abc", 5), "abc");
        assert_eq!(cut("ééé", 2), "éé");
    }
}
