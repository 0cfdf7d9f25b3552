//! `ransom prove --job FILE --store-shard DIR`: the job is the library's
//! ([`ransom::proving::run_job`]); this runs it on the prover's thread and
//! prints what it did.

use super::prove_run::{Printing, exit_code, explained, on_big_stack};
use ransom::proving::{ProveOptions, run_job};
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs the job at `file` into `shard`.
pub(super) fn run(
    file: PathBuf,
    shard: PathBuf,
    options: ProveOptions,
    printing: Printing,
) -> anyhow::Result<ExitCode> {
    on_big_stack(move || {
        let mut display = printing.progress_display();
        let report = run_job(&file, &shard, &options, &mut display).map_err(explained)?;
        printing.print(&report)?;
        Ok(exit_code(report.outcome.result.settled()))
    })
}
