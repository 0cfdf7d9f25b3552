//! Perft benches, ransom side by side with shakmaty on the same positions.
//! Each bench asserts its node count, so a fast wrong generator fails here.
//!
//! Run: `cargo bench --bench perft`.

use ransom::Position;
use ransom::notation::fen;
use ransom::perft::perft;
use ransom::variants::{Antichess, Chess, Contact, Crazyhouse, HitAndRun, Hostage};
use shakmaty::CastlingMode;
use shakmaty::fen::Fen;

fn main() {
    divan::main();
}

const CRAZYHOUSE_MIDDLEGAME: &str =
    "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1";

#[divan::bench(sample_count = 10)]
fn chess_start_5_ransom() {
    assert_eq!(perft(&Chess::start(), 5), 4_865_609);
}

#[divan::bench(sample_count = 10)]
fn chess_start_5_shakmaty() {
    assert_eq!(shakmaty::perft(&shakmaty::Chess::default(), 5), 4_865_609);
}

#[divan::bench(sample_count = 10)]
fn antichess_start_5_ransom() {
    assert_eq!(perft(&Antichess::start(), 5), 2_732_672);
}

#[divan::bench(sample_count = 10)]
fn antichess_start_5_shakmaty() {
    let pos = shakmaty::variant::Antichess::default();
    assert_eq!(shakmaty::perft(&pos, 5), 2_732_672);
}

#[divan::bench(sample_count = 10)]
fn crazyhouse_middlegame_3_ransom() {
    let pos: Crazyhouse = fen::parse_position(CRAZYHOUSE_MIDDLEGAME).unwrap();
    assert_eq!(perft(&pos, 3), 58_057);
}

#[divan::bench(sample_count = 10)]
fn crazyhouse_middlegame_3_shakmaty() {
    let pos: shakmaty::variant::Crazyhouse = CRAZYHOUSE_MIDDLEGAME
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    assert_eq!(shakmaty::perft(&pos, 3), 58_057);
}

/// A middlegame (Kiwipete), for comparison with the Hostage middlegame below.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Kiwipete with a captured knight and bishop in prison and a pawn back in
/// each airfield; its counts are confirmed by the naive reference
/// (tests/data/hostage.perft).
const HOSTAGE_MIDDLEGAME: &str =
    "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/5Q2/1PPBBPPP/R3K2R[Pp#Nb] w KQkq - 0 1";

#[divan::bench(sample_count = 10)]
fn chess_kiwipete_4_ransom() {
    let pos: Chess = fen::parse_position(KIWIPETE).unwrap();
    assert_eq!(perft(&pos, 4), 4_085_603);
}

#[divan::bench(sample_count = 10)]
fn hostage_middlegame_3_ransom() {
    let pos: Hostage = fen::parse_position(HOSTAGE_MIDDLEGAME).unwrap();
    assert_eq!(perft(&pos, 3), 1_185_348);
}

/// Contact chess from the start (counts confirmed by the naive reference,
/// tests/data/contact.perft).
#[divan::bench(sample_count = 10)]
fn contact_start_4_ransom() {
    assert_eq!(perft(&Contact::start(), 4), 6_260_714);
}

/// Kiwipete's placement in Hit-and-Run chess, past both sides' single-move
/// first turns (fullmove 2): four sub-moves deep are White's two and
/// Black's two. The count is confirmed by the naive reference
/// (tests/data/hitandrun.perft); compare with `chess_kiwipete_4_ransom`.
const HITANDRUN_KIWIPETE: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 2";

#[divan::bench(sample_count = 10)]
fn hitandrun_kiwipete_4_ransom() {
    let pos: HitAndRun = fen::parse_position(HITANDRUN_KIWIPETE).unwrap();
    assert_eq!(perft(&pos, 4), 3_905_308);
}
