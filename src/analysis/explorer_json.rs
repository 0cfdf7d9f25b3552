//! An [`Exploration`] as JSON (the service's `/explorer` answer and
//! `ransom store show --json`).

use super::explorer::{Exploration, Explored, frontier_san};
use super::json::{holdings_json, state_json};
use crate::notation::{fen, uci};
use crate::position::Position;
use crate::search::scale::open::OpenSearch;
use serde_json::{Value, json};

/// What is known about one position: `result` (for the side to move),
/// `category`, `dtw` (signed, lichess style), `source`, `size` (the
/// store's nodes settling it), `best` (the stored winning move, UCI),
/// `no_forced_win_for` and `open` (each checkpointed search's numbers).
pub fn explored_json(explored: &Explored) -> Value {
    json!({
        "result": explored.standing.name(),
        "category": explored.verdict.category.name(),
        "dtw": explored.verdict.signed_dtw(),
        "source": explored.verdict.source.name(),
        "size": explored.size,
        "best": explored.best.map(uci::write),
        "no_forced_win_for": explored
            .no_forced_win
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>(),
        "open": explored
            .open
            .iter()
            .map(|o| json!({"attacker": o.attacker.name(), "pn": o.pn, "dn": o.dn}))
            .collect::<Vec<_>>(),
    })
}

/// One checkpointed search: its attacker, totals, root numbers and
/// frontier (moves from the root in UCI and SAN).
pub fn search_json<P: Position>(root: &P, search: &OpenSearch) -> Value {
    json!({
        "attacker": search.attacker.name(),
        "pn": search.root_numbers.0,
        "dn": search.root_numbers.1,
        "nodes": search.totals.nodes,
        "leaf_searches": search.totals.leaf_searches,
        "seconds": search.totals.seconds,
        "outer_nodes": search.outer_nodes,
        "open_positions": search.open,
        "frontier": search
            .frontier
            .iter()
            .map(|f| json!({
                "moves": f.moves,
                "san": frontier_san(root, &f.moves),
                "pn": f.numbers.0,
                "dn": f.numbers.1,
                "slack": f.slack,
                "men": f.men,
            }))
            .collect::<Vec<_>>(),
    })
}

/// The explorer's answer for `pos`: the position (as [`explored_json`],
/// with `fen`, `position`, `holdings`, `outcome`, `best_san` and the
/// `searches` rooted at it) and `moves[]` best first, each with `uci`,
/// `san`, `fen` after it, `outcome`, `same_side`, `best_san` (the stored
/// winning reply) and what is known after it; `moves_total` and
/// `truncated` as in the lookups.
pub fn explorer_json<P: Position>(pos: &P, exploration: &Exploration) -> Value {
    let mut out = explored_json(&exploration.position);
    out["fen"] = fen::write(pos).into();
    out["position"] = state_json(pos);
    out["holdings"] = holdings_json(pos);
    out["outcome"] = exploration.outcome.into();
    out["best_san"] = exploration.best_san.clone().into();
    out["searches"] = exploration
        .searches
        .iter()
        .map(|s| search_json(pos, s))
        .collect::<Vec<_>>()
        .into();
    out["moves"] = exploration
        .moves
        .iter()
        .map(|m| {
            let mut row = explored_json(&m.after);
            row["uci"] = m.uci.clone().into();
            row["san"] = m.san.clone().into();
            row["fen"] = m.pos_fen.clone().into();
            row["outcome"] = m.outcome.into();
            row["same_side"] = m.same_side.into();
            row["best_san"] = m.best_san.clone().into();
            row
        })
        .collect::<Vec<_>>()
        .into();
    out["moves_total"] = exploration.total_moves.into();
    out["truncated"] = (exploration.moves.len() < exploration.total_moves).into();
    out
}
