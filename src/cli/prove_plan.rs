//! `ransom prove … --plan JOBS --split N`: the plan is the library's
//! ([`ransom::proving::plan_line`]); this prints it and how to run it.

use super::prove_progress::ProgressDisplay;
use super::prove_run::{Printing, exit_code, explained};
use ransom::Position;
use ransom::proving::{Line, PlanOptions, PlanWritten, ProveOptions, plan_line};
use std::process::ExitCode;

/// Plans the search of the end of `line` into `plan.dir` and prints the plan.
pub(super) fn plan<P: Position>(
    line: &Line<P>,
    options: &ProveOptions,
    plan: &PlanOptions,
    printing: Printing,
    mut display: ProgressDisplay,
) -> anyhow::Result<ExitCode> {
    let written = plan_line(line, options, plan, &mut display).map_err(explained)?;
    if let PlanWritten::Settled { .. } = written {
        out!("{written}")?;
        return Ok(ExitCode::SUCCESS);
    }
    printing.print(&written)?;
    if !printing.json {
        outln!(
            "run them: make -C {} -j N RANSOM={} (or slurm-array.sbatch, kubernetes-indexed-job.yaml there)",
            plan.dir.display(),
            std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "ransom".into())
        )?;
        outln!(
            "then: the same prove command without --plan continues from the merged store (or --plan a next round)"
        )?;
    }
    Ok(exit_code(false))
}
