//! The mate solver (issue: `ransom mate`): exact lengths on the outside
//! suites, shortness certified, "no mate in ≤ N" right, solutions checked by
//! the verifier and tampered ones rejected, and agreement with a naive
//! full-width reference written here.

mod common;

use ransom::notation::{fen, parse_move};
use ransom::search::Budget;
use ransom::search::mate::{
    MateOptions, MateReport, MateStatus, read_suite, solve_mate, verify_mate,
};
use ransom::variants::{Chess, Contact, Crazyhouse, HitAndRun, Hostage};
use ransom::{Color, Position};

fn options(max: u16) -> MateOptions {
    MateOptions {
        max,
        all_keys: false,
        budget: Budget {
            max_nodes: 50_000_000,
            max_time: None,
            hash_bytes: 256 << 20,
            stop: None,
        },
        threads: 1,
    }
}

/// The FEN of the first case of mates2000 with a mate in `n`.
fn suite_mate_in(n: i32) -> String {
    let path = common::own_data("mate/mates2000.epd");
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    cases.into_iter().find(|c| c.expected == n).unwrap().fen
}

/// The position after `moves` from `fen_text`.
fn after<P: Position>(fen_text: &str, moves: &[&str]) -> String {
    let mut pos: P = fen::parse_position(fen_text).unwrap();
    for text in moves {
        let m = parse_move(&pos, text).unwrap();
        pos.play_unchecked(m);
    }
    fen::write(&pos)
}

/// The crazyhouse mates longer than 4 moves of the shared suite: id, the
/// position after the listed moves, the stated length.
fn long_crazyhouse_mates() -> Vec<(String, Crazyhouse, u16)> {
    let path = common::own_data("mate/crazyhouse_mates.tsv");
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    cases
        .iter()
        .filter(|c| c.expected > 4)
        .map(|case| {
            let moves: Vec<&str> = case.moves.iter().map(String::as_str).collect();
            let fen_text = after::<Crazyhouse>(&case.fen, &moves);
            let pos = fen::parse_position(&fen_text).unwrap();
            (case.id.clone(), pos, case.expected as u16)
        })
        .collect()
}

fn solve<P: Position>(fen_text: &str, max: u16) -> (P, MateReport) {
    let pos: P = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    let report = solve_mate(&pos, &options(max), &mut |_| {});
    (pos, report)
}

/// Solves every case of a suite whose stated length passes `keep`, with
/// the stated length as the bound; returns the disagreements.
fn suite_failures<P: Position>(file: &str, keep: impl Fn(i32) -> bool) -> (usize, Vec<String>) {
    let path = common::own_data(file);
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases.iter().filter(|c| c.expected > 0 && keep(c.expected)) {
        count += 1;
        let mut pos: P = fen::parse_position(&case.fen).unwrap();
        for text in &case.moves {
            let m = parse_move(&pos, text).unwrap();
            pos.play_unchecked(m);
        }
        let stated = case.expected as u16;
        let report = solve_mate(&pos, &options(stated), &mut |_| {});
        if report.status != MateStatus::Mate || report.length != Some(stated) || !report.shortest {
            failures.push(format!(
                "{} (line {}): stated {stated}, got {:?} {:?} shortest={} notes {:?}",
                case.id, case.line, report.status, report.length, report.shortest, report.notes
            ));
        }
    }
    (count, failures)
}

#[test]
fn chess_mates2000_up_to_five_have_exactly_the_stated_length() {
    let (count, failures) = suite_failures::<Chess>("mate/mates2000.epd", |n| n <= 5);
    assert_eq!(
        count, 69,
        "positions with a mate in ≤ 5 for the side to move"
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn crazyhouse_mates_up_to_four_have_exactly_the_stated_length() {
    let (count, failures) = suite_failures::<Crazyhouse>("mate/crazyhouse_mates.tsv", |n| n <= 4);
    assert_eq!(count, 71);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The three long crazyhouse mates (7 and 8 moves): found with the stated
/// length and verified within a 60 s budget each (the shortness of i148
/// and i172 is proved within it too; e7_01's needs more time and a larger
/// table: `crazyhouse_long_mates_are_proved_the_shortest` requires all
/// three).
/// `cargo test --release --test mate -- --ignored crazyhouse_long`
#[test]
#[ignore]
fn crazyhouse_long_mates_are_found_with_the_stated_length() {
    for (id, pos, stated) in long_crazyhouse_mates() {
        let mut opts = options(stated);
        opts.budget.max_time = Some(std::time::Duration::from_secs(60));
        opts.budget.max_nodes = u64::MAX;
        let report = solve_mate(&pos, &opts, &mut |_| {});
        assert_eq!(report.status, MateStatus::Mate, "{id}: {:?}", report.notes);
        assert!(report.length.unwrap() <= stated, "{id}");
        eprintln!(
            "{id}: mate in {:?}, shortest proved: {}, {} nodes, {:?}",
            report.length, report.shortest, report.nodes, report.elapsed
        );
    }
}

/// The three long crazyhouse mates (e7_01 in 7, i148 and i172 in 8):
/// found, verified and proved the shortest (no mate one move shorter),
/// with a node budget and the CLI's default table size. About 74 M, 10 M
/// and 22 M nodes, under two minutes in all (docs/mate.md).
/// `cargo test --release --test mate -- --ignored crazyhouse_long_mates_are_proved`
#[test]
#[ignore]
fn crazyhouse_long_mates_are_proved_the_shortest() {
    let mut checked = 0;
    for (id, pos, stated) in long_crazyhouse_mates() {
        let mut opts = options(stated);
        opts.budget.max_nodes = 300_000_000;
        opts.budget.hash_bytes = 512 << 20;
        let report = solve_mate(&pos, &opts, &mut |_| {});
        assert_eq!(
            report.status,
            MateStatus::Mate,
            "{}: {:?}",
            id,
            report.notes
        );
        assert_eq!(report.length, Some(stated), "{}", id);
        assert!(report.shortest, "{}: {:?}", id, report.notes);
        eprintln!(
            "{}: shortest mate in {stated} proved, {} nodes, {:?}",
            id, report.nodes, report.elapsed
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn no_mate_within_n_is_proved_where_the_shortest_mate_is_n_plus_one() {
    let path = common::own_data("mate/mates2000.epd");
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut checked = 0;
    for case in cases.iter().filter(|c| (2..=4).contains(&c.expected)) {
        let below = case.expected as u16 - 1;
        let (_, report) = solve::<Chess>(&case.fen, below);
        assert_eq!(
            report.status,
            MateStatus::NoMate,
            "{}: {:?}",
            case.id,
            report.notes
        );
        assert_eq!(report.no_mate_within, Some(below));
        checked += 1;
    }
    assert_eq!(checked, 34);
}

/// Crazyhouse, where guessed initial numbers and the direct test of the
/// last two attacker moves do the work: for every mate in 3 and 4 of the
/// suite, no mate within one move less is proved (a wrong disproof here
/// would make a longer mate look the shortest).
#[test]
fn crazyhouse_no_mate_within_n_is_proved_where_the_shortest_mate_is_n_plus_one() {
    let path = common::own_data("mate/crazyhouse_mates.tsv");
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut checked = 0;
    for case in cases.iter().filter(|c| (3..=4).contains(&c.expected)) {
        let below = case.expected as u16 - 1;
        let pos = after::<Crazyhouse>(
            &case.fen,
            &case.moves.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let (_, report) = solve::<Crazyhouse>(&pos, below);
        assert_eq!(
            report.status,
            MateStatus::NoMate,
            "{}: {:?}",
            case.id,
            report.notes
        );
        assert_eq!(report.no_mate_within, Some(below), "{}", case.id);
        checked += 1;
    }
    assert_eq!(checked, CRAZYHOUSE_MATES_IN_3_AND_4);
}

/// Mates in 3 and 4 in `crazyhouse_mates.tsv`.
const CRAZYHOUSE_MATES_IN_3_AND_4: usize = 34;

/// Naive full-width "does the attacker mate within `moves` of his moves".
fn naive_mates<P: Position>(pos: &P, attacker: Color, moves: u16) -> bool {
    let legal = pos.legal_moves();
    if let Some(outcome) = pos.outcome_given(&legal) {
        return outcome.winner == Some(attacker);
    }
    if moves == 0 {
        return false;
    }
    let mut children = legal.iter().map(|&m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let left = if pos.turn() == attacker && child.turn() != attacker {
            moves - 1
        } else {
            moves
        };
        (child, left)
    });
    if pos.turn() == attacker {
        children.any(|(child, left)| naive_mates(&child, attacker, left))
    } else {
        children.all(|(child, left)| naive_mates(&child, attacker, left))
    }
}

fn naive_shortest<P: Position>(pos: &P, max: u16) -> Option<u16> {
    (1..=max).find(|&n| naive_mates(pos, pos.turn(), n))
}

/// Positions one or two plies away from suite mates, where mates of
/// several lengths and none at all occur.
fn nearby_positions<P: Position>(fens: &[&str]) -> Vec<P> {
    let mut out = Vec::new();
    for text in fens {
        let pos: P = fen::parse_position(text).unwrap();
        out.push(pos.clone());
        for (i, &m) in pos.legal_moves().iter().enumerate() {
            if i % 5 != 0 {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if child.outcome().is_none() {
                out.push(child.clone());
                if let Some(&reply) = child.legal_moves().first() {
                    let mut grandchild = child;
                    grandchild.play_unchecked(reply);
                    if grandchild.outcome().is_none() {
                        out.push(grandchild);
                    }
                }
            }
        }
    }
    out
}

fn agree_with_naive<P: Position>(positions: &[P], max: u16) -> usize {
    let mut mates = 0;
    for pos in positions {
        let report = solve_mate(pos, &options(max), &mut |_| {});
        let expected = naive_shortest(pos, max);
        let text = fen::write(pos);
        match expected {
            Some(n) => {
                mates += 1;
                assert_eq!(
                    report.status,
                    MateStatus::Mate,
                    "{text}: {:?}",
                    report.notes
                );
                assert_eq!(
                    report.length,
                    Some(n),
                    "{text}: never longer than the shortest"
                );
                assert!(report.shortest, "{text}");
            }
            None => assert_eq!(report.status, MateStatus::NoMate, "{text}"),
        }
    }
    mates
}

#[test]
fn chess_lengths_agree_with_a_naive_full_width_search() {
    let positions = nearby_positions::<Chess>(&[
        "7n/BBP2P1P/8/P1PpK3/P5RR/5k2/Pn2NPN1/3Q2b1 w - d6 0 1",
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "5rk1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
    ]);
    let mates = agree_with_naive(&positions, 2);
    assert!(mates >= 5, "the sample should contain mates: {mates}");
}

#[test]
fn crazyhouse_lengths_agree_with_a_naive_full_width_search() {
    // Suite mates in 2 after their key and the main defence: mates in 1.
    let m2_05 = after::<Crazyhouse>(
        "r2k3r/p2P1ppp/2B1p3/2bp4/6n1/2Q5/PPPPnPKP/RNB2R2[QBPPnp] b - - 0 19",
        &["N@f4", "g2h1"],
    );
    let m2_02 = after::<Crazyhouse>(
        "r1br1k2/ppp2ppp/1b2p2N/4P3/3PP1N1/2Pn1BK1/PP5P/8[QRPqrbnp] w - - 2 42",
        &["Q@g8", "f8e7"],
    );
    let positions =
        nearby_positions::<Crazyhouse>(&[&m2_05, &m2_02, "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1"]);
    let mates = agree_with_naive(&positions, 1);
    assert!(mates >= 3, "the sample should contain mates: {mates}");
}

/// Crazyhouse with mates in 1 and 2 and none: the direct test of the last
/// two attacker moves and the guessed numbers agree with the naive search,
/// and the length found is never longer than the shortest.
#[test]
fn crazyhouse_mates_in_two_agree_with_a_naive_full_width_search() {
    let positions = nearby_positions::<Crazyhouse>(&[
        "k7/8/2K5/8/8/8/8/7R[] w - - 0 1",
        "7k/8/5K2/8/8/8/8/R7[n] w - - 0 1",
        "k7/8/2K5/8/8/8/8/6R1[P] w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/5RK1[Nn] w - - 0 1",
    ]);
    let mates = agree_with_naive(&positions, 2);
    let in_two = positions
        .iter()
        .filter(|&p| naive_shortest(p, 2) == Some(2))
        .count();
    assert!(
        mates >= 5 && in_two >= 3,
        "the sample should contain mates: {mates}, in two: {in_two}"
    );
}

#[test]
fn tampered_solutions_fail_verification() {
    let (pos, report) = solve::<Chess>(&suite_mate_in(3), 3);
    assert_eq!(report.status, MateStatus::Mate);
    let length = report.length.unwrap();
    let solution = report.solution.unwrap();
    let attacker = pos.turn();
    verify_mate(&pos, attacker, &solution, length).expect("the solver's solution verifies");
    // A bound shorter than the mate.
    assert!(verify_mate(&pos, attacker, &solution, length - 1).is_err());
    // Another legal key that does not mate.
    let key = solution.get(pos.zobrist()).unwrap();
    let other = pos.legal_moves().into_iter().find(|&m| m != key.0).unwrap();
    let mut wrong_key = solution.clone();
    wrong_key.moves.insert(pos.zobrist(), (other, key.1));
    let err = verify_mate(&pos, attacker, &wrong_key, length).unwrap_err();
    assert!(!err.reason.is_empty());
    // A missing attacker move somewhere below the root.
    for hash in solution.moves.keys().filter(|&&h| h != pos.zobrist()) {
        let mut missing = solution.clone();
        missing.moves.remove(hash);
        if let Err(e) = verify_mate(&pos, attacker, &missing, length) {
            assert!(e.reason.contains("no attacker move"), "{e}");
            return;
        }
    }
    panic!("removing a reply never broke the solution");
}

#[test]
fn all_keys_lists_exactly_the_mating_first_moves() {
    let text = "6k1/5ppp/8/8/8/8/5PPP/2R1R1K1 w - - 0 1";
    let pos: Chess = fen::parse_position(text).unwrap();
    let mut opts = options(1);
    opts.all_keys = true;
    let report = solve_mate(&pos, &opts, &mut |_| {});
    let mut expected: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            naive_mates(&child, Color::White, 0)
        })
        .collect();
    expected.sort_by_key(|m| ransom::notation::uci::write(*m));
    let mut keys = report.keys.clone();
    keys.sort_by_key(|m| ransom::notation::uci::write(*m));
    assert_eq!(keys.len(), 2, "Rc8# and Re8#");
    assert_eq!(keys, expected);
}

/// A generous `--max` finds a short mate at the cost of the exact length:
/// bounds 1 and 2 are searched first, and a proof stores the length of the
/// mate it found rather than the bound searched. Node budgets stand for
/// the time: the mate in 2 took 14.8 million nodes before, and the mate in
/// 1 asked with bound 20 ran for minutes.
#[test]
fn a_generous_bound_finds_the_short_mate_within_a_small_budget() {
    let cases = [
        // (FEN, shortest, bound asked, node budget)
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, 30, 1_000),
        ("8/5R2/2K1P3/4k3/8/b1PPpp1B/5p2/8 w - - 0 1", 2, 12, 20_000),
    ];
    for (text, shortest, max, nodes) in cases {
        let mut opts = options(max);
        opts.budget.max_nodes = nodes;
        let pos: Chess = fen::parse_position(text).unwrap();
        let report = solve_mate(&pos, &opts, &mut |_| {});
        assert_eq!(report.length, Some(shortest), "{text}: {:?}", report.notes);
        assert!(report.shortest, "{text}: {:?}", report.notes);
    }
}

/// With no mate found by checks, the bounds are searched upwards (a mate
/// in 5 asked with bound 12 never finished before; it now takes 8.2
/// million nodes, docs/mate.md); when the budget runs out, the answer says
/// how far the disproofs got.
#[test]
fn an_upward_search_that_runs_out_says_how_far_it_got() {
    // The mate in 5 above: the restricted passes spend 8 million nodes and
    // find nothing; the whole solution takes 8.2 million.
    let mut opts = options(12);
    opts.budget.max_nodes = 8_100_000;
    let pos: Chess =
        fen::parse_position("4b3/1R5n/3R3K/2p2kpN/2p1p3/r3p2P/6PB/bq3Nr1 w - - 0 1").unwrap();
    let report = solve_mate(&pos, &opts, &mut |_| {});
    assert_eq!(report.status, MateStatus::Unknown, "{:?}", report.notes);
    assert!(
        report.notes.iter().any(|n| n.contains("or fewer (proved)")),
        "{:?}",
        report.notes
    );
}

#[test]
fn a_budget_that_runs_out_answers_unknown() {
    let mut opts = options(5);
    opts.budget.max_nodes = 50;
    let pos: Chess = fen::parse_position(&suite_mate_in(5)).unwrap();
    let report = solve_mate(&pos, &opts, &mut |_| {});
    assert_eq!(report.status, MateStatus::Unknown);
    assert!(report.solution.is_none());
}

#[test]
fn hostage_h12_frozen_pawn_drop_mates_only_with_a_live_pawn() {
    // RULES H12 (H6/H7): *g7 is checkmate only when Black's prison holds a
    // White man (the pawn is live). As written, Black's king already stands
    // in check from the a1 bishop (docs/rules.md), so many moves mate; the
    // drop on g7 is the one that differs between the two positions.
    let drop_g7 = |pos: &Hostage| {
        pos.legal_moves()
            .into_iter()
            .find(|&m| ransom::notation::san::write(pos, m) == "*g7")
            .expect("the drop *g7 is legal")
    };
    for (text, mates) in [
        ("R5rk/7p/8/8/8/8/K7/B7[P#] w - - 0 1", false),
        ("R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1", true),
    ] {
        let pos: Hostage = fen::parse_position(text).unwrap();
        let mut opts = options(1);
        opts.all_keys = true;
        let report = solve_mate(&pos, &opts, &mut |_| {});
        assert_eq!(report.length, Some(1), "{text}");
        assert_eq!(report.keys.contains(&drop_g7(&pos)), mates, "{text}");
    }
}

#[test]
fn hostage_mates_agree_with_the_naive_search() {
    // A drop mate in the corner and positions around it.
    let positions = nearby_positions::<Hostage>(&["6rk/6pp/8/8/8/8/8/K6R[N#p] w - - 0 1"]);
    agree_with_naive(&positions, 1);
}

#[test]
fn hit_and_run_mates_count_turns() {
    // RULES R8: mate in N counts turns. Rh1 then the king steps to f7 in
    // the same turn: mate in one turn of two sub-moves.
    let (pos, report) = solve::<HitAndRun>("7k/8/5K2/8/8/8/8/1R6 w - - 0 5", 2);
    assert_eq!(report.status, MateStatus::Mate, "{:?}", report.notes);
    assert_eq!(report.length, Some(1));
    assert!(report.shortest);
    let positions = nearby_positions::<HitAndRun>(&[&fen::write(&pos)]);
    agree_with_naive(&positions, 1);
}

#[test]
fn contact_mates_agree_with_the_naive_search() {
    let positions = nearby_positions::<Contact>(&["6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"]);
    agree_with_naive(&positions, 1);
}

/// Losing chess: a win completed by the defender's forced capture of the
/// attacker's last man counts at the attacker's last move, whatever the
/// bound searched (the answers for bounds 2, 3 and 4 used to differ, and
/// the key list came back empty).
#[test]
fn losing_chess_wins_completed_by_the_defender_agree_for_every_bound() {
    use ransom::variants::Antichess;
    let pos: Antichess = fen::parse_position("8/8/5n2/p2P4/8/8/2K5/8 w - - 1 33").unwrap();
    for max in [2, 3, 4] {
        let report = solve_mate(
            &pos,
            &MateOptions {
                all_keys: true,
                ..options(max)
            },
            &mut |_| {},
        );
        assert_eq!(report.status, MateStatus::Mate, "max {max}");
        assert_eq!(report.length, Some(2), "max {max}");
        assert!(report.shortest, "max {max}");
        assert_eq!(report.keys.len(), 5, "max {max}: {:?}", report.keys);
    }
    let report = solve_mate(&pos, &options(1), &mut |_| {});
    assert_eq!(report.status, MateStatus::NoMate);
}

/// A mate's length certified root move by root move on two threads (the
/// threads sharing one table) is the one certified on one thread, and the
/// solution passes the verifier.
#[test]
fn two_threads_certify_the_same_lengths_as_one() {
    let path = common::own_data("mate/mates2000.epd");
    let cases = read_suite(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for case in cases.iter().filter(|c| c.expected == 5).take(3) {
        let pos: Chess = fen::parse_position(&case.fen).unwrap();
        let one = solve_mate(&pos, &options(5), &mut |_| {});
        let two = solve_mate(
            &pos,
            &MateOptions {
                threads: 2,
                ..options(5)
            },
            &mut |_| {},
        );
        for report in [&one, &two] {
            assert_eq!(report.status, MateStatus::Mate, "{}", case.fen);
            assert_eq!(report.length, Some(5), "{}", case.fen);
            assert!(report.shortest, "{}", case.fen);
            assert!(report.verified.is_some(), "{}", case.fen);
        }
    }
}

/// `--all-keys` for a mate of 5 or more: every root move is classified
/// root move by root move (on one thread or two), each key's own solution
/// is verified, and the length is then certified over the keys alone (a
/// move that mates in no fewer than 5 cannot mate in 4). This mate in 5
/// (mates2000) has four keys, the bishop's moves along the long diagonal;
/// the old way (certify over every root move, then search each root move
/// again for the keys) listed the same four.
#[test]
fn every_key_of_a_long_mate_is_found_on_one_thread_and_on_two() {
    let pos: Chess = fen::parse_position("4K3/4B2p/p3k2P/8/n2PB1p1/1N4P1/8/8 w - - 0 1").unwrap();
    let san = |keys: &[ransom::moves::Move]| -> Vec<String> {
        keys.iter()
            .map(|&m| ransom::notation::san::write(&pos, m))
            .collect()
    };
    for threads in [1, 2] {
        let report = solve_mate(
            &pos,
            &MateOptions {
                all_keys: true,
                threads,
                ..options(5)
            },
            &mut |_| {},
        );
        assert_eq!(report.length, Some(5), "{:?}", report.notes);
        assert!(report.shortest, "{:?}", report.notes);
        assert!(report.notes.is_empty(), "{:?}", report.notes);
        let mut keys = san(&report.keys);
        keys.sort();
        assert_eq!(keys, ["Bb7", "Bc6", "Bg2", "Bh1"], "{threads} threads");
    }
}
