//! The measurements of guided proving (docs/prover.md, "Guided proving"),
//! run again by an explicit command (ignored by default: minutes to hours):
//!
//! ```sh
//! cargo build --release
//! RANSOM_TABLEBASES=/path/to/2-4-man RANSOM_MAX_NODES=4000000 \
//!   cargo test --release --test guided_lines -- --ignored --nocapture --test-threads 1
//! ```
//!
//! Each set of lines is proved with each guide (one thread, no store, the
//! tables when `RANSOM_TABLEBASES` names them) and printed as a table of
//! nodes; the test fails only if two guides disagree on a settled result
//! or a proof is not verified (node counts are figures, not assertions).

mod common;

use common::run_ransom as ransom;

/// The guides compared: a label and the options.
const GUIDES: &[(&str, &[&str])] = &[
    ("mobility", &[]),
    ("switching sums", &["--sums", "switch"]),
    ("ties", &["--ties", "larger-other"]),
    ("eval", &["--numbers", "eval"]),
    (
        "eval+ties",
        &["--numbers", "eval", "--ties", "larger-other"],
    ),
    ("engine 3", &["--engine-order", "3"]),
    ("plain sums", &["--sums", "plain"]),
    ("snda", &["--sums", "snda"]),
    ("no-win bishops", &["--no-win", "bishops"]),
    ("likely 100", &["--likely-threshold", "100"]),
    ("deep 4", &["--deep", "4"]),
    ("deep 5", &["--deep", "5"]),
];

/// Lines that settle with the plain search (1.b4's easy replies, the
/// prove bench's lines), without tables in the published figures.
const SETTLING: &[&str] = &[
    "e4",
    "d4",
    "d3",
    "d3 e5",
    "b4 c5 bxc5 h5",
    "b4 c5 bxc5 f5 Nf3",
    "b4 d6",
    "b4 e5",
    "b4 Nf6",
    "b4 e6",
    "b4 Nc6",
    "b4 Na6",
    "b4 d5",
    "b4 a6",
    "b4 h5",
];

/// The five replies after 1.e3 c5 2.Bb5 with published proofs of 0.3–1.7
/// million positions (issue and docs/antichess-openings.md).
const PUBLISHED: &[&str] = &[
    "e3 c5 Bb5 Nf6",
    "e3 c5 Bb5 Nc6",
    "e3 c5 Bb5 f6",
    "e3 c5 Bb5 Qa5",
    "e3 c5 Bb5 e6",
];

/// The replies after 1.e3 c5 2.Bb5 below the published five (docs/prover.md:
/// plain sums prove 2...Qb6 in 62,318 nodes and 2...a6 in 10,785,501 with
/// the tables; run with `RANSOM_MAX_NODES=20000000`).
const SMALLER_REPLIES: &[&str] = &[
    "e3 c5 Bb5 d5",
    "e3 c5 Bb5 d6",
    "e3 c5 Bb5 Qb6",
    "e3 c5 Bb5 a6",
    "e3 c5 Bb5 Na6",
    "e3 c5 Bb5 e5",
    "e3 c5 Bb5 f5",
    "e3 c5 Bb5 g6",
    "e3 c5 Bb5 h6",
];

fn measure(lines: &[&str]) {
    let dir = common::fresh_dir("guided-lines", "run");
    let max_nodes = std::env::var("RANSOM_MAX_NODES").unwrap_or_else(|_| "4000000".into());
    let tables = std::env::var("RANSOM_TABLEBASES").ok();
    println!(
        "| line | {} |",
        GUIDES.iter().map(|g| g.0).collect::<Vec<_>>().join(" | ")
    );
    for line in lines {
        let mut cells = Vec::new();
        let mut settled: Option<serde_json::Value> = None;
        for (label, options) in GUIDES {
            let mut args = vec!["prove"];
            args.extend(line.split(' '));
            args.extend_from_slice(&["--json", "--no-store", "--no-write", "--threads", "1"]);
            args.extend_from_slice(&["--max-nodes", &max_nodes]);
            match &tables {
                Some(t) => args.extend_from_slice(&["--tablebases", t]),
                None => args.push("--no-tablebases"),
            }
            args.extend_from_slice(options);
            let (code, out, err) = ransom(&args, &dir);
            assert_eq!(code, 0, "{line} {label}: {err}");
            let json: serde_json::Value = serde_json::from_str(&out).unwrap();
            if json["result"] == "unknown" {
                cells.push(format!(
                    "unknown (pn {} dn {})",
                    json["root_pn"], json["root_dn"]
                ));
                continue;
            }
            assert_eq!(json["verified"], true, "{line} {label}");
            if let Some(first) = &settled {
                assert_eq!(first["winner"], json["winner"], "{line} {label}");
            }
            settled = Some(json.clone());
            cells.push(format!("{}", json["nodes"]));
        }
        println!("| {line} | {} |", cells.join(" | "));
    }
}

#[test]
#[ignore = "minutes: run by the command in this file's notes"]
fn lines_that_settle_today() {
    measure(SETTLING);
}

#[test]
#[ignore = "an hour or more: run by the command in this file's notes"]
fn the_smaller_replies_after_1_e3_c5_2_bb5() {
    measure(SMALLER_REPLIES);
}

#[test]
#[ignore = "an hour or more: run by the command in this file's notes"]
fn the_five_published_lines_after_1_e3_c5_2_bb5() {
    measure(PUBLISHED);
}
