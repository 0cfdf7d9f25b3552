//! RULES S: standard chess (FIDE laws) — castling, en passant, promotion,
//! check evasion, checkmate, stalemate and insufficient material.

mod common;

use ransom::notation::{fen, san, uci};
use ransom::variants::Chess;
use ransom::{Color, Move, Outcome, OutcomeKind, Position, Role, Square};

fn pos(text: &str) -> Chess {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// The legal moves in UCI, sorted.
fn ucis<P: Position>(p: &P) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

fn castles<P: Position>(p: &P) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| matches!(m, Move::Castle { .. }))
        .map(|&m| san::write(p, m))
        .collect();
    v.sort();
    v
}

/// Plays moves given in UCI (or SAN), panicking if one is illegal.
fn play<P: Position>(mut p: P, moves: &[&str]) -> P {
    for text in moves {
        let m = ransom::notation::parse_move(&p, text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

const CASTLE_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn castling_both_sides() {
    // RULES S: castling king side and queen side, for both colours; the king
    // goes two squares towards the rook, the rook jumps over it.
    let p = pos(CASTLE_FEN);
    assert_eq!(p.legal_moves().len(), 26);
    assert_eq!(castles(&p), ["O-O", "O-O-O"]);
    let short = play(p.clone(), &["e1g1"]);
    assert_eq!(fen::write(&short), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let long = play(p, &["e1c1"]);
    assert_eq!(fen::write(&long), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // With pawns shielding the files, Black can castle either way afterwards.
    let p = play(
        pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
        &["O-O"],
    );
    assert_eq!(castles(&p), ["O-O", "O-O-O"]);
    let black_short = play(p.clone(), &["O-O"]);
    assert_eq!(
        fen::write(&black_short),
        "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"
    );
    let black_long = play(p, &["e8c8"]);
    assert_eq!(
        fen::write(&black_long),
        "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"
    );
}

#[test]
fn castling_needs_empty_squares_between() {
    // RULES S: every square between king and rook must be empty (b1 too).
    let p = pos("r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1");
    assert!(castles(&p).is_empty());
    let p = pos("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
    assert_eq!(castles(&p), ["O-O"]);
}

#[test]
fn castling_not_out_of_check() {
    // RULES S: no castling while in check.
    let p = pos("1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.is_check());
    assert!(castles(&p).is_empty());
    assert_eq!(ucis(&p), ["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn castling_not_through_check() {
    // RULES S: the square the king crosses must not be attacked.
    let p = pos("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!p.is_check());
    assert_eq!(castles(&p), ["O-O-O"]);
    let p = pos("1k1r4/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["O-O"]);
    // b1 is crossed by the rook only: an attack on it does not matter.
    let p = pos("1rk5/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["O-O", "O-O-O"]);
}

#[test]
fn castling_not_into_check() {
    // RULES S: the king may not land on an attacked square.
    let p = pos("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["O-O-O"]);
    let p = pos("1kr5/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["O-O"]);
}

#[test]
fn castling_rights_lost_after_king_move() {
    // RULES S: a king that has moved can no longer castle, even back home.
    let p = play(pos(CASTLE_FEN), &["e1f1", "e8f8", "f1e1", "f8e8"]);
    assert_eq!(fen::write(&p), "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
    assert!(castles(&p).is_empty());
}

#[test]
fn castling_rights_lost_after_rook_move() {
    // RULES S: moving a rook loses the right on its side only.
    let p = play(pos(CASTLE_FEN), &["h1h2", "a8a7", "h2h1", "a7a8"]);
    assert_eq!(fen::write(&p), "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    assert_eq!(castles(&p), ["O-O-O"]);
    let p = play(p, &["e1d1"]);
    assert_eq!(castles(&p), ["O-O"]);
}

#[test]
fn fen_castling_rights_and_promotion_marks_are_read_strictly() {
    // RULES S: a castling right is a right of one rook; naming it twice
    // (`KK`, or `K` and the Shredder-FEN letter `H` of the same rook) is an
    // error, not silently one right.
    for text in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KKQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KHkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1",
    ] {
        let err = fen::parse_position::<Chess>(text).unwrap_err().to_string();
        assert!(err.contains("twice"), "{text}: {err}");
    }
    assert!(fen::parse_position::<Chess>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_ok());
    // `~` marks a promoted man only in crazyhouse (RULES Z), where it
    // matters on capture; in chess it would be dropped without a word.
    let err = fen::parse_position::<Chess>("r3k2r/8/8/8/8/8/8/R~3K2R w Kkq - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("only crazyhouse marks promoted men"), "{err}");
}

#[test]
fn castling_rights_lost_when_rook_captured_on_corner() {
    // RULES S: a rook captured on its corner takes the right with it.
    let p = pos("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1");
    let p = play(p, &["g2h1"]);
    assert_eq!(fen::write(&p), "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2");
    assert_eq!(castles(&p), ["O-O-O"]);
    // And the capturing rook loses its own right too.
    let p = play(pos(CASTLE_FEN), &["a1a8"]);
    assert_eq!(fen::write(&p), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

#[test]
fn en_passant_capture() {
    // RULES S: a pawn that has just made a double step can be taken en
    // passant; the captured pawn disappears from its square.
    let p = play(Chess::start(), &["e2e4", "a7a6", "e4e5", "d7d5"]);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    let m = uci::parse(&p, "e5d6").unwrap();
    assert_eq!(
        m,
        Move::EnPassant {
            from: sq("e5"),
            to: sq("d6")
        }
    );
    assert_eq!(san::write(&p, m), "exd6");
    assert_eq!(p.legal_moves().len(), 31);
    let after = play(p, &["e5d6"]);
    assert_eq!(
        fen::write(&after),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

#[test]
fn en_passant_only_immediately() {
    // RULES S: the right to take en passant lasts one move only.
    let p = play(pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), &["d7d5"]);
    assert!(ucis(&p).contains(&"e5d6".to_string()));
    assert_eq!(p.legal_moves().len(), 7);
    let p = play(p, &["e1d1", "e8d8"]);
    assert!(!ucis(&p).contains(&"e5d6".to_string()));
    assert!(uci::parse(&p, "e5d6").is_err());
    assert_eq!(p.legal_moves().len(), 6);
    // A single step never gives the right.
    let p = play(pos("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1"), &["d6d5"]);
    assert!(!ucis(&p).contains(&"e5d6".to_string()));
}

#[test]
fn en_passant_illegal_when_horizontally_pinned() {
    // RULES S: en passant removes two pawns from one rank; if that exposes
    // the king to a rook on the rank, the capture is illegal.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(
        !p.legal_moves()
            .iter()
            .any(|m| matches!(m, Move::EnPassant { .. }))
    );
    assert_eq!(ucis(&p), ["a5a4", "a5a6", "a5b4", "a5b5", "a5b6", "e5e6"]);
    // The same capture without the rook is legal.
    let free = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert!(ucis(&free).contains(&"e5d6".to_string()));
    // And FEN output drops the en-passant square when no capture is legal.
    assert_eq!(fen::write(&p), "8/8/8/K2pP2r/8/8/8/7k w - - 0 1");
}

#[test]
fn en_passant_as_check_evasion() {
    // RULES S: a checking pawn that just double stepped can be taken en passant.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.is_check());
    assert!(ucis(&p).contains(&"e4d3".to_string()));
    assert_eq!(p.legal_moves().len(), 9);
}

#[test]
fn promotion_to_queen_rook_bishop_knight_only() {
    // RULES S: a pawn promotes to Q, R, B or N (never K, never stays a pawn).
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let promos: Vec<String> = ucis(&p)
        .into_iter()
        .filter(|u| u.starts_with("a7"))
        .collect();
    assert_eq!(promos, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
    assert!(uci::parse(&p, "a7a8k").is_err());
    assert!(uci::parse(&p, "a7a8").is_err());
    assert!(san::parse(&p, "a8=K").is_err());
    let m = san::parse(&p, "a8=N").unwrap();
    assert_eq!(m.promotion(), Some(Role::Knight));
    let after = play(p, &["a7a8q"]);
    assert_eq!(fen::write(&after), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(after.is_check());
    // Promotion by capture, too.
    let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let captures: Vec<String> = ucis(&p)
        .into_iter()
        .filter(|u| u.starts_with("a7b8"))
        .collect();
    assert_eq!(captures, ["a7b8b", "a7b8n", "a7b8q", "a7b8r"]);
}

#[test]
fn check_evasion() {
    // RULES S: in check, only moves that end the check are legal: king
    // steps to safe squares, capturing the checker, blocking the line.
    let p = pos("4k3/8/8/8/1b6/8/3N4/R3K2R w KQ - 0 1");
    assert!(!p.is_check()); // the knight blocks
    let p = pos("4k3/8/8/8/1b6/8/8/R3K1NR w KQ - 0 1");
    assert!(p.is_check());
    // Only king steps: Kd2 stays on the diagonal, and neither the g1 knight
    // nor the a1 rook can reach c3 or d2.
    assert_eq!(ucis(&p), ["e1d1", "e1e2", "e1f1", "e1f2"]);
    // Capture or block.
    let p = pos("4k3/8/8/8/1b6/8/8/RN2K2R w KQ - 0 1");
    assert_eq!(ucis(&p), ["b1c3", "b1d2", "e1d1", "e1e2", "e1f1", "e1f2"]);
    // A pinned man cannot block (Qd2 would leave the e-file).
    let p = pos("4k3/4r3/8/8/1b6/8/4Q3/4K3 w - - 0 1");
    assert_eq!(ucis(&p), ["e1d1", "e1f1", "e1f2"]);
    // Double check: only the king moves.
    let p = pos("4k3/8/8/8/1b6/8/4r3/R3K2R w KQ - 0 1");
    assert!(p.is_check());
    assert_eq!(ucis(&p), ["e1d1", "e1e2", "e1f1"]);
    // Every legal move of a checked side leaves its king safe.
    for fen_text in [
        "4k3/8/8/8/1b6/8/8/RN2K2R w KQ - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let p = pos(fen_text);
        for &m in &p.legal_moves() {
            let mut after = p.clone();
            after.play_unchecked(m);
            let king = after.board().king_of(p.turn()).unwrap();
            let attackers = after
                .board()
                .attacks_by(king, after.turn(), after.board().occupied());
            assert!(
                attackers.is_empty(),
                "{} leaves the king in check",
                uci::write(m)
            );
        }
    }
}

#[test]
fn checkmate_outcome() {
    // RULES S: checkmate ends the game, won by the side that mated.
    let fools = play(Chess::start(), &["f3", "e5", "g4", "Qh4"]);
    assert!(fools.is_check());
    assert!(fools.legal_moves().is_empty());
    assert_eq!(
        fools.outcome(),
        Some(Outcome {
            kind: OutcomeKind::Checkmate,
            winner: Some(Color::Black)
        })
    );
    let scholars = play(
        Chess::start(),
        &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"],
    );
    assert_eq!(
        scholars.outcome(),
        Some(Outcome::win(OutcomeKind::Checkmate, Color::White))
    );
    // Check that is not mate is not an outcome.
    let check = play(Chess::start(), &["e4", "f5", "Qh5"]);
    assert!(check.is_check());
    assert_eq!(check.outcome(), None);
    assert_eq!(Chess::start().outcome(), None);
}

#[test]
fn stalemate_is_a_draw() {
    // RULES S: no legal move and not in check: stalemate, a draw.
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::draw(OutcomeKind::Stalemate)));
    assert_eq!(p.outcome().unwrap().winner, None);
    // Blocked pawn and cornered king.
    let p = pos("k7/P7/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::draw(OutcomeKind::Stalemate)));
}

#[test]
fn insufficient_material_is_a_draw() {
    // RULES S: positions where no side can ever mate are drawn.
    let draw = Some(Outcome::draw(OutcomeKind::Draw));
    for text in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",    // K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",   // KN v K
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",   // KB v K
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", // bishops all on dark squares
    ] {
        assert_eq!(pos(text).outcome(), draw, "{text}");
    }
    for text in [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // bishops of both colours
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",  // opposite-coloured bishops: mate exists
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  // KN v KN: mate exists
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",  // KNN v K: mate exists
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  // a pawn
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",   // a rook
        "4kb2/8/8/8/8/8/8/4KN2 w - - 0 1",  // KN v KB: mate exists
    ] {
        assert_eq!(pos(text).outcome(), None, "{text}");
    }
}

/// `has_legal_moves` (the mate solver's checkmate test, which stops at the
/// first safe king step when in check) agrees with the full move list on
/// every position three plies from positions with checks, double checks,
/// pins, en passant and mates (RULES S: check evasion, checkmate,
/// stalemate).
#[test]
fn has_legal_moves_agrees_with_the_move_list() {
    let fens = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        // Stalemate and a back-rank mate in one.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    ];
    let (positions, without_moves) = common::has_legal_moves_agrees::<Chess>(&fens, 3);
    assert!(positions > 10_000, "{positions}");
    assert!(
        without_moves > 0,
        "no position without moves among {positions}"
    );
}
