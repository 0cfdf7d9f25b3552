//! The open positions of an outer tree that hold its root back most, for a
//! person choosing what to steer next (`ransom store frontier`).
//!
//! **Ranking.** A proof of the root needs, where the attacker moves, one
//! child, and where the defender moves, every child. The cheapest proof
//! the numbers foresee takes the child with the smallest proof number at
//! each attacker node; a leaf's *slack* is how much larger than that
//! smallest number the children on its line are, summed over the attacker
//! nodes above it. Leaves with slack 0 are the ones that cheapest proof
//! needs (every one of them must be proved); larger slack, less needed.
//! Within one slack, the leaf with the larger proof number comes first: it
//! is the bigger obstacle.

use super::tree::{NodeId, OuterTree};
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::Pn;
use crate::search::engine::{Engine, Limits, SearchOptions, score::Score};

/// One open leaf of the tree.
#[derive(Clone, Debug)]
pub struct FrontierEntry<P> {
    /// The moves from the tree's root to the leaf.
    pub line: Vec<Move>,
    /// The leaf's position.
    pub pos: P,
    /// Its proof and disproof numbers.
    pub numbers: (Pn, Pn),
    /// How far off the cheapest foreseen proof it lies (0: on it).
    pub slack: u64,
    /// Men on the board.
    pub men: u32,
}

/// What the engine thinks of a frontier position, for the attacker.
#[derive(Clone, Debug)]
pub struct EngineView {
    /// The score for the attacker (a forced result counts in the
    /// attacker's moves: positive, the attacker wins).
    pub score: Score,
    /// The engine's move in the position.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The open leaves of an outer tree, most holding the root back first.
#[derive(Clone, Debug)]
pub struct Frontier<P> {
    /// How many open leaves the tree has.
    pub open: usize,
    /// The first of them (at most the number asked for).
    pub entries: Vec<FrontierEntry<P>>,
}

/// The open leaves of `tree`, most holding the root back first (see the
/// module's notes): how many there are, and the first `top`.
pub fn frontier<P: Position>(tree: &OuterTree<P>, top: usize) -> Frontier<P> {
    let mut leaves: Vec<(NodeId, u64)> = Vec::new();
    let mut stack: Vec<(NodeId, u64)> = vec![(0, 0)];
    while let Some((id, slack)) = stack.pop() {
        let node = &tree.nodes[id as usize];
        if node.pn.is_zero() || node.dn.is_zero() {
            continue;
        }
        if !node.expanded {
            leaves.push((id, slack));
            continue;
        }
        let open = node.children.iter().copied().filter(|&c| {
            let n = &tree.nodes[c as usize];
            !(n.pn.is_zero() || n.dn.is_zero())
        });
        if tree.is_or(id) {
            let least = open
                .clone()
                .map(|c| u64::from(tree.nodes[c as usize].pn.get()))
                .min()
                .unwrap_or(0);
            for c in open {
                let pn = u64::from(tree.nodes[c as usize].pn.get());
                stack.push((c, slack.saturating_add(pn - least)));
            }
        } else {
            for c in open {
                stack.push((c, slack));
            }
        }
    }
    leaves.sort_by_key(|&(id, slack)| {
        let n = &tree.nodes[id as usize];
        (slack, std::cmp::Reverse(n.pn), n.dn, id)
    });
    let open = leaves.len();
    let entries = leaves
        .into_iter()
        .take(top)
        .map(|(id, slack)| {
            let n = &tree.nodes[id as usize];
            FrontierEntry {
                line: tree.line_to(id),
                pos: n.pos.clone(),
                numbers: (n.pn, n.dn),
                slack,
                men: n.pos.board().occupied().count(),
            }
        })
        .collect();
    Frontier { open, entries }
}

/// The engine's view of `pos` for `attacker`: a search of `nodes` nodes
/// on one thread.
pub fn engine_view<P: Position>(
    engine: &Engine,
    pos: &P,
    attacker: Color,
    nodes: u64,
) -> EngineView {
    let limits = Limits {
        nodes: Some(nodes.max(1)),
        ..Limits::default()
    };
    let report = engine.search(pos, &[], &limits, &SearchOptions::default(), &mut |_| {});
    let side_score = report
        .info
        .lines
        .first()
        .map_or(Score::Centipawns(0), |line| line.score);
    let score = if pos.turn() == attacker {
        side_score
    } else {
        match side_score {
            Score::Centipawns(cp) => Score::Centipawns(-cp),
            Score::Mate(m) => Score::Mate(-m),
        }
    };
    EngineView {
        score,
        best: report.best,
        nodes: report.info.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::guide::Guide;
    use crate::search::scale::tree::tests::expanded_start;

    /// A root (attacker White) with three children of proof numbers 3, 5
    /// and 9: the one of 3 comes first with slack 0, then 5 (slack 2),
    /// then 9 (slack 6).
    #[test]
    fn leaves_on_the_cheapest_proof_come_first() {
        let (tree, moves) = expanded_start(Guide::default());
        let listed = frontier(&tree, 10);
        assert_eq!(listed.open, 3);
        let slacks: Vec<u64> = listed.entries.iter().map(|e| e.slack).collect();
        assert_eq!(slacks, [0, 2, 6]);
        assert_eq!(listed.entries[0].line, [moves[0]]);
        assert_eq!(listed.entries[0].men, 32);
        let first = frontier(&tree, 1);
        assert_eq!((first.open, first.entries.len()), (3, 1));
    }
}
