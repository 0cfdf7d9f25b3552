//! A mate solution: the attacker's move and its depth-to-mate label at
//! every position of the solution graph, and reading one off a finished
//! search.

use super::search::{Bound, MateSearch};
use crate::moves::Move;
use crate::position::Position;
use crate::search::SearchResult;
use hashbrown::{HashMap, HashSet};

/// The attacker's strategy: for each position where he moves (by zobrist
/// hash), the move to play and the label "mate within this many attacker
/// moves, this one included". Labels strictly fall along every line, so
/// the graph it spans is finite and acyclic.
#[derive(Clone, Debug, Default)]
pub struct MateSolution {
    /// Attacker move and label, by position hash.
    pub moves: HashMap<u64, (Move, Bound)>,
}

impl MateSolution {
    /// The stored move and label for a position.
    pub fn get(&self, hash: u64) -> Option<(Move, Bound)> {
        self.moves.get(&hash).copied()
    }

    /// Attacker positions in the solution.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution is empty (the root is already won).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Reads a solution for a mate within `bound` from `root` off `search`,
/// searching again where the table has lost what it needs. At each
/// attacker position it takes the move with the shortest mate known, an
/// immediate win first. `None` if no solution can be read within the
/// search's budget.
pub fn extract<P: Position>(
    search: &mut MateSearch<'_, P>,
    root: &P,
    bound: Bound,
) -> Option<MateSolution> {
    let mut reader = Reader {
        search,
        solution: MateSolution::default(),
        failed: HashSet::new(),
    };
    reader.any(root, bound).then_some(reader.solution)
}

struct Reader<'s, 'p, P: Position> {
    search: &'s mut MateSearch<'p, P>,
    solution: MateSolution,
    failed: HashSet<(u64, Bound)>,
}

impl<P: Position> Reader<'_, '_, P> {
    /// Either side to move.
    fn any(&mut self, pos: &P, bound: Bound) -> bool {
        let moves = pos.legal_moves();
        if let Some(win) = self.search.terminal(pos, &moves) {
            return win;
        }
        if pos.turn() == self.search.attacker() {
            self.attack(pos, &moves, bound)
        } else {
            moves.iter().all(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                self.any(&child, bound)
            })
        }
    }

    fn attack(&mut self, pos: &P, moves: &[Move], bound: Bound) -> bool {
        let hash = pos.zobrist();
        if bound == 0 {
            return false;
        }
        if self
            .solution
            .get(hash)
            .is_some_and(|(_, label)| label <= bound)
        {
            return true;
        }
        if self.failed.contains(&(hash, bound)) {
            return false;
        }
        let mover = pos.turn();
        let mut candidates = self.candidates(pos, moves, bound, false);
        if candidates.is_empty() {
            candidates = self.candidates(pos, moves, bound, true);
        }
        candidates.sort_by_key(|c| c.0);
        for (label, mv, child) in candidates {
            let child_bound = self.search.child_bound(mover, &child, label);
            if self.any(&child, child_bound) {
                self.solution.moves.insert(hash, (mv, label));
                return true;
            }
        }
        self.failed.insert((hash, bound));
        false
    }

    /// The attacker's moves known to mate within `bound`, with their labels.
    /// Only the table is read unless `search_unknown` is set; then moves
    /// the table knows nothing about are searched again.
    fn candidates(
        &mut self,
        pos: &P,
        moves: &[Move],
        bound: Bound,
        search_unknown: bool,
    ) -> Vec<(Bound, Move, P)> {
        let mover = pos.turn();
        let mut candidates = Vec::new();
        for &mv in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_bound = self.search.child_bound(mover, &child, bound);
            let proved_at = match self.search.proved_bound(child.zobrist()) {
                Some(b) if b <= child_bound => b,
                _ if !search_unknown => continue,
                _ => match self.search.search(&child, child_bound) {
                    SearchResult::Proved => self
                        .search
                        .proved_bound(child.zobrist())
                        .map_or(child_bound, |b| b.min(child_bound)),
                    _ => continue,
                },
            };
            let label = proved_at + Bound::from(child_bound < bound);
            candidates.push((label.max(1), mv, child));
        }
        candidates
    }
}
