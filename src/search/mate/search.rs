//! df-pn with a mate-length bound: proves or disproves "the attacker mates
//! within `r` of his moves" for a position.
//!
//! `r` counts the attacker's moves still allowed, the current one included
//! (turns in Hit-and-Run: a sub-move that leaves the same side to move does
//! not use up a move). Every cycle of positions contains a whole attacker
//! move, so `r` strictly falls around it: the search graph is acyclic and
//! no repetition handling is needed.
//!
//! The table is keyed by the position alone and keeps, besides the numbers
//! of the bound last searched, the smallest bound proved and the largest
//! bound disproved: a mate within `r` is a mate within any larger bound, a
//! disproof for `r` holds for any smaller one. Searches for several bounds
//! (the shortest-mate iteration) share everything they learned.
//!
//! In chess and crazyhouse, a position not in check gets guessed initial
//! numbers without generating its moves (most children are never
//! expanded), and the last two attacker moves are settled by a direct
//! full-width test (`shallow.rs`) instead of df-pn expansions.

use super::checks::CheckTest;
use super::table::{MateTable, SharedTable, Table};
use crate::board::Color;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::search::SearchResult;
use crate::search::budget::{Budget, Meter, Progress};
use crate::search::numbers::{child_thresholds, combine, select};
use crate::search::oracle::{Oracle, attacker_wins};
use crate::search::pn::Pn;
use crate::tablebase::Wdl;
use crate::variants::Variant;
use std::time::Duration;

pub use super::table::Bound;

/// The initial numbers' guess for a position not in check, whose moves are
/// not generated (chess and crazyhouse): its proof number when the
/// defender moves, its disproof number when the attacker moves. Measured
/// on the long crazyhouse mates, a constant works better than the mobility
/// of the same side two plies up.
const QUIET_GUESS: u64 = 10;

/// The attacker moves of a mate that does not exist ([`MateSearch`]'s
/// tables say the attacker does not win): more than any bound searched.
const NEVER: Bound = Bound::MAX / 2;

/// Bounds up to which attacker and defender positions are settled by the
/// direct full-width test of `shallow.rs` instead of df-pn expansion.
pub(super) const DIRECT_BOUND: Bound = 2;

/// Whether the guessed initial numbers and the direct test are used: in
/// chess and crazyhouse, where they were measured to pay (Hostage mates in
/// 3 took 3.6 times longer with them, so the other variants keep
/// mobility-based numbers and df-pn down to the last move).
fn guesses<P: Position>() -> bool {
    P::ONLY_CHECKMATE_WINS && matches!(P::VARIANT, Variant::Chess | Variant::Crazyhouse)
}

/// Whether a side in check is checkmated exactly when it has no legal
/// move and the game ends no other way with a winner (chess and
/// crazyhouse), so that a mate test needs no move list
/// ([`Position::has_legal_moves`]).
fn mate_is_no_move<P: Position>() -> bool {
    matches!(P::VARIANT, Variant::Chess | Variant::Crazyhouse)
}

/// A child of an expanded node: its move (played again when the child is
/// searched, cheaper than keeping every child position), key and numbers.
struct Child {
    mv: Move,
    hash: u64,
    bound: Bound,
    pn: Pn,
    dn: Pn,
}

/// A bounded mate search for one attacker, generic over the variant.
pub struct MateSearch<'p, P: Position> {
    attacker: Color,
    quiet_above: Bound,
    table: Table<'p>,
    meter: Meter<'p>,
    root: (Pn, Pn),
    /// The defender's last refutation per bound in the direct test.
    pub(super) killers: Vec<Option<Move>>,
    /// Endgame tables that rule mates out (Losing chess).
    oracle: Option<&'p dyn Oracle<P>>,
    _variant: std::marker::PhantomData<P>,
}

impl<'p, P: Position> MateSearch<'p, P> {
    /// A search for mates by `attacker` within `budget` (shared by every
    /// bound searched with it).
    pub fn new(attacker: Color, budget: &Budget) -> Self {
        Self::with_table(
            attacker,
            budget,
            Table::Own(MateTable::new(budget.hash_bytes)),
        )
    }

    /// A search that shares `table` with other threads (the budget's memory
    /// is the table's, not this search's).
    pub(super) fn sharing(attacker: Color, budget: &Budget, table: &'p SharedTable) -> Self {
        Self::with_table(attacker, budget, Table::Shared(table))
    }

    fn with_table(attacker: Color, budget: &Budget, table: Table<'p>) -> Self {
        MateSearch {
            attacker,
            quiet_above: 0,
            table,
            meter: Meter::new(budget),
            root: (Pn::ONE, Pn::ONE),
            killers: vec![None; usize::from(DIRECT_BOUND) + 1],
            oracle: None,
            _variant: std::marker::PhantomData,
        }
    }

    /// Calls `report` about once a second during the search.
    pub fn with_progress(mut self, report: &'p mut dyn FnMut(&Progress)) -> Self {
        self.meter.set_progress(report);
        self
    }

    /// Lets endgame tables rule mates out (Losing chess): a position they
    /// cover where the attacker does not win is disproved for every bound,
    /// and with a distance to win, for every bound below the attacker moves
    /// that distance takes. Mates are still found and verified by search;
    /// the tables only cut lines that cannot hold one.
    pub fn with_oracle(mut self, oracle: Option<&'p dyn Oracle<P>>) -> Self {
        self.oracle = oracle;
        self
    }

    /// The fewest attacker moves a mate from `pos` takes by the endgame
    /// tables ([`NEVER`] if the attacker does not win); `None` if no table
    /// covers `pos` or it gives no distance.
    fn moves_needed_by_tables(&self, pos: &P) -> Option<Bound> {
        let oracle = self.oracle?;
        let attacker_to_move = pos.turn() == self.attacker;
        match oracle.probe(pos) {
            // A win in d plies takes ceil(d/2) attacker moves when he is to
            // move, floor(d/2) when the defender is (the loser may make the
            // last move in Losing chess); fewest plies, fewest moves.
            Some((Wdl::Win, d)) if attacker_to_move => Some(d.div_ceil(2)),
            Some((Wdl::Loss, d)) if !attacker_to_move => Some(d / 2),
            Some(_) => Some(NEVER),
            None => match attacker_wins(oracle, pos, self.attacker)? {
                true => None,
                false => Some(NEVER),
            },
        }
    }

    /// Restricts the attacker, in variants where only checkmate wins
    /// ([`Position::ONLY_CHECKMATE_WINS`]) and when he is
    /// not in check himself, to moves that end his turn giving check, except
    /// while more than `above` of
    /// his moves are left (`above = 0`: no restriction; a large `above`:
    /// checks only). A mate found this way is a mate; a disproof only
    /// means "no mate of that kind", so such a search must never be used to
    /// rule a mate out.
    pub fn quiet_moves_above(mut self, above: Bound) -> Self {
        self.quiet_above = if P::ONLY_CHECKMATE_WINS { above } else { 0 };
        self
    }

    /// Whether the attacker, to move in `pos` with `bound` moves left, may
    /// only give check (see [`MateSearch::quiet_moves_above`]).
    pub(super) fn checks_only(&self, pos: &P, bound: Bound) -> bool {
        bound <= self.quiet_above && !pos.is_check()
    }

    /// Whether the attacker is restricted in some way.
    pub fn is_restricted(&self) -> bool {
        self.quiet_above > 0
    }

    /// The side that mates.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// Positions whose moves were generated so far.
    pub fn nodes(&self) -> u64 {
        self.meter.nodes
    }

    /// Time since the search was created.
    pub fn elapsed(&self) -> Duration {
        self.meter.elapsed()
    }

    /// Whether a budget ran out.
    pub fn stopped(&self) -> bool {
        self.meter.stopped
    }

    /// The bound left after `mover` played a move from a position with
    /// bound `bound`, reaching `child`: an attacker's move uses one up when
    /// it ends his turn, and so does a turn the attacker passes (RULES A8
    /// `kamikaze2`), so every cycle of positions still uses one up.
    pub fn child_bound(&self, mover: Color, child: &P, bound: Bound) -> Bound {
        if P::uses_turn_of(self.attacker, mover, child) {
            bound.saturating_sub(1)
        } else {
            bound
        }
    }

    /// Proves or disproves a mate within `bound` from `pos`.
    pub fn search(&mut self, pos: &P, bound: Bound) -> SearchResult {
        if self.meter.spent() {
            return SearchResult::Unknown;
        }
        let (pn, dn) = self.numbers(pos, pos.zobrist(), bound);
        let (pn, dn) = if pn.is_zero() || dn.is_zero() {
            (pn, dn)
        } else {
            self.mid(
                pos,
                pos.zobrist(),
                bound,
                (Pn::INFINITE, Pn::INFINITE),
                true,
            )
        };
        SearchResult::of_root(pn, dn)
    }

    /// The smallest bound `pos` is known to be proved for.
    pub fn proved_bound(&self, hash: u64) -> Option<Bound> {
        self.table.proved_at(hash)
    }

    /// Whether the attacker has won (`Some(true)`), the game is over
    /// otherwise (`Some(false)`), or it goes on (`None`).
    pub fn terminal(&self, pos: &P, moves: &MoveList) -> Option<bool> {
        pos.outcome_given(moves)
            .map(|o| o.winner == Some(self.attacker))
    }

    /// What is known of `pos` for `bound`, or its initial numbers. A
    /// defender's position with no attacker move left is settled at once:
    /// it is won only if the game is over with the attacker the winner.
    /// In chess and crazyhouse, a position not in check (which cannot be
    /// won yet) gets [`QUIET_GUESS`] without a move generation, except the
    /// attacker's last move, which is settled at once.
    fn numbers(&mut self, pos: &P, hash: u64, bound: Bound) -> (Pn, Pn) {
        let attacker_to_move = pos.turn() == self.attacker;
        if bound == 0 && !attacker_to_move && !P::ONLY_CHECKMATE_WINS {
            // Losing chess: the defender may be forced to complete the
            // attacker's win. Settled here, not stored: the table takes
            // every position at bound 0 as disproved unless it is over.
            self.meter.nodes += 1;
            let moves = pos.legal_moves();
            let won = match self.terminal(pos, &moves) {
                Some(win) => win,
                None => self.every_reply_loses(pos, &moves),
            };
            return if won {
                (Pn::ZERO, Pn::INFINITE)
            } else {
                (Pn::INFINITE, Pn::ZERO)
            };
        }
        if let Some(known) = self.lookup(hash, bound) {
            return known;
        }
        if let Some(needed) = self.moves_needed_by_tables(pos)
            && needed > bound
        {
            self.store(hash, needed - 1, Pn::INFINITE, Pn::ZERO, 1);
            return (Pn::INFINITE, Pn::ZERO);
        }
        if bound == 0 && (attacker_to_move || (P::ONLY_CHECKMATE_WINS && !pos.is_check())) {
            return (Pn::INFINITE, Pn::ZERO);
        }
        if bound == 0 && mate_is_no_move::<P>() {
            // The defender in check: mated or not, without a move list.
            self.meter.nodes += 1;
            if pos.has_legal_moves() {
                return (Pn::INFINITE, Pn::ZERO);
            }
            self.store(hash, 0, Pn::ZERO, Pn::INFINITE, 1);
            return (Pn::ZERO, Pn::INFINITE);
        }
        if guesses::<P>() && !(attacker_to_move && bound == 1) && !pos.is_check() {
            let guess = Pn::new(QUIET_GUESS);
            return if attacker_to_move {
                (Pn::ONE, guess)
            } else {
                (guess, Pn::ONE)
            };
        }
        self.meter.nodes += 1;
        let moves = pos.legal_moves();
        if attacker_to_move && bound == 1 && !moves.is_empty() {
            // The last move: settle it now instead of expanding a node.
            return match self.mates_now(pos, &moves) {
                Some(true) => {
                    self.store(hash, 1, Pn::ZERO, Pn::INFINITE, 1);
                    (Pn::ZERO, Pn::INFINITE)
                }
                Some(false) => {
                    self.store(hash, 1, Pn::INFINITE, Pn::ZERO, 1);
                    (Pn::INFINITE, Pn::ZERO)
                }
                // Out of budget: not settled, nothing stored.
                None => (Pn::ONE, Pn::ONE),
            };
        }
        match self.terminal(pos, &moves) {
            Some(true) => {
                self.store(hash, 0, Pn::ZERO, Pn::INFINITE, 1);
                (Pn::ZERO, Pn::INFINITE)
            }
            Some(false) => (Pn::INFINITE, Pn::ZERO),
            None if bound == 0 => (Pn::INFINITE, Pn::ZERO),
            None => {
                let n = Pn::new(moves.len() as u64);
                if attacker_to_move {
                    (Pn::ONE, n)
                } else {
                    (n, Pn::ONE)
                }
            }
        }
    }

    /// Whether one of `moves` (the attacker's, with his last move to
    /// play) wins at once; in Hit-and-Run the turn's remaining sub-moves
    /// are tried too. With a royal king only moves that give check can.
    /// `None` if the node budget ran out before it could tell.
    pub(super) fn mates_now(&mut self, pos: &P, moves: &MoveList) -> Option<bool> {
        let check_test = CheckTest::new(pos);
        for &mv in moves {
            if self.meter.spent() {
                return None;
            }
            if P::ONLY_CHECKMATE_WINS && !check_test.may_give_check(mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if child.turn() == self.attacker && child.is_mid_turn() {
                self.meter.nodes += 1;
                let more = child.legal_moves();
                if self.mates_now(&child, &more)? {
                    return Some(true);
                }
                continue;
            }
            if P::ONLY_CHECKMATE_WINS && !child.is_check() {
                continue;
            }
            self.meter.nodes += 1;
            if mate_is_no_move::<P>() {
                if !child.has_legal_moves() {
                    return Some(true);
                }
                continue;
            }
            let replies = child.legal_moves();
            let wins = match self.terminal(&child, &replies) {
                Some(win) => win,
                None => self.every_reply_loses(&child, &replies),
            };
            if wins {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Without a royal king (Losing chess): whether every move of the
    /// defender, to move in `pos` with `replies`, ends the game won by the
    /// attacker (his last man is taken, or he is stalemated). Such a win
    /// counts as completed by the attacker's last move.
    fn every_reply_loses(&mut self, pos: &P, replies: &MoveList) -> bool {
        if P::ONLY_CHECKMATE_WINS || replies.is_empty() {
            return false;
        }
        replies.iter().all(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if child.turn() != self.attacker {
                return false;
            }
            self.meter.nodes += 1;
            let moves = child.legal_moves();
            self.terminal(&child, &moves) == Some(true)
        })
    }

    /// The settled result of `hash` for `bound`: `Some(true)` proved,
    /// `Some(false)` disproved.
    pub(super) fn settled(&self, hash: u64, bound: Bound) -> Option<bool> {
        self.table.settled(hash, bound)
    }

    /// Records a settled result: proved for `bound` (and every larger one)
    /// or disproved for it (and every smaller one). `work`: the nodes it
    /// took (for the table's replacement).
    pub(super) fn settle(&mut self, hash: u64, bound: Bound, proved: bool, work: u64) {
        let work = work.clamp(1, u64::from(u32::MAX)) as u32;
        let (pn, dn) = settled_numbers(proved);
        self.table.store(hash, bound, pn, dn, work);
    }

    fn lookup(&self, hash: u64, bound: Bound) -> Option<(Pn, Pn)> {
        self.table.lookup(hash, bound)
    }

    fn store(&mut self, hash: u64, bound: Bound, pn: Pn, dn: Pn, work: u32) {
        self.table.store(hash, bound, pn, dn, work);
    }

    /// Whether the node budget is used up (the search then stops).
    pub(super) fn budget_spent(&mut self) -> bool {
        self.meter.spent()
    }

    /// Counts a position whose moves are generated, checking the budget.
    pub(super) fn count_node(&mut self) {
        self.meter.nodes += 1;
        self.check_budget();
    }

    fn check_budget(&mut self) {
        let table = &self.table;
        self.meter.check(self.root, || table.len());
    }

    /// Expands `pos` until its numbers reach `threshold` (pn, dn) or it is
    /// settled.
    fn mid(
        &mut self,
        pos: &P,
        hash: u64,
        bound: Bound,
        threshold: (Pn, Pn),
        root: bool,
    ) -> (Pn, Pn) {
        self.meter.nodes += 1;
        let work_start = self.meter.nodes;
        self.check_budget();
        if self.meter.stopped {
            // Out of budget: no more work below this node (its children's
            // numbers would cost a move generation each). Unsettled
            // numbers, so nothing is concluded from them.
            return (Pn::ONE, Pn::ONE);
        }
        let mover = pos.turn();
        let or_node = mover == self.attacker;
        let mut moves = pos.legal_moves();
        // Positions whose numbers were guessed can be over.
        if let Some(win) = self.terminal(pos, &moves) {
            self.settle(hash, if win { 0 } else { bound }, win, 1);
            return settled_numbers(win);
        }
        if bound <= DIRECT_BOUND && guesses::<P>() {
            let direct = if or_node {
                self.direct_attack(pos, hash, bound, &moves)
            } else {
                self.direct_defence(pos, hash, bound, &mut moves)
            };
            if let Some(won) = direct {
                return settled_numbers(won);
            }
        }
        // Restricted to checks only where the attacker is not in check
        // himself (his evasions are forced anyway).
        let checks_only = or_node && self.checks_only(pos, bound);
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            if self.meter.spent() {
                // Out of budget in mid-expansion: some children have no
                // numbers yet, so none are combined (unsettled numbers).
                return (Pn::ONE, Pn::ONE);
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_hash = child.zobrist();
            if checks_only && child.turn() != mover && !child.is_check() {
                continue;
            }
            let child_bound = self.child_bound(mover, &child, bound);
            let (pn, dn) = self.numbers(&child, child_hash, child_bound);
            children.push(Child {
                mv,
                hash: child_hash,
                bound: child_bound,
                pn,
                dn,
            });
            // One proved child settles an OR node, one disproved child an AND node.
            if (or_node && pn.is_zero()) || (!or_node && dn.is_zero()) {
                break;
            }
        }
        let (mut pn, mut dn);
        loop {
            (pn, dn) = combine(or_node, children.iter().map(|c| (c.pn, c.dn)));
            if root {
                self.root = (pn, dn);
            }
            if pn >= threshold.0 || dn >= threshold.1 || self.meter.stopped {
                break;
            }
            let (best, second) = select(or_node, children.iter().map(|c| (c.pn, c.dn)));
            let child = &children[best];
            // Only the chosen child is looked up again: the others' numbers
            // may be stale, which costs efficiency, never soundness (a
            // settled result stays true).
            if let Some(settled) = self.settled(child.hash, child.bound) {
                (children[best].pn, children[best].dn) = settled_numbers(settled);
                continue;
            }
            let child_threshold =
                child_thresholds(or_node, threshold, (pn, dn), (child.pn, child.dn), second);
            let mut child_pos = pos.clone();
            child_pos.play_unchecked(child.mv);
            let (child_hash, child_bound) = (child.hash, child.bound);
            let (cpn, cdn) = self.mid(&child_pos, child_hash, child_bound, child_threshold, false);
            let child = &mut children[best];
            child.pn = cpn;
            child.dn = cdn;
        }
        let work = (self.meter.nodes - work_start + 1).min(u64::from(u32::MAX)) as u32;
        let stored_bound = if pn.is_zero() {
            self.proof_length(or_node, bound, &children)
        } else {
            bound
        };
        self.store(hash, stored_bound, pn, dn, work);
        (pn, dn)
    }

    /// The length of the mate just proved at a node searched with `bound`:
    /// for the attacker his shortest proved move, for the defender his
    /// longest reply, each child counted from the smallest bound the table
    /// knows it proved for (never more than the child's own bound), plus
    /// the move that led to it if that used up a turn. Storing this instead
    /// of `bound` lets a mate found with a generous bound report its real
    /// length: a mate in 1 searched with bound 20 is stored as one.
    fn proof_length(&self, or_node: bool, bound: Bound, children: &[Child]) -> Bound {
        let lengths = children.iter().filter(|c| c.pn.is_zero()).map(|c| {
            let known = self
                .table
                .proved_at(c.hash)
                .filter(|&d| d <= c.bound)
                .unwrap_or(c.bound);
            known + (bound - c.bound)
        });
        let length = if or_node {
            lengths.min()
        } else {
            lengths.max()
        };
        length.map_or(bound, |l| l.min(bound))
    }
}

/// The numbers of a settled position: proved (`true`) or disproved.
pub(super) fn settled_numbers(proved: bool) -> (Pn, Pn) {
    if proved {
        (Pn::ZERO, Pn::INFINITE)
    } else {
        (Pn::INFINITE, Pn::ZERO)
    }
}
