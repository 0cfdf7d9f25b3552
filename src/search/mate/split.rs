//! Certifying a mate's length root move by root move, on one thread or
//! several; and, the same way, finding every key of a mate
//! ([`find_keys_split`]).
//!
//! "No mate within `bound`" holds at the root exactly when no attacker move
//! from the root leaves a mate within the moves left after it. Each root
//! move is searched to the end before the next is taken, every search
//! reading what the earlier ones stored in the table. On one thread this
//! took fewer nodes than one df-pn search over the whole root, which keeps
//! spreading its effort over every root move (i172, mate in 8: 16.6
//! instead of 21.7 million nodes; i148: 8.9 instead of 10.4 million).
//!
//! With several threads, the first takes root moves from the front of the
//! list and the others from the back, and all share one table
//! ([`SharedTable`]). Some root moves are cheap once others are disproved
//! and very expensive before: a table per thread, or all threads taking
//! moves from the front, each doubled i172's nodes; from both ends it took
//! 27 million nodes on two cores, about the time of one.
//!
//! Every child result comes from an ordinary [`MateSearch`], and a result
//! settled by one thread is as sound as one settled by another, so a
//! disproof here is exactly as sound as a single search's. A proof for any
//! root move means a shorter mate exists; the caller then searches as
//! usual to find it and read it off. When the keys are asked for, a
//! proved root move does not stop the work: its solution is read off and
//! verified on the thread that proved it, and the next move is taken.

use super::search::{Bound, MateSearch};
use super::solution::extract;
use super::table::SharedTable;
use super::verify::verify_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::search::SearchResult;
use crate::search::budget::{Budget, Progress};
use crate::search::oracle::Oracle;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What a split search does when a root move is proved.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Stop: one proof settles "the attacker mates within the bound".
    AnyProof,
    /// Read the proved move's solution off, verify it and go on: every
    /// root move is classified (the keys of a puzzle).
    EveryMove,
}

/// A root move proved in [`Goal::EveryMove`]: a key whose solution the
/// verifier accepted, or why it was left out.
type KeyOutcome = Result<(), String>;

/// The shared state of the threads of one split search.
struct Shared<'a, P: Position> {
    root: &'a P,
    /// The table of several threads (one thread keeps its own, unlocked).
    table: Option<SharedTable>,
    moves: &'a [Move],
    bound: Bound,
    goal: Goal,
    /// The root moves nobody has taken yet.
    range: Mutex<std::ops::Range<usize>>,
    /// The proved root moves (by index) and their outcomes
    /// ([`Goal::EveryMove`]).
    proved: Mutex<Vec<(usize, KeyOutcome)>>,
    /// Set when a thread found a proof ([`Goal::AnyProof`]) or ran out of
    /// budget.
    stop: AtomicBool,
    /// Nodes of the threads other than the first, added after each of
    /// their root moves (for the progress reports).
    other_nodes: AtomicU64,
    /// Endgame tables that rule mates out.
    oracle: Option<&'a dyn Oracle<P>>,
}

/// Decides "the attacker, to move at `root`, mates within `bound` with one
/// of `moves`" on `threads` threads, root move by root move. The budget is
/// shared: each thread gets an equal part of its nodes, all the same clock
/// and the one table of its memory. `progress` hears from the first thread
/// (its nodes plus the others' finished work). Returns the result (proved
/// when some move leaves a mate within the bound) and the nodes of all
/// threads.
pub(super) fn search_root_split<P: Position>(
    root: &P,
    moves: &[Move],
    bound: Bound,
    budget: &Budget,
    threads: usize,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
) -> (SearchResult, u64) {
    let (result, nodes, _) = run(
        root,
        moves,
        bound,
        Goal::AnyProof,
        budget,
        threads,
        oracle,
        progress,
    );
    (result, nodes)
}

/// The keys of a mate within `bound` found by [`find_keys_split`].
pub(super) struct Keys {
    /// Every root move whose mate within the bound was proved and whose
    /// solution the verifier accepted, in move-generator order.
    pub keys: Vec<Move>,
    /// Proved root moves left out, and why.
    pub notes: Vec<String>,
    /// Whether every root move was settled (no budget ran out).
    pub complete: bool,
    /// Nodes of all threads.
    pub nodes: u64,
}

/// Every root move of `root` after which the attacker mates within
/// `bound` (his move included), searched root move by root move on
/// `threads` threads as [`search_root_split`] does, without stopping at a
/// proof: each proved move's solution is read off and verified on the
/// thread that proved it.
pub(super) fn find_keys_split<P: Position>(
    root: &P,
    bound: Bound,
    budget: &Budget,
    threads: usize,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
) -> Keys {
    let moves = root.legal_moves().to_vec();
    let (result, nodes, mut proved) = run(
        root,
        &moves,
        bound,
        Goal::EveryMove,
        budget,
        threads,
        oracle,
        progress,
    );
    proved.sort_by_key(|&(i, _)| i);
    let mut keys = Vec::new();
    let mut notes = Vec::new();
    for (i, outcome) in proved {
        let mv = moves[i];
        match outcome {
            Ok(()) => keys.push(mv),
            Err(why) => notes.push(key_left_out(mv, &why)),
        }
    }
    Keys {
        keys,
        notes,
        complete: result != SearchResult::Unknown,
        nodes,
    }
}

/// The threads of a split search over `moves`; returns the result, the
/// nodes and the proved moves ([`Goal::EveryMove`]).
#[allow(clippy::too_many_arguments)]
fn run<P: Position>(
    root: &P,
    moves: &[Move],
    bound: Bound,
    goal: Goal,
    budget: &Budget,
    threads: usize,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
) -> (SearchResult, u64, Vec<(usize, KeyOutcome)>) {
    let threads = threads.max(1);
    let share = Budget {
        max_nodes: budget.max_nodes / threads as u64,
        ..*budget
    };
    let shared = Shared {
        root,
        table: (threads > 1).then(|| SharedTable::new(budget.hash_bytes)),
        range: Mutex::new(0..moves.len()),
        moves,
        bound,
        goal,
        proved: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
        other_nodes: AtomicU64::new(0),
        oracle,
    };
    let mut first_report = |p: &Progress| {
        let mut p = *p;
        p.nodes += shared.other_nodes.load(Ordering::Relaxed);
        progress(&p);
    };
    let results = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .map(|_| scope.spawn(|| work(&shared, &share, None)))
            .collect();
        let mut results = vec![work(&shared, &share, Some(&mut first_report))];
        results.extend(
            others
                .into_iter()
                .map(|h| h.join().unwrap_or((SearchResult::Unknown, 0))),
        );
        results
    });
    let nodes = results.iter().map(|r| r.1).sum();
    let result = [SearchResult::Proved, SearchResult::Unknown]
        .into_iter()
        .find(|&r| results.iter().any(|t| t.0 == r))
        .unwrap_or(SearchResult::Disproved);
    let proved = shared
        .proved
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    (result, nodes, proved)
}

/// One thread: searches root moves until none is left, a budget runs out,
/// one is proved ([`Goal::AnyProof`]) or another thread stops the work.
/// `Disproved` means every move it searched was disproved (or, for
/// [`Goal::EveryMove`], settled).
fn work<P: Position>(
    shared: &Shared<'_, P>,
    budget: &Budget,
    progress: Option<&mut dyn FnMut(&Progress)>,
) -> (SearchResult, u64) {
    let attacker = shared.root.turn();
    let is_first = progress.is_some();
    let mut search = match &shared.table {
        Some(table) => MateSearch::<P>::sharing(attacker, budget, table),
        None => MateSearch::<P>::new(attacker, budget),
    }
    .with_oracle(shared.oracle);
    if let Some(report) = progress {
        search = search.with_progress(report);
    }
    let mut reported = 0;
    while !shared.stop.load(Ordering::Relaxed) {
        let Some(i) = shared.take(is_first) else {
            break;
        };
        let mut child = shared.root.clone();
        child.play_unchecked(shared.moves[i]);
        let child_bound = search.child_bound(attacker, &child, shared.bound);
        match search.search(&child, child_bound) {
            SearchResult::Disproved => {}
            SearchResult::Proved if shared.goal == Goal::EveryMove => {
                let outcome = verified_key(&mut search, &child, child_bound);
                let mut proved = shared.proved.lock().unwrap_or_else(|e| e.into_inner());
                proved.push((i, outcome));
            }
            found => {
                shared.stop.store(true, Ordering::Relaxed);
                return (found, search.nodes());
            }
        }
        if !is_first {
            let nodes = search.nodes();
            shared
                .other_nodes
                .fetch_add(nodes - reported, Ordering::Relaxed);
            reported = nodes;
        }
    }
    (SearchResult::Disproved, search.nodes())
}

/// The note for a proved key whose solution was not accepted.
pub(super) fn key_left_out(key: Move, why: &str) -> String {
    format!("key {} left out: {why}", crate::notation::uci::write(key))
}

/// Reads the solution of a root move's position `child`, proved within
/// `bound`, off `search` and has the verifier check it.
pub(super) fn verified_key<P: Position>(
    search: &mut MateSearch<'_, P>,
    child: &P,
    bound: Bound,
) -> KeyOutcome {
    let solution = extract(search, child, bound)
        .ok_or_else(|| "its solution could not be read back".to_string())?;
    verify_mate(child, search.attacker(), &solution, bound)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

impl<P: Position> Shared<'_, P> {
    /// The next root move to search, if any is left: the first thread
    /// takes them from the front, the others from the back.
    fn take(&self, from_front: bool) -> Option<usize> {
        let mut range = self.range.lock().unwrap_or_else(|e| e.into_inner());
        if range.is_empty() {
            None
        } else if from_front {
            range.next()
        } else {
            range.next_back()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::Chess;

    /// A mate in 2: the split proves "mate within 2" and disproves "mate
    /// within 1", on one thread and on two.
    #[test]
    fn split_search_proves_and_disproves_like_one_search() {
        let root: Chess =
            fen::parse_position("3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1").unwrap();
        let budget = Budget {
            max_nodes: 1_000_000,
            max_time: None,
            hash_bytes: 16 << 20,
            stop: None,
        };
        let moves = root.legal_moves().to_vec();
        for threads in [1, 2] {
            let within = |bound| {
                search_root_split(&root, &moves, bound, &budget, threads, None, &mut |_| {})
            };
            assert_eq!(within(2).0, SearchResult::Proved, "{threads} threads");
            assert_eq!(within(1).0, SearchResult::Disproved, "{threads} threads");
            let tiny = Budget {
                max_nodes: 2,
                ..budget
            };
            let (result, _) =
                search_root_split(&root, &moves, 2, &tiny, threads, None, &mut |_| {});
            assert_ne!(result, SearchResult::Disproved, "{threads} threads");
        }
    }

    /// Every root move is classified: the keys found on one thread and on
    /// two are the moves after which a plain search proves the mate, in
    /// move-generator order, and each came with a verified solution.
    #[test]
    fn keys_are_the_moves_a_plain_search_proves() {
        let root: Chess = fen::parse_position("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
        let budget = Budget {
            max_nodes: 1_000_000,
            max_time: None,
            hash_bytes: 16 << 20,
            stop: None,
        };
        for bound in [1, 2] {
            let expected: Vec<Move> = root
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut child = root.clone();
                    child.play_unchecked(mv);
                    let mut search = MateSearch::<Chess>::new(root.turn(), &budget);
                    search.search(&child, bound - 1) == SearchResult::Proved
                })
                .collect();
            assert!(!expected.is_empty(), "bound {bound}");
            for threads in [1, 2] {
                let keys = find_keys_split(&root, bound, &budget, threads, None, &mut |_| {});
                assert!(keys.complete);
                assert!(keys.notes.is_empty(), "{:?}", keys.notes);
                assert_eq!(keys.keys, expected, "bound {bound}, {threads} threads");
            }
        }
        let tiny = Budget {
            max_nodes: 2,
            ..budget
        };
        assert!(!find_keys_split(&root, 2, &tiny, 1, None, &mut |_| {}).complete);
    }
}
