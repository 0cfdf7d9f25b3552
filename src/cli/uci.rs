//! `ransom uci`: the Universal Chess Interface on stdin/stdout, for chess
//! GUIs and scripts. `UCI_Variant` picks the variant; `go perft N` prints
//! Stockfish's divide format; `go mate N` runs the mate solver; a plain
//! `go` answers from the endgame tablebases, the stored proofs or the
//! solved-position store (option `Store`) when they
//! know the position, else with a short mate the solver proves, else with
//! the engine's search within the clock (`uci_think`). Input is read on its
//! own thread, so `stop`, `quit` and `isready` are heard while a search runs.
//! Bad input is answered with `info string error: ...`; the session goes on.

use super::uci_think::{GoLimits, MatePlan, Thinking, mate_info};
use ransom::analysis::{Knowledge, ProofIndex, StoreShelf};
use ransom::notation::{fen, parse_move, parse_turn, uci};
use ransom::perft::divide;
use ransom::search::engine::Engine;
use ransom::search::mate::{MateOptions, MateStatus, longest_line, solve_mate_streaming};
use ransom::search::{Budget, StopSignal};
use ransom::{AnyPosition, Position, Variant, dispatch};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Arguments of `ransom uci` (none: everything is set by UCI commands).
#[derive(Debug, clap::Args)]
pub struct UciArgs {}

/// The engine state between commands.
struct Session {
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
    /// Tablebases, proofs and the store, opened at the first `go` that needs them
    /// (again after their options change).
    knowledge: Option<Knowledge>,
}

/// The most threads and lines the options take.
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 256;
/// The default `Move Overhead`, in ms.
const DEFAULT_OVERHEAD_MS: u64 = 30;

/// How many `go` commands the input reader has passed on, how many the
/// session has answered, and how many of them are to stop (`stop` and
/// `quit` stop every `go` read before them). The `n`th `go` searches with
/// ticket `n` of a [`StopSignal`] on `STOPPED`, so a `stop` never reaches a
/// later `go`, however the two threads are timed.
static GOS_READ: AtomicU64 = AtomicU64::new(0);
static GOS_ANSWERED: AtomicU64 = AtomicU64::new(0);
static STOPPED: AtomicU64 = AtomicU64::new(0);
/// Set when stdin ends: a `go infinite` waiting for `stop` gives its
/// `bestmove` then instead of waiting forever.
static INPUT_ENDED: AtomicBool = AtomicBool::new(false);

pub fn run(_args: &UciArgs) -> anyhow::Result<ExitCode> {
    let mut session = Session {
        variant: Variant::Chess,
        position: AnyPosition::start(Variant::Chess),
        history: Vec::new(),
        hash_mb: 256,
        threads: 1,
        multipv: 1,
        move_overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
        engine: None,
        plan: MatePlan::default(),
        tablebases: PathBuf::from("tablebases"),
        proofs: PathBuf::from("proofs"),
        store: PathBuf::from(ransom::solved::DEFAULT_DIR),
        knowledge: None,
    };
    // Commands are read on their own thread, so that `stop`, `quit` and
    // `isready` are heard while a search runs on this one.
    let (sender, commands) = std::sync::mpsc::channel::<Input>();
    std::thread::spawn(move || read_commands(&sender));
    for input in commands {
        let line = match input {
            Input::Line(line) => line,
            Input::NotUtf8 => {
                print_lines(&[
                    "info string error: a line that is not valid UTF-8 was ignored".into(),
                ])?;
                continue;
            }
            Input::Failed(e) => return Err(e.into()),
        };
        let reply = session.handle(line.trim());
        match reply {
            Reply::Quit => break,
            Reply::Lines(lines) => print_lines(&lines)?,
        }
        if is_go(&line) {
            GOS_ANSWERED.fetch_add(1, Ordering::SeqCst);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn is_go(line: &str) -> bool {
    line.split_whitespace().next() == Some("go")
}

/// Passes the lines of stdin on to the session, acting at once on the
/// commands that cannot wait for a running search: `stop` and `quit` stop
/// every `go` read so far, `isready` while a `go` is unanswered is
/// answered here. The end of the input stops only the searches that have
/// no limit of their own: `go infinite` at once, `go mate N` without
/// `movetime` or `nodes` 10 s later; a script's last limited `go` is
/// answered in full.
fn read_commands(sender: &std::sync::mpsc::Sender<Input>) {
    /// Sets [`INPUT_ENDED`] however the reading ends (the input closed,
    /// `quit`, or stdout gone), so that a held `go infinite` never waits
    /// for a `stop` that can no longer come.
    struct EndsInput;
    impl Drop for EndsInput {
        fn drop(&mut self) {
            INPUT_ENDED.store(true, Ordering::SeqCst);
        }
    }
    let _ends_input = EndsInput;
    for bytes in std::io::stdin().lock().split(b'\n') {
        let line = match bytes {
            Err(e) => Input::Failed(e),
            Ok(mut bytes) => {
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                String::from_utf8(bytes).map_or(Input::NotUtf8, Input::Line)
            }
        };
        let command = match &line {
            Input::Line(l) => l.split_whitespace().next().map(str::to_string),
            _ => None,
        };
        match command.as_deref() {
            Some("go") => {
                GOS_READ.fetch_add(1, Ordering::SeqCst);
            }
            Some("stop") | Some("quit") => {
                STOPPED.store(GOS_READ.load(Ordering::SeqCst), Ordering::SeqCst);
            }
            Some("isready")
                if GOS_READ.load(Ordering::SeqCst) > GOS_ANSWERED.load(Ordering::SeqCst) =>
            {
                if print_lines(&["readyok".to_string()]).is_err() {
                    return;
                }
                continue;
            }
            _ => {}
        }
        let quit = command.as_deref() == Some("quit");
        if sender.send(line).is_err() || quit {
            return;
        }
    }
}

/// One line of input as the reader passes it on.
enum Input {
    /// A line of text.
    Line(String),
    /// A line that is not valid UTF-8 (answered with an error line).
    NotUtf8,
    /// Reading failed (the session ends with the error).
    Failed(std::io::Error),
}

enum Reply {
    Lines(Vec<String>),
    Quit,
}

fn error(message: impl std::fmt::Display) -> Reply {
    Reply::Lines(vec![format!("info string error: {message}")])
}

/// The numbers a `go` command gives (those the engine reads).
struct GoOptions {
    limits: GoLimits,
    mate: Option<u64>,
    perft: Option<u64>,
}

/// The words of `go` that take a number.
const GO_NUMBERS: [&str; 10] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "perft",
];
/// The words of `go` that take nothing.
const GO_FLAGS: [&str; 2] = ["infinite", "ponder"];

impl GoOptions {
    /// Reads them; a key without a whole number after it is an error, not
    /// ignored.
    fn parse(words: &[&str]) -> Result<GoOptions, String> {
        let value = |key: &str| go_number::<u64>(words, key);
        let ms = |key: &str| value(key).map(|v| v.map(Duration::from_millis));
        let small = |key: &str| -> Result<Option<u32>, String> {
            value(key)?
                .map(|v| u32::try_from(v).map_err(|_| format!("go {key} {v} is too large")))
                .transpose()
        };
        // A clock may go below zero in some GUIs: read it as no time left.
        let clock = |key: &str| {
            go_number::<i64>(words, key)
                .map(|v| v.map(|v| Duration::from_millis(v.max(0).unsigned_abs())))
        };
        let search_moves = match words.iter().position(|w| *w == "searchmoves") {
            Some(i) => words[i + 1..]
                .iter()
                .take_while(|w| !GO_NUMBERS.contains(w) && !GO_FLAGS.contains(w))
                .map(|w| w.to_string())
                .collect(),
            None => Vec::new(),
        };
        Ok(GoOptions {
            limits: GoLimits {
                wtime: clock("wtime")?,
                btime: clock("btime")?,
                winc: ms("winc")?,
                binc: ms("binc")?,
                moves_to_go: small("movestogo")?,
                movetime: ms("movetime")?,
                depth: small("depth")?,
                nodes: value("nodes")?,
                infinite: words.contains(&"infinite"),
                search_moves,
            },
            mate: value("mate")?,
            perft: value("perft")?,
        })
    }
}

/// The number after `key` in a `go` command's words, if `key` is there.
fn go_number<T: std::str::FromStr>(words: &[&str], key: &str) -> Result<Option<T>, String> {
    let Some(i) = words.iter().position(|w| *w == key) else {
        return Ok(None);
    };
    match words.get(i + 1) {
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| format!("go {key} needs a whole number, not '{v}'")),
        None => Err(format!("go {key} needs a number")),
    }
}

impl Session {
    fn handle(&mut self, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        match words.next() {
            None => Reply::Lines(Vec::new()),
            Some("uci") => Reply::Lines(identify()),
            Some("isready") => {
                // Open the tables, verify the proofs and make the engine's
                // table now, not in the first search's time.
                self.knowledge();
                let hash_bytes = self.hash_mb << 20;
                self.engine.get_or_insert_with(|| Engine::new(hash_bytes));
                Reply::Lines(vec!["readyok".into()])
            }
            Some("ucinewgame") => {
                self.position = AnyPosition::start(self.variant);
                self.history.clear();
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
            Some("d") => Reply::Lines(ransom::notation::diagram::diagram(
                &dispatch!(&self.position, p => fen::write(p)),
            )),
            Some("stop") | Some("ponderhit") => Reply::Lines(Vec::new()),
            Some("quit") => Reply::Quit,
            Some(other) => error(format!("unknown command '{other}'")),
        }
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, line: &str) -> Reply {
        let rest = line.strip_prefix("setoption").unwrap_or("").trim();
        let Some(rest) = rest.strip_prefix("name") else {
            return error("expected 'setoption name NAME value VALUE'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            // Other programs' `giveaway` is antichess with castling; this
            // project's antichess has none (RULES A3): refused, not mixed up.
            "uci_variant" if value.eq_ignore_ascii_case("giveaway") => error(
                "UCI_Variant giveaway (antichess with castling, as other programs define it) is not supported: antichess here has no castling (RULES A3); use antichess",
            ),
            "uci_variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    self.variant = v;
                    self.position = AnyPosition::start(v);
                    self.history.clear();
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(e),
            },
            "hash" => match super::checks::parse_hash_mb(value) {
                Ok(mb) => {
                    self.hash_mb = mb;
                    self.engine = None;
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(format!("Hash {e}")),
            },
            "threads" => match spin(value, 1, MAX_THREADS) {
                Ok(n) => {
                    self.threads = n;
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(format!("Threads {e}")),
            },
            "multipv" => match spin(value, 1, MAX_MULTIPV) {
                Ok(n) => {
                    self.multipv = n;
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(format!("MultiPV {e}")),
            },
            "move overhead" => match spin(value, 0, 5000) {
                Ok(ms) => {
                    self.move_overhead = Duration::from_millis(ms as u64);
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(format!("Move Overhead {e}")),
            },
            // GUIs send it whether or not it was offered; pondering is not
            // offered, so `go ponder` searches as a plain `go`.
            "ponder" => Reply::Lines(Vec::new()),
            "tablebases" => {
                self.tablebases = PathBuf::from(value);
                self.knowledge = None;
                Reply::Lines(Vec::new())
            }
            "proofs" => {
                self.proofs = PathBuf::from(value);
                self.knowledge = None;
                Reply::Lines(Vec::new())
            }
            "store" => {
                self.store = PathBuf::from(value);
                self.knowledge = None;
                Reply::Lines(Vec::new())
            }
            _ => error(format!("unknown option '{name}'")),
        }
    }

    /// `position startpos|fen FEN [moves M...]`; the position is unchanged
    /// on error.
    fn set_position(&mut self, line: &str) -> anyhow::Result<()> {
        let rest = line.strip_prefix("position").unwrap_or("").trim();
        let (setup, moves) = match rest.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let start = if setup == "startpos" {
            AnyPosition::start(self.variant)
        } else if let Some(text) = setup.strip_prefix("fen") {
            AnyPosition::from_setup(self.variant, &fen::parse(text.trim())?)?
        } else {
            anyhow::bail!("expected 'position startpos' or 'position fen FEN'");
        };
        let (position, history) = dispatch!(start, p => play_all(p, &moves)?);
        self.position = position;
        self.history = history;
        Ok(())
    }

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
                Some(depth) if (1..=8).contains(&depth) => {
                    Reply::Lines(dispatch!(&self.position, p => perft_lines(p, depth as u32)))
                }
                _ => error("go perft needs a depth from 1 to 8"),
            };
        }
        let stop = StopSignal {
            stopped: &STOPPED,
            ticket: GOS_ANSWERED.load(Ordering::SeqCst) + 1,
        };
        // `go infinite` searches until `stop` and, as UCI asks, holds its
        // `bestmove` until then even when the search ends first.
        let infinite = limits.infinite;
        let lines = if let Some(n) = mate {
            let budget = Budget {
                max_nodes: limits.nodes.unwrap_or(u64::MAX),
                max_time: limits.movetime,
                hash_bytes: self.hash_mb << 20,
                stop: Some(stop),
            };
            match u16::try_from(n) {
                Ok(n) if n >= 1 => {
                    if limits.movetime.is_none() && limits.nodes.is_none() {
                        // No limit of its own: the end of the input stops
                        // it (after a grace period), as it stops `go infinite`.
                        stop_at_end_of_input(stop.ticket, END_OF_INPUT_GRACE);
                    }
                    dispatch!(&self.position, p => with_a_move(p, mate_lines(p, n, &budget)))
                }
                _ => return error("go mate needs a length from 1 to 65535"),
            }
        } else {
            if infinite {
                stop_at_end_of_input(stop.ticket, Duration::ZERO);
            }
            self.knowledge();
            let hash_bytes = self.hash_mb << 20;
            self.engine.get_or_insert_with(|| Engine::new(hash_bytes));
            let (Some(knowledge), Some(engine)) = (&self.knowledge, &self.engine) else {
                return error("the tablebases and proofs could not be opened");
            };
            let thinking = Thinking {
                knowledge,
                engine,
                history: &self.history,
                go: &limits,
                threads: self.threads,
                multipv: self.multipv,
                overhead: self.move_overhead,
                stop,
                print: &|lines| {
                    let _ = print_lines(lines);
                },
            };
            dispatch!(&self.position, p => thinking.think(p, &mut self.plan))
        };
        if infinite {
            hold_bestmove(lines, stop)
        } else {
            Reply::Lines(lines)
        }
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

/// Writes `lines` to stdout at once (both threads answer there).
fn print_lines(lines: &[String]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()
}

/// Prints the search's `info` lines now and returns its `bestmove` once
/// `stop` or `quit` has been read (or the input has ended).
/// How long a search with no limit of its own may go on once the input has
/// ended (no `stop` can come any more); a script's `go mate 2` is answered
/// in full, a `go mate 30` ends.
const END_OF_INPUT_GRACE: Duration = Duration::from_secs(10);

/// Raises the stop of `go` number `ticket` [`END_OF_INPUT_GRACE`] after
/// the input ends, if that `go` is not answered by then (a thread that
/// waits for either).
fn stop_at_end_of_input(ticket: u64, grace: Duration) {
    std::thread::spawn(move || {
        let mut ended_at = None;
        while GOS_ANSWERED.load(Ordering::SeqCst) < ticket {
            if INPUT_ENDED.load(Ordering::SeqCst) {
                let ended = *ended_at.get_or_insert_with(std::time::Instant::now);
                if ended.elapsed() >= grace {
                    STOPPED.fetch_max(ticket, Ordering::SeqCst);
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    });
}

fn hold_bestmove(mut lines: Vec<String>, stop: StopSignal) -> Reply {
    let bestmove = lines.pop();
    let _ = print_lines(&lines);
    while !stop.is_raised() && !INPUT_ENDED.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    Reply::Lines(bestmove.into_iter().collect())
}

/// GUIs want a legal `bestmove` whenever one exists: the first legal move
/// stands in where the search found none.
fn with_a_move<P: Position>(pos: &P, mut lines: Vec<String>) -> Vec<String> {
    if lines.last().is_some_and(|l| l == "bestmove (none)")
        && let Some(&first) = pos.playable_moves().first()
    {
        lines.pop();
        lines.push(format!("bestmove {}", uci::write(first)));
    }
    lines
}

fn identify() -> Vec<String> {
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    vec![
        format!("id name ransom {}", env!("CARGO_PKG_VERSION")),
        "id author the ransom developers".into(),
        format!(
            "option name UCI_Variant type combo default chess {}",
            variants.join(" ")
        ),
        format!(
            "option name Hash type spin default 256 min 1 max {}",
            super::checks::MAX_HASH_MB
        ),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"),
        "option name Tablebases type string default tablebases".into(),
        "option name Proofs type string default proofs".into(),
        format!(
            "option name Store type string default {}",
            ransom::solved::DEFAULT_DIR
        ),
        "uciok".into(),
    ]
}

/// A spin option's value: a whole number from `min` to `max`.
fn spin(value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "needs a whole number from {min} to {max}, not '{value}'"
        )),
    }
}

/// Plays UCI moves (or comma-joined turns in Hit-and-Run) from `start`;
/// also gives the zobrist hashes of the positions before each turn.
fn play_all<P: Position>(start: P, moves: &[&str]) -> anyhow::Result<(AnyPosition, Vec<u64>)> {
    let mut pos = start;
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        history.push(pos.zobrist());
        let played = if text.contains(',') {
            parse_turn(&pos, text)
        } else {
            parse_move(&pos, text).map(|m| vec![m])
        }
        .map_err(|e| anyhow::anyhow!("move {} ('{text}'): {e}", i + 1))?;
        for m in played {
            pos.play_unchecked(m);
        }
    }
    Ok((
        AnyPosition::from_setup(P::VARIANT, &pos.to_setup())?,
        history,
    ))
}

/// Stockfish's divide format: `move: count` lines, a blank line, the total.
fn perft_lines<P: Position>(pos: &P, depth: u32) -> Vec<String> {
    let counts = divide(pos, depth);
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let mut lines: Vec<String> = counts
        .iter()
        .map(|(m, n)| format!("{}: {n}", uci::write(*m)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// `info ... score mate N ... pv ...` and `bestmove`, or `bestmove (none)`
/// when no mate was found (with a line saying whether none exists).
fn mate_lines<P: Position>(pos: &P, max: u16, budget: &Budget) -> Vec<String> {
    let options = MateOptions {
        max,
        all_keys: false,
        budget: *budget,
        threads: 1,
    };
    // A mate found before its length is certified is announced at once.
    let mut on_found = |early: &ransom::search::mate::MateReport| {
        if let (Some(solution), Some(n)) = (&early.solution, early.length) {
            let line = longest_line(pos, pos.turn(), solution);
            let _ = print_lines(&[
                mate_info(n, early.nodes, early.elapsed, &line),
                format!("info string mate in {n} found, verified; proving that none is shorter"),
            ]);
        }
    };
    let report = solve_mate_streaming(pos, &options, None, &mut |_| {}, &mut on_found);
    let ms = report.elapsed.as_millis();
    match (report.status, &report.solution, report.length) {
        (MateStatus::Mate, Some(solution), Some(n)) => {
            let line = longest_line(pos, pos.turn(), solution);
            let key = line.first().map(|&m| uci::write(m)).unwrap_or_default();
            vec![
                mate_info(n, report.nodes, report.elapsed, &line),
                format!(
                    "info string mate in {n} {}, verified",
                    if report.shortest {
                        "proved shortest"
                    } else {
                        "(shorter not ruled out)"
                    }
                ),
                format!("bestmove {key}"),
            ]
        }
        (MateStatus::NoMate, _, _) => vec![
            format!(
                "info string no mate in {max} or fewer (proved) nodes {} time {ms}",
                report.nodes
            ),
            "bestmove (none)".into(),
        ],
        _ => vec![
            format!(
                "info string no mate found within the budget nodes {} time {ms}",
                report.nodes
            ),
            "bestmove (none)".into(),
        ],
    }
}
