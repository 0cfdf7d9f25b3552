//! How a game ends.

use crate::board::Color;
use serde::Serialize;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeKind {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A variant-specific end (Losing chess: a side has no men left).
    VariantWin,
    /// Neither side can win any more (insufficient material).
    Draw,
}

impl OutcomeKind {
    /// The name used in JSON and text output.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Checkmate => "checkmate",
            OutcomeKind::Stalemate => "stalemate",
            OutcomeKind::VariantWin => "variant-win",
            OutcomeKind::Draw => "draw",
        }
    }
}

/// A finished game: how it ended and who won (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why it ended.
    pub kind: OutcomeKind,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

impl Outcome {
    /// A decisive result.
    pub fn win(kind: OutcomeKind, winner: Color) -> Outcome {
        Outcome {
            kind,
            winner: Some(winner),
        }
    }

    /// A drawn result.
    pub fn draw(kind: OutcomeKind) -> Outcome {
        Outcome { kind, winner: None }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner {
            Some(color) => write!(f, "{} ({} wins)", self.kind.name(), color.name()),
            // "draw (neither side can win)", "stalemate (draw)".
            None if self.kind == OutcomeKind::Draw => write!(f, "draw (neither side can win)"),
            None => write!(f, "{} (draw)", self.kind.name()),
        }
    }
}
