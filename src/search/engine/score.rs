//! Search scores: centipawns, or a forced win counted in turns.
//!
//! A won position scores [`WIN`] less the number of turns (changes of the
//! side to move) from the root to the end of the game, so that a quicker
//! win scores higher; a loss scores the negation. Hit-and-Run's two
//! sub-moves are one turn, so a mate score counts turns as RULES R8 asks.

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// The score of a game won at the root.
pub const WIN: i32 = 31_000;
/// Scores beyond this (in absolute value) are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - 2_000;
/// The score of a win an endgame table gives at the root (less the turns
/// to the table's position): above any evaluation, below every forced
/// mate, and shown in centipawns.
pub const TABLE_WIN: i32 = WIN_BOUND - 1_000;

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// A forced win in this many moves of the side to move (negative:
    /// the side to move is lost in that many of its moves).
    Mate(i32),
}

impl Score {
    /// The UCI form of a search score `value` for the side to move.
    pub fn from_value(value: i32) -> Score {
        if value > WIN_BOUND {
            let turns = WIN - value;
            Score::Mate((turns + 1) / 2)
        } else if value < -WIN_BOUND {
            let turns = WIN + value;
            Score::Mate(-(turns / 2))
        } else {
            Score::Centipawns(value)
        }
    }

    /// `cp N` or `mate N`, as in a UCI `info` line.
    pub fn uci(self) -> String {
        match self {
            Score::Centipawns(cp) => format!("cp {cp}"),
            Score::Mate(moves) => format!("mate {moves}"),
        }
    }

    /// Whether the score is a forced result.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

/// A win `turns` turns from the root, for the side to move there.
pub fn win_in(turns: u32) -> i32 {
    WIN - turns as i32
}

/// A score stored in the transposition table: forced results counted from
/// the stored position instead of the root.
pub fn to_table(value: i32, turns: u32) -> i32 {
    if value > WIN_BOUND {
        value + turns as i32
    } else if value < -WIN_BOUND {
        value - turns as i32
    } else {
        value
    }
}

/// The inverse of [`to_table`] at a node `turns` turns from the root.
pub fn from_table(value: i32, turns: u32) -> i32 {
    if value > WIN_BOUND {
        value - turns as i32
    } else if value < -WIN_BOUND {
        value + turns as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_of_the_side_to_move() {
        // Mating with the first move: one turn to the end.
        assert_eq!(Score::from_value(win_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(win_in(3)), Score::Mate(2));
        // Mated after the opponent's second move: four turns.
        assert_eq!(Score::from_value(-win_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(-win_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(150), Score::Centipawns(150));
    }

    #[test]
    fn table_scores_round_trip() {
        for value in [win_in(7), -win_in(6), 42, -42] {
            assert_eq!(from_table(to_table(value, 5), 5), value);
        }
    }
}
