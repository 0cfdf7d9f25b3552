//! `ransom verify`: re-checks a proof file with the independent verifier.

use ransom::search::proof::{ProofFileReport, verify_file};
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
            let report = ProofFileReport::from(&checked);
            super::print_report(&report, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if json {
                let error = serde_json::json!({"code": "invalid-proof", "message": e.to_string()});
                outln!("{}", serde_json::json!({"ok": false, "error": error}))?;
            } else {
                errln!("FAILED: {e}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
