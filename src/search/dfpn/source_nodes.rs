//! Source-node detection for plain sums ([`Sums::SourceNodes`], after
//! Kishimoto 2010): children of one node whose subtrees meet add their
//! larger number once instead of both.
//!
//! [`Sums::SourceNodes`]: crate::search::guide::Sums::SourceNodes

use super::{Child, DfPn};
use crate::position::Position;

/// How far up the parents source-node detection looks for a meeting.
const SOURCE_SEARCH_STEPS: usize = 12;

impl<P: Position> DfPn<'_, P> {
    /// Source-node detection (after Kishimoto 2010), run when the node at
    /// `depth` (on the current path) generates its children: a child last
    /// searched from another position was reached by two lines. Its
    /// parents are followed up (at most [`SOURCE_SEARCH_STEPS`]) to the
    /// first position on the current path, the *source node* where the two
    /// lines part; the source node's two children on them are recorded as
    /// meeting below ([`DfPn::source_groups`]).
    pub(super) fn detect_sources(&mut self, hash: u64, depth: u32, children: &[Child]) {
        for child in children {
            let Some(&from) = self.parents.get(&child.hash) else {
                continue;
            };
            if from == hash {
                continue;
            }
            let (mut at, mut below) = (from, child.hash);
            for _ in 0..SOURCE_SEARCH_STEPS {
                if let Some(&d) = self.path.get(&at) {
                    if d >= self.root_depth {
                        // `below` leads from the source to the child by
                        // the other line; the current path leaves it by
                        // its next position (the child itself, if the
                        // source is this node).
                        let on_path = if d == depth {
                            child.hash
                        } else {
                            self.path_stack[d as usize + 1]
                        };
                        if on_path != below {
                            let pairs = self.merges.entry(at).or_default();
                            if !pairs.contains(&(below, on_path)) {
                                pairs.push((below, on_path));
                            }
                        }
                    }
                    break;
                }
                match self.parents.get(&at) {
                    Some(&up) => (below, at) = (at, up),
                    None => break,
                }
            }
        }
    }

    /// The groups of the children of the position `hash` whose subtrees
    /// meet, as detected so far (`group[i]`: the group of child `i`, the
    /// index of its first member); `None` where none was detected (each
    /// child its own group: plain sums).
    pub(super) fn source_groups(&self, hash: u64, children: &[Child]) -> Option<Vec<usize>> {
        let pairs = self.merges.get(&hash)?;
        let mut group: Vec<usize> = (0..children.len()).collect();
        let index = |h: u64| children.iter().position(|c| c.hash == h);
        for &(a, b) in pairs {
            if let (Some(i), Some(j)) = (index(a), index(b)) {
                let (a, b) = (find(&group, i), find(&group, j));
                group[a.max(b)] = a.min(b);
            }
        }
        Some((0..children.len()).map(|i| find(&group, i)).collect())
    }
}

/// The first member of `i`'s group (a union-find without ranks: the
/// groups of one node's children are small).
fn find(group: &[usize], mut i: usize) -> usize {
    while group[i] != i {
        i = group[i];
    }
    i
}
