//! `ransom serve --store`: lookups and the explorer answer from the
//! solved-position store, read without its lock while a `prove` writes it
//! (docs/service.md "The explorer").

mod common;

use common::http::{encode, get};
use ransom::service::{ServeConfig, Server};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1";

fn config(dir: &Path) -> ServeConfig {
    ServeConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        tablebases: None,
        proofs: dir.join("proofs"),
        puzzles: None,
        stores: vec![dir.join("store")],
        store_refresh: Some(Duration::from_millis(100)),
        workers: 1,
        queue: 4,
        hash_mb: 16,
        ..ServeConfig::default()
    }
}

fn prove(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["prove", "--store", "store", "--no-tablebases", "--no-write"];
    all.extend_from_slice(args);
    common::run_ransom(&all, dir)
}

fn lookup(addr: SocketAddr, fen: &str) -> Value {
    let response = get(addr, &format!("/v1/antichess?fen={}", encode(fen)));
    assert_eq!(response.status, 200);
    response.json()
}

fn explorer(addr: SocketAddr, query: &str) -> Value {
    let response = get(addr, &format!("/v1/antichess/explorer?{query}"));
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    response.json()
}

/// Polls `f` until it holds, for at most ten seconds.
fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < Duration::from_secs(10), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// After `ransom prove e4`, the position after 1.e4 is a stored win for
/// Black with b5 best: no proof file, the store alone.
#[test]
fn a_stored_proof_answers_lookups_and_the_explorer() {
    let dir = common::fresh_dir("service-store", "after-prove");
    let (code, _, err) = prove(&dir, &["e4"]);
    assert_eq!(code, 0, "{err}");
    let server = Server::start(config(&dir)).expect("start");
    let json = lookup(server.addr(), AFTER_E4);
    assert_eq!(json["category"], "win", "{json}");
    assert_eq!(json["source"], "store", "{json}");
    assert_eq!(json["moves"][0]["san"], "b5", "{json}");
    assert_eq!(json["moves"][0]["category"], "loss", "{json}");
    assert_eq!(json["store"]["best"], "b7b5", "{json}");
    assert!(json["store"]["size"].as_u64().unwrap() > 0, "{json}");

    let json = explorer(server.addr(), "moves=e2e4");
    assert_eq!(json["result"], "win");
    assert_eq!(json["source"], "store");
    assert_eq!(json["best"], "b7b5");
    assert_eq!(json["best_san"], "b5");
    assert!(json["size"].as_u64().unwrap() > 0, "{json}");
    assert_eq!(json["fen"], AFTER_E4);
    assert_eq!(json["line"], serde_json::json!(["e2e4"]));
    let first = &json["moves"][0];
    assert_eq!(first["san"], "b5", "best first: {json}");
    assert_eq!(first["result"], "loss");
    assert!(first["size"].as_u64().unwrap() > 0);
    assert!(json["stores"][0]["positions"].as_u64().unwrap() > 100);

    // One level down: after 1.e4 b5 White loses, and every White move
    // leads to a stored win for Black with its winning reply.
    let json = explorer(server.addr(), "moves=e2e4,b7b5");
    assert_eq!(json["result"], "loss");
    for row in json["moves"].as_array().unwrap() {
        assert!(
            row["result"] == "win" || row["outcome"].is_string(),
            "every reply loses for White: {row}"
        );
        if row["result"] == "win" && row["source"] == "store" {
            assert!(row["best_san"].is_string(), "{row}");
        }
    }

    // The start position: 1.e4 is listed, the others unknown after it.
    let json = explorer(server.addr(), "");
    let e4 = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "e2e4")
        .unwrap();
    assert_eq!(e4["result"], "win", "Black to move wins after 1.e4");
    assert_eq!(
        json["moves"].as_array().unwrap().last().unwrap()["uci"],
        "e2e4",
        "a move that loses comes last"
    );
}

/// Bad lines and FENs are 400s naming the problem.
#[test]
fn explorer_input_errors_are_named() {
    let dir = common::fresh_dir("service-store", "errors");
    let server = Server::start(config(&dir)).expect("start");
    let response = get(server.addr(), "/v1/antichess/explorer?moves=e2e4,e2e4");
    assert_eq!(response.status, 400);
    let json = response.json();
    assert!(
        json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move 2"),
        "{json}"
    );
    let response = get(server.addr(), "/v1/antichess/explorer?fen=nonsense");
    assert_eq!(response.status, 400);
    let response = get(server.addr(), "/v1/nonsense/explorer");
    assert_eq!(response.status, 404);
    // No store yet: the explorer still answers, from the rules.
    let json = explorer(server.addr(), "moves=e2e4");
    assert_eq!(json["result"], "unknown");
    assert_eq!(json["stores"], serde_json::json!([]));
}

/// A store written by a running `prove` is served at the same time: the
/// checkpointed search appears while it runs, with its numbers; the
/// results it stores appear when it has synced them; neither side meets a
/// lock.
#[test]
fn a_store_being_written_is_served_meanwhile() {
    let dir = common::fresh_dir("service-store", "running");
    let server = Server::start(config(&dir)).expect("start");
    let addr = server.addr();
    assert_eq!(lookup(addr, AFTER_E4)["source"], "none");

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args([
            "prove",
            "b4",
            "--store",
            "store",
            "--no-tablebases",
            "--no-write",
            "--threads",
            "1",
            "--leaf-nodes",
            "20000",
            "--checkpoint-every",
            "1",
            "--max-time",
            "8",
            "--quiet",
        ])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start prove");
    let checkpoints = dir.join("store/antichess/checkpoints");
    common::wait_for_checkpoint(&checkpoints, &mut child, Duration::from_secs(60));
    let mut seen_running = None;
    eventually("the running search in the explorer", || {
        let json = explorer(addr, "moves=b2b4");
        let searches = json["searches"].as_array().unwrap().clone();
        if searches.is_empty() {
            return false;
        }
        seen_running = Some(json);
        true
    });
    let running = seen_running.unwrap();
    let search = &running["searches"][0];
    assert!(search["nodes"].as_u64().unwrap() > 0, "{running}");
    assert!(search["outer_nodes"].as_u64().unwrap() >= 1, "{running}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the search still runs while served"
    );
    let output = child.wait_with_output().expect("prove ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!err.contains("busy") && !err.contains("lock"), "{err}");
    assert!(output.status.code().is_some(), "{err}");

    // After it ends: what it stored is served.
    let stored = || {
        explorer(addr, "moves=b2b4")["stores"][0]["positions"]
            .as_u64()
            .unwrap_or(0)
    };
    eventually("the stored results", || stored() > 0);
    let json = explorer(addr, "moves=b2b4");
    let settled = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["result"] != "unknown")
        .count();
    assert!(
        settled > 0,
        "some replies to 1.b4 are settled or open: {json}"
    );
    // And a prove can open the store again while the service reads it.
    let (code, _, err) = prove(&dir, &["e4"]);
    assert_eq!(code, 0, "{err}");
    eventually("1.e4 after the second prove", || {
        lookup(addr, AFTER_E4)["source"] == "store"
    });
}
