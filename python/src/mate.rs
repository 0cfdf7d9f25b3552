//! `mate`: the shortest forced mate (Losing chess: forced win) with its
//! verified solution tree.

use crate::errors::ransom_error;
use crate::input;
use crate::input::seconds;
use crate::interrupt::{raise_with_report, run_interruptible};
use pyo3::prelude::*;
use ransom::analysis::{MateSolutionView, mate_report_json};
use ransom::search::Budget;
use ransom::search::leaf_oracle::leaf_oracle;
use ransom::search::mate::{MateOptions, solve_mate_streaming};
use ransom::{Position, dispatch};
use std::path::PathBuf;

/// Solves for the shortest mate of at most `max` moves and returns the
/// report as JSON text (the command line's `mate --json`, with the
/// solution tree of at most `tree_limit` moves).
#[pyfunction]
#[pyo3(signature = (
    variant, fen=None, moves=Vec::new(), *, max=5, all_keys=false, max_nodes=None,
    max_time=None, tablebases=None, threads=1, hash_mb=512, tree_limit=100_000
))]
#[allow(clippy::too_many_arguments)]
pub fn mate(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    moves: Vec<String>,
    max: u16,
    all_keys: bool,
    max_nodes: Option<u64>,
    max_time: Option<f64>,
    tablebases: Option<PathBuf>,
    threads: usize,
    hash_mb: usize,
    tree_limit: usize,
) -> PyResult<String> {
    let start = input::position(variant, fen)?;
    let max_time = seconds(max_time)?;
    if max == 0 {
        return Err(ransom_error("max must be at least 1"));
    }
    let finished = run_interruptible(py, move |stop| {
        let options = MateOptions {
            max,
            all_keys,
            budget: Budget {
                max_nodes: max_nodes.unwrap_or(u64::MAX),
                max_time,
                hash_bytes: hash_mb.saturating_mul(1 << 20),
                stop: Some(stop),
            },
            threads: threads.max(1),
        };
        let call = (moves, options, tablebases, tree_limit);
        dispatch!(start, p => solve(p, &call))
    })?;
    raise_with_report(py, finished)
}

type MateCall = (Vec<String>, MateOptions, Option<PathBuf>, usize);

fn solve<P: Position>(start: P, call: &MateCall) -> PyResult<String> {
    let (moves, options, tablebases, tree_limit) = call;
    let (pos, _) = ransom::notation::play_line(start, moves).map_err(ransom_error)?;
    let oracle = leaf_oracle::<P>(tablebases.as_deref(), None).map_err(ransom_error)?;
    let report = solve_mate_streaming(&pos, options, oracle.as_deref(), &mut |_| {}, &mut |_| {});
    let view = MateSolutionView::of(&pos, &report, *tree_limit);
    Ok(mate_report_json(&pos, &report, options.max, &view).to_string())
}
