//! The files of a split proof (`prove --plan JOBS`): one JSON file a job,
//! the plan's listing as text and JSON, a Makefile, a Slurm array script
//! and a Kubernetes Indexed Job manifest, all in the jobs folder; and the
//! result file a job leaves beside its shard.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What the `format` field of a job file says.
pub const JOB_FORMAT: &str = "ransom-prove-job";
/// What the `format` field of a plan file says.
pub const PLAN_FORMAT: &str = "ransom-prove-plan";

/// One batch job: settle one position of the outer tree's frontier.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// Always [`JOB_FORMAT`].
    pub format: String,
    /// The job's name, `job-NNNN` (also its file's and shard's name).
    pub id: String,
    /// The rule set.
    pub variant: String,
    /// The position the moves start from.
    pub start_fen: String,
    /// The moves (UCI) from `start_fen` to the planned root.
    pub root_moves: Vec<String>,
    /// The moves (UCI) from the planned root to this job's position.
    pub moves: Vec<String>,
    /// The job's position, checked when the job is read.
    pub fen: String,
    /// Its zobrist hash, in hex (how `store stats --plan` finds it).
    pub key: String,
    /// The side whose win the job tries to prove.
    pub attacker: String,
    /// The job's node budget.
    pub max_nodes: u64,
    /// The job's time budget, in seconds.
    pub max_time: Option<f64>,
    /// Nodes of one leaf search.
    pub leaf_nodes: u64,
    /// The position's proof and disproof numbers in the plan's outer tree.
    pub pn: u32,
    /// See `pn`.
    pub dn: u32,
}

/// The plan's listing (`plan.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Plan {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// The rule set.
    pub variant: String,
    /// The planned root, as FEN.
    pub root_fen: String,
    /// The moves (UCI) from the start to the planned root.
    pub root_moves: Vec<String>,
    /// The side whose win is being proved.
    pub attacker: String,
    /// The store the plan came from and the shards merge into.
    pub store: String,
    /// The identity of that store (its `store-id` file): `store merge
    /// --plan` refuses another store. Absent in plans of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_id: Option<String>,
    /// The root's numbers when the plan was made.
    pub root_pn: u32,
    /// See `root_pn`.
    pub root_dn: u32,
    /// The jobs, most-proving first.
    pub jobs: Vec<PlanEntry>,
}

/// One job in the plan's listing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlanEntry {
    /// The job's name.
    pub id: String,
    /// Its file, relative to the jobs folder.
    pub file: String,
    /// Its shard, relative to the jobs folder.
    pub shard: String,
    /// Its position's hash, in hex.
    pub key: String,
    /// The moves from the planned root, in SAN.
    pub line: Vec<String>,
    /// The job's position.
    pub fen: String,
    /// Its numbers in the outer tree.
    pub pn: u32,
    /// See `pn`.
    pub dn: u32,
}

/// What a finished (or stopped) job left beside its shard (`job.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobOutcome {
    /// The job's name.
    pub id: String,
    /// `proved` (the attacker wins), `disproved` (no forced win) or `unknown`.
    pub result: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Positions in the shard.
    pub positions: u64,
    /// The job's root numbers at the end.
    pub pn: u32,
    /// See `pn`.
    pub dn: u32,
    /// Nodes of earlier jobs on this position whose outer tree this one
    /// resumed (from the store's checkpoint, handed there by `store
    /// merge`); 0 when it started afresh.
    #[serde(default)]
    pub earlier_nodes: u64,
    /// The job's position's hash (as in the job file), so that `store
    /// merge` can drop the store's outer tree of a position a job settled.
    #[serde(default)]
    pub key: String,
    /// The side whose win the job sought.
    #[serde(default)]
    pub attacker: String,
}

impl JobOutcome {
    /// The file name of the outer tree of the job's search (in a store's
    /// checkpoints), if the job settled its position: that tree is then
    /// no longer needed. `None` for a job left open, or a `job.json`
    /// without a well-formed key and attacker.
    pub fn settled_tree(&self) -> Option<String> {
        if self.result != "proved" && self.result != "disproved" {
            return None;
        }
        let key = u64::from_str_radix(&self.key, 16).ok()?;
        let attacker = ransom::board::Color::from_name(&self.attacker)?;
        Some(ransom::search::scale::checkpoint::file_name(key, attacker))
    }
}

/// The folder of the shards, inside the jobs folder.
pub const SHARDS: &str = "shards";

/// `job-NNNN`.
pub fn job_id(index: usize) -> String {
    format!("job-{index:04}")
}

/// The result file of a job's shard ([`ransom::solved::shard::JOB_RESULT`]).
pub fn outcome_path(shard: &Path) -> PathBuf {
    ransom::solved::shard::job_result_path(shard)
}

/// Reads and parses a JSON file, naming it in any error.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<T> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the {what}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a valid {what}: {e}", path.display()))
}

/// Writes `value` as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)? + "\n";
    ransom::store::write_atomically(path, text.as_bytes())?;
    Ok(())
}

const SLURM_TEMPLATE: &str = include_str!("../../deploy/slurm-array.sbatch");
const KUBERNETES_TEMPLATE: &str = include_str!("../../deploy/kubernetes-indexed-job.yaml");

/// The deepest folder holding both paths (both absolute).
fn common_ancestor(a: &Path, b: &Path) -> PathBuf {
    a.components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect()
}

/// Fills a template's `{{NAME}}` fields.
fn render(template: &str, fields: &[(&str, String)]) -> String {
    fields
        .iter()
        .fold(template.to_string(), |text, (name, value)| {
            text.replace(&format!("{{{{{name}}}}}"), value)
        })
}

/// Writes the plan's files into `dir` (which must hold no plan yet): the
/// job files, `plan.json`, `jobs.txt`, `Makefile`, `slurm-array.sbatch`
/// and `kubernetes-indexed-job.yaml`.
pub fn write_plan(dir: &Path, plan: &Plan, jobs: &[Job]) -> anyhow::Result<()> {
    for job in jobs {
        write_json(&dir.join(format!("{}.json", job.id)), job)?;
    }
    write_json(&dir.join("plan.json"), plan)?;
    let mut text = format!(
        "# {} jobs: {} to win in {} (after {}); numbers from the outer tree\n",
        jobs.len(),
        plan.attacker,
        plan.root_fen,
        if plan.root_moves.is_empty() {
            "the start".to_string()
        } else {
            plan.root_moves.join(" ")
        }
    );
    for e in &plan.jobs {
        text += &format!(
            "{}  pn {} dn {}  {}  [{}]\n",
            e.id,
            e.pn,
            e.dn,
            if e.line.is_empty() {
                "(the root)".to_string()
            } else {
                e.line.join(" ")
            },
            e.fen
        );
    }
    ransom::store::write_atomically(&dir.join("jobs.txt"), text.as_bytes())?;
    ransom::store::write_atomically(&dir.join("Makefile"), makefile(plan).as_bytes())?;
    let jobs_dir = std::path::absolute(dir)?;
    let store = PathBuf::from(&plan.store);
    let fields = [
        ("JOBS_DIR", jobs_dir.display().to_string()),
        ("STORE", plan.store.clone()),
        ("VARIANT", plan.variant.clone()),
        ("COUNT", jobs.len().to_string()),
        ("LAST", jobs.len().saturating_sub(1).to_string()),
        (
            "MOUNT",
            common_ancestor(&jobs_dir, &store).display().to_string(),
        ),
    ];
    for (name, template) in [
        ("slurm-array.sbatch", SLURM_TEMPLATE),
        ("kubernetes-indexed-job.yaml", KUBERNETES_TEMPLATE),
    ] {
        ransom::store::write_atomically(&dir.join(name), render(template, &fields).as_bytes())?;
    }
    Ok(())
}

/// The Makefile of a plan: one target a shard, `all` ends with the merge.
fn makefile(plan: &Plan) -> String {
    let table = |id: &str| format!("$(SHARDS)/{id}/job.json");
    let mut text = String::new();
    text += "# ransom prove --plan: one target a job; run with `make -j N` in this folder.\n";
    text += "# Each job settles one frontier position into its own shard (shards/job-NNNN);\n";
    text +=
        "# `all` then merges the shards into the store, and `ransom prove` continues from it.\n";
    text += "# A job's target is its result, job.json, written last: a job that did not finish,\n";
    text += "# or whose shard a merge refused (the merge removes its job.json), runs again.\n";
    text += "# STORE is the absolute path of the store the plan was made over: a copy of this\n";
    text += "# folder still merges into that store unless STORE=DIR is given, and the merge\n";
    text += "# (--plan .) refuses a store other than the plan's (plan.json's store_id).\n";
    text += "RANSOM ?= ransom\n";
    text += &format!("STORE ?= {}\n", plan.store);
    text += &format!("SHARDS ?= {SHARDS}\n");
    text += "THREADS ?= 1\n";
    text += "JOB_OPTIONS ?=\n";
    let ids: Vec<&str> = plan.jobs.iter().map(|j| j.id.as_str()).collect();
    text += ".PHONY: all merge\n";
    text += "all: merge\n";
    text += &format!(
        "merge: {}\n",
        ids.iter().map(|id| table(id)).collect::<Vec<_>>().join(" ")
    );
    text += &format!(
        "\t$(RANSOM) store merge $(STORE) --plan . --variant {} {}\n",
        plan.variant,
        ids.iter()
            .map(|id| format!("$(SHARDS)/{id}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for id in &ids {
        text += &format!("{}: {id}.json\n", table(id));
        text += &format!(
            "\t$(RANSOM) prove --job {id}.json --store-shard $(SHARDS)/{id} --store $(STORE) --threads $(THREADS) -q $(JOB_OPTIONS)\n"
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_filled_and_ancestors_found() {
        assert_eq!(
            common_ancestor(Path::new("/a/b/jobs"), Path::new("/a/store")),
            PathBuf::from("/a")
        );
        assert_eq!(
            render(
                "x {{COUNT}} {{COUNT}} {{LAST}}",
                &[("COUNT", "3".into()), ("LAST", "2".into())]
            ),
            "x 3 3 2"
        );
        for template in [SLURM_TEMPLATE, KUBERNETES_TEMPLATE] {
            for field in ["JOBS_DIR", "STORE", "VARIANT"] {
                assert!(template.contains(&format!("{{{{{field}}}}}")), "{field}");
            }
        }
    }
}
