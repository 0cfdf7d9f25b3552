//! Mate-solver benches: whole suites solved with the shortest length
//! certified, and single hard positions. Each asserts every length and
//! the total node count (the search is deterministic without a time limit).
//!
//! Run: `cargo bench --bench mate`. Per-position medians, as compared with
//! other programs: `ransom mate -v crazyhouse --epd tests/data/mate/crazyhouse_mates.tsv`.

use ransom::Position;
use ransom::notation::{fen, parse_move};
use ransom::search::Budget;
use ransom::search::mate::{MateOptions, MateStatus, read_suite, solve_mate};
use ransom::variants::{Chess, Crazyhouse};

fn main() {
    divan::main();
}

/// Solves every case of `file` (under tests/data/mate) with a stated
/// length in `lengths`, with a 256 MB table; returns the total nodes.
fn solve_suite<P: Position>(file: &str, lengths: std::ops::RangeInclusive<i32>) -> u64 {
    solve_suite_with::<P>(file, lengths, 256)
}

/// [`solve_suite`] with a table of `hash_mb` MB.
fn solve_suite_with<P: Position>(
    file: &str,
    lengths: std::ops::RangeInclusive<i32>,
    hash_mb: usize,
) -> u64 {
    let path = format!("{}/tests/data/mate/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut nodes = 0;
    for case in read_suite(&text)
        .unwrap()
        .iter()
        .filter(|c| lengths.contains(&c.expected))
    {
        let mut pos: P = fen::parse_position(&case.fen).unwrap();
        for text in &case.moves {
            let m = parse_move(&pos, text).unwrap();
            pos.play_unchecked(m);
        }
        let stated = case.expected as u16;
        let options = MateOptions {
            max: stated,
            all_keys: false,
            budget: Budget {
                hash_bytes: hash_mb << 20,
                ..Budget::default()
            },
            threads: 1,
        };
        let report = solve_mate(&pos, &options, &mut |_| {});
        assert_eq!(report.status, MateStatus::Mate, "{}", case.id);
        assert_eq!(report.length, Some(stated), "{}", case.id);
        assert!(report.shortest, "{}", case.id);
        nodes += report.nodes;
    }
    nodes
}

/// The 37 crazyhouse mates in 2.
#[divan::bench(sample_count = 10)]
fn crazyhouse_mates_in_2() {
    assert_eq!(
        solve_suite::<Crazyhouse>("crazyhouse_mates.tsv", 2..=2),
        1_612
    );
}

/// The 33 crazyhouse mates in 3.
#[divan::bench(sample_count = 5)]
fn crazyhouse_mates_in_3() {
    assert_eq!(
        solve_suite::<Crazyhouse>("crazyhouse_mates.tsv", 3..=3),
        21_172
    );
}

/// The 13 chess mates in 1–3 of mates2000.
#[divan::bench(sample_count = 10)]
fn chess_mates_in_1_to_3() {
    assert_eq!(solve_suite::<Chess>("mates2000.epd", 1..=3), 6_787);
}

/// The 34 chess mates in 5 of mates2000.
#[divan::bench(sample_count = 3)]
fn chess_mates_in_5() {
    assert_eq!(solve_suite::<Chess>("mates2000.epd", 5..=5), 2_855_969);
}

/// The two crazyhouse mates in 8 (i148, i172), shortness certified on one
/// thread with the command line's default 512 MB table (what
/// `ransom mate -v crazyhouse --fen ... --max 8` does).
#[divan::bench(sample_count = 1)]
fn crazyhouse_mates_in_8() {
    assert_eq!(
        solve_suite_with::<Crazyhouse>("crazyhouse_mates.tsv", 8..=8, 512),
        25_447_072
    );
}
