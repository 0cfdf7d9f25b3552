//! `store verify` over every rule set of a store folder, and `store
//! compact`: each store's result as a type.

use super::store_stats::{StoreReportError, store_variants};
use crate::search::leaf_oracle::{leaf_oracle, syzygy_oracle};
use crate::search::{StoreCheck, StoreCheckError, verify_store};
use crate::solved::{self, variant_dir};
use crate::store::StoreError;
use crate::variants::{International, Losing};
use crate::{AnyPosition, Position, Variant, dispatch};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// What `store verify` found, one entry a rule set.
#[derive(Clone, Debug, Serialize)]
pub struct StoreVerifyReport {
    /// Each rule set's store.
    pub stores: Vec<StoreVerdict>,
}

impl StoreVerifyReport {
    /// Whether every store verified.
    pub fn ok(&self) -> bool {
        self.stores.iter().all(StoreVerdict::ok)
    }
}

/// One store's verdict.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum StoreVerdict {
    /// Checked: sound, or damaged with what remains re-proved.
    Checked(Box<CheckedStore>),
    /// Another process holds the store's lock.
    Busy {
        /// Always false.
        ok: bool,
        /// Always true.
        busy: bool,
        /// The store's folder.
        store: String,
        /// The lock's error.
        error: String,
    },
    /// The check failed: a stored result does not verify, or the store
    /// cannot be read.
    Failed {
        /// Always false.
        ok: bool,
        /// The store's folder.
        store: String,
        /// Why.
        error: String,
    },
}

/// A store that was checked.
#[derive(Clone, Debug, Serialize)]
pub struct CheckedStore {
    /// No damage found.
    pub ok: bool,
    /// The store's folder.
    pub store: String,
    /// What the check counted.
    #[serde(flatten)]
    pub check: StoreCheck,
    /// Checkpoints that do not read.
    pub damaged_checkpoints: Vec<DamagedCheckpoint>,
    /// Every problem found, one line each.
    pub problems: Vec<String>,
}

/// A checkpoint that does not read.
#[derive(Clone, Debug, Serialize)]
pub struct DamagedCheckpoint {
    /// The file.
    pub file: String,
    /// Why.
    pub problem: String,
}

impl StoreVerdict {
    /// Whether the store verified.
    pub fn ok(&self) -> bool {
        matches!(self, StoreVerdict::Checked(c) if c.ok)
    }

    /// The lines for stderr: damage with what to do about it, a busy or
    /// failed store. `root` is the store folder as the user gave it.
    pub fn messages(&self, root: &Path) -> Vec<String> {
        match self {
            StoreVerdict::Checked(c) => {
                let mut lines = Vec::new();
                if let Some(damage) = &c.check.damage {
                    lines.push(format!(
                        "DAMAGED: {}: {damage}\n(the {} positions that remain were re-proved; `ransom store compact {}` keeps them and accepts the loss, a backup of the log restores it)",
                        c.store,
                        c.check.positions,
                        root.display()
                    ));
                }
                for d in &c.damaged_checkpoints {
                    lines.push(format!(
                        "DAMAGED: {}: damaged checkpoint: {}\n(the saved outer tree of an unfinished search: remove it and that search starts afresh, keeping the store's positions; or restore it from a backup)",
                        d.file, d.problem
                    ));
                }
                lines
            }
            StoreVerdict::Busy { error, .. } => vec![format!("BUSY (not checked): {error}")],
            StoreVerdict::Failed { error, .. } => vec![format!("FAILED: {error}")],
        }
    }
}

impl fmt::Display for StoreVerdict {
    /// The summary line of a checked store (nothing for the others: their
    /// [`StoreVerdict::messages`] say it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let StoreVerdict::Checked(c) = self else {
            return Ok(());
        };
        let k = &c.check;
        let torn = if k.torn_bytes > 0 {
            format!("; {} bytes of a torn write dropped", k.torn_bytes)
        } else {
            String::new()
        };
        writeln!(
            f,
            "{}: {}: {} positions ({} records); {} wins and {} losses re-proved ({} positions walked); {} no-forced-win records (search results, not re-provable); {} checkpoints read{torn}",
            if c.ok { "OK" } else { "DAMAGED" },
            c.store,
            k.positions,
            k.records,
            k.wins,
            k.losses,
            k.walked,
            k.no_wins,
            k.checkpoints,
        )
    }
}

/// The knowledge `store verify` scores positions with, as `prove` used it.
#[derive(Clone, Debug, Default)]
pub struct VerifyWith {
    /// This project's tables.
    pub tablebases: Option<PathBuf>,
    /// Syzygy giveaway tables (antichess stores only).
    pub syzygy: Option<PathBuf>,
    /// Wait for a busy store.
    pub wait: bool,
}

/// Re-proves every stored win and loss of the stores in `dir` (every rule
/// set, or `variant`), each on a thread with a large stack; `on_store` is
/// told which store is being checked.
pub fn verify_stores(
    dir: &Path,
    variant: Option<&str>,
    with: &VerifyWith,
    on_store: &mut dyn FnMut(&Path),
) -> Result<StoreVerifyReport, StoreReportError> {
    if let Some(syzygy) = &with.syzygy {
        // Refused here, before any work, if the tables cannot be used.
        syzygy_oracle::<Losing<International>>(syzygy)?;
    }
    let mut stores = Vec::new();
    for variant in store_variants(dir, variant)? {
        let folder = variant_dir(dir, variant);
        on_store(&folder);
        let store = folder.display().to_string();
        let (root, with) = (dir.to_path_buf(), with.clone());
        let start = AnyPosition::start(variant);
        let result = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || dispatch!(start, p => check(&p, &root, &with)))
            .map_err(|e| StoreError::Io {
                path: store.clone(),
                error: e,
            })?
            .join()
            .unwrap_or_else(|_| {
                Err(StoreCheckError::Store(StoreError::Mismatched {
                    path: store.clone(),
                    problem: "the verifier thread panicked".into(),
                }))
            });
        stores.push(verdict(store, result));
    }
    Ok(StoreVerifyReport { stores })
}

fn check<P: Position>(
    _witness: &P,
    dir: &Path,
    with: &VerifyWith,
) -> Result<StoreCheck, StoreCheckError> {
    // Syzygy tables are antichess tables: other variants' stores are
    // checked without them (the folder was checked before).
    let syzygy = with
        .syzygy
        .as_deref()
        .filter(|_| P::VARIANT == Variant::Antichess);
    let oracle = leaf_oracle::<P>(with.tablebases.as_deref(), syzygy)
        .ok()
        .flatten();
    verify_store::<P>(dir, oracle.as_deref(), with.wait)
}

fn verdict(store: String, result: Result<StoreCheck, StoreCheckError>) -> StoreVerdict {
    match result {
        Ok(check) => {
            let mut problems: Vec<String> = check.damage.iter().cloned().collect();
            for (path, problem) in &check.damaged_checkpoints {
                problems.push(format!("{}: damaged checkpoint: {problem}", path.display()));
            }
            StoreVerdict::Checked(Box::new(CheckedStore {
                ok: problems.is_empty(),
                store,
                damaged_checkpoints: check
                    .damaged_checkpoints
                    .iter()
                    .map(|(p, why)| DamagedCheckpoint {
                        file: p.display().to_string(),
                        problem: why.clone(),
                    })
                    .collect(),
                problems,
                check,
            }))
        }
        Err(StoreCheckError::Store(e @ StoreError::Busy { .. })) => StoreVerdict::Busy {
            ok: false,
            busy: true,
            store,
            error: e.to_string(),
        },
        Err(e) => StoreVerdict::Failed {
            ok: false,
            store,
            error: e.to_string(),
        },
    }
}

/// One store compacted (`store compact`).
#[derive(Clone, Debug, Serialize)]
pub struct Compacted {
    /// The rule set.
    pub variant: &'static str,
    /// Distinct positions in the new table.
    pub positions: u64,
    /// Records read.
    pub records_read: u64,
    /// Bytes on disk before.
    pub bytes_before: u64,
    /// Bytes on disk after.
    pub bytes_after: u64,
    /// The new table.
    pub table: Option<String>,
    /// The store's folder.
    #[serde(skip)]
    pub dir: String,
}

/// Compacts `variant`'s store in `dir`.
pub fn compact_store(dir: &Path, variant: Variant, wait: bool) -> Result<Compacted, StoreError> {
    let report = solved::compact(dir, variant, wait)?;
    Ok(Compacted {
        variant: variant.name(),
        positions: report.positions,
        records_read: report.records_read,
        bytes_before: report.bytes_before,
        bytes_after: report.bytes_after,
        table: report.table.map(|t| t.display().to_string()),
        dir: variant_dir(dir, variant).display().to_string(),
    })
}

impl fmt::Display for Compacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} positions from {} records; {} -> {} bytes",
            self.dir, self.positions, self.records_read, self.bytes_before, self.bytes_after
        )
    }
}
