//! `tb probe --syzygy DIR`: a position's value from Syzygy giveaway tables
//! (antichess rules), beside the categories of this project's rules. Only
//! in a binary built with `--features syzygy`; otherwise the flag is
//! refused with the way to get it.

use std::path::Path;
use std::process::ExitCode;

/// Probes `text` (antichess FEN) in the Syzygy tables of `dir`.
#[cfg(feature = "syzygy")]
pub fn probe(dir: &Path, text: &str, json: bool) -> anyhow::Result<ExitCode> {
    use ransom::notation::fen;
    use ransom::tablebase::syzygy::SyzygyTables;
    use ransom::variants::{International, Losing};
    let pos: Losing<International> = fen::parse_position(text)?;
    let tables = SyzygyTables::open(dir).map_err(|e| anyhow::anyhow!(e))?;
    let wdl = tables.probe_wdl(&pos)?;
    let (dtz, rounded) = tables.probe_dtz(&pos)?;
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "category": wdl.category().name(),
                "syzygy_wdl": wdl.name(),
                "dtz": dtz,
                "dtz_rounded": rounded,
                "source": "syzygy",
            })
        )?;
    } else {
        outln!("fen: {}", fen::write(&pos))?;
        outln!(
            "{} for the side to move (Syzygy: {}; no 50-move rule here), dtz {dtz}{}",
            wdl.category().name(),
            wdl.name(),
            if rounded { " (may be 1 ply off)" } else { "" }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Without the feature: the flag is refused, saying how to build it in.
#[cfg(not(feature = "syzygy"))]
pub fn probe(_dir: &Path, _text: &str, _json: bool) -> anyhow::Result<ExitCode> {
    Err(ransom::tablebase::SyzygyError::NotBuiltIn.into())
}
