//! The direct test for the last attacker moves: "mate within `r`" settled
//! by a plain full-width search, with no proof numbers, for `r` up to
//! [`DIRECT_BOUND`](super::search::DIRECT_BOUND), in chess and crazyhouse
//! (only checkmate wins; a move that keeps the turn makes the test give up).
//!
//! Near the end df-pn spends most of its work expanding attacker positions
//! partly and coming back to them; a direct test settles each one once and
//! stores the result. Its order: the attacker's checks before his quiet
//! moves, the defender's last refutation at the same bound first, then his
//! checks. Every result is exact: a position is proved only when every
//! defence was followed, disproved only when every attacker move was
//! refuted (or, in a checks-only pass, every check; that search keeps its
//! own table and never rules a mate out).

use super::search::{Bound, MateSearch};
use crate::moves::MoveList;
use crate::position::Position;

impl<P: Position> MateSearch<'_, P> {
    /// Whether the attacker, to move in `pos` (key `hash`, legal `moves`,
    /// not over), mates within `bound`. Stores the answer. `None` if a
    /// move keeps the turn (not handled here) or the node budget ran out.
    pub(super) fn direct_attack(
        &mut self,
        pos: &P,
        hash: u64,
        bound: Bound,
        moves: &MoveList,
    ) -> Option<bool> {
        let start = self.nodes();
        let won = if bound == 0 {
            false
        } else if bound == 1 {
            self.mates_now(pos, moves)?
        } else {
            self.attack_moves(pos, bound, moves)?
        };
        let work = self.nodes() - start;
        self.settle(hash, bound, won, work);
        Some(won)
    }

    /// The attacker's checks first, then (unless he may only check) his
    /// quiet moves: whether one of them mates within `bound` (≥ 2).
    fn attack_moves(&mut self, pos: &P, bound: Bound, moves: &MoveList) -> Option<bool> {
        let checks_only = self.checks_only(pos, bound);
        let attacker = pos.turn();
        let mut quiet = MoveList::new();
        for &mv in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if child.turn() == attacker {
                return None;
            }
            if !child.is_check() {
                if !checks_only {
                    quiet.push(mv);
                }
                continue;
            }
            let child_bound = self.child_bound(attacker, &child, bound);
            if self.defender_loses(&child, child_bound)? {
                return Some(true);
            }
        }
        for &mv in &quiet {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_bound = self.child_bound(attacker, &child, bound);
            if self.defender_loses(&child, child_bound)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether the defender, to move in `pos`, is mated within `bound`
    /// attacker moves, from the table or by the direct test.
    fn defender_loses(&mut self, pos: &P, bound: Bound) -> Option<bool> {
        if self.budget_spent() {
            return None;
        }
        let hash = pos.zobrist();
        if let Some(proved) = self.settled(hash, bound) {
            return Some(proved);
        }
        self.count_node();
        let mut replies = pos.legal_moves();
        self.direct_defence(pos, hash, bound, &mut replies)
    }

    /// Whether the defender, to move in `pos` (key `hash`, legal
    /// `replies`, which it puts in the order tried), is mated within
    /// `bound` (≥ 1) attacker moves: every reply must leave a mate within
    /// `bound`. Stores the answer. `None` if a reply keeps the turn.
    pub(super) fn direct_defence(
        &mut self,
        pos: &P,
        hash: u64,
        bound: Bound,
        replies: &mut MoveList,
    ) -> Option<bool> {
        if let Some(win) = self.terminal(pos, replies) {
            self.settle(hash, if win { 0 } else { bound }, win, 1);
            return Some(win);
        }
        let start = self.nodes();
        self.defence_order(pos, bound, replies);
        let defender = pos.turn();
        for &reply in replies.iter() {
            let mut child = pos.clone();
            child.play_unchecked(reply);
            if child.turn() == defender {
                return None;
            }
            let child_bound = self.child_bound(defender, &child, bound);
            if !self.attacker_wins(&child, child_bound)? {
                if let Some(killer) = self.killers.get_mut(usize::from(bound)) {
                    *killer = Some(reply);
                }
                let work = self.nodes() - start;
                self.settle(hash, bound, false, work);
                return Some(false);
            }
        }
        let work = self.nodes() - start;
        self.settle(hash, bound, true, work);
        Some(true)
    }

    /// Puts the defender's replies in the order tried: the last refutation
    /// at this bound first, then (with more than the last attacker move to
    /// come) the replies that may give check, then the rest.
    fn defence_order(&self, pos: &P, bound: Bound, order: &mut MoveList) {
        let mut front = 0;
        let killer = self.killers.get(usize::from(bound)).copied().flatten();
        if let Some(i) = killer.and_then(|k| order.iter().position(|&m| m == k)) {
            order[..=i].rotate_right(1);
            front = 1;
        }
        if bound >= 2 {
            let check_test = super::checks::CheckTest::new(pos);
            let start = front;
            for i in start..order.len() {
                if check_test.may_give_check(order[i]) {
                    order[front..=i].rotate_right(1);
                    front += 1;
                }
            }
        }
    }

    /// Whether the attacker, to move in `pos`, mates within `bound`.
    fn attacker_wins(&mut self, pos: &P, bound: Bound) -> Option<bool> {
        if self.budget_spent() {
            return None;
        }
        let hash = pos.zobrist();
        if let Some(proved) = self.settled(hash, bound) {
            return Some(proved);
        }
        self.count_node();
        let moves = pos.legal_moves();
        if let Some(win) = self.terminal(pos, &moves) {
            self.settle(hash, if win { 0 } else { bound }, win, 1);
            return Some(win);
        }
        self.direct_attack(pos, hash, bound, &moves)
    }
}
