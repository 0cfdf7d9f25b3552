//! The engine's evaluation: a score in centipawns from the side to move's
//! point of view, by variant family (docs/engine.md lists every term and
//! its weight).
//!
//! - Orthodox (chess, Contact, Hit-and-Run): material, piece placement,
//!   mobility, and the king's safety.
//! - Drops (crazyhouse): as orthodox, with men in hand counted and the
//!   king's safety weighed more (a man can land next to it at any time).
//! - Hostage (RULES H): as drops, with the airfield counted as men in hand
//!   and the prisoners one holds as part of their value (they pay for
//!   exchanges, RULES H2b, H3).
//! - Losing (antichess and its rule sets): fewer men is better, and so is
//!   having more moves than the opponent (a side with few moves is forced
//!   into giving captures it does not want).

use crate::board::{Bitboard, Color, Role, Square, attacks};
use crate::movegen::{DROP_ROLES, drop_squares};
use crate::position::{Position, State};
use crate::variants::Variant;

use super::men::for_each_man;

pub use super::losing_eval::{
    FULL_BOARD, HAND_WEIGHTS, LOSING_TERM_NAMES, LOSING_TERMS, LosingWeights, MEN_TERMS,
    REACH_TERMS, TUNED_WEIGHTS, losing_phase, losing_terms,
};

/// Which evaluation a variant uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Material and position as in chess.
    Orthodox,
    /// Crazyhouse: men in hand count.
    Drops,
    /// Hostage chess: airfields and prisons count.
    Hostage,
    /// Losing chess and its rule sets: the fewer men the better.
    Losing,
}

impl Family {
    /// The family of `variant`.
    pub fn of(variant: Variant) -> Family {
        match variant {
            v if v.is_losing() => Family::Losing,
            Variant::Crazyhouse => Family::Drops,
            Variant::Hostage => Family::Hostage,
            _ => Family::Orthodox,
        }
    }
}

/// The most men in the opponent's hand that [`Weights::hand_pressure`]
/// counts.
pub const HAND_PRESSURE_CAP: i32 = 4;

/// Material values in centipawns, pawn first (the king counts nothing:
/// where it is royal it never leaves the board).
pub const MATERIAL: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The evaluation's weights (docs/engine.md; the defaults are the values
/// self-play kept). Tests and tuning runs compare other values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man in hand (crazyhouse pocket, Hostage airfield) against the
    /// same man on the board, in percent: it can go anywhere, at once.
    pub in_hand_percent: i32,
    /// An enemy man in one's own prison (Hostage chess), in percent of its
    /// value: it pays for an exchange but cannot move or capture.
    pub prisoner_percent: i32,
    /// Crazyhouse's values of the men, on the board and in hand (before
    /// [`Weights::in_hand_percent`]), pawn first: the other variants use
    /// [`MATERIAL`].
    pub drop_material: [i32; 6],
    /// Bonus for having the move.
    pub tempo: i32,
    /// Mobility per square a man attacks that its own side does not
    /// occupy, pawn first.
    pub mobility: [i32; 6],
    /// Penalty per enemy attack on a square next to a royal king.
    pub king_zone_attack: i32,
    /// The same where men can be dropped next to the king.
    pub king_zone_attack_drops: i32,
    /// Bonus per own pawn in front of a royal king (drop variants only,
    /// where a shelter matters from the first move).
    pub pawn_shield: i32,
    /// Crazyhouse: penalty per empty square next to a royal king that no
    /// own man but the king guards, while the opponent holds men to drop
    /// there.
    pub king_zone_holes: i32,
    /// Crazyhouse: penalty per attacked square next to a royal king for
    /// each man (at most [`HAND_PRESSURE_CAP`]) the opponent holds to drop.
    pub hand_pressure: i32,
    /// Crazyhouse: penalty per empty square from which a man the opponent
    /// holds would check the royal king if dropped there, where no own man
    /// guards the square.
    pub safe_check_drops: i32,
    /// Crazyhouse: the king's danger (the terms above, where positive)
    /// grows by its square divided by this, so that threats to one king
    /// count more the more of them there are (0: off).
    pub king_danger_divisor: i32,
    /// Pawn bonus by relative rank (0 = own back rank).
    pub pawn_advance: [i32; 8],
    /// Knight and bishop bonus per step from the rim (0 to 3).
    pub centre: i32,
    /// Losing chess: the weight of each of [`losing_terms`]'s terms (the
    /// side to move's bonus among them; [`Weights::tempo`] is not added),
    /// fitted to antichess games; used where the king is an ordinary man.
    pub losing: LosingWeights,
    /// The same for the Losing-chess rule sets with a royal king (losers,
    /// ICC losers, kamikaze, losing-royal, losing-royal-mated), which no
    /// games were fitted to: the hand-set weights.
    pub losing_royal: LosingWeights,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            in_hand_percent: 110,
            prisoner_percent: 35,
            drop_material: MATERIAL,
            tempo: 10,
            mobility: [0, 4, 5, 3, 2, 0],
            king_zone_attack: 8,
            king_zone_attack_drops: 20,
            pawn_shield: 12,
            king_zone_holes: 30,
            hand_pressure: 0,
            safe_check_drops: 30,
            king_danger_divisor: 400,
            pawn_advance: [0, 0, 5, 10, 20, 35, 60, 0],
            centre: 6,
            losing: TUNED_WEIGHTS,
            losing_royal: HAND_WEIGHTS,
        }
    }
}

/// The score of `pos` for the side to move, in centipawns.
pub fn evaluate<P: Position>(pos: &P, w: &Weights) -> i32 {
    let state = pos.state();
    let family = Family::of(P::VARIANT);
    if family == Family::Losing {
        let weights = if P::ROYAL_KING {
            &w.losing_royal
        } else {
            &w.losing
        };
        return weights.evaluate(&losing_terms(state, pos.turn()), losing_phase(state));
    }
    let white = material_side::<P>(state, family, Color::White, w)
        - material_side::<P>(state, family, Color::Black, w);
    let score = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    score + w.tempo
}

/// The material family's terms for one side.
fn material_side<P: Position>(state: &State, family: Family, us: Color, w: &Weights) -> i32 {
    let mut score = 0;
    let own = state.board.by_color(us);
    let values = if family == Family::Drops {
        &w.drop_material
    } else {
        &MATERIAL
    };
    for_each_man(state, us, |role, sq, attacked| {
        let reach = attacked.without(own).count() as i32;
        score += values[role.index()] + w.mobility[role.index()] * reach;
        score += match role {
            Role::Pawn => w.pawn_advance[sq.relative_rank(us) as usize],
            Role::Knight | Role::Bishop => w.centre * centrality(sq),
            _ => 0,
        };
    });
    if family != Family::Orthodox {
        let hand = &state.pockets[us];
        for role in Role::ALL {
            score += values[role.index()] * w.in_hand_percent / 100 * i32::from(hand[role]);
        }
    }
    if family == Family::Hostage {
        // Enemy men in our prison are `prisoners[them]`.
        let held = &state.prisoners[!us];
        for role in Role::ALL {
            score += MATERIAL[role.index()] * w.prisoner_percent / 100 * i32::from(held[role]);
        }
    }
    if P::ROYAL_KING {
        score -= king_danger(state, family, us, w);
    }
    score
}

/// How exposed `us`'s royal king is: enemy attacks on the squares around
/// it, less a pawn shelter where men are dropped.
fn king_danger(state: &State, family: Family, us: Color, w: &Weights) -> i32 {
    let board = &state.board;
    let Some(king) = board.king_of(us) else {
        return 0;
    };
    let occupied = board.occupied();
    let zone = attacks::king_attacks(king);
    let mut attacked = 0;
    for sq in zone {
        if board.is_attacked_by(sq, !us, occupied) {
            attacked += 1;
        }
    }
    let drops = family != Family::Orthodox;
    let weight = if drops {
        w.king_zone_attack_drops
    } else {
        w.king_zone_attack
    };
    let mut danger = weight * attacked;
    if drops {
        let front = zone & board.by_piece(Role::Pawn.of(us)) & ahead_of(us, king);
        danger -= w.pawn_shield * front.count() as i32;
        let enemy_hand = state.pockets[!us].total() as i32;
        if family == Family::Drops && enemy_hand > 0 {
            danger += w.hand_pressure * attacked * enemy_hand.min(HAND_PRESSURE_CAP);
            let king_only = Bitboard::from(king);
            let holes = zone
                .without(occupied)
                .into_iter()
                .filter(|&sq| {
                    board
                        .attacks_by(sq, us, occupied)
                        .without(king_only)
                        .is_empty()
                })
                .count();
            danger += w.king_zone_holes * holes as i32;
            if w.safe_check_drops != 0 {
                danger += w.safe_check_drops * safe_check_drops(state, us, king) as i32;
            }
        }
        if family == Family::Drops && w.king_danger_divisor > 0 && danger > 0 {
            danger += danger * danger / w.king_danger_divisor;
        }
    }
    danger
}

/// The empty squares from which a man in the opponent's hand would check
/// `us`'s king at `king` if dropped there, that no man of `us` guards
/// (the king's own guard counts: it could take a man dropped next to it
/// if nothing defends that man; the holes term weighs those squares).
fn safe_check_drops(state: &State, us: Color, king: Square) -> u32 {
    let board = &state.board;
    let occupied = board.occupied();
    let hand = &state.pockets[!us];
    let mut checks = Bitboard::EMPTY;
    for role in DROP_ROLES {
        if hand[role] > 0 {
            // A man of `role` checks from the squares it would attack from
            // the king's square (for pawns, in `us`'s direction), where it
            // may be dropped.
            checks |= drop_squares(role, attacks::attacks(us, role, king, occupied));
        }
    }
    checks
        .without(occupied)
        .into_iter()
        .filter(|&sq| !board.is_attacked_by(sq, us, occupied))
        .count() as u32
}

/// The squares on the ranks in front of `sq` from `us`'s side.
fn ahead_of(us: Color, sq: Square) -> Bitboard {
    let mut ahead = Bitboard::EMPTY;
    for rank in 0..8 {
        let in_front = match us {
            Color::White => rank > sq.rank(),
            Color::Black => rank < sq.rank(),
        };
        if in_front {
            ahead |= Bitboard::rank(rank);
        }
    }
    ahead
}

/// 0 on the rim, 3 on the four centre squares.
fn centrality(sq: Square) -> i32 {
    let file = sq.file() as i32;
    let rank = sq.rank() as i32;
    let from_edge = |x: i32| x.min(7 - x);
    from_edge(file).min(from_edge(rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::{Antichess, Crazyhouse, Losers};

    /// The fitted weights are for antichess's ordinary king; the rule sets
    /// with a royal king keep the hand-set ones.
    #[test]
    fn losing_rule_sets_with_a_royal_king_keep_the_hand_weights() {
        let text = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 2 3";
        let w = Weights::default();
        let antichess: Antichess = fen::parse_position(text).unwrap();
        let losers: Losers = fen::parse_position(text).unwrap();
        let state = antichess.state();
        let terms = losing_terms(state, Color::White);
        let phase = losing_phase(state);
        assert_eq!(
            evaluate(&antichess, &w),
            TUNED_WEIGHTS.evaluate(&terms, phase)
        );
        assert_eq!(evaluate(&losers, &w), HAND_WEIGHTS.evaluate(&terms, phase));
        assert_eq!(w.losing_royal, HAND_WEIGHTS);
    }

    /// Crazyhouse: each empty square next to the king that only the king
    /// guards costs `king_zone_holes` while the opponent has men to drop,
    /// and nothing when the opponent's hand is empty.
    #[test]
    fn unguarded_squares_by_the_king_cost_while_the_opponent_can_drop() {
        let with_hand: Crazyhouse =
            fen::parse_position("6k1/5ppp/8/8/8/8/5PPP/6K1[n] w - - 0 1").unwrap();
        let empty_hand: Crazyhouse =
            fen::parse_position("6k1/5ppp/8/8/8/8/5PPP/6K1[] w - - 0 1").unwrap();
        let none = Weights {
            king_zone_holes: 0,
            king_danger_divisor: 0,
            ..Weights::default()
        };
        let some = Weights {
            king_zone_holes: 30,
            king_danger_divisor: 0,
            ..Weights::default()
        };
        // f1 and h1 are empty and guarded by the king alone.
        assert_eq!(
            evaluate(&with_hand, &some) - evaluate(&with_hand, &none),
            -60
        );
        assert_eq!(evaluate(&empty_hand, &some), evaluate(&empty_hand, &none));
    }

    /// Crazyhouse: each empty square from which a man in the opponent's
    /// hand would check the king, guarded by no man of the king's side,
    /// costs `safe_check_drops`.
    #[test]
    fn unguarded_checking_drop_squares_cost_per_square() {
        let text = |hand: &str| format!("6k1/5ppp/8/8/8/8/5PPP/6K1[{hand}] w - - 0 1");
        let weights = |safe_check_drops| Weights {
            safe_check_drops,
            king_danger_divisor: 0,
            ..Weights::default()
        };
        // A knight checks from e2, f3 and h3; the g2 pawn guards f3 and h3.
        // A queen checks from a1 to f1 and h1 (the king guards f1 and h1).
        // A pawn checks from f2 and h2, both occupied.
        for (hand, squares) in [("n", 1), ("q", 5), ("nq", 6), ("p", 0), ("", 0)] {
            let pos: Crazyhouse = fen::parse_position(&text(hand)).unwrap();
            let difference = evaluate(&pos, &weights(25)) - evaluate(&pos, &weights(0));
            assert_eq!(difference, -25 * squares, "{hand}");
        }
    }

    /// Crazyhouse: with a divisor, a king's positive danger grows by its
    /// square over the divisor; a sheltered king (danger below zero) gains
    /// nothing from it.
    #[test]
    fn king_danger_grows_by_its_square_over_the_divisor() {
        let pos: Crazyhouse =
            fen::parse_position("6k1/5ppp/8/8/8/8/5PPP/6K1[n] w - - 0 1").unwrap();
        let weights = |king_danger_divisor| Weights {
            king_danger_divisor,
            safe_check_drops: 0,
            ..Weights::default()
        };
        // White: holes f1 and h1 (2 × 30) less the shelter f2, g2, h2
        // (3 × 12) = 24; Black's king, with nothing in White's hand, is
        // sheltered (−36).
        let difference = evaluate(&pos, &weights(100)) - evaluate(&pos, &weights(0));
        assert_eq!(difference, -(24 * 24 / 100));
    }

    /// Crazyhouse: each attacked square next to the king costs
    /// `hand_pressure` per man in the opponent's hand, four at most.
    #[test]
    fn attacked_squares_by_the_king_cost_more_for_each_man_in_the_enemy_hand() {
        // The black queen on h3 attacks g2 and h2 (f1 and h1 are free).
        let text = |hand: &str| format!("6k1/8/8/8/8/7q/5PPP/5RK1[{hand}] w - - 0 1");
        let weights = |hand_pressure| Weights {
            hand_pressure,
            king_danger_divisor: 0,
            ..Weights::default()
        };
        for (hand, men) in [("n", 1), ("nbp", 3), ("nnbbpp", 4)] {
            let pos: Crazyhouse = fen::parse_position(&text(hand)).unwrap();
            let difference = evaluate(&pos, &weights(5)) - evaluate(&pos, &weights(0));
            assert_eq!(difference, -5 * 2 * men, "{hand}");
        }
    }
}
