//! How ransom chooses a move: what the tablebases, stored proofs and the
//! store know, else a proved short mate from the mate solver, else the
//! engine's search within the time a clock allows. UCI's `go` answers with
//! it ([`crate::uci_session`]); the service's `eval` shows the engine's
//! part of it ([`EngineView`]).

use super::knowledge::{Category, Knowledge, Source};
use crate::moves::Move;
use crate::notation::{san, uci, write_turn_uci};
use crate::search::engine::{
    Clock, Engine, Info, Limits, Report, Score, SearchOptions, TimeLimits,
};
use crate::search::mate::{MateOptions, MateSolution, MateStatus, longest_line, solve_mate};
use crate::search::oracle::Oracle;
use crate::search::{Budget, StopSignal};
use crate::{Color, Position, Variant};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The limits a `go` command sets (the clock for both sides; the engine
/// reads the side to move's).
#[derive(Clone, Debug, Default)]
pub struct GoLimits {
    /// White's clock.
    pub wtime: Option<Duration>,
    /// Black's clock.
    pub btime: Option<Duration>,
    /// White's increment.
    pub winc: Option<Duration>,
    /// Black's increment.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// This move's time.
    pub movetime: Option<Duration>,
    /// Depth limit, in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until stopped.
    pub infinite: bool,
    /// `searchmoves`, in UCI notation (checked against the position).
    pub search_moves: Vec<String>,
}

/// When a `go` gives neither a clock, `movetime`, `depth`, `nodes` nor
/// `infinite`: think this long.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);
/// The mate solver's share of a move's time (one part in this many), and
/// its share when the engine has claimed a mate on an earlier move.
const MATE_SHARE: u32 = 10;
const CLAIMED_MATE_SHARE: u32 = 2;
/// Its node budget when the `go` limits depth or nodes instead of time.
const MATE_NODES: u64 = 20_000;
/// The longest mate the solver looks for before the engine searches.
const MATE_MAX: u16 = 5;

impl GoLimits {
    /// The time this move may take, if any: from the clock of `turn`, or
    /// `movetime`, or the default when nothing else limits the search.
    pub fn time(&self, turn: Color, overhead: Duration) -> Option<TimeLimits> {
        let (remaining, increment) = match turn {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        if self.infinite {
            return None;
        }
        if let Some(movetime) = self.movetime {
            let t = movetime
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            return Some(TimeLimits { soft: t, hard: t });
        }
        if let Some(remaining) = remaining {
            let clock = Clock {
                remaining,
                increment: increment.unwrap_or_default(),
                moves_to_go: self.moves_to_go,
            };
            return Some(clock.limits(overhead));
        }
        if self.depth.is_none() && self.nodes.is_none() {
            return Some(TimeLimits {
                soft: DEFAULT_MOVETIME,
                hard: DEFAULT_MOVETIME,
            });
        }
        None
    }
}

/// What a game has learned for its later moves: a verified mate solution
/// to follow (so that a mate announced is delivered within its count),
/// or a mate the engine announced and the solver has not proved yet.
#[derive(Default)]
pub struct MatePlan {
    /// The solver's verified solution, for `attacker` in `variant`.
    solution: Option<(Variant, Color, MateSolution)>,
    /// The engine's last `score mate N` (N > 0): the solver looks for a
    /// mate in N − 1 next time, with a larger share of the time.
    claimed: Option<(Variant, Color, u16)>,
}

/// What one move is thought over with.
pub struct Thinker<'a> {
    /// Tables, proofs and stores.
    pub knowledge: &'a Knowledge,
    /// The engine (its table kept between moves).
    pub engine: &'a Engine,
    /// Zobrist hashes of the game's positions before the current one.
    pub history: &'a [u64],
    /// The limits of this move.
    pub go: &'a GoLimits,
    /// Engine threads.
    pub threads: usize,
    /// Lines the engine reports.
    pub multipv: usize,
    /// Time kept back for the move to reach the GUI.
    pub overhead: Duration,
    /// Stops the thinking.
    pub stop: StopSignal,
}

/// What happens while a move is thought over.
pub enum ThinkEvent<'a> {
    /// Moves of `searchmoves` that are not legal here were left out
    /// (`searching_all`: none was left, so every move is searched).
    IgnoredSearchMoves {
        /// The words that name no legal move.
        not_legal: &'a [String],
        /// Whether every move is searched instead.
        searching_all: bool,
    },
    /// An iteration of the engine's search ended.
    Iteration(&'a Info),
}

/// The move chosen, and why.
#[derive(Clone, Debug)]
pub enum Thought {
    /// There is no legal move.
    GameOver,
    /// The tables, a stored proof or the store know the result.
    Known {
        /// The move (UCI).
        best: String,
        /// Who knows it.
        source: Source,
        /// The result for the side to move.
        category: Category,
        /// The distance to the end, in plies, where known.
        dtw: Option<u16>,
    },
    /// A verified mate.
    Mate {
        /// Its length, in moves.
        n: u16,
        /// `Some(shortest)` when the solver proved it now (and whether no
        /// shorter one exists); `None` when it is the solution found on an
        /// earlier move, followed.
        shortest: Option<bool>,
        /// Nodes the solver searched.
        nodes: u64,
        /// Its time.
        elapsed: Duration,
        /// The longest line of the solution.
        line: Vec<Move>,
        /// The whole turn to play (UCI, sub-moves joined by commas).
        turn: String,
    },
    /// The engine's choice (heuristic).
    Searched {
        /// The whole turn to play (UCI), `None` when the search found none.
        turn: Option<String>,
    },
}

impl Thinker<'_> {
    /// Chooses the move at `pos`, telling `on_event` what happens;
    /// `plan` carries a mate found or announced to the next moves.
    pub fn think<P: Position>(
        &self,
        pos: &P,
        plan: &mut MatePlan,
        on_event: &mut dyn FnMut(ThinkEvent),
    ) -> Thought {
        let started = Instant::now();
        let legal = pos.playable_moves();
        if legal.is_empty() {
            return Thought::GameOver;
        }
        let (search_moves, not_legal) = self.search_moves(&legal);
        if !not_legal.is_empty() {
            on_event(ThinkEvent::IgnoredSearchMoves {
                not_legal: &not_legal,
                searching_all: search_moves.is_empty(),
            });
        }
        let time = self.go.time(pos.turn(), self.overhead);
        if search_moves.is_empty() {
            if let Some(known) = self.known(pos) {
                return known;
            }
            if let Some(mate) = from_plan(pos, plan) {
                return mate;
            }
            let claimed = match plan.claimed.take() {
                Some((variant, attacker, n)) if variant == P::VARIANT && attacker == pos.turn() => {
                    Some(n.saturating_sub(1).max(1))
                }
                _ => None,
            };
            if let Some((mate, solution)) = self.solve(pos, time, claimed) {
                plan.solution = Some((P::VARIANT, pos.turn(), solution));
                return mate;
            }
        }
        // The engine gets what the proved answers left of the time.
        let spent = started.elapsed();
        let time = time.map(|t| TimeLimits {
            soft: t.soft.saturating_sub(spent).max(Duration::from_millis(1)),
            hard: t.hard.saturating_sub(spent).max(Duration::from_millis(1)),
        });
        let limits = Limits {
            depth: self.go.depth,
            nodes: self.go.nodes,
            time,
            stop: Some(self.stop),
        };
        let options = SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            search_moves,
        };
        let report = self.engine.search_with(
            pos,
            self.history,
            &limits,
            &options,
            self.knowledge.oracle::<P>(),
            &mut |info| on_event(ThinkEvent::Iteration(info)),
        );
        let Some(best) = report.best else {
            return Thought::Searched { turn: None };
        };
        if let Some(Score::Mate(n)) = report.info.lines.first().map(|l| l.score)
            && n > 0
        {
            plan.claimed = Some((P::VARIANT, pos.turn(), u16::try_from(n).unwrap_or(u16::MAX)));
        }
        let line = report.info.lines.first().map_or(&[][..], |l| &l.pv[..]);
        let turn = self.whole_turn(pos, best, line);
        Thought::Searched {
            turn: Some(write_turn_uci(&turn)),
        }
    }

    /// `best` and, where it leaves the turn unfinished (the first sub-move
    /// of a Hit-and-Run turn), the sub-moves that finish it: from the best
    /// line, or a short search where the line stops mid-turn. A GUI gets
    /// the turn as `position ... moves` takes it (`d2d4,g1f3`).
    fn whole_turn<P: Position>(&self, pos: &P, best: Move, line: &[Move]) -> Vec<Move> {
        let mut turn = vec![best];
        let mut now = pos.clone();
        now.play_unchecked(best);
        while now.is_mid_turn() && now.turn() == pos.turn() {
            let next = match line.get(turn.len()) {
                Some(&m) if line.first() == Some(&best) && now.is_legal(m) => Some(m),
                _ => {
                    let limits = Limits {
                        depth: Some(2),
                        ..Limits::default()
                    };
                    let options = SearchOptions::default();
                    self.engine
                        .search(&now, &[], &limits, &options, &mut |_| {})
                        .best
                }
            };
            let Some(next) = next else { break };
            turn.push(next);
            now.play_unchecked(next);
        }
        turn
    }

    /// The moves of `legal` that `searchmoves` names (empty: no
    /// restriction), and the words it names that are not legal moves here.
    fn search_moves(&self, legal: &[Move]) -> (Vec<Move>, Vec<String>) {
        let mut moves = Vec::new();
        let mut not_legal = Vec::new();
        for text in &self.go.search_moves {
            match legal.iter().find(|&&m| uci::write(m) == *text) {
                Some(&m) => moves.push(m),
                None => not_legal.push(text.clone()),
            }
        }
        (moves, not_legal)
    }

    /// A proved answer from the tablebases, a stored proof or the store.
    fn known<P: Position>(&self, pos: &P) -> Option<Thought> {
        let analysis = self.knowledge.analyse(pos);
        let verdict = analysis.verdict;
        if !matches!(
            verdict.source,
            Source::Tablebase | Source::Proof | Source::Store
        ) {
            return None;
        }
        let best = analysis.moves.first()?;
        Some(Thought::Known {
            best: best.uci.clone(),
            source: verdict.source,
            category: verdict.category,
            dtw: verdict.dtw,
        })
    }

    /// A verified mate of at most [`MATE_MAX`] moves (or of the length
    /// the engine announced, `claimed`), found within a share of the time
    /// (or a small node budget), with its solution for the later moves.
    fn solve<P: Position>(
        &self,
        pos: &P,
        time: Option<TimeLimits>,
        claimed: Option<u16>,
    ) -> Option<(Thought, MateSolution)> {
        let share = if claimed.is_some() {
            CLAIMED_MATE_SHARE
        } else {
            MATE_SHARE
        };
        let budget = Budget {
            max_nodes: if time.is_some() { u64::MAX } else { MATE_NODES },
            max_time: time.map(|t| t.soft / share),
            hash_bytes: 16 << 20,
            stop: Some(self.stop),
        };
        let options = MateOptions {
            // A mate announced in N: exactly N − 1 now, so that it is
            // delivered within its count.
            max: claimed.unwrap_or(MATE_MAX),
            all_keys: false,
            budget,
            threads: 1,
        };
        let report = solve_mate(pos, &options, &mut |_| {});
        let (MateStatus::Mate, Some(solution), Some(n)) =
            (report.status, &report.solution, report.length)
        else {
            return None;
        };
        let line = longest_line(pos, pos.turn(), solution);
        let key = uci::write(*line.first()?);
        let mate = Thought::Mate {
            n,
            shortest: Some(report.shortest),
            nodes: report.nodes,
            elapsed: report.elapsed,
            turn: plan_turn(pos, solution).unwrap_or(key),
            line,
        };
        Some((mate, report.solution?))
    }
}

/// The move of a verified solution found on an earlier move, when the game
/// is still in it: the mate announced then is delivered within its count.
fn from_plan<P: Position>(pos: &P, plan: &MatePlan) -> Option<Thought> {
    let (variant, attacker, solution) = plan.solution.as_ref()?;
    if *variant != P::VARIANT || *attacker != pos.turn() {
        return None;
    }
    let (_, label) = solution.get(pos.zobrist())?;
    // Checks the legality of every move of the turn.
    let turn = plan_turn(pos, solution)?;
    Some(Thought::Mate {
        n: label,
        shortest: None,
        nodes: 0,
        elapsed: Duration::ZERO,
        line: longest_line(pos, pos.turn(), solution),
        turn,
    })
}

/// The solution's whole turn from `pos` (two sub-moves in Hit-and-Run
/// chess), in UCI; `None` if the solution does not cover it.
fn plan_turn<P: Position>(pos: &P, solution: &MateSolution) -> Option<String> {
    let mut now = pos.clone();
    let mut turn = Vec::new();
    loop {
        let (mv, _) = solution.get(now.zobrist())?;
        if !now.is_legal(mv) {
            return None;
        }
        turn.push(mv);
        now.play_unchecked(mv);
        if !(now.is_mid_turn() && now.turn() == pos.turn()) || now.outcome().is_some() {
            return Some(write_turn_uci(&turn));
        }
    }
}

/// The engine's view of a position: score for the side to move, depth,
/// nodes, the best line in UCI and SAN. Heuristic: a proved verdict beside
/// it overrides it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineView {
    /// `{"cp": N}` or `{"mate": N}`; `null` when there is no move.
    pub score: Option<ScoreView>,
    /// Depth of the last iteration.
    pub depth: u32,
    /// The deepest ply reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The best move (UCI).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The best line (UCI).
    pub pv: Vec<String>,
    /// The best line (SAN, with check marks).
    pub pv_san: Vec<String>,
    /// Always false: the engine proves nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proved: Option<bool>,
}

/// A score for the side to move.
#[derive(Clone, Copy, Debug, Serialize)]
pub enum ScoreView {
    /// Centipawns.
    #[serde(rename = "cp")]
    Centipawns(i32),
    /// Mate in N moves (negative: mated).
    #[serde(rename = "mate")]
    Mate(i32),
}

impl EngineView {
    /// The view of `pos` after `time` with a fresh engine of `hash_bytes`,
    /// scoring the positions `tables` cover by them (Losing chess).
    pub fn search<P: Position>(
        pos: &P,
        time: Duration,
        hash_bytes: usize,
        tables: Option<&dyn Oracle<P>>,
    ) -> EngineView {
        let limits = Limits {
            time: Some(TimeLimits {
                soft: time,
                hard: time,
            }),
            ..Limits::default()
        };
        let engine = Engine::new(hash_bytes);
        let report = engine.search_with(
            pos,
            &[],
            &limits,
            &SearchOptions::default(),
            tables,
            &mut |_| {},
        );
        EngineView::of(pos, &report)
    }

    /// The view a search `report` of `pos` gives.
    pub fn of<P: Position>(pos: &P, report: &Report) -> EngineView {
        let Some(line) = report.info.lines.first().filter(|_| report.best.is_some()) else {
            return EngineView {
                score: None,
                depth: 0,
                seldepth: None,
                nodes: 0,
                time_ms: None,
                best: None,
                pv: Vec::new(),
                pv_san: Vec::new(),
                proved: None,
            };
        };
        let mut now = pos.clone();
        let pv_san = line
            .pv
            .iter()
            .map(|&m| {
                let text = san::write_plus(&now, m);
                now.play_unchecked(m);
                text
            })
            .collect();
        EngineView {
            score: Some(match line.score {
                Score::Centipawns(cp) => ScoreView::Centipawns(cp),
                Score::Mate(n) => ScoreView::Mate(n),
            }),
            depth: report.info.depth,
            seldepth: Some(report.info.seldepth),
            nodes: report.info.nodes,
            time_ms: Some(report.info.elapsed.as_millis() as u64),
            best: line.pv.first().map(|&m| uci::write(m)),
            pv: line.pv.iter().map(|&m| uci::write(m)).collect(),
            pv_san,
            proved: Some(false),
        }
    }
}
