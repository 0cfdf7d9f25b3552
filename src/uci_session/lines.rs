//! The lines UCI answers with: `info` lines, `bestmove`, perft's divide.

use crate::analysis::Category;
use crate::analysis::think::Thought;
use crate::moves::Move;
use crate::notation::uci;
use crate::perft::divide;
use crate::position::Position;
use crate::search::engine::Info;
use std::time::Duration;

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

/// The lines of a `go`'s answer, ending with `bestmove` (the engine's
/// `info` lines were printed as it searched).
pub fn thought_lines(thought: &Thought) -> Vec<String> {
    match thought {
        Thought::GameOver => vec![
            "info string the game is over".into(),
            "bestmove (none)".into(),
        ],
        Thought::Known {
            best,
            source,
            category,
            dtw,
        } => {
            // Tablebases give the distance (plies) as a mate score; a
            // proof only says who wins.
            let score = match (category, dtw) {
                (Category::Win, Some(d)) => format!("mate {}", d.div_ceil(2)),
                (Category::Loss, Some(d)) => format!("mate -{}", d.div_ceil(2)),
                (Category::Win, None) => "cp 30000".to_string(),
                (Category::Loss, None) => "cp -30000".to_string(),
                _ => "cp 0".to_string(),
            };
            vec![
                format!(
                    "info depth {} score {score} pv {best} string proved: {} {}",
                    dtw.unwrap_or(1),
                    source.name(),
                    category.name()
                ),
                format!("bestmove {best}"),
            ]
        }
        Thought::Mate {
            n,
            shortest,
            nodes,
            elapsed,
            line,
            turn,
        } => vec![
            mate_info(*n, *nodes, *elapsed, line),
            match shortest {
                None => format!("info string proved: mate in {n}, from the verified solution"),
                Some(shortest) => format!(
                    "info string proved: mate in {n} {}, verified",
                    if *shortest {
                        "proved shortest"
                    } else {
                        "(shorter not ruled out)"
                    }
                ),
            },
            format!("bestmove {turn}"),
        ],
        Thought::Searched { turn: None } => vec!["bestmove (none)".into()],
        Thought::Searched { turn: Some(turn) } => vec![format!("bestmove {turn}")],
    }
}

/// Stockfish's divide format: `move: count` lines, a blank line, the total.
pub fn perft_lines<P: Position>(pos: &P, depth: u32) -> Vec<String> {
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

/// GUIs want a legal `bestmove` whenever one exists: the first legal move
/// stands in where the search found none.
pub fn with_a_move<P: Position>(pos: &P, mut lines: Vec<String>) -> Vec<String> {
    if lines.last().is_some_and(|l| l == "bestmove (none)")
        && let Some(&first) = pos.playable_moves().first()
    {
        lines.pop();
        lines.push(format!("bestmove {}", uci::write(first)));
    }
    lines
}
