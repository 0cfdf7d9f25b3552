//! A proof split over batch jobs (docs/prover.md, "Many machines"): `prove
//! --plan` writes the jobs, `make -j2` runs them from the generated
//! Makefile, `store merge` folds their shards into the store, and `prove`
//! finishes the root from the merged store with a proof that verifies.
//! Also: a job killed and run again, a damaged shard, a job's outer tree
//! handed through the store to the next job on its position, the Slurm
//! and Kubernetes files run as their schedulers would run them.

mod common;

use common::run_ransom as ransom;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A Black win (1.b4 c5 2.bxc5 f5 3.Nf3) that one process settles with
/// about 10^6 nodes in leaf searches of 1,000 nodes.
const LINE: &[&str] = &["b4", "c5", "bxc5", "f5", "Nf3"];
/// An open line, for a job that runs until it is killed.
const OPEN: &[&str] = &["b4", "c5"];
const LEAF: &str = "1000";

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn prove(extra: &[&str], dir: &Path) -> serde_json::Value {
    prove_line(LINE, extra, dir)
}

fn prove_line(line: &[&str], extra: &[&str], dir: &Path) -> serde_json::Value {
    let mut args = vec!["prove"];
    args.extend_from_slice(line);
    args.extend_from_slice(&["--json", "--threads", "1", "--leaf-nodes", LEAF]);
    args.extend_from_slice(extra);
    let (code, out, err) = ransom(&args, dir);
    assert_eq!(code, 0, "{err}");
    json(&out)
}

/// Writes a plan of `split` jobs of `job_nodes` nodes each into `dir/jobs`,
/// over the store `dir/s`.
fn plan(dir: &Path, split: &str, job_nodes: &str) -> serde_json::Value {
    plan_line(LINE, dir, split, job_nodes)
}

fn plan_line(line: &[&str], dir: &Path, split: &str, job_nodes: &str) -> serde_json::Value {
    prove_line(
        line,
        &[
            "--store",
            "s",
            "--plan",
            "jobs",
            "--split",
            split,
            "--job-nodes",
            job_nodes,
        ],
        dir,
    )
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_ransom")
}

/// PATH with the directory of the ransom binary first.
fn path_with_ransom() -> String {
    let bin_dir = Path::new(bin()).parent().unwrap();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn shard_table(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("jobs/shards/{id}/antichess/solved-000001.rst"))
}

#[test]
fn a_plan_run_by_make_merges_and_proves_the_same_result() {
    let dir = common::fresh_dir("plan", "make");
    let single = prove(&["--store", "single", "--no-write"], &dir);
    assert_eq!(single["result"], "win", "{single}");
    assert_eq!(single["winner"], "black");

    let planned = plan(&dir, "8", "200000");
    let jobs = planned["jobs"].as_array().unwrap();
    assert!(jobs.len() >= 8, "{planned}");
    for name in [
        "plan.json",
        "jobs.txt",
        "Makefile",
        "slurm-array.sbatch",
        "kubernetes-indexed-job.yaml",
        "job-0000.json",
        "job-0007.json",
    ] {
        assert!(dir.join("jobs").join(name).is_file(), "{name}");
    }
    let listing = std::fs::read_to_string(dir.join("jobs/jobs.txt")).unwrap();
    assert_eq!(
        listing.lines().filter(|l| l.starts_with("job-")).count(),
        jobs.len()
    );

    let (code, out, err) = ransom(&["store", "stats", "s", "--plan", "jobs", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["plan"]["missing"], jobs.len(), "{out}");

    let (ok, make_out, make_err) = make_jobs(&dir);
    assert!(ok, "{make_err}");
    assert!(make_out.contains("store merge"), "{make_out}");
    assert!(
        make_out.contains("after (rewritten as one table)"),
        "{make_out}"
    );

    let (code, out, err) = ransom(&["store", "stats", "s", "--plan", "jobs", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let status = &json(&out)["plan"];
    assert_eq!(status["missing"], 0, "{status}");
    assert_eq!(status["unmerged"], 0, "{status}");
    let settled = status["proved"].as_u64().unwrap() + status["disproved"].as_u64().unwrap();
    assert!(settled > 0, "some jobs settle their positions: {status}");
    // make again: every shard is there, only the (idempotent) merge runs.
    let (ok, again_out, _) = make_jobs(&dir);
    assert!(ok);
    assert!(
        !again_out.contains("--job"),
        "no job runs twice: {again_out}"
    );
    assert!(again_out.contains("nothing new: unchanged"), "{again_out}");

    let finished = prove(&["--store", "s", "--out", "line.proof"], &dir);
    assert_eq!(finished["result"], single["result"], "{finished}");
    assert_eq!(finished["winner"], single["winner"]);
    assert_eq!(finished["verified"], true);
    assert_eq!(
        finished["resumed"], true,
        "the plan's outer tree was continued"
    );
    let (code, out, err) = ransom(&["verify", "line.proof"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("OK: black wins"), "{out}");
    let (code, out, err) = ransom(&["store", "verify", "s", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}{out}");
}

#[test]
fn a_killed_job_run_again_merges_and_a_damaged_shard_is_refused() {
    let dir = common::fresh_dir("plan", "kill");
    let planned = plan_line(OPEN, &dir, "2", "20000");
    assert_eq!(planned["jobs"].as_array().unwrap().len(), 2, "{planned}");
    let job = |extra: &[&str]| {
        let mut args = vec![
            "prove",
            "--job",
            "jobs/job-0000.json",
            "--store-shard",
            "jobs/shards/job-0000",
            "--store",
            "s",
            "--json",
        ];
        args.extend_from_slice(extra);
        ransom(&args, &dir)
    };
    let (code, out, err) = job(&[]);
    assert_eq!(code, 0, "{err}");
    let first = json(&out);
    assert_eq!(first["id"], "job-0000");
    let table = shard_table(&dir, "job-0000");
    let before = std::fs::read(&table).unwrap();

    // Run it again with a large budget and kill it in mid-search: the
    // shard of the first run stays whole.
    let mut child = Command::new(bin())
        .args([
            "prove",
            "--job",
            "jobs/job-0000.json",
            "--store-shard",
            "jobs/shards/job-0000",
            "--max-nodes",
            "1000000000",
            "--leaf-nodes",
            "100000",
            "-q",
        ])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(&table).unwrap(),
        before,
        "the shard is replaced whole or not at all"
    );
    let (code, _, err) = job(&["--max-nodes", "30000"]);
    assert_eq!(code, 0, "{err}");

    let (code, out, err) = ransom(&["store", "merge", "s", "jobs/shards/job-0000"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("merged jobs/shards/job-0000"), "{out}");

    // A truncated shard is refused, named, and the store is unharmed.
    let (code, _, err) = ransom(
        &[
            "prove",
            "--job",
            "jobs/job-0001.json",
            "--store-shard",
            "jobs/shards/job-0001",
            "-q",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let damaged = shard_table(&dir, "job-0001");
    let bytes = std::fs::read(&damaged).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 7]).unwrap();
    let (code, out, err) = ransom(
        &[
            "store",
            "merge",
            "s",
            "jobs/shards/job-0001",
            "jobs/shards/job-0000",
            "--json",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("refused jobs/shards/job-0001") || err.contains("1 shard refused"),
        "{err}"
    );
    let report = json(&out);
    assert_eq!(report["shards"][0]["ok"], false);
    assert!(
        report["shards"][0]["error"]
            .as_str()
            .unwrap()
            .contains("job-0001"),
        "the error names the shard's file: {report}"
    );
    assert_eq!(report["shards"][1]["ok"], true);
    assert_eq!(report["shards"][1]["new"], 0, "merging twice adds nothing");
    let (code, out, err) = ransom(&["store", "verify", "s", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}{out}");

    // A missing shard is named too.
    let (code, _, err) = ransom(&["store", "merge", "s", "jobs/shards/job-0009"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("job-0009") && err.contains("not a shard"),
        "{err}"
    );
}

/// Runs the job `job_file` over the store `s` into `shard` with `extra`
/// options and `--json`; it must succeed.
fn run_job(dir: &Path, job_file: &str, shard: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "prove",
        "--job",
        job_file,
        "--store-shard",
        shard,
        "--store",
        "s",
        "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = ransom(&args, dir);
    assert_eq!(code, 0, "{err}");
    json(&out)
}

/// The checkpoint files in `dir` (none if it does not exist).
fn checkpoints_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ckpt"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_job_on_a_position_an_earlier_job_left_open_resumes_its_outer_tree() {
    let dir = common::fresh_dir("plan", "handover");
    plan_line(OPEN, &dir, "2", "20000");
    let job = |shard: &str| run_job(&dir, "jobs/job-0000.json", shard, &[]);
    let merge = |shard: &str| {
        let (code, out, err) = ransom(&["store", "merge", "s", shard, "--json"], &dir);
        (code, json(&out), err)
    };
    let store_checkpoints = dir.join("s/antichess/checkpoints");

    // Round 1: the job leaves its tree beside its shard, not in the store.
    let first = job("jobs/shards/r1");
    assert_ne!(first["result"], "proved", "the line is open: {first}");
    assert_eq!(first["earlier_nodes"], 0, "{first}");
    let left = checkpoints_in(&dir.join("jobs/shards/r1/antichess/checkpoints"));
    assert_eq!(left.len(), 1, "one outer tree: {left:?}");
    assert!(
        !dir.join("jobs/shards/r1/antichess/checkpoints.staged")
            .exists()
    );
    // (The store holds the plan's own tree, of the root.)
    assert!(!checkpoints_in(&store_checkpoints).contains(&left[0]));

    // The merge hands it to the store; the next job on the position
    // resumes it and carries its nodes on.
    let (code, merged, err) = merge("jobs/shards/r1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged["shards"][0]["outer_trees"], 1, "{merged}");
    assert!(checkpoints_in(&store_checkpoints).contains(&left[0]));
    let second = job("jobs/shards/r2");
    assert_eq!(second["earlier_nodes"], first["nodes"], "{second}");
    let (code, merged, err) = merge("jobs/shards/r2");
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged["shards"][0]["outer_trees"], 1, "{merged}");
    let (code, out, err) = ransom(&["store", "stats", "s", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    let stats = json(&out);
    let trees = stats["stores"][0]["checkpoints"].as_array().unwrap();
    let total = first["nodes"].as_u64().unwrap() + second["nodes"].as_u64().unwrap();
    assert!(
        trees.iter().any(|t| t["nodes"].as_u64() == Some(total)),
        "the store's tree carries both rounds' {total} nodes: {stats}"
    );

    // Merged again, the older tree does not replace the newer one.
    let (code, merged, err) = merge("jobs/shards/r1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged["shards"][0]["outer_trees"], 0, "{merged}");
    assert_eq!(merged["shards"][0]["outer_trees_older"], 1, "{merged}");

    // A job that settles its position leaves no tree: its shard says it.
    let settled = run_job(&dir, "jobs/job-0001.json", "jobs/shards/settled", &[]);
    assert_ne!(settled["result"], "unknown", "{settled}");
    assert!(checkpoints_in(&dir.join("jobs/shards/settled/antichess/checkpoints")).is_empty());
    assert!(
        !dir.join("jobs/shards/settled/antichess/checkpoints.staged")
            .exists()
    );
    // A tree the store held of that position (as if an earlier round had
    // left it open) is dropped by the merge.
    let job1 = json(&std::fs::read_to_string(dir.join("jobs/job-0001.json")).unwrap());
    let stale = store_checkpoints.join(format!(
        "{}-{}.ckpt",
        job1["key"].as_str().unwrap(),
        job1["attacker"].as_str().unwrap()
    ));
    std::fs::copy(store_checkpoints.join(&left[0]), &stale).unwrap();
    let (code, merged, err) = merge("jobs/shards/settled");
    assert_eq!(code, 0, "{err}{merged}");
    assert!(!stale.exists(), "the settled position's tree is dropped");
    assert!(store_checkpoints.join(&left[0]).exists());

    // A damaged tree is refused and named; the shard's positions merge.
    let third = job("jobs/shards/r3");
    assert_ne!(third["result"], "proved", "{third}");
    let tree = dir
        .join("jobs/shards/r3/antichess/checkpoints")
        .join(&left[0]);
    let bytes = std::fs::read(&tree).unwrap();
    std::fs::write(&tree, &bytes[..bytes.len() - 3]).unwrap();
    let (code, merged, err) = merge("jobs/shards/r3");
    assert_eq!(code, 1, "{merged}");
    assert_eq!(merged["shards"][0]["ok"], true, "{merged}");
    assert!(
        err.contains("refused the outer tree") && err.contains(&left[0]),
        "{err}"
    );
    let (code, out, err) = ransom(&["store", "verify", "s", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}{out}");

    // The same position with other move clocks (another move order, or
    // a later start) resumes the same tree.
    let mut moved = json(&std::fs::read_to_string(dir.join("jobs/job-0000.json")).unwrap());
    let later_clocks = |fen: &str, by: u32| {
        let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
        let last = fields.len() - 1;
        fields[last] = (fields[last].parse::<u32>().unwrap() + by).to_string();
        fields.join(" ")
    };
    moved["start_fen"] = later_clocks(moved["start_fen"].as_str().unwrap(), 6).into();
    moved["fen"] = later_clocks(moved["fen"].as_str().unwrap(), 6).into();
    std::fs::write(dir.join("jobs/job-clocks.json"), moved.to_string()).unwrap();
    let clocks = run_job(&dir, "jobs/job-clocks.json", "jobs/shards/clocks", &[]);
    assert_eq!(clocks["earlier_nodes"].as_u64(), Some(total), "{clocks}");

    // A store that shards were merged into is not taken for a shard.
    let (code, _, err) = ransom(&["store", "merge", "fresh", "jobs/shards/r1"], &dir);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = ransom(
        &[
            "prove",
            "--job",
            "jobs/job-0000.json",
            "--store-shard",
            "fresh",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("shards were merged into it"), "{err}");

    // A damaged tree in the store stops the next job on its position,
    // naming the file and what to do; the shard it was to replace keeps
    // its table and tree.
    let r2_tree = dir
        .join("jobs/shards/r2/antichess/checkpoints")
        .join(&left[0]);
    let r2_before = (
        std::fs::read(shard_table(&dir, "r2")).ok(),
        std::fs::read(&r2_tree).unwrap(),
    );
    let stored = store_checkpoints.join(&left[0]);
    let bytes = std::fs::read(&stored).unwrap();
    let job_in_r2 = || {
        ransom(
            &[
                "prove",
                "--job",
                "jobs/job-0000.json",
                "--store-shard",
                "jobs/shards/r2",
                "--store",
                "s",
            ],
            &dir,
        )
    };
    let remove_hint = format!(
        "remove {} and the job starts afresh",
        Path::new("s/antichess/checkpoints")
            .join(&left[0])
            .display()
    );
    // Issue 47.3: a tree whose checksum holds but whose full load fails
    // (here another position's tree under this position's name) names the
    // store's file, not the staged copy, and says how to go on.
    let other = checkpoints_in(&store_checkpoints)
        .into_iter()
        .find(|name| *name != left[0])
        .expect("the plan's own tree of the root");
    std::fs::copy(store_checkpoints.join(&other), &stored).unwrap();
    let (code, _, err) = job_in_r2();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("belongs to another position") && err.contains(&remove_hint),
        "{err}"
    );
    assert!(!err.contains("checkpoints.staged"), "{err}");
    // A tree cut short fails its checksum: the same advice.
    std::fs::write(&stored, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = job_in_r2();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&remove_hint), "{err}");
    let r2_after = (
        std::fs::read(shard_table(&dir, "r2")).ok(),
        std::fs::read(&r2_tree).unwrap(),
    );
    assert!(
        r2_before == r2_after,
        "a run that fails keeps the shard as it was"
    );
}

#[test]
fn a_resumed_tree_that_ends_in_a_proof_verifies() {
    let dir = common::fresh_dir("plan", "resumed-proof");
    plan_line(LINE, &dir, "2", "3000");
    let job = |shard: &str, nodes: &str| {
        run_job(&dir, "jobs/job-0000.json", shard, &["--max-nodes", nodes])
    };
    let first = job("jobs/shards/a", "3000");
    assert_eq!(first["result"], "unknown", "a small budget: {first}");
    let (code, _, err) = ransom(&["store", "merge", "s", "jobs/shards/a"], &dir);
    assert_eq!(code, 0, "{err}");
    let second = job("jobs/shards/b", "5000000");
    assert_eq!(second["result"], "proved", "{second}");
    assert_eq!(second["verified"], true, "{second}");
    assert!(second["earlier_nodes"].as_u64().unwrap() > 0, "{second}");
    let (code, out, err) = ransom(&["store", "merge", "s", "jobs/shards/b", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["shards"][0]["outer_tree_dropped"], true, "{out}");
    let (code, out, err) = ransom(&["store", "verify", "s", "--no-tablebases"], &dir);
    assert_eq!(code, 0, "{err}{out}");
    // The root, continued from the merged store, gives the one-process result.
    let root = prove(&["--store", "s"], &dir);
    assert_eq!(root["winner"], "black", "{root}");
    assert_eq!(root["verified"], true, "{root}");
}

/// The command line of the rendered Kubernetes manifest (the block under `args:`).
fn kubernetes_command(manifest: &str) -> String {
    let mut lines = manifest.lines().skip_while(|l| l.trim() != "- |");
    lines.next().expect("an args block");
    lines.next().expect("a command line").trim().to_string()
}

#[test]
fn the_slurm_and_kubernetes_files_run_the_jobs() {
    let dir = common::fresh_dir("plan", "deploy");
    let planned = plan(&dir, "3", "20000");
    let count = planned["jobs"].as_array().unwrap().len();
    assert_eq!(count, 3, "{planned}");
    let jobs = dir.join("jobs");

    let slurm = std::fs::read_to_string(jobs.join("slurm-array.sbatch")).unwrap();
    assert!(slurm.contains("#SBATCH --array=0-2"), "{slurm}");
    assert!(!slurm.contains("{{"), "every field is filled: {slurm}");
    // Run task 0 as Slurm would: the script with its array index set.
    let status = Command::new("bash")
        .arg(jobs.join("slurm-array.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", "0")
        .env("SLURM_CPUS_PER_TASK", "1")
        .env("PATH", path_with_ransom())
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(shard_table(&dir, "job-0000").is_file());

    let manifest = std::fs::read_to_string(jobs.join("kubernetes-indexed-job.yaml")).unwrap();
    assert!(
        !manifest.contains("{{"),
        "every field is filled: {manifest}"
    );
    assert!(!manifest.contains('\t'), "YAML has no tabs");
    assert!(
        manifest.contains(&format!("completions: {count}")),
        "{manifest}"
    );
    assert!(manifest.contains("completionMode: Indexed"));
    let command = kubernetes_command(&manifest);
    assert!(command.contains("prove --job"), "{command}");
    // Run index 1 as the pod would: its shell command with the index set.
    let status = Command::new("sh")
        .args(["-c", &command])
        .env("JOB_COMPLETION_INDEX", "1")
        .env("PATH", path_with_ransom())
        .status()
        .unwrap();
    assert!(status.success(), "{command}");
    assert!(shard_table(&dir, "job-0001").is_file());

    // The merge command both files print.
    let (code, out, err) = ransom(
        &[
            "store",
            "merge",
            "s",
            "jobs/shards/job-0000",
            "jobs/shards/job-0001",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("positions after") || out.contains("after"),
        "{out}"
    );
    let (code, out, err) = ransom(&["store", "stats", "s", "--plan", "jobs"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 missing a shard"), "{out}");
}

#[test]
fn bad_plans_and_jobs_are_named() {
    let dir = common::fresh_dir("plan", "bad");
    plan(&dir, "2", "1000");
    // A second plan into the same folder.
    let (code, _, err) = ransom(
        &[&["prove"][..], LINE, &["--store", "s", "--plan", "jobs"]].concat(),
        &dir,
    );
    assert_ne!(code, 0);
    assert!(err.contains("already holds a plan"), "{err}");
    // A job whose moves do not reach its position.
    let path = dir.join("jobs/job-0000.json");
    let mut job: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    job["fen"] = "8/8/8/8/8/8/8/K6k w - - 0 1".into();
    std::fs::write(dir.join("bad.json"), job.to_string()).unwrap();
    let (code, _, err) = ransom(&["prove", "--job", "bad.json", "--store-shard", "x"], &dir);
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.json") && err.contains("not to the job's position"),
        "{err}"
    );
    assert!(!dir.join("x").exists(), "nothing written");
    // Not a job file at all; and --job without --store-shard.
    std::fs::write(dir.join("junk.json"), "{}").unwrap();
    let (code, _, err) = ransom(&["prove", "--job", "junk.json", "--store-shard", "x"], &dir);
    assert_ne!(code, 0);
    assert!(
        err.contains("junk.json") && err.contains("not a valid job file"),
        "{err}"
    );
    let (code, _, err) = ransom(&["prove", "--job", "jobs/job-0000.json"], &dir);
    assert_eq!(code, 2, "{err}");
    // A job's shard is never written over a store.
    let (code, _, err) = ransom(
        &["prove", "--job", "jobs/job-0000.json", "--store-shard", "s"],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(err.contains("is a store, not a job's shard"), "{err}");
}

/// Runs `make` in `dir/jobs` with this build of ransom.
fn make_jobs(dir: &Path) -> (bool, String, String) {
    let out = Command::new("make")
        .args(["-C", "jobs", "-j2", &format!("RANSOM={}", bin())])
        .current_dir(dir)
        .output()
        .expect("make must be installed to run this test");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 47.15: a shard the merge refuses loses its `job.json`, the
/// Makefile's target, so the next `make` runs exactly that job again and
/// then merges it; a shard whose `job.json` was removed by hand is
/// reported by the merge (exit 1), not ignored; the merge refuses a store
/// other than the one the plan was made over.
#[test]
fn make_runs_the_refused_jobs_again_and_a_plan_merges_only_into_its_store() {
    let dir = common::fresh_dir("plan", "remake");
    plan(&dir, "2", "20000");
    let (ok, out, err) = make_jobs(&dir);
    assert!(ok, "{out}{err}");
    let makefile = std::fs::read_to_string(dir.join("jobs/Makefile")).unwrap();
    assert!(makefile.contains("--plan ."), "{makefile}");
    assert!(makefile.contains("absolute path"), "{makefile}");

    // A damaged shard: the merge refuses it and removes its result.
    let table = shard_table(&dir, "job-0001");
    let mut bytes = std::fs::read(&table).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 0x20;
    std::fs::write(&table, &bytes).unwrap();
    let (ok, out, err) = make_jobs(&dir);
    assert!(!ok, "the merge fails: {out}{err}");
    assert!(err.contains("refused") && err.contains("job-0001"), "{err}");
    assert!(!dir.join("jobs/shards/job-0001/job.json").exists());
    assert!(dir.join("jobs/shards/job-0000/job.json").exists());
    let (ok, out, err) = make_jobs(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("--job job-0001.json"), "{out}");
    assert!(!out.contains("--job job-0000.json"), "{out}");

    // A job result removed by hand: reported, exit 1, positions merged.
    std::fs::remove_file(dir.join("jobs/shards/job-0000/job.json")).unwrap();
    let (code, _, err) = ransom(
        &[
            "store",
            "merge",
            "s",
            "jobs/shards/job-0000",
            "jobs/shards/job-0001",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no job result"), "{err}");
    // A damaged one likewise.
    let (ok, out, err) = make_jobs(&dir);
    assert!(ok, "{out}{err}");
    std::fs::write(dir.join("jobs/shards/job-0000/job.json"), "{ not json").unwrap();
    let (code, _, err) = ransom(&["store", "merge", "s", "jobs/shards/job-0000"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("job.json"), "{err}");

    // Another store (a copy of the jobs folder pointed elsewhere).
    let (code, _, err) = ransom(
        &[
            "store",
            "merge",
            "other",
            "--plan",
            "jobs",
            "jobs/shards/job-0001",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not the store the plan"), "{err}");
    assert!(!dir.join("other/antichess/solved-000001.rst").exists());
    let (code, _, err) = ransom(
        &[
            "store",
            "merge",
            "s",
            "--plan",
            "jobs",
            "jobs/shards/job-0001",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
}

/// Issue 47.4: the store's tree of a job's position is dropped only when
/// the job's result, read with its table, says the job settled it and
/// the merged store holds it settled: a result that claims more than its
/// table holds (a rerun meanwhile, a crash between the two) keeps the
/// tree. Issue 47.6: a store given as a shard has no table of a job's
/// shard, and its trees are not taken.
#[test]
fn a_tree_is_dropped_only_when_the_store_holds_its_position_settled() {
    let dir = common::fresh_dir("plan", "drop");
    plan_line(OPEN, &dir, "2", "20000");
    let (code, out, err) = ransom(
        &[
            "prove",
            "--job",
            "jobs/job-0000.json",
            "--store-shard",
            "jobs/shards/r1",
            "--store",
            "s",
            "--json",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let first = json(&out);
    assert_eq!(first["result"], "unknown", "{first}");
    let (code, _, err) = ransom(&["store", "merge", "s", "jobs/shards/r1"], &dir);
    assert_eq!(code, 0, "{err}");
    let store_checkpoints = dir.join("s/antichess/checkpoints");
    let tree = checkpoints_in(&dir.join("jobs/shards/r1/antichess/checkpoints"))[0].clone();
    assert!(store_checkpoints.join(&tree).exists());

    // A shard whose job.json says "proved" while its table does not
    // settle the position, and that brings no tree.
    let fake = dir.join("jobs/shards/fake");
    std::fs::create_dir_all(fake.join("antichess")).unwrap();
    std::fs::copy(
        shard_table(&dir, "r1"),
        fake.join("antichess/solved-000001.rst"),
    )
    .unwrap();
    let mut result = json(&std::fs::read_to_string(dir.join("jobs/shards/r1/job.json")).unwrap());
    result["result"] = "proved".into();
    std::fs::write(fake.join("job.json"), result.to_string()).unwrap();
    let (code, out, err) = ransom(&["store", "merge", "s", "jobs/shards/fake", "--json"], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json(&out)["shards"][0]["outer_tree_dropped"],
        false,
        "{out}"
    );
    assert!(store_checkpoints.join(&tree).exists(), "the tree is kept");

    // A store given as a shard: its checkpoint is not taken.
    let (code, other, err) = {
        let mut args = vec!["prove"];
        args.extend_from_slice(&["b4", "c5", "bxc5", "f5", "Nf3"]);
        args.extend_from_slice(&[
            "--store",
            "other",
            "--max-nodes",
            "20000",
            "--leaf-nodes",
            "1000",
            "--threads",
            "1",
            "--no-write",
            "--json",
        ]);
        let (code, out, err) = ransom(&args, &dir);
        (code, json(&out), err)
    };
    assert_eq!(code, 0, "{err}");
    assert!(other["checkpoint"].is_string(), "{other}");
    let (code, out, err) = ransom(&["store", "merge", "s", "other", "--json"], &dir);
    assert_eq!(code, 1, "{err}");
    let merged = json(&out);
    assert_eq!(merged["shards"][0]["outer_trees"], 0, "{merged}");
    assert!(
        merged["shards"][0]["outer_trees_refused"]
            .to_string()
            .contains("no table of a job's shard"),
        "{merged}"
    );
}
