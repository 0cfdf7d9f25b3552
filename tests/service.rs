//! `ransom serve`: every endpoint, every error code and malformed input,
//! against a server on a loopback port (DESIGN.md "Service").

mod common;

use common::http::{self, Response, encode, get, post};
use ransom::service::{ServeConfig, Server};
use ransom::tablebase::{self, Material};
use ransom::variants::International;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const CHECKMATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
const HOSTAGE_M1: &str = "6rk/6pp/8/8/8/8/8/K7[N#] w - - 0 1";
const HOSTAGE_PRISONS: &str = "r3k3/8/8/8/8/8/8/4K2R[Qn#Pb] w - - 0 1";
const KRVK_WIN: &str = "8/8/8/8/8/8/1k6/R7 w - - 0 1";

fn fresh_dir(name: &str) -> PathBuf {
    common::fresh_dir("service", name)
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The 2-man antichess tables, built once.
fn tables() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = fresh_dir("tables");
        tablebase::build::<International>(&dir, &Material::all_up_to(2), |_, _, _| {})
            .expect("build the 2-man antichess tables");
        dir
    })
    .clone()
}

fn config(name: &str) -> ServeConfig {
    ServeConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        tablebases: Some(tables()),
        proofs: fresh_dir(name),
        puzzles: Some(repo("puzzles")),
        // No store: what the working folder's proofs/store holds must not
        // answer here (tests/service_store.rs serves stores).
        stores: Vec::new(),
        workers: 2,
        queue: 4,
        max_nodes: 2_000_000,
        max_time_ms: 5_000,
        hash_mb: 16,
        ..ServeConfig::default()
    }
}

/// One shared server for the tests that do not change its settings.
fn server() -> SocketAddr {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER
        .get_or_init(|| Server::start(config("shared")).expect("start the service"))
        .addr()
}

/// Asserts the documented error shape and code, and returns the body.
fn assert_error(response: &Response, status: u16, code: &str) -> Value {
    let body = response.json();
    assert_eq!(
        response.status, status,
        "expected {status} {code}, got {body}"
    );
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    body
}

fn lookup(variant: &str, fen: &str) -> Response {
    get(server(), &format!("/v1/{variant}?fen={}", encode(fen)))
}

#[test]
fn health_reports_what_is_loaded() {
    let r = get(server(), "/health");
    assert_eq!(r.status, 200);
    let body = r.json();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["tablebases"]["antichess_max_men"], 2);
    assert_eq!(
        body["tablebases"]["antichess_complete_men"], 2,
        "the whole 2-man set is there"
    );
    assert!(body["puzzles"]["sets"].as_u64().unwrap() >= 6, "{body}");
    assert_eq!(body["workers"]["total"], 2);
}

#[test]
fn lookup_answers_from_a_tablebase_with_moves_best_first() {
    let r = lookup("antichess", KRVK_WIN);
    assert_eq!(r.status, 200);
    let body = r.json();
    assert_eq!(body["category"], "win");
    assert_eq!(body["dtw"], 2);
    assert_eq!(body["source"], "tablebase");
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 14);
    // Best first: the opponent's quickest loss.
    assert_eq!(moves[0]["category"], "loss");
    assert_eq!(moves[0]["dtw"], -1);
    assert!(moves.iter().all(|m| m["source"] == "tablebase"));
    let categories: Vec<&str> = moves
        .iter()
        .map(|m| m["category"].as_str().unwrap())
        .collect();
    let first_win = categories.iter().position(|&c| c == "win").unwrap();
    assert!(categories[..first_win].iter().all(|&c| c == "loss"));
    assert!(categories[first_win..].iter().all(|&c| c == "win"));
    for m in moves {
        for key in ["uci", "san", "fen", "category", "dtw", "source"] {
            assert!(m.get(key).is_some(), "move without {key}: {m}");
        }
    }
    assert_eq!(body["nodes"], 0);
    assert!(body["time_ms"].is_number());
}

#[test]
fn lookup_of_a_finished_game_and_of_an_unknown_position() {
    let body = lookup("chess", CHECKMATED).json();
    assert_eq!(body["category"], "loss");
    assert_eq!(body["source"], "rules");
    assert_eq!(body["checkmate"], true);
    assert_eq!(body["moves"].as_array().unwrap().len(), 0);

    let r = get(server(), "/v1/chess");
    let body = r.json();
    assert_eq!(r.status, 200);
    assert_eq!(body["category"], "unknown");
    assert_eq!(body["source"], "none");
    assert_eq!(body["moves"].as_array().unwrap().len(), 20);
    assert_eq!(body["holdings"], Value::Null);
}

#[test]
fn hostage_holdings_show_airfields_and_prisons() {
    // RULES H11: before `#` the airfields, after it the prisons.
    let body = lookup("hostage", HOSTAGE_PRISONS).json();
    let h = &body["holdings"];
    assert_eq!(h["white"]["airfield"], "Q");
    assert_eq!(h["black"]["airfield"], "n");
    assert_eq!(h["white"]["prison"], "b", "White holds the black bishop");
    assert_eq!(h["black"]["prison"], "P", "Black holds the white pawn");
    let moves = body["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["uci"] == "P#B@a2"), "an exchange");
    assert!(moves.iter().any(|m| m["uci"] == "Q@d4"), "an airfield drop");

    let body = get(
        server(),
        &format!(
            "/v1/crazyhouse?fen={}",
            encode("k7/8/8/8/8/8/8/K7[Qn] w - - 0 1")
        ),
    )
    .json();
    assert_eq!(body["holdings"]["white"]["pocket"], "Q");
    assert_eq!(body["holdings"]["black"]["pocket"], "n");
}

#[test]
fn moves_lists_each_move_with_the_position_after_it() {
    let r = get(server(), "/v1/antichess/moves");
    assert_eq!(r.status, 200);
    let body = r.json();
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let e4 = moves.iter().find(|m| m["uci"] == "e2e4").unwrap();
    assert_eq!(e4["san"], "e4");
    assert_eq!(
        e4["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"
    );
    assert_eq!(body["position"]["variant"], "antichess");
}

#[test]
fn a_finished_game_has_no_moves() {
    // White has no men left: White has won, Black's pawn moves no more.
    let r = get(
        server(),
        &format!(
            "/v1/antichess/moves?fen={}",
            encode("8/8/8/8/8/8/1p6/8 b - - 0 1")
        ),
    );
    assert_eq!(r.status, 200);
    let body = r.json();
    assert_eq!(body["position"]["outcome"], "variant-win", "{body}");
    assert_eq!(body["moves"].as_array().unwrap().len(), 0, "{body}");
}

#[test]
fn perft_counts_and_caps_the_depth() {
    let body = get(server(), "/v1/chess/perft?depth=3").json();
    assert_eq!(body["nodes"], 8902);
    assert_eq!(body["divide"].as_array().unwrap().len(), 20);
    let body = get(server(), "/v1/hitandrun/perft?depth=2").json();
    assert!(body["nodes"].as_u64().unwrap() > 0);
    assert_error(
        &get(server(), "/v1/chess/perft?depth=0"),
        400,
        "bad-request",
    );
    assert_error(
        &get(server(), "/v1/chess/perft?depth=99"),
        400,
        "bad-request",
    );
    assert_error(
        &get(server(), "/v1/chess/perft?depth=x"),
        400,
        "bad-request",
    );
    assert_error(&get(server(), "/v1/chess/perft"), 400, "bad-request");
    // A deep count on a wide position stops at the server's node budget.
    let wide = encode("r3k2r/8/8/8/8/8/8/R3K2R[QRBNPqrbnp] w KQkq - 0 1");
    let r = get(
        server(),
        &format!("/v1/crazyhouse/perft?depth=6&fen={wide}"),
    );
    let body = assert_error(&r, 422, "budget-exhausted");
    assert!(body["nodes"].as_u64().unwrap() >= 2_000_000, "{body}");
}

#[test]
fn mate_returns_the_verified_solution_and_its_steps() {
    let body = format!(r#"{{"fen": "{HOSTAGE_M1}", "max": 2, "all_keys": true}}"#);
    let r = post(server(), "/v1/hostage/mate", &body);
    assert_eq!(r.status, 200, "{}", r.json());
    let body = r.json();
    assert_eq!(body["mate_in"], 1);
    assert_eq!(body["proven"], "mate");
    assert_eq!(body["shortest"], true);
    assert_eq!(body["keys"], serde_json::json!(["N@f7"]));
    assert_eq!(body["main_line"], serde_json::json!(["N@f7"]));
    assert_eq!(body["main_line_steps"][0]["san"], "N*f7#");
    assert_eq!(body["source"], "search");
    assert!(
        body["tree"].is_object() || body["tree"].is_array(),
        "{body}"
    );
    assert!(body["tree_text"].as_str().unwrap().contains("N*f7"));

    // A back-rank mate, also reached by a move first.
    let r = post(
        server(),
        "/v1/chess/mate",
        r#"{"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "max": 3}"#,
    );
    assert_eq!(r.json()["mate_in"], 1);
    let r = post(
        server(),
        "/v1/chess/mate",
        r#"{"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "moves": ["Kh8"], "max": 3}"#,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["mate_in"], 1, "Rd8# after Kh8");
}

#[test]
fn mate_proves_that_there_is_no_mate_and_reports_budgets() {
    // RULES S: the start position has no mate in 2.
    let r = post(server(), "/v1/chess/mate", r#"{"max": 2}"#);
    assert_eq!(r.status, 200);
    let body = r.json();
    assert_eq!(body["proven"], "no-mate");
    assert_eq!(body["mate_in"], Value::Null);
    let r = post(server(), "/v1/chess/mate", r#"{"max": 6, "max_nodes": 50}"#);
    let body = assert_error(&r, 422, "budget-exhausted");
    assert!(body["nodes"].is_number());
    assert_error(
        &post(server(), "/v1/chess/mate", r#"{"max": 0}"#),
        400,
        "bad-request",
    );
    assert_error(
        &post(server(), "/v1/chess/mate", r#"{"max": 500}"#),
        400,
        "bad-request",
    );
}

/// A crazyhouse mate in 7 (the shared suite's e7_01): a mate is found at
/// once, its length is not certified within a small budget.
const CRAZYHOUSE_M7: &str =
    "r3k2r/ppp2ppp/2bp1q2/4p3/4P3/2PP1n2/PP3PKP/R2Q1R2[BBNNNbp] b kq - 0 18";

/// The JSON lines of a streamed answer.
fn json_lines(response: &Response) -> Vec<Value> {
    String::from_utf8_lossy(&response.body)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn mate_streams_the_first_mate_then_the_final_answer() {
    let body =
        format!(r#"{{"fen": "{CRAZYHOUSE_M7}", "max": 7, "max_nodes": 100000, "stream": true}}"#);
    let r = post(server(), "/v1/crazyhouse/mate", &body);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/x-ndjson"));
    let lines = json_lines(&r);
    let events: Vec<_> = lines.iter().map(|l| l["event"].clone()).collect();
    assert_eq!(events, ["found", "final"], "{lines:?}");
    for line in &lines {
        assert_eq!(line["mate_in"], 7, "{line}");
        assert_eq!(line["proven"], "mate");
        assert_eq!(line["shortest"], false, "the budget cannot rule out 6");
        assert_eq!(line["keys"], serde_json::json!(["P@h3"]));
        assert_eq!(line["main_line_steps"][0]["san"], "P@h3+");
        assert_eq!(line["source"], "search");
    }
    assert!(lines[0]["nodes"].as_u64() < lines[1]["nodes"].as_u64());

    // A first mate that is already the shortest: only the final line.
    let body = format!(r#"{{"fen": "{HOSTAGE_M1}", "max": 2, "stream": true}}"#);
    let lines = json_lines(&post(server(), "/v1/hostage/mate", &body));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["event"], "final");
    assert_eq!(lines[0]["shortest"], true);

    // No answer within the budget: a final line saying so (the 422's code).
    let lines = json_lines(&post(
        server(),
        "/v1/chess/mate",
        r#"{"max": 6, "max_nodes": 50, "stream": true}"#,
    ));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["proven"], "unknown");
    assert_eq!(lines[0]["error"]["code"], "budget-exhausted");

    // Bad requests are refused before the stream starts.
    assert_error(
        &post(server(), "/v1/chess/mate", r#"{"max": 0, "stream": true}"#),
        400,
        "bad-request",
    );
    assert_error(
        &post(server(), "/v1/chess/mate", r#"{"stream": "yes"}"#),
        400,
        "bad-request",
    );
}

/// Sends a streamed mate request on its own connection and leaves it open.
fn open_stream(addr: SocketAddr, body: &str) -> std::net::TcpStream {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let request = format!(
        "POST /v1/crazyhouse/mate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    stream
}

/// Polls `/health` until `ready` holds of its `workers` object (4 s at
/// most: well within the first search's 10 s).
fn wait_for_workers(addr: SocketAddr, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(4);
    loop {
        let workers = get(addr, "/health").json()["workers"].clone();
        if ready(&workers) {
            return workers;
        }
        assert!(Instant::now() < deadline, "{what}: {workers}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_streamed_request_whose_client_leaves_while_waiting_gives_its_place_back() {
    let server = Server::start(ServeConfig {
        workers: 1,
        queue: 1,
        max_nodes: 1_000_000_000,
        max_time_ms: 10_000,
        ..config("stream-leaves")
    })
    .expect("start the service");
    let addr = server.addr();
    let body = format!(r#"{{"fen": "{CRAZYHOUSE_M7}", "max": 7, "stream": true}}"#);
    // The first search takes the only worker for its 10 s.
    let running = open_stream(addr, &body);
    wait_for_workers(addr, "the first search runs", |w| w["running"] == 1);
    // The second waits for the worker; its client leaves.
    let waiting = open_stream(addr, &body);
    wait_for_workers(addr, "the second search waits", |w| w["waiting"] == 1);
    drop(waiting);
    let workers = wait_for_workers(addr, "the place is given back", |w| w["waiting"] == 0);
    assert_eq!(workers["running"], 1, "while the first search still runs");
    drop(running);
}

#[test]
fn prove_stores_its_proof_and_lookups_use_it() {
    let (r, proofs) = {
        let server = Server::start(config("prove")).expect("start the service");
        let addr = server.addr();
        // 1.e4 in Losing chess (the project's main job), within a budget.
        let r = post(
            addr,
            "/v1/antichess/prove",
            r#"{"moves": ["e4"], "budget": {"max_nodes": 200000}}"#,
        );
        assert_eq!(r.status, 200, "{}", r.json());
        let after = lookup_at(
            addr,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
        );
        assert_eq!(after["category"], "win");
        assert_eq!(after["source"], "proof");
        assert_eq!(after["moves"][0]["category"], "loss");
        assert_eq!(after["moves"][0]["source"], "proof");
        let start = get(addr, "/v1/antichess").json();
        let e4 = start["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["uci"] == "e2e4")
            .unwrap()
            .clone();
        assert_eq!(e4["category"], "win", "Black wins after 1.e4");
        // A budget too small.
        let small = post(
            addr,
            "/v1/antichess/prove",
            r#"{"moves": ["d4"], "budget": {"max_nodes": 10}}"#,
        );
        assert_error(&small, 422, "budget-exhausted");
        (r, server.state().config.proofs.clone())
    };
    let body = r.json();
    assert_eq!(body["result"], "win");
    assert_eq!(body["winner"], "black");
    assert_eq!(body["verified"], true);
    let file = PathBuf::from(body["proof_file"].as_str().unwrap());
    assert!(file.starts_with(&proofs) && file.exists());
    // The name `ransom prove e4` gives the same proof.
    assert_eq!(file.file_name().unwrap(), "antichess-e2e4.proof");
    // A new server loads (and verifies) the stored proof.
    let server = Server::start(ServeConfig {
        proofs,
        ..config("reload")
    })
    .unwrap();
    // Asked again, the stored proof answers at once: no search, no new file.
    let again = post(
        server.addr(),
        "/v1/antichess/prove",
        r#"{"moves": ["e4"], "budget": {"max_nodes": 10}}"#,
    );
    assert_eq!(again.status, 200, "{}", again.json());
    let again = again.json();
    assert_eq!(again["source"], "proof", "{again}");
    assert_eq!(again["nodes"], 0);
    assert_eq!(again["result"], "win");
    assert_eq!(again["winner"], "black");
    assert_eq!(again["best"], body["best"]);
    assert_eq!(again["proof_file"], body["proof_file"]);
    assert_eq!(again["proof_positions"], body["proof_positions"]);
    let after = lookup_at(
        server.addr(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
    );
    assert_eq!(after["source"], "proof");
    let health = get(server.addr(), "/health").json();
    assert_eq!(health["proofs"]["files"], 1);
}

fn lookup_at(addr: SocketAddr, fen: &str) -> Value {
    get(addr, &format!("/v1/antichess?fen={}", encode(fen))).json()
}

#[test]
fn a_corrupt_proof_file_is_not_used() {
    let dir = fresh_dir("corrupt-proofs");
    std::fs::write(dir.join("antichess-bad.proof"), b"not a proof table").unwrap();
    let server = Server::start(ServeConfig {
        proofs: dir,
        ..config("corrupt")
    })
    .unwrap();
    let health = get(server.addr(), "/health").json();
    assert_eq!(health["proofs"]["files"], 0);
    let errors = health["proofs"]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].as_str().unwrap().contains("antichess-bad.proof"));
}

#[test]
fn puzzles_are_listed_and_served() {
    let body = get(server(), "/v1/puzzles").json();
    let sets = body["sets"].as_array().unwrap();
    let hostage = sets.iter().find(|s| s["name"] == "hostage-mates").unwrap();
    assert_eq!(hostage["variant"], "hostage");
    assert!(hostage["count"].as_u64().unwrap() >= 10);

    let set = get(server(), "/v1/puzzles/hostage-mates").json();
    let first = &set["puzzles"][0];
    let id = first["id"].as_str().unwrap();
    let by_id = get(server(), &format!("/v1/puzzles/hostage-mates/{id}")).json();
    let by_number = get(server(), "/v1/puzzles/hostage-mates/1").json();
    assert_eq!(by_id, by_number);
    assert_eq!(by_id["variant"], "hostage");
    assert_eq!(by_id["fen"], first["fen"]);
    let steps = by_id["main_line_steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "{by_id}");
    assert!(by_id["holdings"].is_object());

    assert_error(&get(server(), "/v1/puzzles/nope"), 404, "unknown-set");
    assert_error(&get(server(), "/v1/puzzles/nope/1"), 404, "unknown-set");
    assert_error(
        &get(server(), "/v1/puzzles/hostage-mates/99999"),
        404,
        "unknown-puzzle",
    );
}

/// A puzzle is proved again before it is first served (as `ransom puzzles
/// verify` does): one whose record disagrees with the proof is refused, and
/// one that cannot be proved within the server's budget is not served.
#[test]
fn puzzles_are_proved_again_before_they_are_served() {
    let dir = fresh_dir("puzzle-check");
    let good = r#"rn2N3/8/4R2b/B3R3/3kP1N1/K2n4/8/1q6 w - - 0 1 bm Rd5; dm 2; pv Rd5+ Kc4 Nd6#; id "good"; c0 "unique key, shortest proved, 4 positions verified";"#;
    // The same puzzle claiming another key.
    let tampered = good
        .replace("bm Rd5;", "bm Re4;")
        .replace("\"good\"", "\"tampered\"");
    // A position that is not one (two white kings): wrong whatever the budget.
    let unreadable = good
        .replace("K2n4", "K2n2K1")
        .replace("\"good\"", "\"unreadable\"");
    std::fs::write(
        dir.join("chess-check.epd"),
        format!("{good}\n{tampered}\n{unreadable}\n"),
    )
    .unwrap();
    let mut cfg = config("puzzle-check-proofs");
    cfg.puzzles = Some(dir.clone());
    let server = Server::start(cfg).expect("start the service");
    let checked = |at: usize| {
        get(server.addr(), "/v1/puzzles/chess-check").json()["puzzles"][at]["checked"].clone()
    };
    assert_eq!(checked(0), Value::Null, "not proved before it is asked for");

    let r = get(server.addr(), "/v1/puzzles/chess-check/good");
    assert_eq!(r.status, 200, "{}", r.json());
    assert!(r.json()["verified_positions"].as_u64().unwrap() > 0);
    assert_eq!(checked(0), "verified");

    let body = assert_error(
        &get(server.addr(), "/v1/puzzles/chess-check/tampered"),
        500,
        "puzzle-failed-check",
    );
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("keys: stated Re4, proved Rd5"),
        "{message}"
    );
    assert_eq!(checked(1), "failed");
    // The verdict is kept: asked again, the same answer.
    assert_error(
        &get(server.addr(), "/v1/puzzles/chess-check/2"),
        500,
        "puzzle-failed-check",
    );

    let body = assert_error(
        &get(server.addr(), "/v1/puzzles/chess-check/unreadable"),
        500,
        "puzzle-failed-check",
    );
    assert!(body.to_string().contains("bad FEN"), "{body}");

    let mut starved = config("puzzle-check-starved");
    starved.puzzles = Some(dir);
    starved.max_nodes = 1;
    let starved = Server::start(starved).expect("start the service");
    let body = assert_error(
        &get(starved.addr(), "/v1/puzzles/chess-check/good"),
        503,
        "puzzle-unchecked",
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("budget")
    );
}

/// Sends `raw` as it is and returns the status code of the answer.
fn raw_status(addr: SocketAddr, raw: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(raw.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    // The head and the (short) JSON body; the server keeps the connection.
    while !String::from_utf8_lossy(&answer).contains("}}") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// A client that declares more than it sends cannot hold a connection:
/// a declared length over the limit is refused before reading, and a body
/// that does not arrive in time gets 408.
#[test]
fn declared_body_lengths_are_checked_and_slow_bodies_time_out() {
    let head = |length: usize| {
        format!(
            "POST /v1/chess/mate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{}}"
        )
    };
    let (status, text) = raw_status(server(), &head(100_000));
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("body-too-large"), "{text}");

    let mut cfg = config("body-timeout");
    cfg.body_timeout = Duration::from_millis(200);
    let quick = Server::start(cfg).expect("start the service");
    let (status, text) = raw_status(quick.addr(), &head(10));
    assert_eq!(status, 408, "{text}");
    assert!(text.contains("body-timeout"), "{text}");
}

#[test]
fn bad_requests_get_json_errors() {
    let s = server();
    assert_error(&get(s, "/v1/nosuchvariant"), 404, "unknown-variant");
    assert_error(&get(s, "/v1/%FF"), 400, "bad-request");
    assert_error(&post(s, "/v1/%FF/mate", "{}"), 400, "bad-request");
    assert_error(
        &post(s, "/v1/nosuchvariant/mate", "{}"),
        404,
        "unknown-variant",
    );
    assert_error(&get(s, "/v1/chess/nothing"), 404, "not-found");
    assert_error(&get(s, "/nothing"), 404, "not-found");
    assert_error(&get(s, "/v1/chess/mate"), 405, "method-not-allowed");
    assert_error(&post(s, "/health", "{}"), 405, "method-not-allowed");
    assert_error(&get(s, "/v1/chess?fen=banana"), 400, "bad-fen");
    assert_error(
        &get(
            s,
            &format!("/v1/chess?fen={}", encode("8/8/8/8/8/8/8/8 w - - 0 1")),
        ),
        400,
        "bad-fen",
    );
    assert_error(&post(s, "/v1/chess/mate", "{not json"), 400, "bad-request");
    // No budget at all is refused, not searched with (as `--max-nodes 0`).
    let zero = assert_error(
        &post(s, "/v1/chess/mate", r#"{"max_nodes": 0}"#),
        400,
        "bad-request",
    );
    assert!(
        zero.to_string().contains("max_nodes must be at least 1"),
        "{zero}"
    );
    assert_error(
        &post(
            s,
            "/v1/antichess/prove",
            r#"{"budget": {"max_time_ms": 0}}"#,
        ),
        400,
        "bad-request",
    );
    assert_error(&post(s, "/v1/chess/mate", ""), 400, "bad-request");
    let not_an_object = assert_error(&post(s, "/v1/chess/mate", "[1, 2]"), 400, "bad-request");
    assert!(
        not_an_object.to_string().contains("expected a JSON object"),
        "{not_an_object}"
    );
    // A wrong type is said in JSON's words, with where it is.
    let wrong_type = assert_error(
        &post(s, "/v1/chess/mate", r#"{"max": "x"}"#),
        400,
        "bad-request",
    );
    assert!(
        wrong_type
            .to_string()
            .contains("expected a whole number at line 1"),
        "{wrong_type}"
    );
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"fen": 7}"#),
        400,
        "bad-request",
    );
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"max": 2, "surprise": true}"#),
        400,
        "bad-request",
    );
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"max": 2, "moves": ["e5"]}"#),
        400,
        "bad-move",
    );
    assert_error(
        &post(s, "/v1/antichess/prove", r#"{"moves": ["Ke2"]}"#),
        400,
        "bad-move",
    );
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"fen": "banana"}"#),
        400,
        "bad-fen",
    );
    // An empty FEN is an error, as on the command line (leaving the field
    // out means the start position).
    assert_error(&get(s, "/v1/chess?fen="), 400, "bad-fen");
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"fen": " "}"#),
        400,
        "bad-fen",
    );
    // A comma joins the sub-moves of one Hit-and-Run turn (RULES R1, R8;
    // each side's first turn is one move), and nothing else.
    let turn = post(
        s,
        "/v1/hitandrun/mate",
        r#"{"max": 1, "moves": ["e2e4", "e7e5", "g1f3,d2d4", "b8c6,d7d6"]}"#,
    );
    assert_eq!(turn.status, 200, "{}", String::from_utf8_lossy(&turn.body));
    assert_error(
        &post(s, "/v1/chess/mate", r#"{"max": 1, "moves": ["e2e4,e7e5"]}"#),
        400,
        "bad-move",
    );
    let huge = format!(r#"{{"fen": "{}"}}"#, "x".repeat(200_000));
    assert_error(&post(s, "/v1/chess/mate", &huge), 413, "body-too-large");
}

#[test]
fn malformed_http_does_not_hurt_the_server() {
    let s = server();
    for bytes in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /v1/chess/mate HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n{",
        b"POST /v1/chess/mate HTTP/1.1\r\nContent-Length: 5\r\n\r\n{",
        b"\x00\xff\xfe\r\n\r\n",
        b"",
    ] {
        let answer = http::raw(s, bytes);
        if !answer.is_empty() {
            let text = String::from_utf8_lossy(&answer);
            assert!(text.starts_with("HTTP/1.1 "), "{text}");
            assert!(!text.starts_with("HTTP/1.1 500"), "{text}");
        }
    }
    assert_eq!(get(s, "/health").status, 200);
}

#[test]
fn random_inputs_never_crash_the_server() {
    let s = server();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let base = HOSTAGE_PRISONS.as_bytes().to_vec();
    let alphabet = b"rnbqkpRNBQKP12345678/[]#~-w b KQkq0 @*";
    for _ in 0..200 {
        let mut fen = base.clone();
        for _ in 0..(next() % 4 + 1) {
            let at = (next() as usize) % fen.len();
            fen[at] = alphabet[(next() as usize) % alphabet.len()];
        }
        let fen = String::from_utf8_lossy(&fen).to_string();
        let variant =
            ["hostage", "crazyhouse", "chess", "antichess", "hitandrun"][(next() % 5) as usize];
        let r = get(s, &format!("/v1/{variant}?fen={}", encode(&fen)));
        assert!(r.status == 200 || r.status == 400, "{fen}: {}", r.status);
        let body = r.json();
        if r.status == 400 {
            assert_eq!(body["error"]["code"], "bad-fen", "{fen}: {body}");
        } else {
            assert!(body["moves"].is_array(), "{fen}: {body}");
        }
    }
}

#[test]
fn a_full_pool_answers_503_and_recovers() {
    let server = Server::start(ServeConfig {
        workers: 1,
        queue: 0,
        max_time_ms: 20_000,
        max_nodes: u64::MAX,
        ..config("overload")
    })
    .unwrap();
    let addr = server.addr();
    // A search that runs until its time budget (no mate in 8 from the start).
    let long = std::thread::spawn(move || {
        post(addr, "/v1/chess/mate", r#"{"max": 8, "max_time_ms": 4000}"#)
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while get(addr, "/health").json()["workers"]["running"] != 1 {
        assert!(Instant::now() < deadline, "the long search never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let r = post(addr, "/v1/chess/mate", r#"{"max": 1}"#);
    assert_error(&r, 503, "overloaded");
    let r = get(addr, "/v1/chess/perft?depth=1");
    assert_error(&r, 503, "overloaded");
    // Lookups do not queue behind searches.
    assert_eq!(get(addr, "/v1/chess").status, 200);
    let long = long.join().unwrap();
    assert!(long.status == 422 || long.status == 200, "{}", long.status);
    let r = post(addr, "/v1/chess/mate", r#"{"max": 1}"#);
    assert_eq!(r.status, 200, "the pool is free again: {}", r.json());
}

#[test]
fn the_web_page_and_its_assets_are_served() {
    let r = get(server(), "/");
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let page = String::from_utf8(r.body).unwrap();
    for id in [
        "board",
        "fen-input",
        "mate-btn",
        "set-select",
        "holdings-top",
        "engine-on",
        "engine-move-btn",
        "engine-side",
    ] {
        assert!(page.contains(&format!("id=\"{id}\"")), "page lacks #{id}");
    }
    let js = get(server(), "/app.js");
    assert_eq!(js.status, 200);
    assert!(js.header("content-type").unwrap().contains("javascript"));
    assert!(String::from_utf8(js.body).unwrap().contains("/v1/"));
    let css = get(server(), "/style.css");
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
}

#[test]
fn prove_without_a_verified_result_is_not_a_budget_error() {
    // Bare kings in Losing chess: neither side has a forced win. Disproofs
    // are not verified, so the answer is "unknown", not a draw, and not 422.
    let r = post(
        server(),
        "/v1/antichess/prove",
        r#"{"fen": "8/8/8/3k4/8/8/3K4/8 w - - 0 1"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.json());
    let body = r.json();
    assert_eq!(body["result"], "unknown");
    assert_eq!(body["verified"], false);
    assert_eq!(body["notes"].as_array().unwrap().len(), 2, "{body}");
}

#[test]
fn records_no_line_of_a_proof_reaches_are_never_served() {
    use ransom::search::{Budget, ProofMeta, prove};
    use ransom::variants::Antichess;
    use ransom::{Position, notation::fen};
    let after_e4: Antichess =
        fen::parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1").unwrap();
    let budget = Budget {
        max_nodes: 1_000_000,
        max_time: None,
        hash_bytes: 64 << 20,
        stop: None,
    };
    let mut proof = prove(&after_e4, &budget, &mut |_| {})
        .proof
        .expect("1.e4 loses");
    // A record for the start position, which no line of the proof reaches.
    let start = Antichess::start();
    let e4 = start
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| ransom::notation::uci::write(m) == "e2e4")
        .unwrap();
    proof.moves.insert(start.zobrist(), e4);
    assert!(
        proof.verify().is_ok(),
        "the extra record does not break the proof"
    );
    let dir = fresh_dir("extra-records");
    let meta = ProofMeta {
        root_fen: fen::write(&after_e4),
        winner: "black".into(),
        start_fen: fen::write(&after_e4),
        line: Vec::new(),
    };
    proof.write(&dir.join("antichess-e4.proof"), &meta).unwrap();
    let server = Server::start(ServeConfig {
        proofs: dir,
        ..config("extra-records-server")
    })
    .unwrap();
    let after = lookup_at(server.addr(), &fen::write(&after_e4));
    let health = get(server.addr(), "/health").json();
    assert_eq!(
        after["source"], "proof",
        "the proved position is served: {health}"
    );
    let start = get(server.addr(), "/v1/antichess").json();
    assert_eq!(start["category"], "unknown", "{}", start["source"]);
}

#[test]
fn a_client_that_leaves_keeps_its_search_counted_until_it_ends() {
    use std::io::Write;
    let server = Server::start(ServeConfig {
        workers: 1,
        queue: 0,
        max_time_ms: 20_000,
        max_nodes: u64::MAX,
        ..config("leaving")
    })
    .unwrap();
    let addr = server.addr();
    let body = r#"{"max": 8, "max_time_ms": 3000}"#;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /v1/chess/mate HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while get(addr, "/health").json()["workers"]["running"] != 1 {
        assert!(Instant::now() < deadline, "the search never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stream);
    std::thread::sleep(Duration::from_millis(100));
    // The search goes on without its client and still holds the only worker.
    assert_error(
        &post(addr, "/v1/chess/mate", r#"{"max": 1}"#),
        503,
        "overloaded",
    );
    while get(addr, "/health").json()["workers"]["running"] != 0 {
        assert!(Instant::now() < deadline, "the search never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    let health = get(addr, "/health").json();
    assert_eq!(health["workers"]["waiting"], 0, "{health}");
    let r = post(addr, "/v1/chess/mate", r#"{"max": 1}"#);
    assert_eq!(r.status, 200, "{}", r.json());
}

/// Two identical proofs asked for at once both succeed (each write has a
/// temporary file of its own), and the position stored once uses one
/// unit of `--max-stored-proofs`, however often it is proved again.
#[test]
fn identical_proofs_at_once_both_succeed_and_count_once() {
    let server = Server::start(ServeConfig {
        max_stored_proofs: 2,
        ..config("prove-twice")
    })
    .expect("start the service");
    let addr = server.addr();
    for _ in 0..3 {
        let answers: Vec<Response> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..2)
                .map(|_| s.spawn(move || post(addr, "/v1/antichess/prove", r#"{"moves": ["d3"]}"#)))
                .collect();
            asks.into_iter().map(|a| a.join().unwrap()).collect()
        });
        for r in &answers {
            assert_eq!(r.status, 200, "{}", r.json());
            assert!(r.json()["proof_file"].is_string(), "{}", r.json());
        }
    }
    let stored = *server.state().stored_proofs.lock().unwrap();
    assert_eq!(stored, 1, "one position stored, one unit used");
    // The allowance left still takes a second position.
    let r = post(addr, "/v1/antichess/prove", r#"{"moves": ["e4"]}"#);
    assert!(r.json()["proof_file"].is_string(), "{}", r.json());
}

/// The engine behind `&eval=MS` scores the positions the server's tables
/// cover by them: both captures here reach a 2-man position the tables
/// give as lost for White (the rook is taken or must take the last man
/// next), which the engine shows as a table loss in centipawns (beyond any
/// evaluation), not as a mate it found by search.
#[test]
fn lookup_with_eval_uses_the_servers_tables() {
    let addr = server();
    let fen = encode("8/8/8/8/8/8/p7/R6n w - - 0 1");
    let body = get(addr, &format!("/v1/antichess?fen={fen}&eval=100")).json();
    let cp = body["engine"]["score"]["cp"].as_i64();
    let table_loss = -i64::from(ransom::search::engine::TABLE_WIN);
    assert!(
        cp.is_some_and(|cp| cp <= table_loss + 10),
        "a table loss expected: {body}"
    );
}

/// `&eval=MS` adds the engine's view (issue: an analysis engine): a score
/// for the side to move, depth, nodes and the best line in UCI and SAN.
#[test]
fn lookup_with_eval_adds_the_engine() {
    let addr = server();
    let fen = encode("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let body = get(addr, &format!("/v1/chess?fen={fen}&eval=200")).json();
    let engine = &body["engine"];
    assert!(engine["score"]["cp"].as_i64().unwrap() > 300, "{body}");
    assert_eq!(engine["best"], "d2d5", "{body}");
    assert_eq!(engine["pv"][0], "d2d5", "{body}");
    assert_eq!(engine["pv_san"][0], "Rxd5", "{body}");
    assert!(engine["depth"].as_u64().unwrap() >= 1, "{body}");
    assert_eq!(engine["proved"], false, "{body}");
    // A mate in one is scored as one.
    let fen = encode("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let body = get(addr, &format!("/v1/chess?fen={fen}&eval=100")).json();
    assert_eq!(body["engine"]["score"]["mate"], 1, "{body}");
    // Without eval there is no engine object.
    let fen = encode("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    assert!(
        get(addr, &format!("/v1/chess?fen={fen}"))
            .json()
            .get("engine")
            .is_none()
    );
    for bad in ["0", "abc", "-5"] {
        let response = get(addr, &format!("/v1/chess?fen={fen}&eval={bad}"));
        let body = assert_error(&response, 400, "bad-request");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("eval must be"),
            "{body}"
        );
    }
}
