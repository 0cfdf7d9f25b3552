//! Syzygy giveaway tables as a second source behind `prove`, `mate`,
//! `store verify` and `serve` (issue 23.4; RULES L: antichess rules, no
//! 50-move rule). A leaf the Syzygy tables settle is expanded along their
//! distance to zeroing into moves the verifier re-checks; a mate search uses
//! them only to rule lines out. Only with the `syzygy` feature:
//! `cargo test --release --features syzygy --test syzygy_sources`.
#![cfg(feature = "syzygy")]

mod common;

use common::http::{encode, get, post};
use ransom::service::Server;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// KRvKN, White to move: a win in 16 moves (Syzygy: dtz 7).
const KRVKN_WIN: &str = "3K1R2/8/8/7k/8/2n5/8/8 w - - 0 1";
/// KRvKN, White to move: a mate in 8 (Syzygy: win).
const KRVKN_MATE_IN_8: &str = "5R2/4K3/7k/8/8/2n5/8/8 w - - 0 1";
/// KRvKN, White to move: lost for White (Syzygy: loss, dtz -1).
const KRVKN_LOSS: &str = "8/8/8/8/8/2n5/1k6/K6R w - - 0 1";

fn syzygy() -> PathBuf {
    common::own_data("syzygy_giveaway")
}

fn ransom(args: &[&str], dir: &Path) -> (i32, String, String) {
    common::run_ransom(args, dir)
}

fn json_of(args: &[&str], dir: &Path) -> Value {
    let (code, out, err) = ransom(args, dir);
    assert_eq!(code, 0, "ransom {args:?} failed:\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `prove --syzygy`: the Syzygy tables settle the root at once, the proof
/// below it follows their distance to zeroing, and `verify` re-checks it
/// with no table at hand.
#[test]
fn a_proof_settled_by_syzygy_tables_is_expanded_and_verified() {
    let dir = common::fresh_dir("syzygy-sources", "prove");
    let s = syzygy();
    let out = json_of(
        &[
            "prove",
            "-q",
            "--json",
            "--fen",
            KRVKN_WIN,
            "--no-tablebases",
            "--no-store",
            "--syzygy",
            s.to_str().unwrap(),
            "--out",
            "win.proof",
        ],
        &dir,
    );
    assert_eq!(out["result"], "win", "{out}");
    assert_eq!(out["nodes"], 1, "{out}");
    let (code, text, err) = ransom(&["verify", "win.proof"], &dir);
    assert_eq!(code, 0, "{text}{err}");
    assert!(text.starts_with("OK: white wins"), "{text}");
}

/// `prove --syzygy --store`, then `store verify --syzygy`: the stored
/// positions the tables settled count as scored; without the tables the
/// same store is not re-provable from its own moves.
#[test]
fn a_store_proved_with_syzygy_tables_verifies_with_them() {
    let dir = common::fresh_dir("syzygy-sources", "store");
    let s = syzygy();
    let (code, out, err) = ransom(
        &[
            "prove",
            "-q",
            "--fen",
            "3K1R2/8/8/7k/8/2n5/2n5/8 w - - 0 1",
            "--no-tablebases",
            "--store",
            "store",
            "--syzygy",
            s.to_str().unwrap(),
            "--max-nodes",
            "2000000",
            "--no-write",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("result: win"), "{out}");
    let (code, out, err) = ransom(
        &[
            "store",
            "verify",
            "store",
            "-q",
            "--no-tablebases",
            "--syzygy",
            s.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("OK: "), "{out}");
    let (code, out, err) = ransom(&["store", "verify", "store", "-q", "--no-tablebases"], &dir);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("no move stored"), "{err}");
}

/// `mate --syzygy`: the same shortest mate, verified, with fewer nodes; a
/// position the tables call lost has no mate and needs no search.
#[test]
fn mate_with_syzygy_tables_finds_the_same_mate_with_fewer_nodes() {
    let dir = common::fresh_dir("syzygy-sources", "mate");
    let s = syzygy();
    let mate = |fen: &str, tables: bool| {
        let mut args = common::antichess_mate_args(fen, "12");
        if tables {
            args.extend(["--syzygy", s.to_str().unwrap()]);
        }
        json_of(&args, &dir)
    };
    let plain = mate(KRVKN_MATE_IN_8, false);
    let with = mate(KRVKN_MATE_IN_8, true);
    for out in [&plain, &with] {
        assert_eq!(out["proven"], "mate", "{out}");
        assert_eq!(out["mate_in"], 8, "{out}");
        assert_eq!(out["shortest"], true, "{out}");
        assert!(out["verified_positions"].as_u64().unwrap() > 0, "{out}");
    }
    let nodes = |v: &Value| v["nodes"].as_u64().unwrap();
    assert!(
        nodes(&with) * 2 < nodes(&plain),
        "{} nodes with the tables, {} without",
        nodes(&with),
        nodes(&plain)
    );
    let lost = mate(KRVKN_LOSS, true);
    assert_eq!(lost["proven"], "no-mate", "{lost}");
    assert_eq!(lost["nodes"], 0, "{lost}");
}

/// `--syzygy` is refused, naming the reason, for a variant with other
/// rules (suicide: a stalemated side with more men loses) and for a
/// folder without giveaway tables.
#[test]
fn syzygy_tables_are_refused_where_they_do_not_apply() {
    let dir = common::fresh_dir("syzygy-sources", "refused");
    let s = syzygy();
    let (code, _, err) = ransom(
        &[
            "prove",
            "-v",
            "suicide",
            "e3",
            "--no-store",
            "--syzygy",
            s.to_str().unwrap(),
        ],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(err.contains("antichess"), "{err}");
    let (code, _, err) = ransom(
        &[
            "mate",
            "-v",
            "antichess",
            "--fen",
            KRVKN_WIN,
            "--syzygy",
            ".",
        ],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(err.contains("no Syzygy giveaway tables"), "{err}");
}

/// `serve --syzygy`: a position only the Syzygy tables cover is answered
/// from them (`"source": "syzygy"`, a category and no distance), and so
/// are its moves; the mate endpoint uses them to rule lines out; a folder
/// without tables stops the start with its name.
#[test]
fn the_service_answers_from_syzygy_tables() {
    let mut config = common::bare_serve_config(common::fresh_dir("syzygy-sources", "serve"));
    config.syzygy = Some(syzygy());
    let server = Server::start(config).expect("start the service");
    let response = get(
        server.addr(),
        &format!("/v1/antichess?fen={}", encode(KRVKN_WIN)),
    );
    assert_eq!(response.status, 200);
    let body = response.json();
    assert_eq!(body["category"], "win", "{body}");
    assert_eq!(body["source"], "syzygy", "{body}");
    assert!(body["dtw"].is_null(), "{body}");
    let moves = body["moves"].as_array().expect("moves");
    assert!(
        moves
            .iter()
            .any(|m| m["category"] == "loss" && m["source"] == "syzygy"),
        "{body}"
    );
    // The mate endpoint rules lines out with them too: a lost position
    // has no mate, without search.
    let response = post(
        server.addr(),
        "/v1/antichess/mate",
        &serde_json::json!({ "fen": KRVKN_LOSS, "max": 5 }).to_string(),
    );
    assert_eq!(response.status, 200);
    let body = response.json();
    assert_eq!(body["proven"], "no-mate", "{body}");
    assert_eq!(body["nodes"], 0, "{body}");
    let mut config = common::bare_serve_config(common::fresh_dir("syzygy-sources", "serve2"));
    config.syzygy = Some(PathBuf::from("no-such-folder"));
    let err = Server::start(config).err().expect("a start error");
    assert!(err.to_string().contains("no-such-folder"), "{err}");
}
