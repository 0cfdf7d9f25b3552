//! Engine benches: a fixed-depth search from each variant family's start
//! position (one thread, a fresh 16 MB table), asserting the node count
//! (the search is deterministic without a time limit). Nodes per second are
//! the node count over the median time.
//!
//! Run: `cargo bench --bench engine`.

use ransom::Position;
use ransom::search::engine::eval::{HAND_WEIGHTS, Weights};
use ransom::search::engine::{Engine, Limits, SearchOptions};
use ransom::variants::{Antichess, Chess, Contact, Crazyhouse, HitAndRun, Hostage};

fn main() {
    divan::main();
}

/// Searches the start position of `P` to `depth` plies; returns the nodes.
fn search_start<P: Position>(depth: u32) -> u64 {
    search_start_with::<P>(depth, Weights::default())
}

/// [`search_start`] with other evaluation weights.
fn search_start_with<P: Position>(depth: u32, weights: Weights) -> u64 {
    let engine = Engine::with_weights(16 << 20, weights);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let report = engine.search(
        &P::start(),
        &[],
        &limits,
        &SearchOptions::default(),
        &mut |_| {},
    );
    report.info.nodes
}

#[divan::bench(sample_count = 5)]
fn chess_depth_7() {
    assert_eq!(search_start::<Chess>(7), CHESS_7);
}

/// The fitted Losing-chess weights (docs/engine.md) with quiescence of
/// at most 8 plies that reads the table (depth 9 took 26,326,467 nodes
/// when quiescence followed captures 24 plies without the table).
#[divan::bench(sample_count = 5)]
fn antichess_depth_9() {
    assert_eq!(search_start::<Antichess>(9), ANTICHESS_9);
}

/// The hand-set Losing-chess weights, the bench's figure before the fit.
#[divan::bench(sample_count = 5)]
fn antichess_hand_weights_depth_9() {
    let hand = Weights {
        losing: HAND_WEIGHTS,
        ..Weights::default()
    };
    assert_eq!(search_start_with::<Antichess>(9, hand), ANTICHESS_HAND_9);
}

/// With the king-zone holes, safe check drops and the growing king danger
/// (docs/engine.md; 41,007 nodes before the holes, 35,311 before the other
/// two).
#[divan::bench(sample_count = 5)]
fn crazyhouse_depth_6() {
    assert_eq!(search_start::<Crazyhouse>(6), CRAZYHOUSE_6);
}

#[divan::bench(sample_count = 5)]
fn hostage_depth_6() {
    assert_eq!(search_start::<Hostage>(6), HOSTAGE_6);
}

#[divan::bench(sample_count = 5)]
fn contact_depth_5() {
    assert_eq!(search_start::<Contact>(5), CONTACT_5);
}

#[divan::bench(sample_count = 5)]
fn hitandrun_depth_6() {
    assert_eq!(search_start::<HitAndRun>(6), HITANDRUN_6);
}

const CHESS_7: u64 = 58_787;
const ANTICHESS_9: u64 = 233_866;
const ANTICHESS_HAND_9: u64 = 223_109;
const CRAZYHOUSE_6: u64 = 36_384;
const HOSTAGE_6: u64 = 37_678;
const CONTACT_5: u64 = 27_594;
const HITANDRUN_6: u64 = 128_044;
