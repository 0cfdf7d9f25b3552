//! Running a prove command (`prove`, `prove --job`, `prove --plan`): the
//! arguments the search thread owns, the thread with a large stack, the
//! signals that stop a search, and the exit code that reports them.

use super::prove_progress::ProgressDisplay;
use ransom::search::scale::ScaleConfig;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// Raised (set to 1) by SIGINT, SIGTERM or SIGHUP: the search stops,
/// writes its checkpoint and reports.
pub(super) static INTERRUPTED: AtomicU64 = AtomicU64::new(0);
/// The signal that raised [`INTERRUPTED`] (0: none yet).
static SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// What `--plan` asks for.
#[derive(Clone)]
pub(super) struct PlanOptions {
    /// The jobs folder.
    pub dir: PathBuf,
    /// How many jobs.
    pub split: usize,
    /// Each job's node budget.
    pub job_nodes: u64,
    /// Each job's time budget.
    pub job_time: Option<f64>,
}

/// Runs `work` on a thread with a large stack (deep proofs recurse
/// deeply), with SIGINT, SIGTERM and SIGHUP raising [`INTERRUPTED`]: the
/// search stops at its next check, writes its checkpoint and the store,
/// and the command exits with [`exit_code`]. A second signal exits at once.
pub(super) fn on_big_stack(
    work: impl FnOnce() -> anyhow::Result<ExitCode> + Send + 'static,
) -> anyhow::Result<ExitCode> {
    install_signal_handler();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(work)?
        .join()
        .map_err(|_| anyhow::anyhow!("the prover thread panicked"))?
}

/// Listens for SIGINT, SIGTERM and SIGHUP on a thread of its own.
fn install_signal_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            // The first signal is the one the exit code names.
            let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
            if INTERRUPTED.swap(1, Ordering::SeqCst) == 1 {
                // A second signal: the user does not want to wait.
                std::process::exit(128 + signal);
            }
        }
    });
}

/// Whether SIGINT, SIGTERM or SIGHUP has stopped the search.
pub(super) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) == 1
}

/// How a prove command exits: 0, or after a signal stopped a search that
/// had not `settled` its position, the shell's code for that signal (128 +
/// its number: 130 SIGINT, 143 SIGTERM, 129 SIGHUP), so that scripts and
/// schedulers see the interruption. A signal that came after the search
/// settled its position interrupted nothing: 0.
pub(super) fn exit_code(settled: bool) -> ExitCode {
    let signal = SIGNAL.load(Ordering::SeqCst);
    if interrupted() && !settled && signal > 0 {
        ExitCode::from(u8::try_from(128 + signal).unwrap_or(1))
    } else {
        ExitCode::SUCCESS
    }
}

/// The arguments, owned, for the search thread.
#[derive(Clone)]
pub(super) struct ProveArgsOwned {
    pub moves: Vec<String>,
    pub config: ScaleConfig,
    /// The book file (`--book`), read per variant into `config.guide`.
    pub book: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    pub pgn_full: bool,
    pub write: bool,
    pub quiet: bool,
    pub force_progress: bool,
    pub progress_json: bool,
    pub json: bool,
    pub tablebases: Option<PathBuf>,
    /// Syzygy giveaway tables (`--syzygy`).
    pub syzygy: Option<PathBuf>,
    /// The store (`None`: --no-store).
    pub store: Option<PathBuf>,
    /// Whether --store was given (a job reads a store only then).
    pub store_given: bool,
    pub store_memory: usize,
    /// Whether to wait for a busy store (`--wait`).
    pub store_wait: bool,
    pub budget_given: bool,
    pub plan: Option<PlanOptions>,
}

impl ProveArgsOwned {
    /// These arguments with the book read for variant `P` into the guide;
    /// `None` without a book.
    pub fn with_book<P: ransom::Position>(&self) -> anyhow::Result<Option<ProveArgsOwned>> {
        let Some(path) = &self.book else {
            return Ok(None);
        };
        let mut guided = self.clone();
        guided.config.guide = super::prove_guide::with_book::<P>(self.config.guide.clone(), path)?;
        Ok(Some(guided))
    }

    /// The oracle for the search's leaves: the tablebases, then the Syzygy
    /// tables (an error when `--syzygy` cannot be used).
    pub fn leaf_oracle<P: ransom::Position>(
        &self,
    ) -> anyhow::Result<Option<Box<dyn ransom::search::oracle::Oracle<P>>>> {
        ransom::search::leaf_oracle::leaf_oracle::<P>(
            self.tablebases.as_deref(),
            self.syzygy.as_deref(),
        )
        .map_err(|e| anyhow::anyhow!(e))
    }

    /// Where this run's progress goes (nothing with `-q` or `--json`).
    pub fn progress_display(&self) -> ProgressDisplay {
        ProgressDisplay::new(
            self.quiet || self.json,
            self.force_progress,
            self.progress_json,
        )
    }
}
