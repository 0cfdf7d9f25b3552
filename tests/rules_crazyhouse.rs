//! RULES Z: crazyhouse (lichess rules) — pockets, drops, promoted men.

mod common;

use ransom::notation::{fen, san, uci};
use ransom::variants::Crazyhouse;
use ransom::{Color, Move, Outcome, OutcomeKind, Position, Role, Square};

fn pos(text: &str) -> Crazyhouse {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn play(mut p: Crazyhouse, moves: &[&str]) -> Crazyhouse {
    for text in moves {
        let m = ransom::notation::parse_move(&p, text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

/// How many men of `role` `color` holds in its pocket.
fn pocket(p: &Crazyhouse, color: Color, role: Role) -> u8 {
    p.to_setup().pockets.expect("crazyhouse has pockets")[color][role]
}

fn drops(p: &Crazyhouse) -> Vec<Move> {
    p.legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Drop { .. }))
        .collect()
}

#[test]
fn captured_man_goes_to_capturers_pocket_in_his_colour() {
    // RULES Z: a captured man changes colour and goes to the capturer's pocket.
    let p = play(Crazyhouse::start(), &["e4", "d5", "exd5"]);
    assert_eq!(pocket(&p, Color::White, Role::Pawn), 1);
    assert_eq!(pocket(&p, Color::Black, Role::Pawn), 0);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2"
    );
    let p = play(p, &["Qxd5"]);
    assert_eq!(
        fen::write(&p),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    let p = play(p, &["Nc3", "Qxa2", "Rxa2"]);
    assert_eq!(pocket(&p, Color::White, Role::Queen), 1);
    assert_eq!(pocket(&p, Color::Black, Role::Pawn), 2);
    assert_eq!(
        fen::write(&p),
        "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] b Kkq - 0 4"
    );
    // The dropped men are the capturer's own.
    let p = play(p, &["Nc6", "Q@d5"]);
    assert_eq!(
        p.board().piece_at(sq("d5")),
        Some(Role::Queen.of(Color::White))
    );
    assert_eq!(pocket(&p, Color::White, Role::Queen), 0);
}

#[test]
fn en_passant_capture_goes_to_pocket() {
    // RULES Z: the pawn taken en passant goes to the capturer's pocket too.
    let p = play(Crazyhouse::start(), &["e4", "a6", "e5", "d5", "exd6"]);
    assert_eq!(pocket(&p, Color::White, Role::Pawn), 1);
    assert!(fen::write(&p).contains("[P] b "));
}

#[test]
fn captured_promoted_man_reverts_to_pawn() {
    // RULES Z: a promoted man (`~` in FEN) goes to the pocket as a pawn.
    let p = play(pos("4k3/3Q~4/8/8/8/8/8/4K3[] b - - 0 1"), &["Kxd7"]);
    assert_eq!(pocket(&p, Color::Black, Role::Pawn), 1);
    assert_eq!(pocket(&p, Color::Black, Role::Queen), 0);
    assert_eq!(fen::write(&p), "8/3k4/8/8/8/8/8/4K3[p] w - - 0 2");
    // An unpromoted queen stays a queen.
    let p = play(pos("4k3/3Q4/8/8/8/8/8/4K3[] b - - 0 1"), &["Kxd7"]);
    assert_eq!(fen::write(&p), "8/3k4/8/8/8/8/8/4K3[q] w - - 0 2");
    // Promotion on the board marks the new man, and the mark follows it.
    let p = play(pos("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"), &["b8=N"]);
    assert_eq!(fen::write(&p), "1N~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    let p = play(p, &["Kd8", "Nc6+"]);
    assert_eq!(fen::write(&p), "3k4/8/2N~5/8/8/8/8/4K3[] b - - 2 2");
    let p = play(p, &["Kc7", "Ke2", "Kxc6"]);
    assert_eq!(fen::write(&p), "8/8/2k5/8/8/8/4K3/8[p] w - - 0 4");
}

#[test]
fn drops_onto_empty_squares_only() {
    // RULES Z: a pocket man may be dropped on any empty square, never on a man.
    let p = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let d = drops(&p);
    assert_eq!(d.len(), 62);
    assert!(d.iter().all(|m| p.board().piece_at(m.to()).is_none()));
    assert_eq!(p.legal_moves().len(), 62 + 5);
    assert!(uci::parse(&p, "N@e8").is_err());
    assert!(uci::parse(&p, "N@e1").is_err());
    assert!(uci::parse(&p, "N@a1").is_ok());
    // Only the side to move drops, and only what it holds.
    assert!(uci::parse(&p, "B@a1").is_err());
    let p = pos("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1");
    assert!(drops(&p).is_empty());
    assert_eq!(p.legal_moves().len(), 5);
}

#[test]
fn no_pawn_drops_on_first_or_last_rank() {
    // RULES Z: pawns may not be dropped on rank 1 or rank 8 (either colour).
    for (text, colour) in [
        ("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "white"),
        ("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "black"),
    ] {
        let p = pos(text);
        let d = drops(&p);
        assert_eq!(d.len(), 48, "{colour}");
        assert!(
            d.iter().all(|m| (1..=6).contains(&m.to().rank())),
            "{colour}"
        );
        assert!(uci::parse(&p, "P@a1").is_err());
        assert!(uci::parse(&p, "P@a8").is_err());
        assert!(uci::parse(&p, "P@a2").is_ok());
        assert!(uci::parse(&p, "P@h7").is_ok());
    }
}

#[test]
fn drops_can_block_a_check() {
    // RULES Z: when a slider checks, a drop between it and the king is a
    // legal evasion (and no other drop is).
    let p = pos("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    assert!(p.is_check());
    let mut d: Vec<String> = drops(&p).iter().map(|&m| uci::write(m)).collect();
    d.sort();
    assert_eq!(d, ["N@b1", "N@c1", "N@d1"]);
    assert_eq!(p.legal_moves().len(), 3 + 3); // and Kd2, Ke2, Kf2
    // A pawn drop can block a diagonal check too.
    let p = pos("4k3/8/8/b7/8/8/8/4K3[P] w - - 0 1");
    assert!(p.is_check());
    let mut d: Vec<String> = drops(&p).iter().map(|&m| uci::write(m)).collect();
    d.sort();
    assert_eq!(d, ["P@b4", "P@c3", "P@d2"]);
}

#[test]
fn drops_cannot_answer_knight_check_or_double_check() {
    // RULES Z: a knight's check cannot be blocked, nor can a double check.
    let p = pos("4k3/8/8/8/8/3n4/8/4K3[NQ] w - - 0 1");
    assert!(p.is_check());
    assert!(drops(&p).is_empty());
    let mut moves: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    moves.sort();
    assert_eq!(moves, ["e1d1", "e1d2", "e1e2", "e1f1"]);
    let p = pos("4k3/8/8/8/8/3n4/8/r3K3[NQ] w - - 0 1");
    assert!(p.is_check());
    assert!(drops(&p).is_empty());
    let mut moves: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    moves.sort();
    assert_eq!(moves, ["e1d2", "e1e2"]);
}

#[test]
fn drop_notation() {
    // RULES Z: drops are written `N@c7` in UCI and SAN, a pawn `@e6` in SAN;
    // `P@e6` and `@e6` are both read.
    let p = pos("4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1");
    let knight = Move::Drop {
        role: Role::Knight,
        to: sq("c7"),
    };
    let pawn = Move::Drop {
        role: Role::Pawn,
        to: sq("e6"),
    };
    assert_eq!(uci::write(knight), "N@c7");
    assert_eq!(san::write(&p, knight), "N@c7");
    assert_eq!(uci::write(pawn), "P@e6");
    assert_eq!(san::write(&p, pawn), "P@e6");
    assert_eq!(uci::parse(&p, "N@c7").unwrap(), knight);
    assert_eq!(san::parse(&p, "N@c7").unwrap(), knight);
    assert_eq!(san::parse(&p, "@e6").unwrap(), pawn);
    assert_eq!(san::parse(&p, "P@e6").unwrap(), pawn);
    assert_eq!(uci::parse(&p, "P@e6").unwrap(), pawn);
    assert_eq!(ransom::notation::parse_move(&p, "@e6").unwrap(), pawn);
    // Check marks: N@c7 gives check.
    assert_eq!(san::write_plus(&p, knight), "N@c7+");
    assert_eq!(san::parse(&p, "N@c7+").unwrap(), knight);
    // A king is never in a pocket, and never dropped.
    assert!(san::parse(&p, "K@c7").is_err());
}

#[test]
fn fen_pockets_round_trip() {
    // RULES Z: the pocket is written `[...]` after the placement, White's men
    // first, in the order Q R B N P; `~` marks promoted men.
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1[PPpp] w - - 0 9",
        "2Q~1k3/8/8/8/8/8/8/4K3[Nn] b - - 0 30",
    ] {
        let p = pos(text);
        assert_eq!(fen::write(&p), text);
    }
    // Non-canonical order is read and written canonically.
    let p = pos("4k3/8/8/8/8/8/8/4K3[pNqPQ] w - - 0 1");
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[QNPqp] w - - 0 1");
    assert_eq!(pocket(&p, Color::White, Role::Pawn), 1);
    assert_eq!(pocket(&p, Color::Black, Role::Queen), 1);
    // Without a bracket the pockets are empty, and written as [].
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    // A king in a pocket is rejected.
    let err = fen::parse_position::<Crazyhouse>("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("a king cannot be in a pocket"), "{err}");
    // A bracket left open is named as such.
    let err = fen::parse_position::<Crazyhouse>("4k3/8/8/8/8/8/8/4K3[Qn w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("'[Qn' are not closed"), "{err}");
}

#[test]
fn drop_checkmate_outcome() {
    // RULES Z (with S): a drop that mates ends the game.
    let p = pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1");
    let m = san::parse(&p, "N@f7").unwrap();
    assert_eq!(san::write_plus(&p, m), "N@f7#");
    let after = play(p, &["N@f7"]);
    assert!(after.is_check());
    assert!(after.legal_moves().is_empty());
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(OutcomeKind::Checkmate, Color::White))
    );
    // A pocket man that can block saves the king: no mate.
    let back_rank = play(pos("6k1/5ppp/8/8/8/8/8/K7[Rn] w - - 0 1"), &["R@d8"]);
    assert!(back_rank.is_check());
    assert_eq!(back_rank.outcome(), None);
    let mut evasions: Vec<String> = back_rank
        .legal_moves()
        .iter()
        .map(|&m| uci::write(m))
        .collect();
    evasions.sort();
    assert_eq!(evasions, ["N@e8", "N@f8"]);
    // Without the knight in the pocket it is mate.
    let mated = play(pos("6k1/5ppp/8/8/8/8/8/K7[R] w - - 0 1"), &["R@d8"]);
    assert_eq!(
        mated.outcome(),
        Some(Outcome::win(OutcomeKind::Checkmate, Color::White))
    );
}

/// `has_legal_moves` (the mate solver's checkmate test, which stops at the
/// first drop between king and checker or the first safe king step) agrees
/// with the full move list: on every position two plies from positions
/// with full pockets, checks, double checks and mates (RULES Z: a drop on
/// an empty square, pawns not on ranks 1/8, may block a check; RULES S:
/// checkmate).
#[test]
fn has_legal_moves_agrees_with_the_move_list() {
    let fens = [
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[NBRQPnbrqp] w KQkq - 0 1",
        "4r2k/pPN3pp/2Np2p1/4p1nb/4P3/3P4/PPP2bPP/R6K[RQBBPrpqn] w - - 42 22",
        "r2q1rk1/pp2bb1p/2pp2pK/7N/3pPR1P/1B1P2p1/PPPq4/R7[PPBNNN] b - - 49 25",
        // Only pawns in hand, the checker on the back rank: no drop blocks.
        "R5k1/5ppp/8/8/8/8/8/6K1[p] b - - 0 1",
        // A contact check, and an empty pocket.
        "6k1/5pQp/6p1/8/8/8/8/5BK1[] b - - 0 1",
    ];
    let (positions, mated) = common::has_legal_moves_agrees::<Crazyhouse>(&fens, 2);
    assert!(positions > 10_000, "{positions}");
    assert!(mated > 0, "no position without moves among {positions}");
}

/// A game has at most 64 men: a position with more on the board and in the
/// pockets is refused, and so is a pocket with more than 64 of one man,
/// each with a message that says so (not a generic "bad holdings").
#[test]
fn more_men_than_a_game_can_have_are_refused_with_a_count() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let too_many_in_all = format!("{start}[{}] w KQkq - 0 1", "Q".repeat(33));
    let err = fen::parse_position::<Crazyhouse>(&too_many_in_all)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("65 men") && err.contains("at most 64"),
        "{err}"
    );
    let too_many_of_one = format!("{start}[{}] w KQkq - 0 1", "Q".repeat(70));
    let err = fen::parse_position::<Crazyhouse>(&too_many_of_one)
        .unwrap_err()
        .to_string();
    assert!(err.contains("more than 64 'Q'"), "{err}");
}
