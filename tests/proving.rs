//! The prove runs as library calls (`ransom::proving`), in-process: a
//! line proved over a store with its typed report, then the batch-proof
//! protocol without make or the binary: a plan, its jobs run into shards,
//! the shards merged, the plan's status, and the line finished from the
//! merged store. (tests/prove_plan.rs runs the same through the binary and
//! the generated Makefile, Slurm and Kubernetes files.)

mod common;

use ransom::Position;
use ransom::proving::{
    Line, Outputs, PlanOptions, PlanWritten, Quiet, merge_into_store, plan_line, prove_line,
    run_job, store_stats,
};
use ransom::search::Verdict;
use ransom::variants::Antichess;

/// A Black win (1.b4 c5 2.bxc5 f5 3.Nf3) that one process settles with
/// about 10^6 nodes in leaf searches of 1,000 nodes.
const LINE: [&str; 5] = ["b4", "c5", "bxc5", "f5", "Nf3"];

fn line() -> Line<Antichess> {
    let moves: Vec<String> = LINE.iter().map(|m| m.to_string()).collect();
    Line::play(Antichess::start(), &moves).unwrap()
}

#[test]
fn a_line_is_proved_with_a_typed_report_that_prints_as_the_command_does() {
    let dir = common::fresh_dir("proving", "line");
    let outputs = Outputs {
        proof: Some(dir.join("line.proof")),
        pgn: None,
    };
    let report = prove_line(
        &line(),
        &common::prove_options(Some(&dir.join("s"))),
        &outputs,
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(report.result, Verdict::Win.name());
    assert_eq!(report.winner, Some("black"));
    assert!(report.verified && report.proof_positions.unwrap() > 0);
    assert!(
        report.store.positions > 0,
        "the store keeps what it settled"
    );
    let json = serde_json::to_value(&report).unwrap();
    for key in [
        "result",
        "winner",
        "proof_positions",
        "store_positions",
        "guide",
        "notes",
    ] {
        assert!(json.get(key).is_some(), "{key}: {json}");
    }
    let text = report.to_string();
    assert!(
        text.contains("result: win for the side to move: black wins (proved and verified)"),
        "{text}"
    );
    assert!(dir.join("line.proof").is_file());
    let checked = ransom::search::proof::verify_file(&dir.join("line.proof")).unwrap();
    assert_eq!(checked.meta.winner, "black");
}

#[test]
fn a_plan_run_job_by_job_and_merged_finishes_the_line() {
    let dir = common::fresh_dir("proving", "plan");
    let store = dir.join("s");
    let jobs = dir.join("jobs");
    let plan = PlanOptions {
        dir: jobs.clone(),
        split: 3,
        job_nodes: 100_000,
        job_time: None,
    };
    let mut planning = common::prove_options(Some(&store));
    planning.config.budget.max_nodes = 20_000;
    let written = plan_line(&line(), &planning, &plan, &mut Quiet).unwrap();
    let PlanWritten::Written { plan: listing, .. } = &written else {
        panic!("settled while planning: {written}");
    };
    assert!(
        !listing.jobs.is_empty() && listing.jobs.len() <= 3,
        "{written}"
    );
    assert!(written.to_string().starts_with("plan: "), "{written}");
    assert!(jobs.join("Makefile").is_file() && jobs.join("plan.json").is_file());

    let stats = store_stats(&store, None, Some(&jobs)).unwrap();
    assert_eq!(stats.plan.as_ref().unwrap().missing, listing.jobs.len());

    let mut shards = Vec::new();
    for entry in &listing.jobs {
        let shard = jobs.join(&entry.shard);
        let report = run_job(
            &jobs.join(&entry.file),
            &shard,
            &common::prove_options(Some(&store)),
            &mut Quiet,
        )
        .unwrap();
        assert_eq!(report.outcome.id, entry.id);
        assert!(report.to_string().starts_with(&entry.id), "{report}");
        shards.push(shard);
    }
    let merged = merge_into_store(
        &store,
        ransom::Variant::Antichess,
        &shards,
        false,
        Some(&jobs),
    )
    .unwrap();
    assert!(!merged.failed(), "{merged}");
    assert!(merged.positions_after >= merged.positions_before);
    let status = store_stats(&store, None, Some(&jobs))
        .unwrap()
        .plan
        .unwrap();
    assert_eq!(status.missing + status.unmerged, 0, "{status}");

    let finished = prove_line(
        &line(),
        &common::prove_options(Some(&store)),
        &Outputs::none(),
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(finished.winner, Some("black"));
    assert!(
        finished.verified && finished.resumed,
        "the plan's tree was continued"
    );
}
