//! A plain UCI `go` (not `go mate` or `go perft`): what the tablebases and
//! stored proofs know, else a proved short mate from the mate solver, else
//! the engine's search (`ransom::search::engine`) within the clock, with an
//! `info` line per iteration. Proved answers say so in an `info string`.

use ransom::analysis::{Category, Knowledge, Source};
use ransom::moves::Move;
use ransom::notation::{uci, write_turn_uci};
use ransom::search::engine::Score;
use ransom::search::engine::{Clock, Engine, Info, Limits, SearchOptions, TimeLimits};
use ransom::search::mate::{MateOptions, MateSolution, MateStatus, longest_line, solve_mate};
use ransom::search::{Budget, StopSignal};
use ransom::{Color, Position, Variant};
use std::time::{Duration, Instant};

/// The limits a `go` command sets (the clock for both sides; the engine
/// reads the side to move's).
#[derive(Clone, Debug, Default)]
pub struct GoLimits {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub moves_to_go: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
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

/// What one `go` thinks with.
pub struct Thinking<'a> {
    pub knowledge: &'a Knowledge,
    pub engine: &'a Engine,
    /// Zobrist hashes of the game's positions before the current one.
    pub history: &'a [u64],
    pub go: &'a GoLimits,
    pub threads: usize,
    pub multipv: usize,
    pub overhead: Duration,
    pub stop: StopSignal,
    /// Prints lines at once (the `info` lines of each iteration).
    pub print: &'a dyn Fn(&[String]),
}

impl Thinking<'_> {
    /// The lines ending with `bestmove` (the `info` lines of the search
    /// are printed as it goes).
    pub fn think<P: Position>(&self, pos: &P, plan: &mut MatePlan) -> Vec<String> {
        let started = Instant::now();
        let legal = pos.playable_moves();
        if legal.is_empty() {
            return vec![
                "info string the game is over".into(),
                "bestmove (none)".into(),
            ];
        }
        let (search_moves, not_legal) = self.search_moves(&legal);
        if !not_legal.is_empty() {
            // A GUI waits for `bestmove` after every `go`: the moves that
            // are not legal are left out, and said so.
            (self.print)(&[format!(
                "info string searchmoves: {} not legal here, ignored{}",
                not_legal.join(" "),
                if search_moves.is_empty() {
                    "; searching every move"
                } else {
                    ""
                }
            )]);
        }
        let time = self.go.time(pos.turn(), self.overhead);
        if search_moves.is_empty() {
            if let Some(lines) = self.knowledge_answer(pos) {
                return lines;
            }
            if let Some(lines) = from_plan(pos, plan) {
                return lines;
            }
            let claimed = match plan.claimed.take() {
                Some((variant, attacker, n)) if variant == P::VARIANT && attacker == pos.turn() => {
                    Some(n.saturating_sub(1).max(1))
                }
                _ => None,
            };
            if let Some((lines, solution)) = self.solver_answer(pos, time, claimed) {
                plan.solution = Some((P::VARIANT, pos.turn(), solution));
                return lines;
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
        let multipv = self.multipv > 1;
        let report = self
            .engine
            .search(pos, self.history, &limits, &options, &mut |info| {
                (self.print)(&info_lines(info, multipv));
            });
        let Some(best) = report.best else {
            return vec!["bestmove (none)".into()];
        };
        if let Some(Score::Mate(n)) = report.info.lines.first().map(|l| l.score)
            && n > 0
        {
            plan.claimed = Some((P::VARIANT, pos.turn(), u16::try_from(n).unwrap_or(u16::MAX)));
        }
        let line = report.info.lines.first().map_or(&[][..], |l| &l.pv[..]);
        let turn = self.whole_turn(pos, best, line);
        vec![format!("bestmove {}", write_turn_uci(&turn))]
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
    fn knowledge_answer<P: Position>(&self, pos: &P) -> Option<Vec<String>> {
        let analysis = self.knowledge.analyse(pos);
        let verdict = analysis.verdict;
        if !matches!(
            verdict.source,
            Source::Tablebase | Source::Proof | Source::Store
        ) {
            return None;
        }
        let best = analysis.moves.first()?;
        // Tablebases give the distance (plies) as a mate score; a proof
        // only says who wins.
        let score = match (verdict.category, verdict.dtw) {
            (Category::Win, Some(d)) => format!("mate {}", d.div_ceil(2)),
            (Category::Loss, Some(d)) => format!("mate -{}", d.div_ceil(2)),
            (Category::Win, None) => "cp 30000".to_string(),
            (Category::Loss, None) => "cp -30000".to_string(),
            _ => "cp 0".to_string(),
        };
        let depth = verdict.dtw.unwrap_or(1);
        Some(vec![
            format!(
                "info depth {depth} score {score} pv {} string proved: {} {}",
                best.uci,
                verdict.source.name(),
                verdict.category.name()
            ),
            format!("bestmove {}", best.uci),
        ])
    }

    /// A verified mate of at most [`MATE_MAX`] moves (or of the length
    /// the engine announced, `claimed`), found within a share of the time
    /// (or a small node budget), with its solution for the later moves.
    fn solver_answer<P: Position>(
        &self,
        pos: &P,
        time: Option<TimeLimits>,
        claimed: Option<u16>,
    ) -> Option<(Vec<String>, MateSolution)> {
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
        let lines = vec![
            mate_info(n, report.nodes, report.elapsed, &line),
            format!(
                "info string proved: mate in {n} {}, verified",
                if report.shortest {
                    "proved shortest"
                } else {
                    "(shorter not ruled out)"
                }
            ),
            format!("bestmove {}", plan_turn(pos, solution).unwrap_or(key)),
        ];
        Some((lines, report.solution?))
    }
}

/// The move of a verified solution found on an earlier move, when the game
/// is still in it: the mate announced then is delivered within its count.
fn from_plan<P: Position>(pos: &P, plan: &MatePlan) -> Option<Vec<String>> {
    let (variant, attacker, solution) = plan.solution.as_ref()?;
    if *variant != P::VARIANT || *attacker != pos.turn() {
        return None;
    }
    let (_, label) = solution.get(pos.zobrist())?;
    // Checks the legality of every move of the turn.
    let turn = plan_turn(pos, solution)?;
    let line = longest_line(pos, pos.turn(), solution);
    Some(vec![
        mate_info(label, 0, Duration::ZERO, &line),
        format!("info string proved: mate in {label}, from the verified solution"),
        format!("bestmove {turn}"),
    ])
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

/// The `info` line of a verified mate in `n` whose longest line is `line`.
pub fn mate_info(n: u16, nodes: u64, elapsed: Duration, line: &[Move]) -> String {
    let pv: Vec<String> = line.iter().map(|&m| uci::write(m)).collect();
    format!(
        "info depth {} score mate {n} nodes {nodes} time {} pv {}",
        2 * n - 1,
        elapsed.as_millis(),
        pv.join(" ")
    )
}

/// `info depth ... score ... pv ...` for each line of an iteration.
pub fn info_lines(info: &Info, multipv: bool) -> Vec<String> {
    let ms = info.elapsed.as_millis().max(1);
    let nps = u128::from(info.nodes) * 1000 / ms;
    info.lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let pv: Vec<String> = line.pv.iter().map(|&m| uci::write(m)).collect();
            let index = if multipv {
                format!(" multipv {}", i + 1)
            } else {
                String::new()
            };
            format!(
                "info depth {} seldepth {}{index} score {} nodes {} nps {nps} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                line.score.uci(),
                info.nodes,
                info.hashfull,
                info.elapsed.as_millis(),
                pv.join(" ")
            )
        })
        .collect()
}
