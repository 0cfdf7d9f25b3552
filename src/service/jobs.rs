//! [`JobPool`]: solver work off the async threads, at most `workers` at
//! once, with a bounded queue (503 beyond it).

use super::error::ApiError;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// Runs blocking solver work on a bounded number of threads.
pub struct JobPool {
    permits: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
    running: Arc<AtomicUsize>,
    workers: usize,
    queue: usize,
}

/// Decrements a counter when dropped: a request leaves the pool when its
/// work ends, or when it goes away while still waiting.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl JobPool {
    /// A pool of `workers` threads' worth of permits and `queue` waiting places.
    pub fn new(workers: usize, queue: usize) -> JobPool {
        let workers = workers.max(1);
        JobPool {
            permits: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(AtomicUsize::new(0)),
            running: Arc::new(AtomicUsize::new(0)),
            workers,
            queue,
        }
    }

    /// Runs `work` on a blocking thread once a worker is free, or answers
    /// 503 at once when every worker is busy and the queue is full. Work
    /// that has started runs to its own budget even if the client leaves,
    /// and keeps its place in the pool until it ends.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        self.admit()?.run(work).await
    }

    /// Takes a place in the pool now (503 when every worker is busy and the
    /// queue is full), for work that [`Admission::run`] starts later: a
    /// streamed answer is refused before its first byte is sent.
    pub fn admit(&self) -> Result<Admission, ApiError> {
        if self.admitted.fetch_add(1, Ordering::SeqCst) >= self.workers + self.queue {
            self.admitted.fetch_sub(1, Ordering::SeqCst);
            metrics::counter!(super::metrics::JOBS_REJECTED).increment(1);
            return Err(ApiError::overloaded());
        }
        Ok(Admission {
            slot: Slot(Arc::clone(&self.admitted)),
            permits: Arc::clone(&self.permits),
            running: Arc::clone(&self.running),
        })
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Searches admitted but not yet running.
    pub fn waiting(&self) -> usize {
        self.admitted
            .load(Ordering::SeqCst)
            .saturating_sub(self.running())
    }

    /// The number of workers.
    pub fn workers(&self) -> usize {
        self.workers
    }
}

/// A place in a [`JobPool`], held until the work it runs ends (or until it
/// is dropped unused).
pub struct Admission {
    slot: Slot,
    permits: Arc<Semaphore>,
    running: Arc<AtomicUsize>,
}

impl Admission {
    /// Waits for a free worker, then runs `work` on a blocking thread.
    pub async fn run<T: Send + 'static>(
        self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Admission {
            slot,
            permits,
            running,
        } = self;
        let permit = permits
            .acquire_owned()
            .await
            .map_err(|_| ApiError::internal("the worker pool is closed"))?;
        running.fetch_add(1, Ordering::SeqCst);
        // Counted down when the work ends, or when the runtime drops it unrun.
        let running = Slot(running);
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let _permit = permit;
            let _running = running;
            work()
        })
        .await
        .map_err(|e| ApiError::internal(format!("a solver task failed: {e}")))
    }
}
