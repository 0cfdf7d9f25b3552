//! `prove` at scale from the command line: the solved-position store, the
//! two-level search, resuming from a checkpoint, SIGKILL in mid-run, damaged
//! store files, several threads.
//!
//! The line used for the search tests, 1.b4 c5 2.bxc5 h5, is a White win
//! that one search of about 110,000 nodes settles; with leaf searches of
//! 1,000 nodes it takes about 120 of them, so every part of the two-level
//! search runs in a fraction of a second. The resume test uses a line ten
//! times longer (1.b4 c5 2.bxc5 f5 3.Nf3, about 10^6 nodes).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const LINE: &[&str] = &["b4", "c5", "bxc5", "h5"];

use common::run_ransom as ransom;

/// A Black win that needs about 10^6 nodes in leaf searches of 1,000
/// (1,049,038 with one thread), for the resume test.
const LONG_LINE: &[&str] = &["b4", "c5", "bxc5", "f5", "Nf3"];

/// `prove LINE --json` with `extra` options; the parsed JSON.
fn prove_line(extra: &[&str], dir: &Path) -> serde_json::Value {
    prove(LINE, extra, dir)
}

/// `prove line --json` with `extra` options; the parsed JSON.
fn prove(line: &[&str], extra: &[&str], dir: &Path) -> serde_json::Value {
    let mut args = vec!["prove"];
    args.extend_from_slice(line);
    args.extend_from_slice(&["--json", "--no-write", "--leaf-nodes", "1000"]);
    args.extend_from_slice(extra);
    let (code, out, err) = ransom(&args, dir);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn store_verify(store: &str, dir: &Path) -> (i32, String, String) {
    ransom(&["store", "verify", store, "--no-tablebases"], dir)
}

/// The tables and logs of the antichess store under `dir/store` (not its
/// lock or the logs' count files).
fn store_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("store/antichess"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rst" || x == "rsl"))
        .collect();
    files.sort();
    files
}

/// With `--sums switch` the watch (the root's lowest proof number and the
/// node it was reached at) is kept in the checkpoint: the resumed run's
/// note counts from a node of the first run, not from its own start
/// (docs/store-format.md, "Checkpoint").
#[test]
fn a_resumed_search_keeps_watching_for_the_sums_switch() {
    let dir = common::fresh_dir("scale", "switch-resume");
    let switch = ["--sums", "switch", "--sums-switch-after", "30000"];
    let args = |extra: &[&'static str]| {
        let mut args = vec!["--threads", "1", "--store", "store"];
        args.extend_from_slice(&switch);
        args.extend_from_slice(extra);
        args
    };
    let first = prove_line(&args(&["--max-nodes", "20000"]), &dir);
    assert_eq!(first["result"], "unknown", "{first}");
    assert!(!first["notes"].to_string().contains("plain sums"));
    let second = prove_line(&args(&[]), &dir);
    assert_eq!(second["resumed"], true, "{second}");
    assert_eq!(second["result"], "win", "{second}");
    assert_eq!(second["verified"], true);
    let notes = second["notes"].to_string();
    let since: u64 = notes
        .split("or more from node ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no switch note: {notes}"));
    assert!(
        since < 20_000,
        "the watch restarted with the resumed run: {notes}"
    );
}

#[test]
fn a_stopped_search_resumes_and_costs_at_most_a_tenth_more() {
    let dir = common::fresh_dir("scale", "resume");
    let whole = prove(LONG_LINE, &["--threads", "1", "--store", "whole"], &dir);
    assert_eq!(whole["result"], "win", "{whole}");
    assert_eq!(whole["winner"], "black");
    assert_eq!(whole["verified"], true);
    let uninterrupted = whole["nodes"].as_u64().unwrap();

    // The same search stopped half-way by its node budget, then run to the end.
    let budget = (uninterrupted / 2).to_string();
    let mut runs = Vec::new();
    for extra in [&["--max-nodes", &budget][..], &[]] {
        let mut args = vec!["--threads", "1", "--store", "parts"];
        args.extend_from_slice(extra);
        let run = prove(LONG_LINE, &args, &dir);
        if let Some(checkpoint) = run["checkpoint"].as_str() {
            assert!(dir.join(checkpoint).is_file(), "{checkpoint}");
        }
        runs.push(run);
    }
    assert_eq!(runs[0]["result"], "unknown");
    assert_eq!(runs[0]["resumed"], false);
    assert!(runs[0]["checkpoint"].is_string(), "{}", runs[0]);
    assert_eq!(runs[1]["resumed"], true);
    assert!(runs[1]["store_began_with"].as_u64().unwrap() > 0);
    let last = &runs[1];
    assert_eq!(last["result"], "win", "{last}");
    assert_eq!(last["best"], whole["best"]);
    assert_eq!(last["verified"], true);
    assert_eq!(
        last["checkpoint"],
        serde_json::Value::Null,
        "a finished search leaves no checkpoint"
    );
    let total = last["total_nodes"].as_u64().unwrap();
    let sum: u64 = runs.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(total, sum, "total_nodes counts every run");
    assert!(
        total * 10 <= uninterrupted * 11,
        "resumed: {total} nodes in all, uninterrupted: {uninterrupted}"
    );
}

#[test]
fn a_second_run_starts_from_the_first_runs_work() {
    let dir = common::fresh_dir("scale", "second");
    let budget = ["--max-nodes", "300000", "--threads", "2", "--store", "s"];
    let run = |dir: &Path| {
        let (code, out, err) = ransom(
            &[
                &["prove", "b4", "c5", "--json", "--leaf-nodes", "5000"][..],
                &budget,
            ]
            .concat(),
            dir,
        );
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let first = run(&dir);
    assert_eq!(first["result"], "unknown");
    assert_eq!(first["store_began_with"], 0);
    let settled = first["store_positions"].as_u64().unwrap();
    assert!(settled > 0, "{first}");
    let second = run(&dir);
    assert_eq!(
        second["store_began_with"].as_u64(),
        Some(settled),
        "{second}"
    );
    assert_eq!(second["resumed"], true);
    assert_eq!(second["earlier_nodes"], first["nodes"]);
    assert!(
        second["store_positions"].as_u64().unwrap() > settled,
        "{second}"
    );
    assert!(
        second["outer_nodes"].as_u64().unwrap() >= first["outer_nodes"].as_u64().unwrap(),
        "the outer tree was continued, not rebuilt"
    );
    let notes = second["notes"].to_string();
    assert!(
        notes.contains("to resume, run the same command again"),
        "{notes}"
    );

    let (code, out, err) = ransom(&["store", "stats", "s", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap();
    let store = &stats["stores"][0];
    assert_eq!(store["variant"], "antichess");
    assert!(store["positions"].as_u64().unwrap() >= settled);
    assert_eq!(store["checkpoints"].as_array().unwrap().len(), 1, "{stats}");
    let checkpoint = &store["checkpoints"][0];
    assert_eq!(checkpoint["attacker"], "white");
    assert!(checkpoint["frontier_fen"].is_string(), "{checkpoint}");
    assert!(
        !checkpoint["most_proving_line"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{checkpoint}"
    );
    let (code, out, err) = ransom(&["store", "stats", "s"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("unfinished search: white win?") && out.contains("most-proving line: "),
        "{out}"
    );
}

#[test]
fn two_threads_reach_the_same_verified_result() {
    let dir = common::fresh_dir("scale", "threads");
    let one = prove_line(&["--threads", "1", "--no-store"], &dir);
    let two = prove_line(&["--threads", "2", "--no-store"], &dir);
    for json in [&one, &two] {
        assert_eq!(json["result"], "win", "{json}");
        assert_eq!(json["winner"], "white");
        assert_eq!(json["verified"], true);
        assert_eq!(json["store"], serde_json::Value::Null);
    }
    assert_eq!(two["threads"], 2);
    assert!(
        !dir.join("proofs/store").exists(),
        "--no-store writes nothing"
    );
}

#[test]
fn a_proof_read_out_of_the_store_is_written_and_verifies() {
    let dir = common::fresh_dir("scale", "export");
    let (code, _, err) = ransom(&["prove", "e4", "--store", "s", "-q"], &dir);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(dir.join("proofs/antichess-e2e4.proof")).unwrap();
    let (code, out, err) = ransom(&["prove", "e4", "--store", "s", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["nodes"], 0, "the root is in the store: {json}");
    assert_eq!(json["result"], "win");
    assert_eq!(json["proof_positions"], 242);
    let (code, out, err) = ransom(&["verify", "proofs/antichess-e2e4.proof"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("OK: black wins"), "{out}");
    let (code, out, err) = store_verify("s", &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("116 wins and 116 losses re-proved"), "{out}");
}

#[test]
fn a_store_survives_sigkill_verifies_and_the_search_finishes() {
    let dir = common::fresh_dir("scale", "kill");
    let mut args = vec!["prove"];
    args.extend_from_slice(LINE);
    args.extend_from_slice(&[
        "--store",
        "store",
        "--leaf-nodes",
        "200",
        "--threads",
        "2",
        "--checkpoint-every",
        "0.02",
        "--no-write",
        "-q",
    ]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(&args)
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as it has written a checkpoint (its log is then synced).
    let checkpoints = dir.join("store/antichess/checkpoints");
    common::wait_for_checkpoint(&checkpoints, &mut child, Duration::from_secs(60));
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");

    let (code, out, err) = store_verify("store", &dir);
    assert_eq!(code, 0, "{out}{err}");
    let resumed = prove_line(&["--store", "store", "--threads", "2"], &dir);
    assert_eq!(resumed["resumed"], true, "{resumed}");
    assert_eq!(resumed["result"], "win", "{resumed}");
    assert_eq!(resumed["verified"], true);
    let (code, out, err) = store_verify("store", &dir);
    assert_eq!(code, 0, "{out}{err}");
}

/// A store with a compacted table (1.e4's proof) and a log (1.d3's).
fn two_file_store(name: &str) -> PathBuf {
    let dir = common::fresh_dir("scale", name);
    for (first, compact) in [("e4", true), ("d3", false)] {
        let (code, _, err) = ransom(
            &["prove", first, "--store", "store", "--no-write", "-q"],
            &dir,
        );
        assert_eq!(code, 0, "{err}");
        if compact {
            let (code, _, err) = ransom(&["store", "compact", "store"], &dir);
            assert_eq!(code, 0, "{err}");
        }
    }
    let files = store_files(&dir);
    assert_eq!(files.len(), 2, "{files:?}");
    dir
}

#[test]
fn a_flipped_bit_in_a_log_record_is_named_and_the_store_refused() {
    let dir = two_file_store("logflip");
    let log = store_files(&dir)
        .into_iter()
        .find(|p| p.extension().unwrap() == "rsl")
        .unwrap();
    let mut bytes = std::fs::read(&log).unwrap();
    // Record 5 of the log: 32 bytes of header, 48 bytes a record.
    bytes[32 + 5 * 48 + 3] ^= 0x10;
    std::fs::write(&log, &bytes).unwrap();
    let (code, _, err) = store_verify("store", &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("log-") && err.contains("record 5") && err.contains("checksum"),
        "{err}"
    );
    let (code, _, err) = ransom(&["prove", "e4", "--store", "store", "--no-write"], &dir);
    assert_ne!(code, 0, "prove must not use a damaged store");
    assert!(
        err.contains("record 5") && err.contains("--no-store"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_torn_log_tail_is_dropped_and_the_rest_kept() {
    let dir = two_file_store("torn");
    let log = store_files(&dir)
        .into_iter()
        .find(|p| p.extension().unwrap() == "rsl")
        .unwrap();
    // A writer killed while appending: part of a record past the synced
    // ones (the log's count file says how many those are).
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut file, &[0x5a; 28]).unwrap();
    drop(file);
    let (code, out, err) = store_verify("store", &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("28 bytes of a torn write dropped"), "{out}");
    let (code, out, err) = ransom(
        &["prove", "d3", "--store", "store", "--no-write", "--json"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["result"], "win", "{json}");
    let (code, _, err) = store_verify("store", &dir);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_damaged_compacted_table_is_named_and_the_store_refused() {
    for damage in ["flip", "truncate"] {
        let dir = two_file_store(damage);
        let table = store_files(&dir)
            .into_iter()
            .find(|p| p.extension().unwrap() == "rst")
            .unwrap();
        let mut bytes = std::fs::read(&table).unwrap();
        if damage == "flip" {
            let at = bytes.len() - 40;
            bytes[at] ^= 0x01;
        } else {
            bytes.truncate(bytes.len() - 100);
        }
        std::fs::write(&table, &bytes).unwrap();
        let (code, _, err) = store_verify("store", &dir);
        assert_eq!(code, 1, "{damage}");
        let name = table.file_name().unwrap().to_string_lossy().into_owned();
        assert!(err.contains(&name), "{damage}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let (code, _, err) = ransom(&["prove", "e4", "--store", "store", "--no-write"], &dir);
        assert_ne!(code, 0, "{damage}: prove must not use a damaged table");
        assert!(err.contains(&name), "{damage}: {err}");
    }
}

#[test]
fn a_stored_win_that_is_not_a_win_fails_store_verify() {
    // A log record can be well formed and still wrong (a bug, or a store
    // edited by hand): store verify re-proves every win from the moves.
    let dir = two_file_store("wrong");
    let log = store_files(&dir)
        .into_iter()
        .find(|p| p.extension().unwrap() == "rsl")
        .unwrap();
    let mut bytes = std::fs::read(&log).unwrap();
    let records = (bytes.len() - 32) / 48;
    // Turn a loss record into a win by its flags, with a move, and fix the checksum.
    let at = (0..records)
        .map(|i| 32 + i * 48)
        .find(|&at| bytes[at + 8] == 2)
        .expect("a loss record");
    bytes[at + 8] = 1;
    bytes[at + 9] = 0x41; // some move code
    let sum = crc32c(&bytes[at..at + 44]);
    bytes[at + 44..at + 48].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&log, &bytes).unwrap();
    let (code, _, err) = store_verify("store", &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FAILED") && err.contains("record"), "{err}");
}

/// CRC-32C (Castagnoli), bit by bit: the log's record checksum.
fn crc32c(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0x82f6_3b78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn store_commands_name_what_is_missing() {
    let dir = common::fresh_dir("scale", "missing");
    let (code, _, err) = ransom(&["store", "stats", "nowhere"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("nowhere") && err.contains("no store"), "{err}");
    std::fs::write(dir.join("file"), b"x").unwrap();
    let (code, _, err) = ransom(&["prove", "e4", "--store", "file"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("file") && !err.contains("panicked"), "{err}");
}
