//! Issue #10: every rule set of RULES A8 and R9 through the command line:
//! `perft`, `moves`, `play`, and the solvers (`prove`, `mate`).

use std::process::{Command, Output};

fn ransom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(args)
        .output()
        .expect("the ransom binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = ransom(args);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "ransom {args:?} failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

const NAMES: [&str; 7] = [
    "losing-qpromo",
    "losing-royal",
    "losing-royal-mated",
    "losers",
    "kamikaze",
    "kamikaze2",
    "hitandrun-simultaneous",
];

#[test]
fn perft_moves_and_play_work_for_every_rule_set() {
    for name in NAMES {
        let out = ok(&["perft", "-v", name, "3"]);
        let expected = if name.starts_with("hitandrun") {
            "8902"
        } else {
            "8067"
        };
        assert!(out.contains(expected), "{name}: {out}");
        let out = ok(&["moves", "-v", name]);
        assert!(out.contains("20 legal moves"), "{name}: {out}");
        let first = if name == "kamikaze2" { "e5" } else { "e4" };
        let out = ok(&["play", "-v", name, first]);
        assert!(out.contains("game not over"), "{name}: {out}");
    }
}

#[test]
fn losers_perft_4_is_152955() {
    let out = ok(&["perft", "-v", "losers", "4"]);
    assert!(out.contains("152955"), "{out}");
}

#[test]
fn prove_works_for_every_losing_rule_set() {
    for (name, fen) in [
        ("losing-qpromo", "8/8/8/8/1p6/8/P7/8 w - - 0 1"),
        ("losing-royal", "k7/8/8/8/8/4p3/8/K5N1 b - - 0 1"),
        ("losing-royal-mated", "3r3k/6pp/8/8/8/8/8/K3R3 b - - 0 1"),
        ("losers", "3r3k/6pp/8/8/8/8/8/K3R3 b - - 0 1"),
        ("kamikaze", "7k/8/8/8/8/8/r7/7K w - - 0 1"),
        ("kamikaze2", "8/8/8/8/8/p7/P7/2k5 b - - 0 1"),
    ] {
        let out = ok(&["prove", "-v", name, "--fen", fen, "--no-write", "-q"]);
        assert!(out.contains("win for the side to move"), "{name}: {out}");
    }
}

#[test]
fn kamikaze2_main_line_shows_the_passes() {
    // docs/rules.md A8: White passes while Black walks the king to b3.
    let out = ok(&[
        "mate",
        "-v",
        "kamikaze2",
        "--fen",
        "8/8/8/8/8/p7/P7/2k5 b - - 0 1",
        "--max",
        "6",
    ]);
    assert!(out.contains("main line: Kc2 -- Kb3 axb3"), "{out}");
    // In PGN the pass is the null move `--`.
    let path = std::env::temp_dir().join(format!("ransom-k2-{}.pgn", std::process::id()));
    let path_text = path.to_str().expect("UTF-8 temp path");
    ok(&[
        "mate",
        "-v",
        "kamikaze2",
        "--fen",
        "2K5/p7/P7/8/8/8/8/8 w - - 0 1",
        "--max",
        "6",
        "--pgn",
        path_text,
    ]);
    let pgn = std::fs::read_to_string(&path).expect("PGN written");
    let _ = std::fs::remove_file(&path);
    assert!(pgn.contains("1. Kc7 1... -- 2. Kb6 axb6"), "{pgn}");
}

#[test]
fn mate_works_for_every_rule_set() {
    for (name, fen, length) in [
        ("losing-qpromo", "8/8/8/8/1p6/8/P7/8 w - - 0 1", "1"),
        ("losing-royal", "k7/8/8/8/8/4p3/8/K5N1 b - - 0 1", "1"),
        (
            "losing-royal-mated",
            "3r3k/6pp/8/8/8/8/8/K3R3 b - - 0 1",
            "1",
        ),
        ("losers", "3r3k/6pp/8/8/8/8/8/K3R3 b - - 0 1", "1"),
        ("kamikaze", "7k/8/8/8/8/8/r7/7K w - - 0 1", "1"),
        ("kamikaze2", "8/8/8/8/8/p7/P7/2k5 b - - 0 1", "5"),
        (
            "hitandrun-simultaneous",
            "7k/8/5K2/8/8/8/8/1R6 w - - 0 5",
            "1",
        ),
    ] {
        let out = ok(&["mate", "-v", name, "--fen", fen, "--max", "6"]);
        assert!(
            out.starts_with(&format!("mate in {length} ")),
            "{name}: {out}"
        );
    }
}

/// Issue 47.1 (RULES A5, A8): `ransom perft` counts no moves below a game
/// decided before the side to move moves (a Losing-chess side without men
/// has won, a lone king has won in the rule sets that say so), in its
/// count, `--divide` and `--json`, and with any number of threads, as the
/// library's `perft` does. Every variation and every FEN below where the
/// library calls the game decided is checked; each Losing-chess rule set
/// with such a rule meets at least one.
#[test]
fn perft_counts_no_moves_in_a_decided_game() {
    use ransom::{Position, Variant, dispatch, variants::AnyPosition};
    let fens = [
        "8/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "8/8/8/8/8/8/8/RN2K3 w - - 0 1",
    ];
    let mut decided_in = Vec::new();
    for variant in Variant::ALL {
        for fen in fens {
            let Ok(setup) = ransom::notation::fen::parse(fen) else {
                continue;
            };
            let Ok(any) = AnyPosition::from_setup(variant, &setup) else {
                continue;
            };
            let decided = dispatch!(&any, p => p.decided_before_moving());
            if !decided {
                continue;
            }
            assert!(!any.legal_moves().is_empty(), "{variant:?} {fen}");
            decided_in.push(variant);
            let name = variant.name();
            for threads in ["1", "2"] {
                let base = ["perft", "-v", name, "--fen", fen, "--threads", threads];
                let out = ok(&[&base[..], &["1"]].concat());
                assert!(out.contains("Nodes searched: 0"), "{name} {fen}: {out}");
                let out = ok(&[&base[..], &["--divide", "2"]].concat());
                assert_eq!(out.trim(), "Nodes searched: 0", "{name} {fen}");
                let out = ok(&[&base[..], &["--json", "--divide", "1"]].concat());
                let json: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(json["nodes"], 0, "{name} {fen}: {json}");
                assert_eq!(json["divide"], serde_json::json!({}), "{name} {fen}");
                assert_eq!(json["threads"].to_string(), threads, "{json}");
            }
        }
    }
    for variant in [Variant::Antichess, Variant::LosingRoyal, Variant::Losers] {
        assert!(decided_in.contains(&variant), "{variant:?}: {decided_in:?}");
    }
}
