//! Games between players that the engine tests set against each other:
//! the engine at a fixed depth or node count, and a random mover.

use ransom::search::engine::eval::Weights;
use ransom::search::engine::{Engine, Limits, LosingQuiescence, SearchOptions, Selectivity};
use ransom::{Color, Position};

/// Who chooses the moves for one side (two per game: the weights' size
/// does not matter).
#[derive(Clone, Copy, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Player {
    /// A uniformly random legal move (seeded, so games repeat).
    Random,
    /// The engine searching this many plies.
    Depth(u32),
    /// The engine searching this many nodes.
    Nodes(u64),
    /// The engine searching this many nodes with other weights.
    NodesWith(u64, Weights),
    /// The engine searching this many nodes with another Losing-chess
    /// quiescence.
    NodesQuiescence(u64, LosingQuiescence),
    /// The engine searching this many nodes with other pruning.
    NodesSelective(u64, Selectivity),
}

impl Player {
    fn engine(self) -> Engine {
        match self {
            Player::NodesWith(_, weights) => Engine::with_weights(8 << 20, weights),
            Player::NodesQuiescence(_, quiescence) => {
                Engine::new(8 << 20).with_losing_quiescence(quiescence)
            }
            Player::NodesSelective(_, pruning) => Engine::new(8 << 20).with_selectivity(pruning),
            _ => Engine::new(8 << 20),
        }
    }
}

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    WhiteWins,
    BlackWins,
    Draw,
}

/// Games longer than this many sub-moves are adjudicated as draws.
pub const MAX_PLIES: usize = 400;

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Plays one game from `start`: `random_plies` random sub-moves first
/// (the opening, for variety), then `white` against `black`. A third
/// repetition of a turn-start position, or [`MAX_PLIES`], is a draw.
pub fn play<P: Position>(
    start: &P,
    white: Player,
    black: Player,
    random_plies: usize,
    seed: u64,
) -> Result {
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    let mut seen: Vec<u64> = Vec::new();
    let engines = [white.engine(), black.engine()];
    for ply in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return match outcome.winner {
                Some(Color::White) => Result::WhiteWins,
                Some(Color::Black) => Result::BlackWins,
                None => Result::Draw,
            };
        }
        if !pos.is_mid_turn() {
            let hash = pos.zobrist();
            if seen.iter().filter(|&&h| h == hash).count() >= 2 {
                return Result::Draw;
            }
            seen.push(hash);
        }
        let player = if ply < random_plies {
            Player::Random
        } else if pos.turn() == Color::White {
            white
        } else {
            black
        };
        let engine = &engines[pos.turn().index()];
        let limits = match player {
            Player::Random => None,
            Player::Depth(d) => Some(Limits {
                depth: Some(d),
                ..Limits::default()
            }),
            Player::Nodes(n)
            | Player::NodesWith(n, _)
            | Player::NodesQuiescence(n, _)
            | Player::NodesSelective(n, _) => Some(Limits {
                nodes: Some(n),
                ..Limits::default()
            }),
        };
        let mv = match limits {
            None => moves[rng.below(moves.len())],
            Some(limits) => {
                let report = engine.search(
                    &pos,
                    &seen[..seen.len().saturating_sub(1)],
                    &limits,
                    &SearchOptions::default(),
                    &mut |_| {},
                );
                report.best.expect("a legal move while the game goes on")
            }
        };
        assert!(
            moves.contains(&mv),
            "the engine chose an illegal move {mv:?}"
        );
        pos.play_unchecked(mv);
    }
    Result::Draw
}

/// Points of the player who had White in `result` (1, ½ or 0).
pub fn white_points(result: Result) -> f64 {
    match result {
        Result::WhiteWins => 1.0,
        Result::Draw => 0.5,
        Result::BlackWins => 0.0,
    }
}

/// Plays `pairs` pairs of games, `a` against `b` with colours swapped in
/// each pair (same opening), and returns `a`'s mean score and the 95%
/// error bar of that mean.
pub fn match_score<P: Position>(
    a: Player,
    b: Player,
    pairs: usize,
    random_plies: usize,
) -> (f64, f64) {
    use rayon::prelude::*;
    let start = P::start();
    let points: Vec<f64> = (0..pairs)
        .into_par_iter()
        .flat_map_iter(|pair| {
            let seed = pair as u64 + 1;
            [
                white_points(play(&start, a, b, random_plies, seed)),
                1.0 - white_points(play(&start, b, a, random_plies, seed)),
            ]
        })
        .collect();
    mean_and_error(&points)
}

/// The mean and 1.96 standard errors of `points`.
pub fn mean_and_error(points: &[f64]) -> (f64, f64) {
    let n = points.len() as f64;
    let mean = points.iter().sum::<f64>() / n;
    let variance = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (variance / n).sqrt())
}
