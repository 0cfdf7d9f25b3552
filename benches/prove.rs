//! Prover benches: the Losing-chess refutations of the acceptance list, and
//! the prover's node rate on a fixed budget. Each asserts its verdict and
//! node count (the search is deterministic).
//!
//! Run: `cargo bench --bench prove`.

use ransom::Position;
use ransom::notation::parse_move;
use ransom::search::{Budget, Verdict, prove};
use ransom::variants::Antichess;

fn main() {
    divan::main();
}

fn after(moves: &[&str]) -> Antichess {
    let mut pos = Antichess::start();
    for text in moves {
        let m = parse_move(&pos, text).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

fn run(moves: &[&str], verdict: Verdict, nodes: u64) {
    let pos = after(moves);
    let report = prove(&pos, &Budget::default(), &mut |_| {});
    assert_eq!(report.verdict, verdict, "{moves:?}");
    assert_eq!(report.nodes, nodes, "{moves:?}");
}

#[divan::bench(sample_count = 10)]
fn e4_loses() {
    run(&["e4"], Verdict::Win, 4778);
}

#[divan::bench(sample_count = 10)]
fn d4_loses() {
    run(&["d4"], Verdict::Win, 9337);
}

#[divan::bench(sample_count = 10)]
fn d3_loses() {
    run(&["d3"], Verdict::Win, 2427);
}

#[divan::bench(sample_count = 10)]
fn d3_e5_wins_for_white() {
    run(&["d3", "e5"], Verdict::Win, 142);
}

/// Node rate: 200,000 expansions of the unsolved 1.Nf3 search.
#[divan::bench(sample_count = 5)]
fn nf3_200k_nodes() {
    let pos = after(&["Nf3"]);
    let budget = Budget {
        max_nodes: 200_000,
        ..Budget::default()
    };
    let report = prove(&pos, &budget, &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
    assert_eq!(report.nodes, 200_000);
}

/// The two-level search on one thread, in-memory store of `store_mb` MB
/// (1024 is `prove`'s default `--store-memory`: its index is a sparse table
/// that a short search barely touches): 1.b4 c5 2.bxc5 h5 settled by leaf
/// searches of 1,000 nodes (docs/prover.md).
#[divan::bench(sample_count = 5, args = [64, 1024])]
fn two_level_b4_c5_bxc5_h5(store_mb: usize) {
    use ransom::search::scale::{ScaleConfig, prove_at_scale};
    use ransom::solved::SolvedStore;
    let pos = after(&["b4", "c5", "bxc5", "h5"]);
    let store = SolvedStore::in_memory(ransom::Variant::Antichess, store_mb << 20);
    let config = ScaleConfig {
        leaf_nodes: 1000,
        ..ScaleConfig::default()
    };
    let scale = prove_at_scale(&pos, &store, None, &config, &mut |_| {}).unwrap();
    assert_eq!(scale.report.verdict, Verdict::Win);
    assert_eq!(scale.report.nodes, 109_423);
}

/// Node rate in royal variants (docs/prover.md "Royal variants"): 20,000
/// expansions from Contact chess's start position.
#[divan::bench(sample_count = 5)]
fn contact_start_20k_nodes() {
    royal_start::<ransom::variants::Contact>(20_000);
}

/// 100,000 expansions from standard chess's start position.
#[divan::bench(sample_count = 5)]
fn chess_start_100k_nodes() {
    royal_start::<ransom::variants::Chess>(100_000);
}

fn royal_start<P: Position>(nodes: u64) {
    let budget = Budget {
        max_nodes: nodes,
        ..Budget::default()
    };
    let report = prove(&P::start(), &budget, &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
    assert_eq!(report.nodes, nodes);
}
