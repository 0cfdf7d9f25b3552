//! Handing the outer trees of batch jobs to a store (`store merge`): a
//! job that did not settle its position leaves its checkpoint in its
//! shard ([`crate::solved::shard`]); copied into the store's folder of
//! checkpoints, it is resumed by the next job on that position (and by
//! a `prove` of it over that store).

use super::checkpoint::summary;
use crate::store::{StoreError, write_atomically};
use std::path::{Path, PathBuf};

/// What handing one shard's checkpoints to a store did.
#[derive(Debug, Default)]
pub struct Adopted {
    /// Checkpoints copied into the store.
    pub taken: usize,
    /// Checkpoints left out because the store's own of the same search
    /// carries as many nodes searched or more.
    pub older: usize,
    /// Checkpoints refused (damaged), with why.
    pub refused: Vec<(PathBuf, StoreError)>,
}

/// Copies the checkpoints in the folder `from` (a shard's) into the
/// folder `to` (a store's), each written atomically. Each is read and
/// checked (checksum, header) first; a damaged one is refused and named.
/// Where `to` already holds a checkpoint of the same search, the one with
/// more nodes searched in all is kept (a job that resumed the store's
/// tree carries its nodes on, so a later round's tree replaces an
/// earlier round's). Take the store's lock before calling this.
pub fn adopt_checkpoints(from: &Path, to: &Path) -> Result<Adopted, StoreError> {
    let mut adopted = Adopted::default();
    let entries = match std::fs::read_dir(from) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(adopted),
        Err(error) => {
            return Err(StoreError::Io {
                path: from.display().to_string(),
                error,
            });
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ckpt"))
        .collect();
    paths.sort();
    for path in paths {
        let theirs = match summary(&path) {
            Ok(s) => s,
            Err(e) => {
                adopted.refused.push((path, e));
                continue;
            }
        };
        let Some(name) = path.file_name() else {
            continue;
        };
        let target = to.join(name);
        // A damaged checkpoint of the store's is replaced.
        if let Ok(ours) = summary(&target)
            && ours.totals.nodes >= theirs.totals.nodes
        {
            adopted.older += 1;
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|error| StoreError::Io {
            path: path.display().to_string(),
            error,
        })?;
        write_atomically(&target, &bytes)?;
        adopted.taken += 1;
    }
    Ok(adopted)
}
