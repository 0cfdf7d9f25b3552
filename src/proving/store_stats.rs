//! `store stats`: what a store holds, rule set by rule set: its files,
//! its positions by kind, the checkpoints of its unfinished searches with
//! their most-proving lines, and where a plan's jobs stand.

use super::plan_status::{PlanStatus, plan_status};
use crate::board::Color;
use crate::search::scale::checkpoint;
use crate::solved::batch::{BatchFileError, Plan, read_json};
use crate::solved::{self, Merged, Solved, StoreFiles, read_merged, scan, variant_dir};
use crate::store::StoreError;
use crate::variant::UnknownVariant;
use crate::{AnyPosition, Variant, dispatch};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a store cannot be reported on.
#[derive(Debug, thiserror::Error)]
pub enum StoreReportError {
    /// No store at the folder given.
    #[error("{}: no store here ({why})", dir.display())]
    NoStore {
        /// The folder.
        dir: PathBuf,
        /// What is missing.
        why: String,
    },
    /// The rule set asked for.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// Reading the store.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Reading the plan.
    #[error(transparent)]
    Plan(#[from] BatchFileError),
    /// The Syzygy tables cannot be used.
    #[error(transparent)]
    Syzygy(#[from] crate::tablebase::SyzygyError),
    /// The plan's rule set has no store in the folder.
    #[error("the plan's rule set has no store in {}", .0.display())]
    PlanWithoutStore(PathBuf),
}

/// The rule sets with a store in `dir` (only `variant` when one is named).
pub fn store_variants(dir: &Path, variant: Option<&str>) -> Result<Vec<Variant>, StoreReportError> {
    let none = |why: &str| StoreReportError::NoStore {
        dir: dir.to_path_buf(),
        why: why.to_string(),
    };
    if !dir.is_dir() {
        return Err(none("not a directory"));
    }
    if let Some(name) = variant {
        let variant: Variant = name.parse()?;
        if !variant_dir(dir, variant).is_dir() {
            return Err(none(&format!("no {} store", variant.name())));
        }
        return Ok(vec![variant]);
    }
    let found: Vec<Variant> = Variant::ALL
        .into_iter()
        .filter(|&v| variant_dir(dir, v).is_dir())
        .collect();
    if found.is_empty() {
        return Err(none("no rule-set folder such as antichess/"));
    }
    Ok(found)
}

/// What `store stats` reports.
#[derive(Clone, Debug, Serialize)]
pub struct StoreStats {
    /// One entry a rule set.
    pub stores: Vec<RuleSetStats>,
    /// Where the plan's jobs stand, if a plan was given.
    pub plan: Option<PlanStatus>,
}

/// One rule set's store.
#[derive(Clone, Debug, Serialize)]
pub struct RuleSetStats {
    /// The rule set.
    pub variant: &'static str,
    /// Its folder.
    pub dir: String,
    /// Distinct positions.
    pub positions: usize,
    /// Records read (table and logs).
    pub records: u64,
    /// Records of the compacted table.
    pub table_records: u64,
    /// Records of the logs.
    pub log_records: u64,
    /// Bytes of torn writes dropped.
    pub torn_bytes: u64,
    /// Records lost to damage.
    pub lost_records: u64,
    /// Their bytes.
    pub lost_bytes: u64,
    /// The damaged logs, if any.
    pub damage: Option<String>,
    /// Positions where the side to move wins.
    pub wins: usize,
    /// Positions where it loses.
    pub losses: usize,
    /// Positions where White has no forced win.
    pub no_win_white: usize,
    /// Positions where Black has no forced win.
    pub no_win_black: usize,
    /// The compacted table.
    pub table: Option<String>,
    /// The logs.
    pub logs: Vec<String>,
    /// Bytes on disk.
    pub bytes: u64,
    /// The checkpoints of unfinished searches.
    pub checkpoints: Vec<CheckpointStats>,
}

/// A checkpoint of an unfinished search.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum CheckpointStats {
    /// It reads.
    Read {
        /// The file.
        file: String,
        /// The searched position.
        root_fen: String,
        /// The side whose win is sought.
        attacker: &'static str,
        /// Nodes searched.
        nodes: u64,
        /// Leaf searches.
        leaf_searches: u64,
        /// Seconds searched.
        seconds: f64,
        /// Nodes of the outer tree.
        outer_nodes: u32,
        /// The root's proof number.
        root_pn: u32,
        /// The root's disproof number.
        root_dn: u32,
        /// The most-proving line, in SAN.
        most_proving_line: Vec<String>,
        /// The position at its end.
        frontier_fen: Option<String>,
        /// Its proof number.
        frontier_pn: Option<u32>,
        /// Its disproof number.
        frontier_dn: Option<u32>,
    },
    /// It does not read.
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        error: String,
    },
}

/// The stats of the stores in `dir` (every rule set, or `variant`), and
/// where the jobs of the plan in the folder `plan` stand. No lock is taken:
/// a store a search is writing is read as it is (a record being appended
/// reads as a torn tail and is not counted).
pub fn store_stats(
    dir: &Path,
    variant: Option<&str>,
    plan: Option<&Path>,
) -> Result<StoreStats, StoreReportError> {
    // The plan is read once, with the rule set whose store it goes with.
    let plan_file: Option<(&Path, Plan)> = match plan {
        Some(jobs) => Some((jobs, read_json(&jobs.join("plan.json"), "plan file")?)),
        None => None,
    };
    let mut stats = StoreStats {
        stores: Vec::new(),
        plan: None,
    };
    for variant in store_variants(dir, variant)? {
        let folder = variant_dir(dir, variant);
        let (files, merged) = read_consistent(&folder, variant)?;
        if let Some((jobs, p)) = &plan_file
            && p.variant == variant
        {
            stats.plan = Some(plan_status(p, variant, jobs, &folder, &merged.records));
        }
        stats
            .stores
            .push(rule_set_stats(variant, &folder, &files, &merged));
    }
    if plan.is_some() && stats.plan.is_none() {
        return Err(StoreReportError::PlanWithoutStore(dir.to_path_buf()));
    }
    Ok(stats)
}

fn rule_set_stats(
    variant: Variant,
    dir: &Path,
    files: &StoreFiles,
    merged: &Merged,
) -> RuleSetStats {
    let reading = &merged.reading;
    let values = merged.records.values().map(|m| m.record.value);
    let count = |f: &dyn Fn(Solved) -> bool| values.clone().filter(|&v| f(v)).count();
    RuleSetStats {
        variant: variant.name(),
        dir: dir.display().to_string(),
        positions: merged.records.len(),
        records: reading.table_records + reading.log_records,
        table_records: reading.table_records,
        log_records: reading.log_records,
        torn_bytes: reading.torn_bytes,
        lost_records: reading.lost_records,
        lost_bytes: reading.lost_bytes,
        damage: reading.damage_report(),
        wins: count(&Solved::is_win),
        losses: count(&Solved::is_loss),
        no_win_white: count(&|v| v.no_win(Color::White)),
        no_win_black: count(&|v| v.no_win(Color::Black)),
        table: files.table.as_ref().map(|t| t.1.display().to_string()),
        logs: files
            .logs
            .iter()
            .map(|l| l.1.display().to_string())
            .collect(),
        bytes: solved::disk_bytes(dir),
        checkpoints: checkpoints(variant, &dir.join(solved::CHECKPOINTS_DIR)),
    }
}

/// The checkpoints (`*.ckpt`; a writer's temporary file is not one) in
/// the folder `dir`.
fn checkpoints(variant: Variant, dir: &Path) -> Vec<CheckpointStats> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ckpt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let file = path.display().to_string();
            match checkpoint::summary(path) {
                Ok(s) => {
                    let frontier = frontier_of(variant, path, &s).ok();
                    CheckpointStats::Read {
                        file,
                        attacker: s.attacker.name(),
                        nodes: s.totals.nodes,
                        leaf_searches: s.totals.leaf_searches,
                        seconds: s.totals.seconds,
                        outer_nodes: s.outer_nodes,
                        root_pn: s.root_numbers.0,
                        root_dn: s.root_numbers.1,
                        most_proving_line: frontier
                            .as_ref()
                            .map(|f| f.line.clone())
                            .unwrap_or_default(),
                        frontier_fen: frontier.as_ref().map(|f| f.fen.clone()),
                        frontier_pn: frontier.as_ref().map(|f| f.numbers.0),
                        frontier_dn: frontier.as_ref().map(|f| f.numbers.1),
                        root_fen: s.root_fen,
                    }
                }
                Err(e) => CheckpointStats::Unreadable {
                    file,
                    error: e.to_string(),
                },
            }
        })
        .collect()
}

/// The files of the store folder `dir` and what they hold, read without
/// the lock: a compaction that replaces files meanwhile (a log gone
/// between the listing and its reading) makes it list and read again, up
/// to ten times.
fn read_consistent(dir: &Path, variant: Variant) -> Result<(StoreFiles, Merged), StoreError> {
    let mut tries = 0;
    loop {
        let files = scan(dir)?;
        match read_merged(&files, variant.name()) {
            Err(StoreError::Io { error, .. })
                if error.kind() == std::io::ErrorKind::NotFound && tries < 10 =>
            {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            read => return read.map(|merged| (files, merged)),
        }
    }
}

/// The most-proving line of a checkpoint, read with `variant`'s rules.
fn frontier_of(
    variant: Variant,
    path: &Path,
    summary: &checkpoint::Summary,
) -> Result<checkpoint::Frontier, StoreError> {
    let bad = |problem: String| StoreError::Damaged {
        path: path.display().to_string(),
        kind: "checkpoint",
        problem,
    };
    let setup = crate::notation::fen::parse(&summary.root_fen).map_err(|e| bad(e.to_string()))?;
    let root = AnyPosition::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))?;
    let attacker = summary.attacker;
    dispatch!(root, p => checkpoint::frontier(path, &p, attacker))
}

impl fmt::Display for StoreStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(status) = &self.plan {
            write!(f, "{status}")?;
        }
        for s in &self.stores {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Display for RuleSetStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({}): {} positions in {} records, {} bytes on disk",
            self.dir, self.variant, self.positions, self.records, self.bytes
        )?;
        writeln!(
            f,
            "  side to move wins {}, loses {}; no forced win for white {}, for black {}",
            self.wins, self.losses, self.no_win_white, self.no_win_black
        )?;
        writeln!(
            f,
            "  compacted table: {} records; logs: {} records{}",
            self.table_records,
            self.log_records,
            if self.torn_bytes > 0 {
                format!(" ({} bytes of a torn write dropped)", self.torn_bytes)
            } else {
                String::new()
            }
        )?;
        if let Some(damage) = &self.damage {
            writeln!(f, "  DAMAGED: {damage}")?;
        }
        for c in &self.checkpoints {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for CheckpointStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointStats::Unreadable { file, error } => {
                writeln!(f, "  checkpoint {file}: unreadable: {error}")
            }
            CheckpointStats::Read {
                root_fen,
                attacker,
                nodes,
                leaf_searches,
                seconds,
                outer_nodes,
                root_pn,
                root_dn,
                most_proving_line,
                frontier_fen,
                frontier_pn,
                frontier_dn,
                ..
            } => {
                writeln!(
                    f,
                    "  unfinished search: {attacker} win? in {root_fen}: {nodes} nodes, {leaf_searches} leaf searches, {seconds:.0} s, outer tree {outer_nodes} nodes, root pn {root_pn} dn {root_dn}"
                )?;
                if let Some(fen) = frontier_fen {
                    writeln!(
                        f,
                        "    most-proving line: {} -> {fen} (pn {} dn {})",
                        if most_proving_line.is_empty() {
                            "(the root)".to_string()
                        } else {
                            most_proving_line.join(" ")
                        },
                        frontier_pn.unwrap_or(0),
                        frontier_dn.unwrap_or(0)
                    )?;
                }
                Ok(())
            }
        }
    }
}
