//! `ransom prove … --plan JOBS --split N`: grows the outer tree of the
//! search (resuming its checkpoint in the store) until it offers N open
//! positions worth searching, and writes one batch job for each.

use super::jobs::{self, Job, Plan, PlanEntry};
use super::prove_progress::ProgressDisplay;
use super::prove_run::{PlanOptions, ProveArgsOwned, exit_code};
use ransom::Position;
use ransom::notation::{fen, san, uci};
use ransom::search::oracle::Oracle;
use ransom::search::scale::plan_at_scale;
use ransom::solved::SolvedStore;
use std::process::ExitCode;

/// The position being planned and how it was reached.
pub(super) struct Root<'a, P> {
    /// The position.
    pub pos: &'a P,
    /// The position the moves start from.
    pub start_fen: &'a str,
    /// The moves (UCI) to the position.
    pub line_uci: &'a [String],
}

/// Plans the search of `root` into `options.dir`.
pub(super) fn plan<P: Position>(
    root: Root<'_, P>,
    options: &PlanOptions,
    args: &ProveArgsOwned,
    store: &SolvedStore,
    oracle: Option<&dyn Oracle<P>>,
    mut display: ProgressDisplay,
) -> anyhow::Result<ExitCode> {
    let Some(store_dir) = store.dir() else {
        anyhow::bail!(
            "--plan needs the store on disk (the plan's outer tree and the merged shards live there)"
        );
    };
    if options.dir.join("plan.json").exists() {
        anyhow::bail!(
            "{}: this folder already holds a plan; give each round a folder of its own",
            options.dir.display()
        );
    }
    let attacker = root.pos.turn();
    let report = plan_at_scale(
        root.pos,
        attacker,
        options.split,
        store,
        oracle,
        &args.config,
        &mut |status| display.update(status),
    )?;
    display.finish();
    let root_fen = fen::write(root.pos);
    if let Some(wins) = report.settled {
        let what = if wins {
            format!("{} wins", attacker.name())
        } else {
            format!("{} has no forced win", attacker.name())
        };
        outln!(
            "settled while planning: {what}; no jobs written (run the same prove without --plan for the verified result)"
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if report.leaves.is_empty() {
        anyhow::bail!("the budget ended before the outer tree had an open position to hand out");
    }
    // The store's path as every job will see it: absolute.
    let store_root = std::path::absolute(
        store_dir
            .parent()
            .ok_or_else(|| anyhow::anyhow!("{}: no store root", store_dir.display()))?,
    )?;
    let mut job_files = Vec::new();
    let mut entries = Vec::new();
    for (i, leaf) in report.leaves.iter().enumerate() {
        let id = jobs::job_id(i);
        let mut at = root.pos.clone();
        let mut line_san = Vec::new();
        for &mv in &leaf.line {
            line_san.push(san::write(&at, mv));
            at.play_unchecked(mv);
        }
        let key = format!("{:016x}", leaf.pos.zobrist());
        let leaf_fen = fen::write(&leaf.pos);
        job_files.push(Job {
            format: jobs::JOB_FORMAT.into(),
            id: id.clone(),
            variant: P::VARIANT,
            start_fen: root.start_fen.into(),
            root_moves: root.line_uci.to_vec(),
            moves: leaf.line.iter().map(|&m| uci::write(m)).collect(),
            fen: leaf_fen.clone(),
            key: key.clone(),
            attacker,
            max_nodes: options.job_nodes,
            max_time: options.job_time,
            leaf_nodes: args.config.leaf_nodes,
            pn: leaf.numbers.0.get(),
            dn: leaf.numbers.1.get(),
        });
        entries.push(PlanEntry {
            file: format!("{id}.json"),
            shard: format!("{}/{id}", jobs::SHARDS),
            id,
            key,
            line: line_san,
            fen: leaf_fen,
            pn: leaf.numbers.0.get(),
            dn: leaf.numbers.1.get(),
        });
    }
    let plan = Plan {
        format: jobs::PLAN_FORMAT.into(),
        variant: P::VARIANT,
        root_fen: root_fen.clone(),
        root_moves: root.line_uci.to_vec(),
        attacker,
        store: store_root.display().to_string(),
        store_id: Some(ransom::solved::ensure_store_id(store_dir)?),
        root_pn: report.root_numbers.0.get(),
        root_dn: report.root_numbers.1.get(),
        jobs: entries,
    };
    jobs::write_plan(&options.dir, &plan, &job_files)?;
    if args.json {
        let mut out = serde_json::to_value(&plan)?;
        out["dir"] = options.dir.display().to_string().into();
        out["nodes"] = report.nodes.into();
        out["earlier_nodes"] = report.earlier_nodes.into();
        out["outer_nodes"] = report.outer_nodes.into();
        out["resumed"] = report.resumed.into();
        out["checkpoint"] = report
            .checkpoint
            .as_ref()
            .map(|p| p.display().to_string())
            .into();
        outln!("{out}")?;
        return Ok(exit_code(false));
    }
    outln!(
        "plan: {} jobs in {} ({} to win in {root_fen}; root pn {} dn {}, outer tree {} nodes, {} nodes searched{})",
        job_files.len(),
        options.dir.display(),
        attacker.name(),
        plan.root_pn,
        plan.root_dn,
        report.outer_nodes,
        report.nodes,
        if report.resumed {
            format!(", {} in earlier runs", report.earlier_nodes)
        } else {
            String::new()
        }
    )?;
    if job_files.len() < options.split {
        outln!(
            "note: {} jobs asked for, {} open positions when the budget ended",
            options.split,
            job_files.len()
        )?;
    }
    outln!(
        "run them: make -C {} -j N RANSOM={} (or slurm-array.sbatch, kubernetes-indexed-job.yaml there)",
        options.dir.display(),
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "ransom".into())
    )?;
    outln!(
        "then: the same prove command without --plan continues from the merged store (or --plan a next round)"
    )?;
    Ok(exit_code(false))
}
