//! `ransom puzzles generate` and `ransom puzzles verify`: reproducible
//! output, resuming, both file formats, and planted faults found.

use ransom::puzzles::{MineOptions, Miner, canonical_position};
use ransom::search::mate::read_puzzles;
use ransom::variants::Hostage;
use std::path::PathBuf;
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

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ransom-puzzles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mine(seed: u64, count: usize) -> Vec<String> {
    let mut miner = Miner::new(MineOptions {
        min_length: 2,
        max_length: 2,
        seed,
        max_nodes: 500_000,
        id_prefix: "t".to_string(),
    });
    let mut found = Vec::new();
    let mut game = 0;
    while found.len() < count {
        if let Some(p) = miner.mine_game::<Hostage>(game) {
            found.push(p.to_epd());
        }
        game += 1;
    }
    found
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let a = mine(7, 3);
    assert_eq!(a, mine(7, 3));
    assert_ne!(a, mine(8, 3));
    // EPD is read back exactly.
    let back: Vec<String> = read_puzzles(&a.join("\n"))
        .unwrap()
        .iter()
        .map(|p| p.to_epd())
        .collect();
    assert_eq!(back, a);
    for line in &a {
        assert!(line.contains("unique key, shortest proved"), "{line}");
        assert!(line.contains("; dm 2;"), "{line}");
    }
}

#[test]
fn generate_is_reproducible_and_resumes_where_it_stopped() {
    let dir = temp_dir("resume");
    let whole = dir.join("crazyhouse-whole.epd");
    let parts = dir.join("crazyhouse-parts.epd");
    let run = |out: &PathBuf, count: &str| {
        let out_text = out.to_str().unwrap();
        let o = ransom(&[
            "puzzles",
            "generate",
            "-v",
            "crazyhouse",
            "--mate",
            "2",
            "--count",
            count,
            "--seed",
            "3",
            "--out",
            out_text,
            "-q",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let full = run(&whole, "4");
    run(&parts, "2");
    let resumed = run(&parts, "4");
    // Same puzzles, same order; only the file name in the header differs.
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(body(&full).len(), 4);
    assert_eq!(body(&full), body(&resumed));
    assert!(
        resumed.starts_with(
            "# ransom puzzles generate --variant crazyhouse --mate 2 --seed 3 --count 4"
        )
    );
    // Other options on the same file are refused.
    let o = ransom(&[
        "puzzles",
        "generate",
        "-v",
        "crazyhouse",
        "--mate",
        "3",
        "--count",
        "4",
        "--out",
        parts.to_str().unwrap(),
        "-q",
    ]);
    assert!(!o.status.success());
    // The written file verifies.
    let o = ransom(&["puzzles", "verify", whole.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("4 of 4 puzzles verified, 0 failed"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_lines_are_written_and_read_back() {
    let dir = temp_dir("json");
    let out = dir.join("set.jsonl");
    let o = ransom(&[
        "puzzles",
        "generate",
        "-v",
        "antichess",
        "--win",
        "2..3",
        "--count",
        "3",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let written = std::fs::read_to_string(&out).unwrap();
    let first: serde_json::Value = serde_json::from_str(written.lines().next().unwrap()).unwrap();
    assert!(first["generator"].as_str().unwrap().contains("--win 2..3"));
    let puzzles = read_puzzles(&written).unwrap();
    assert_eq!(puzzles.len(), 3);
    for p in &puzzles {
        assert_eq!(p.variant.as_deref(), Some("antichess"));
        assert!(p.unique() && (2..=3).contains(&p.length), "{p:?}");
        assert!(p.difficulty.is_some() && !p.themes.is_empty());
    }
    let o = ransom(&["puzzles", "verify", out.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_reports_a_planted_second_key_and_a_shorter_solution() {
    let dir = temp_dir("planted");
    let file = dir.join("chess-planted.epd");
    std::fs::write(
        &file,
        concat!(
            "# planted faults\n",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Re1; dm 2; pv Re1 h6 Re8#; id \"shorter\"; c0 \"unique key, shortest proved, 3 positions verified\";\n",
            "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1 bm Ra8; dm 1; pv Ra8#; id \"two-keys\"; c0 \"unique key, shortest proved, 2 positions verified\";\n",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Ra8; dm 1; pv Ra8#; id \"sound\"; c0 \"unique key, shortest proved, 2 positions verified\";\n",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Ra8; dm 1; pv Ra7; id \"bad-line\"; c0 \"unique key, shortest proved, 2 positions verified\";\n",
        ),
    )
    .unwrap();
    let o = ransom(&["puzzles", "verify", file.to_str().unwrap(), "-q"]);
    assert_eq!(o.status.code(), Some(1));
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains("FAIL shorter: shorter solution: mate in 1, not 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL two-keys: keys: stated Ra8, proved"),
        "{stdout}"
    );
    assert!(stdout.contains("(2 keys)"), "{stdout}");
    assert!(stdout.contains("FAIL bad-line: pv:"), "{stdout}");
    assert!(!stdout.contains("FAIL sound"), "{stdout}");
    assert!(
        stdout.contains("1 of 4 puzzles verified, 3 failed"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hand-made suite states only lengths (`bm #N`, `dm N`): those are
/// proved again, and a wrong one fails.
#[test]
fn verify_reads_hand_made_suites_that_state_only_lengths() {
    let dir = temp_dir("hand-made");
    let file = dir.join("chess-hand-made.epd");
    std::fs::write(
        &file,
        concat!(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm #1; id \"bm\";\n",
            "rn2N3/8/4R2b/B3R3/3kP1N1/K2n4/8/1q6 w - - 0 1 dm 2; id \"dm\";\n",
            "rn2N3/8/4R2b/B3R3/3kP1N1/K2n4/8/1q6 w - - 0 1 dm 3; id \"too-long\";\n",
            // A record claiming a unique key must state it (two keys mate).
            "6k1/5ppp/8/8/8/8/8/RR4K1 w - - bm #1; id \"claims\"; c0 \"unique key, shortest proved\";\n",
        ),
    )
    .unwrap();
    let o = ransom(&["puzzles", "verify", file.to_str().unwrap(), "-q"]);
    assert_eq!(o.status.code(), Some(1));
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains("FAIL too-long: shorter solution: mate in 2, not 3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL claims: keys: stated , proved"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("FAIL bm") && !stdout.contains("FAIL dm"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 of 4 puzzles verified, 2 failed"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn near_duplicates_share_a_canonical_position() {
    // Colours swapped and the board turned, and the mirror image.
    let white = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let black = "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1";
    let mirror = "1k6/ppp5/8/8/8/8/8/1K5R w - - 0 1";
    assert_eq!(canonical_position(white), canonical_position(black));
    assert_eq!(canonical_position(white), canonical_position(mirror));
    assert_ne!(
        canonical_position(white),
        canonical_position("6k1/5ppp/8/8/8/8/8/R4K2 w - - 0 1")
    );
}
