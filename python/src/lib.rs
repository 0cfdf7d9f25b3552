//! The native half of the `ransom` Python package (`ransom._native`).
//!
//! Each function takes plain values (a variant name, a FEN, moves as text,
//! budgets), runs the library, and returns plain values or the library's
//! JSON reports as text; the Python half (`ransom/__init__.py`) turns them
//! into typed objects and python-chess moves. Long searches run on a
//! thread of their own without the GIL and stop at Ctrl-C
//! ([`interrupt::run_interruptible`]).

mod errors;
mod files;
mod input;
mod interrupt;
mod mate;
mod moves;
mod prove;
mod tablebase;

use pyo3::prelude::*;

/// The module `ransom._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RansomError", m.py().get_type::<errors::RansomError>())?;
    m.add_function(wrap_pyfunction!(moves::variants, m)?)?;
    m.add_function(wrap_pyfunction!(moves::same_variant, m)?)?;
    m.add_function(wrap_pyfunction!(moves::position, m)?)?;
    m.add_function(wrap_pyfunction!(moves::legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(moves::perft, m)?)?;
    m.add_function(wrap_pyfunction!(prove::prove, m)?)?;
    m.add_function(wrap_pyfunction!(mate::mate, m)?)?;
    m.add_function(wrap_pyfunction!(files::verify, m)?)?;
    m.add_function(wrap_pyfunction!(files::read_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(files::export_puzzles, m)?)?;
    m.add_class::<tablebase::Tablebase>()?;
    Ok(())
}
