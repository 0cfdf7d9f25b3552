//! A bounded load run of `ransom serve` on loopback: position lookups and
//! small mate requests from several kept-alive connections, reporting
//! requests per second and latency percentiles. Ignored by default (it
//! measures, it does not check timings); run with
//! `cargo test --release --test service_load -- --ignored --nocapture`
//! (`RANSOM_LOAD_SECONDS` sets each phase's length, default 10;
//! `RANSOM_LOAD_LOG=text` or `json` logs every request as `ransom serve
//! --log-format` does, to stderr, filtered by `RUST_LOG`).

mod common;

use common::http::{Connection, encode};
use ransom::service::{ServeConfig, Server};
use ransom::tablebase::{self, Material};
use ransom::variants::International;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Lookups: a tablebase position, start positions and Hostage holdings.
const LOOKUPS: &[(&str, &str)] = &[
    ("antichess", "8/8/8/8/8/8/1k6/R7 w - - 0 1"),
    ("antichess", "8/8/8/3k4/8/8/8/R6R w - - 0 1"),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "antichess",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
    ),
    ("hostage", "r3k3/8/8/8/8/8/8/4K2R[Qn#Pb] w - - 0 1"),
    (
        "crazyhouse",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 0 4",
    ),
];

/// Small mates: Hostage drops (mates in 1 and 2) and a back-rank mate.
const MATES: &[(&str, &str, u16)] = &[
    ("hostage", "6rk/6pp/8/8/8/8/8/K7[N#] w - - 0 1", 1),
    ("hostage", "5Brk/8/8/8/8/2K3N1/8/8[R#BNb] w - - 0 1", 2),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 2),
];

/// The request log of `RANSOM_LOAD_LOG` (`text`, `json`), if any: the
/// subscriber `ransom serve` installs, for measuring what logging costs.
fn log_from_env() -> Option<ransom::service::LogGuard> {
    let format = match std::env::var("RANSOM_LOAD_LOG").ok()?.as_str() {
        "text" => ransom::service::LogFormat::Text,
        "json" => ransom::service::LogFormat::Json,
        "off" | "" => return None,
        other => panic!("RANSOM_LOAD_LOG={other}: text, json or off"),
    };
    Some(ransom::service::init_logging(format).expect("install the log"))
}

fn phase_seconds() -> u64 {
    std::env::var("RANSOM_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
}

struct Outcome {
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

/// Runs `clients` connections for `seconds`, each sending the requests
/// `make(i)` for i = 0, 1, 2, ... and expecting 200.
fn run_phase(
    addr: SocketAddr,
    clients: usize,
    seconds: u64,
    make: fn(usize) -> (String, String, Option<String>),
) -> (Outcome, Duration) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut out = Outcome {
                    latencies: Vec::new(),
                    errors: Vec::new(),
                };
                let mut conn = Connection::open(addr);
                let mut i = c;
                while Instant::now() < deadline {
                    let (method, path, body) = make(i);
                    let t = Instant::now();
                    match conn.send(&method, &path, body.as_deref().map(str::as_bytes)) {
                        Ok(r) if r.status == 200 => out.latencies.push(t.elapsed()),
                        Ok(r) => out.errors.push(format!(
                            "{path}: {} {}",
                            r.status,
                            String::from_utf8_lossy(&r.body)
                        )),
                        Err(e) => {
                            out.errors.push(format!("{path}: {e}"));
                            conn = Connection::open(addr);
                        }
                    }
                    i += clients;
                }
                out
            })
        })
        .collect();
    let mut all = Outcome {
        latencies: Vec::new(),
        errors: Vec::new(),
    };
    for t in threads {
        let o = t.join().expect("a client thread panicked");
        all.latencies.extend(o.latencies);
        all.errors.extend(o.errors);
    }
    (all, started.elapsed())
}

/// Fails with the first few errors of a phase, if it had any.
fn assert_no_errors(phase: &str, outcome: &Outcome) {
    assert!(
        outcome.errors.is_empty(),
        "{phase} errors: {:?}",
        &outcome.errors[..outcome.errors.len().min(5)]
    );
}

fn report(name: &str, outcome: &mut Outcome, elapsed: Duration) {
    outcome.latencies.sort();
    let n = outcome.latencies.len();
    let pct = |p: f64| {
        outcome
            .latencies
            .get(((n as f64 * p) as usize).min(n.saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{name}: {n} requests in {:.1} s = {:.0} requests/s; latency p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; {} errors",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        pct(0.50),
        pct(0.99),
        pct(1.0),
        outcome.errors.len()
    );
}

fn lookup_request(i: usize) -> (String, String, Option<String>) {
    let (variant, fen) = LOOKUPS[i % LOOKUPS.len()];
    (
        "GET".into(),
        format!("/v1/{variant}?fen={}", encode(fen)),
        None,
    )
}

fn mate_request(i: usize) -> (String, String, Option<String>) {
    let (variant, fen, max) = MATES[i % MATES.len()];
    (
        "POST".into(),
        format!("/v1/{variant}/mate"),
        Some(format!(r#"{{"fen": "{fen}", "max": {max}}}"#)),
    )
}

#[test]
#[ignore = "a load measurement: run with --ignored --nocapture (see the module docs)"]
fn lookups_and_small_mates_under_load() {
    let _log = log_from_env();
    let tables = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("service-load-tables");
    std::fs::create_dir_all(&tables).unwrap();
    tablebase::build::<International>(&tables, &Material::all_up_to(3), |_, _, _| {})
        .expect("build the 2-3-man antichess tables");
    let proofs = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("service-load-proofs");
    let _ = std::fs::remove_dir_all(&proofs);
    let server = Server::start(ServeConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        tablebases: Some(tables),
        proofs,
        puzzles: Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles")),
        stores: Vec::new(),
        ..ServeConfig::default()
    })
    .expect("start the service");
    let addr = server.addr();
    let seconds = phase_seconds();
    // Warm the tables.
    let _ = run_phase(addr, 1, 1, lookup_request);

    let (mut lookups, elapsed) = run_phase(addr, 4, seconds, lookup_request);
    report("position lookups (4 connections)", &mut lookups, elapsed);
    let (mut mates, elapsed) = run_phase(addr, 2, seconds, mate_request);
    report("small mate requests (2 connections)", &mut mates, elapsed);

    assert_no_errors("lookup", &lookups);
    assert_no_errors("mate", &mates);
    assert!(!lookups.latencies.is_empty() && !mates.latencies.is_empty());
}

/// The Hostage position of the audit: 1,221 legal moves.
const MANY_MOVES: &str = "k7/8/8/8/8/8/8/K7[QRBNPqrbnp#QRBNPqrbnp] w - - 0 1";

fn cheap_request(_: usize) -> (String, String, Option<String>) {
    ("GET".into(), "/v1/chess".into(), None)
}

fn health_request(_: usize) -> (String, String, Option<String>) {
    ("GET".into(), "/health".into(), None)
}

/// docs/service.md "Connections": cheap lookups while four clients repeat
/// the heaviest lookup, and `/health` while 1,000 clients send headers a
/// byte a second.
#[test]
#[ignore = "a load measurement: run with --ignored --nocapture (see the module docs)"]
fn cheap_requests_beside_heavy_lookups_and_slow_clients() {
    let proofs = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("service-load-proofs-slow");
    let _ = std::fs::remove_dir_all(&proofs);
    let server = Server::start(ServeConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        tablebases: None,
        proofs,
        puzzles: None,
        stores: Vec::new(),
        ..ServeConfig::default()
    })
    .expect("start the service");
    let addr = server.addr();
    let seconds = phase_seconds();
    let (mut alone, elapsed) = run_phase(addr, 1, seconds, cheap_request);
    report("GET /v1/chess alone (1 connection)", &mut alone, elapsed);
    for limit in [256, 2000] {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let heavy: Vec<_> = (0..4)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut conn = Connection::open(addr);
                    let path = format!("/v1/hostage?fen={}&limit={limit}", encode(MANY_MOVES));
                    let mut n = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if conn.send("GET", &path, None).is_ok() {
                            n += 1;
                        }
                    }
                    n
                })
            })
            .collect();
        let (mut cheap, elapsed) = run_phase(addr, 1, seconds, cheap_request);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let heavy_done: u64 = heavy.into_iter().map(|h| h.join().unwrap()).sum();
        report(
            &format!(
                "GET /v1/chess beside 4 clients repeating the 1,221-move lookup with limit={limit} ({heavy_done} heavy answers)"
            ),
            &mut cheap,
            elapsed,
        );
        assert_no_errors("cheap", &cheap);
    }
    // 1,000 slow clients: each sends its header a byte a second.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            use std::io::Write;
            let header = b"GET /health HTTP/1.1\r\nHost: a-very-slow-client.example\r\n\r\n";
            let mut clients: Vec<(std::net::TcpStream, usize)> = (0..1000)
                .filter_map(|_| std::net::TcpStream::connect(addr).ok().map(|s| (s, 0)))
                .collect();
            let opened = clients.len();
            let mut reopened = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for (stream, at) in &mut clients {
                    if stream
                        .write_all(&header[*at % header.len()..][..1])
                        .is_err()
                    {
                        // Closed by the server's header timeout: come back.
                        if let Ok(s) = std::net::TcpStream::connect(addr) {
                            *stream = s;
                            reopened += 1;
                        }
                    }
                    *at += 1;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            (opened, reopened)
        })
    };
    std::thread::sleep(Duration::from_secs(2));
    let (mut health, elapsed) = run_phase(addr, 1, seconds.max(12), health_request);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (opened, reopened) = slow.join().unwrap();
    report(
        &format!(
            "GET /health beside {opened} slow clients ({reopened} reconnections after the header timeout)"
        ),
        &mut health,
        elapsed,
    );
    assert_no_errors("health", &health);
}
