//! Search budgets: nodes, time and memory.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Limits of one search. When a limit is reached (or the stop signal is
/// raised) the search stops and answers "unknown" with what it learned.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Stop after this many node expansions.
    pub max_nodes: u64,
    /// Stop after this much wall-clock time.
    pub max_time: Option<Duration>,
    /// Memory for the transposition table, in bytes.
    pub hash_bytes: usize,
    /// Stop soon after this signal is raised (UCI's `stop`), as at a limit.
    pub stop: Option<StopSignal>,
}

/// A request to stop a search from another thread. The requester counts
/// the searches it wants stopped in `stopped`; the search holding ticket
/// `ticket` stops once that count reaches it. Numbered tickets let a stop
/// meant for one search never reach a later one.
#[derive(Clone, Copy, Debug)]
pub struct StopSignal {
    /// How many searches, numbered from 1, are to stop.
    pub stopped: &'static AtomicU64,
    /// This search's number.
    pub ticket: u64,
}

impl StopSignal {
    /// Whether this search is to stop.
    pub fn is_raised(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) >= self.ticket
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_nodes: u64::MAX,
            max_time: None,
            hash_bytes: 1 << 30,
            stop: None,
        }
    }
}

/// A running clock against a budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    start: Instant,
    max_time: Option<Duration>,
    stop: Option<StopSignal>,
}

impl Deadline {
    pub(crate) fn new(budget: &Budget) -> Self {
        Deadline {
            start: Instant::now(),
            max_time: budget.max_time,
            stop: budget.stop,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time is up or the stop signal is raised.
    pub(crate) fn expired(&self) -> bool {
        self.max_time.is_some_and(|t| self.start.elapsed() >= t)
            || self.stop.is_some_and(|signal| signal.is_raised())
    }
}

/// How many nodes pass between two looks at the clock and the stop signal:
/// a node of a royal variant can cost 200 µs (Contact chess values about
/// 50 children, each by generating its moves), so 1,024 nodes were 200 ms
/// past a `movetime`; 64 keep a stop within about 15 ms, and a clock read
/// every 64 nodes costs nothing measurable where a node costs 1 µs.
pub(crate) const CLOCK_EVERY: u64 = 64;

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

/// The running account of one search against its budget: nodes, the
/// clock, and a progress report about once a second.
pub(crate) struct Meter<'p> {
    /// Nodes counted so far.
    pub(crate) nodes: u64,
    max_nodes: u64,
    deadline: Deadline,
    /// Set once a limit is reached; the search then unwinds.
    pub(crate) stopped: bool,
    next_report: std::time::Duration,
    progress: Option<&'p mut dyn FnMut(&Progress)>,
}

impl<'p> Meter<'p> {
    pub(crate) fn new(budget: &Budget) -> Self {
        Meter {
            nodes: 0,
            max_nodes: budget.max_nodes,
            deadline: Deadline::new(budget),
            stopped: false,
            next_report: Duration::from_secs(1),
            progress: None,
        }
    }

    pub(crate) fn set_progress(&mut self, report: &'p mut dyn FnMut(&Progress)) {
        self.progress = Some(report);
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.deadline.elapsed()
    }

    /// Whether the node budget is used up (then the search stops).
    pub(crate) fn spent(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        self.stopped
    }

    /// Checks the limits after a node (the clock and the stop signal every
    /// [`CLOCK_EVERY`] nodes) and
    /// reports progress when a second has passed (`table_entries` is
    /// asked only then).
    pub(crate) fn check(
        &mut self,
        root: (super::Pn, super::Pn),
        table_entries: impl FnOnce() -> usize,
    ) {
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if !self.nodes.is_multiple_of(CLOCK_EVERY) {
            return;
        }
        if self.deadline.expired() {
            self.stopped = true;
        }
        let elapsed = self.deadline.elapsed();
        if elapsed >= self.next_report {
            self.next_report = elapsed + Duration::from_secs(1);
            let report = Progress {
                nodes: self.nodes,
                root_pn: root.0,
                root_dn: root.1,
                table_entries: table_entries(),
                elapsed,
            };
            if let Some(progress) = self.progress.as_mut() {
                progress(&report);
            }
        }
    }
}

/// The largest table a command takes, in MB (`--hash`, UCI's `Hash`).
pub const MAX_HASH_MB: usize = 65536;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// A raised stop (UCI `stop`, or a `movetime` that has passed) is seen
    /// within [`CLOCK_EVERY`] nodes of any search that counts its nodes on
    /// a [`Meter`], whatever a node costs.
    #[test]
    fn a_stop_is_seen_within_clock_every_nodes() {
        static STOPPED: AtomicU64 = AtomicU64::new(0);
        let budget = Budget {
            stop: Some(StopSignal {
                stopped: &STOPPED,
                ticket: 1,
            }),
            ..Budget::default()
        };
        let mut meter = Meter::new(&budget);
        for _ in 0..10 {
            meter.nodes += 1;
            meter.check((crate::search::Pn::ONE, crate::search::Pn::ONE), || 0);
        }
        assert!(!meter.stopped);
        STOPPED.store(1, Ordering::SeqCst);
        let raised_at = meter.nodes;
        while !meter.stopped {
            meter.nodes += 1;
            meter.check((crate::search::Pn::ONE, crate::search::Pn::ONE), || 0);
            assert!(meter.nodes - raised_at <= CLOCK_EVERY, "still running");
        }
    }
}
