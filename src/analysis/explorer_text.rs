//! The explorer as text for a terminal (`store show`): the position, the
//! stores read, a headline, one row a move (columns that say nothing for
//! any move left out), and the checkpointed searches of the position.

use super::explorer::{Exploration, Standing, frontier_san};
use super::knowledge::Knowledge;
use crate::moves::Move;
use crate::notation::fen;
use crate::position::Position;
use crate::search::mate::line_san;

/// The text of `exploration` of `pos`, reached by `line` from `start`,
/// with the stores of `knowledge` named.
pub fn explorer_text<P: Position>(
    start: &P,
    line: &[Move],
    pos: &P,
    exploration: &Exploration,
    knowledge: &Knowledge,
) -> String {
    let stores: Vec<String> = knowledge
        .stores()
        .map(|s| s.summary())
        .unwrap_or_default()
        .iter()
        .filter(|s| s.variant == P::VARIANT)
        .map(|s| format!("{} ({} positions)", s.root.display(), s.positions))
        .collect();
    let mut text = format!(
        "{} {}({})\n",
        P::VARIANT.name(),
        if line.is_empty() {
            String::new()
        } else {
            format!("after {} ", line_san(start, line))
        },
        fen::write(pos)
    );
    if stores.is_empty() {
        text += "store: none found in the folders given\n";
    } else {
        text += &format!("store: {}\n", stores.join(", "));
    }
    text += &headline(pos, exploration);
    text.push('\n');
    text += &table(exploration);
    for search in &exploration.searches {
        text += &format!(
            "checkpointed search of {}'s win: pn {} dn {}, {} nodes, {} outer nodes, {} open\n",
            search.attacker.name(),
            search.root_numbers.0,
            search.root_numbers.1,
            search.totals.nodes,
            search.outer_nodes,
            search.open
        );
        for f in &search.frontier {
            text += &format!(
                "  open: {} (pn {} dn {}, slack {}, {} men)\n",
                frontier_san(pos, &f.moves).join(" "),
                f.numbers.0,
                f.numbers.1,
                f.slack,
                f.men
            );
        }
    }
    text
}

/// `White to move: win (store, 4778 nodes), best b5`.
fn headline<P: Position>(pos: &P, exploration: &Exploration) -> String {
    let at = &exploration.position;
    let mut text = format!(
        "{} to move: {} ({}",
        crate::text::capitalised(pos.turn().name()),
        at.standing.name(),
        at.verdict.source.name()
    );
    if let Some(size) = at.size {
        text += &format!(", {size} nodes");
    }
    text.push(')');
    if let Some(best) = &exploration.best_san {
        text += &format!(", best {best}");
    }
    if let Some(outcome) = exploration.outcome {
        text += &format!(", game over: {outcome}");
    }
    text
}

/// The moves, one row each; columns that say nothing for any move are
/// left out.
fn table(exploration: &Exploration) -> String {
    let moves = &exploration.moves;
    if moves.is_empty() {
        return String::new();
    }
    let has_size = moves.iter().any(|m| m.after.size.is_some());
    let has_reply = moves.iter().any(|m| m.best_san.is_some());
    let has_dtw = moves.iter().any(|m| m.after.verdict.dtw.is_some());
    let has_open = moves.iter().any(|m| !m.after.open.is_empty());
    let mut header = format!("  {:<8} {:<14} {:<10}", "move", "result", "source");
    if has_size {
        header += &format!(" {:>10}", "size");
    }
    if has_dtw {
        header += &format!(" {:>5}", "dtw");
    }
    if has_reply {
        header += &format!(" {:<8}", "reply");
    }
    if has_open {
        header += " numbers (pn/dn)";
    }
    let mut text = format!("{}\n", header.trim_end());
    for m in moves {
        let after = &m.after;
        let result = match (after.standing, m.outcome) {
            (Standing::Loss | Standing::Win, Some(_)) => format!("{} (end)", after.standing.name()),
            (standing, _) => standing.name().to_string(),
        };
        let mut row = format!(
            "  {:<8} {:<14} {:<10}",
            m.san,
            result,
            after.verdict.source.name()
        );
        if has_size {
            let size = after.size.map(|s| s.to_string()).unwrap_or_default();
            row += &format!(" {size:>10}");
        }
        if has_dtw {
            let dtw = after.verdict.dtw.map(|d| d.to_string()).unwrap_or_default();
            row += &format!(" {dtw:>5}");
        }
        if has_reply {
            row += &format!(" {:<8}", m.best_san.clone().unwrap_or_default());
        }
        if has_open {
            let numbers: Vec<String> = after
                .open
                .iter()
                .map(|o| format!("{} {}/{}", o.attacker.name(), o.pn, o.dn))
                .collect();
            row += &format!(" {}", numbers.join(", "));
        }
        text += row.trim_end();
        text.push('\n');
    }
    text
}
