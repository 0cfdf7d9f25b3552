//! `ransom prove --job FILE --store-shard DIR`: settles one job of a plan
//! into its own shard: the positions it settled and, if it did not settle
//! its own, its outer tree (which `store merge` hands to the store, and
//! the next job on that position resumes). Nothing else is written (no
//! proof file, nothing in the store it reads), so a job can run anywhere,
//! in any order, more than once.

use super::jobs::{self, Job, JobOutcome, JobResult};
use super::prove_run::{ProveArgsOwned, exit_code, interrupted, on_big_stack};
use ransom::notation::{fen, parse_move};
use ransom::search::scale::{checkpoint, prove_at_scale};
use ransom::search::{Pn, Verdict};
use ransom::solved::{self, SolvedStore, batch, packed, shard};
use ransom::{AnyPosition, Position, dispatch};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// Reads the job at `file` and runs it into `shard`.
pub(super) fn run(file: &Path, shard: &Path, mut args: ProveArgsOwned) -> anyhow::Result<ExitCode> {
    let job: Job = jobs::read_json(file, "job file")?;
    let bad = |problem: String| anyhow::anyhow!("{}: {problem}", file.display());
    if job.format != jobs::JOB_FORMAT {
        return Err(bad(format!(
            "not a job file (format '{}', expected '{}')",
            job.format,
            jobs::JOB_FORMAT
        )));
    }
    let variant = job.variant;
    let setup = fen::parse(&job.start_fen).map_err(|e| bad(format!("start_fen: {e}")))?;
    let start = AnyPosition::from_setup(variant, &setup).map_err(|e| bad(format!("{e}")))?;
    args.config.attacker = Some(job.attacker);
    if args.config.budget.max_nodes == u64::MAX {
        args.config.budget.max_nodes = job.max_nodes;
    }
    if args.config.budget.max_time.is_none() {
        args.config.budget.max_time = job.max_time.map(Duration::from_secs_f64);
    }
    args.config.leaf_nodes = job.leaf_nodes.max(1);
    let file = file.to_path_buf();
    let shard = shard.to_path_buf();
    on_big_stack(move || dispatch!(start, p => run_job(p, &job, &file, &shard, &args)))
}

/// Plays the job's moves from `start`, checks that they reach the job's
/// position, searches it and writes the shard.
fn run_job<P: Position>(
    start: P,
    job: &Job,
    file: &Path,
    shard: &Path,
    args: &ProveArgsOwned,
) -> anyhow::Result<ExitCode> {
    let guided = args.with_book::<P>()?;
    let args = guided.as_ref().unwrap_or(args);
    let mut pos = start;
    for (i, text) in job.root_moves.iter().chain(&job.moves).enumerate() {
        let m = parse_move(&pos, text)
            .map_err(|e| anyhow::anyhow!("{}: move {} ('{text}'): {e}", file.display(), i + 1))?;
        pos.play_unchecked(m);
    }
    if fen::write(&pos) != job.fen || format!("{:016x}", pos.zobrist()) != job.key {
        anyhow::bail!(
            "{}: the moves lead to {}, not to the job's position {}",
            file.display(),
            fen::write(&pos),
            job.fen
        );
    }
    if !packed::supported::<P>() {
        anyhow::bail!(
            "{}: the store keeps no {} positions, so a job has nothing to hand back",
            file.display(),
            P::VARIANT.name()
        );
    }
    shard::check_target(shard, P::VARIANT)?;
    // What a run killed in its search left; the earlier run's table and
    // tree stay until this run's table replaces them.
    shard::clear_staged(shard, P::VARIANT)?;
    let attacker = args.config.attacker.unwrap_or(pos.turn());
    let tree = checkpoint::file_name(pos.zobrist(), attacker);
    let staged = shard::staged_checkpoints(shard, P::VARIANT);
    let base = args.store.as_deref().filter(|_| args.store_given);
    let store_tree = base.map(|b| {
        solved::variant_dir(b, P::VARIANT)
            .join(solved::CHECKPOINTS_DIR)
            .join(&tree)
    });
    let remove_hint = |path: &Path| {
        format!(
            "(the outer tree an earlier job left in the store for this position: remove {} and the job starts afresh without it)",
            path.display()
        )
    };
    let store = SolvedStore::for_job(
        base,
        P::VARIANT,
        args.store_memory,
        Some((&tree, &staged)),
        args.store_wait,
    )
    .map_err(|e| match &store_tree {
        Some(path) if Path::new(e.path()) == path.as_path() => {
            anyhow::anyhow!("{e}\n{}", remove_hint(path))
        }
        _ => anyhow::anyhow!(
            "{e}\n(a job reads the store given by --store; leave it out to start from nothing)"
        ),
    })?;
    let mut display = args.progress_display();
    let oracle = args.leaf_oracle::<P>()?;
    let scale = prove_at_scale(
        &pos,
        &store,
        oracle.as_deref(),
        &args.config,
        &mut |status| display.update(status),
    )
    .map_err(|e| {
        // The search loads the tree copied from the store whole (its
        // header must name the job's position and side): damage the
        // copy's checksum missed names the store's file, not the copy.
        let staged_tree = staged.join(&tree);
        match &store_tree {
            Some(path) if Path::new(e.path()) == staged_tree.as_path() => {
                let _ = shard::clear_staged(shard, P::VARIANT);
                anyhow::anyhow!("{}: {}\n{}", path.display(), e.problem(), remove_hint(path))
            }
            _ => anyhow::anyhow!(e),
        }
    })?;
    display.finish();
    let report = scale.report;
    let mut records = store.take_added();
    let disproved = report.verdict == Verdict::Unknown && scale.root_numbers.1 == Pn::ZERO;
    if disproved {
        records.extend(batch::root_disproof_record(&pos, attacker, report.nodes));
    }
    let positions = shard::write_shard(shard, P::VARIANT, &records)?;
    if report.verdict == Verdict::Unknown && !disproved {
        shard::publish_checkpoints(shard, P::VARIANT)?;
    } else {
        // Settled: the shard's records say so, the tree is not needed.
        shard::clear_staged(shard, P::VARIANT)?;
    }
    let result = match report.verdict {
        Verdict::Win | Verdict::Loss => JobResult::Proved,
        Verdict::Unknown if disproved => JobResult::Disproved,
        Verdict::Unknown => JobResult::Unknown,
    };
    let outcome = JobOutcome {
        id: job.id.clone(),
        result,
        nodes: report.nodes,
        seconds: report.elapsed.as_secs_f64(),
        positions,
        pn: scale.root_numbers.0.get(),
        dn: scale.root_numbers.1.get(),
        earlier_nodes: scale.earlier_nodes,
        key: job.key.clone(),
        attacker: Some(job.attacker),
    };
    jobs::write_json(&jobs::outcome_path(shard), &outcome)?;
    if args.json {
        let mut out = serde_json::to_value(&outcome)?;
        out["shard"] = shard.display().to_string().into();
        out["verified"] = report.verified.is_some().into();
        out["interrupted"] = interrupted().into();
        out["notes"] = report.notes.clone().into();
        outln!("{out}")?;
    } else {
        outln!(
            "{}: {result} ({} to win in {}), {} nodes{} in {:.1} s, pn {} dn {}; shard {}: {positions} positions{}",
            job.id,
            job.attacker.name(),
            job.fen,
            outcome.nodes,
            if scale.resumed {
                format!(
                    " (resuming the outer tree of {} nodes of earlier jobs)",
                    outcome.earlier_nodes
                )
            } else {
                String::new()
            },
            outcome.seconds,
            outcome.pn,
            outcome.dn,
            shard.display(),
            if interrupted() { " (interrupted)" } else { "" }
        )?;
        for note in &report.notes {
            outln!("note: {note}")?;
        }
    }
    Ok(exit_code(result.settled()))
}
