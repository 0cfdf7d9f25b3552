//! The solvers under the further rule sets (RULES A8, R9): `prove` on small
//! forced wins of every Losing-chess rule set, `solve_mate` where the win is
//! not (only) a checkmate, both compared with a naive full-width search.

use ransom::Position;
use ransom::notation::{fen, uci};
use ransom::search::mate::{MateOptions, MateStatus, solve_mate};
use ransom::search::{Budget, Verdict, prove};
use ransom::variants::{
    Antichess, HitAndRunSimultaneous, Kamikaze, Kamikaze2, Losers, LosingQpromo, LosingRoyal,
    LosingRoyalMated,
};
use ransom::{Color, Move};

fn budget() -> Budget {
    Budget {
        max_nodes: 2_000_000,
        max_time: None,
        hash_bytes: 64 << 20,
        stop: None,
    }
}

fn pos<P: Position>(text: &str) -> P {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Naive full-width search: can `attacker` force a win within `plies`?
fn naive_wins<P: Position>(pos: &P, attacker: Color, plies: u32) -> bool {
    let legal = pos.legal_moves();
    if let Some(outcome) = pos.outcome_given(&legal) {
        return outcome.winner == Some(attacker);
    }
    if plies == 0 {
        return false;
    }
    let mut children = legal.iter().map(|&m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        child
    });
    if pos.turn() == attacker {
        children.any(|child| naive_wins(&child, attacker, plies - 1))
    } else {
        children.all(|child| naive_wins(&child, attacker, plies - 1))
    }
}

/// Proves `text` under `P`, checks the verdict, the verified proof, the key
/// move and the naive search's agreement (within `plies`).
fn proves<P: Position>(text: &str, verdict: Verdict, key: Option<&str>, plies: u32) {
    let p: P = pos(text);
    let report = prove(&p, &budget(), &mut |_| {});
    let name = P::VARIANT.name();
    assert_eq!(report.verdict, verdict, "{name} {text}: {:?}", report.notes);
    let us = p.turn();
    match verdict {
        Verdict::Win | Verdict::Loss => {
            let proof = report.proof.expect("a proof");
            proof.verify().expect("the proof verifies");
            let winner = if verdict == Verdict::Win { us } else { !us };
            assert_eq!(proof.winner, winner);
            assert!(naive_wins(&p, winner, plies), "{name} {text}: naive");
        }
        Verdict::Unknown => {
            assert!(!naive_wins(&p, us, plies) && !naive_wins(&p, !us, plies));
        }
    }
    if let Some(key) = key {
        assert_eq!(report.best.map(uci::write).as_deref(), Some(key), "{name}");
    }
}

#[test]
fn prove_losing_qpromo() {
    // RULES A8 `losing-qpromo`: a forced give-away wins ...
    proves::<LosingQpromo>(
        "8/8/8/8/1p6/8/P7/8 w - - 0 1",
        Verdict::Win,
        Some("a2a3"),
        3,
    );
    // ... but forcing a stalemate only draws (a win for the stalemated
    // side under the international rules).
    let text = "8/8/8/8/p7/8/P7/8 w - - 0 1";
    proves::<Antichess>(text, Verdict::Loss, None, 2);
    proves::<LosingQpromo>(text, Verdict::Unknown, None, 6);
}

#[test]
fn prove_losing_royal() {
    // RULES A8 `losing-royal`: giving the last man away wins (no check) ...
    proves::<LosingRoyal>(
        "k7/8/8/8/8/4p3/8/K5N1 b - - 0 1",
        Verdict::Win,
        Some("e3e2"),
        2,
    );
    // ... and so does checkmating: fool's mate.
    proves::<LosingRoyal>(
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b - - 0 2",
        Verdict::Win,
        Some("d8h4"),
        1,
    );
}

/// Black offers the rook; the compulsory capture mates Black.
const SELF_MATE: &str = "3r3k/6pp/8/8/8/8/8/K3R3 b - - 0 1";

#[test]
fn prove_losing_royal_mated() {
    // RULES A8 `losing-royal-mated`: being checkmated wins.
    proves::<LosingRoyalMated>(SELF_MATE, Verdict::Win, Some("d8e8"), 2);
}

#[test]
fn prove_losers() {
    // RULES A8 `losers`: being checkmated wins, and so does a lone king.
    proves::<Losers>(SELF_MATE, Verdict::Win, Some("d8e8"), 2);
    proves::<Losers>(
        "k7/8/8/8/8/4p3/8/K5N1 b - - 0 1",
        Verdict::Win,
        Some("e3e2"),
        2,
    );
}

#[test]
fn prove_kamikaze() {
    // RULES A8 `kamikaze`: the lone king walks into the rook and wins.
    proves::<Kamikaze>("7k/8/8/8/8/8/r7/7K w - - 0 1", Verdict::Win, None, 2);
}

#[test]
fn prove_kamikaze2() {
    // RULES A8 `kamikaze2`: White's blocked lone pawn passes, so Black
    // moves on and wins; under the international rules White, stalemated
    // after any Black move, wins.
    let text = "8/8/8/8/8/p7/P7/7k b - - 0 1";
    proves::<Antichess>(text, Verdict::Loss, None, 2);
    let p: Kamikaze2 = pos(text);
    let report = prove(&p, &budget(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Win, "{:?}", report.notes);
    report.proof.expect("proof").verify().expect("verifies");
    proves::<Kamikaze2>(
        "8/8/8/8/1p6/8/P7/8 w - - 0 1",
        Verdict::Win,
        Some("a2a3"),
        3,
    );
}

// The mate solver ("mate" is any win by the rules) ---------------------------

fn options(max: u16) -> MateOptions {
    MateOptions {
        max,
        all_keys: false,
        budget: Budget {
            max_nodes: 5_000_000,
            max_time: None,
            hash_bytes: 64 << 20,
            stop: None,
        },
        threads: 1,
    }
}

/// Naive "does the attacker win within `moves` of his moves" (the mate
/// solver's count: the attacker's moves; Hit-and-Run: turns). The game
/// must be over before the attacker would have to move once more: in these
/// rule sets the defender's own reply can end it (a compulsory capture of
/// the last man, a checkmate given to the attacker).
/// `plies` caps the line (a passing player lets the other move on and on).
fn naive_mates<P: Position>(pos: &P, attacker: Color, moves: u16, plies: u32) -> bool {
    let legal = pos.legal_moves();
    if let Some(outcome) = pos.outcome_given(&legal) {
        return outcome.winner == Some(attacker);
    }
    if (moves == 0 && pos.turn() == attacker) || plies == 0 {
        return false;
    }
    // (A defender's node with no attacker move left is still expanded:
    // his own reply may end the game.)
    let mut children = legal.iter().map(|&m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        // The attacker's turn ends, or he passes one (`kamikaze2`): a
        // move of his is used up; with none left only the outcome counts.
        let used = P::uses_turn_of(attacker, pos.turn(), &child);
        let (left, plies) = match (used, moves) {
            (true, 0) => (0, 0),
            (true, _) => (moves - 1, plies - 1),
            (false, _) => (moves, plies - 1),
        };
        naive_mates(&child, attacker, left, plies)
    });
    if pos.turn() == attacker {
        children.any(|won| won)
    } else {
        children.all(|won| won)
    }
}

/// The position and its children and grandchildren that are not over.
fn around<P: Position>(text: &str) -> Vec<P> {
    let root: P = pos(text);
    let mut out = vec![root.clone()];
    for m in root.legal_moves() {
        let mut child = root.clone();
        child.play_unchecked(m);
        if child.outcome().is_none() {
            out.push(child.clone());
            for reply in child.legal_moves() {
                let mut grandchild = child.clone();
                grandchild.play_unchecked(reply);
                if grandchild.outcome().is_none() {
                    out.push(grandchild);
                }
            }
        }
    }
    out
}

/// Solves every position of `positions` for mates up to `max` and checks
/// the status and the length against the naive search; returns the mates.
fn agree<P: Position>(positions: &[P], max: u16) -> usize {
    let mut mates = 0;
    for p in positions {
        let report = solve_mate(p, &options(max), &mut |_| {});
        let text = fen::write(p);
        let naive = (1..=max).find(|&n| naive_mates(p, p.turn(), n, 4 * u32::from(n) + 2));
        match naive {
            Some(n) => {
                mates += 1;
                assert_eq!(
                    report.status,
                    MateStatus::Mate,
                    "{text}: {:?}",
                    report.notes
                );
                assert_eq!(report.length, Some(n), "{text}");
            }
            None => assert_eq!(report.status, MateStatus::NoMate, "{text}"),
        }
    }
    mates
}

fn key_of<P: Position>(text: &str, max: u16) -> Vec<Move> {
    let report = solve_mate(&pos::<P>(text), &options(max), &mut |_| {});
    assert_eq!(
        report.status,
        MateStatus::Mate,
        "{text}: {:?}",
        report.notes
    );
    report.keys
}

#[test]
fn mate_solver_finds_wins_without_check() {
    // The win by a lone king comes with no check: the checks-only passes
    // and shortcuts must not apply (ONLY_CHECKMATE_WINS is false).
    let keys = key_of::<LosingRoyal>("k7/8/8/8/8/4p3/8/K5N1 b - - 0 1", 2);
    assert_eq!(
        keys.iter().map(|&m| uci::write(m)).collect::<Vec<_>>(),
        ["e3e2"]
    );
    let keys = key_of::<Kamikaze>("7k/8/8/8/8/8/r7/7K w - - 0 1", 2);
    assert!(!keys.is_empty());
}

#[test]
fn mate_solver_finds_being_checkmated() {
    // `losers`, `losing-royal-mated`: the winning "mate" is the opponent's.
    for keys in [
        key_of::<Losers>(SELF_MATE, 2),
        key_of::<LosingRoyalMated>(SELF_MATE, 2),
    ] {
        assert_eq!(
            keys.iter().map(|&m| uci::write(m)).collect::<Vec<_>>(),
            ["d8e8"]
        );
    }
}

#[test]
fn mate_lengths_agree_with_the_naive_search() {
    let mut mates = 0;
    mates += agree(&around::<LosingRoyal>("k7/8/8/8/8/4p3/8/K5N1 b - - 0 1"), 2);
    mates += agree(&around::<LosingRoyalMated>(SELF_MATE), 2);
    mates += agree(&around::<Losers>(SELF_MATE), 2);
    mates += agree(&around::<Losers>("k7/8/1Q6/p7/P7/8/8/6K1 w - - 0 1"), 2);
    mates += agree(&around::<Kamikaze>("7k/8/8/8/8/8/r7/7K w - - 0 1"), 2);
    mates += agree(&around::<LosingQpromo>("8/8/8/8/1p6/8/P7/8 w - - 0 1"), 2);
    assert!(mates >= 8, "the sample should contain wins: {mates}");
}

#[test]
fn kamikaze2_mate_counts_the_moves_made_while_the_opponent_passes() {
    // docs/rules.md A8: each move made while the opponent passes is a turn
    // of its own (and a turn the attacker passes is one of his), so every
    // cycle of positions uses up a move and the search stays finite. Black
    // walks the king to b3 (two moves, White passing), White must take,
    // and the a-pawn queens and is given away: a win in 5.
    let text = "8/8/8/8/8/p7/P7/2k5 b - - 0 1";
    let p: Kamikaze2 = pos(text);
    let report = solve_mate(&p, &options(6), &mut |_| {});
    assert_eq!(report.status, MateStatus::Mate, "{:?}", report.notes);
    assert_eq!(report.length, Some(5));
    assert!(report.shortest);
    assert_eq!(
        (1..=6).find(|&n| naive_mates(&p, Color::Black, n, 40)),
        Some(5)
    );
}

#[test]
fn simultaneous_mate_counts_turns() {
    // RULES R9 with R8: Rh1 then the king steps to f7, one turn; the mate
    // solver and the naive search agree around it.
    let text = "7k/8/5K2/8/8/8/8/1R6 w - - 0 5";
    let p: HitAndRunSimultaneous = pos(text);
    let report = solve_mate(&p, &options(1), &mut |_| {});
    assert_eq!(report.status, MateStatus::Mate, "{:?}", report.notes);
    assert_eq!(report.length, Some(1));
    let positions: Vec<HitAndRunSimultaneous> = around::<HitAndRunSimultaneous>(text)
        .into_iter()
        .step_by(7)
        .collect();
    agree(&positions, 1);
}
