//! `ransom uci`: the UCI session on stdin/stdout.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs a UCI session with `input` and returns stdout.
fn session(input: &str) -> String {
    session_bytes(input.as_bytes())
}

/// `ransom uci` with its standard streams piped.
fn spawn_uci() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ransom"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ransom runs")
}

/// Runs a UCI session with raw `input` (not necessarily UTF-8).
fn session_bytes(input: &[u8]) -> String {
    let mut child = spawn_uci();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn go_answers_from_a_stored_proof() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("uci-proofs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let proved = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(["prove", "e4", "-q", "--no-tablebases", "--out"])
        .arg(dir.join("antichess-e2e4.proof"))
        .output()
        .unwrap();
    assert!(
        proved.status.success(),
        "{}",
        String::from_utf8_lossy(&proved.stderr)
    );
    let out = session(&format!(
        "setoption name UCI_Variant value antichess\nsetoption name Proofs value {}\nsetoption name Tablebases value {}\nposition startpos moves e2e4\ngo\n",
        dir.display(),
        dir.display()
    ));
    assert!(out.contains("string proved: proof win"), "{out}");
    assert!(out.contains("score cp 30000"), "{out}");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    assert_eq!(best, "b7b5", "the proof's move: {out}");
}

#[test]
fn hostage_mate_as_a_gui_drives_it() {
    // RULES H11 position text; the key is an exchange with its drop (H5).
    let out = session(
        "uci\nsetoption name UCI_Variant value hostage\nisready\nucinewgame\nposition fen 5Brk/8/8/8/8/2K3N1/8/8[R#BNb] w - - 0 1\ngo mate 3\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"uciok") && lines.contains(&"readyok"),
        "{out}"
    );
    assert!(
        out.contains("score mate 2") && out.contains("pv N#B@f7 h8h7 R@h6"),
        "{out}"
    );
    assert!(out.contains("proved shortest, verified"), "{out}");
    assert_eq!(lines.last(), Some(&"bestmove N#B@f7"), "{out}");
}

/// An engine whose session the test drives line by line. If the engine
/// never answers, the reads would wait for ever: after two minutes it is
/// killed and the test fails instead.
struct Engine {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    watchdog: std::sync::mpsc::Sender<()>,
}

impl Engine {
    fn start() -> Engine {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ransom"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ransom runs");
        let pid = child.id().to_string();
        let (watchdog, finished) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            if finished
                .recv_timeout(std::time::Duration::from_secs(120))
                .is_err()
            {
                let _ = Command::new("kill").args(["-9", &pid]).status();
            }
        });
        Engine {
            input: child.stdin.take().unwrap(),
            output: std::io::BufReader::new(child.stdout.take().unwrap()).lines(),
            child,
            watchdog,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.input, "{text}").unwrap();
    }

    /// The next line ("" once the engine has ended).
    fn next_line(&mut self) -> String {
        self.output.next().and_then(Result::ok).unwrap_or_default()
    }

    /// Lines up to and including the `bestmove` line.
    fn until_bestmove(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while !lines
            .last()
            .is_some_and(|l: &String| l.starts_with("bestmove"))
        {
            let line = self.next_line();
            assert!(
                !line.is_empty(),
                "the engine ended without a bestmove: {lines:?}"
            );
            lines.push(line);
        }
        lines
    }

    /// Every line left once the input ends, after checking the exit status.
    fn finish(mut self) -> Vec<String> {
        drop(self.input);
        let rest: Vec<String> = self.output.by_ref().map_while(Result::ok).collect();
        assert!(self.child.wait().unwrap().success());
        let _ = self.watchdog.send(());
        rest
    }
}

/// A GUI's `stop` ends a search that would otherwise run for hours, and
/// `isready` is answered while it runs (the UCI protocol requires both).
#[test]
fn stop_ends_a_running_search_and_isready_is_answered_during_it() {
    let mut engine = Engine::start();
    // No mate in 40 from the start position: without `stop` this runs on.
    engine.send("position startpos\ngo mate 40\nisready");
    assert_eq!(
        engine.next_line(),
        "readyok",
        "isready waits for the search"
    );
    engine.send("stop");
    let lines = engine.until_bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("no mate found within the budget")),
        "{lines:?}"
    );
    // A legal move for the GUI, and the session goes on after the stop.
    assert_eq!(lines.last().unwrap(), "bestmove b1a3", "{lines:?}");
    engine.send("go perft 1\nquit");
    let rest = engine.finish();
    assert!(rest.contains(&"Nodes searched: 20".to_string()), "{rest:?}");
}

/// UCI: in infinite mode the engine must not give its `bestmove` before
/// `stop`, even when its search has ended; the search's `info` lines come
/// when it ends. At the end of the input it gives it then.
#[test]
fn go_infinite_holds_its_bestmove_until_stop() {
    let mut engine = Engine::start();
    // A mate in 1: the search ends at once.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo infinite");
    let info = engine.next_line();
    assert!(info.contains("score mate 1"), "{info}");
    // The search is over, but the go is not answered yet: isready is.
    engine.send("isready");
    let mut line = engine.next_line();
    while line.starts_with("info") {
        line = engine.next_line();
    }
    assert_eq!(line, "readyok");
    engine.send("stop");
    assert_eq!(engine.next_line(), "bestmove a1a8");
    // With the input ending instead of a stop.
    engine.send("go infinite");
    let rest = engine.finish();
    assert_eq!(
        rest.last().map(String::as_str),
        Some("bestmove a1a8"),
        "{rest:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_line_and_the_session_goes_on() {
    let out = session_bytes(b"isready\n\xff\xfe\nisready\r\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "readyok",
            "info string error: a line that is not valid UTF-8 was ignored",
            "readyok"
        ],
        "{out}"
    );
}

/// README "uci": a `go mate N` with no limit of its own ends once the input
/// has ended (10 s later), with a legal `bestmove`, instead of searching
/// for ever; a limited script is answered in full.
#[test]
fn go_mate_without_a_limit_ends_after_the_input_ends() {
    let mut child = spawn_uci();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos\ngo mate 30\n")
        .unwrap();
    // A watchdog, not a timing: the session must end at all.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("go mate 30 still searching 120 s after the input ended");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("bestmove ") && last != "bestmove (none)",
        "{text}"
    );
    assert!(text.contains("no mate found within the budget"), "{text}");
    // A short mate in a script is answered in full.
    let text = session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 1\n");
    assert!(text.contains("score mate 1"), "{text}");
}

/// End of input during `go infinite` with the engine: the search ends and
/// a legal bestmove is given.
#[test]
fn the_end_of_input_ends_an_infinite_engine_search() {
    let out = session("position startpos\ngo infinite\n");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("bestmove ") && last != "bestmove (none)",
        "{out}"
    );
    assert!(out.contains("info depth 1 "), "{out}");
}

/// A mate announced by a plain `go` is delivered within its count: the
/// later moves follow the verified solution (crazyhouse, RULES Z).
#[test]
fn an_announced_mate_is_followed_to_the_end() {
    let fen = "r2k3r/p2P1ppp/2B1p3/2bp4/6n1/2Q5/PPPPnPKP/RNB2R2[QBPPnp] b - - 0 19";
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name UCI_Variant value crazyhouse\nposition fen {fen}\ngo movetime 3000"
    ));
    let first = engine.until_bestmove();
    assert!(
        first.iter().any(|l| l.contains("score mate 2")),
        "{first:?}"
    );
    let key = first
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    // Any reply of White's: the first legal one the session accepts.
    for reply in ["g2h1", "g2g3", "g2f3", "g2h3", "g2g1"] {
        engine.send(&format!(
            "position fen {fen} moves {key} {reply}\ngo movetime 500"
        ));
        let lines = engine.until_bestmove();
        if lines.iter().any(|l| l.contains("error")) {
            continue;
        }
        assert!(
            lines
                .iter()
                .any(|l| l.contains("from the verified solution")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
        break;
    }
    engine.finish();
}
