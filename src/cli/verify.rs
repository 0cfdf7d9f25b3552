//! `ransom verify`: re-checks a proof file with the independent verifier.

use super::checks::{counted, reached_by};
use ransom::search::proof::verify_file;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The proof file.
    proof: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let path = args.proof.clone();
    let json = args.json;
    let result = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || verify_file(&path))?
        .join()
        .map_err(|_| anyhow::anyhow!("the verifier thread panicked"))?;
    match result {
        Ok(checked) => {
            if json {
                let out = serde_json::json!({
                    "ok": true, "variant": checked.variant.name(), "root_fen": checked.meta.root_fen,
                    "winner": checked.meta.winner, "line": checked.meta.line,
                    "positions": checked.verified.positions, "winner_moves": checked.verified.winner_moves,
                    "depth": checked.verified.depth, "stored_moves": checked.stored_moves,
                });
                outln!("{out}")?;
            } else {
                outln!(
                    "OK: {} wins in {} ({}): {}, {} used of {} stored, longest line {}",
                    checked.meta.winner,
                    checked.meta.root_fen,
                    reached_by(checked.variant, &checked.meta.start_fen, &checked.meta.line),
                    counted(checked.verified.positions, "position", "positions"),
                    counted(checked.verified.winner_moves, "winner move", "winner moves"),
                    checked.stored_moves,
                    counted(checked.verified.depth as u64, "ply", "plies")
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if json {
                outln!(
                    "{}",
                    serde_json::json!({"ok": false, "error": {"code": "invalid-proof", "message": e.to_string()}})
                )?;
            } else {
                errln!("FAILED: {e}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
