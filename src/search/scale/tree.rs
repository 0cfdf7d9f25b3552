//! The outer level of the two-level search: a best-first proof-number
//! tree kept in memory, whose leaves are expanded by bounded df-pn
//! searches (PN², Breuker et al.).
//!
//! **Selection.** From the root, the child with the smallest proof number
//! where the attacker moves, the smallest disproof number where the
//! defender moves, down to a leaf. With several threads, a node with `k`
//! threads searching below it counts its number `k + 1` times (a virtual
//! loss), and a leaf being searched is not chosen again, so threads spread
//! over the most-proving leaves instead of piling onto one.
//!
//! **Expansion.** A leaf is searched by df-pn within the leaf budget. If
//! the search settles it, the leaf takes that value. If not, the leaf gets
//! all its children, with the numbers the search left in its table (or
//! initial ones for children it never reached): so the work of an
//! unsettled search is carried up as its children's numbers, and the node's
//! numbers are combined from them as everywhere else (weak proof numbers).
//!
//! **Likely values** (a guide's [`Likely`]): a fresh node may carry an
//! engine's score; at the current threshold it is a likely win, a likely
//! loss or open, which weighs its number when its parent chooses (as a
//! book does). A settled leaf whose score said the opposite raises the
//! threshold. Scores never set a value.
//!
//! **Pruned leaves**: a leaf whose disproof rests on a guide's heuristic
//! no-win rule is marked; a later run without the rule opens it again.
//!
//! **Transpositions** are shared through the solved-position store: a
//! position settled anywhere is found by one lookup everywhere. Open nodes
//! reached by two lines are two nodes of the tree. A child that repeats a
//! position of its own line counts as "not a win" for the attacker, on
//! that line only.

use super::sums_switch::SumsSwitch;
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::Pn;
use crate::search::guide::{Guide, Likely, LikelyClass, NoWin, Sums, weigh};
use crate::search::numbers::combine_with;

/// The index of a node.
pub type NodeId = u32;

/// No node (the root's parent).
pub const NONE: NodeId = NodeId::MAX;

/// One position of the outer tree.
#[derive(Clone, Debug)]
pub struct Node<P> {
    /// The position.
    pub pos: P,
    /// Its zobrist hash.
    pub hash: u64,
    /// The parent (`NONE` for the root).
    pub parent: NodeId,
    /// The move from the parent.
    pub mv: Option<Move>,
    /// The children, once expanded.
    pub children: Vec<NodeId>,
    /// Proof number.
    pub pn: Pn,
    /// Disproof number.
    pub dn: Pn,
    /// Whether the leaf search ran and the children were added.
    pub expanded: bool,
    /// Threads searching at or below this node.
    pub busy: u32,
    /// Moves to search first (the engine's choice where the attacker
    /// moves; empty: none). Not part of a checkpoint.
    pub preferred: Vec<Move>,
    /// Whether its disproof rests on a heuristic no-win rule (a leaf).
    pub pruned: bool,
    /// The engine's score for the attacker, where a guide's [`Likely`]
    /// scored it. Not part of a checkpoint.
    pub score: Option<i32>,
}

/// The outer tree.
#[derive(Clone, Debug)]
pub struct OuterTree<P> {
    /// The attacker: the side whose win is being proved.
    pub attacker: Color,
    /// Every node; the root is node 0.
    pub nodes: Vec<Node<P>>,
    /// What steers selection and fresh numbers (not part of a checkpoint:
    /// each run sets its own).
    pub guide: Guide,
    /// The likely-value threshold after the raises of this run (`None`:
    /// the guide's own).
    likely_threshold: Option<i32>,
    /// How often this run raised the threshold.
    pub likely_raises: u32,
    /// When the sums switch from weak to plain (kept in the checkpoint).
    pub(super) sums_switch: SumsSwitch,
}

impl<P: Position> OuterTree<P> {
    /// A tree holding only `root`, with numbers `(pn, dn)`.
    pub fn new(root: P, attacker: Color, numbers: (Pn, Pn)) -> Self {
        OuterTree {
            attacker,
            nodes: vec![Node {
                hash: root.zobrist(),
                pos: root,
                parent: NONE,
                mv: None,
                children: Vec::new(),
                pn: numbers.0,
                dn: numbers.1,
                expanded: false,
                busy: 0,
                preferred: Vec::new(),
                pruned: false,
                score: None,
            }],
            guide: Guide::default(),
            likely_threshold: None,
            likely_raises: 0,
            sums_switch: SumsSwitch::default(),
        }
    }

    /// The likely-value threshold in force, if the guide scores nodes.
    pub fn likely_threshold(&self) -> Option<i32> {
        let likely = self.guide.likely?;
        Some(self.likely_threshold.unwrap_or(likely.threshold))
    }

    /// The weights of `id`'s children on the side `id` minimises (the
    /// guide's book), `None` where all weigh 1.
    fn child_weights(&self, id: NodeId) -> Option<Vec<u32>> {
        let node = &self.nodes[id as usize];
        if self.guide.book.is_some() || !node.preferred.is_empty() {
            let moves = node
                .children
                .iter()
                .filter_map(|&c| self.nodes[c as usize].mv);
            let chosen = self
                .guide
                .weights(node.hash, moves.clone())
                .or_else(|| self.guide.preferring(&node.preferred, moves));
            if chosen.is_some() {
                return chosen;
            }
        }
        self.likely_weights(id)
    }

    /// The weights of `id`'s children by their likely values (see
    /// [`LikelyClass::weight`]); `None` without scores.
    fn likely_weights(&self, id: NodeId) -> Option<Vec<u32>> {
        let threshold = self.likely_threshold()?;
        let node = &self.nodes[id as usize];
        let attacker_moves = self.is_or(id);
        let mut any = false;
        let weights = node
            .children
            .iter()
            .map(|&c| {
                let class = match self.nodes[c as usize].score {
                    Some(score) => {
                        any = true;
                        LikelyClass::of(score, threshold)
                    }
                    None => LikelyClass::Open,
                };
                class.weight(attacker_moves, self.guide.book_defer)
            })
            .collect();
        any.then_some(weights)
    }

    /// After `leaf` was settled (`proved`: the attacker wins there): if its
    /// score had judged the opposite, raise the threshold and recompute
    /// every node's numbers under it.
    fn judge(&mut self, leaf: NodeId, proved: bool) {
        let (Some(threshold), Some(score)) =
            (self.likely_threshold(), self.nodes[leaf as usize].score)
        else {
            return;
        };
        if LikelyClass::of(score, threshold).refuted_by(proved) {
            self.likely_threshold = Some(Likely::raised(threshold));
            self.likely_raises += 1;
            self.update_all();
        }
    }

    /// Adds up the sum side of every node with `sums` from now on (a run
    /// that switches from weak to plain sums), numbers recomputed.
    pub fn set_sums(&mut self, sums: Sums) {
        self.guide.sums = sums;
        self.update_all();
    }

    /// Recomputes every expanded node's numbers, children first.
    fn update_all(&mut self) {
        // A child's index is above its parent's: children come first.
        for id in (0..self.nodes.len() as NodeId).rev() {
            self.update(id);
        }
    }

    /// Marks `moves` to be searched first among `id`'s children.
    pub fn prefer(&mut self, id: NodeId, moves: Vec<Move>) {
        self.nodes[id as usize].preferred = moves;
    }

    /// The number `id` minimises over its children, weighted.
    fn weighted(&self, or_node: bool, child: NodeId, weight: u32) -> (Pn, Pn) {
        let c = &self.nodes[child as usize];
        if or_node {
            (weigh(c.pn, weight), c.dn)
        } else {
            (c.pn, weigh(c.dn, weight))
        }
    }

    /// The root's numbers.
    pub fn root_numbers(&self) -> (Pn, Pn) {
        (self.nodes[0].pn, self.nodes[0].dn)
    }

    /// Whether the root is proved or disproved.
    pub fn settled(&self) -> bool {
        let (pn, dn) = self.root_numbers();
        pn.is_zero() || dn.is_zero()
    }

    /// Whether the attacker moves at `id`.
    pub fn is_or(&self, id: NodeId) -> bool {
        self.nodes[id as usize].pos.turn() == self.attacker
    }

    /// The line of hashes from the root down to `id`'s parent.
    pub fn ancestors(&self, id: NodeId) -> Vec<u64> {
        let mut line = Vec::new();
        let mut at = self.nodes[id as usize].parent;
        while at != NONE {
            line.push(self.nodes[at as usize].hash);
            at = self.nodes[at as usize].parent;
        }
        line.reverse();
        line
    }

    /// The most-proving leaf that no thread is searching, marked busy
    /// along its line; `None` if the root is settled or every candidate is
    /// taken.
    pub fn select(&mut self) -> Option<NodeId> {
        if self.settled() {
            return None;
        }
        let mut at: NodeId = 0;
        loop {
            let node = &self.nodes[at as usize];
            if !node.expanded {
                if node.busy > 0 {
                    return None;
                }
                break;
            }
            let or_node = self.is_or(at);
            let weights = self.child_weights(at);
            let mut best = None;
            let mut best_value = u64::MAX;
            for (i, &c) in node.children.iter().enumerate() {
                let child = &self.nodes[c as usize];
                if child.pn.is_zero() || child.dn.is_zero() {
                    continue;
                }
                if !child.expanded && child.busy > 0 {
                    continue;
                }
                let weight = weights.as_ref().map_or(1, |w| w[i]);
                let (pn, dn) = self.weighted(or_node, c, weight);
                let number = u64::from(if or_node { pn } else { dn }.get());
                let value = number.saturating_mul(u64::from(child.busy) + 1);
                if value < best_value {
                    best_value = value;
                    best = Some(c);
                }
            }
            at = best?;
        }
        let mut mark = at;
        while mark != NONE {
            self.nodes[mark as usize].busy += 1;
            mark = self.nodes[mark as usize].parent;
        }
        Some(at)
    }

    /// Releases a selected leaf without changing it (a search that was
    /// stopped before it learned anything).
    pub fn release(&mut self, leaf: NodeId) {
        let mut at = leaf;
        while at != NONE {
            let node = &mut self.nodes[at as usize];
            node.busy = node.busy.saturating_sub(1);
            at = node.parent;
        }
    }

    /// Records what the leaf search found: a settled value, or the children
    /// with their numbers. Releases the leaf and updates the numbers up to
    /// the root. Returns the nodes that became proved, children first.
    pub fn apply(&mut self, leaf: NodeId, outcome: LeafOutcome<P>) -> Vec<NodeId> {
        self.apply_scored(leaf, outcome, &[])
    }

    /// As [`OuterTree::apply`], giving the new children the engine's
    /// `scores` (for the attacker, in the children's order; empty: none).
    pub fn apply_scored(
        &mut self,
        leaf: NodeId,
        outcome: LeafOutcome<P>,
        scores: &[Option<i32>],
    ) -> Vec<NodeId> {
        match outcome {
            LeafOutcome::Settled(pn, dn) => {
                let node = &mut self.nodes[leaf as usize];
                node.pn = pn;
                node.dn = dn;
                self.judge(leaf, pn.is_zero());
            }
            LeafOutcome::Pruned => {
                let node = &mut self.nodes[leaf as usize];
                (node.pn, node.dn) = (Pn::INFINITE, Pn::ZERO);
                node.pruned = true;
            }
            LeafOutcome::Expanded(children) => {
                let mut line = self.ancestors(leaf);
                line.push(self.nodes[leaf as usize].hash);
                for (i, (mv, pos, pn, dn)) in children.into_iter().enumerate() {
                    let hash = pos.zobrist();
                    let repeated = line.contains(&hash);
                    let (pn, dn) = if repeated {
                        (Pn::INFINITE, Pn::ZERO)
                    } else {
                        (pn, dn)
                    };
                    let pruned = !repeated
                        && dn.is_zero()
                        && self.guide.no_win.judges_lost(&pos, self.attacker);
                    let id = self.nodes.len() as NodeId;
                    self.nodes.push(Node {
                        pos,
                        hash,
                        parent: leaf,
                        mv: Some(mv),
                        children: Vec::new(),
                        pn,
                        dn,
                        expanded: false,
                        busy: 0,
                        preferred: Vec::new(),
                        pruned,
                        score: scores.get(i).copied().flatten(),
                    });
                    self.nodes[leaf as usize].children.push(id);
                }
                self.nodes[leaf as usize].expanded = true;
                self.update(leaf);
            }
        }
        let mut proved = Vec::new();
        let mut at = leaf;
        loop {
            let node = &mut self.nodes[at as usize];
            node.busy = node.busy.saturating_sub(1);
            let parent = node.parent;
            if at != leaf {
                let before = self.nodes[at as usize].pn;
                self.update(at);
                if self.nodes[at as usize].pn.is_zero() && !before.is_zero() {
                    proved.push(at);
                }
            } else if self.nodes[at as usize].pn.is_zero() && self.nodes[at as usize].expanded {
                proved.push(at);
            }
            if parent == NONE {
                break;
            }
            at = parent;
        }
        proved
    }

    /// Recomputes an expanded node's numbers from its children.
    fn update(&mut self, id: NodeId) {
        let node = &self.nodes[id as usize];
        if !node.expanded || node.children.is_empty() {
            return;
        }
        let or_node = self.is_or(id);
        let weights = self.child_weights(id);
        let (pn, dn) = combine_with(
            self.guide.sums,
            or_node,
            node.children
                .iter()
                .enumerate()
                .map(|(i, &c)| self.weighted(or_node, c, weights.as_ref().map_or(1, |w| w[i]))),
        );
        let node = &mut self.nodes[id as usize];
        node.pn = pn;
        node.dn = dn;
    }

    /// For a proved node where the attacker moves: the move to a proved
    /// child.
    pub fn proved_move(&self, id: NodeId) -> Option<Move> {
        self.nodes[id as usize]
            .children
            .iter()
            .map(|&c| &self.nodes[c as usize])
            .find(|c| c.pn.is_zero())
            .and_then(|c| c.mv)
    }

    /// The most-proving line: from the root, the child with the smallest
    /// proof number where the attacker moves and the smallest disproof
    /// number where the defender moves, down to a leaf (where the search
    /// would work next, and where it is stuck when it resists).
    pub fn most_proving_line(&self) -> Vec<NodeId> {
        let mut line = vec![0];
        let mut at: NodeId = 0;
        while !self.settled() {
            let or_node = self.is_or(at);
            let weights = self.child_weights(at);
            let next = self.nodes[at as usize]
                .children
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, c)| {
                    let n = &self.nodes[c as usize];
                    !(n.pn.is_zero() || n.dn.is_zero())
                })
                .min_by_key(|&(i, c)| {
                    let (pn, dn) = self.weighted(or_node, c, weights.as_ref().map_or(1, |w| w[i]));
                    if or_node { pn } else { dn }
                })
                .map(|(_, c)| c);
            match next {
                Some(c) => {
                    line.push(c);
                    at = c;
                }
                None => break,
            }
        }
        line
    }

    /// Up to `n` distinct leaves, chosen one after the other as `n`
    /// threads would choose them ([`OuterTree::select`], with its virtual
    /// loss): the open positions most worth searching next. The tree is
    /// left as it was.
    pub fn spread(&mut self, n: usize) -> Vec<NodeId> {
        let mut leaves = Vec::new();
        while leaves.len() < n {
            match self.select() {
                Some(leaf) => leaves.push(leaf),
                None => break,
            }
        }
        for &leaf in &leaves {
            self.release(leaf);
        }
        leaves
    }

    /// The moves from the root to `id`.
    pub fn line_to(&self, id: NodeId) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(mv) = self.nodes[at as usize].mv {
            line.push(mv);
            at = self.nodes[at as usize].parent;
        }
        line.reverse();
        line
    }

    /// Gives each open leaf the value `known` knows for it (`Some(true)`:
    /// the attacker wins, `Some(false)`: the attacker has no forced win;
    /// path-independent results only: the rules, the tables, the store),
    /// and opens again each leaf marked proved that `known` does not call
    /// a win (a checkpoint is never trusted for a result the store does not
    /// hold: its log may have lost records since), opens again each leaf
    /// disproved by a no-win rule when this run's guide has none, then
    /// recomputes the numbers up to the root. Used when a search resumes
    /// from a checkpoint.
    pub fn refresh(&mut self, known: impl Fn(&P) -> Option<bool>) -> Refreshed {
        let attacker = self.attacker;
        let guide = self.guide.clone();
        let (mut reopened, mut unpruned) = (0, 0);
        // Each node's plies from the root, in one pass: a parent's index is
        // below its children's.
        let mut depths = vec![0u32; self.nodes.len()];
        for id in 1..self.nodes.len() {
            depths[id] = depths[self.nodes[id].parent as usize] + 1;
        }
        for (node, &depth) in self.nodes.iter_mut().zip(&depths) {
            if node.pruned && guide.no_win == NoWin::Off {
                // A heuristic disproof of an earlier run: open again.
                node.pruned = false;
                (node.pn, node.dn) = initial_numbers(&node.pos, attacker, &guide, depth);
                unpruned += 1;
                continue;
            }
            if node.expanded || node.dn.is_zero() {
                continue;
            }
            match known(&node.pos) {
                Some(true) => (node.pn, node.dn) = (Pn::ZERO, Pn::INFINITE),
                Some(false) => (node.pn, node.dn) = (Pn::INFINITE, Pn::ZERO),
                None if node.pn.is_zero() => {
                    (node.pn, node.dn) = initial_numbers(&node.pos, attacker, &guide, depth);
                    reopened += 1;
                }
                None => {}
            }
        }
        let mut proved = Vec::new();
        // A child's index is above its parent's: children come first.
        for id in (0..self.nodes.len() as NodeId).rev() {
            if !self.nodes[id as usize].expanded {
                continue;
            }
            let before = self.nodes[id as usize].pn;
            self.update(id);
            if self.nodes[id as usize].pn.is_zero() && !before.is_zero() {
                proved.push(id);
            }
        }
        Refreshed {
            proved,
            reopened,
            unpruned,
        }
    }

    /// The nodes proved by their children (expanded, proof number 0),
    /// children first: what the store must hold for the tree's proof.
    pub fn proved_internal(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as NodeId)
            .rev()
            .filter(|&id| {
                let n = &self.nodes[id as usize];
                n.expanded && n.pn.is_zero()
            })
            .collect()
    }

    /// Expanded nodes (leaf searches that did not settle their leaf).
    pub fn expanded(&self) -> usize {
        self.nodes.iter().filter(|n| n.expanded).count()
    }
}

/// The numbers of a fresh node `depth` plies below the root whose value is
/// not known, as `guide` sets them (by default 1 for the side to move's own
/// goal, its number of moves for the other: mobility).
pub fn initial_numbers<P: Position>(
    pos: &P,
    attacker: Color,
    guide: &Guide,
    depth: u32,
) -> (Pn, Pn) {
    guide.initial(pos, attacker, pos.legal_move_count(), depth)
}

/// What [`OuterTree::refresh`] changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Expanded nodes that became proved, children first.
    pub proved: Vec<NodeId>,
    /// Leaves marked proved that the store does not hold: opened again.
    pub reopened: usize,
    /// Leaves disproved by a no-win rule this run does not use: opened
    /// again.
    pub unpruned: usize,
}

/// What a leaf search found.
pub enum LeafOutcome<P> {
    /// The leaf's value: `(0, ∞)` proved, `(∞, 0)` disproved.
    Settled(Pn, Pn),
    /// Disproved by a guide's heuristic no-win rule only: `(∞, 0)` for
    /// selection, no result.
    Pruned,
    /// The leaf was not settled: its children, with numbers.
    Expanded(Vec<(Move, P, Pn, Pn)>),
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::guide::Book;
    use crate::variants::Antichess;
    use std::sync::Arc;

    /// The start position with White attacking, expanded under `guide`
    /// into its first three moves' children, of proof numbers 3, 5 and 9;
    /// and those three moves.
    pub(crate) fn expanded_start(guide: Guide) -> (OuterTree<Antichess>, Vec<Move>) {
        expanded_start_scored(guide, &[])
    }

    /// [`expanded_start`], the children scored `scores` for White.
    fn expanded_start_scored(
        guide: Guide,
        scores: &[Option<i32>],
    ) -> (OuterTree<Antichess>, Vec<Move>) {
        let root = Antichess::start();
        let moves: Vec<Move> = root.legal_moves().iter().copied().take(3).collect();
        let mut tree = OuterTree::new(root.clone(), Color::White, (Pn::ONE, Pn::new(20)));
        tree.guide = guide;
        let leaf = tree.select().unwrap();
        let children = moves
            .iter()
            .zip([3u64, 5, 9])
            .map(|(&m, pn)| {
                let mut p = root.clone();
                p.play_unchecked(m);
                (m, p, Pn::new(pn), Pn::ONE)
            })
            .collect();
        tree.apply_scored(leaf, LeafOutcome::Expanded(children), scores);
        (tree, moves)
    }

    /// [`expanded_start`] with a book suggesting the third move.
    fn tree_with_book(defer: u32) -> (OuterTree<Antichess>, Vec<Move>) {
        let root = Antichess::start();
        let mut book = Book::default();
        book.suggest(&root, root.legal_moves()[2]);
        expanded_start(Guide {
            book: Some(Arc::new(book)),
            book_defer: defer,
            ..Guide::default()
        })
    }

    #[test]
    fn a_book_move_is_searched_first_until_it_looks_defer_times_harder() {
        // 9 < 3 × 8: the book's move first; the root's number is its own.
        let (mut tree, moves) = tree_with_book(8);
        let leaf = tree.select().unwrap();
        assert_eq!(tree.nodes[leaf as usize].mv, Some(moves[2]));
        assert_eq!(tree.root_numbers().0, Pn::new(9));
        assert_eq!(
            tree.line_to(*tree.most_proving_line().last().unwrap()),
            [moves[2]]
        );
        // 9 > 3 × 2: the plain choice.
        let (mut tree, moves) = tree_with_book(2);
        let leaf = tree.select().unwrap();
        assert_eq!(tree.nodes[leaf as usize].mv, Some(moves[0]));
        assert_eq!(tree.root_numbers().0, Pn::new(6));
    }

    #[test]
    fn a_proved_deferred_move_still_proves_the_root() {
        let (mut tree, moves) = tree_with_book(8);
        let first = tree.nodes[0].children[0];
        assert_eq!(tree.nodes[first as usize].mv, Some(moves[0]));
        let leaf = tree.select().unwrap();
        tree.release(leaf);
        tree.nodes[first as usize].busy += 1;
        tree.nodes[0].busy += 1;
        let proved = tree.apply(first, LeafOutcome::Settled(Pn::ZERO, Pn::INFINITE));
        assert!(tree.settled() && tree.root_numbers().0.is_zero());
        assert_eq!(proved, [0]);
    }

    fn likely_guide() -> Guide {
        Guide {
            likely: Some(Likely {
                threshold: 100,
                nodes: 1,
            }),
            ..Guide::default()
        }
    }

    #[test]
    fn likely_wins_are_chosen_first_and_a_refuted_judgement_raises_the_threshold() {
        // Proof numbers 3, 5, 9; scores: likely loss, open, likely win.
        let scores = [Some(-300), Some(0), Some(250)];
        let (mut tree, moves) = expanded_start_scored(likely_guide(), &scores);
        // Weighted 3 × 64, 5 × 8, 9 × 1 where White moves.
        assert_eq!(tree.root_numbers().0, Pn::new(9));
        let leaf = tree.select().unwrap();
        assert_eq!(tree.nodes[leaf as usize].mv, Some(moves[2]));
        // The likely win is disproved: the threshold rises by a quarter.
        tree.apply(leaf, LeafOutcome::Settled(Pn::INFINITE, Pn::ZERO));
        assert_eq!(tree.likely_threshold(), Some(125));
        assert_eq!(tree.likely_raises, 1);
        assert_eq!(tree.root_numbers().0, Pn::new(40));
        // Scores never settle anything.
        assert!(!tree.settled());
        // Without likely values the scores are ignored.
        let (tree, _) = expanded_start_scored(Guide::default(), &scores);
        assert_eq!(tree.root_numbers().0, Pn::new(3));
    }

    #[test]
    fn a_pruned_leaf_is_opened_again_by_a_run_without_the_rule() {
        let pruning = Guide {
            no_win: NoWin::Bishops,
            ..Guide::default()
        };
        let (mut tree, _) = expanded_start(pruning.clone());
        let leaf = tree.select().unwrap();
        tree.apply(leaf, LeafOutcome::Pruned);
        assert!(tree.nodes[leaf as usize].pruned);
        assert!(tree.nodes[leaf as usize].dn.is_zero());
        // The same rule: the leaf stays pruned.
        assert_eq!(tree.refresh(|_| None).unpruned, 0);
        // No rule: it is opened again with fresh numbers.
        tree.guide = Guide::default();
        let refreshed = tree.refresh(|_| None);
        assert_eq!((refreshed.unpruned, refreshed.reopened), (1, 0));
        let node = &tree.nodes[leaf as usize];
        assert!(!node.pruned && !node.dn.is_zero() && !node.pn.is_zero());
    }
}
