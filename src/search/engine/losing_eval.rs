//! The Losing-chess evaluation as a weighted sum of terms (features): each
//! term is a count for the side to move, most of them its own less the
//! opponent's. Being linear, the weights can be fitted to game results
//! (`examples/tune_losing.rs`, docs/engine.md "Tuning the Losing-chess
//! evaluation").

use super::men::for_each_man;
use crate::board::{Bitboard, Color, Role};
use crate::position::State;
use std::ops::Range;

/// How many terms the Losing-chess evaluation has.
pub const LOSING_TERMS: usize = 28;

/// Each term's name, in order (used by the tuner's report and the docs).
pub const LOSING_TERM_NAMES: [&str; LOSING_TERMS] = [
    "side to move",
    "men: pawn",
    "men: knight",
    "men: bishop",
    "men: rook",
    "men: queen",
    "men: king",
    "reach: pawn",
    "reach: knight",
    "reach: bishop",
    "reach: rook",
    "reach: queen",
    "reach: king",
    "pawns on rank 2",
    "pawns on rank 3",
    "pawns on rank 4",
    "pawns on rank 5",
    "pawns on rank 6",
    "pawns on rank 7",
    "attacked (own): pawn",
    "attacked (own): knight",
    "attacked (own): bishop",
    "attacked (own): rook",
    "attacked (own): queen",
    "attacked (own): king",
    "attacked and defended (own)",
    "defended men",
    "pawn pushes",
];

/// Where each group of terms starts.
const MEN: usize = 1;
const REACH: usize = 7;
/// The men terms by role, pawn first.
pub const MEN_TERMS: Range<usize> = MEN..MEN + 6;
/// The reach terms by role, pawn first.
pub const REACH_TERMS: Range<usize> = REACH..REACH + 6;
const PAWN_RANK: usize = 13;
const ATTACKED: usize = 19;
const ATTACKED_DEFENDED: usize = 25;
const DEFENDED: usize = 26;
const PUSHES: usize = 27;

/// The terms of the position `state` for `us`, the side to move:
///
/// - a constant 1 (the value of having the move);
/// - men by role, own less the opponent's (the fewer, the better);
/// - reach by role: squares the men attack that their own side does not
///   occupy, own less the opponent's;
/// - pawns by relative rank 2–7, own less the opponent's;
/// - own men the opponent attacks, by role (the opponent must take one of
///   them next unless the move changes that), and how many of those the
///   side to move defends (it may be made to take back);
/// - men defended by their own side, own less the opponent's;
/// - pawn pushes onto empty squares, own less the opponent's.
pub fn losing_terms(state: &State, us: Color) -> [i32; LOSING_TERMS] {
    let mut terms = [0; LOSING_TERMS];
    terms[0] = 1;
    let board = &state.board;
    let occupied = board.occupied();
    // The terms one side adds with `sign`; returns the squares it attacks.
    let mut add_side = |side: Color, sign: i32| {
        let own = board.by_color(side);
        let mut covered = Bitboard::EMPTY;
        for_each_man(state, side, |role, sq, attacked| {
            covered |= attacked;
            terms[MEN + role.index()] += sign;
            terms[REACH + role.index()] += sign * attacked.without(own).count() as i32;
            let rank = sq.relative_rank(side) as usize;
            if role == Role::Pawn && (1..=6).contains(&rank) {
                terms[PAWN_RANK + rank - 1] += sign;
            }
        });
        let pawns = board.by_piece(Role::Pawn.of(side));
        let pushes = pawns.shift_forward(side == Color::White).without(occupied);
        terms[PUSHES] += sign * pushes.count() as i32;
        terms[DEFENDED] += sign * (covered & own).count() as i32;
        covered
    };
    let ours = add_side(us, 1);
    let theirs = add_side(!us, -1);
    for role in Role::ALL {
        let attacked = board.by_piece(role.of(us)) & theirs;
        terms[ATTACKED + role.index()] = attacked.count() as i32;
    }
    terms[ATTACKED_DEFENDED] = (board.by_color(us) & theirs & ours).count() as i32;
    terms
}

/// The men on the board, at most [`FULL_BOARD`]: the evaluation moves from
/// its opening weights (a full board) to its ending weights (none left).
pub fn losing_phase(state: &State) -> i32 {
    (state.board.occupied().count() as i32).min(FULL_BOARD)
}

/// The men at the start of a game.
pub const FULL_BOARD: i32 = 32;

/// The Losing-chess weights: one set for a full board, one for an empty
/// one, blended by the men left ([`losing_phase`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LosingWeights {
    /// The weights with all 32 men on the board.
    pub opening: [i32; LOSING_TERMS],
    /// The weights as the board empties.
    pub ending: [i32; LOSING_TERMS],
}

impl LosingWeights {
    /// The same weights at every stage.
    pub const fn flat(weights: [i32; LOSING_TERMS]) -> LosingWeights {
        LosingWeights {
            opening: weights,
            ending: weights,
        }
    }

    /// The evaluation of a position with `terms` and `phase` men.
    pub fn evaluate(&self, terms: &[i32; LOSING_TERMS], phase: i32) -> i32 {
        let opening = weighted(terms, &self.opening);
        let ending = weighted(terms, &self.ending);
        (opening * phase + ending * (FULL_BOARD - phase)) / FULL_BOARD
    }
}

/// The weighted sum of `terms`.
fn weighted(terms: &[i32; LOSING_TERMS], weights: &[i32; LOSING_TERMS]) -> i32 {
    terms.iter().zip(weights).map(|(t, w)| t * w).sum()
}

/// The weights that give the first evaluation (before tuning): 60 a man,
/// more for the men that are hard to give away (K 15, R 10, P 10), 10 less
/// for a queen, 2 a square of reach, 10 for the move, at every stage.
pub const HAND_WEIGHTS: LosingWeights = LosingWeights::flat([
    10, -70, -60, -60, -70, -50, -75, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/// The default weights, fitted to game results (docs/engine.md, "Tuning
/// the Losing-chess evaluation").
pub const TUNED_WEIGHTS: LosingWeights = LosingWeights {
    opening: [
        116, -13, -46, -75, -104, 16, 104, -27, 4, -13, -10, 1, -17, 40, 36, 79, 47, 8, -109, -41,
        -50, -140, 64, -145, -20, -34, -31, 2,
    ],
    ending: [
        25, -44, -42, -15, -92, -213, -77, -5, 15, 13, 19, 12, 16, 18, -46, -23, 12, 47, 105, 332,
        253, 461, 196, 935, 268, -165, 36, -3,
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks;
    use crate::notation::fen;
    use crate::position::Position;
    use crate::variants::Antichess;

    fn terms_of(text: &str) -> [i32; LOSING_TERMS] {
        let pos: Antichess = fen::parse_position(text).unwrap();
        losing_terms(pos.state(), pos.turn())
    }

    /// The first evaluation, written out as it was before the terms:
    /// per man 2 a square of reach less 60 and its role's extra cost.
    fn first_evaluation(text: &str) -> i32 {
        let pos: Antichess = fen::parse_position(text).unwrap();
        let board = &pos.state().board;
        let extra = [10, 0, 0, 10, -10, 15];
        let mut score = 0;
        for side in [Color::White, Color::Black] {
            let sign = if side == pos.turn() { 1 } else { -1 };
            for role in Role::ALL {
                for sq in board.by_piece(role.of(side)) {
                    let reach = attacks::attacks(side, role, sq, board.occupied())
                        .without(board.by_color(side))
                        .count() as i32;
                    score += sign * (2 * reach - 60 - extra[role.index()]);
                }
            }
        }
        score + 10
    }

    const POSITIONS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
        "8/8/3k4/8/2P5/8/5r2/1K6 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    ];

    #[test]
    fn the_hand_weights_give_the_first_evaluation() {
        for text in POSITIONS {
            let pos: Antichess = fen::parse_position(text).unwrap();
            let value = HAND_WEIGHTS.evaluate(&terms_of(text), losing_phase(pos.state()));
            assert_eq!(value, first_evaluation(text), "{text}");
        }
    }

    #[test]
    fn the_start_position_differs_only_in_the_move() {
        let terms = terms_of(POSITIONS[0]);
        let mut expected = [0; LOSING_TERMS];
        expected[0] = 1;
        assert_eq!(terms, expected);
    }

    #[test]
    fn attacked_and_defended_men_are_counted_for_the_side_to_move() {
        // Black to move: its king on d6 and rook on f2; White's pawn c4 and
        // king b1. White attacks nothing of Black's; Black's rook attacks
        // nothing of White's either (f2 reaches b2, not b1).
        let terms = terms_of(POSITIONS[2]);
        assert_eq!(terms[ATTACKED..ATTACKED + 6], [0; 6]);
        // White to move after 1...Rb2: the rook attacks the king on b1,
        // which nothing of White's defends; Black's king defends nothing.
        let terms = terms_of("8/8/3k4/8/2P5/8/1r6/1K6 w - - 0 2");
        assert_eq!(terms[ATTACKED + Role::King.index()], 1);
        assert_eq!(terms[ATTACKED_DEFENDED], 0);
        // White's pawn on c4 with a pawn on b3 behind it, attacked by
        // Black's king on d5: attacked and defended.
        let terms = terms_of("8/8/8/3k4/2P5/1P6/8/8 w - - 0 1");
        assert_eq!(terms[ATTACKED + Role::Pawn.index()], 1);
        assert_eq!(terms[ATTACKED_DEFENDED], 1);
        assert_eq!(terms[DEFENDED], 1);
        assert_eq!(terms[MEN + Role::Pawn.index()], 2);
        assert_eq!(terms[MEN + Role::King.index()], -1);
        assert_eq!(terms[PUSHES], 2);
    }

    #[test]
    fn the_blend_moves_from_the_opening_to_the_ending_weights() {
        let mut weights = LosingWeights::flat([0; LOSING_TERMS]);
        weights.opening[0] = 64;
        weights.ending[0] = 0;
        let terms = terms_of(POSITIONS[0]);
        assert_eq!(weights.evaluate(&terms, FULL_BOARD), 64);
        assert_eq!(weights.evaluate(&terms, FULL_BOARD / 2), 32);
        assert_eq!(weights.evaluate(&terms, 0), 0);
    }
}
