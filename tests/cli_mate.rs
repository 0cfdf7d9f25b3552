//! `ransom mate` on the command line: text, JSON, PGN, suites, errors.

use serde_json::Value;
use std::process::{Command, Output};

fn ransom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(args)
        .output()
        .expect("the ransom binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

const MATE_IN_2: &str = "3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1";

#[test]
fn text_output_names_the_shortest_mate_key_and_tree() {
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--max", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("mate in 2 (shortest, proved)"),
        "{stdout}"
    );
    assert!(stdout.contains("key: d4"), "{stdout}");
    assert!(stdout.contains("d4 {mate in 2}"), "{stdout}");
    assert!(stdout.contains("dxc5# {mate in 1}"), "{stdout}");
}

#[test]
fn json_output_has_the_documented_fields() {
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--json", "--all-keys"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mate_in"], 2);
    assert_eq!(v["proven"], "mate");
    assert_eq!(v["shortest"], true);
    assert_eq!(v["keys"], serde_json::json!(["d2d4"]));
    assert_eq!(v["main_line"][0], "d2d4");
    assert_eq!(v["tree"]["moves"][0]["mate_in"], 2);
    assert!(v["tree"]["moves"][0]["next"].as_array().unwrap().len() > 5);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["time_ms"].is_number());
}

#[test]
fn no_mate_is_proved_below_the_shortest_length() {
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--max", "1", "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proven"], "no-mate");
    assert_eq!(v["mate_in"], Value::Null);
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--max", "1"]);
    assert!(text(&out.stdout).starts_with("no mate in ≤ 1 (proved)"));
}

#[test]
fn an_exhausted_budget_answers_unknown_with_exit_code_2() {
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--max-nodes", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).starts_with("unknown"));
    // The note counts the whole search's nodes, the short bounds included.
    let out = ransom(&["mate", "--max", "6", "--max-nodes", "50", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["nodes"].as_u64().unwrap();
    let note = v["notes"][0].as_str().unwrap();
    assert!(
        note.contains(&format!("budget exhausted after {nodes} nodes")),
        "{note} ({nodes} nodes)"
    );
}

/// The shared suite's crazyhouse mate in 7 e7_01: the first mate is found
/// within a few thousand nodes, certifying its length takes far more.
const CRAZYHOUSE_M7: &str =
    "r3k2r/ppp2ppp/2bp1q2/4p3/4P3/2PP1n2/PP3PKP/R2Q1R2[BBNNNbp] b kq - 0 18";

#[test]
fn stream_reports_the_first_verified_mate_before_the_final_answer() {
    let args = [
        "mate",
        "-v",
        "crazyhouse",
        "--fen",
        CRAZYHOUSE_M7,
        "--max",
        "7",
        "--max-nodes",
        "100000",
    ];
    let out = ransom(&[&args[..], &["--stream"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let events: Vec<_> = lines.iter().map(|l| l["event"].clone()).collect();
    assert_eq!(events, ["found", "final"]);
    for line in &lines {
        assert_eq!(line["mate_in"], 7);
        assert_eq!(line["shortest"], false);
        assert_eq!(line["keys"], serde_json::json!(["P@h3"]));
    }
    assert!(
        lines[1]["notes"][0]
            .as_str()
            .unwrap()
            .contains("mate in 6 is not ruled out")
    );

    // Text mode says the same on stderr and gives the verdict on stdout.
    let out = ransom(&args);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("found: mate in 7 after"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).starts_with("mate in 7 (a shorter mate is not ruled out)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn pgn_output_holds_every_defence() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-mate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("m2.pgn");
    let out = ransom(&["mate", "--fen", MATE_IN_2, "--pgn", pgn.to_str().unwrap()]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[FEN \"3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("1. d4"), "{text}");
    assert!(text.matches('(').count() >= 5, "{text}");
    // Check and mate marks, as in the text tree.
    assert!(text.contains("dxc5#"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn suites_compare_with_the_file_and_fail_on_disagreement() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    std::fs::write(&good, format!("{MATE_IN_2} dm 2; id \"m2\";\n")).unwrap();
    let out_file = dir.join("solved.epd");
    let out = ransom(&[
        "mate",
        "--epd",
        good.to_str().unwrap(),
        "--all-keys",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 agree, 0 disagree"));
    let solved = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        solved.contains("bm d4; dm 2; pv d4 Bxa2 dxc5#; id \"m2\"; c0 \"unique key"),
        "{solved}"
    );

    // A stated length that is too long: the solver finds the mate in 2.
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, format!("{MATE_IN_2} bm #3; id \"claims 3\";\n")).unwrap();
    let out = ransom(&["mate", "--epd", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("DISAGREES"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_reported_without_panic() {
    for (args, needle) in [
        (vec!["mate", "--fen", "8/8/8 w - - 0 1"], "8 ranks"),
        (
            vec!["mate", "--fen", MATE_IN_2, "--max", "0"],
            "--max <MAX>",
        ),
        (vec!["mate", "--fen", MATE_IN_2, "Qz9"], "move 1"),
        (
            vec!["mate", "--epd", "/nonexistent/suite.epd"],
            "cannot read",
        ),
        (vec!["mate", "-v", "nosuch"], "nosuch"),
    ] {
        let out = ransom(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("ransom-cli-badsuite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "7k/8/8/8/8/8/8/K7 w - - bm Kb2;\n").unwrap();
    let out = ransom(&["mate", "--epd", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Every line of a suite is read before any is solved: a bad FEN or move
/// on a later line stops the run before the search, naming its line, and
/// an `--out` that cannot be written is refused before the search too.
#[test]
fn a_suite_is_checked_whole_before_solving() {
    let dir = std::env::temp_dir().join(format!("ransom-cli-latebad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("late.epd");
    std::fs::write(
        &suite,
        "4k3/8/4K3/8/8/8/8/7R w - - bm #1; id \"a\";\n\
         4k3/8/4K3/8/8/8/8/7R w - - bm #1; id \"b\";\n\
         kkkk/8/8/8/8/8/8/8 w - - bm #1; id \"c\";\n",
    )
    .unwrap();
    let out = ransom(&["mate", "--epd", suite.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("late.epd (c, line 3)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));

    let good = dir.join("good.epd");
    std::fs::write(&good, "4k3/8/4K3/8/8/8/8/7R w - - bm #1; id \"a\";\n").unwrap();
    let args = [
        "mate",
        "--epd",
        good.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ];
    let out = ransom(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("is a directory"));
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    std::fs::remove_dir_all(&dir).ok();
}

/// Hit-and-Run: a turn's two sub-moves share a line of the tree, as in the
/// main line, so the second never reads as a reply.
#[test]
fn hit_and_run_trees_show_a_turn_on_one_line() {
    let out = ransom(&[
        "mate",
        "-v",
        "hitandrun",
        "--fen",
        "6k1/N5r1/8/8/3B4/8/8/5Q1K w - - 0 12",
        "--max",
        "2",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("main line: Bxg7,Qf6 Kh7,Kg8 Bh6,Qg7#"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Bxg7,Qf6 {mate in 2}\n  Kh7,Kg8\n    Bh6,Qg7# {mate in 1}\n"),
        "{stdout}"
    );
}

#[test]
fn a_node_budget_is_kept_within_a_node() {
    // `--max-nodes N` stops the search at N nodes: a search that has used
    // its budget expands nothing more, and later phases of the solver get
    // no nodes at all.
    for (fen, budget) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1u64,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            100,
        ),
        (MATE_IN_2, 3),
    ] {
        let n = budget.to_string();
        let out = ransom(&[
            "mate",
            "--fen",
            fen,
            "--max",
            "5",
            "--max-nodes",
            &n,
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(2), "unknown within the budget");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let nodes = json["nodes"].as_u64().unwrap();
        assert!(
            nodes <= budget + 1,
            "{nodes} nodes for a budget of {budget}"
        );
    }
}
