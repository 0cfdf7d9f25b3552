//! `ransom uci`: the Universal Chess Interface on stdin/stdout, for chess
//! GUIs and scripts. `UCI_Variant` picks the variant; `go perft N` prints
//! Stockfish's divide format; `go mate N` runs the mate solver; a plain
//! `go` answers from the endgame tablebases or the stored proofs when they
//! know the position, otherwise with the shortest mate the solver finds
//! within the time given. Input is read on its own thread, so `stop`,
//! `quit` and `isready` are heard while a search runs.
//! Bad input is answered with `info string error: ...`; the session goes on.

use ransom::analysis::{Category, Knowledge, ProofIndex, Source};
use ransom::notation::{fen, parse_move, parse_turn, uci};
use ransom::perft::divide;
use ransom::search::mate::{MateOptions, MateStatus, longest_line, solve_mate};
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
    hash_mb: usize,
    tablebases: PathBuf,
    proofs: PathBuf,
    /// Tablebases and proofs, opened at the first `go` that needs them
    /// (again after their options change).
    knowledge: Option<Knowledge>,
}

/// The mate length a plain `go` looks for, and its default time.
const GO_MATE_MAX: u16 = 5;
const GO_DEFAULT_MS: u64 = 1000;

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
        hash_mb: 256,
        tablebases: PathBuf::from("tablebases"),
        proofs: PathBuf::from("proofs"),
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
    movetime: Option<Duration>,
    nodes: Option<u64>,
    mate: Option<u64>,
    perft: Option<u64>,
}

impl GoOptions {
    /// Reads them; a key without a whole number after it is an error, not
    /// ignored.
    fn parse(words: &[&str]) -> Result<GoOptions, String> {
        let value = |key: &str| -> Result<Option<u64>, String> {
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
        };
        Ok(GoOptions {
            movetime: value("movetime")?.map(Duration::from_millis),
            nodes: value("nodes")?,
            mate: value("mate")?,
            perft: value("perft")?,
        })
    }
}

impl Session {
    fn handle(&mut self, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        match words.next() {
            None => Reply::Lines(Vec::new()),
            Some("uci") => Reply::Lines(identify()),
            Some("isready") => {
                // Open the tables and verify the proofs now, not in the
                // first search's time.
                self.knowledge();
                Reply::Lines(vec!["readyok".into()])
            }
            Some("ucinewgame") => {
                self.position = AnyPosition::start(self.variant);
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
            "uci_variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    self.variant = v;
                    self.position = AnyPosition::start(v);
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(e),
            },
            "hash" => match super::checks::parse_hash_mb(value) {
                Ok(mb) => {
                    self.hash_mb = mb;
                    Reply::Lines(Vec::new())
                }
                Err(e) => error(format!("Hash {e}")),
            },
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
        self.position = dispatch!(start, p => play_all(p, &moves)?);
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Reply {
        let GoOptions {
            movetime,
            nodes,
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
        let budget = Budget {
            max_nodes: nodes.unwrap_or(u64::MAX),
            max_time: movetime,
            hash_bytes: self.hash_mb << 20,
            stop: Some(stop),
        };
        // `go infinite` searches until `stop` and, as UCI asks, holds its
        // `bestmove` until then even when the search ends first.
        let infinite = words.contains(&"infinite");
        let lines = if let Some(n) = mate {
            match u16::try_from(n) {
                Ok(n) if n >= 1 => {
                    if movetime.is_none() && nodes.is_none() {
                        // No limit of its own: the end of the input stops
                        // it (after a grace period), as it stops `go infinite`.
                        stop_at_end_of_input(stop.ticket);
                    }
                    dispatch!(&self.position, p => with_a_move(p, mate_lines(p, n, &budget)))
                }
                _ => return error("go mate needs a length from 1 to 65535"),
            }
        } else {
            let budget = Budget {
                max_time: movetime.or((!infinite).then_some(Duration::from_millis(GO_DEFAULT_MS))),
                ..budget
            };
            self.knowledge();
            let Some(knowledge) = &self.knowledge else {
                return error("the tablebases and proofs could not be opened");
            };
            dispatch!(&self.position, p => analyse(knowledge, p, &budget))
        };
        if infinite {
            hold_bestmove(lines, stop)
        } else {
            Reply::Lines(lines)
        }
    }

    /// The tablebases and proofs of the current options, opened once.
    fn knowledge(&mut self) -> &Knowledge {
        let (tablebases, proofs) = (&self.tablebases, &self.proofs);
        self.knowledge
            .get_or_insert_with(|| Knowledge::new(Some(tablebases), ProofIndex::load_dir(proofs)))
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
fn stop_at_end_of_input(ticket: u64) {
    std::thread::spawn(move || {
        let mut ended_at = None;
        while GOS_ANSWERED.load(Ordering::SeqCst) < ticket {
            if INPUT_ENDED.load(Ordering::SeqCst) {
                let ended = *ended_at.get_or_insert_with(std::time::Instant::now);
                if ended.elapsed() >= END_OF_INPUT_GRACE {
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

/// A plain `go`: what the tablebases and stored proofs know, else a short
/// mate search.
fn analyse<P: Position + 'static>(knowledge: &Knowledge, pos: &P, budget: &Budget) -> Vec<String> {
    if pos.playable_moves().is_empty() {
        return vec![
            "info string the game is over".into(),
            "bestmove (none)".into(),
        ];
    }
    let analysis = knowledge.analyse(pos);
    let verdict = analysis.verdict;
    if matches!(verdict.source, Source::Tablebase | Source::Proof)
        && let Some(best) = analysis.moves.first()
    {
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
        return vec![
            format!(
                "info depth {depth} score {score} pv {} string {} {}",
                best.uci,
                verdict.source.name(),
                verdict.category.name()
            ),
            format!("bestmove {}", best.uci),
        ];
    }
    with_a_move(pos, mate_lines(pos, GO_MATE_MAX, budget))
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
        "option name Tablebases type string default tablebases".into(),
        "option name Proofs type string default proofs".into(),
        "uciok".into(),
    ]
}

/// Plays UCI moves (or comma-joined turns in Hit-and-Run) from `start`.
fn play_all<P: Position>(start: P, moves: &[&str]) -> anyhow::Result<AnyPosition> {
    let mut pos = start;
    for (i, text) in moves.iter().enumerate() {
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
    Ok(AnyPosition::from_setup(P::VARIANT, &pos.to_setup())?)
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
    let report = solve_mate(pos, &options, &mut |_| {});
    let ms = report.elapsed.as_millis();
    match (report.status, &report.solution, report.length) {
        (MateStatus::Mate, Some(solution), Some(n)) => {
            let pv: Vec<String> = longest_line(pos, pos.turn(), solution)
                .into_iter()
                .map(uci::write)
                .collect();
            let key = pv.first().cloned().unwrap_or_default();
            vec![
                format!(
                    "info depth {} score mate {n} nodes {} time {ms} pv {}",
                    2 * n - 1,
                    report.nodes,
                    pv.join(" ")
                ),
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
