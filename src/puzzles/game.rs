//! One game of the playing policy, replayed from its seed: the miner takes
//! its puzzles from it, and an export finds the move that led to a mined
//! puzzle by playing the same game again.

use super::{Rng, policy_move};
use crate::moves::Move;
use crate::position::Position;

/// The longest game played, in moves (sub-moves in Hit-and-Run).
pub const MAX_PLIES: usize = 240;

/// A game of the playing policy.
#[derive(Clone, Debug)]
pub struct PlayedGame<P> {
    /// Every position, the start first.
    pub history: Vec<P>,
    /// `moves[i]` leads from `history[i]` to `history[i + 1]`.
    pub moves: Vec<Move>,
    /// The plies at which a turn starts (0 first; Hit-and-Run turns have
    /// two sub-moves).
    pub turn_starts: Vec<usize>,
    /// Whether the game stopped at a position with no legal move that the
    /// rules do not call finished (the miner takes no puzzle from it).
    pub stalled: bool,
}

impl<P: Position> PlayedGame<P> {
    /// The game number `game` of the policy seeded `seed`, played until it
    /// ends or reaches [`MAX_PLIES`].
    pub fn play(seed: u64, game: u64) -> PlayedGame<P> {
        let mut rng = Rng::new(seed, game);
        let mut pos = P::start();
        let mut played = PlayedGame {
            history: vec![pos.clone()],
            moves: Vec::new(),
            turn_starts: vec![0],
            stalled: false,
        };
        while played.history.len() <= MAX_PLIES && pos.outcome().is_none() {
            let Some(m) = policy_move(&pos, &mut rng) else {
                played.stalled = true;
                break;
            };
            let mover = pos.turn();
            pos.play_unchecked(m);
            if pos.turn() != mover {
                played.turn_starts.push(played.history.len());
            }
            played.history.push(pos.clone());
            played.moves.push(m);
        }
        played
    }

    /// The turn that led to the position at turn start `ply`: the position
    /// it started from and its moves (one, or a Hit-and-Run turn's
    /// sub-moves); `None` at the start of the game.
    pub fn turn_before(&self, ply: usize) -> Option<(&P, &[Move])> {
        let at = self.turn_starts.iter().position(|&p| p == ply)?;
        let from = *self.turn_starts.get(at.checked_sub(1)?)?;
        Some((&self.history[from], &self.moves[from..ply]))
    }
}
