//! Heuristic no-win rules: positions where the attacker is judged unable
//! to force a win in Losing chess, used only to stop the attacker's search
//! in a line (a disproof that is never stored, never final and never
//! reported; see [`NoWin`]).

use crate::board::{Bitboard, Color, Role};
use crate::position::Position;

/// Which heuristic no-win rules prune the attacker's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoWin {
    /// None (the default): every disproof comes from the rules, the tables
    /// and the store.
    #[default]
    Off,
    /// Bishops bound to opposite colours: the attacker's men are bishops
    /// on squares of one colour only, and the defender has a bishop on the
    /// other colour. The attacker's bishops can never be taken by that
    /// bishop, nor take it (the rule Watkins' solver used). Not always
    /// true: the defender's other men may still have to capture the
    /// bishops.
    Bishops,
}

impl NoWin {
    /// Whether the rule judges that `attacker` cannot win `pos`. Only
    /// Losing chess without men off the board is judged; other variants
    /// never.
    pub fn judges_lost<P: Position>(self, pos: &P, attacker: Color) -> bool {
        match self {
            NoWin::Off => false,
            NoWin::Bishops => {
                P::MUST_CAPTURE
                    && !P::ROYAL_KING
                    && !P::HOLDINGS
                    && bishops_bound_apart(pos, attacker)
            }
        }
    }
}

/// The attacker's men are only bishops, all on squares of one colour, and
/// the defender has a bishop on the other colour.
fn bishops_bound_apart<P: Position>(pos: &P, attacker: Color) -> bool {
    let board = pos.board();
    let own = board.by_color(attacker);
    let own_bishops = own & board.by_role(Role::Bishop);
    if own.is_empty() || own != own_bishops {
        return false;
    }
    let dark = Bitboard::DARK_SQUARES;
    let their_bishops = board.by_color(!attacker) & board.by_role(Role::Bishop);
    if (own & !dark).is_empty() {
        (their_bishops & !dark).any()
    } else if (own & dark).is_empty() {
        (their_bishops & dark).any()
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::variants::Antichess;

    fn judged(fen: &str, attacker: Color) -> bool {
        let pos = parse_position::<Antichess>(fen).expect("a legal FEN");
        NoWin::Bishops.judges_lost(&pos, attacker)
    }

    #[test]
    fn bishops_on_one_colour_against_a_bishop_on_the_other_are_judged_lost() {
        // White: bishops on c1 and e3 (dark); Black: a bishop on c8 (light) and a pawn.
        let fen = "2b5/7p/8/8/8/4B3/8/2B5 w - - 0 1";
        assert!(judged(fen, Color::White));
        assert!(!NoWin::Off.judges_lost(&parse_position::<Antichess>(fen).unwrap(), Color::White));
        // Black is not judged: it has a pawn.
        assert!(!judged(fen, Color::Black));
    }

    #[test]
    fn mixed_colours_other_men_or_a_same_coloured_bishop_are_not_judged() {
        // Bishops on both colours.
        assert!(!judged("2b5/8/8/8/8/4B3/8/3B4 w - - 0 1", Color::White));
        // A knight beside the bishop.
        assert!(!judged("2b5/8/8/8/8/4B3/8/2N5 w - - 0 1", Color::White));
        // The defender's bishop on the same colour can take.
        assert!(!judged("3b4/8/8/8/8/4B3/8/8 w - - 0 1", Color::White));
        // No men at all is the rules' business (a win), not the rule's.
        assert!(!judged("3b4/8/8/8/8/8/8/8 w - - 0 1", Color::White));
    }
}
