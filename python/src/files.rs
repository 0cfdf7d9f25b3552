//! Files: proofs re-checked by the verifier, puzzle sets read and exported.

use crate::errors::ransom_error;
use pyo3::prelude::*;
use ransom::puzzles::{ExportFormat, PuzzleFile, export_set};
use ransom::search::proof::{ProofFileReport, verify_file};
use std::path::PathBuf;

/// Re-checks a proof file with the independent verifier; its report as
/// JSON text, or `RansomError` naming what is wrong. The verifier is not
/// stopped by Ctrl-C: `KeyboardInterrupt` comes when it has finished.
#[pyfunction]
pub fn verify(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    let finished = crate::interrupt::run_interruptible(py, move |_| {
        let checked = verify_file(&path).map_err(ransom_error)?;
        serde_json::to_string(&ProofFileReport::from(&checked)).map_err(ransom_error)
    })?;
    match finished.interrupted {
        Some(signal) => Err(signal),
        None => finished.result,
    }
}

/// The puzzles of an EPD or JSON-lines file as JSON text: `{variant,
/// puzzles: [...]}`.
#[pyfunction]
#[pyo3(signature = (path, variant=None))]
pub fn read_puzzles(path: PathBuf, variant: Option<&str>) -> PyResult<String> {
    let variant = variant.map(crate::input::variant).transpose()?;
    let file = PuzzleFile::read(&path, variant).map_err(ransom_error)?;
    let json = serde_json::json!({
        "variant": file.variant.name(),
        "puzzles": file.puzzles,
    });
    Ok(json.to_string())
}

/// An exported set: its text, the puzzles written, and each puzzle left
/// out with why.
type ExportedText = (String, usize, Vec<(String, String)>);

/// A puzzle set written as Lichess's CSV (`format="lichess"`) or EPD
/// (`format="epd"`): `(text, written, [(id, why left out)])`.
#[pyfunction]
#[pyo3(signature = (path, format, variant=None))]
pub fn export_puzzles(
    path: PathBuf,
    format: &str,
    variant: Option<&str>,
) -> PyResult<ExportedText> {
    let format = match format {
        "lichess" | "csv" => ExportFormat::LichessCsv,
        "epd" => ExportFormat::Epd,
        other => {
            return Err(ransom_error(format!(
                "unknown puzzle format '{other}' (expected lichess or epd)"
            )));
        }
    };
    let variant = variant.map(crate::input::variant).transpose()?;
    let file = PuzzleFile::read(&path, variant).map_err(ransom_error)?;
    let exported = export_set(&file, format).map_err(ransom_error)?;
    Ok((exported.text, exported.written, exported.left_out))
}
