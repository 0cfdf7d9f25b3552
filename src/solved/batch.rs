//! The files of a proof split into batch jobs (`prove --plan JOBS`, `prove
//! --job`, `store merge`): one JSON file a job ([`Job`]), the plan's
//! listing ([`Plan`]), and the result a job leaves beside its shard
//! ([`JobOutcome`], [`super::shard::JOB_RESULT`]); and the one rule of the
//! store that belongs to a job: a job's disproof of its own root is kept
//! ([`root_disproof_record`]). The formats are in docs/store-format.md.

use super::log::Record;
use super::packed;
use super::shard::job_result_path;
use super::value::Solved;
use crate::board::Color;
use crate::position::Position;
use crate::store::StoreError;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the `format` field of a job file says.
pub const JOB_FORMAT: &str = "ransom-prove-job";
/// What the `format` field of a plan file says.
pub const PLAN_FORMAT: &str = "ransom-prove-plan";
/// The folder of the shards, inside the jobs folder.
pub const SHARDS: &str = "shards";

/// `job-NNNN`.
pub fn job_id(index: usize) -> String {
    format!("job-{index:04}")
}

/// Colours and variants by name in the files (`"white"`, `"antichess"`).
mod by_name {
    use super::{Color, Variant};
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn color<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color.name())
    }

    pub fn to_color<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let name = String::deserialize(d)?;
        Color::from_name(&name)
            .ok_or_else(|| D::Error::custom(format!("attacker '{name}' (white or black)")))
    }

    pub fn variant<S: Serializer>(variant: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(variant.name())
    }

    pub fn to_variant<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }

    pub fn some_color<S: Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color.map_or("", Color::name))
    }

    pub fn to_some_color<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        Ok(Color::from_name(&String::deserialize(d)?))
    }
}

/// One batch job: settle one position of the outer tree's frontier.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// Always [`JOB_FORMAT`].
    pub format: String,
    /// The job's name, `job-NNNN` (also its file's and shard's name).
    pub id: String,
    /// The rule set.
    #[serde(
        serialize_with = "by_name::variant",
        deserialize_with = "by_name::to_variant"
    )]
    pub variant: Variant,
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
    #[serde(
        serialize_with = "by_name::color",
        deserialize_with = "by_name::to_color"
    )]
    pub attacker: Color,
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
    #[serde(
        serialize_with = "by_name::variant",
        deserialize_with = "by_name::to_variant"
    )]
    pub variant: Variant,
    /// The planned root, as FEN.
    pub root_fen: String,
    /// The moves (UCI) from the start to the planned root.
    pub root_moves: Vec<String>,
    /// The side whose win is being proved.
    #[serde(
        serialize_with = "by_name::color",
        deserialize_with = "by_name::to_color"
    )]
    pub attacker: Color,
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

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobResult {
    /// The attacker wins the job's position (its proof is in the shard).
    Proved,
    /// The attacker has no forced win there (kept as a "no forced win"
    /// record, [`root_disproof_record`]).
    Disproved,
    /// Neither, within the job's budget: its outer tree is in the shard.
    Unknown,
}

impl JobResult {
    /// The name in the files and reports (`proved`, `disproved`, `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            JobResult::Proved => "proved",
            JobResult::Disproved => "disproved",
            JobResult::Unknown => "unknown",
        }
    }

    /// Whether the job settled its position.
    pub fn settled(self) -> bool {
        self != JobResult::Unknown
    }
}

impl std::fmt::Display for JobResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a finished (or stopped) job left beside its shard (`job.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobOutcome {
    /// The job's name.
    pub id: String,
    /// How it ended.
    pub result: JobResult,
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
    /// The side whose win the job sought (`None` in results of older
    /// versions, which did not say).
    #[serde(
        default,
        serialize_with = "by_name::some_color",
        deserialize_with = "by_name::to_some_color"
    )]
    pub attacker: Option<Color>,
}

impl JobOutcome {
    /// The file name of the outer tree of the job's search (in a store's
    /// checkpoints), if the job settled its position: that tree is then
    /// no longer needed. `None` for a job left open, or a result without a
    /// well-formed key and attacker.
    pub fn settled_tree(&self) -> Option<String> {
        if !self.result.settled() {
            return None;
        }
        let key = u64::from_str_radix(&self.key, 16).ok()?;
        Some(super::tree_file::file_name(key, self.attacker?))
    }
}

/// A batch file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BatchFileError {
    /// The file is not there.
    #[error("{path}: no {what}")]
    Missing {
        /// The file.
        path: String,
        /// What it should hold ("job result").
        what: &'static str,
    },
    /// The file cannot be read.
    #[error("{path}: cannot read the {what}: {error}")]
    Read {
        /// The file.
        path: String,
        /// What it should hold.
        what: &'static str,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The file does not hold what it should.
    #[error("{path}: not a valid {what}: {error}")]
    Invalid {
        /// The file.
        path: String,
        /// What it should hold.
        what: &'static str,
        /// What is wrong.
        error: serde_json::Error,
    },
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] StoreError),
}

/// Reads and parses a JSON file holding `what` ("job file"), naming it in
/// any error.
pub fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &'static str,
) -> Result<T, BatchFileError> {
    let name = || path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            BatchFileError::Missing { path: name(), what }
        } else {
            BatchFileError::Read {
                path: name(),
                what,
                error,
            }
        }
    })?;
    serde_json::from_str(&text).map_err(|error| BatchFileError::Invalid {
        path: name(),
        what,
        error,
    })
}

/// Writes `value` as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), BatchFileError> {
    let text = serde_json::to_string_pretty(value).map_err(|error| BatchFileError::Invalid {
        path: path.display().to_string(),
        what: "JSON value",
        error,
    })? + "\n";
    crate::store::write_atomically(path, text.as_bytes())?;
    Ok(())
}

/// What the job result beside the shard `shard` says of the job's outer
/// tree: `Ok(Some(name))` the job settled its position and the store's
/// tree of that name is no longer needed, `Ok(None)` the job left it
/// open; an error when the result is missing (the job did not finish) or
/// damaged.
pub fn settled_tree_of(shard: &Path) -> Result<Option<String>, BatchFileError> {
    read_json::<JobOutcome>(&job_result_path(shard), "job result").map(|o| o.settled_tree())
}

/// The store record of a job whose search disproved its own root (the
/// attacker has no forced win there): a "no forced win" result. It holds
/// on every path to the position: the lines that the disproof counted as
/// repetitions all start at the job's root, and stay repetitions however
/// the root is reached. (An inner position's disproof, which may rest on
/// a repetition of a position above it, is never stored.) `None` for a
/// position without a packed form.
pub fn root_disproof_record<P: Position>(root: &P, attacker: Color, nodes: u64) -> Option<Record> {
    Some(Record {
        key: root.zobrist(),
        value: Solved::no_win_for(attacker, nodes),
        position: Some(packed::pack(root)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results written before the types were in the library read the
    /// same: `result` by name, `key` and `attacker` optional.
    #[test]
    fn job_results_of_every_version_read() {
        let new = r#"{"id":"job-0001","result":"proved","nodes":5,"seconds":0.5,"positions":3,
            "pn":0,"dn":4294967295,"earlier_nodes":0,"key":"00000000000000ff","attacker":"black"}"#;
        let outcome: JobOutcome = serde_json::from_str(new).unwrap();
        assert_eq!(outcome.result, JobResult::Proved);
        assert_eq!(outcome.attacker, Some(Color::Black));
        assert_eq!(
            outcome.settled_tree().as_deref(),
            Some("00000000000000ff-black.ckpt")
        );
        let old = r#"{"id":"job-0001","result":"unknown","nodes":5,"seconds":0.5,"positions":3,"pn":1,"dn":1}"#;
        let outcome: JobOutcome = serde_json::from_str(old).unwrap();
        assert_eq!(outcome.result, JobResult::Unknown);
        assert_eq!((outcome.attacker, outcome.settled_tree()), (None, None));
        let written = serde_json::to_value(JobOutcome {
            result: JobResult::Disproved,
            attacker: Some(Color::White),
            ..outcome
        })
        .unwrap();
        assert_eq!(written["result"], "disproved");
        assert_eq!(written["attacker"], "white");
        let bad =
            r#"{"id":"j","result":"won","nodes":5,"seconds":0.5,"positions":3,"pn":1,"dn":1}"#;
        assert!(serde_json::from_str::<JobOutcome>(bad).is_err());
    }
}
