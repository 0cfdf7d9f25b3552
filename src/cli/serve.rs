//! `ransom serve`: the HTTP analysis service and its web page.

use ransom::service::{self, ServeConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Losing-chess endgame tablebases.
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Syzygy giveaway tables (*.gtbw) answering antichess positions the
    /// tablebases do not cover, with `"source": "syzygy"` (category only;
    /// needs a binary built with `--features syzygy`).
    #[arg(long, value_name = "DIR")]
    syzygy: Option<PathBuf>,
    /// Stored proofs: verified when loaded; proofs found by requests are written here.
    #[arg(long, default_value = "proofs")]
    proofs: PathBuf,
    /// Solved-position stores (as given to `prove --store`) whose results
    /// the lookups and the explorer answer with; repeat for several. Read
    /// without a lock: a `prove` may write them meanwhile.
    #[arg(long = "store", value_name = "DIR", default_value = ransom::solved::DEFAULT_DIR)]
    stores: Vec<PathBuf>,
    /// Seconds between readings of the stores for what their writers have
    /// synced since (0: read once, at start; 0.1 to 3600 otherwise).
    #[arg(long, default_value_t = 2.0, value_parser = super::arguments::parse_store_refresh)]
    store_refresh: f64,
    /// Puzzle sets (*.epd, *.jsonl).
    #[arg(long, default_value = "puzzles")]
    puzzles: PathBuf,
    /// Searches running at once, 1 to 1024 (default: the number of cores).
    #[arg(long, value_parser = super::arguments::parse_workers)]
    workers: Option<usize>,
    /// Searches that may wait for a worker before requests get 503 (0 to 100000).
    #[arg(long, default_value_t = 16, value_parser = super::arguments::parse_queue)]
    queue: usize,
    /// The most nodes one search may use.
    #[arg(long, default_value_t = 20_000_000, value_parser = super::arguments::parse_at_least_one::<u64>)]
    max_nodes: u64,
    /// The most time one search may use, in milliseconds.
    #[arg(long, default_value_t = 10_000, value_parser = super::arguments::parse_at_least_one::<u64>)]
    max_time: u64,
    /// Memory for one search's table, in MB (1 to 65536).
    #[arg(long, default_value_t = 128, value_parser = super::arguments::parse_hash_mb)]
    hash: usize,
    /// Proofs found by requests that this run may store (0: store none).
    #[arg(long, default_value_t = 1000)]
    max_stored_proofs: usize,
    /// Open connections at most (1 to 1000000); more are answered 503 and
    /// closed at once. Keep it below the open-file limit (`ulimit -n`).
    #[arg(long, default_value_t = 4096, value_parser = super::arguments::parse_max_connections)]
    max_connections: usize,
    /// Seconds a client has to send a request's header, counted from when
    /// the connection opens or the last answer was sent: slow senders and
    /// idle keep-alive connections are closed after it (0.1 to 3600).
    #[arg(long, default_value_t = 10.0, value_parser = super::arguments::parse_header_timeout)]
    header_timeout: f64,
    /// Lookups valuing more than 64 moves (drop variants) that run at once,
    /// each on its own thread; more wait (1 to 1024; default: half the cores).
    #[arg(long, value_parser = super::arguments::parse_workers)]
    heavy_lookups: Option<usize>,
    /// How log lines (start-up, one per request) are written to stderr:
    /// plain text, or one JSON object per line. `RUST_LOG` filters them
    /// (default `warn,ransom=info`; `RUST_LOG=off` for none).
    #[arg(long, value_enum, default_value_t = service::LogFormat::Text)]
    log_format: service::LogFormat,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let defaults = ServeConfig::default();
    let config = ServeConfig {
        bind: args.bind,
        tablebases: Some(args.tablebases.clone()),
        syzygy: args.syzygy.clone(),
        proofs: args.proofs.clone(),
        puzzles: Some(args.puzzles.clone()),
        stores: args.stores.clone(),
        store_refresh: (args.store_refresh > 0.0)
            .then(|| std::time::Duration::from_secs_f64(args.store_refresh)),
        workers: args.workers.unwrap_or(defaults.workers),
        queue: args.queue,
        max_nodes: args.max_nodes,
        max_time_ms: args.max_time,
        hash_mb: args.hash,
        max_stored_proofs: args.max_stored_proofs,
        max_connections: args.max_connections,
        header_timeout: std::time::Duration::from_secs_f64(args.header_timeout),
        heavy_lookups: args.heavy_lookups.unwrap_or(defaults.heavy_lookups),
        ..defaults
    };
    let _log = service::init_logging(args.log_format)?;
    service::run(config)?;
    Ok(ExitCode::SUCCESS)
}
