//! `ransom uci`: the Universal Chess Interface on stdin/stdout, for chess
//! GUIs and scripts. The session is the library's
//! ([`ransom::uci_session::Session`]); this reads the input on its own
//! thread, so that `stop`, `quit` and `isready` are heard while a search
//! runs, and prints the replies.

use ransom::uci_session::{Early, Reply, Session, Signals};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `ransom uci` (none: everything is set by UCI commands).
#[derive(Debug, clap::Args)]
pub struct UciArgs {}

pub fn run(_args: &UciArgs) -> anyhow::Result<ExitCode> {
    let mut session = Session::new(Arc::new(|lines: &[String]| {
        let _ = print_lines(lines);
    }));
    let signals = session.signals();
    let (sender, commands) = std::sync::mpsc::channel::<Input>();
    std::thread::spawn(move || read_commands(&sender, signals));
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
        match session.handle(line.trim()) {
            Reply::Quit => break,
            Reply::Lines(lines) => print_lines(&lines)?,
        }
        signals.on_answered(&line);
    }
    Ok(ExitCode::SUCCESS)
}

/// Passes the lines of stdin on to the session, acting at once on the
/// commands that cannot wait for a running search ([`Signals::on_read`]).
/// The end of the input stops only the searches that have no limit of
/// their own: `go infinite` at once, `go mate N` without `movetime` or
/// `nodes` 10 s later; a script's last limited `go` is answered in full.
fn read_commands(sender: &std::sync::mpsc::Sender<Input>, signals: &'static Signals) {
    /// Marks the input ended however the reading ends (the input closed,
    /// `quit`, or stdout gone), so that a held `go infinite` never waits
    /// for a `stop` that can no longer come.
    struct EndsInput(&'static Signals);
    impl Drop for EndsInput {
        fn drop(&mut self) {
            self.0.input_ended();
        }
    }
    let _ends_input = EndsInput(signals);
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
        let mut quit = false;
        if let Input::Line(text) = &line {
            if signals.on_read(text) == Early::ReadyNow {
                if print_lines(&["readyok".to_string()]).is_err() {
                    return;
                }
                continue;
            }
            quit = text.split_whitespace().next() == Some("quit");
        }
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

/// Writes `lines` to stdout at once (both threads answer there).
fn print_lines(lines: &[String]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()
}
