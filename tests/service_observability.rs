//! docs/service.md "Logs and metrics": `GET /metrics` in the Prometheus
//! text format moves with the requests served; every answer carries an
//! `x-request-id`; `ransom serve` logs one line per request, as text or as
//! JSON lines, filtered by `RUST_LOG`.

mod common;

use common::http::{encode, get, post};
use ransom::service::{METRIC_NAMES, ROUTES, Server};
use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn server() -> Server {
    let proofs = common::fresh_dir("ransom-observe", "proofs");
    Server::start(common::bare_serve_config(proofs)).expect("start the service")
}

/// The samples of a Prometheus text exposition: `name{labels}` → value.
fn samples(text: &str) -> HashMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (key, value) = l.rsplit_once(' ').expect("a sample line: name value");
            (key.to_owned(), value.parse().expect("a number"))
        })
        .collect()
}

fn scrape(addr: SocketAddr) -> HashMap<String, f64> {
    let answer = get(addr, "/metrics");
    assert_eq!(answer.status, 200);
    assert!(
        answer
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/plain; version=0.0.4")),
        "{:?}",
        answer.header("content-type")
    );
    samples(&String::from_utf8_lossy(&answer.body))
}

fn value(samples: &HashMap<String, f64>, key: &str) -> f64 {
    samples.get(key).copied().unwrap_or(0.0)
}

const LOOKUP_200: &str =
    r#"ransom_http_requests_total{route="/v1/{variant}",method="GET",status="200"}"#;
const LOOKUP_404: &str =
    r#"ransom_http_requests_total{route="/v1/{variant}",method="GET",status="404"}"#;
const MATE_200: &str =
    r#"ransom_http_requests_total{route="/v1/{variant}/mate",method="POST",status="200"}"#;
const UNMATCHED_404: &str =
    r#"ransom_http_requests_total{route="unmatched",method="GET",status="404"}"#;
const MATE_NODES: &str = r#"ransom_nodes_total{route="/v1/{variant}/mate"}"#;
const SEARCH_ANSWERS: &str = r#"ransom_answers_total{source="search"}"#;
const RULES_VERDICTS: &str = r#"ransom_verdicts_total{source="rules"}"#;

/// Counters move with the requests served (other tests of this program
/// may serve requests too, so only increases are checked).
#[test]
fn metrics_count_requests_answers_nodes_and_sources() {
    let server = server();
    let addr = server.addr();
    let before = scrape(addr);
    let lone_king = encode("8/8/8/8/8/8/1k6/K7 w - - 0 1");
    assert_eq!(
        get(addr, &format!("/v1/antichess?fen={lone_king}")).status,
        200
    );
    assert_eq!(get(addr, "/v1/no-such-variant").status, 404);
    assert_eq!(get(addr, "/no/such/endpoint").status, 404);
    let mate = post(
        addr,
        "/v1/chess/mate",
        r#"{"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "max": 2}"#,
    );
    assert_eq!(mate.status, 200, "{}", String::from_utf8_lossy(&mate.body));
    let after = scrape(addr);
    for key in [
        LOOKUP_200,
        LOOKUP_404,
        MATE_200,
        UNMATCHED_404,
        SEARCH_ANSWERS,
    ] {
        assert!(
            value(&after, key) >= value(&before, key) + 1.0,
            "{key}: {} then {}",
            value(&before, key),
            value(&after, key)
        );
    }
    // The lone king's position and its one move (the compulsory capture,
    // which ends the game) are valued by the rules.
    assert!(value(&after, RULES_VERDICTS) >= value(&before, RULES_VERDICTS) + 2.0);
    let nodes = mate.json()["nodes"].as_u64().unwrap() as f64;
    assert!(value(&after, MATE_NODES) >= value(&before, MATE_NODES) + nodes);
    let latencies = r#"ransom_http_request_duration_seconds_count{route="/v1/{variant}/mate"}"#;
    assert!(value(&after, latencies) >= 1.0);
    for gauge in [
        "ransom_jobs_running",
        "ransom_jobs_waiting",
        "ransom_connections_open",
    ] {
        assert!(after.contains_key(gauge), "{gauge} missing");
    }
    for counter in [
        "ransom_jobs_rejected_total",
        "ransom_connections_rejected_total",
        "ransom_table_cache_hits_total",
        "ransom_table_cache_misses_total",
        "ransom_proofs_loaded",
    ] {
        assert!(after.contains_key(counter), "{counter} missing");
    }
}

/// Each route of the router is counted under its own pattern (the list
/// the metrics label routes with is the router's), not as `unmatched`.
#[test]
fn every_route_is_counted_under_its_pattern() {
    let server = server();
    let addr = server.addr();
    for pattern in ROUTES {
        let path = pattern
            .replace("{variant}", "chess")
            .replace("{set}", "no-such-set")
            .replace("{id}", "1");
        let answer = if pattern.ends_with("/mate") || pattern.ends_with("/prove") {
            post(addr, &path, "not json")
        } else {
            get(addr, &path)
        };
        assert!(answer.status < 500, "{path}: {}", answer.status);
        let counted = scrape(addr).into_iter().any(|(key, n)| {
            key.starts_with(&format!("ransom_http_requests_total{{route=\"{pattern}\","))
                && n >= 1.0
        });
        assert!(counted, "{path} is not counted under {pattern}");
    }
}

/// Every exported name is listed in the README and in docs/service.md.
#[test]
fn the_readme_and_the_service_docs_list_every_metric() {
    let root = env!("CARGO_MANIFEST_DIR");
    for doc in ["README.md", "docs/service.md"] {
        let text = std::fs::read_to_string(format!("{root}/{doc}")).unwrap();
        for name in METRIC_NAMES {
            assert!(text.contains(name), "{doc} does not list {name}");
        }
    }
}

/// A request without an id gets one; a client's own id comes back as sent.
#[test]
fn answers_carry_a_request_id() {
    let server = server();
    let first = get(server.addr(), "/health");
    let id = first.header("x-request-id").expect("an x-request-id");
    assert!(id.parse::<u64>().is_ok(), "{id}");
    let mut stream = std::net::TcpStream::connect(server.addr()).unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nx-request-id: client-42\r\n\r\n")
        .unwrap();
    let answer = common::http::read_response(&mut BufReader::new(stream)).unwrap();
    assert_eq!(answer.header("x-request-id"), Some("client-42"));
}

/// `ransom serve` as a child process, its stderr read line by line.
struct Serving {
    child: Child,
    addr: SocketAddr,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Serving {
    fn start(format: &str, rust_log: Option<&str>) -> Serving {
        let dir = common::fresh_dir("ransom-observe", &format!("serve-{format}"));
        // A free port, known before the start: with RUST_LOG=off the
        // server does not say where it listens.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_ransom"));
        command
            .args(["serve", "--bind", &addr.to_string(), "--log-format", format])
            .args([
                "--tablebases",
                "none",
                "--proofs",
                "proofs",
                "--puzzles",
                "none",
            ])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG");
        if let Some(filter) = rust_log {
            command.env("RUST_LOG", filter);
        }
        let mut child = command.spawn().expect("start ransom serve");
        let lines = common::stderr_lines(&mut child);
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "ransom serve did not start");
            assert!(child.try_wait().unwrap().is_none(), "ransom serve ended");
            std::thread::sleep(Duration::from_millis(20));
        }
        Serving { child, addr, lines }
    }

    /// Stops the server as Ctrl-C does and returns every line it wrote.
    fn stop(mut self) -> Vec<String> {
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.lines.try_iter().collect()
    }
}

/// The JSON log: one object per request with its method, path, status,
/// latency, request id, and the variant, source, nodes or error code
/// where there is one.
#[test]
fn the_json_log_has_one_object_per_request() {
    let serving = Serving::start("json", None);
    let addr = serving.addr;
    let lone_king = encode("8/8/8/8/8/8/1k6/K7 w - - 0 1");
    get(addr, &format!("/v1/antichess?fen={lone_king}"));
    get(addr, "/v1/no-such-variant");
    let mate = r#"{"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "max": 2}"#;
    post(addr, "/v1/chess/mate", mate);
    let lines = serving.stop();
    let answered: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .filter(|v: &serde_json::Value| v["message"] == "answered")
        .collect();
    assert_eq!(answered.len(), 3, "{lines:#?}");
    for line in &answered {
        assert_eq!(line["level"], "INFO");
        assert!(line["latency_ms"].as_f64().is_some(), "{line}");
        assert!(line["request_id"].as_str().is_some(), "{line}");
        assert!(line["timestamp"].as_str().is_some(), "{line}");
    }
    let [lookup, unknown, mate] = &answered[..] else {
        unreachable!()
    };
    assert_eq!(lookup["method"], "GET");
    assert_eq!(lookup["path"], "/v1/antichess");
    assert_eq!(lookup["variant"], "antichess");
    assert_eq!(lookup["route"], "/v1/{variant}");
    assert_eq!(lookup["status"], 200);
    assert_eq!(lookup["source"], "rules");
    assert_eq!(unknown["status"], 404);
    assert_eq!(unknown["error"], "unknown-variant");
    assert_eq!(mate["method"], "POST");
    assert_eq!(mate["source"], "search");
    assert!(mate["nodes"].as_u64().is_some_and(|n| n > 0), "{mate}");
}

/// The text log has a line per request; `RUST_LOG=off` silences it; a
/// `RUST_LOG` that does not parse is refused with its text named.
#[test]
fn the_text_log_follows_rust_log() {
    let serving = Serving::start("text", None);
    get(serving.addr, "/health");
    let lines = serving.stop();
    assert!(
        lines.iter().any(|l| l.contains("listening on http://")),
        "{lines:#?}"
    );
    let line = lines
        .iter()
        .find(|l| l.contains("answered"))
        .unwrap_or_else(|| panic!("no request line in {lines:#?}"));
    assert!(line.contains("INFO"), "{line}");
    assert!(line.contains("path=/health "), "{line}");
    assert!(line.contains("status=200"), "{line}");

    let serving = Serving::start("text", Some("off"));
    get(serving.addr, "/health");
    assert!(serving.stop().iter().all(|l| !l.contains("answered")));

    let dir = common::fresh_dir("ransom-observe", "bad-filter");
    let out = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .current_dir(&dir)
        .env("RUST_LOG", "=[")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("RUST_LOG='=['"), "{stderr}");
}
