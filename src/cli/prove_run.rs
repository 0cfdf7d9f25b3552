//! Running a prove command (`prove`, `prove --job`, `prove --plan`): the
//! arguments the search thread owns, the thread with a large stack, the
//! signals that stop a search, and the exit code that reports them.

use super::prove_progress::ProgressDisplay;
use ransom::proving::ProveRunError;
use ransom::store::StoreError;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// Raised (set to 1) by SIGINT, SIGTERM or SIGHUP: the search stops,
/// writes its checkpoint and reports.
pub(super) static INTERRUPTED: AtomicU64 = AtomicU64::new(0);
/// The signal that raised [`INTERRUPTED`] (0: none yet).
static SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

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

/// What the terminal shows of a run.
#[derive(Clone, Copy)]
pub(super) struct Printing {
    /// `-q`: no progress, no warnings.
    pub quiet: bool,
    /// `--progress`: plain progress lines even when stderr is not a terminal.
    pub force_progress: bool,
    /// `--progress-json`.
    pub progress_json: bool,
    /// `--json`: one JSON object on stdout.
    pub json: bool,
}

impl Printing {
    /// Where this run's progress goes (nothing with `-q` or `--json`).
    pub fn progress_display(&self) -> ProgressDisplay {
        ProgressDisplay::new(
            self.quiet || self.json,
            self.force_progress,
            self.progress_json,
        )
        .silent(self.quiet)
    }

    /// `report` as one JSON line (`--json`) or as its text.
    pub fn print<R: serde::Serialize + std::fmt::Display>(&self, report: &R) -> anyhow::Result<()> {
        super::print_report(report, self.json)
    }
}

/// A prove run's error with what the user can do about it, in the
/// command's own flags.
pub(super) fn explained(error: ProveRunError) -> anyhow::Error {
    match &error {
        ProveRunError::StoreOpen {
            error: StoreError::Busy { .. },
            ..
        } => anyhow::anyhow!("{error}\n(--wait waits for it; --no-store runs without the store)"),
        ProveRunError::StoreOpen { dir, .. } => anyhow::anyhow!(
            "{error}\n(--no-store runs without the store; `ransom store verify {}` checks it)",
            dir.display()
        ),
        ProveRunError::Checkpoint(StoreError::Damaged { path, .. }) => anyhow::anyhow!(
            "{error}\n(the saved outer tree of this search: remove {path} to start the search afresh, losing that tree but none of the store's positions, or restore it from a backup)"
        ),
        ProveRunError::JobStore(_) => anyhow::anyhow!(
            "{error}\n(a job reads the store given by --store; leave it out to start from nothing)"
        ),
        _ => anyhow::anyhow!(error),
    }
}
