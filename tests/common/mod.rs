//! Helpers shared by the integration tests: locating reference data and
//! reading perft suites.

#![allow(dead_code)]

pub mod games;
pub mod http;
pub mod mailbox;
pub mod pgn_walk;

use std::path::PathBuf;

/// Path of a file under this repository's `tests/data` (the project's own
/// suites and the third-party reference data listed in its README.md).
/// Panics with a clear message when it is missing, so a test never passes
/// silently without its oracle.
pub fn own_data(relative: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    assert!(path.exists(), "test data missing: {}", path.display());
    path
}

/// Waits until the folder `checkpoints` holds a whole checkpoint (a
/// `*.ckpt` file, not the temporary file it is written to first), at most
/// `limit`; panics if it does not, or if `child` ends first.
pub fn wait_for_checkpoint(
    checkpoints: &std::path::Path,
    child: &mut std::process::Child,
    limit: std::time::Duration,
) {
    let started = std::time::Instant::now();
    let written = |d: std::fs::ReadDir| {
        d.flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".ckpt"))
    };
    while !checkpoints.read_dir().is_ok_and(written) {
        assert!(started.elapsed() < limit, "no checkpoint written");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the search ended before a checkpoint was written"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Runs the `ransom` binary with `args` in `dir`: exit code, stdout, stderr.
pub fn run_ransom(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run ransom");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The arguments of `ransom mate` for an antichess mate of at most `max`
/// moves from `fen`, as JSON without progress (add table options after).
pub fn antichess_mate_args<'a>(fen: &'a str, max: &'a str) -> Vec<&'a str> {
    vec![
        "mate",
        "-q",
        "--json",
        "-v",
        "antichess",
        "--fen",
        fen,
        "--max",
        max,
    ]
}

/// An empty folder for one test, `PREFIX-NAME-PID` under the target's
/// scratch directory (emptied first if an earlier run left it).
pub fn fresh_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A bare service for a test: a free loopback port, no tablebases or
/// puzzles, proofs in `proofs`, one worker (override fields as needed).
pub fn bare_serve_config(proofs: PathBuf) -> ransom::service::ServeConfig {
    ransom::service::ServeConfig {
        bind: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        tablebases: None,
        proofs,
        puzzles: None,
        stores: Vec::new(),
        workers: 1,
        ..ransom::service::ServeConfig::default()
    }
}

/// The lines a child writes to stderr (which must be piped), read on a
/// thread of their own as they come.
pub fn stderr_lines(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let stderr = child.stderr.take().expect("the child's stderr is piped");
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// One position of a perft suite with its expected counts.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    pub depths: Vec<(u32, u64)>,
}

/// Reads a suite in the `id` / `epd` / `perft DEPTH NODES` format.
pub fn read_perft_suite(path: &std::path::Path) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            cases.push(PerftCase {
                id: id.to_string(),
                fen: String::new(),
                depths: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("epd ") {
            cases.last_mut().expect("epd after id").fen = fen.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().unwrap().parse().unwrap();
            let nodes = parts.next().unwrap().parse().unwrap();
            cases
                .last_mut()
                .expect("perft after id")
                .depths
                .push((depth, nodes));
        }
    }
    assert!(!cases.is_empty(), "no cases in {}", path.display());
    cases
}

/// splitmix64: a tiny deterministic generator, so random playouts and
/// occupancies are a pure function of their seed.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The rows `fen; depth; nodes` of a perft file written by one of the naive
/// reference generators (tests/data/*.perft).
pub fn read_reference_perft(path: &str) -> Vec<(String, u32, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(cols.len(), 3, "{path}: bad row '{l}'");
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect()
}

/// Writes a perft file: `header` (comment lines), then one row per position
/// and depth 1..=max of `cases`, counted by `count(fen, depth)`.
pub fn write_reference_perft(
    path: &str,
    header: &str,
    cases: &[(&str, u32)],
    count: impl Fn(&str, u32) -> u64,
) {
    let mut out = String::from(header);
    for &(fen_text, max_depth) in cases {
        for depth in 1..=max_depth {
            out.push_str(&format!(
                "{fen_text}; {depth}; {}\n",
                count(fen_text, depth)
            ));
        }
    }
    std::fs::write(path, out).unwrap();
}

/// Checks `Position::has_legal_moves` against the full move list on every
/// position up to `plies` plies from `fens` (the last ply's positions
/// included). Returns how many positions were checked and how many had no
/// legal move.
pub fn has_legal_moves_agrees<P: ransom::Position>(fens: &[&str], plies: usize) -> (usize, usize) {
    let (mut positions, mut without_moves) = (0, 0);
    for text in fens {
        let root: P =
            ransom::notation::fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut frontier = vec![root];
        for ply in 0..=plies {
            let mut next = Vec::new();
            for p in &frontier {
                let moves = p.legal_moves();
                let fen = ransom::notation::fen::write(p);
                assert_eq!(p.has_legal_moves(), !moves.is_empty(), "{fen}");
                positions += 1;
                without_moves += usize::from(moves.is_empty());
                if ply == plies {
                    continue;
                }
                for &m in &moves {
                    let mut child = p.clone();
                    child.play_unchecked(m);
                    next.push(child);
                }
            }
            frontier = next;
        }
    }
    (positions, without_moves)
}

/// Options for a library prove run (`ransom::proving::prove_line` and the
/// batch calls): one thread, leaf searches of 1,000 nodes, 64 MB of table,
/// no budget, and the store in `store` (none if `None`) with 64 MB of
/// index.
pub fn prove_options(store: Option<&std::path::Path>) -> ransom::proving::ProveOptions {
    use ransom::proving::{ProveOptions, StoreOptions};
    use ransom::search::Budget;
    use ransom::search::scale::ScaleConfig;
    ProveOptions {
        config: ScaleConfig {
            budget: Budget {
                hash_bytes: 64 << 20,
                ..Budget::default()
            },
            leaf_nodes: 1000,
            threads: 1,
            ..ScaleConfig::default()
        },
        store: StoreOptions {
            dir: store.map(std::path::Path::to_path_buf),
            given: store.is_some(),
            memory_bytes: 64 << 20,
            wait: false,
        },
        ..ProveOptions::default()
    }
}
