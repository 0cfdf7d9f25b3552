//! [`ServeConfig`]: what `ransom serve` is started with.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The service's settings, with defaults that work from the repository root.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on.
    pub bind: SocketAddr,
    /// Endgame tablebases (Losing chess); `None` for none.
    pub tablebases: Option<PathBuf>,
    /// Syzygy giveaway tables behind the antichess tablebases (needs the
    /// `syzygy` feature); `None` for none.
    pub syzygy: Option<PathBuf>,
    /// Stored proofs: loaded (and verified) at start; new proofs are written here.
    pub proofs: PathBuf,
    /// Puzzle sets (`*.epd`, `*.jsonl`).
    pub puzzles: Option<PathBuf>,
    /// Solved-position stores read (every rule set found in each), without
    /// their lock, so that a running `prove` goes on writing them.
    pub stores: Vec<PathBuf>,
    /// How often the stores are read again for what their writers have
    /// synced since (`None`: read once, at start).
    pub store_refresh: Option<std::time::Duration>,
    /// Solver threads: at most this many searches run at once.
    pub workers: usize,
    /// Searches that may wait for a worker; more get 503.
    pub queue: usize,
    /// The most nodes one search may use (requests may ask for fewer).
    pub max_nodes: u64,
    /// The most time one search may use, in milliseconds.
    pub max_time_ms: u64,
    /// Memory for one search's table, in MB.
    pub hash_mb: usize,
    /// The longest mate a request may ask for.
    pub max_mate: u16,
    /// The deepest perft a request may ask for.
    pub max_perft_depth: u32,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// How long a request body may take to arrive (then 408).
    pub body_timeout: std::time::Duration,
    /// Lookups that value many moves (more than 64: drop variants) that
    /// may run at once, each on a blocking thread; more wait.
    pub heavy_lookups: usize,
    /// Open connections at most; more are answered 503 and closed at once.
    pub max_connections: usize,
    /// How long a client has to send a request's header, counted from when
    /// the connection opens or the last answer was sent (so an idle
    /// keep-alive connection is closed after it too).
    pub header_timeout: std::time::Duration,
    /// Proofs the prove endpoint may add to the proof folder in one run
    /// (0: none are stored; proofs are still returned).
    pub max_stored_proofs: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            tablebases: Some(PathBuf::from("tablebases")),
            syzygy: None,
            proofs: PathBuf::from("proofs"),
            puzzles: Some(PathBuf::from("puzzles")),
            stores: vec![PathBuf::from(crate::solved::DEFAULT_DIR)],
            store_refresh: Some(std::time::Duration::from_secs(2)),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 16,
            max_nodes: 20_000_000,
            max_time_ms: 10_000,
            hash_mb: 128,
            max_mate: 12,
            max_perft_depth: 6,
            max_body_bytes: 64 * 1024,
            body_timeout: std::time::Duration::from_secs(10),
            max_stored_proofs: 1000,
            heavy_lookups: (std::thread::available_parallelism().map_or(2, |n| n.get()) / 2).max(1),
            max_connections: 4096,
            header_timeout: std::time::Duration::from_secs(10),
        }
    }
}
