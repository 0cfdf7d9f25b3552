//! A split proof's folder (`prove --plan JOBS`): the job files and the
//! plan's listing (types in [`crate::solved::batch`]), the listing as
//! text, a Makefile, a Slurm array script and a Kubernetes Indexed Job
//! manifest.

use super::ProveRunError;
use crate::solved::batch::{Job, Plan, SHARDS, write_json};
use crate::store::{io_error, write_atomically};
use std::path::{Path, PathBuf};

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
pub fn write_plan(dir: &Path, plan: &Plan, jobs: &[Job]) -> Result<(), ProveRunError> {
    for job in jobs {
        write_json(&dir.join(format!("{}.json", job.id)), job)?;
    }
    write_json(&dir.join("plan.json"), plan)?;
    let mut text = format!(
        "# {} jobs: {} to win in {} (after {}); numbers from the outer tree\n",
        jobs.len(),
        plan.attacker.name(),
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
    write_atomically(&dir.join("jobs.txt"), text.as_bytes())?;
    write_atomically(&dir.join("Makefile"), makefile(plan).as_bytes())?;
    let jobs_dir = std::path::absolute(dir).map_err(io_error(dir))?;
    let store = PathBuf::from(&plan.store);
    let fields = [
        ("JOBS_DIR", jobs_dir.display().to_string()),
        ("STORE", plan.store.clone()),
        ("VARIANT", plan.variant.to_string()),
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
        write_atomically(&dir.join(name), render(template, &fields).as_bytes())?;
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
