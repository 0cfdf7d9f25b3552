//! The UCI session in-process (`ransom::uci_session`): options, positions,
//! `go perft`, `go mate`, the thinking policy's answers and the errors. The
//! reader thread, `stop`, `isready` during a search and the end of the
//! input are tested through the binary (tests/cli_uci.rs).

use ransom::uci_session::{Reply, Session};
use std::sync::{Arc, Mutex};

/// Runs `input` through a session, line by line, and returns what it
/// printed (the lines of running searches and the replies, in order), as
/// `ransom uci` would write it to stdout.
fn session(input: &str) -> String {
    let printed = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&printed);
    let mut session = Session::new(Arc::new(move |lines: &[String]| {
        sink.lock().unwrap().extend(lines.iter().cloned());
    }));
    let signals = session.signals();
    for line in input.lines() {
        match session.handle(line.trim()) {
            Reply::Quit => break,
            Reply::Lines(lines) => printed.lock().unwrap().extend(lines),
        }
        signals.on_answered(line);
    }
    let mut out = printed.lock().unwrap().join("\n");
    out.push('\n');
    out
}

#[test]
fn handshake_lists_every_variant() {
    let out = session("uci\nisready\nquit\n");
    assert!(out.contains("id name ransom"), "{out}");
    assert!(
        out.contains("option name UCI_Variant type combo default chess var chess var antichess")
    );
    for v in ["crazyhouse", "hostage", "contact", "hitandrun"] {
        assert!(out.contains(&format!("var {v}")), "{v}: {out}");
    }
    assert!(out.contains("uciok\nreadyok\n"), "{out}");
}

#[test]
fn go_perft_prints_the_divide_format() {
    let out = session("position startpos moves e2e4\ngo perft 2\nquit\n");
    assert!(out.contains("e7e5: 29\n"), "{out}");
    assert!(out.trim_end().ends_with("Nodes searched: 600"), "{out}");
    let out =
        session("setoption name UCI_Variant value antichess\nposition startpos\ngo perft 3\n");
    assert!(out.trim_end().ends_with("Nodes searched: 8067"), "{out}");
}

#[test]
fn go_mate_reports_score_mate_and_bestmove() {
    // No `quit` after a `go`: it would stop the search (at once, as UCI
    // asks) before the mate is certified; the end of the input stops it
    // only after a grace period.
    let out = session("position fen 3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1\ngo mate 3\n");
    assert!(out.contains("score mate 2 "), "{out}");
    assert!(out.contains("pv d2d4 "), "{out}");
    assert!(out.trim_end().ends_with("bestmove d2d4"), "{out}");
    // No mate in 1 here: proved, and a legal move is still given.
    let out = session("position fen 3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1\ngo mate 1\n");
    assert!(out.contains("no mate in 1 or fewer (proved)"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    assert!(!out.contains("bestmove (none)"), "{out}");
}

#[test]
fn crazyhouse_drops_and_hit_and_run_turns_in_positions() {
    let out = session(
        "setoption name UCI_Variant value crazyhouse\nposition fen r2k3r/p2P1ppp/2B1p3/2bp4/6n1/2Q5/PPPPnPKP/RNB2R2[QBPPnp] b - - 0 19\ngo mate 2\n",
    );
    assert!(out.contains("score mate 2"), "{out}");
    assert!(out.contains("bestmove N@f4"), "{out}");
    let out = session(
        "setoption name UCI_Variant value hitandrun\nposition startpos moves e2e4 e7e5 d2d4,g1f3\nd\n",
    );
    assert!(
        out.contains("fen: rnbqkbnr/pppp1ppp/8/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 1 2"),
        "{out}"
    );
    // `d` draws the board, as other engines do.
    assert!(out.contains("3 | . . . . . N . . |"), "{out}");
    assert!(out.contains("    a b c d e f g h"), "{out}");
    let out = session(
        "setoption name UCI_Variant value crazyhouse\nposition fen 7k/8/8/8/8/8/8/K7[Qn] w - - 0 1\nd\n",
    );
    assert!(out.contains("in hand:   Q n"), "{out}");
}

#[test]
fn bad_commands_get_an_error_line_and_the_session_goes_on() {
    let out = session(
        "position fen bogus\nposition startpos moves e2e5\nfoo\ngo mate 0\ngo perft 99\nsetoption name UCI_Variant value nosuch\nsetoption name Hash value 0\ngo mate -3\ngo mate 999999\ngo nodes abc\ngo movetime\nisready\n",
    );
    let errors = out
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 11, "{out}");
    // A number that cannot be used is named, never ignored.
    assert!(
        out.contains("go mate needs a whole number, not '-3'"),
        "{out}"
    );
    assert!(
        out.contains("go mate needs a length from 1 to 65535"),
        "{out}"
    );
    assert!(
        out.contains("go nodes needs a whole number, not 'abc'"),
        "{out}"
    );
    assert!(!out.contains("bestmove"), "{out}");
    assert!(
        out.contains("info string error: unknown command 'foo'"),
        "{out}"
    );
    assert!(out.contains("move 1 ('e2e5')"), "{out}");
    // Answered at once while a `go` is still waiting (UCI: "immediately").
    assert_eq!(out.lines().filter(|l| *l == "readyok").count(), 1, "{out}");
}

/// A finished game has no move to give, even where the rules of movement
/// would allow one (an antichess side with no men left has won).
#[test]
fn a_finished_game_gets_no_bestmove() {
    let out = session(
        "setoption name UCI_Variant value antichess\nposition fen 8/8/8/8/8/8/1p6/8 b - - 0 1\ngo\ngo mate 2\n",
    );
    assert_eq!(out.matches("bestmove (none)").count(), 2, "{out}");
    assert!(!out.contains("b2b1"), "{out}");
}

/// The engine behind a plain `go`: an `info` line per iteration with
/// depth, seldepth, score, nodes, nps, time and pv, then a legal bestmove.
#[test]
fn go_depth_reports_every_iteration() {
    let out = session("position startpos moves e2e4\ngo depth 4\n");
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{out}");
    for (i, line) in infos.iter().enumerate() {
        assert!(
            line.starts_with(&format!("info depth {} seldepth ", i + 1)),
            "{line}"
        );
        for field in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
            assert!(line.contains(field), "{line}");
        }
    }
    let best = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap();
    assert!(infos[3].contains(&format!(" pv {best}")), "{out}");
}

/// A game clock, `movestogo`, `nodes`, `searchmoves` and a negative clock
/// (some GUIs send one) all give a legal move.
#[test]
fn go_with_a_clock_nodes_or_searchmoves_gives_a_move() {
    let out = session(
        "position startpos\ngo wtime 3000 btime 3000 winc 100 binc 100\ngo wtime 500 btime 500 movestogo 1\ngo wtime -20 btime 100\ngo nodes 2000\ngo depth 3 searchmoves a2a3 h2h3\n",
    );
    let best: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 5, "{out}");
    assert!(best.iter().all(|m| m.len() == 4), "{out}");
    assert!(["a2a3", "h2h3"].contains(&best[4]), "{out}");
}

#[test]
fn multipv_threads_and_move_overhead_are_options() {
    let out = session(
        "uci\nsetoption name MultiPV value 3\nsetoption name Threads value 2\nsetoption name Move Overhead value 50\nposition startpos\ngo depth 3\nsetoption name Threads value 0\nsetoption name MultiPV value x\n",
    );
    for option in [
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Move Overhead type spin",
    ] {
        assert!(out.contains(option), "{out}");
    }
    for k in 1..=3 {
        assert!(
            out.lines()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "{out}"
        );
    }
    assert!(
        out.contains("info string error: Threads needs a whole number from 1 to 256, not '0'"),
        "{out}"
    );
    assert!(
        out.contains("info string error: MultiPV needs a whole number from 1 to 256, not 'x'"),
        "{out}"
    );
}

/// Issue 47.2: `searchmoves` naming a move that is not legal still ends in
/// `bestmove` (a GUI waits for one after every `go`): the illegal moves are
/// named in an `info string` and left out; the legal ones named are
/// searched, or every move when none is.
#[test]
fn searchmoves_naming_an_illegal_move_still_answers_bestmove() {
    let out = session(
        "position startpos moves e2e4 d7d5 e4d5 d8d5\ngo depth 2 searchmoves e2e5\ngo depth 2 searchmoves e2e5 a2a3\n",
    );
    assert!(
        out.contains("info string searchmoves: e2e5 not legal here, ignored; searching every move"),
        "{out}"
    );
    assert!(
        out.contains("info string searchmoves: e2e5 not legal here, ignored\n"),
        "{out}"
    );
    let best: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{out}");
    assert_ne!(best[0], "e2e5", "{out}");
    assert_eq!(best[1], "a2a3", "{out}");
}

/// Hit-and-Run: the bestmove is the whole turn, as `position ... moves`
/// takes it (RULES R1, R8).
#[test]
fn hit_and_run_bestmove_is_a_whole_turn() {
    let out = session(
        "setoption name UCI_Variant value hitandrun\nposition startpos moves e2e4 e7e5\ngo depth 3\n",
    );
    let best = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    assert_eq!(best.split(',').count(), 2, "{out}");
    let replay = session(&format!(
        "setoption name UCI_Variant value hitandrun\nposition startpos moves e2e4 e7e5 {best}\nd\n"
    ));
    assert!(!replay.contains("error"), "{replay}");
}

/// Other programs' `giveaway` castles; RULES A3 does not: refused clearly,
/// and the session stays in its variant.
#[test]
fn giveaway_is_refused_not_mixed_up_with_antichess() {
    let out = session("setoption name UCI_Variant value giveaway\nposition startpos\nd\n");
    assert!(
        out.contains("info string error: UCI_Variant giveaway (antichess with castling"),
        "{out}"
    );
    assert!(out.contains("KQkq"), "still standard chess: {out}");
}

/// A `stop` raised by the reader while `go infinite` runs ends the search
/// and gives its `bestmove` (the signals a reader shares with the session).
#[test]
fn a_stop_from_the_reader_ends_go_infinite() {
    let mut session = Session::new(Arc::new(|_: &[String]| {}));
    let signals = session.signals();
    session.handle("position startpos moves e2e4");
    assert_eq!(
        signals.on_read("go infinite"),
        ransom::uci_session::Early::PassOn
    );
    // While the `go` is unanswered, `isready` is the reader's to answer.
    assert_eq!(
        signals.on_read("isready"),
        ransom::uci_session::Early::ReadyNow
    );
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        signals.on_read("stop");
    });
    let Reply::Lines(lines) = session.handle("go infinite") else {
        panic!("go infinite quit the session");
    };
    stopper.join().unwrap();
    signals.on_answered("go infinite");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("bestmove ") && lines[0] != "bestmove (none)");
    assert_eq!(
        signals.on_read("isready"),
        ransom::uci_session::Early::PassOn
    );
}
