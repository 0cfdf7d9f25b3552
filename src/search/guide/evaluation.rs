//! Evaluation-based initial numbers: the engine's static evaluation of a
//! fresh position, from the attacker's side, mapped through a smooth step
//! (tanh) onto factors for the proof and disproof numbers.

use crate::board::Color;
use crate::position::Position;
use crate::search::engine::eval::{Weights, evaluate};

/// The evaluation (centipawns, attacker's side) at which the step is
/// three quarters of the way up (tanh(1) ≈ 0.76).
pub const EVAL_SCALE: i32 = 50;

/// How far the factors spread: each lies in `1..=1 + 2 * EVAL_SPREAD`.
pub const EVAL_SPREAD: u32 = 2;

/// The factors `(proof, disproof)` for `pos` with `scale` and `spread`:
/// `1 + spread · (1 ∓ tanh(score / scale))`, rounded, where `score` is the
/// evaluation for `attacker`. A position the attacker stands well in gets
/// a proof factor near 1 and a disproof factor near `1 + 2 · spread`.
pub fn evaluation_factors_with<P: Position>(
    pos: &P,
    attacker: Color,
    scale: i32,
    spread: u32,
) -> (u64, u64) {
    let score = evaluate(pos, &Weights::default());
    let score = if pos.turn() == attacker {
        score
    } else {
        -score
    };
    let t = (f64::from(score) / f64::from(scale.max(1))).tanh();
    let spread = f64::from(spread);
    let factor = |x: f64| 1 + (spread * x).round() as u64;
    (factor(1.0 - t), factor(1.0 + t))
}

/// [`evaluation_factors_with`] at the default scale and spread.
pub fn evaluation_factors<P: Position>(pos: &P, attacker: Color) -> (u64, u64) {
    evaluation_factors_with(pos, attacker, EVAL_SCALE, EVAL_SPREAD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::Antichess;

    #[test]
    fn the_side_with_fewer_men_gets_the_smaller_proof_factor() {
        // White has one man against Black's eight (Losing chess: fewer is better).
        let pos: Antichess = fen::parse_position("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let (pn, dn) = evaluation_factors(&pos, Color::White);
        assert!(pn < dn, "{pn} {dn}");
        let (pn_black, dn_black) = evaluation_factors(&pos, Color::Black);
        assert_eq!((pn_black, dn_black), (dn, pn));
        assert!((1..=1 + 2 * u64::from(EVAL_SPREAD)).contains(&pn));
    }
}
