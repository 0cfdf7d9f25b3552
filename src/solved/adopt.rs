//! Outer trees between batch jobs and a store. A job that does not settle
//! its position leaves its checkpoint in its shard
//! ([`crate::solved::shard`]); `store merge` copies it into the store's
//! folder of checkpoints ([`read_shard_trees`] with the shard's table,
//! [`hand_over`] once the table's positions are in the store), and the
//! next job on that position copies it out again to resume it
//! ([`stage_from_store`], with its reading of the store).

use super::tree_file::{Summary, summary, summary_of};
use crate::store::{FileIdentity, StoreError, file_identity, io_error as io, write_atomically};
use std::path::{Path, PathBuf};

/// What handing one shard's trees to a store did.
#[derive(Debug, Default)]
pub struct Adopted {
    /// Trees copied into the store.
    pub taken: usize,
    /// Trees left out because the store's own of the same search carries
    /// as many nodes searched or more.
    pub older: usize,
    /// Trees refused, with why (damaged, unreadable, or the shard
    /// changed while it was merged).
    pub refused: Vec<(PathBuf, StoreError)>,
    /// Whether the store's tree of the position the shard's job settled
    /// was dropped.
    pub dropped: bool,
}

/// The trees of a shard, read and checked. Only their summaries and file
/// identities are kept: [`hand_over`] reads each again (a large merge
/// does not hold every tree in memory through the store's rewrite) and
/// refuses one whose file changed since.
#[derive(Debug, Default)]
pub struct ShardTrees {
    trees: Vec<(PathBuf, Summary, FileIdentity)>,
    refused: Vec<(PathBuf, StoreError)>,
}

impl ShardTrees {
    /// Whether the shard holds any tree (sound or not).
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty() && self.refused.is_empty()
    }

    /// Refuses every tree (the shard changed while it was read: its
    /// trees may not match the table that was merged).
    pub fn refuse_all(&mut self, why: &str) {
        for (path, _, _) in self.trees.drain(..) {
            self.refused.push((
                path.clone(),
                StoreError::Mismatched {
                    path: path.display().to_string(),
                    problem: why.to_string(),
                },
            ));
        }
    }
}

/// Reads every checkpoint in the folder `dir` (a shard's), each checked
/// (checksum, header); one that is not sound is refused, with why.
pub fn read_shard_trees(dir: &Path) -> ShardTrees {
    let mut found = ShardTrees::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return found,
        Err(e) => {
            found.refused.push((dir.to_path_buf(), io(dir)(e)));
            return found;
        }
    };
    let mut paths = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => paths.push(entry.path()),
            Err(e) => found.refused.push((dir.to_path_buf(), io(dir)(e))),
        }
    }
    paths.retain(|p| p.extension().is_some_and(|x| x == "ckpt"));
    paths.sort();
    for path in paths {
        match read_tree(&path, None) {
            Ok((summary, identity, _)) => found.trees.push((path, summary, identity)),
            Err(e) => found.refused.push((path, e)),
        }
    }
    found
}

/// Reads the tree at `path` and checks it (checksum, header), and that
/// the file is the one identified as `expected` if given: its summary,
/// its identity and its bytes.
fn read_tree(
    path: &Path,
    expected: Option<FileIdentity>,
) -> Result<(Summary, FileIdentity, Vec<u8>), StoreError> {
    let changed = || StoreError::Mismatched {
        path: path.display().to_string(),
        problem: "the tree changed since it was read with its shard's table: merge the shard again"
            .into(),
    };
    let before = file_identity(path);
    let bytes = std::fs::read(path).map_err(io(path))?;
    let after = file_identity(path);
    let identity = match (before, after) {
        (Some(b), Some(a)) if a == b => a,
        _ => return Err(changed()),
    };
    if expected.is_some_and(|e| e != identity) {
        return Err(changed());
    }
    let summary = summary_of(path, &bytes)?;
    Ok((summary, identity, bytes))
}

/// Writes the sound trees of `trees` into the folder `to` (a store's
/// checkpoints), each atomically. Where `to` already holds a tree of the
/// same search, the one with more nodes searched in all is kept (a job
/// that resumed the store's tree carries its nodes on, so a later round's
/// tree replaces an earlier round's, never the reverse). `settled` names
/// the tree of the position the shard's job settled, dropped from `to`
/// when the shard brings no tree of its own. Take the store's lock, and
/// write the shard's positions into the store first.
pub fn hand_over(trees: ShardTrees, to: &Path, settled: Option<&str>) -> Adopted {
    let brought = !trees.is_empty();
    let mut adopted = Adopted {
        refused: trees.refused,
        ..Adopted::default()
    };
    for (path, theirs, identity) in trees.trees {
        let Some(name) = path.file_name() else {
            continue;
        };
        let bytes = match read_tree(&path, Some(identity)) {
            Ok((_, _, bytes)) => bytes,
            Err(e) => {
                adopted.refused.push((path, e));
                continue;
            }
        };
        let target = to.join(name);
        // A damaged tree of the store's is replaced.
        if let Ok(ours) = summary(&target)
            && ours.totals.nodes >= theirs.totals.nodes
        {
            adopted.older += 1;
            continue;
        }
        match write_atomically(&target, &bytes) {
            Ok(()) => adopted.taken += 1,
            Err(e) => adopted.refused.push((path, e)),
        }
    }
    if let Some(name) = settled.filter(|_| !brought) {
        let stale = to.join(name);
        match std::fs::remove_file(&stale) {
            Ok(()) => adopted.dropped = true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => adopted.refused.push((stale.clone(), io(&stale)(e))),
        }
    }
    adopted
}

/// Copies the store's tree `name` (from the store's folder of checkpoints
/// `from`) into the folder `staged`, for a job to resume: checked first,
/// and a damaged one is an error naming it. `Ok(false)` when the store
/// holds none. Call it under the store's shared lock, together with the
/// job's reading of the store's positions, so that the tree never counts
/// as settled a position the job's store lacks.
pub fn stage_from_store(from: &Path, name: &str, staged: &Path) -> Result<bool, StoreError> {
    let source = from.join(name);
    let bytes = match std::fs::read(&source) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(&source)(e)),
    };
    summary_of(&source, &bytes)?;
    write_atomically(&staged.join(name), &bytes)?;
    Ok(true)
}
