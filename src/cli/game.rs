//! The game state as the commands print it: the JSON object (from
//! [`ransom::analysis::state_json`]) and the one-line outcome text.

use ransom::Position;

pub use ransom::analysis::state_json;

/// One line describing the outcome, for text output.
pub fn outcome_text<P: Position>(pos: &P) -> String {
    match pos.outcome() {
        Some(outcome) => outcome.to_string(),
        None => "game not over".to_string(),
    }
}
