//! The search itself: iterative deepening over a principal variation
//! search (null windows after the first move, re-searched when they fail
//! high; quiet late moves reduced by a ply and re-searched when they
//! improve), quiescence over captures and promotions (every move when in
//! check, and every move when Losing chess forces a capture), a check
//! extension where the king is royal, repetitions scored as draws, MultiPV,
//! `searchmoves`, and helper threads sharing the table (Threads > 1).
//!
//! Negamax over turns: a move that leaves the same side to move (the first
//! sub-move of a Hit-and-Run turn) keeps the score's sign; a move that
//! ends a turn flips it.

use super::TimeLimits;
use super::eval::{Weights, evaluate};
use super::ordering::{Heuristics, is_noisy};
use super::score::{INFINITE, Score, TABLE_WIN, WIN, WIN_BOUND, from_table, to_table, win_in};
use super::selectivity::{
    NULL_MOVE_MIN_DEPTH, Selectivity, gives_check, has_pieces, null_move_reduction,
};
use super::table::{Bound, Entry, Table};
use crate::moves::{Move, MoveList, encode};
use crate::position::{Outcome, Position};
use crate::search::StopSignal;
use crate::search::mate::checks::CheckTest;
use crate::search::oracle::Oracle;
use crate::tablebase::Wdl;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Plies from the root the search goes at most (extensions included).
const MAX_PLY: u32 = 160;
/// Plies of quiescence at most below the horizon.
const MAX_QUIESCENCE: u32 = 24;
/// How many nodes a thread searches between looks at the clock and `stop`.
const CHECK_EVERY: u64 = 256;

/// When the search ends.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// The last iteration (plies), if any.
    pub depth: Option<u32>,
    /// Nodes over all threads, if limited.
    pub nodes: Option<u64>,
    /// Time, if limited.
    pub time: Option<TimeLimits>,
    /// A `stop` from the caller.
    pub stop: Option<StopSignal>,
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Threads searching together (1: the main thread alone).
    pub threads: usize,
    /// How many best lines to report (UCI `MultiPV`).
    pub multipv: usize,
    /// Only these root moves (UCI `searchmoves`); empty: all.
    pub search_moves: Vec<Move>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            search_moves: Vec::new(),
        }
    }
}

/// One of the best lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score for the side to move at the root.
    pub score: Score,
    /// The same as a search value (centipawns, or near ±[`WIN`]).
    pub value: i32,
    /// The line, its first move the one scored.
    pub pv: Vec<Move>,
}

/// What an iteration found (UCI `info`).
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes over all threads so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The best lines, best first.
    pub lines: Vec<Line>,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct Report {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// The last complete (or partly complete) iteration's report.
    pub info: Info,
}

/// How quiescence follows Losing chess's compulsory captures (variants
/// where a capture must be made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LosingQuiescence {
    /// Plies below the horizon at most (then the evaluation stands, even
    /// where a capture is compulsory); at most 24.
    pub max_plies: u32,
    /// Whether quiescence reads and writes the transposition table
    /// (capture sequences transpose: the same men taken in another order).
    pub table: bool,
}

impl Default for LosingQuiescence {
    fn default() -> Self {
        LosingQuiescence {
            max_plies: LOSING_QUIESCENCE,
            table: true,
        }
    }
}

/// Plies of Losing chess's quiescence at most below the horizon: capture
/// sequences followed 24 plies (as in the other variants) made the tree
/// far larger and lost at equal nodes (docs/engine.md).
const LOSING_QUIESCENCE: u32 = 8;

/// The engine: its transposition table, kept between searches.
pub struct Engine {
    table: Table,
    weights: Weights,
    quiescence: LosingQuiescence,
    selectivity: Selectivity,
}

impl Engine {
    /// An engine with a table of at most `hash_bytes` bytes.
    pub fn new(hash_bytes: usize) -> Engine {
        Engine::with_weights(hash_bytes, Weights::default())
    }

    /// An engine evaluating with `weights` (tuning and tests).
    pub fn with_weights(hash_bytes: usize, weights: Weights) -> Engine {
        Engine {
            table: Table::new(hash_bytes),
            weights,
            quiescence: LosingQuiescence::default(),
            selectivity: Selectivity::default(),
        }
    }

    /// The engine with another Losing-chess quiescence (tuning and tests).
    pub fn with_losing_quiescence(mut self, quiescence: LosingQuiescence) -> Engine {
        self.quiescence = quiescence;
        self
    }

    /// The engine with other selectivity settings (tuning and tests).
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Engine {
        self.selectivity = selectivity;
        self
    }

    /// Searches `root` within `limits`, calling `on_iteration` after each
    /// iteration. `history` holds the zobrist hashes of the game's earlier
    /// positions (repeating one of them scores as a draw).
    pub fn search<P: Position>(
        &self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        on_iteration: &mut dyn FnMut(&Info),
    ) -> Report {
        self.search_with(root, history, limits, options, None, on_iteration)
    }

    /// [`Engine::search`] with endgame tables: a position `tables` covers
    /// (its men counted before anything is searched) scores as a won,
    /// lost or drawn game instead of being searched. A table win scores
    /// [`TABLE_WIN`] less the turns to reach it, below every forced mate
    /// the search proves itself, and is shown in centipawns, never as a
    /// mate (a table gives the result, not the moves to it).
    pub fn search_with<P: Position>(
        &self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        tables: Option<&dyn Oracle<P>>,
        on_iteration: &mut dyn FnMut(&Info),
    ) -> Report {
        let shared = Shared {
            tables,
            table: &self.table,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            limits: *limits,
            weights: self.weights,
            quiescence: self.quiescence,
            selectivity: self.selectivity,
        };
        let mut moves = root.playable_moves();
        if !options.search_moves.is_empty() {
            moves.retain(|m| options.search_moves.contains(m));
        }
        if moves.is_empty() {
            return Report {
                best: None,
                info: shared.info(0, 0, Vec::new()),
            };
        }
        let helpers = options.threads.max(1) - 1;
        std::thread::scope(|scope| {
            for id in 0..helpers {
                let shared = &shared;
                let moves = moves.clone();
                scope.spawn(move || {
                    let mut helper = Searcher::new(shared, history, false);
                    // Half the helpers start one ply deeper, so that the
                    // threads are not all on the same iteration.
                    helper.iterate(root, moves, 1, 1 + id as u32 % 2, &mut |_| {});
                });
            }
            let mut main = Searcher::new(&shared, history, true);
            let report = main.iterate(root, moves, options.multipv.max(1), 1, on_iteration);
            shared.stop.store(true, Ordering::Relaxed);
            report
        })
    }
}

/// What the threads of one search share.
struct Shared<'a, P> {
    /// Endgame tables that settle the positions they cover.
    tables: Option<&'a dyn Oracle<P>>,
    table: &'a Table,
    stop: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    limits: Limits,
    weights: Weights,
    quiescence: LosingQuiescence,
    selectivity: Selectivity,
}

impl<P> Shared<'_, P> {
    fn info(&self, depth: u32, seldepth: u32, lines: Vec<Line>) -> Info {
        Info {
            depth,
            seldepth,
            nodes: self.nodes.load(Ordering::Relaxed),
            elapsed: self.start.elapsed(),
            hashfull: self.table.permille_used(),
            lines,
        }
    }
}

/// A position reached by one move, with what the search needs of it.
struct Child<P> {
    pos: P,
    /// Whether the move ended the mover's turn (the score changes sign).
    flips: bool,
    /// Plies from the root.
    ply: u32,
    /// Turns from the root.
    turns: u32,
}

impl<P: Position> Child<P> {
    /// `parent` (at `ply` plies and `turns` turns from the root) after `mv`.
    fn of(parent: &P, mv: Move, ply: u32, turns: u32) -> Child<P> {
        let mut pos = parent.clone();
        pos.play_unchecked(mv);
        Child {
            flips: pos.turn() != parent.turn(),
            turns: turns + turn_steps(parent, &pos),
            ply: ply + 1,
            pos,
        }
    }

    /// `search(alpha, beta)` run for the child's side to move, as a value
    /// for the side that moved into it (negated, window swapped, when the
    /// move ended the mover's turn).
    fn value_for_mover(&self, alpha: i32, beta: i32, search: impl FnOnce(i32, i32) -> i32) -> i32 {
        if self.flips {
            -search(-beta, -alpha)
        } else {
            search(alpha, beta)
        }
    }
}

/// A root move and what the last iteration said of it.
#[derive(Clone)]
struct RootMove {
    mv: Move,
    value: i32,
    pv: Vec<Move>,
}

/// One thread's search.
struct Searcher<'a, P> {
    shared: &'a Shared<'a, P>,
    /// Hashes of the game before the root, then of the line searched.
    path: Vec<u64>,
    heuristics: Heuristics,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    seldepth: u32,
    /// The iteration's depth, for the extension limit.
    root_depth: u32,
    aborted: bool,
    main: bool,
    /// The ply whose node follows a null move (and so tries none itself).
    after_null: u32,
}

impl<'a, P: Position> Searcher<'a, P> {
    fn new(shared: &'a Shared<'a, P>, history: &[u64], main: bool) -> Self {
        Searcher {
            shared,
            path: history.to_vec(),
            heuristics: Heuristics::new(MAX_PLY as usize + MAX_QUIESCENCE as usize + 2),
            unflushed: 0,
            seldepth: 0,
            root_depth: 1,
            aborted: false,
            main,
            after_null: u32::MAX,
        }
    }

    /// Iterative deepening from `first_depth`, with `multipv` lines; the
    /// main thread reports each iteration.
    fn iterate(
        &mut self,
        root: &P,
        moves: MoveList,
        multipv: usize,
        first_depth: u32,
        on_iteration: &mut dyn FnMut(&Info),
    ) -> Report {
        let mut roots: Vec<RootMove> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                value: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        let multipv = multipv.min(roots.len());
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut last: Option<Info> = None;
        let mut depth = first_depth.min(max_depth);
        while depth <= max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            let mut completed = 0;
            for index in 0..multipv {
                // Earlier best first (stable: the table's order otherwise).
                roots[index..].sort_by_key(|r| std::cmp::Reverse(r.value));
                if !self.search_root(root, &mut roots[index..], depth) {
                    break;
                }
                completed += 1;
            }
            if completed > 0 && self.main {
                self.flush();
                roots[..completed].sort_by_key(|r| std::cmp::Reverse(r.value));
                let lines = roots[..completed]
                    .iter()
                    .map(|r| Line {
                        score: Score::from_value(r.value),
                        value: r.value,
                        pv: r.pv.clone(),
                    })
                    .collect();
                let info = self.shared.info(depth, self.seldepth.max(depth), lines);
                on_iteration(&info);
                last = Some(info);
            }
            if self.aborted || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if self.main && self.enough(&roots, depth) {
                break;
            }
            depth += 1;
        }
        self.flush();
        let info = last.unwrap_or_else(|| {
            // Not even the first move of depth 1 was searched.
            self.shared.info(
                0,
                0,
                vec![Line {
                    score: Score::Centipawns(0),
                    value: 0,
                    pv: vec![roots[0].mv],
                }],
            )
        });
        let best = info.lines.first().and_then(|l| l.pv.first().copied());
        Report { best, info }
    }

    /// Whether the main thread should start no further iteration: past the
    /// soft time limit, a single legal move under a clock, or a forced
    /// result that a deeper search cannot shorten.
    fn enough(&self, roots: &[RootMove], depth: u32) -> bool {
        let limits = &self.shared.limits;
        if let Some(time) = limits.time {
            if self.shared.start.elapsed() >= time.soft {
                return true;
            }
            if roots.len() == 1 {
                return true;
            }
        }
        let best = roots[0].value;
        if best.abs() > WIN_BOUND {
            let turns = (WIN - best.abs()) as u32;
            return depth >= 2 * turns + 2;
        }
        false
    }

    /// Searches the root moves `roots` (the first is the expected best) to
    /// `depth`; afterwards `roots[0]` is the best with its exact score and
    /// line. False when the search was stopped before any move was done.
    fn search_root(&mut self, root: &P, roots: &mut [RootMove], depth: u32) -> bool {
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        let mut best = 0;
        let mut done = 0;
        let mut line = Vec::new();
        self.path.push(root.zobrist());
        for (i, root_move) in roots.iter_mut().enumerate() {
            let mv = root_move.mv;
            let child = Child::of(root, mv, 0, 0);
            let d = depth as i32 - 1;
            let mut value = if i == 0 {
                self.child(&child, d, alpha, beta, &mut line)
            } else {
                let v = self.child(&child, d, alpha, alpha + 1, &mut line);
                if v > alpha && !self.aborted {
                    self.child(&child, d, alpha, beta, &mut line)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            done += 1;
            if value > alpha {
                alpha = value;
                best = i;
                root_move.pv = std::iter::once(mv).chain(line.iter().copied()).collect();
            } else {
                // Only a bound: keep it below the best for the ordering.
                value = value.min(alpha - 1);
            }
            root_move.value = value;
        }
        self.path.pop();
        if done == 0 {
            return false;
        }
        roots.swap(0, best);
        for r in &mut roots[done.max(1)..] {
            r.value = -INFINITE;
        }
        true
    }

    /// The value of `child` for the side that moved into it.
    fn child(
        &mut self,
        child: &Child<P>,
        depth: i32,
        alpha: i32,
        beta: i32,
        line: &mut Vec<Move>,
    ) -> i32 {
        let (ply, turns) = (child.ply, child.turns);
        child.value_for_mover(alpha, beta, |alpha, beta| {
            self.node(&child.pos, depth, alpha, beta, ply, turns, line)
        })
    }

    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.flush();
            let shared = self.shared;
            let limits = &shared.limits;
            let over = shared.stop.load(Ordering::Relaxed)
                || limits.stop.is_some_and(|s| s.is_raised())
                || limits
                    .nodes
                    .is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n)
                || limits
                    .time
                    .is_some_and(|t| shared.start.elapsed() >= t.hard);
            if over {
                self.aborted = true;
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        self.aborted
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Alpha-beta over one node at `ply` from the root, `turns` turns
    /// from it; `line` receives the best line below.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        turns: u32,
        line: &mut Vec<Move>,
    ) -> i32 {
        line.clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return outcome_value(outcome, pos, turns);
        }
        let hash = pos.zobrist();
        if !pos.is_mid_turn() && self.repeats(hash) {
            return 0;
        }
        if let Some(value) = self.table_value(pos, turns) {
            return value;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, moves, alpha, beta, ply, turns, 0);
        }
        let entry = self.shared.table.probe(hash);
        if let Some(e) = entry
            && i32::from(e.depth) >= depth
            && let Some(v) = usable_value(e, turns, alpha, beta)
        {
            return v;
        }
        let in_check = P::ROYAL_KING && pos.is_check();
        if !in_check && let Some(value) = self.null_move_cut(pos, depth, beta, ply, turns) {
            return value;
        }
        let depth = if in_check && ply < 2 * self.root_depth {
            depth + 1
        } else {
            depth
        };
        let ordered = self.heuristics.order(
            &moves,
            entry.map_or(0, |e| e.move_code),
            ply as usize,
            pos.turn(),
        );
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut below = Vec::new();
        self.path.push(hash);
        for (i, &mv) in ordered.iter().enumerate() {
            let child = Child::of(pos, mv, ply, turns);
            let quiet = !is_noisy(mv);
            let mut value;
            if i == 0 {
                value = self.child(&child, depth - 1, alpha, beta, &mut below);
            } else {
                let reduction = if depth >= 3 && i >= 3 && quiet && !in_check {
                    1 + i32::from(i >= 10 && depth >= 5)
                } else {
                    0
                };
                value = self.child(&child, depth - 1 - reduction, alpha, alpha + 1, &mut below);
                if value > alpha && reduction > 0 {
                    value = self.child(&child, depth - 1, alpha, alpha + 1, &mut below);
                }
                if value > alpha && value < beta {
                    value = self.child(&child, depth - 1, alpha, beta, &mut below);
                }
            }
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&below);
                    if alpha >= beta {
                        if quiet {
                            self.heuristics.cut_off(mv, ply as usize, depth, pos.turn());
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.shared.table.store(
            hash,
            Entry {
                move_code: best_move.map_or(0, |m| encode(m) + 1),
                value: to_table(best, turns),
                depth: depth.clamp(0, 255) as u8,
                bound: bound_of(best, original_alpha, beta),
            },
        );
        best
    }

    /// Null-move pruning (module `selectivity`): `Some(value)` when a pass
    /// searched shallower still scores at least `beta` for the side to move
    /// (not in check), so the node fails high without searching its moves.
    fn null_move_cut(
        &mut self,
        pos: &P,
        depth: i32,
        beta: i32,
        ply: u32,
        turns: u32,
    ) -> Option<i32> {
        if !self.shared.selectivity.null_move
            || depth < NULL_MOVE_MIN_DEPTH
            || ply == self.after_null
            || beta.abs() >= WIN_BOUND
            || !has_pieces(pos)
            || evaluate(pos, &self.shared.weights) < beta
        {
            return None;
        }
        let passed = pos.null_move()?;
        let child = Child {
            pos: passed,
            flips: true,
            ply: ply + 1,
            turns: turns + 1,
        };
        let outer = std::mem::replace(&mut self.after_null, ply + 1);
        let mut below = Vec::new();
        let reduced = depth - 1 - null_move_reduction(depth);
        let value = self.child(&child, reduced, beta - 1, beta, &mut below);
        self.after_null = outer;
        if self.aborted {
            return Some(0);
        }
        // A mate found after a pass is not a mate: cut at beta.
        (value >= beta).then_some(value.min(WIN_BOUND - 1).max(beta))
    }

    /// Whether `hash` repeats a position of the game or of the line above.
    fn repeats(&self, hash: u64) -> bool {
        self.path.contains(&hash)
    }

    /// Quiescence: stand pat on the evaluation unless the side to move is
    /// in check or must capture, then captures and promotions.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &P,
        moves: MoveList,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        turns: u32,
        qply: u32,
    ) -> i32 {
        let stand = evaluate(pos, &self.shared.weights);
        let in_check = P::ROYAL_KING && pos.is_check();
        let forced = P::MUST_CAPTURE && moves.iter().any(|m| m.is_capture());
        let every_move = in_check || forced;
        let max_plies = if P::MUST_CAPTURE {
            self.shared.quiescence.max_plies.min(MAX_QUIESCENCE)
        } else {
            MAX_QUIESCENCE
        };
        if qply >= max_plies || ply >= MAX_PLY + MAX_QUIESCENCE {
            return stand;
        }
        let mut best = -INFINITE;
        if !every_move {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let checks =
            P::HAS_DROPS && P::ROYAL_KING && qply == 0 && self.shared.selectivity.quiescence_checks;
        let check_test = checks.then(|| CheckTest::new(pos));
        let candidates: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                every_move
                    || is_noisy(m)
                    || check_test.as_ref().is_some_and(|t| gives_check(pos, t, m))
            })
            .collect();
        let ordered = self
            .heuristics
            .order(&candidates, 0, ply as usize, pos.turn());
        for mv in ordered {
            let child = Child::of(pos, mv, ply, turns);
            let value = child.value_for_mover(alpha, beta, |alpha, beta| {
                self.quiesce_node(&child, alpha, beta, qply + 1)
            });
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INFINITE {
            // Every move was to be searched and none was (cannot happen:
            // a position without moves is decided), or all were cut.
            stand
        } else {
            best
        }
    }

    /// Quiescence at `child`, for its side to move.
    fn quiesce_node(&mut self, child: &Child<P>, alpha: i32, beta: i32, qply: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        let (pos, ply, turns) = (&child.pos, child.ply, child.turns);
        self.seldepth = self.seldepth.max(ply);
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return outcome_value(outcome, pos, turns);
        }
        if let Some(value) = self.table_value(pos, turns) {
            return value;
        }
        if !(P::MUST_CAPTURE && self.shared.quiescence.table) {
            return self.quiesce(pos, moves, alpha, beta, ply, turns, qply);
        }
        // Losing chess: capture sequences transpose (the same men taken in
        // another order), so quiescence reads and writes the table too.
        let hash = pos.zobrist();
        if let Some(v) = self
            .shared
            .table
            .probe(hash)
            .and_then(|e| usable_value(e, turns, alpha, beta))
        {
            return v;
        }
        let value = self.quiesce(pos, moves, alpha, beta, ply, turns, qply);
        if !self.aborted {
            self.shared.table.store(
                hash,
                Entry {
                    move_code: 0,
                    value: to_table(value, turns),
                    depth: 0,
                    bound: bound_of(value, alpha, beta),
                },
            );
        }
        value
    }

    /// The value the endgame tables give `pos` (`turns` from the root),
    /// for its side to move; `None` where they do not cover it.
    fn table_value(&self, pos: &P, turns: u32) -> Option<i32> {
        let wdl = self.shared.tables?.probe_wdl(pos)?;
        Some(match wdl {
            Wdl::Win => TABLE_WIN - turns as i32,
            Wdl::Loss => -(TABLE_WIN - turns as i32),
            Wdl::Draw => 0,
        })
    }
}

/// The value a table entry gives a node searched with the window
/// (`alpha`, `beta`), `turns` from the root, where its bound allows.
fn usable_value(e: Entry, turns: u32, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_table(e.value, turns);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    usable.then_some(v)
}

/// What a value found with the window (`alpha`, `beta`) is: a lower bound
/// when it reached `beta`, an upper one when it did not pass `alpha`.
fn bound_of(value: i32, alpha: i32, beta: i32) -> Bound {
    if value >= beta {
        Bound::Lower
    } else if value > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// How many turns a move from `pos` to `child` takes: one when the other
/// side moves next, none in the middle of a Hit-and-Run turn, two when the
/// other side had to pass (`kamikaze2`).
fn turn_steps<P: Position>(pos: &P, child: &P) -> u32 {
    if child.turn() != pos.turn() {
        1
    } else if child.is_mid_turn() {
        0
    } else {
        2
    }
}

/// The value of a finished game for the side to move, `turns` from the root.
fn outcome_value<P: Position>(outcome: Outcome, pos: &P, turns: u32) -> i32 {
    match outcome.winner {
        None => 0,
        Some(winner) if winner == pos.turn() => win_in(turns),
        Some(_) => -win_in(turns),
    }
}
