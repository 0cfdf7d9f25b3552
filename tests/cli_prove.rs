//! `ransom prove` and `ransom verify` from the command line: JSON fields,
//! proof files, PGN export, exit codes on bad input.

mod common;

use common::run_ransom as ransom;
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ransom-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn prove_e4_json_writes_a_verifiable_proof() {
    let dir = temp_dir("e4");
    let (code, out, err) = ransom(&["prove", "e4", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["result"], "win");
    assert_eq!(json["winner"], "black");
    assert_eq!(json["best"], "b7b5");
    assert_eq!(json["verified"], true);
    assert!(json["proof_positions"].as_u64().unwrap() > 100);
    assert!(json["nodes"].as_u64().unwrap() > 0);
    assert!(json["time_ms"].is_u64());
    assert_eq!(json["proof_file"], "proofs/antichess-e2e4.proof");
    assert_eq!(json["variant"], "antichess");

    let (code, out, err) = ransom(&["verify", "proofs/antichess-e2e4.proof"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("OK: black wins in "), "{out}");

    let (code, out, _) = ransom(&["verify", "--json", "proofs/antichess-e2e4.proof"], &dir);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(json["line"][0], "e2e4");
}

#[test]
fn prove_text_output_and_pgn_export() {
    let dir = temp_dir("d3e5");
    let (code, out, err) = ransom(
        &["prove", "d3", "e5", "--pgn", "d3e5.pgn", "--out", "x.proof"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("result: win for the side to move: white wins (proved and verified)"),
        "{out}"
    );
    assert!(out.contains("best: Bf4 (c1f4)"), "{out}");
    assert!(out.contains("proof file: x.proof"), "{out}");
    let pgn = std::fs::read_to_string(dir.join("d3e5.pgn")).unwrap();
    assert!(pgn.contains("[Variant \"Antichess\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("\n\n2. Bf4 exf4 3. b4"), "{pgn}");
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");

    // Black's proof after 1.e4 branches: every White defence is a variation.
    let (code, _, err) = ransom(&["prove", "e4", "--pgn", "e4.pgn", "--no-write"], &dir);
    assert_eq!(code, 0, "{err}");
    let pgn = std::fs::read_to_string(dir.join("e4.pgn")).unwrap();
    assert!(pgn.contains("\n\n1... b5 2. Bxb5"), "{pgn}");
    assert!(pgn.contains(" (") && pgn.contains(')'), "{pgn}");
    assert_eq!(pgn.matches('(').count(), pgn.matches(')').count());
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
}

#[test]
fn prove_reports_unknown_at_its_budget() {
    let dir = temp_dir("budget");
    let (code, out, _) = ransom(&["prove", "Nf3", "--max-nodes", "1000", "--json"], &dir);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["result"], "unknown");
    assert_eq!(json["winner"], serde_json::Value::Null);
    assert_eq!(json["proof_file"], serde_json::Value::Null);
    assert!(!dir.join("proofs/antichess-g1f3.proof").exists());
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = temp_dir("bad");
    let (code, _, err) = ransom(&["prove", "e5"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("move 1 ('e5')"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let (code, _, err) = ransom(&["prove", "--fen", "not a fen"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("invalid piece placement"), "{err}");

    std::fs::write(dir.join("junk.proof"), b"RANSOMT1 but not really").unwrap();
    let (code, _, err) = ransom(&["verify", "junk.proof"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("FAILED") && err.contains("junk.proof"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let (code, _, err) = ransom(&["verify", "missing.proof"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("missing.proof"), "{err}");
}

/// docs/store-format.md "Proofs as PGN": a position reached again by
/// transposition is written once, the later lines stop at a comment;
/// `--pgn-full` writes every line to the end of the game.
#[test]
fn pgn_full_writes_every_transposed_line_to_the_end() {
    let dir = temp_dir("pgn-full");
    let (code, _, err) = ransom(&["prove", "d4", "--no-write", "--pgn", "once.pgn"], &dir);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = ransom(
        &[
            "prove",
            "d4",
            "--no-write",
            "--pgn",
            "full.pgn",
            "--pgn-full",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let once = std::fs::read_to_string(dir.join("once.pgn")).unwrap();
    let full = std::fs::read_to_string(dir.join("full.pgn")).unwrap();
    let transposed = once.matches("{transposes to an earlier line}").count();
    assert!(transposed > 0, "the 1.d4 proof has transpositions: {once}");
    let (finished, stopped) = common::pgn_walk::walk_pgn_lines(&once);
    assert_eq!(stopped, transposed);
    assert!(!full.contains("transposes"), "{full}");
    let (full_finished, full_stopped) = common::pgn_walk::walk_pgn_lines(&full);
    assert_eq!(full_stopped, 0, "every line of --pgn-full ends the game");
    assert!(full_finished > finished, "{full_finished} vs {finished}");
    assert!(full.len() > once.len());

    let (code, _, err) = ransom(&["prove", "e4", "--no-write", "--pgn-full"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("--pgn"), "{err}");
}

/// `prove` in the variants whose positions hold men off the board or stop
/// mid-turn (Contact, Hostage, crazyhouse, Hit-and-Run): the store keeps
/// their results in memory for the run, so a proved root is read out and
/// verified (it used to end "the root was proved but its proof could not
/// be read out of the store"). Each puzzle is a generated mate of the
/// repository, so the side to move wins.
#[test]
fn prove_reads_out_proofs_in_variants_with_holdings() {
    let dir = temp_dir("holdings");
    let puzzles = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for (variant, file) in [
        ("contact", "contact-generated-m2-3.epd"),
        ("hostage", "hostage-generated-m2.epd"),
        ("crazyhouse", "crazyhouse-generated-m2-3.epd"),
        ("hitandrun", "hitandrun-generated-m2.epd"),
    ] {
        let text = std::fs::read_to_string(puzzles.join(file)).unwrap();
        let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        let (code, out, err) = ransom(
            &[
                "prove",
                "--variant",
                variant,
                "--fen",
                &fen,
                "--no-write",
                "--json",
            ],
            &dir,
        );
        assert_eq!(code, 0, "{variant}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["result"], "win", "{variant}: {out}\n{err}");
        assert_eq!(json["verified"], true, "{variant}");
    }
}

/// A search without a budget says so when it starts and, with stderr not a
/// terminal, still prints a progress line (every 10 s) until it is stopped.
#[test]
fn a_search_without_a_budget_says_so_and_reports_progress_off_a_terminal() {
    use std::process::{Command, Stdio};
    let dir = temp_dir("no-budget");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args([
            "prove",
            "--variant",
            "chess",
            "e4",
            "--no-store",
            "--no-write",
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = common::stderr_lines(&mut child);
    let mut seen = Vec::new();
    // A watchdog, not a timing: the first progress line must come at all.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !seen.iter().any(|l: &String| l.contains("nodes/s")) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.first()
            .is_some_and(|l| l.contains("no --max-nodes or --max-time")),
        "{seen:?}"
    );
    assert!(seen.iter().any(|l| l.contains("nodes/s")), "{seen:?}");
}
