//! The searches a store's checkpoints hold open, read for people looking
//! at the store (the explorer of `ransom serve`, `ransom store show`): for
//! every position of their outer trees not yet settled, its proof and
//! disproof numbers, and for each search its root, totals and the open
//! positions that hold it back most ([`super::frontier`]).
//!
//! The trees themselves are not kept: a search of a million outer nodes
//! leaves about 24 bytes a node here.

use super::checkpoint::{self, Totals};
use super::frontier::frontier;
use crate::board::Color;
use crate::notation::{fen, uci};
use crate::position::Position;
use crate::store::StoreError;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many frontier positions are kept per search.
pub const FRONTIER_KEPT: usize = 8;

/// One open position of a search's outer tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenNumbers {
    /// The side whose win the search seeks.
    pub attacker: Color,
    /// The position's proof number.
    pub pn: u32,
    /// Its disproof number.
    pub dn: u32,
}

/// One frontier position of a search, as moves from the search's root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierLine {
    /// The moves from the search's root, in UCI.
    pub moves: Vec<String>,
    /// Its proof and disproof numbers.
    pub numbers: (u32, u32),
    /// How far off the cheapest foreseen proof it lies (0: on it).
    pub slack: u64,
    /// Men on the board.
    pub men: u32,
}

/// One checkpointed search.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenSearch {
    /// The checkpoint file.
    pub path: PathBuf,
    /// The searched position.
    pub root_fen: String,
    /// Its hash.
    pub root_key: u64,
    /// The side whose win is sought.
    pub attacker: Color,
    /// Nodes, leaf searches and seconds so far.
    pub totals: Totals,
    /// Nodes of the outer tree.
    pub outer_nodes: u32,
    /// The root's proof and disproof numbers.
    pub root_numbers: (u32, u32),
    /// Open positions in the tree.
    pub open: usize,
    /// The open positions that hold the root back most, first
    /// [`FRONTIER_KEPT`].
    pub frontier: Vec<FrontierLine>,
}

/// Every search checkpointed in one store folder of one rule set.
#[derive(Debug, Default)]
pub struct OpenSearches {
    /// The searches, in file-name order.
    pub searches: Vec<OpenSearch>,
    /// Open positions by hash: the numbers each search has for them.
    numbers: HashMap<u64, Vec<OpenNumbers>>,
    /// Each file read, its length and time of change.
    signature: Vec<(PathBuf, u64, Option<SystemTime>)>,
    /// Checkpoints that could not be read, each with why.
    pub problems: Vec<String>,
}

impl OpenSearches {
    /// The numbers the searches have for the position with hash `key`.
    pub fn numbers(&self, key: u64) -> &[OpenNumbers] {
        self.numbers.get(&key).map_or(&[], Vec::as_slice)
    }

    /// The searches rooted at the position with hash `key`.
    pub fn rooted_at(&self, key: u64) -> impl Iterator<Item = &OpenSearch> {
        self.searches.iter().filter(move |s| s.root_key == key)
    }

    /// Open positions known, over every search.
    pub fn positions(&self) -> usize {
        self.numbers.len()
    }

    /// Whether the files in `dir` differ from those read.
    pub fn changed(&self, dir: &Path) -> bool {
        signature(dir) != self.signature
    }
}

fn signature(dir: &Path) -> Vec<(PathBuf, u64, Option<SystemTime>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, u64, Option<SystemTime>)> = entries
        .flatten()
        .filter(|e| checkpoint::parse_file_name(&e.file_name().to_string_lossy()).is_some())
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((e.path(), meta.len(), meta.modified().ok()))
        })
        .collect();
    files.sort();
    files
}

/// Reads every checkpoint in `dir` (a store's folder of checkpoints of
/// rule set `P`); a file that cannot be read is named in
/// [`OpenSearches::problems`] and passed over.
pub fn read_open_searches<P: Position>(dir: &Path) -> OpenSearches {
    let signature = signature(dir);
    let mut open = OpenSearches::default();
    for (path, _, _) in &signature {
        match read_one::<P>(path, &mut open.numbers) {
            Ok(search) => open.searches.push(search),
            Err(problem) => open.problems.push(problem.to_string()),
        }
    }
    open.signature = signature;
    open
}

fn read_one<P: Position>(
    path: &Path,
    numbers: &mut HashMap<u64, Vec<OpenNumbers>>,
) -> Result<OpenSearch, StoreError> {
    let summary = checkpoint::summary(path)?;
    let root: P = fen::parse_position(&summary.root_fen).map_err(|e| StoreError::Damaged {
        path: path.display().to_string(),
        kind: "checkpoint",
        problem: format!("its root FEN: {e}"),
    })?;
    let (tree, totals) =
        checkpoint::load(path, &root, summary.attacker)?.ok_or_else(|| StoreError::Io {
            path: path.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "gone while read"),
        })?;
    for node in &tree.nodes {
        let (pn, dn) = (node.pn.get(), node.dn.get());
        if pn == 0 || dn == 0 {
            continue;
        }
        let list = numbers.entry(node.hash).or_default();
        if !list.iter().any(|n| n.attacker == tree.attacker) {
            list.push(OpenNumbers {
                attacker: tree.attacker,
                pn,
                dn,
            });
        }
    }
    let listed = frontier(&tree, FRONTIER_KEPT);
    Ok(OpenSearch {
        path: path.to_path_buf(),
        root_fen: summary.root_fen,
        root_key: root.zobrist(),
        attacker: summary.attacker,
        totals,
        outer_nodes: summary.outer_nodes,
        root_numbers: summary.root_numbers,
        open: listed.open,
        frontier: listed
            .entries
            .iter()
            .map(|e| FrontierLine {
                moves: e.line.iter().map(|&m| uci::write(m)).collect(),
                numbers: (e.numbers.0.get(), e.numbers.1.get()),
                slack: e.slack,
                men: e.men,
            })
            .collect(),
    })
}
