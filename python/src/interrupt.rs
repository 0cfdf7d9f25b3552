//! Long work on a thread of its own, without the GIL, stopped by Ctrl-C.
//!
//! The calling thread waits in short slices with the GIL released and asks
//! Python for pending signals between them. On Ctrl-C the search is told
//! to stop (as the command line's SIGINT does: it writes its checkpoint and
//! store), the thread is waited for, and `KeyboardInterrupt` is raised.

use crate::errors::ransom_error;
use pyo3::prelude::*;
use ransom::search::StopSignal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How many searches, numbered from 1, are to stop.
static STOPPED: AtomicU64 = AtomicU64::new(0);
/// The last search number handed out.
static TICKETS: AtomicU64 = AtomicU64::new(0);

/// Stack of the work thread: the solvers recurse deeply (as the command
/// line's prover thread, 1 GiB of address space, touched only as used).
const STACK_BYTES: usize = 1 << 30;

/// How often the waiting thread looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` with a stop signal of its own on a new thread, the GIL
/// released; a pending signal's exception (KeyboardInterrupt) stops the
/// work and is raised once it has returned.
pub fn run_interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(StopSignal) -> T + Send + 'static,
) -> PyResult<T> {
    let ticket = TICKETS.fetch_add(1, Ordering::SeqCst) + 1;
    let stop = StopSignal {
        stopped: &STOPPED,
        ticket,
    };
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
        if interrupted.is_none()
            && let Err(signal) = py.check_signals()
        {
            STOPPED.fetch_max(ticket, Ordering::SeqCst);
            interrupted = Some(signal);
        }
    }
    let result = py
        .detach(|| handle.join())
        .map_err(|_| ransom_error("the search thread panicked"))?;
    match interrupted {
        Some(signal) => Err(signal),
        None => Ok(result),
    }
}
