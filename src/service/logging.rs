//! The service's log: tracing-subscriber writing to stderr, plain text or
//! one JSON object per line, filtered by `RUST_LOG` (default: one line per
//! request, start-up and warnings). Lines are handed to a writer thread
//! (tracing-appender) that writes them in batches, so a request never
//! waits for a write to stderr unless 100,000 lines are already waiting.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum LogFormat {
    /// Plain text (colored when stderr is a terminal).
    #[default]
    Text,
    /// One JSON object per line, the event's fields at its top level.
    Json,
}

/// The filter when `RUST_LOG` is not set: every request, and only warnings
/// from the libraries underneath.
const DEFAULT_FILTER: &str = "warn,ransom=info";

/// Installs the log for this process: `RUST_LOG` (tracing's
/// `EnvFilter` syntax, e.g. `ransom=debug`, `off`) or the default filter.
/// A `RUST_LOG` that does not parse is an error naming it; a second call
/// is an error too (one subscriber per process).
/// Keep the returned guard until the end: dropping it writes what is left.
pub fn init_logging(format: LogFormat) -> Result<LogGuard, LogError> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(text) if !text.trim().is_empty() => {
            EnvFilter::try_new(&text).map_err(|e| LogError::Filter {
                text: text.clone(),
                reason: e.to_string(),
            })?
        }
        _ => EnvFilter::new(DEFAULT_FILTER),
    };
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(BUFFERED_LINES)
        .lossy(false)
        .thread_name("ransom-log")
        .finish(std::io::BufWriter::new(std::io::stderr()));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    let installed = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
    installed.map_err(|e| LogError::Installed(e.to_string()))?;
    Ok(LogGuard { _writer: guard })
}

/// Why the log could not be installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// `RUST_LOG` does not parse as a filter.
    #[error("RUST_LOG='{text}' is not a log filter: {reason}")]
    Filter {
        /// The variable's text.
        text: String,
        /// What the filter parser said.
        reason: String,
    },
    /// A log is installed already (one per process).
    #[error("cannot install the log: {0}")]
    Installed(String),
}

/// Lines waiting for the writer thread before a request waits for it.
const BUFFERED_LINES: usize = 100_000;

/// Writes the lines still waiting when dropped.
#[must_use = "dropping the guard stops the log's writer"]
pub struct LogGuard {
    _writer: tracing_appender::non_blocking::WorkerGuard,
}

impl std::fmt::Debug for LogGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LogGuard")
    }
}
