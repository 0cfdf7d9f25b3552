//! Perft against published suites (shakmaty, python-chess, Fairy-Stockfish):
//! RULES S, A and Z as counted by independent implementations.
//!
//! CI runs every depth whose node count is at most `CAP`; the ignored tests
//! run everything (`cargo test --release --test perft_suites -- --ignored`).

mod common;

use common::{own_data, read_perft_suite};
use ransom::notation::fen;
use ransom::perft::perft;
use ransom::variants::{
    Antichess, Chess, Contact, Crazyhouse, HitAndRun, HitAndRunSimultaneous, Hostage, Kamikaze,
    Kamikaze2, Losers, LosingQpromo, LosingRoyal, LosingRoyalMated,
};
use ransom::{Position, Variant};

const CAP: u64 = 2_000_000;

fn run_suite<P: Position>(path: &std::path::Path, cap: u64) -> usize {
    let mut checked = 0;
    for case in read_perft_suite(path) {
        let pos: P = fen::parse_position(&case.fen)
            .unwrap_or_else(|e| panic!("{}: {} ({})", case.id, e, case.fen));
        for &(depth, nodes) in &case.depths {
            if nodes > cap {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{} depth {depth}: {}",
                case.id,
                case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn chess_tricky_suites() {
    assert!(run_suite::<Chess>(&own_data("perft/shakmaty_tricky.perft"), CAP) > 50);
    assert!(run_suite::<Chess>(&own_data("perft/python-chess_tricky.perft"), CAP) > 20);
}

#[test]
fn antichess_suite() {
    assert!(run_suite::<Antichess>(&own_data("perft/shakmaty_antichess.perft"), CAP) > 10);
}

#[test]
fn crazyhouse_suites() {
    assert!(run_suite::<Crazyhouse>(&own_data("perft/shakmaty_crazyhouse.perft"), CAP) > 10);
    assert!(run_suite::<Crazyhouse>(&own_data("perft/python-chess_crazyhouse.perft"), CAP) > 5);
}

/// The random suite (6,838 positions) with depths up to 20,000 nodes each.
#[test]
fn chess_random_suite_capped() {
    let checked = run_suite::<Chess>(&own_data("perft/shakmaty_random.perft"), 20_000);
    assert!(checked > 15_000, "only {checked} counts checked");
}

#[test]
fn fairy_stockfish_selected_capped() {
    fairy_stockfish(CAP);
}

fn fairy_stockfish(cap: u64) {
    let text =
        std::fs::read_to_string(own_data("perft/fairy-stockfish_perft_selected.tsv")).unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let variant: Variant = match cols[0].parse() {
            Ok(v) if cols[0] != "giveaway" => v,
            _ => continue,
        };
        let depth: u32 = cols[2].parse().unwrap();
        let nodes: u64 = cols[3].parse().unwrap();
        if nodes > cap {
            continue;
        }
        let fen_text = if cols[1] == "startpos" {
            None
        } else {
            Some(cols[1])
        };
        let got = match variant {
            Variant::Chess => count::<Chess>(fen_text, depth),
            Variant::Antichess | Variant::Suicide => count::<Antichess>(fen_text, depth),
            Variant::Crazyhouse => count::<Crazyhouse>(fen_text, depth),
            Variant::Hostage => count::<Hostage>(fen_text, depth),
            Variant::Contact => count::<Contact>(fen_text, depth),
            Variant::HitAndRun => count::<HitAndRun>(fen_text, depth),
            Variant::LosingQpromo => count::<LosingQpromo>(fen_text, depth),
            Variant::LosingRoyal => count::<LosingRoyal>(fen_text, depth),
            Variant::LosingRoyalMated => count::<LosingRoyalMated>(fen_text, depth),
            Variant::Losers => count::<Losers>(fen_text, depth),
            Variant::Kamikaze => count::<Kamikaze>(fen_text, depth),
            Variant::Kamikaze2 => count::<Kamikaze2>(fen_text, depth),
            Variant::HitAndRunSimultaneous => count::<HitAndRunSimultaneous>(fen_text, depth),
        };
        assert_eq!(got, nodes, "{line}");
        checked += 1;
    }
    assert!(checked >= 3);
}

fn count<P: Position>(fen_text: Option<&str>, depth: u32) -> u64 {
    let pos = match fen_text {
        Some(text) => fen::parse_position::<P>(text).unwrap(),
        None => P::start(),
    };
    perft(&pos, depth)
}

#[test]
#[ignore = "long: full suites and deep start-position counts"]
fn full_suites() {
    run_suite::<Chess>(&own_data("perft/shakmaty_tricky.perft"), u64::MAX);
    run_suite::<Chess>(&own_data("perft/python-chess_tricky.perft"), u64::MAX);
    run_suite::<Antichess>(&own_data("perft/shakmaty_antichess.perft"), u64::MAX);
    run_suite::<Crazyhouse>(&own_data("perft/shakmaty_crazyhouse.perft"), u64::MAX);
    run_suite::<Crazyhouse>(&own_data("perft/python-chess_crazyhouse.perft"), u64::MAX);
    fairy_stockfish(u64::MAX);
}

/// Every count of the random suite up to depth 5 (1.3e11 nodes; positions
/// run in parallel). Depth 6 would be 4.2e12 nodes, hours on two cores.
#[test]
#[ignore = "long: 6,838 positions to depth 5"]
fn full_random_suite() {
    use rayon::prelude::*;
    let cases = read_perft_suite(&own_data("perft/shakmaty_random.perft"));
    cases.par_iter().for_each(|case| {
        let pos: Chess = fen::parse_position(&case.fen).unwrap();
        for &(depth, nodes) in case.depths.iter().filter(|d| d.0 <= 5) {
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
        }
    });
}

#[test]
#[ignore = "long: start position perft 6"]
fn start_position_perft_6() {
    assert_eq!(perft(&Chess::start(), 6), 119_060_324);
    assert_eq!(perft(&Antichess::start(), 6), 46_264_162);
}
