//! The `ransom` command line, run as a separate process.

mod common;

use serde_json::Value;
use std::process::{Command, Output};

fn ransom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(args)
        .output()
        .expect("the ransom binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 stderr")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = ransom(args);
    assert!(
        out.status.success(),
        "ransom {args:?} failed: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

fn json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Runs a command that must fail (without panicking) and returns stderr.
fn fails(args: &[&str]) -> (i32, String) {
    let out = ransom(args);
    let err = stderr(&out);
    assert!(
        !out.status.success(),
        "ransom {args:?} succeeded: {}",
        stdout(&out)
    );
    assert!(!err.contains("panicked"), "ransom {args:?} panicked: {err}");
    (out.status.code().expect("exit code, not a signal"), err)
}

#[test]
fn perft_prints_nodes_searched() {
    let out = ok(&["perft", "3"]);
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    let out = ok(&["perft", "0"]);
    assert!(out.contains("Nodes searched: 1"), "{out}");
}

#[test]
fn perft_divide_lines() {
    let out = ok(&["perft", "--divide", "1"]);
    let lines: Vec<&str> = out.lines().filter(|l| l.ends_with(": 1")).collect();
    assert_eq!(lines.len(), 20, "{out}");
    assert!(out.lines().any(|l| l == "e2e4: 1"), "{out}");
    assert!(out.lines().any(|l| l == "g1f3: 1"), "{out}");
    assert!(out.contains("Nodes searched: 20"), "{out}");
    let out = ok(&["perft", "--divide", "2"]);
    assert!(out.lines().any(|l| l == "e2e4: 20"), "{out}");
    assert!(out.contains("Nodes searched: 400"), "{out}");
}

#[test]
fn perft_json_divide() {
    let v = json(&["perft", "--json", "--divide", "2"]);
    assert_eq!(v["nodes"], 400);
    assert_eq!(v["depth"], 2);
    let divide = v["divide"].as_object().expect("divide map");
    assert_eq!(divide.len(), 20);
    assert_eq!(divide["e2e4"], 20);
    assert_eq!(divide["b1c3"], 20);
    let sum: u64 = divide.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, 400);
    // Without --divide there is no map.
    let v = json(&["perft", "--json", "3"]);
    assert_eq!(v["nodes"], 8902);
    assert!(v.get("divide").is_none());
}

#[test]
fn perft_antichess() {
    let out = ok(&["perft", "--variant", "antichess", "3"]);
    assert!(out.contains("Nodes searched: 8067"), "{out}");
    let out = ok(&["perft", "-v", "suicide", "3"]);
    assert!(out.contains("Nodes searched: 8067"), "{out}");
}

#[test]
fn variant_names_are_case_insensitive() {
    let out = ok(&["perft", "--variant", "Crazyhouse", "2"]);
    assert!(out.contains("Nodes searched: 400"), "{out}");
    let out = ok(&["perft", "--variant", "CRAZYHOUSE", "4"]);
    assert!(out.contains("Nodes searched: 197281"), "{out}");
    let v = json(&["moves", "--variant", "AntiChess", "--json"]);
    assert_eq!(v["variant"], "antichess");
    let v = json(&["moves", "--variant", "Crazyhouse", "--json"]);
    assert_eq!(v["variant"], "crazyhouse");
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
}

#[test]
fn perft_with_fen() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = ok(&["perft", "--fen", kiwipete, "2"]);
    assert!(out.contains("Nodes searched: 2039"), "{out}");
}

#[test]
fn moves_json() {
    let v = json(&["moves", "--json"]);
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["check"], false);
    assert!(v["outcome"].is_null());
    assert!(v["winner"].is_null());
    let moves = v["moves"].as_array().expect("moves array");
    assert_eq!(moves.len(), 20);
    assert!(
        moves
            .iter()
            .any(|m| m["uci"] == "g1f3" && m["san"] == "Nf3"),
        "{moves:?}"
    );
    assert!(moves.iter().any(|m| m["uci"] == "e2e4" && m["san"] == "e4"));
}

#[test]
fn moves_text_and_finished_game() {
    let out = ok(&["moves"]);
    assert!(out.contains("20 legal moves"), "{out}");
    assert!(out.contains("outcome: game not over"), "{out}");
    let v = json(&["moves", "--json", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(v["outcome"], "stalemate");
    assert!(v["winner"].is_null());
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    let antichess = |fen| json(&["moves", "--json", "--variant", "antichess", "--fen", fen]);
    let v = antichess("8/8/8/8/8/p7/P7/8 w - - 0 1");
    assert_eq!(v["outcome"], "stalemate");
    assert_eq!(v["winner"], "white");
    // A side with no men left has won (RULES A5): the game is over, so
    // there are no moves, though Black's pawn could still move.
    let v = antichess("8/8/8/8/8/8/1p6/8 b - - 0 1");
    assert_eq!(v["outcome"], "variant-win");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["moves"].as_array().unwrap().len(), 0, "{v}");
}

#[test]
fn play_scholars_mate() {
    let v = json(&[
        "play", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7", "--json",
    ]);
    assert_eq!(v["outcome"], "checkmate");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["check"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[6]["san"], "Qxf7#");
    assert_eq!(moves[6]["uci"], "h5f7");
    assert_eq!(
        v["fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    // Text output, UCI input.
    let out = ok(&["play", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(out.contains("outcome: checkmate (black wins)"), "{out}");
}

#[test]
fn play_illegal_move_names_ply_move_and_count() {
    let (code, err) = fails(&["play", "e4", "e5", "Ke3"]);
    assert_eq!(code, 1);
    assert!(err.contains("ply 3"), "{err}");
    assert!(err.contains("'Ke3'"), "{err}");
    assert!(err.contains("29 legal moves"), "{err}");
    let (code, err) = fails(&["play", "e2e5"]);
    assert_eq!(code, 1);
    assert!(err.contains("ply 1: cannot play 'e2e5'"), "{err}");
    assert!(err.contains("20 legal moves"), "{err}");
    // JSON mode reports the error as JSON on stdout.
    let out = ransom(&["play", "--json", "e4", "e5", "Ke3"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["error"]["ply"], 3);
    assert_eq!(v["error"]["move"], "Ke3");
    assert_eq!(v["error"]["legal_moves"], 29);
    assert_eq!(v["error"]["code"], "illegal-move");
    // Moves after the end of the game are refused.
    let (code, err) = fails(&["play", "f3", "e5", "g4", "Qh4", "a3"]);
    assert_eq!(code, 1);
    assert!(err.contains("ply 5"), "{err}");
    assert!(err.contains("the game is already over"), "{err}");
}

#[test]
fn malformed_fen_is_reported_without_panic() {
    let (code, err) = fails(&[
        "moves",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("invalid castling field 'KQx'"), "{err}");
    for (fen_text, expected) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR w", "expected 8 ranks"),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            "rank 7 has 7 squares",
        ),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "white has 2 kings"),
        ("", "empty FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings"),
        ("4k3/8/8/8/8/8/8/4K3 q", "invalid side to move 'q'"),
    ] {
        for command in ["perft", "moves", "play"] {
            let depth: &[&str] = if command == "perft" { &["1"] } else { &[] };
            let mut args = vec![command, "--fen", fen_text];
            args.extend_from_slice(depth);
            let (_, err) = fails(&args);
            assert!(err.contains(expected), "{command} {fen_text:?}: {err}");
        }
    }
    let (_, err) = fails(&[
        "perft",
        "--variant",
        "antichess",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "1",
    ]);
    assert!(err.contains("no castling"), "{err}");
}

#[test]
fn unknown_variant_is_reported() {
    let (code, err) = fails(&["perft", "--variant", "shogi", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown variant 'shogi'"), "{err}");
    assert!(
        err.contains("chess, antichess, suicide, crazyhouse"),
        "{err}"
    );
    let (_, err) = fails(&["moves", "--variant", "atomic"]);
    assert!(err.contains("unknown variant 'atomic'"), "{err}");
}

#[test]
fn crazyhouse_drops_on_the_command_line() {
    let v = json(&[
        "play",
        "--variant",
        "crazyhouse",
        "--json",
        "e4",
        "d5",
        "exd5",
        "Qxd5",
        "P@e4",
    ]);
    assert_eq!(
        v["fen"],
        "rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3"
    );
    assert_eq!(v["moves"][4]["uci"], "P@e4");
    assert_eq!(v["moves"][4]["san"], "P@e4");
}

#[test]
fn bad_arguments_exit_with_usage_error() {
    let out = ransom(&["perft"]);
    assert!(!out.status.success());
    assert!(!stderr(&out).contains("panicked"));
    let out = ransom(&["perft", "x"]);
    assert!(!out.status.success());
    let out = ransom(&["frobnicate"]);
    assert!(!out.status.success());
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn contact_chess_on_the_command_line() {
    // RULES C: perft, moves and play with `--variant contact`.
    let out = ok(&["perft", "--variant", "Contact", "3"]);
    assert!(out.contains("Nodes searched: 115339"), "{out}");
    let worked = "7k/8/4p3/3p4/2P5/1P6/P7/7K[] w - - 0 1";
    let v = json(&["moves", "-v", "contact", "--fen", worked, "--json"]);
    assert_eq!(v["variant"], "contact");
    let moves = v["moves"].as_array().unwrap();
    assert!(
        moves
            .iter()
            .any(|m| m["uci"] == "a2d5" && m["san"] == "axd5")
    );
    assert!(!moves.iter().any(|m| m["uci"] == "b3d5"));
    let out = ok(&["play", "-v", "contact", "--fen", worked, "axd5"]);
    assert!(
        out.contains("fen: 7k/8/4p3/3P4/2P5/1P6/8/7K[p] b - - 0 1"),
        "{out}"
    );
    let (_, err) = fails(&[
        "moves",
        "-v",
        "contact",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert!(err.contains("no castling"), "{err}");
}

#[test]
fn hit_and_run_chess_on_the_command_line() {
    // RULES R1, R8: perft in sub-moves and in whole turns, turns written
    // with a comma, mid-turn FEN out and in, malformed sub= rejected.
    let out = ok(&["perft", "--variant", "hitandrun", "3"]);
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    let v = json(&["perft", "-v", "hitandrun", "--turns", "--json", "3"]);
    assert_eq!(v["nodes"], 219393);
    let v = json(&["play", "-v", "hitandrun", "e4", "e5", "d4", "--json"]);
    let mid = v["fen"].as_str().unwrap().to_string();
    assert!(mid.ends_with("sub=d4"), "{mid}");
    let v = json(&[
        "play",
        "-v",
        "hitandrun",
        "--fen",
        &mid,
        "Nf3",
        "Nc6,exd4",
        "--json",
    ]);
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    let v = json(&["moves", "-v", "hitandrun", "--fen", &mid, "--json"]);
    assert_eq!(v["variant"], "hitandrun");
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["uci"] == "d4d5")
    );
    let (_, err) = fails(&["play", "-v", "hitandrun", "e4,d4"]);
    assert!(err.contains("the turn already ended"), "{err}");
    let bad = "4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=d1xz9";
    let (_, err) = fails(&["moves", "-v", "hitandrun", "--fen", bad]);
    assert!(err.contains("sub=<square>"), "{err}");
}

/// DESIGN "Beyond one machine": `tb plan` lists one job per table with the
/// tables it reads, in build order, and its Makefile builds the set with
/// parallel jobs into tables identical to one `tb build` run.
#[test]
fn tb_plan_orders_jobs_and_its_makefile_builds_the_set() {
    let json: Value =
        serde_json::from_str(&ok(&["tb", "plan", "--pieces", "4", "--format", "json"])).unwrap();
    let jobs = json["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 714, "every 2-4-man table");
    let mut seen = std::collections::HashSet::new();
    for job in jobs {
        for read in job["reads"].as_array().unwrap() {
            assert!(seen.contains(read.as_str().unwrap()), "{job} before {read}");
        }
        seen.insert(job["material"].as_str().unwrap().to_string());
    }
    let text = ok(&["tb", "plan", "--material", "KRvK"]);
    assert_eq!(text, "KvK: \nKvR: \nKRvK: KvK KvR\n");

    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tb-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let (by_make, by_build) = (base.join("make"), base.join("build"));
    std::fs::create_dir_all(&by_make).unwrap();
    let dir = by_make.to_str().unwrap();
    let makefile = ok(&[
        "tb",
        "plan",
        "--material",
        "KPvK",
        "--format",
        "make",
        "--dir",
        dir,
    ]);
    std::fs::write(base.join("Makefile"), makefile).unwrap();
    let made = Command::new("make")
        .args(["-j2", "-f"])
        .arg(base.join("Makefile"))
        .arg(format!("RANSOM={}", env!("CARGO_BIN_EXE_ransom")))
        .output()
        .expect("make runs (GNU make is needed for this test)");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    ok(&[
        "tb",
        "build",
        "--material",
        "KPvK",
        "--dir",
        by_build.to_str().unwrap(),
    ]);
    let manifest =
        |d: &std::path::Path| std::fs::read_to_string(d.join("antichess.manifest")).unwrap();
    assert_eq!(manifest(&by_make), manifest(&by_build));
    assert_eq!(
        manifest(&by_make)
            .lines()
            .filter(|l| l.contains(".rtb"))
            .count(),
        12
    );
}

/// Output into a pipe its reader has closed (`ransom ... | head`) ends the
/// command quietly with success, never with a panic.
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    for args in [&["perft", "3", "--divide"][..], &["moves"], &["tb", "plan"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ransom"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the ransom binary runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("ransom ends");
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "ransom {args:?}: {err}");
        assert!(out.status.success(), "ransom {args:?}: {err}");
    }
}

/// Budgets that cannot be a time or a table size are usage errors (exit
/// 2), never a panic.
#[test]
fn impossible_budgets_are_usage_errors() {
    for (command, extra) in [("mate", ["--max", "1"]), ("prove", ["e4", "--no-write"])] {
        for bad in [
            ["--max-time=-1"],
            ["--max-time=NaN"],
            ["--max-time=inf"],
            ["--max-time=1e30"],
            ["--hash=0"],
            ["--hash=999999999"],
        ] {
            let args: Vec<&str> = [command].into_iter().chain(extra).chain(bad).collect();
            let (code, err) = fails(&args);
            assert_eq!(code, 2, "ransom {args:?}: {err}");
            assert!(
                err.contains("time budget") || err.contains("table size"),
                "ransom {args:?}: {err}"
            );
        }
    }
    // A zero node budget or sample step would make the job pointless (it
    // used to mean "no limit" in one command and "nothing" in another); a
    // server's pool and queue are bounded.
    for (args, says) in [
        (
            vec!["prove", "e4", "--max-nodes", "0"],
            "must be at least 1",
        ),
        (vec!["mate", "--max-nodes", "0"], "must be at least 1"),
        (
            vec!["puzzles", "verify", "x.epd", "--max-nodes", "0"],
            "must be at least 1",
        ),
        (
            vec!["puzzles", "verify", "x.epd", "--every", "0"],
            "must be at least 1",
        ),
        (
            vec!["puzzles", "generate", "--max-nodes", "0"],
            "must be at least 1",
        ),
        (vec!["serve", "--max-nodes", "0"], "must be at least 1"),
        (vec!["serve", "--workers", "0"], "workers must be 1 to 1024"),
        (
            vec!["serve", "--workers", "99999999999"],
            "workers must be 1 to 1024",
        ),
        (vec!["serve", "--queue", "99999999999"], "queue must hold"),
        (vec!["serve", "--hash", "0"], "table size"),
    ] {
        let (code, err) = fails(&args);
        assert_eq!(code, 2, "ransom {args:?}: {err}");
        assert!(err.contains(says), "ransom {args:?}: {err}");
    }
}

/// A result's file is checked before the search: a directory, or a path
/// through a file, is refused at once (nothing was computed to lose).
#[test]
fn unwritable_result_files_are_refused_before_the_search() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let through_file = file.join("x.proof");
    let (dir_text, through_text) = (dir.to_str().unwrap(), through_file.to_str().unwrap());
    let file_text = file.to_str().unwrap();
    for args in [
        vec!["prove", "e4", "--out", dir_text],
        vec!["prove", "e4", "--out", through_text],
        vec!["prove", "e4", "--no-write", "--pgn", dir_text],
        vec!["mate", "--max", "1", "--pgn", through_text],
    ] {
        let (code, err) = fails(&args);
        assert_eq!(code, 1, "ransom {args:?}: {err}");
        assert!(
            err.contains("is a directory") || err.contains("a-file is a file, not a directory"),
            "ransom {args:?}: {err}"
        );
    }
    // A table folder that is a file, or under one, is named as such; an
    // operating-system error is said once.
    for table_dir in [file_text, through_text] {
        let (code, err) = fails(&["tb", "build", "--material", "KvK", "--dir", table_dir]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("a-file is a file, not a directory"), "{err}");
    }
    let (code, err) = fails(&["verify", dir_text]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is a directory, not a table file"), "{err}");
    let (code, err) = fails(&["tb", "verify", dir_text]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.matches("directory").count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tb verify` checks that a file named as a table holds that table
/// (probes find tables by name); a file named otherwise is verified as
/// what it holds.
#[test]
fn tb_verify_refuses_a_table_under_another_tables_name() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-tbnamed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir_text = dir.to_str().unwrap();
    ok(&["tb", "build", "--material", "KvR", "--dir", dir_text]);
    let table = dir.join("antichess-KvR.rtb");
    let misnamed = dir.join("antichess-KvQ.rtb");
    std::fs::copy(&table, &misnamed).unwrap();
    let (code, err) = fails(&["tb", "verify", misnamed.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("holds KvR, expected KvQ"), "{err}");
    let renamed = dir.join("a-copy.rtb");
    std::fs::copy(&table, &renamed).unwrap();
    // A distance file is read with the win/draw/loss file of its table's
    // name: under another name it is refused, saying which name it needs.
    let (code, err) = fails(&["tb", "verify", renamed.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("whose file is named antichess-KvR.rtb"),
        "{err}"
    );
    // A suicide table under an antichess table's name.
    ok(&[
        "tb",
        "build",
        "--variant",
        "suicide",
        "--material",
        "KvR",
        "--dir",
        dir_text,
    ]);
    let other_rules = dir.join("antichess-KvR.rtb");
    std::fs::copy(dir.join("suicide-KvR.rtb"), &other_rules).unwrap();
    let (code, err) = fails(&["tb", "verify", other_rules.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("a table of suicide, expected one of antichess"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tb build` resumes only over tables it can read: a damaged table is
/// named, not counted as built.
#[test]
fn tb_build_names_a_damaged_existing_table() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-tbdamaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("antichess-KNvK.rtb"), b"").unwrap();
    let (code, err) = fails(&[
        "tb",
        "build",
        "--material",
        "KNvK",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("antichess-KNvK.rtb"), "{err}");
    assert!(err.contains("delete it"), "{err}");
    // Nor does a manifest vouch for it.
    let (code, err) = fails(&["tb", "manifest", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("antichess-KNvK.rtb"), "{err}");
    assert!(!dir.join("antichess.manifest").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A PGN file without a game (empty, or only comments) is an error, not
/// the start position.
#[test]
fn a_pgn_without_a_game_is_refused() {
    let path = std::env::temp_dir().join(format!("ransom-empty-{}.pgn", std::process::id()));
    for text in ["", "  \n", "{just a comment}\n; and another\n"] {
        std::fs::write(&path, text).unwrap();
        let (code, err) = fails(&["play", "--pgn", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{text:?}: {err}");
        assert!(err.contains("no game in the PGN"), "{text:?}: {err}");
        assert!(err.contains("ransom-empty-"), "the file is named: {err}");
    }
    // A game of no moves is still a game: its FEN tag is the position.
    std::fs::write(&path, "[FEN \"8/8/8/8/8/8/1k6/R6K w - - 0 1\"]\n*\n").unwrap();
    let out = ransom(&["play", "--pgn", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("8/8/8/8/8/8/1k6/R6K w - - 0 1"));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_reader_that_stops_early_ends_tb_build_quietly() {
    // `ransom tb build ... 2>&1 | head -1`: the progress lines on stderr
    // meet a closed pipe; the command ends with 0 and no panic, as the
    // README promises for every command.
    let dir = std::env::temp_dir().join(format!("ransom-pipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new("bash")
        .args([
            "-c",
            r#"set -o pipefail; "$0" tb build --pieces 2 --dir "$1" --no-manifest 2>&1 | head -1"#,
            env!("CARGO_BIN_EXE_ransom"),
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!text.contains("panicked"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
}

#[test]
fn counts_of_one_and_positions_given_by_fen_are_worded_right() {
    // One legal move (the compulsory capture), said in the singular.
    let fen = "8/8/8/8/8/8/8/nR6 w - - 0 1";
    let out = ok(&["moves", "--variant", "antichess", "--fen", fen]);
    assert!(out.contains("\n1 legal move\n"), "{out}");
    let out = ok(&["prove", "--fen", fen, "--no-write", "--no-store", "-q"]);
    assert!(
        out.contains("[antichess position given by FEN]"),
        "not 'after (start)': {out}"
    );
    assert!(out.contains("longest line 1 ply\n"), "{out}");
    let out = ok(&["prove", "e4", "--no-write", "--no-store", "-q"]);
    assert!(out.contains("[antichess after e2e4]"), "{out}");
}

#[test]
fn tb_probe_lists_no_moves_in_a_finished_game_and_says_what_tables_hold() {
    // Black has no men left: Black has won (RULES A5), and a finished game
    // has no moves to list, as `moves` says.
    let dir = std::env::temp_dir().join(format!("ransom-tb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let out = json(&[
        "tb",
        "probe",
        "--fen",
        "8/8/8/8/8/8/8/K7 w - - 0 1",
        "--dir",
        d,
        "--json",
    ]);
    assert_eq!(out["category"], "loss", "{out}");
    assert_eq!(out["moves"].as_array().unwrap().len(), 0, "{out}");
    assert!(out["game_over"].is_string(), "{out}");
    // Seven men: more than any table holds, said as such.
    let (code, err) = fails(&[
        "tb",
        "probe",
        "--fen",
        "8/8/8/8/8/PP6/PPP5/K6k w - - 0 1",
        "--dir",
        d,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("7 men: more than any table holds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_quiet_move_says_a_capture_is_compulsory_and_a_text_is_not_a_proof() {
    // RULES A2: after 1.e4 d5 White must capture, so 2.e5 is refused.
    let (_, err) = fails(&["play", "--variant", "antichess", "e4", "d5", "e5"]);
    assert!(err.contains("a capture is compulsory"), "{err}");
    assert!(err.contains("(1 legal move in"), "{err}");
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let (_, err) = fails(&["verify", readme]);
    assert!(err.contains("not a proof file"), "{err}");
    assert!(!err.contains("corrupt table"), "{err}");
}

/// A build never changes a manifest that exists (the repository commits
/// one for the 2-3-man set): it says which tables it does not list, and
/// `tb manifest` rewrites it on purpose.
#[test]
fn tb_build_leaves_an_existing_manifest_as_it_is() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-tbmanifest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    ok(&["tb", "build", "--material", "KvR", "--dir", d]);
    let manifest = dir.join("antichess.manifest");
    let before = std::fs::read(&manifest).expect("a folder without one gets a manifest");
    let out = ransom(&["tb", "build", "--material", "KvQ", "--dir", d]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("left as it is") && err.contains("not listed"),
        "{err}"
    );
    assert_eq!(std::fs::read(&manifest).unwrap(), before, "unchanged");
    ok(&["tb", "manifest", "--dir", d]);
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("antichess-KvQ.rtb"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// tablebases/README.md: `tb build --wdl-only` writes the win/draw/loss
/// files alone; `tb probe --wdl` answers categories from them, and a
/// distance asks for the full build by name.
#[test]
fn tb_wdl_only_builds_and_probes_categories() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-wdl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    ok(&[
        "tb",
        "build",
        "--material",
        "KvR",
        "--dir",
        d,
        "--wdl-only",
        "-q",
    ]);
    assert!(dir.join("antichess-KvR.rwdl").is_file());
    assert!(!dir.join("antichess-KvR.rtb").exists());
    let fen = "8/8/8/8/8/3k4/8/1R6 b - - 0 1";
    let out = json(&["tb", "probe", "--fen", fen, "--dir", d, "--wdl", "--json"]);
    assert_eq!(out["category"], "loss", "{out}");
    assert!(out["dtw"].is_null(), "{out}");
    assert_eq!(out["moves"][0]["category"], "win", "{out}");
    let (code, err) = fails(&["tb", "probe", "--fen", fen, "--dir", d]);
    assert_ne!(code, 0);
    assert!(err.contains("--wdl-only"), "{err}");
    // The full build adds the distance files; the answer is exact then.
    ok(&["tb", "build", "--material", "KvR", "--dir", d, "-q"]);
    let out = json(&["tb", "probe", "--fen", fen, "--dir", d, "--json"]);
    assert_eq!(out["dtw"], -35, "{out}");
    // Usage errors name the option and its value.
    for (option, named) in [
        (&["--memory", "0"][..], "--memory 0"),
        (&["--checkpoint-minutes=-1"][..], "--checkpoint-minutes -1"),
    ] {
        let mut args = vec!["tb", "build", "--material", "KvR", "--dir", d];
        args.extend_from_slice(option);
        let (code, err) = fails(&args);
        assert_ne!(code, 0, "{option:?}");
        assert!(err.contains(named), "{option:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// README "tb": a build prints its estimate (tables, disk, time, memory)
/// first, one beyond the 4-man set starts only with `--yes`, and
/// `--dry-run` prints the estimate alone.
#[test]
fn tb_build_estimates_and_asks_for_yes_beyond_four_men() {
    let dir = std::env::temp_dir().join(format!("ransom-tb-yes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().unwrap();
    let (code, err) = fails(&["tb", "build", "--pieces", "5", "--dir", dir_text]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2646 tables to build of 2646"), "{err}");
    assert!(
        err.contains("on disk") && err.contains("of memory"),
        "{err}"
    );
    assert!(err.contains("add --yes"), "{err}");
    assert!(std::fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none()));
    let (code, err) = fails(&["tb", "build", "--material", "KRvKNN", "--dir", dir_text]);
    assert_eq!(code, 2, "{err}");
    // --dry-run: the estimate alone, for any size, and nothing written.
    for pieces in ["4", "5"] {
        let out = ransom(&[
            "tb",
            "build",
            "--pieces",
            pieces,
            "--dir",
            dir_text,
            "--dry-run",
        ]);
        let err = stderr(&out);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains("tables to build of") && !err.contains("add --yes"),
            "{err}"
        );
    }
    assert!(std::fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none()));
    let out = ransom(&["tb", "build", "--pieces", "2", "--dir", dir_text]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.starts_with("21 tables to build of 21"), "{err}");
    let out = ransom(&["tb", "build", "--pieces", "2", "--dir", dir_text]);
    assert!(
        stderr(&out).starts_with("21 tables: all present"),
        "{}",
        stderr(&out)
    );
}

/// Without the `syzygy` feature, `--syzygy` is refused by every command
/// that takes it, saying how to build it in (issue 23.4).
#[cfg(not(feature = "syzygy"))]
#[test]
fn syzygy_flags_need_the_feature() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy_giveaway");
    let fen = "3K1R2/8/8/7k/8/2n5/8/8 w - - 0 1";
    for args in [
        vec!["prove", "--fen", fen, "--no-store", "--syzygy", tables],
        vec!["mate", "-v", "antichess", "--fen", fen, "--syzygy", tables],
        vec!["tb", "probe", "--fen", fen, "--syzygy", tables],
        vec!["store", "verify", "--syzygy", tables],
    ] {
        let (code, err) = fails(&args);
        assert_ne!(code, 0);
        assert!(err.contains("--features syzygy"), "{args:?}: {err}");
    }
}

/// `mate --tablebases`: this project's tables cut the lines a win cannot
/// finish in time (a win in d plies takes ⌈d/2⌉ of the attacker's moves),
/// so the shortest mate is the tables' distance to win in moves, proved and
/// verified; a position the tables call lost has no mate, without search.
#[test]
fn mate_with_own_tables_gives_the_tables_distance_in_moves() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-mate-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    ok(&["tb", "build", "--material", "KvR", "--dir", d, "-q"]);
    let mate = |fen: &str| {
        let mut args = common::antichess_mate_args(fen, "20");
        args.extend(["--tablebases", d]);
        json(&args)
    };
    for (fen, dtw) in [
        ("8/8/8/8/8/3k4/8/1R6 w - - 0 1", 28),
        ("8/8/8/8/1k6/8/8/7R w - - 0 1", 20),
    ] {
        let probe = json(&["tb", "probe", "--fen", fen, "--dir", d, "--json"]);
        assert_eq!(probe["dtw"], dtw, "{probe}");
        let out = mate(fen);
        assert_eq!(out["proven"], "mate", "{out}");
        assert_eq!(out["mate_in"], dtw / 2, "{fen}: {out}");
        assert_eq!(out["shortest"], true, "{out}");
        assert!(out["verified_positions"].as_u64().unwrap() > 0, "{out}");
    }
    let out = mate("8/8/8/8/8/3k4/8/1R6 b - - 0 1");
    assert_eq!(out["proven"], "no-mate", "{out}");
    assert_eq!(out["nodes"], 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
