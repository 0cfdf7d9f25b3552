//! A UCI session as a value: the engine's state between commands
//! ([`Session::handle`] takes one line and gives the reply), the signals a
//! reader of the input raises while a search runs ([`Signals`]), and the
//! lines UCI answers with. `ransom uci` runs one over stdin and stdout; a
//! test drives one in-process:
//!
//! ```
//! use ransom::uci_session::{Reply, Session};
//!
//! let mut session = Session::new(std::sync::Arc::new(|_: &[String]| {}));
//! session.handle("setoption name UCI_Variant value antichess");
//! session.handle("position startpos moves e2e4");
//! let Reply::Lines(lines) = session.handle("go perft 1") else { panic!() };
//! assert_eq!(lines.last().unwrap(), "Nodes searched: 20");
//! ```
//!
//! `UCI_Variant` picks the variant; `go perft N` prints Stockfish's divide
//! format; `go mate N` runs the mate solver; a plain `go` thinks as
//! [`crate::analysis::think`] decides (tables, proofs and the store, a
//! short proved mate, else the engine within the clock). Bad input is
//! answered with `info string error: ...`; the session goes on.

mod go;
mod lines;
mod mate;
mod options;
mod signals;

pub use lines::{info_lines, mate_info, perft_lines, thought_lines};
pub use signals::{Early, Signals};

use crate::analysis::think::{MatePlan, ThinkEvent, Thinker};
use crate::analysis::{Knowledge, ProofIndex, StoreShelf};
use crate::notation::{fen, parse_move, parse_turn};
use crate::search::StopSignal;
use crate::search::engine::Engine;
use crate::{AnyPosition, Position, Variant, dispatch};
use go::GoOptions;
use lines::with_a_move;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Where the session prints lines that cannot wait for the reply (the
/// `info` lines of a running search).
pub type Print = Arc<dyn Fn(&[String]) + Send + Sync>;

/// The answer to one line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// Lines to print.
    Lines(Vec<String>),
    /// `quit`: the session ends.
    Quit,
}

/// A command the session cannot act on, and why (answered as
/// `info string error: …`; the session goes on).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

/// `info string error: MESSAGE`.
fn error(message: impl std::fmt::Display) -> Reply {
    Reply::Lines(vec![format!("info string error: {message}")])
}

/// The engine state between commands.
pub struct Session {
    variant: Variant,
    position: AnyPosition,
    /// Zobrist hashes of the positions the `position` command passed
    /// through before the current one (for repetitions).
    history: Vec<u64>,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead: Duration,
    /// The engine and its table, made at the first `go` that needs it
    /// (again after `Hash` changes or `ucinewgame`).
    engine: Option<Engine>,
    /// A mate announced on an earlier move, to deliver within its count.
    plan: MatePlan,
    tablebases: PathBuf,
    proofs: PathBuf,
    store: PathBuf,
    /// Tablebases, proofs and the store, opened at the first `go` that
    /// needs them (again after their options change).
    knowledge: Option<Knowledge>,
    signals: &'static Signals,
    print: Print,
}

impl Session {
    /// A session in chess from the start position, printing the lines of
    /// a running search with `print`.
    pub fn new(print: Print) -> Session {
        Session {
            variant: Variant::Chess,
            position: AnyPosition::start(Variant::Chess),
            history: Vec::new(),
            hash_mb: options::DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(options::DEFAULT_OVERHEAD_MS),
            engine: None,
            plan: MatePlan::default(),
            tablebases: PathBuf::from("tablebases"),
            proofs: PathBuf::from("proofs"),
            store: PathBuf::from(crate::solved::DEFAULT_DIR),
            knowledge: None,
            signals: Signals::new(),
            print,
        }
    }

    /// The signals of this session, for the reader of its input.
    pub fn signals(&self) -> &'static Signals {
        self.signals
    }

    /// The reply to one line of input (trimmed).
    pub fn handle(&mut self, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        match words.next() {
            None => Reply::Lines(Vec::new()),
            Some("uci") => Reply::Lines(options::identify()),
            Some("isready") => {
                // Open the tables, verify the proofs and make the engine's
                // table now, not in the first search's time.
                self.knowledge();
                self.engine();
                Reply::Lines(vec!["readyok".into()])
            }
            Some("ucinewgame") => {
                self.new_game_position();
                self.engine = None;
                self.plan = MatePlan::default();
                Reply::Lines(Vec::new())
            }
            Some("setoption") => self.set_option(line),
            Some("position") => match self.set_position(line) {
                Ok(()) => Reply::Lines(Vec::new()),
                Err(e) => error(e),
            },
            Some("go") => self.go(&words.collect::<Vec<_>>()),
            Some("d") => Reply::Lines(crate::notation::diagram::diagram(
                &dispatch!(&self.position, p => fen::write(p)),
            )),
            Some("stop") | Some("ponderhit") => Reply::Lines(Vec::new()),
            Some("quit") => Reply::Quit,
            Some(other) => error(format!("unknown command '{other}'")),
        }
    }

    /// The variant's start position, with no history.
    fn new_game_position(&mut self) {
        self.position = AnyPosition::start(self.variant);
        self.history.clear();
    }

    /// `position startpos|fen FEN [moves M...]`; the position is unchanged
    /// on error.
    fn set_position(&mut self, line: &str) -> Result<(), CommandError> {
        let rest = line.strip_prefix("position").unwrap_or("").trim();
        let (setup, moves) = match rest.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let start = if setup == "startpos" {
            AnyPosition::start(self.variant)
        } else if let Some(text) = setup.strip_prefix("fen") {
            let setup = fen::parse(text.trim()).map_err(|e| CommandError(e.to_string()))?;
            AnyPosition::from_setup(self.variant, &setup)
                .map_err(|e| CommandError(e.to_string()))?
        } else {
            return Err(CommandError(
                "expected 'position startpos' or 'position fen FEN'".into(),
            ));
        };
        let (position, history) = dispatch!(start, p => play_all(p, &moves)?);
        self.position = position;
        self.history = history;
        Ok(())
    }

    /// `go …`: perft, a mate search, or a move.
    fn go(&mut self, words: &[&str]) -> Reply {
        let GoOptions {
            limits,
            mate,
            perft,
        } = match GoOptions::parse(words) {
            Ok(options) => options,
            Err(message) => return error(message),
        };
        if words.first() == Some(&"perft") {
            return match perft {
                Some(depth) if (1..=8).contains(&depth) => Reply::Lines(
                    dispatch!(&self.position, p => lines::perft_lines(p, depth as u32)),
                ),
                _ => error("go perft needs a depth from 1 to 8"),
            };
        }
        let stop = self.signals.next_stop();
        // `go infinite` searches until `stop` and, as UCI asks, holds its
        // `bestmove` until then even when the search ends first.
        let infinite = limits.infinite;
        let lines = if let Some(n) = mate {
            match u16::try_from(n) {
                Ok(n) if n >= 1 => {
                    if limits.movetime.is_none() && limits.nodes.is_none() {
                        // No limit of its own: the end of the input stops
                        // it (after a grace period), as it stops `go infinite`.
                        self.signals
                            .stop_at_end_of_input(stop.ticket, END_OF_INPUT_GRACE);
                    }
                    let hash_bytes = self.hash_mb << 20;
                    let print = &*self.print;
                    dispatch!(&self.position, p => with_a_move(p, mate::mate_lines(p, n, &limits, hash_bytes, stop, print)))
                }
                _ => return error("go mate needs a length from 1 to 65535"),
            }
        } else {
            if infinite {
                self.signals
                    .stop_at_end_of_input(stop.ticket, Duration::ZERO);
            }
            self.think(&limits, stop)
        };
        if infinite {
            let mut lines = lines;
            let bestmove = lines.pop();
            (self.print)(&lines);
            self.signals.wait_for_stop(stop);
            Reply::Lines(bestmove.into_iter().collect())
        } else {
            Reply::Lines(lines)
        }
    }

    /// A plain `go`: the move as [`Thinker`] chooses it, the engine's
    /// `info` lines printed as it searches.
    fn think(
        &mut self,
        limits: &crate::analysis::think::GoLimits,
        stop: StopSignal,
    ) -> Vec<String> {
        self.knowledge();
        self.engine();
        let (Some(knowledge), Some(engine)) = (&self.knowledge, &self.engine) else {
            return vec!["info string error: the tablebases and proofs could not be opened".into()];
        };
        let thinker = Thinker {
            knowledge,
            engine,
            history: &self.history,
            go: limits,
            threads: self.threads,
            multipv: self.multipv,
            overhead: self.move_overhead,
            stop,
        };
        let multipv = self.multipv > 1;
        let print = &*self.print;
        let mut on_event = |event: ThinkEvent| match event {
            ThinkEvent::IgnoredSearchMoves {
                not_legal,
                searching_all,
            } => print(&[format!(
                "info string searchmoves: {} not legal here, ignored{}",
                not_legal.join(" "),
                if searching_all {
                    "; searching every move"
                } else {
                    ""
                }
            )]),
            ThinkEvent::Iteration(info) => print(&info_lines(info, multipv)),
        };
        let thought =
            dispatch!(&self.position, p => thinker.think(p, &mut self.plan, &mut on_event));
        thought_lines(&thought)
    }

    /// The engine, made with the current `Hash` if there is none.
    fn engine(&mut self) {
        let hash_bytes = self.hash_mb << 20;
        self.engine.get_or_insert_with(|| Engine::new(hash_bytes));
    }

    /// The tablebases, proofs and solved-position store of the current
    /// options, opened once (the store read as it is then).
    fn knowledge(&mut self) -> &Knowledge {
        let (tablebases, proofs, store) = (&self.tablebases, &self.proofs, &self.store);
        self.knowledge.get_or_insert_with(|| {
            // A damaged store answers from what remains (the service and
            // `store show` name the damage).
            let (shelf, _) = StoreShelf::read(vec![store.clone()]);
            Knowledge::new(Some(tablebases), ProofIndex::load_dir(proofs)).with_stores(shelf)
        })
    }
}

/// How long a search with no limit of its own may go on once the input has
/// ended (no `stop` can come any more); a script's `go mate 2` is answered
/// in full, a `go mate 30` ends.
const END_OF_INPUT_GRACE: Duration = Duration::from_secs(10);

/// Plays UCI moves (or comma-joined turns in Hit-and-Run) from `start`;
/// also gives the zobrist hashes of the positions before each turn.
fn play_all<P: Position>(
    start: P,
    moves: &[&str],
) -> Result<(AnyPosition, Vec<u64>), CommandError> {
    let mut pos = start;
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        history.push(pos.zobrist());
        let played = if text.contains(',') {
            parse_turn(&pos, text)
        } else {
            parse_move(&pos, text).map(|m| vec![m])
        }
        .map_err(|e| CommandError(format!("move {} ('{text}'): {e}", i + 1)))?;
        for m in played {
            pos.play_unchecked(m);
        }
    }
    let position = AnyPosition::from_setup(P::VARIANT, &pos.to_setup())
        .map_err(|e| CommandError(e.to_string()))?;
    Ok((position, history))
}
