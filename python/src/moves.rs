//! Variants, positions, legal moves and perft.

use crate::errors::ransom_error;
use crate::input;
use pyo3::prelude::*;
use ransom::notation::{san, uci};
use ransom::{Position, Variant, dispatch};

/// The names of the variants, as `variant=` takes them.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// Whether two names name the same variant (`giveaway` and `antichess`
/// do); `None` when either names none.
#[pyfunction]
pub fn same_variant(a: &str, b: &str) -> Option<bool> {
    Some(a.parse::<Variant>().ok()? == b.parse::<Variant>().ok()?)
}

/// The position as JSON text: `{variant, fen, check, outcome, winner, ...}`.
#[pyfunction]
#[pyo3(signature = (variant, fen=None))]
pub fn position(variant: &str, fen: Option<&str>) -> PyResult<String> {
    let pos = input::position(variant, fen)?;
    Ok(dispatch!(pos, p => ransom::analysis::state_json(&p)).to_string())
}

/// The legal moves as `(uci, san)` pairs in the generator's order, SAN
/// with `+`/`#` marks.
#[pyfunction]
#[pyo3(signature = (variant, fen=None))]
pub fn legal_moves(variant: &str, fen: Option<&str>) -> PyResult<Vec<(String, String)>> {
    let pos = input::position(variant, fen)?;
    Ok(dispatch!(pos, p => moves_of(&p)))
}

fn moves_of<P: Position>(pos: &P) -> Vec<(String, String)> {
    pos.playable_moves()
        .iter()
        .map(|&m| (uci::write(m), san::write_plus(pos, m)))
        .collect()
}

/// Leaf nodes at `depth` plies, counted on `threads` threads (default:
/// every core), without the GIL.
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, threads=None))]
pub fn perft(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    depth: u32,
    threads: Option<usize>,
) -> PyResult<u64> {
    let pos = input::position(variant, fen)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(ransom_error)?;
    Ok(py.detach(move || {
        pool.install(|| {
            dispatch!(pos, p => ransom::perft::PerftReport::count(&p, depth, false, false).nodes)
        })
    }))
}
