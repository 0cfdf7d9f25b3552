//! `Position::legal_move_count` counts what `legal_moves` lists, at every
//! node of shallow move trees from the perft suites' positions (pins, en
//! passant beside a king, castling through attacks, promotions, drops,
//! compulsory captures). Perft's last ply relies on it, so the suites in
//! tests/perft_suites.rs check it again through their totals.

mod common;

use common::{own_data, read_perft_suite};
use ransom::Position;
use ransom::notation::fen;
use ransom::variants::{
    Antichess, Chess, Crazyhouse, Kamikaze2, LosingQpromo, LosingRoyal, Suicide,
};

/// Compares the count with the list at every node `depth` plies deep.
/// Returns the number of nodes compared.
fn walk<P: Position>(pos: &P, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    assert_eq!(pos.legal_move_count(), moves.len(), "{}", fen::write(pos));
    if depth == 0 {
        return 1;
    }
    1 + moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            walk(&child, depth - 1)
        })
        .sum::<u64>()
}

/// Walks every position of a perft suite `depth` plies deep.
fn walk_suite<P: Position>(file: &str, depth: u32) -> u64 {
    read_perft_suite(&own_data(file))
        .iter()
        .map(|case| {
            let pos: P = fen::parse_position(&case.fen)
                .unwrap_or_else(|e| panic!("{}: {e} ({})", case.id, case.fen));
            walk(&pos, depth)
        })
        .sum()
}

/// RULES S (check evasions, pins, en passant, castling): the tricky suites.
#[test]
fn chess_counts_equal_the_lists() {
    let nodes = walk_suite::<Chess>("perft/shakmaty_tricky.perft", 2)
        + walk_suite::<Chess>("perft/python-chess_tricky.perft", 2);
    assert!(nodes > 20_000, "only {nodes} nodes compared");
}

/// RULES A1, A2 (compulsory captures), A4 (promotion to a king).
#[test]
fn antichess_counts_equal_the_lists() {
    let nodes =
        walk_suite::<Antichess>("perft/shakmaty_antichess.perft", 3) + walk(&Antichess::start(), 4);
    assert!(nodes > 100_000, "only {nodes} nodes compared");
}

/// RULES A7, A8: the other Losing-chess rule sets share the count (queen
/// promotion only; castling in `kamikaze2` falls back to the list).
#[test]
fn other_losing_rule_sets_count_equal_the_lists() {
    let fens = [
        "8/1P6/8/8/8/8/6p1/8 w - - 0 1",
        "r3k2r/1p6/8/2pP4/8/8/6P1/R3K2R w - c6 0 1",
    ];
    for text in fens {
        walk(&fen::parse_position::<Suicide>(text).unwrap(), 3);
        walk(&fen::parse_position::<LosingQpromo>(text).unwrap(), 3);
    }
    walk(&Kamikaze2::start(), 3);
    walk(&LosingRoyal::start(), 3);
}

/// RULES Z (drops, also to block a check).
#[test]
fn crazyhouse_counts_equal_the_lists() {
    let nodes = walk_suite::<Crazyhouse>("perft/shakmaty_crazyhouse.perft", 2)
        + walk_suite::<Crazyhouse>("perft/python-chess_crazyhouse.perft", 2);
    assert!(nodes > 10_000, "only {nodes} nodes compared");
}
