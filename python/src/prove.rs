//! `prove`: who wins at the end of a line, with a verified proof.

use crate::errors::ransom_error;
use crate::input::{self, seconds};
use crate::interrupt::{raise_with_report, run_interruptible};
use pyo3::prelude::*;
use ransom::proving::{Line, Outputs, PgnOutput, ProveOptions, Quiet, StoreOptions, prove_line};
use ransom::search::Budget;
use ransom::{Position, dispatch};
use std::path::PathBuf;

/// What `prove` is asked, owned by the search thread.
struct ProveCall {
    moves: Vec<String>,
    options: ProveOptions,
    outputs: Outputs,
}

/// Proves who wins after `moves` from `fen` (the start without one) and
/// returns the run's report as JSON text (the command line's `--json`).
#[pyfunction]
#[pyo3(signature = (
    variant, fen=None, moves=Vec::new(), *, max_nodes=None, max_time=None,
    store=None, tablebases=None, threads=None, leaf_nodes=None, hash_mb=1024,
    proof_path=None, pgn=None, pgn_full=false
))]
#[allow(clippy::too_many_arguments)]
pub fn prove(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    moves: Vec<String>,
    max_nodes: Option<u64>,
    max_time: Option<f64>,
    store: Option<PathBuf>,
    tablebases: Option<PathBuf>,
    threads: Option<usize>,
    leaf_nodes: Option<u64>,
    hash_mb: usize,
    proof_path: Option<PathBuf>,
    pgn: Option<PathBuf>,
    pgn_full: bool,
) -> PyResult<String> {
    let start = input::position(variant, fen)?;
    let max_time = seconds(max_time)?;
    for path in proof_path.iter().chain(pgn.iter()) {
        ransom::store::check_output_path(path).map_err(ransom_error)?;
    }
    let mut options = ProveOptions::default();
    options.config.threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    if let Some(nodes) = leaf_nodes {
        options.config.leaf_nodes = nodes.max(1);
    }
    options.tablebases = tablebases;
    options.store = StoreOptions {
        given: store.is_some(),
        dir: store,
        ..StoreOptions::default()
    };
    let call = ProveCall {
        moves,
        options,
        outputs: Outputs {
            proof: proof_path,
            pgn: pgn.map(|path| PgnOutput {
                path,
                full: pgn_full,
            }),
        },
    };
    let finished = run_interruptible(py, move |stop| {
        let mut call = call;
        call.options.config.budget = Budget {
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            max_time,
            hash_bytes: hash_mb.saturating_mul(1 << 20),
            stop: Some(stop),
        };
        dispatch!(start, p => prove_from(p, &call))
    })?;
    raise_with_report(py, finished)
}

fn prove_from<P: Position>(start: P, call: &ProveCall) -> PyResult<String> {
    let line = Line::play(start, &call.moves).map_err(ransom_error)?;
    let report =
        prove_line(&line, &call.options, &call.outputs, &mut Quiet).map_err(ransom_error)?;
    serde_json::to_string(&report).map_err(ransom_error)
}
