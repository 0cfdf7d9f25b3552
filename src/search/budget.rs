//! Search budgets: nodes, time and memory.

use std::time::{Duration, Instant};

/// Limits of one search. When a limit is reached the search stops and
/// answers "unknown" with what it learned.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Stop after this many node expansions.
    pub max_nodes: u64,
    /// Stop after this much wall-clock time.
    pub max_time: Option<Duration>,
    /// Memory for the transposition table, in bytes.
    pub hash_bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_nodes: u64::MAX,
            max_time: None,
            hash_bytes: 1 << 30,
        }
    }
}

/// A running clock against a budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    start: Instant,
    max_time: Option<Duration>,
}

impl Deadline {
    pub(crate) fn new(max_time: Option<Duration>) -> Self {
        Deadline {
            start: Instant::now(),
            max_time,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub(crate) fn expired(&self) -> bool {
        self.max_time.is_some_and(|t| self.start.elapsed() >= t)
    }
}

/// A progress report of a running search.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes expanded so far.
    pub nodes: u64,
    /// The root's proof number.
    pub root_pn: super::Pn,
    /// The root's disproof number.
    pub root_dn: super::Pn,
    /// Positions in the transposition table.
    pub table_entries: usize,
    /// Time since the search started.
    pub elapsed: Duration,
}
