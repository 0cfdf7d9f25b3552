//! What the reader of a session's input and the session share while a
//! search runs: how many `go` commands were read and answered, which are
//! to stop, and whether the input has ended.

use crate::search::StopSignal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The counters of one session. The `n`th `go` searches with ticket `n` of
/// a [`StopSignal`] on `stopped`, so a `stop` never reaches a later `go`,
/// however the reader and the session are timed.
#[derive(Default)]
pub struct Signals {
    /// `go` commands the reader has passed on.
    gos_read: AtomicU64,
    /// `go` commands the session has answered.
    gos_answered: AtomicU64,
    /// How many `go` commands are to stop (`stop` and `quit` stop every
    /// `go` read before them).
    stopped: AtomicU64,
    /// Set when the input ends: a `go infinite` waiting for `stop` gives
    /// its `bestmove` then instead of waiting forever.
    input_ended: AtomicBool,
}

/// What the reader does with a line before the session sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Early {
    /// Pass it on.
    PassOn,
    /// Answer `readyok` now (a `go` is running) and do not pass it on.
    ReadyNow,
}

impl Signals {
    /// The signals of a new session. They live as long as the program (a
    /// search's [`StopSignal`] holds a `'static` counter): a few bytes a
    /// session.
    pub fn new() -> &'static Signals {
        Box::leak(Box::default())
    }

    /// Called by the reader for each line read, before passing it on:
    /// counts `go`, raises the stop of every `go` read so far at `stop`
    /// and `quit`, and says whether an `isready` is to be answered now.
    pub fn on_read(&self, line: &str) -> Early {
        match line.split_whitespace().next() {
            Some("go") => {
                self.gos_read.fetch_add(1, Ordering::SeqCst);
            }
            Some("stop") | Some("quit") => {
                self.stopped
                    .store(self.gos_read.load(Ordering::SeqCst), Ordering::SeqCst);
            }
            Some("isready")
                if self.gos_read.load(Ordering::SeqCst)
                    > self.gos_answered.load(Ordering::SeqCst) =>
            {
                return Early::ReadyNow;
            }
            _ => {}
        }
        Early::PassOn
    }

    /// Called once the reply to `line` is out: a `go` counts as answered.
    pub fn on_answered(&self, line: &str) {
        if line.split_whitespace().next() == Some("go") {
            self.gos_answered.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The input has ended (or the reader stopped): no `stop` can come.
    pub fn input_ended(&self) {
        self.input_ended.store(true, Ordering::SeqCst);
    }

    /// The stop of the `go` about to be answered.
    pub(super) fn next_stop(&'static self) -> StopSignal {
        StopSignal {
            stopped: &self.stopped,
            ticket: self.gos_answered.load(Ordering::SeqCst) + 1,
        }
    }

    /// Raises the stop of `go` number `ticket` `grace` after the input
    /// ends, if that `go` is not answered by then (a thread that waits for
    /// either).
    pub(super) fn stop_at_end_of_input(&'static self, ticket: u64, grace: Duration) {
        std::thread::spawn(move || {
            let mut ended_at = None;
            while self.gos_answered.load(Ordering::SeqCst) < ticket {
                if self.input_ended.load(Ordering::SeqCst) {
                    let ended = *ended_at.get_or_insert_with(std::time::Instant::now);
                    if ended.elapsed() >= grace {
                        self.stopped.fetch_max(ticket, Ordering::SeqCst);
                        return;
                    }
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
    }

    /// Waits until `stop` is raised or the input has ended.
    pub(super) fn wait_for_stop(&self, stop: StopSignal) {
        while !stop.is_raised() && !self.input_ended.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
