//! Endgame tables of Losing chess, probed like python-chess's
//! `chess.syzygy.Tablebase`: a position no table covers is a `KeyError`.

use crate::errors::ransom_error;
use pyo3::exceptions::{PyFileNotFoundError, PyKeyError};
use pyo3::prelude::*;
use ransom::Variant;
use ransom::notation::fen;
use ransom::tablebase::{Tablebase as Tables, TbError, Wdl};
use ransom::variants::{Fics, International, LosingRules};
use std::path::PathBuf;

/// The tables of one folder, for antichess (international rules) or
/// suicide (FICS rules).
enum Rules {
    International(Tables<International>),
    Fics(Tables<Fics>),
}

/// A folder of ransom's Losing-chess tables (built with `ransom tb build`).
#[pyclass(module = "ransom._native", frozen)]
pub struct Tablebase {
    tables: Rules,
    dir: PathBuf,
    variant: Variant,
}

#[pymethods]
impl Tablebase {
    /// Opens the tables of `directory` for `variant` (antichess or suicide).
    #[new]
    #[pyo3(signature = (directory, variant="antichess"))]
    fn new(directory: PathBuf, variant: &str) -> PyResult<Tablebase> {
        if !directory.is_dir() {
            return Err(PyFileNotFoundError::new_err(format!(
                "{}: no such folder of tables",
                directory.display()
            )));
        }
        let variant = crate::input::variant(variant)?;
        let tables = match variant {
            Variant::Antichess => Rules::International(Tables::open(&directory)),
            Variant::Suicide => Rules::Fics(Tables::open(&directory)),
            other => {
                return Err(ransom_error(format!(
                    "tables are for antichess and suicide, not {}",
                    other.name()
                )));
            }
        };
        Ok(Tablebase {
            tables,
            dir: directory,
            variant,
        })
    }

    /// The folder.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// `(wdl, dtw)` of the position `fen`: wdl 2 (the side to move wins),
    /// 0 (draw) or -2 (loses); dtw the plies to the end with best play,
    /// signed like wdl (0 for a draw). `KeyError` where no table covers the
    /// position; `RansomError` for a bad FEN or a damaged table.
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<(i32, i32)> {
        let text = fen.to_string();
        py.detach(move || match &self.tables {
            Rules::International(t) => probe_in(t, &text),
            Rules::Fics(t) => probe_in(t, &text),
        })
    }
}

fn probe_in<R: LosingRules>(tables: &Tables<R>, text: &str) -> PyResult<(i32, i32)> {
    let pos = fen::parse_position(text).map_err(ransom_error)?;
    match tables.try_probe(&pos) {
        Ok((Wdl::Win, d)) => Ok((2, i32::from(d))),
        Ok((Wdl::Loss, d)) => Ok((-2, -i32::from(d))),
        Ok((Wdl::Draw, _)) => Ok((0, 0)),
        Err(e @ (TbError::MissingTable { .. } | TbError::NotCovered(_))) => {
            Err(PyKeyError::new_err(e.to_string()))
        }
        Err(e) => Err(ransom_error(e)),
    }
}
