//! `ransom store show` and `ransom store export`: the store position by
//! position in a terminal, and its settled subtrees as PGN (README "The
//! explorer").

mod common;

use common::run_ransom as ransom;
use std::path::PathBuf;

/// A folder where `ransom prove e4` has filled the default store.
fn proved_e4(name: &str) -> PathBuf {
    let dir = common::fresh_dir("cli-store-show", name);
    let (code, _, err) = ransom(&["prove", "e4", "--no-tablebases", "--no-write"], &dir);
    assert_eq!(code, 0, "{err}");
    dir
}

/// `ransom store export e4 --pgn e4.pgn` in `dir`, which must succeed;
/// its standard output.
fn export_e4(dir: &std::path::Path) -> String {
    let (code, out, err) = ransom(
        &[
            "store",
            "export",
            "e4",
            "--pgn",
            "e4.pgn",
            "--no-tablebases",
        ],
        dir,
    );
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn show_lists_every_move_with_the_store_result() {
    let dir = proved_e4("show");
    let (code, out, err) = ransom(&["store", "show", "e4", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Black to move: win (store"), "{out}");
    assert!(out.contains("best b5"), "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    assert!(rows[1].trim_start().starts_with("b5 "), "b5 first: {out}");
    assert!(
        rows[1].contains("loss") && rows[1].contains("store"),
        "{out}"
    );
    assert_eq!(rows.len(), 1 + 20, "a header and Black's 20 moves: {out}");

    // One move down: White loses, every move listed with Black's reply.
    let (code, out, err) = ransom(&["store", "show", "e4", "b5", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("White to move: loss (store"), "{out}");
    assert!(out.contains("reply"), "{out}");

    let (code, out, err) = ransom(&["store", "show", "e4", "--no-tablebases", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["result"], "win");
    assert_eq!(json["best"], "b7b5");
    assert_eq!(json["moves"][0]["uci"], "b7b5");
    assert_eq!(json["moves"][0]["result"], "loss");
    assert_eq!(json["line"], serde_json::json!(["e2e4"]));
}

#[test]
fn show_and_export_name_bad_input() {
    let dir = proved_e4("errors");
    let (code, _, err) = ransom(&["store", "show", "e4", "e4"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("e4"), "{err}");
    let (code, _, err) = ransom(&["store", "export", "--pgn", "start.pgn"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("no win or loss"), "{err}");
    assert!(!dir.join("start.pgn").exists());
    let (code, _, err) = ransom(
        &[
            "store",
            "export",
            "e4",
            "--pgn",
            "small.pgn",
            "--max-positions",
            "5",
        ],
        &dir,
    );
    assert_eq!(code, 1);
    assert!(err.contains("more than the limit of 5"), "{err}");
    std::fs::write(dir.join("file"), "not a folder").unwrap();
    let (code, _, err) = ransom(&["store", "show", "--store", "file"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("file: not a store directory"), "{err}");
}

/// The exported PGN is a verified proof: every line, main line and
/// variations, replayed as a PGN reader does, ends in a game the rules
/// have decided; proof sizes are comments.
#[test]
fn export_writes_every_line_to_the_end_of_the_game() {
    let dir = proved_e4("export");
    let out = export_e4(&dir);
    assert!(out.contains("black wins"), "{out}");
    let pgn = std::fs::read_to_string(dir.join("e4.pgn")).unwrap();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("1... b5 2. Bxb5 {store: "), "{pgn}");
    assert!(pgn.contains(" nodes} 2... Nf6 3. Bxd7"), "{pgn}");
    let (finished, stopped) = common::pgn_walk::walk_pgn_lines(&pgn);
    assert!(finished >= 5, "{finished} lines");
    assert_eq!(stopped, 0, "every line ends the game");

    // Each position once: smaller, some lines end at a transposition.
    let (code, _, err) = ransom(
        &[
            "store",
            "export",
            "e4",
            "--pgn",
            "once.pgn",
            "--once",
            "--no-tablebases",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let once = std::fs::read_to_string(dir.join("once.pgn")).unwrap();
    assert!(once.len() <= pgn.len());

    // A deeper line exports its own subtree.
    let (code, _, err) = ransom(
        &[
            "store",
            "export",
            "e4",
            "b5",
            "Bxb5",
            "--pgn",
            "deeper.pgn",
            "--no-tablebases",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let deeper = std::fs::read_to_string(dir.join("deeper.pgn")).unwrap();
    assert!(deeper.len() < pgn.len());
    assert_eq!(common::pgn_walk::walk_pgn_lines(&deeper).1, 0);
}

/// The exported PGN read by python-chess itself: every line ends in a
/// game it scores as Black's win. Needs python3 with python-chess
/// (`pip install chess`); run by `.ci/run` and by
/// `cargo test --test cli_store_show -- --ignored`.
#[test]
#[ignore = "needs python3 with python-chess (pip install chess)"]
fn export_is_read_to_the_end_of_every_line_by_python_chess() {
    let dir = proved_e4("python-chess");
    export_e4(&dir);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/walk_pgn.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(dir.join("e4.pgn"))
        .output()
        .expect("python3 runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("every one ends 0-1"), "{text}");
}
