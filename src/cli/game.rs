//! The game-state JSON shared by every command: `fen`, `outcome`, `winner`.

use ransom::Position;
use ransom::notation::fen;
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

/// One line describing the outcome, for text output.
pub fn outcome_text<P: Position>(pos: &P) -> String {
    match pos.outcome() {
        Some(outcome) => outcome.to_string(),
        None => "game not over".to_string(),
    }
}
