//! Starting the service: in the foreground (`ransom serve`) or on a
//! background thread ([`Server`], for tests and load runs).

use super::config::ServeConfig;
use super::listen::{self, ConnectionLimits};
use super::routes::router;
use super::state::AppState;
use crate::Variant;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Stack for every service thread: the prover recurses as deep as its proofs.
const THREAD_STACK_BYTES: usize = 512 << 20;

fn runtime(config: &ServeConfig) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(THREAD_STACK_BYTES)
        .max_blocking_threads(config.workers.max(1) + 2)
        .build()
}

fn limits(config: &ServeConfig) -> ConnectionLimits {
    ConnectionLimits {
        max_connections: config.max_connections,
        header_timeout: config.header_timeout,
    }
}

async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))
}

/// What the service loaded, for the start-up message.
pub fn summary(state: &AppState) -> String {
    let (anti, sui) = state.knowledge.tablebase_men();
    let men = |m: Option<(u32, u32)>| match m {
        None => "none".to_string(),
        Some((complete, most)) if complete == most => format!("every table up to {most} men"),
        Some((0, most)) => format!("some tables of up to {most} men (no complete set)"),
        Some((complete, most)) => {
            format!("every table up to {complete} men, some of up to {most}")
        }
    };
    let (files, positions, errors) = state
        .knowledge
        .with_proofs(|p| (p.files().len(), p.len(), p.errors().to_vec()));
    let mut text = format!(
        "tablebases: antichess {}, suicide {}; proofs: {files} files ({positions} positions); puzzles: {} sets; workers: {}",
        men(anti),
        men(sui),
        state.puzzles.sets.len(),
        state.jobs.workers()
    );
    if let Some(dir) = state.knowledge.syzygy_dir() {
        text += &format!(
            "\n  Syzygy giveaway tables behind the antichess tables: {}",
            dir.display()
        );
    }
    if anti.is_none() && sui.is_none() && state.knowledge.syzygy_dir().is_none() {
        text += "\n  hint: no tablebases found; `ransom tb build --pieces 3` builds the 2-3-man antichess set (7-15 s)";
    }
    let stored: u64 = state
        .knowledge
        .stores()
        .map_or(0, |s| s.summary().iter().map(|x| x.positions).sum());
    if files == 0 && stored == 0 {
        text +=
            "\n  hint: no stored proofs; `ransom prove e4` stores one, or POST /v1/antichess/prove";
    }
    text += &stores_summary(state);
    for e in errors.iter().chain(&state.puzzles.errors) {
        text += &format!("\n  not loaded: {e}");
    }
    // Every table file opened once, here only: the searches open tables
    // as they need them.
    let unreadable = state.config.tablebases.iter().flat_map(|dir| {
        [Variant::Antichess, Variant::Suicide]
            .into_iter()
            .flat_map(|v| crate::tablebase::unreadable_tables(dir, v))
    });
    for e in unreadable {
        text += &format!("\n  unreadable table (its positions answer unknown): {e}");
    }
    text
}

/// Runs the service in the foreground until Ctrl-C. Start-up lines and
/// the request log go to the installed tracing subscriber
/// ([`super::init_logging`]).
pub fn run(config: ServeConfig) -> anyhow::Result<()> {
    super::metrics::install();
    let rt = runtime(&config)?;
    let bind_addr = config.bind;
    let state = Arc::new(AppState::load(config)?);
    if let Some(every) = state.config.store_refresh {
        super::store_refresh::start(&state, every)?;
    }
    rt.block_on(async move {
        let listener = bind(bind_addr).await?;
        let addr = listener.local_addr()?;
        for line in summary(&state).lines() {
            tracing::info!("{}", line.trim_start());
        }
        tracing::info!("ransom serve: listening on http://{addr}/ (Ctrl-C stops)");
        let limits = limits(&state.config);
        listen::serve(listener, router(state), limits, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
        Ok(())
    })
}

/// A service running on a background thread; dropping it shuts it down.
pub struct Server {
    addr: SocketAddr,
    state: Arc<AppState>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Loads what `config` names and starts listening on `config.bind`
    /// (port 0 picks a free port: see [`Server::addr`]).
    pub fn start(config: ServeConfig) -> anyhow::Result<Server> {
        super::metrics::install();
        let rt = runtime(&config)?;
        let state = Arc::new(AppState::load(config)?);
        if let Some(every) = state.config.store_refresh {
            super::store_refresh::start(&state, every)?;
        }
        let listener = rt.block_on(bind(state.config.bind))?;
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel::<()>();
        let app = router(Arc::clone(&state));
        let limits = limits(&state.config);
        let thread = std::thread::Builder::new()
            .name("ransom-serve".into())
            .spawn(move || {
                rt.block_on(listen::serve(listener, app, limits, async {
                    let _ = rx.await;
                }));
                rt.shutdown_background();
            })?;
        Ok(Server {
            addr,
            state,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its shared state.
    pub fn state(&self) -> &AppState {
        &self.state
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The solved-position stores read, for the start-up message.
fn stores_summary(state: &AppState) -> String {
    let Some(shelf) = state.knowledge.stores() else {
        return String::new();
    };
    let dirs: Vec<String> = shelf
        .roots()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    let refresh = match state.config.store_refresh {
        Some(every) => format!("read again every {} s", every.as_secs_f64()),
        None => "read once".to_string(),
    };
    let mut text = String::new();
    let found = shelf.summary();
    if found.is_empty() {
        text += &format!(
            "\n  stores: none yet in {} ({refresh}); `ransom prove e4` fills proofs/store",
            dirs.join(", ")
        );
    }
    for s in found {
        text += &format!(
            "\n  store {} ({}): {} positions, {} checkpointed searches ({refresh})",
            s.root.display(),
            s.variant.name(),
            s.positions,
            s.searches
        );
    }
    for problem in &state.stores_at_start.problems {
        text += &format!("\n  store not read: {problem}");
    }
    text
}
