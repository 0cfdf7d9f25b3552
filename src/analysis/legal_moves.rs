//! A position's legal moves with its outcome (`ransom moves`).

use super::json::state_json;
use crate::notation::replay::PlayedMove;
use crate::notation::{diagram, fen, san, uci};
use crate::position::Position;
use serde::Serialize;
use std::fmt;

/// The legal moves of a position, sorted by UCI.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMoves {
    /// The position (`{variant, fen, check, outcome, winner}`).
    #[serde(flatten)]
    pub position: serde_json::Value,
    /// The moves.
    pub moves: Vec<PlayedMove>,
    /// The board drawn.
    #[serde(skip)]
    pub diagram: Vec<String>,
    /// The outcome, or "game not over".
    #[serde(skip)]
    pub outcome: String,
}

impl LegalMoves {
    /// The legal moves of `pos`.
    pub fn of<P: Position>(pos: &P) -> LegalMoves {
        let legal = pos.playable_moves();
        let mut moves: Vec<PlayedMove> = legal
            .iter()
            .map(|&m| PlayedMove {
                uci: uci::write(m),
                san: san::write_in::<P>(&legal, m),
            })
            .collect();
        moves.sort_by(|a, b| (&a.uci, &a.san).cmp(&(&b.uci, &b.san)));
        LegalMoves {
            position: state_json(pos),
            moves,
            diagram: diagram::diagram(&fen::write(pos)),
            outcome: outcome_text(pos),
        }
    }
}

/// One line describing the outcome: how the game ended, or "game not over".
pub fn outcome_text<P: Position>(pos: &P) -> String {
    match pos.outcome() {
        Some(outcome) => outcome.to_string(),
        None => "game not over".to_string(),
    }
}

impl fmt::Display for LegalMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.diagram {
            writeln!(f, "{line}")?;
        }
        writeln!(
            f,
            "{}",
            crate::text::counted(self.moves.len() as u64, "legal move", "legal moves")
        )?;
        for m in &self.moves {
            writeln!(f, "  {:<6} {}", m.uci, m.san)?;
        }
        writeln!(f, "outcome: {}", self.outcome)
    }
}
