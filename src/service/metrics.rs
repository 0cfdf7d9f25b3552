//! `GET /metrics`: the service's metrics in the Prometheus text format,
//! recorded with the `metrics` crate and rendered by
//! `metrics-exporter-prometheus`.
//!
//! Request counts and latencies are recorded by [`count`] as answers
//! leave; gauges (job queue, open connections) and the table block-cache
//! counts are read when the metrics are scraped. Names are listed in
//! [`NAMES`] (and in the README).

use super::answer::AnswerFacts;
use crate::analysis::{Analysis, Source};
use axum::http::StatusCode;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// Requests answered, by `route` (the route's pattern), `method` and `status`.
pub const REQUESTS: &str = "ransom_http_requests_total";
/// Seconds from a request's arrival to its answer, by `route`.
pub const REQUEST_SECONDS: &str = "ransom_http_request_duration_seconds";
/// Nodes the answers report (searched or counted), by `route`.
pub const NODES: &str = "ransom_nodes_total";
/// Answers by the `source` they came from (`search`, `tablebase`, `proof`, `store`, `rules`, `none`).
pub const ANSWERS: &str = "ransom_answers_total";
/// Position values given by lookups (the position and each listed move), by `source`.
pub const VERDICTS: &str = "ransom_verdicts_total";
/// Searches running on a solver worker.
pub const JOBS_RUNNING: &str = "ransom_jobs_running";
/// Searches admitted and waiting for a worker.
pub const JOBS_WAITING: &str = "ransom_jobs_waiting";
/// Searches refused because the workers and the queue were full (503 `overloaded`).
pub const JOBS_REJECTED: &str = "ransom_jobs_rejected_total";
/// Open connections.
pub const CONNECTIONS_OPEN: &str = "ransom_connections_open";
/// Connections refused over `--max-connections` (503 `too-many-connections`).
pub const CONNECTIONS_REJECTED: &str = "ransom_connections_rejected_total";
/// Table lookups whose block was in a table's cache.
pub const TABLE_CACHE_HITS: &str = "ransom_table_cache_hits_total";
/// Table lookups that had to decompress their block.
pub const TABLE_CACHE_MISSES: &str = "ransom_table_cache_misses_total";
/// Stored proofs loaded, and verified, at start.
pub const PROOFS_LOADED: &str = "ransom_proofs_loaded";

/// Every metric name the service exports.
pub const NAMES: [&str; 13] = [
    REQUESTS,
    REQUEST_SECONDS,
    NODES,
    ANSWERS,
    VERDICTS,
    JOBS_RUNNING,
    JOBS_WAITING,
    JOBS_REJECTED,
    CONNECTIONS_OPEN,
    CONNECTIONS_REJECTED,
    TABLE_CACHE_HITS,
    TABLE_CACHE_MISSES,
    PROOFS_LOADED,
];

/// Latency buckets in seconds: 50 µs (a cached lookup) to 60 s (a long search).
const LATENCY_BUCKETS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
    5.0, 15.0, 60.0,
];

/// The process's recorder, installed on first use; `None` when another
/// recorder was installed first (a program embedding the service), in which
/// case `/metrics` says so.
fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(REQUEST_SECONDS.into()), &LATENCY_BUCKETS)
                .ok()?
                .install_recorder()
                .ok()
        })
        .as_ref()
}

/// Installs the recorder (if no other is) and describes the metrics.
pub fn install() {
    if handle().is_none() {
        return;
    }
    metrics::describe_counter!(REQUESTS, "Requests answered, by route, method and status.");
    metrics::describe_histogram!(
        REQUEST_SECONDS,
        metrics::Unit::Seconds,
        "Time from a request's arrival to its answer, by route."
    );
    metrics::describe_counter!(NODES, "Nodes the answers report, by route.");
    metrics::describe_counter!(ANSWERS, "Answers by where they came from.");
    metrics::describe_counter!(VERDICTS, "Position values given by lookups, by source.");
    metrics::describe_gauge!(JOBS_RUNNING, "Searches running on a solver worker.");
    metrics::describe_gauge!(JOBS_WAITING, "Searches waiting for a solver worker.");
    metrics::describe_counter!(JOBS_REJECTED, "Searches refused with 503 overloaded.");
    metrics::describe_gauge!(CONNECTIONS_OPEN, "Open connections.");
    metrics::describe_counter!(
        CONNECTIONS_REJECTED,
        "Connections refused over --max-connections."
    );
    metrics::describe_counter!(TABLE_CACHE_HITS, "Table lookups served from a block cache.");
    metrics::describe_counter!(
        TABLE_CACHE_MISSES,
        "Table lookups that decompressed a block."
    );
    metrics::describe_gauge!(PROOFS_LOADED, "Stored proofs loaded and verified.");
    // Refusals are listed from the start, at 0, so that a scrape before
    // the first one still shows them.
    metrics::counter!(JOBS_REJECTED).increment(0);
    metrics::counter!(CONNECTIONS_REJECTED).increment(0);
}

/// Counts one answer: its route (the route's pattern, so that the labels
/// stay few whatever the paths asked: [`route_label`]), method, status,
/// latency, and the nodes and source it reports.
pub fn count(
    route: &'static str,
    method: &str,
    status: StatusCode,
    latency: Duration,
    facts: Option<&AnswerFacts>,
) {
    let method = static_label(method, &["GET", "POST", "HEAD", "PUT", "DELETE"], "other");
    metrics::histogram!(REQUEST_SECONDS, "route" => route).record(latency.as_secs_f64());
    if let Some(facts) = facts {
        if let Some(nodes) = facts.nodes.filter(|&n| n > 0) {
            metrics::counter!(NODES, "route" => route).increment(nodes);
        }
        if let Some(source) = &facts.source {
            let source = static_label(
                source,
                &[
                    "search",
                    "tablebase",
                    "syzygy",
                    "proof",
                    "store",
                    "rules",
                    "none",
                ],
                "other",
            );
            metrics::counter!(ANSWERS, "source" => source).increment(1);
        }
    }
    metrics::counter!(
        REQUESTS,
        "route" => route,
        "method" => method,
        "status" => status.as_u16().to_string()
    )
    .increment(1);
}

/// The route label of a request's matched pattern (`unmatched` for none):
/// one of the router's [`ROUTES`](super::route_paths::ROUTES), so it needs no
/// allocation and the labels cannot grow with the paths asked.
pub fn route_label(matched: Option<&str>) -> &'static str {
    matched.map_or("unmatched", |m| {
        static_label(m, &super::route_paths::ROUTES, "unmatched")
    })
}

/// `text` as one of `known` (a label that needs no allocation and cannot
/// grow the label set), else `other`.
fn static_label(text: &str, known: &[&'static str], other: &'static str) -> &'static str {
    known.iter().find(|&&k| k == text).copied().unwrap_or(other)
}

/// Counts the sources of a lookup's values: the position's and each listed
/// move's (tallied first: one registry update per source, not per move).
pub fn count_verdicts(analysis: &Analysis) {
    let sources = std::iter::once(analysis.verdict.source)
        .chain(analysis.moves.iter().map(|m| m.verdict.source));
    let mut tally: Vec<(Source, u64)> = Vec::new();
    for source in sources {
        match tally.iter_mut().find(|(s, _)| *s == source) {
            Some((_, n)) => *n += 1,
            None => tally.push((source, 1)),
        }
    }
    for (source, n) in tally {
        metrics::counter!(VERDICTS, "source" => source.name()).increment(n);
    }
}

/// The Prometheus text exposition of every metric, after the gauges that
/// are read at scrape time are set from `sample`; `None` when another
/// metrics recorder is installed in this process.
pub fn render(sample: &ScrapeSample) -> Option<String> {
    let handle = handle()?;
    metrics::gauge!(JOBS_RUNNING).set(sample.jobs_running as f64);
    metrics::gauge!(JOBS_WAITING).set(sample.jobs_waiting as f64);
    metrics::counter!(TABLE_CACHE_HITS).absolute(sample.cache_hits);
    metrics::counter!(TABLE_CACHE_MISSES).absolute(sample.cache_misses);
    metrics::gauge!(PROOFS_LOADED).set(sample.proofs_loaded as f64);
    handle.run_upkeep();
    Some(handle.render())
}

/// What the service's state says at scrape time.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScrapeSample {
    /// Searches running on a worker.
    pub jobs_running: usize,
    /// Searches waiting for one.
    pub jobs_waiting: usize,
    /// The table block cache's hits.
    pub cache_hits: u64,
    /// Its misses.
    pub cache_misses: u64,
    /// Proof files loaded.
    pub proofs_loaded: usize,
}
