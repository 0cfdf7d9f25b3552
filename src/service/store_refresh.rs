//! Reading the solved-position stores again while the service runs, so
//! that what a running `prove` syncs reaches the answers.

use super::state::AppState;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Starts a thread that refreshes `state`'s stores every `every` until
/// the state is dropped; each new problem is logged once.
pub fn start(state: &Arc<AppState>, every: Duration) -> std::io::Result<()> {
    // Never a busy loop, whatever a library caller sets.
    let every = every.max(Duration::from_millis(100));
    let weak: Weak<AppState> = Arc::downgrade(state);
    std::thread::Builder::new()
        .name("ransom-store-refresh".into())
        .spawn(move || {
            let mut reported: Vec<String> = Vec::new();
            loop {
                std::thread::sleep(every);
                let Some(state) = weak.upgrade() else {
                    return;
                };
                let Some(shelf) = state.knowledge.stores() else {
                    return;
                };
                let refresh = shelf.refresh();
                for (dir, variant) in &refresh.opened {
                    tracing::info!("store opened: {} ({})", dir.display(), variant.name());
                }
                for problem in refresh.problems {
                    if !reported.contains(&problem) {
                        tracing::warn!("store not read: {problem}");
                        if reported.len() >= 1000 {
                            reported.remove(0);
                        }
                        reported.push(problem);
                    }
                }
            }
        })
        .map(|_| ())
}
