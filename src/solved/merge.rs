//! Folding shards (the stores of batch jobs, [`super::shard`]) into a
//! store: `ransom store merge DIR SHARD…`.
//!
//! Every shard is read in full first, every checksum checked; a damaged
//! or missing shard is named and left out, and the others are merged. The
//! store and the good shards are then written as one new compacted table
//! (the same atomic step as compaction), so a crash during a merge leaves
//! the store as it was, and merging a shard twice changes nothing the
//! second time. Then, under the same lock, the outer trees the shards'
//! jobs left open are handed to the store's checkpoints
//! ([`super::adopt`]): each read with its shard's table
//! (refused if the table changed meanwhile) and written only once the
//! table's positions are in the store.

use super::adopt::{Adopted, ShardTrees, hand_over, read_shard_trees};
use super::compact::{CompactReport, rewrite};
use super::files::{Merged, MergedRecord, read_merged, scan};
use super::shard::{MERGED_LIST, shard_checkpoints, shard_table};
use super::tree_file::parse_file_name;
use super::{CHECKPOINTS_DIR, lock, variant_dir};
use crate::store::{FileIdentity, StoreError, file_identity, io_error};
use crate::variants::Variant;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// What merging one shard did.
#[derive(Debug)]
pub struct ShardMerge {
    /// The shard as given.
    pub shard: PathBuf,
    /// Distinct positions it holds and how many of them the store did not
    /// have (or knew less about); or why it was refused.
    pub outcome: Result<(u64, u64), StoreError>,
    /// What became of the outer trees it holds.
    pub trees: Adopted,
    /// Why the job's result beside the shard could not be used (missing
    /// or damaged): the shard's positions are merged, but the store's
    /// tree of the job's position is kept, and the job should run again.
    pub job_result_problem: Option<String>,
}

/// What a merge did.
#[derive(Debug, Default)]
pub struct MergeReport {
    /// Each shard, in the order given.
    pub shards: Vec<ShardMerge>,
    /// Positions of the store before.
    pub positions_before: u64,
    /// The rewrite of the store (`None` if no shard added anything).
    pub compacted: Option<CompactReport>,
}

impl MergeReport {
    /// The shards refused.
    pub fn refused(&self) -> impl Iterator<Item = (&Path, &StoreError)> {
        self.shards
            .iter()
            .filter_map(|s| s.outcome.as_ref().err().map(|e| (s.shard.as_path(), e)))
    }
}

/// Reads a shard: `variant`'s store under `shard`, every record checked.
fn read_shard(shard: &Path, variant: Variant) -> Result<Merged, StoreError> {
    let dir = variant_dir(shard, variant);
    if !dir.is_dir() {
        return Err(StoreError::Io {
            path: shard.display().to_string(),
            error: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("not a shard: no {}/ folder with a table", variant.name()),
            ),
        });
    }
    let files = scan(&dir)?;
    if files.table.is_none() && files.logs.is_empty() {
        return Err(StoreError::Io {
            path: dir.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "not a shard: no table"),
        });
    }
    read_merged(&files, variant.name())
}

/// Merges the shards into `variant`'s store under `root` (created if it
/// does not exist), taking the store's lock, and hands their outer trees
/// to the store. A shard's job result ([`super::batch::settled_tree_of`])
/// is read together with its table (between two looks at the table's
/// identity), so that a job run again meanwhile is noticed. The store's tree of a
/// position a job settled is dropped only if that result says so and the
/// merged store holds the position settled for that side.
pub fn merge_shards(
    root: &Path,
    variant: Variant,
    shards: &[PathBuf],
    wait: bool,
) -> Result<MergeReport, StoreError> {
    let dir = variant_dir(root, variant);
    std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
    let _lock = lock(&dir, true, wait)?;
    super::remove_leftovers(&dir);
    let found = scan(&dir)?;
    let mut merged = read_merged(&found, variant.name())?;
    let mut report = MergeReport {
        positions_before: merged.records.len() as u64,
        ..MergeReport::default()
    };
    let mut added = 0u64;
    let mut trees: Vec<ShardTrees> = Vec::with_capacity(shards.len());
    // The identity of each shard's table as merged (`None`: refused, or
    // it changed while it was read), and the tree its job settled.
    let mut identities = Vec::with_capacity(shards.len());
    let mut settled = Vec::with_capacity(shards.len());
    for shard in shards {
        let table = shard_table(shard, variant);
        let before = file_identity(&table);
        let result = super::batch::settled_tree_of(shard);
        let outcome = read_shard(shard, variant).map(|part| {
            let mut new = 0u64;
            for m in part.records.values() {
                let record = m.record;
                match merged.records.get_mut(&record.key) {
                    Some(have) => {
                        let joined = have.record.value.merge(record.value);
                        if joined != have.record.value {
                            have.record.value = joined;
                            new += 1;
                        }
                    }
                    None => {
                        merged.records.insert(
                            record.key,
                            MergedRecord {
                                record,
                                file: 0,
                                index: 0,
                            },
                        );
                        new += 1;
                    }
                }
            }
            (part.records.len() as u64, new)
        });
        let mut shard_trees = ShardTrees::default();
        let mut identity = None;
        let mut settled_tree = None;
        let mut job_result_problem = None;
        if let Ok((_, new)) = &outcome {
            added += new;
            shard_trees = read_shard_trees(&shard_checkpoints(shard, variant));
            if before.is_none() {
                shard_trees.refuse_all(
                    "the shard has no table of a job's shard (solved-000001.rst): its trees are not taken",
                );
            } else if file_identity(&table) != before {
                shard_trees.refuse_all(
                    "the shard's table changed while it was merged (a job ran again into it): merge the shard again",
                );
            } else {
                identity = before;
                match result {
                    Ok(tree) => settled_tree = tree,
                    Err(why) => job_result_problem = Some(why.to_string()),
                }
            }
        }
        trees.push(shard_trees);
        identities.push(identity);
        settled.push(settled_tree);
        report.shards.push(ShardMerge {
            shard: shard.clone(),
            outcome,
            trees: Adopted::default(),
            job_result_problem,
        });
    }
    if added > 0 {
        report.compacted = Some(rewrite(&dir, variant, &found, &merged)?);
    }
    let checkpoints = dir.join(CHECKPOINTS_DIR);
    let settled_in_store = |name: &str| {
        parse_file_name(name).is_some_and(|(key, attacker)| {
            merged.records.get(&key).is_some_and(|m| {
                let v = m.record.value;
                v.is_win() || v.is_loss() || v.no_win(attacker)
            })
        })
    };
    for ((s, shard_trees), settled) in report.shards.iter_mut().zip(trees).zip(settled) {
        if s.outcome.is_ok() {
            let settled = settled.filter(|name| settled_in_store(name));
            s.trees = hand_over(shard_trees, &checkpoints, settled.as_deref());
        }
    }
    // Which shards the store now holds, for `store stats --plan`.
    let MergedShards(mut list) = MergedShards::read(&dir);
    for (s, identity) in report.shards.iter().zip(identities) {
        if let Some(identity) = identity {
            list.insert(absolute(&shard_table(&s.shard, variant)), identity);
        }
    }
    let mut text = String::new();
    let mut names: Vec<_> = list.iter().collect();
    names.sort_by(|a, b| a.0.cmp(b.0));
    for (name, id) in names {
        text += &format!("{} {}:{} {name}\n", id.len, id.modified, id.inode);
    }
    crate::store::write_atomically(&dir.join(MERGED_LIST), text.as_bytes())?;
    Ok(report)
}

fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// The shard tables merged into a store, by absolute path, with their
/// identity when merged (read once, asked about many shards).
#[derive(Debug, Default)]
pub struct MergedShards(HashMap<String, FileIdentity>);

impl MergedShards {
    /// The list of the store in `dir` (one rule set's folder); empty if
    /// nothing was ever merged. A line is `LEN MODIFIED:INODE PATH`; a
    /// line of an older store without the inode never matches, so such a
    /// shard counts as not merged until it is merged again.
    pub fn read(dir: &Path) -> MergedShards {
        let text = std::fs::read_to_string(dir.join(MERGED_LIST)).unwrap_or_default();
        MergedShards(
            text.lines()
                .filter_map(|line| {
                    let mut parts = line.splitn(3, ' ');
                    let len = parts.next()?.parse().ok()?;
                    let (modified, inode) = parts.next()?.split_once(':')?;
                    let identity = FileIdentity {
                        len,
                        modified: modified.parse().ok()?,
                        inode: inode.parse().ok()?,
                    };
                    Some((parts.next()?.to_string(), identity))
                })
                .collect(),
        )
    }

    /// Whether the shard under `shard` was merged as it is now.
    pub fn holds(&self, shard: &Path, variant: Variant) -> bool {
        let table = shard_table(shard, variant);
        file_identity(&table).is_some_and(|id| self.0.get(&absolute(&table)) == Some(&id))
    }
}
