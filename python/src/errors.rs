//! The package's exception and the conversion of library errors into it.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    _native,
    RansomError,
    PyValueError,
    "An error of ransom: bad input (variant, FEN, move, file) or a failed search, with the message the command line gives."
);

/// `error`'s message as a [`RansomError`].
pub fn ransom_error(error: impl std::fmt::Display) -> PyErr {
    RansomError::new_err(error.to_string())
}
