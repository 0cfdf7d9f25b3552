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
use std::sync::RwLock;

/// The tables of one folder, for antichess (international rules) or
/// suicide (FICS rules).
enum Rules {
    International(Tables<International>),
    Fics(Tables<Fics>),
}

/// A folder of ransom's Losing-chess tables (built with `ransom tb build`).
#[pyclass(module = "ransom._native", frozen)]
pub struct Tablebase {
    /// The tables; `None` once closed (their files are then unmapped).
    tables: RwLock<Option<Rules>>,
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
            tables: RwLock::new(Some(tables)),
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
    /// `KeyError` as well once the tables are closed (as python-chess's
    /// closed tables answer).
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<(i32, i32)> {
        let text = fen.to_string();
        py.detach(move || {
            let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
            match tables.as_ref() {
                Some(Rules::International(t)) => probe_in(t, &text),
                Some(Rules::Fics(t)) => probe_in(t, &text),
                None => Err(PyKeyError::new_err(format!(
                    "the tables of {} are closed",
                    self.dir.display()
                ))),
            }
        })
    }

    /// Closes the tables: the files opened by probes are unmapped and
    /// closed now, not when the object is collected. Later probes raise
    /// `KeyError`. Closing twice does nothing.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
            *tables = None;
        })
    }

    /// Whether [`Tablebase::close`] was called.
    #[getter]
    fn closed(&self) -> bool {
        self.tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
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
