//! How large the engine's fixed-depth Losing-chess tree is with several
//! evaluation weight sets: the start position and the position after each
//! of White's 20 first moves, each searched to the same depth with a fresh
//! 16 MB table on one thread (node counts are deterministic there).
//!
//! ```sh
//! cargo run --release --example engine_tree -- --depth 7
//! ```
//!
//! Prints, per weight set, the total nodes, the median over the positions
//! and the geometric mean of its nodes over the hand weights' (docs/engine.md,
//! "Tree size"). The sets are the hand weights, the fitted ones and the
//! fitted ones with one group of terms changed, to show which terms the
//! tree size answers to.

use ransom::Position;
use ransom::search::engine::eval::{HAND_WEIGHTS, LOSING_TERMS, LosingWeights, Weights};
use ransom::search::engine::{Engine, Limits, SearchOptions};
use ransom::variants::Antichess;
use std::process::ExitCode;

/// The term of the side to move ([`ransom::search::engine::eval::LOSING_TERM_NAMES`]).
const SIDE_TO_MOVE: usize = 0;
/// The terms of own men under attack, by role, and those defended.
const ATTACKED: std::ops::Range<usize> = 19..26;

fn main() -> ExitCode {
    let mut depth = 7;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().map(|v| v.parse::<u32>())) {
            ("--depth", Some(Ok(d))) if (1..=20).contains(&d) => depth = d,
            _ => {
                eprintln!("usage: engine_tree [--depth N (1 to 20, default 7)]");
                return ExitCode::from(2);
            }
        }
    }
    let positions = positions();
    let tuned = Weights::default().losing;
    let sets: Vec<(&str, LosingWeights)> = vec![
        ("hand", HAND_WEIGHTS),
        ("fitted", tuned),
        (
            "fitted, no side-to-move term",
            with(tuned, |i| i == SIDE_TO_MOVE, |_| 0),
        ),
        (
            "fitted, no attacked terms",
            with(tuned, |i| ATTACKED.contains(&i), |_| 0),
        ),
        ("fitted, halved", with(tuned, |_| true, |w| w / 2)),
        (
            "fitted, rounded to 20",
            with(tuned, |_| true, |w| (w + 10).div_euclid(20) * 20),
        ),
        (
            "fitted, opening weights only",
            LosingWeights::flat(tuned.opening),
        ),
    ];
    let hand: Vec<u64> = positions
        .iter()
        .map(|p| nodes(p, depth, HAND_WEIGHTS))
        .collect();
    println!(
        "{} positions, depth {depth}\n\n| weights | total nodes | median | geometric mean vs hand |\n|---|---:|---:|---:|",
        positions.len()
    );
    for (name, weights) in sets {
        let counts: Vec<u64> = if weights == HAND_WEIGHTS {
            hand.clone()
        } else {
            positions.iter().map(|p| nodes(p, depth, weights)).collect()
        };
        let log_ratio: f64 = counts
            .iter()
            .zip(&hand)
            .map(|(&n, &h)| (n as f64 / h as f64).ln())
            .sum::<f64>()
            / counts.len() as f64;
        let mut sorted = counts.clone();
        sorted.sort_unstable();
        println!(
            "| {name} | {} | {} | {:.2} |",
            counts.iter().sum::<u64>(),
            sorted[sorted.len() / 2],
            log_ratio.exp()
        );
    }
    ExitCode::SUCCESS
}

/// The start position and the 20 after White's first moves.
fn positions() -> Vec<Antichess> {
    let start = Antichess::start();
    let mut all = vec![start.clone()];
    for mv in start.legal_moves() {
        let mut child = start.clone();
        child.play_unchecked(mv);
        all.push(child);
    }
    all
}

/// `weights` with the weights of the terms `which` picks (both sets)
/// changed by `change`.
fn with(
    weights: LosingWeights,
    which: impl Fn(usize) -> bool,
    change: impl Fn(i32) -> i32,
) -> LosingWeights {
    let apply = |set: [i32; LOSING_TERMS]| -> [i32; LOSING_TERMS] {
        std::array::from_fn(|i| if which(i) { change(set[i]) } else { set[i] })
    };
    LosingWeights {
        opening: apply(weights.opening),
        ending: apply(weights.ending),
    }
}

/// Nodes of a search of `pos` to `depth` with the Losing-chess `weights`.
fn nodes(pos: &Antichess, depth: u32, weights: LosingWeights) -> u64 {
    let engine = Engine::with_weights(
        16 << 20,
        Weights {
            losing: weights,
            ..Weights::default()
        },
    );
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine
        .search(pos, &[], &limits, &SearchOptions::default(), &mut |_| {})
        .info
        .nodes
}
