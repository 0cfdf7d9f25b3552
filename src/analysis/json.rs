//! JSON shapes shared by the command line, UCI and the HTTP service.

use super::knowledge::{Analysis, KnownValue};
use crate::board::{ByColor, ByRole, Color, Role};
use crate::moves::Move;
use crate::notation::{fen, san, uci};
use crate::position::Position;
use crate::search::mate::{MateReport, SolutionTree, build_tree, longest_line};
use serde_json::{Value, json};

/// `{"variant", "fen", "check", "outcome", "winner"}` for a position.
pub fn state_json<P: Position>(pos: &P) -> Value {
    let outcome = pos.outcome();
    json!({
        "variant": P::VARIANT.name(),
        "fen": fen::write(pos),
        "check": pos.is_check(),
        "outcome": outcome.map(|o| o.kind.name()),
        "winner": outcome.and_then(|o| o.winner).map(|c| c.name()),
    })
}

/// The men held off the board, by side: crazyhouse pockets (`pocket`), or
/// Hostage airfields and prisons (`airfield`: the side's own men waiting to
/// be dropped; `prison`: the opponent's men it holds). Each is a string of
/// FEN letters in the men's own colours, e.g. `{"white": {"airfield": "N",
/// "prison": "q"}}`. `null` for variants without holdings.
pub fn holdings_json<P: Position>(pos: &P) -> Value {
    let setup = pos.to_setup();
    let letters = |counts: &ByRole<u8>, color: Color| -> String {
        let mut out = String::new();
        for role in Role::KING_FIRST {
            let c = role.char();
            let c = if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            };
            for _ in 0..counts[role] {
                out.push(c);
            }
        }
        out
    };
    match (setup.pockets, setup.prisoners) {
        (None, None) => Value::Null,
        (pockets, None) => {
            let p: ByColor<ByRole<u8>> = pockets.unwrap_or_default();
            json!({
                "white": {"pocket": letters(&p.white, Color::White)},
                "black": {"pocket": letters(&p.black, Color::Black)},
            })
        }
        (airfields, Some(prisoners)) => {
            let a: ByColor<ByRole<u8>> = airfields.unwrap_or_default();
            // prisoners[c] are c's men held in the opponent's prison.
            json!({
                "white": {
                    "airfield": letters(&a.white, Color::White),
                    "prison": letters(&prisoners.black, Color::Black),
                },
                "black": {
                    "airfield": letters(&a.black, Color::Black),
                    "prison": letters(&prisoners.white, Color::White),
                },
            })
        }
    }
}

/// Each move of `line` played from `pos`: `{"uci", "san", "fen"}` with the
/// position after the move (what a board needs to step through a line).
pub fn move_steps<P: Position>(pos: &P, line: &[Move]) -> Vec<Value> {
    let mut pos = pos.clone();
    let mut steps = Vec::with_capacity(line.len());
    for &m in line {
        let text = san::write_plus(&pos, m);
        pos.play_unchecked(m);
        steps.push(json!({"uci": uci::write(m), "san": text, "fen": fen::write(&pos)}));
    }
    steps
}

/// A mate report's solution read off once: the tree (at most `limit`
/// moves) and the main line (the longest defence), empty without a mate.
pub struct MateSolutionView {
    /// The solution tree.
    pub tree: Option<SolutionTree>,
    /// The main line.
    pub main_line: Vec<Move>,
}

impl MateSolutionView {
    /// The tree and main line of `report`'s solution from `pos`.
    pub fn of<P: Position>(pos: &P, report: &MateReport, limit: usize) -> MateSolutionView {
        let solution = report.solution.as_ref();
        MateSolutionView {
            tree: solution.map(|s| build_tree(pos, pos.turn(), s, limit)),
            main_line: solution
                .map(|s| longest_line(pos, pos.turn(), s))
                .unwrap_or_default(),
        }
    }
}

/// The JSON answer for a mate search (`ransom mate --json`, the service's
/// mate endpoint): verdict, keys, main line, tree and effort.
pub fn mate_report_json<P: Position>(
    pos: &P,
    report: &MateReport,
    max: u16,
    view: &MateSolutionView,
) -> Value {
    json!({
        "position": state_json(pos),
        "max": max,
        "mate_in": report.length,
        "proven": report.status.name(),
        "shortest": report.shortest,
        "no_mate_within": report.no_mate_within,
        "keys": report.keys.iter().map(|&m| uci::write(m)).collect::<Vec<_>>(),
        "main_line": view.main_line.iter().map(|&m| uci::write(m)).collect::<Vec<_>>(),
        "tree": view.tree,
        "verified_positions": report.verified.map(|v| v.positions),
        "nodes": report.nodes,
        "time_ms": report.elapsed.as_secs_f64() * 1000.0,
        "notes": report.notes,
    })
}

/// `{"category", "dtw", "source"}`; `dtw` is signed as in the lichess API
/// (positive: the side to move wins in that many plies; negative: loses).
pub fn verdict_json(v: KnownValue) -> Value {
    json!({
        "category": v.category.name(),
        "dtw": v.signed_dtw(),
        "source": v.source.name(),
    })
}

/// An [`Analysis`] in the lichess tablebase shape: the position's
/// `category`, `dtw` and `source`, its game state and holdings, and
/// `moves[]` best first, each with `uci`, `san`, `fen` (after the move) and
/// the verdict for the side to move after it; `store` (where the
/// solved-position store holds a win or loss: its `size` and `best` move,
/// else `null`); `moves_total` and `truncated` say whether the list holds
/// every legal move.
pub fn analysis_json<P: Position>(pos: &P, analysis: &Analysis) -> Value {
    let mut out = verdict_json(analysis.verdict);
    out["position"] = state_json(pos);
    out["holdings"] = holdings_json(pos);
    out["checkmate"] = (analysis.outcome == Some("checkmate")).into();
    out["stalemate"] = (analysis.outcome == Some("stalemate")).into();
    out["variant_win"] = (analysis.outcome == Some("variant-win")
        && analysis.verdict.category.name() == "win")
        .into();
    out["variant_loss"] = (analysis.outcome == Some("variant-win")
        && analysis.verdict.category.name() == "loss")
        .into();
    out["moves"] = analysis
        .moves
        .iter()
        .map(|m| {
            let mut row = verdict_json(m.verdict);
            row["uci"] = m.uci.clone().into();
            row["san"] = m.san.clone().into();
            row["fen"] = m.fen.clone().into();
            row["outcome"] = m.outcome.into();
            row["same_side"] = m.same_side.into();
            row
        })
        .collect::<Vec<_>>()
        .into();
    // A stored result: its proof size (the nodes its search spent) and
    // stored winning move; checked when its search stored it, and again by
    // `ransom store verify`.
    out["store"] = analysis
        .stored
        .filter(|s| s.is_win() || s.is_loss())
        .map_or(Value::Null, |s| {
            json!({
                "size": s.size(),
                "best": s.winning_move(&pos.legal_moves()).map(crate::notation::uci::write),
            })
        });
    out["moves_total"] = analysis.total_moves.into();
    out["truncated"] = (analysis.moves.len() < analysis.total_moves).into();
    out
}
