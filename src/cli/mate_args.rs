//! The arguments of `ransom mate`, shared by one position's solving
//! (`mate.rs`) and a suite's (`mate_batch.rs`).

use ransom::search::Budget;
use ransom::search::mate::MateOptions;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `ransom mate`.
#[derive(Debug, clap::Args)]
pub struct MateArgs {
    /// Variant: chess, antichess, suicide, crazyhouse, hostage, contact, hitandrun, losing-qpromo, losing-royal, losing-royal-mated, losers, kamikaze, kamikaze2, hitandrun-simultaneous.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// The position (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (SAN or UCI) played from the position first.
    pub moves: Vec<String>,
    /// The longest mate to look for, in the attacker's moves (turns in
    /// Hit-and-Run), 1 to 65535 [default: 5; with --epd, the length each
    /// line states].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub max: Option<u16>,
    /// List every first move that mates in the shortest length.
    #[arg(long)]
    pub all_keys: bool,
    /// Stop after this many nodes (per position with --epd).
    #[arg(long, value_parser = super::arguments::parse_at_least_one::<u64>)]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (per position with --epd).
    #[arg(long, value_parser = super::arguments::parse_seconds)]
    pub max_time: Option<f64>,
    /// Memory for the transposition table, in MB (1 to 65536).
    #[arg(long, default_value_t = 512, value_parser = super::arguments::parse_hash_mb)]
    pub hash: usize,
    /// Print one JSON object (JSON lines with --epd).
    #[arg(long)]
    pub json: bool,
    /// JSON lines as the answer improves: `"event": "found"` as soon as a
    /// mate is found and verified (`"shortest": false`), then `"event":
    /// "final"` with the whole report once its length is certified (or the
    /// budget ends: `"shortest": false`).
    #[arg(long, conflicts_with = "epd")]
    pub stream: bool,
    /// Also write the solution as PGN with variations to this file (a
    /// position reached again by transposition is written once; later
    /// meetings say `{transposes to an earlier line}`).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// With --pgn: write every transposed subtree again in place, so every
    /// line runs to the mate (for tools that walk the tree; can be much
    /// larger: a warning gives the size beyond 100,000 moves).
    #[arg(long, requires = "pgn")]
    pub pgn_full: bool,
    /// Show at most this many moves of the solution tree.
    #[arg(long, default_value_t = 400)]
    pub tree_limit: usize,
    /// Solve every position of an EPD file (`bm #N` or `dm N`) or a TSV
    /// file with `fen` and `N` columns, and compare with the stated lengths.
    #[arg(long, conflicts_with_all = ["fen", "moves", "pgn"])]
    pub epd: Option<PathBuf>,
    /// With --epd: write the verified solutions that agree with the file
    /// to this EPD file (`bm`, `dm`, `pv`, `id`; `c0` says whether the key
    /// is unique when --all-keys is given).
    #[arg(long, requires = "epd")]
    pub out: Option<PathBuf>,
    /// With --epd: only positions whose stated mate is at most this long.
    #[arg(long, requires = "epd")]
    pub up_to: Option<u16>,
    /// With --epd: only the first N positions that pass the filters.
    #[arg(long, requires = "epd")]
    pub limit: Option<usize>,
    /// No progress bar or progress lines on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Threads for certifying the length of a mate in 5 or more: its root
    /// moves are searched in parallel, the threads sharing the --hash
    /// table and each with an equal share of --max-nodes. Node counts then
    /// vary from run to run
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Losing chess: this project's endgame tables (`tb build`) rule out
    /// lines where the attacker cannot win in time (mates are still found
    /// by search and verified).
    #[arg(long, value_name = "DIR", conflicts_with = "epd")]
    pub tablebases: Option<PathBuf>,
    /// Antichess: Syzygy giveaway tables (*.gtbw) rule out lines the
    /// attacker does not win (needs a binary built with `--features syzygy`).
    #[arg(long, value_name = "DIR", conflicts_with = "epd")]
    pub syzygy: Option<PathBuf>,
}

/// The default bound when neither --max nor the suite gives one.
pub const DEFAULT_MAX: u16 = 5;

impl MateArgs {
    /// The search options for a bound.
    pub fn options(&self, max: u16) -> MateOptions {
        MateOptions {
            max,
            all_keys: self.all_keys,
            budget: Budget {
                max_nodes: self.max_nodes.unwrap_or(u64::MAX),
                max_time: self.max_time.map(Duration::from_secs_f64),
                hash_bytes: self.hash.saturating_mul(1 << 20),
                stop: None,
            },
            threads: usize::from(self.threads),
        }
    }
}
