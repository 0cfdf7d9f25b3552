//! Positions from what Python passes: a variant name, a FEN (or the
//! start position) and moves in SAN or UCI.

use crate::errors::ransom_error;
use pyo3::prelude::*;
use ransom::{AnyPosition, Variant};
use std::time::Duration;

/// The variant named `name` (any name or alias the command line takes).
pub fn variant(name: &str) -> PyResult<Variant> {
    name.parse().map_err(ransom_error)
}

/// The position `fen` of `variant` (its start position without one).
pub fn position(variant_name: &str, fen: Option<&str>) -> PyResult<AnyPosition> {
    let variant = variant(variant_name)?;
    match fen {
        None => Ok(AnyPosition::start(variant)),
        Some(text) => {
            let setup = ransom::notation::fen::parse(text).map_err(ransom_error)?;
            AnyPosition::from_setup(variant, &setup).map_err(ransom_error)
        }
    }
}

/// A time budget in seconds, checked.
pub fn seconds(value: Option<f64>) -> PyResult<Option<Duration>> {
    value
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    ransom_error(format!(
                        "max_time must be a positive number of seconds, not {s}"
                    ))
                })
        })
        .transpose()
}
