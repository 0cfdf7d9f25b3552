//! Long work on a thread of its own, without the GIL, stopped by Ctrl-C.
//!
//! The calling thread waits in short slices with the GIL released and asks
//! Python for pending signals between them. On Ctrl-C the search is told
//! to stop (as the command line's SIGINT does: it writes its checkpoint and
//! store) and waited for; the caller gets the work's result together with
//! the `KeyboardInterrupt` to raise ([`Finished::interrupted`]).
//!
//! Each Python thread has a stop flag of its own, so a Ctrl-C (which Python
//! delivers to the main thread) stops the search of that thread only, not
//! searches other threads run at the same time.

use crate::errors::ransom_error;
use pyo3::prelude::*;
use ransom::search::StopSignal;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

thread_local! {
    /// This Python thread's stop flag: how many of its searches, numbered
    /// from 1, are to stop (one flag per thread, made once and kept).
    static STOPPED: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
    /// The number of this thread's last search.
    static TICKETS: Cell<u64> = const { Cell::new(0) };
}

/// Stack of the work thread: the solvers recurse deeply (as the command
/// line's prover thread, 1 GiB of address space, touched only as used).
const STACK_BYTES: usize = 1 << 30;

/// How often the waiting thread looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// What a work thread returned, and the signal's exception if one came.
pub struct Finished<T> {
    /// The work's result (complete, or as far as it got before stopping).
    pub result: T,
    /// The exception of the first signal (KeyboardInterrupt), if any.
    pub interrupted: Option<PyErr>,
}

/// Runs `work` with a stop signal of its own on a new thread, the GIL
/// released; a pending signal's exception stops the work, which is waited
/// for. Later signals while it stops are absorbed (one Ctrl-C stops it).
pub fn run_interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(StopSignal) -> T + Send + 'static,
) -> PyResult<Finished<T>> {
    let stopped = STOPPED.with(|s| *s);
    let ticket = TICKETS.with(|t| {
        t.set(t.get() + 1);
        t.get()
    });
    let stop = StopSignal { stopped, ticket };
    let waiter = std::thread::current();
    let handle = std::thread::Builder::new()
        .name("ransom-search".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let result = work(stop);
            waiter.unpark();
            result
        })
        .map_err(ransom_error)?;
    let mut interrupted = None;
    while !handle.is_finished() {
        py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
        if let Err(signal) = py.check_signals() {
            stopped.fetch_max(ticket, Ordering::SeqCst);
            interrupted.get_or_insert(signal);
        }
    }
    let result = py
        .detach(|| handle.join())
        .map_err(|_| ransom_error("the search thread panicked"))?;
    Ok(Finished {
        result,
        interrupted,
    })
}

/// `finished` as a Python result: the work's value, or the signal's
/// exception carrying `partial` (the JSON report so far) as its
/// `ransom_report` attribute.
pub fn raise_with_report(py: Python<'_>, finished: Finished<PyResult<String>>) -> PyResult<String> {
    match finished.interrupted {
        None => finished.result,
        Some(signal) => {
            if let Ok(report) = &finished.result {
                let _ = signal.value(py).setattr("ransom_report", report.as_str());
            }
            Err(signal)
        }
    }
}
