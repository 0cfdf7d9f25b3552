//! The answer of `GET /health`: liveness and what the service has loaded.

use super::state::AppState;
use serde::Serialize;

/// `{"status": "ok", ...}` with tablebases, proofs, puzzles, the workers'
/// load and the limits.
#[derive(Debug, Serialize)]
pub struct HealthAnswer {
    /// Always "ok".
    pub status: &'static str,
    /// The program's version.
    pub version: &'static str,
    /// Seconds since the service started.
    pub uptime_s: f64,
    /// The tables loaded.
    pub tablebases: TablebaseHealth,
    /// The proofs loaded.
    pub proofs: ProofHealth,
    /// The puzzle sets loaded.
    pub puzzles: PuzzleHealth,
    /// The solver pool.
    pub workers: WorkerHealth,
    /// The limits of a request.
    pub limits: LimitHealth,
}

/// Tables loaded, by rule set: complete up to, and at most, this many men.
#[derive(Debug, Serialize)]
pub struct TablebaseHealth {
    antichess_max_men: Option<u32>,
    antichess_complete_men: Option<u32>,
    suicide_max_men: Option<u32>,
    suicide_complete_men: Option<u32>,
}

/// Proof files loaded.
#[derive(Debug, Serialize)]
pub struct ProofHealth {
    files: usize,
    positions: usize,
    errors: Vec<String>,
}

/// Puzzle sets loaded.
#[derive(Debug, Serialize)]
pub struct PuzzleHealth {
    sets: usize,
    errors: Vec<String>,
}

/// The solver pool's load.
#[derive(Debug, Serialize)]
pub struct WorkerHealth {
    total: usize,
    running: usize,
    waiting: usize,
    queue: usize,
}

/// The limits of a request.
#[derive(Debug, Serialize)]
pub struct LimitHealth {
    max_nodes: u64,
    max_time_ms: u64,
    max_mate: u16,
    max_perft_depth: u32,
    max_body_bytes: usize,
}

impl HealthAnswer {
    /// The service's health now.
    pub fn of(state: &AppState) -> HealthAnswer {
        let (antichess, suicide) = state.knowledge.tablebase_men();
        let (files, positions, errors) = state
            .knowledge
            .with_proofs(|p| (p.files().len(), p.len(), p.errors().to_vec()));
        let config = &state.config;
        HealthAnswer {
            status: "ok",
            version: env!("CARGO_PKG_VERSION"),
            uptime_s: state.started.elapsed().as_secs_f64(),
            tablebases: TablebaseHealth {
                antichess_max_men: antichess.map(|m| m.1),
                antichess_complete_men: antichess.map(|m| m.0),
                suicide_max_men: suicide.map(|m| m.1),
                suicide_complete_men: suicide.map(|m| m.0),
            },
            proofs: ProofHealth {
                files,
                positions,
                errors,
            },
            puzzles: PuzzleHealth {
                sets: state.puzzles.sets.len(),
                errors: state.puzzles.errors.clone(),
            },
            workers: WorkerHealth {
                total: state.jobs.workers(),
                running: state.jobs.running(),
                waiting: state.jobs.waiting(),
                queue: config.queue,
            },
            limits: LimitHealth {
                max_nodes: config.max_nodes,
                max_time_ms: config.max_time_ms,
                max_mate: config.max_mate,
                max_perft_depth: config.max_perft_depth,
                max_body_bytes: config.max_body_bytes,
            },
        }
    }
}
