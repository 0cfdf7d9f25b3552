//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε
//! threshold trick, a memory-bounded transposition table, mobility-based
//! initial numbers and repetition handling.
//!
//! The search proves that `attacker` wins: OR nodes are the positions where
//! the attacker moves, AND nodes those where the defender moves. A position
//! that repeats one on the current path counts as "not a win" for the
//! attacker. Such a disproof depends on the path, so it is marked and never
//! trusted when the position is reached again by another path. Proofs never
//! depend on a repetition. A guide's heuristic no-win rule
//! ([`super::guide::NoWin`]) disproves in the same way: only on the path,
//! never kept as final, never collected for the store. Every proof is still
//! re-checked by the independent verifier before anyone reports it.

mod extract;
mod source_nodes;

use super::budget::{Budget, Meter, Progress};
use super::guide::{Guide, NoWin, Sums, Ties, unweigh_threshold, weigh};
use super::numbers::{
    child_thresholds, combine_grouped, combine_with, select, select_larger_other, table_capacity,
};
use super::oracle::{Oracle, attacker_wins};
use super::pn::Pn;
use crate::board::Color;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::solved::SolvedStore;
use hashbrown::HashMap;
use std::time::Duration;

pub use extract::ProofRecords;

/// Bytes one bucket of the transposition table costs: the key, the entry
/// and one control byte of the hash map.
const BUCKET_BYTES: usize = 8 + std::mem::size_of::<Entry>() + 1;

#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: Pn,
    dn: Pn,
    /// Nodes expanded below this entry (for replacement).
    work: u32,
    /// For a disproof that rests on a repetition: the depth of the
    /// shallowest repeated ancestor on the path it was found on; `PRUNED`
    /// for one that rests on a heuristic no-win rule; `NO_LOOP` otherwise.
    loop_depth: u32,
}

/// `loop_depth` of a result that does not rest on a repetition.
const NO_LOOP: u32 = u32::MAX;

/// `loop_depth` of a disproof that rests on a heuristic no-win rule: never
/// final, whatever the depth.
const PRUNED: u32 = u32::MAX - 1;

impl Entry {
    /// A disproof that holds only on the path it was found on.
    fn path_dependent(&self) -> bool {
        self.loop_depth != NO_LOOP
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchResult {
    /// The attacker wins.
    Proved,
    /// The attacker does not win (loss or draw, possibly by repetition).
    Disproved,
    /// A budget ran out first.
    Unknown,
}

impl SearchResult {
    /// The result a root's numbers say: proved at proof number 0,
    /// disproved at disproof number 0, unknown otherwise.
    pub(crate) fn of_root(pn: Pn, dn: Pn) -> SearchResult {
        if pn.is_zero() {
            SearchResult::Proved
        } else if dn.is_zero() {
            SearchResult::Disproved
        } else {
            SearchResult::Unknown
        }
    }
}

struct Child {
    /// The move to the child: the child's position is not kept (copying
    /// every child's position into the list cost more than playing the
    /// move again when the search goes down to it).
    mv: Move,
    hash: u64,
    pn: Pn,
    dn: Pn,
    /// The child repeats a position of the current path (its depth), or
    /// its disproof rests on such a repetition; `NO_LOOP` otherwise.
    loop_depth: u32,
    /// The weight of its number on the side the parent minimises (a
    /// guide's book: 1 unless deferred).
    weight: u32,
}

impl Child {
    /// The numbers the parent combines: weighted on the side it minimises.
    fn weighted(&self, or_node: bool) -> (Pn, Pn) {
        if or_node {
            (weigh(self.pn, self.weight), self.dn)
        } else {
            (self.pn, weigh(self.dn, self.weight))
        }
    }
}

/// A position the search settled with some work below it, kept for the
/// solved-position store (see [`DfPn::collect_settled`]).
#[derive(Clone, Debug)]
pub struct Settled<P> {
    /// The position.
    pub pos: P,
    /// Whether the attacker wins (`false`: no forced win, path-independent).
    pub proved: bool,
    /// Nodes spent below it.
    pub work: u32,
}

/// A df-pn search for one attacker, generic over the variant.
pub struct DfPn<'p, P: Position> {
    attacker: Color,
    table: HashMap<u64, Entry>,
    capacity: usize,
    meter: Meter<'p>,
    path: HashMap<u64, u32>,
    root: (Pn, Pn),
    /// The depth of the searched root (the outer path's length for a leaf
    /// of a two-level search, 0 otherwise).
    root_depth: u32,
    oracle: Option<&'p dyn Oracle<P>>,
    oracle_hits: std::cell::Cell<u64>,
    store: Option<&'p SolvedStore>,
    store_hits: std::cell::Cell<u64>,
    /// Keep settled positions with at least this much work below them.
    collect_min_work: Option<u32>,
    settled: Vec<Settled<P>>,
    guide: Option<&'p Guide>,
    /// How the sum side of a node's numbers adds up (the guide's, as the
    /// run has it now: [`DfPn::set_sums`]).
    sums: Sums,
    /// With source-node detection ([`Sums::SourceNodes`]): for each
    /// position searched, the position it was last searched from.
    parents: HashMap<u64, u64>,
    /// With source-node detection: the current path's hashes by depth.
    path_stack: Vec<u64>,
    /// With source-node detection: for a source node, the pairs of its
    /// children whose subtrees meet.
    merges: HashMap<u64, Vec<(u64, u64)>>,
    _variant: std::marker::PhantomData<P>,
}

impl<'p, P: Position> DfPn<'p, P> {
    /// A search for `attacker` within `budget`.
    pub fn new(attacker: Color, budget: &Budget) -> Self {
        DfPn {
            attacker,
            table: HashMap::new(),
            capacity: table_capacity(budget.hash_bytes, BUCKET_BYTES),
            meter: Meter::new(budget),
            path: HashMap::new(),
            root: (Pn::ONE, Pn::ONE),
            root_depth: 0,
            oracle: None,
            oracle_hits: std::cell::Cell::new(0),
            store: None,
            store_hits: std::cell::Cell::new(0),
            collect_min_work: None,
            settled: Vec::new(),
            guide: None,
            sums: Sums::Weak,
            parents: HashMap::new(),
            path_stack: Vec::new(),
            merges: HashMap::new(),
            _variant: std::marker::PhantomData,
        }
    }

    /// Takes the results of a solved-position store as settled (a stored
    /// position costs one lookup).
    pub fn with_store(mut self, store: Option<&'p SolvedStore>) -> Self {
        self.store = store;
        self
    }

    /// Steers the search with `guide` (initial numbers, ties, a book);
    /// `None` or a plain guide searches as without one.
    pub fn with_guide(mut self, guide: Option<&'p Guide>) -> Self {
        self.guide = guide.filter(|g| !g.is_plain());
        self.sums = self.guide.map_or(Sums::Weak, |g| g.sums.at_start());
        self
    }

    /// Adds up the sum side with `sums` from now on (a run that switches
    /// from weak to plain sums: [`Sums::Switch`]).
    pub fn set_sums(&mut self, sums: Sums) {
        self.sums = sums;
    }

    /// Keeps every position settled with at least `min_work` nodes below
    /// it (proved, or disproved independently of the path), for
    /// [`DfPn::take_settled`].
    pub fn collect_settled(mut self, min_work: u32) -> Self {
        self.collect_min_work = Some(min_work.max(1));
        self
    }

    /// The positions collected since the last call (see
    /// [`DfPn::collect_settled`]).
    pub fn take_settled(&mut self) -> Vec<Settled<P>> {
        std::mem::take(&mut self.settled)
    }

    /// Positions settled by the store.
    pub fn store_hits(&self) -> u64 {
        self.store_hits.get()
    }

    /// Searches `root` within `budget`, keeping the transposition table of
    /// earlier searches: one leaf of a two-level search. `ancestors` are
    /// the hashes of the positions on the line to `root` (root of the
    /// whole search first): reaching one again is a repetition, and a
    /// disproof resting on it is not kept as final. Nodes are counted from
    /// 0 for each call.
    pub fn search_leaf(&mut self, root: &P, ancestors: &[u64], budget: &Budget) -> SearchResult {
        self.meter = Meter::new(budget);
        self.path.clear();
        self.path_stack = ancestors.to_vec();
        for (depth, &hash) in ancestors.iter().enumerate() {
            self.path.insert(hash, depth as u32);
        }
        self.root_depth = ancestors.len() as u32;
        let hash = root.zobrist();
        let (pn, dn) = self.mid(root, hash, Pn::INFINITE, Pn::INFINITE, self.root_depth);
        self.path.clear();
        self.root = (pn, dn);
        SearchResult::of_root(pn, dn)
    }

    /// The numbers of `pos`'s children after a search: from the table
    /// where known (path-dependent disproofs left out), initial otherwise,
    /// in move-generation order.
    pub fn child_numbers(&self, pos: &P) -> Vec<(Move, P, Pn, Pn)> {
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let (pn, dn) = match self.lookup(child.zobrist()) {
                    Some(e) => (e.pn, e.dn),
                    None => self.initial(&child, self.root_depth + 1),
                };
                (mv, child, pn, dn)
            })
            .collect()
    }

    /// The plies from the root of the whole search to the root of the last
    /// search (the outer line's length for a leaf search).
    pub fn root_depth(&self) -> u32 {
        self.root_depth
    }

    /// The numbers of the root after the last search.
    pub fn root_numbers(&self) -> (Pn, Pn) {
        self.root
    }

    /// Whether the disproof the table holds for the position with `hash`
    /// rests on a heuristic no-win rule (so it is no result at all).
    pub fn disproof_is_pruned(&self, hash: u64) -> bool {
        self.table
            .get(&hash)
            .is_some_and(|e| e.dn.is_zero() && e.loop_depth == PRUNED)
    }

    /// The guide's no-win rule (off without a guide).
    fn no_win(&self) -> NoWin {
        self.guide.map_or(NoWin::Off, |g| g.no_win)
    }

    /// Whether the guide's heuristic no-win rule judges `pos` lost for the
    /// attacker.
    fn pruned(&self, pos: &P) -> bool {
        self.no_win().judges_lost(pos, self.attacker)
    }

    /// Takes the values of the positions `oracle` covers (endgame
    /// tablebases) as settled.
    pub fn with_oracle(mut self, oracle: Option<&'p dyn Oracle<P>>) -> Self {
        self.oracle = oracle;
        self
    }

    /// Positions settled by the oracle.
    pub fn oracle_hits(&self) -> u64 {
        self.oracle_hits.get()
    }

    /// Calls `report` about once a second during the search.
    pub fn with_progress(mut self, report: &'p mut dyn FnMut(&Progress)) -> Self {
        self.meter.set_progress(report);
        self
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.meter.nodes
    }

    /// Time since the search was created.
    pub fn elapsed(&self) -> Duration {
        self.meter.elapsed()
    }

    /// The attacker.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// Positions in the transposition table.
    pub fn table_entries(&self) -> usize {
        self.table.len()
    }

    /// Searches until the root is proved or disproved or a budget runs out.
    pub fn search(&mut self, root: &P) -> SearchResult {
        self.path_stack.clear();
        let hash = root.zobrist();
        let (pn, dn) = self.mid(root, hash, Pn::INFINITE, Pn::INFINITE, 0);
        self.root = (pn, dn);
        SearchResult::of_root(pn, dn)
    }

    /// Whether the attacker wins at once (`Some(true)`), the game is over
    /// otherwise (`Some(false)`), or it goes on (`None`); the oracle and
    /// the store count as settling a position.
    fn terminal(&self, pos: &P, has_legal_moves: bool) -> Option<bool> {
        pos.outcome_with(has_legal_moves)
            .map(|o| o.winner == Some(self.attacker))
            .or_else(|| self.by_oracle(pos))
            .or_else(|| self.by_store(pos))
    }

    /// Whether the attacker wins by the store, if it knows `pos`.
    fn by_store(&self, pos: &P) -> Option<bool> {
        let known = self
            .store?
            .get(pos.zobrist())?
            .attacker_wins(self.attacker, pos.turn());
        if known.is_some() {
            self.store_hits.set(self.store_hits.get() + 1);
        }
        known
    }

    /// Whether the attacker wins by the oracle, if it covers `pos`.
    fn by_oracle(&self, pos: &P) -> Option<bool> {
        let known = attacker_wins(self.oracle?, pos, self.attacker);
        if known.is_some() {
            self.oracle_hits.set(self.oracle_hits.get() + 1);
        }
        known
    }

    /// Initial numbers of an unexpanded position: mobility-based. A defender
    /// with few replies is cheap to prove against; an attacker with many
    /// moves is expensive to disprove. Where the position offers a cheap
    /// [`Position::mobility_hint`], the rules' verdict waits until the
    /// position is expanded (`mid` settles it from its legal moves), and
    /// only the oracle and the store settle it here. `depth` counts plies
    /// from the root of the whole search (the guide's deep numbers).
    fn initial(&self, pos: &P, depth: u32) -> (Pn, Pn) {
        let (pn, dn, _) = self.fresh(pos, depth);
        (pn, dn)
    }

    /// As [`DfPn::initial`], with the `loop_depth` of the numbers: `PRUNED`
    /// where the guide's no-win rule disproves the position.
    fn fresh(&self, pos: &P, depth: u32) -> (Pn, Pn, u32) {
        let (settled, count) = match pos.mobility_hint() {
            // At least 1: numbers of 0 would claim a result the rules have
            // not given (no move at all is settled at expansion).
            Some(count) => (
                self.by_oracle(pos).or_else(|| self.by_store(pos)),
                count.max(1),
            ),
            None => {
                let count = pos.legal_move_count();
                (self.terminal(pos, count > 0), count)
            }
        };
        let (pn, dn) = match settled {
            Some(true) => (Pn::ZERO, Pn::INFINITE),
            Some(false) => (Pn::INFINITE, Pn::ZERO),
            None if self.pruned(pos) => return (Pn::INFINITE, Pn::ZERO, PRUNED),
            None => match self.guide {
                Some(guide) => guide.initial(pos, self.attacker, count, depth),
                None => {
                    let n = Pn::new(count as u64);
                    if pos.turn() == self.attacker {
                        (Pn::ONE, n)
                    } else {
                        (n, Pn::ONE)
                    }
                }
            },
        };
        (pn, dn, NO_LOOP)
    }

    fn lookup(&self, hash: u64) -> Option<Entry> {
        self.table
            .get(&hash)
            .copied()
            .filter(|e| !e.path_dependent())
    }

    fn store(&mut self, hash: u64, entry: Entry) {
        if self.table.len() >= self.capacity && !self.table.contains_key(&hash) {
            self.collect_garbage();
        }
        self.table.insert(hash, entry);
    }

    /// Frees a quarter of the table or more: first unresolved entries with
    /// little work below them, then, only if that is not enough, resolved ones.
    fn collect_garbage(&mut self) {
        let target = self.capacity * 3 / 4;
        let mut threshold = 1u32;
        while self.table.len() > target && threshold < u32::MAX / 2 {
            self.table.retain(|_, e| {
                e.pn.is_zero() || (e.dn.is_zero() && !e.path_dependent()) || e.work >= threshold
            });
            threshold = threshold.saturating_mul(2);
        }
        if self.table.len() > target {
            self.table.retain(|_, e| e.pn.is_zero());
        }
        if self.table.len() > target {
            self.table.clear();
        }
        let table = &self.table;
        self.parents.retain(|k, _| table.contains_key(k));
        self.merges.retain(|k, _| table.contains_key(k));
    }

    fn check_budget(&mut self) {
        let table = &self.table;
        self.meter.check(self.root, || table.len());
    }

    fn mid(&mut self, pos: &P, hash: u64, th_pn: Pn, th_dn: Pn, depth: u32) -> (Pn, Pn) {
        self.meter.nodes += 1;
        let work_start = self.meter.nodes;
        self.check_budget();
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if let Some(win) = self.terminal(pos, !moves.is_empty()) {
            let (pn, dn) = if win {
                (Pn::ZERO, Pn::INFINITE)
            } else {
                (Pn::INFINITE, Pn::ZERO)
            };
            self.store(
                hash,
                Entry {
                    pn,
                    dn,
                    work: 1,
                    loop_depth: NO_LOOP,
                },
            );
            return (pn, dn);
        }
        if self.pruned(pos) {
            let entry = Entry {
                pn: Pn::INFINITE,
                dn: Pn::ZERO,
                work: 1,
                loop_depth: PRUNED,
            };
            self.store(hash, entry);
            return (entry.pn, entry.dn);
        }
        let or_node = pos.turn() == self.attacker;
        self.path.insert(hash, depth);
        let source_nodes = self.sums == Sums::SourceNodes;
        if source_nodes {
            self.path_stack.truncate(depth as usize);
            self.path_stack.push(hash);
        }
        let weights = self
            .guide
            .and_then(|g| g.weights(hash, moves.iter().copied()));
        let larger_other = self.guide.is_some_and(|g| g.ties == Ties::LargerOther);
        let sums = self.sums;
        let mut children: Vec<Child> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let child_hash = child.zobrist();
                let (pn, dn, loop_depth) = if let Some(&ancestor) = self.path.get(&child_hash) {
                    (Pn::INFINITE, Pn::ZERO, ancestor)
                } else if let Some(e) = self.lookup(child_hash) {
                    (e.pn, e.dn, NO_LOOP)
                } else {
                    self.fresh(&child, depth + 1)
                };
                Child {
                    mv,
                    hash: child_hash,
                    pn,
                    dn,
                    loop_depth,
                    weight: weights.as_ref().map_or(1, |w| w[i]),
                }
            })
            .collect();

        if source_nodes {
            self.detect_sources(hash, depth, &children);
        }
        let (mut pn, mut dn);
        loop {
            let groups = source_nodes
                .then(|| self.source_groups(hash, &children))
                .flatten();
            for child in children.iter_mut().filter(|c| c.loop_depth == NO_LOOP) {
                if let Some(e) = self.lookup(child.hash) {
                    child.pn = e.pn;
                    child.dn = e.dn;
                }
            }
            let numbers = children.iter().map(|c| c.weighted(or_node));
            (pn, dn) = match &groups {
                Some(groups) => combine_grouped(or_node, numbers, groups),
                None => combine_with(sums, or_node, numbers),
            };
            if depth == self.root_depth {
                self.root = (pn, dn);
            }
            if pn >= th_pn || dn >= th_dn || self.meter.stopped {
                break;
            }
            let numbers = children.iter().map(|c| c.weighted(or_node));
            let (best, second) = if larger_other {
                select_larger_other(or_node, numbers)
            } else {
                select(or_node, numbers)
            };
            let child = &children[best];
            let (mut child_th_pn, mut child_th_dn) = child_thresholds(
                or_node,
                (th_pn, th_dn),
                (pn, dn),
                child.weighted(or_node),
                second,
            );
            if or_node {
                child_th_pn = unweigh_threshold(child_th_pn, child.weight);
            } else {
                child_th_dn = unweigh_threshold(child_th_dn, child.weight);
            }
            let mut child_pos = pos.clone();
            child_pos.play_unchecked(child.mv);
            let child_hash = child.hash;
            if source_nodes {
                self.parents.insert(child_hash, hash);
            }
            let (cpn, cdn) = self.mid(&child_pos, child_hash, child_th_pn, child_th_dn, depth + 1);
            let child = &mut children[best];
            child.pn = cpn;
            child.dn = cdn;
            if cpn.is_infinite()
                && let Some(e) = self.table.get(&child_hash)
            {
                child.loop_depth = e.loop_depth;
            }
        }
        self.path.remove(&hash);
        if source_nodes {
            self.path_stack.truncate(depth as usize);
        }
        // A disproof resting on repetitions holds on any path to this node
        // when every repetition it rests on goes back to this node or below.
        let mut loop_depth = NO_LOOP;
        if pn.is_infinite() {
            loop_depth = disproof_loop_depth(or_node, &children);
            if loop_depth != PRUNED && loop_depth >= depth {
                loop_depth = NO_LOOP;
            }
        }
        let work = (self.meter.nodes - work_start + 1).min(u64::from(u32::MAX)) as u32;
        if let Some(min_work) = self.collect_min_work
            && work >= min_work
            && (pn.is_zero() || (dn.is_zero() && loop_depth == NO_LOOP))
        {
            self.settled.push(Settled {
                pos: pos.clone(),
                proved: pn.is_zero(),
                work,
            });
        }
        self.store(
            hash,
            Entry {
                pn,
                dn,
                work,
                loop_depth,
            },
        );
        (pn, dn)
    }

    /// The numbers stored for a position, if any (path-dependent disproofs
    /// included).
    pub fn numbers(&self, hash: u64) -> Option<(Pn, Pn)> {
        self.table.get(&hash).map(|e| (e.pn, e.dn))
    }
}

/// What a disproof of a node rests on, from its disproved children: the
/// shallowest repetition among them (`NO_LOOP` if none), or `PRUNED` if a
/// heuristic no-win rule is needed: where the attacker moves every child is
/// needed, so any pruned child makes the node pruned; where the defender
/// moves one disproved child is enough, so the node is pruned only if
/// every disproved child is.
fn disproof_loop_depth(or_node: bool, children: &[Child]) -> u32 {
    let disproved = children.iter().filter(|c| c.pn.is_infinite());
    let mut clean = disproved
        .clone()
        .filter(|c| c.loop_depth != PRUNED)
        .peekable();
    let any_pruned = disproved.clone().any(|c| c.loop_depth == PRUNED);
    if any_pruned && (or_node || clean.peek().is_none()) {
        return PRUNED;
    }
    clean.map(|c| c.loop_depth).min().unwrap_or(NO_LOOP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Antichess;

    #[test]
    fn source_node_detection_finds_meeting_lines_and_proves_as_before() {
        let mut pos = Antichess::start();
        let e4 = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| crate::notation::uci::write(*m) == "e2e4")
            .unwrap();
        pos.play_unchecked(e4);
        let budget = Budget {
            max_nodes: 100_000,
            hash_bytes: 16 << 20,
            ..Budget::default()
        };
        let guide = Guide {
            sums: Sums::SourceNodes,
            ..Guide::default()
        };
        let mut search = DfPn::<Antichess>::new(Color::Black, &budget).with_guide(Some(&guide));
        assert_eq!(search.search(&pos), SearchResult::Proved);
        assert!(
            search.merges.values().map(Vec::len).sum::<usize>() > 0,
            "1.e4's proof has lines that meet"
        );
        assert!(search.path_stack.is_empty());
    }
}
