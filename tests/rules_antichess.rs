//! RULES A: Losing chess / antichess (international rules) and the FICS
//! `suicide` rule set (A7).

use ransom::notation::{fen, san, uci};
use ransom::perft::perft;
use ransom::variants::{Antichess, Suicide};
use ransom::{Color, Move, Outcome, OutcomeKind, Position, Role, Square};

fn pos<P: Position>(text: &str) -> P {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn anti(text: &str) -> Antichess {
    pos(text)
}

/// The legal moves in UCI, sorted.
fn ucis<P: Position>(p: &P) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

fn play<P: Position>(mut p: P, moves: &[&str]) -> P {
    for text in moves {
        let m = ransom::notation::parse_move(&p, text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

#[test]
fn a1_capture_is_compulsory() {
    // RULES A1: if any capture exists, only captures are legal.
    let start = Antichess::start();
    assert_eq!(start.legal_moves().len(), 20);
    let p = play(start, &["e3", "b5"]);
    assert_eq!(ucis(&p), ["f1b5"]);
    // After the capture Black has none, so any move is free ...
    let p = play(p, &["Bxb5"]);
    assert!(p.legal_moves().iter().all(|m| !m.is_capture()));
    assert_eq!(p.legal_moves().len(), 20);
    // ... and a quiet move that offers a man forces White to take again.
    let p = play(p, &["Ba6"]);
    assert_eq!(ucis(&p), ["b5a6", "b5d7"]);
    // A position with one capture among many quiet moves.
    let p = anti("8/8/8/3p4/4P3/8/8/R6K w - - 0 1");
    assert_eq!(ucis(&p), ["e4d5"]);
}

#[test]
fn a1_en_passant_as_the_only_capture_is_compulsory() {
    // RULES A1: en passant counts as a capture, so when it is the only one
    // it is the only legal move.
    let p = anti("k7/8/8/8/3p4/8/4P3/K7 w - - 0 1");
    assert_eq!(ucis(&p), ["a1a2", "a1b1", "a1b2", "e2e3", "e2e4"]);
    let p = play(p, &["e2e4"]);
    assert_eq!(fen::write(&p), "k7/8/8/8/3pP3/8/8/K7 b - e3 0 1");
    assert_eq!(
        p.legal_moves().as_slice(),
        [Move::EnPassant {
            from: sq("d4"),
            to: sq("e3")
        }]
    );
    let p = play(p, &["dxe3"]);
    assert_eq!(fen::write(&p), "k7/8/8/8/8/4p3/8/K7 w - - 0 2");
    // Without the double step, Black moves freely.
    let p = anti("k7/8/8/8/3pP3/8/8/K7 b - - 0 1");
    assert_eq!(ucis(&p), ["a8a7", "a8b7", "a8b8", "d4d3"]);
}

#[test]
fn a1_free_choice_among_captures() {
    // RULES A1: with several captures, the mover picks any of them (the
    // king's and pawn's captures included, non-captures excluded).
    let p = anti("8/8/8/3p1p2/4P3/8/8/8 w - - 0 1");
    assert_eq!(ucis(&p), ["e4d5", "e4f5"]);
    let p = anti("8/8/8/3p1p2/4P3/8/1p6/K7 w - - 0 1");
    assert_eq!(ucis(&p), ["a1b2", "e4d5", "e4f5"]);
    for text in ["Kxb2", "exd5", "exf5"] {
        assert!(san::parse(&p, text).is_ok(), "{text}");
    }
    assert!(san::parse(&p, "e5").is_err());
    assert!(san::parse(&p, "Ka2").is_err());
}

#[test]
fn a2_king_is_an_ordinary_man() {
    // RULES A2: no check; the king may move onto attacked squares.
    let p = anti("4r3/8/8/8/8/8/r7/4K3 w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(ucis(&p), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    assert_eq!(p.outcome(), None);
    // The king may be captured (here the capture is even compulsory).
    let p = anti("8/8/8/8/8/8/8/kK6 w - - 0 1");
    assert_eq!(ucis(&p), ["b1a1"]);
    let m = p.legal_moves()[0];
    assert_eq!(m.capture(), Some(Role::King));
    // Several kings may stand on the board, none of them royal.
    let p = anti("8/8/8/8/8/8/q7/KK6 w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(ucis(&p), ["a1a2", "b1a2"]);
    // Other men may ignore attacks on their king too.
    let p = anti("k7/8/8/8/8/8/8/R3K3 b - - 0 1");
    assert!(!p.is_check());
    assert_eq!(ucis(&p), ["a8a7", "a8b7", "a8b8"]);
}

#[test]
fn a3_no_castling() {
    // RULES A3: a FEN with castling rights is rejected with a clear error.
    let err = fen::parse_position::<Antichess>(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Losing chess has no castling (RULES A3)"),
        "{err}"
    );
    assert!(err.contains("the castling field must be '-'"), "{err}");
    let err = fen::parse_position::<Suicide>("r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("no castling"), "{err}");
    // Without rights, king and rook on their squares still never castle.
    let p = anti("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(uci::parse(&p, "e1g1").is_err());
    assert!(uci::parse(&p, "e1h1").is_err());
    assert!(san::parse(&p, "O-O").is_err());
    assert!(san::parse(&p, "O-O-O").is_err());
    // And no castling move appears anywhere in the tree two plies deep.
    let mut nodes = 0;
    for &m in &p.legal_moves() {
        assert!(!matches!(m, Move::Castle { .. }));
        let mut child = p.clone();
        child.play_unchecked(m);
        for &reply in &child.legal_moves() {
            assert!(!matches!(reply, Move::Castle { .. }));
            nodes += 1;
        }
    }
    assert_eq!(nodes as u64, perft(&p, 2));
    // The start position has no rights.
    assert_eq!(
        fen::write(&Antichess::start()),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
}

#[test]
fn a4_promotion_to_king_and_pieces() {
    // RULES A4: a pawn promotes to Q, R, B, N or K.
    let p = anti("8/P7/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(ucis(&p), ["a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]);
    let m = uci::parse(&p, "a7a8k").unwrap();
    assert_eq!(m.promotion(), Some(Role::King));
    assert_eq!(uci::write(m), "a7a8k");
    assert_eq!(san::write(&p, m), "a8=K");
    assert_eq!(san::parse(&p, "a8=K").unwrap(), m);
    assert_eq!(san::parse(&p, "a8K").unwrap(), m);
    let after = play(p, &["a8=K"]);
    assert_eq!(fen::write(&after), "K7/8/8/8/8/8/8/8 b - - 0 1");
    // Black's promotion, by capture, in SAN.
    let p = anti("8/8/8/8/8/8/1p6/R7 b - - 0 1");
    assert_eq!(ucis(&p), ["b2a1b", "b2a1k", "b2a1n", "b2a1q", "b2a1r"]);
    let m = san::parse(&p, "bxa1=K").unwrap();
    assert_eq!(san::write(&p, m), "bxa1=K");
}

#[test]
fn a5_player_without_men_wins() {
    // RULES A5: the player who has no men left wins (here: the side to move
    // after its last man was taken).
    let p = play(anti("8/8/8/8/8/8/8/kK6 w - - 0 1"), &["Kxa1"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(OutcomeKind::VariantWin, Color::Black))
    );
    let p = anti("8/8/8/8/8/8/8/K7 b - - 0 1");
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            kind: OutcomeKind::VariantWin,
            winner: Some(Color::Black)
        })
    );
    let p: Suicide = pos("8/8/8/8/8/8/8/k7 w - - 0 1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(OutcomeKind::VariantWin, Color::White))
    );
    assert_eq!(Antichess::start().outcome(), None);
}

#[test]
fn a5_player_without_men_wins_whoever_is_to_move() {
    // RULES A5: "a player who has no men left wins" holds even when, in a
    // position given by FEN, it is the other side's turn.
    let p = anti("8/8/8/8/8/8/P7/8 w - - 0 1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(OutcomeKind::VariantWin, Color::Black))
    );
}

#[test]
fn a5_an_empty_board_is_no_position() {
    // RULES A5: the game ends when the first side runs out of men, so no
    // position has both sides without men; such a FEN is refused, naming
    // the problem, in every Losing-chess rule set.
    let setup = ransom::notation::fen::parse("8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
    let err = Antichess::from_setup(&setup).unwrap_err().to_string();
    assert!(err.contains("the board is empty"), "{err}");
    assert!(Suicide::from_setup(&setup).is_err());
}

#[test]
fn a5_stalemated_player_wins() {
    // RULES A5 (international rules): a player with men but no legal move wins.
    let p = anti("8/8/8/8/8/p7/P7/8 w - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(OutcomeKind::Stalemate, Color::White))
    );
    // Even with many more men than the opponent.
    let p = anti("8/8/8/8/8/1p6/1P6/B7 w - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(OutcomeKind::Stalemate, Color::White))
    );
}

#[test]
fn a6_opposite_coloured_bishops_draw() {
    // RULES A6: only bishops, each side's on one square colour and the two
    // colours different: no capture can ever happen, a draw.
    let draw = Some(Outcome::draw(OutcomeKind::Draw));
    assert_eq!(anti("8/8/8/8/8/8/8/B6b w - - 0 1").outcome(), draw);
    assert_eq!(anti("8/8/8/8/8/8/8/B1B4b b - - 0 1").outcome(), draw);
    // Same-coloured bishops can meet: the game goes on.
    assert_eq!(anti("7b/8/8/8/8/8/8/B7 w - - 0 1").outcome(), None);
    // Any other man keeps it open.
    assert_eq!(anti("8/8/8/8/8/8/7p/B6b w - - 0 1").outcome(), None);
    assert_eq!(anti("8/8/8/8/8/8/8/BB5b w - - 0 1").outcome(), None);
}

#[test]
fn a7_suicide_stalemate_counts_men() {
    // RULES A7 (suicide, FICS rules): a stalemated player wins only with
    // fewer men than the opponent; equal numbers draw; more men lose.
    let fewer = "8/7p/8/8/8/p7/P7/8 w - - 0 1";
    let equal = "8/8/8/8/8/p7/P7/8 w - - 0 1";
    let more = "8/8/8/8/8/1p6/1P6/B7 w - - 0 1";
    for text in [fewer, equal, more] {
        assert!(pos::<Suicide>(text).legal_moves().is_empty(), "{text}");
    }
    assert_eq!(
        pos::<Suicide>(fewer).outcome(),
        Some(Outcome::win(OutcomeKind::Stalemate, Color::White))
    );
    assert_eq!(
        pos::<Suicide>(equal).outcome(),
        Some(Outcome::draw(OutcomeKind::Stalemate))
    );
    assert_eq!(
        pos::<Suicide>(more).outcome(),
        Some(Outcome::win(OutcomeKind::Stalemate, Color::Black))
    );
    // Under the international rules the stalemated side wins in all three.
    for text in [fewer, equal, more] {
        assert_eq!(
            anti(text).outcome(),
            Some(Outcome::win(OutcomeKind::Stalemate, Color::White)),
            "{text}"
        );
    }
    // Apart from stalemate the two rule sets generate the same moves.
    assert_eq!(perft(&Suicide::start(), 3), 8067);
    assert_eq!(perft(&Antichess::start(), 3), 8067);
}

#[test]
fn a5_a_move_that_ends_the_game_is_marked_mate_in_san() {
    // RULES A5: taking the opponent's last man, or stalemating it, ends the
    // game with a winner; SAN marks such a move `#`, as python-chess and
    // lichess write a variant's decisive move. A6's draw gets no mark.
    let p = anti("8/8/8/8/8/8/8/kK6 w - - 0 1");
    let m = san::parse(&p, "Kxa1").unwrap();
    assert_eq!(san::write_plus(&p, m), "Kxa1#");
    let p = anti("8/8/8/8/p7/8/P7/8 w - - 0 1");
    let m = san::parse(&p, "a3").unwrap();
    assert_eq!(san::write_plus(&p, m), "a3#", "a stalemate: black wins");
    let p = anti("8/8/8/8/8/8/1n6/B6b w - - 0 1");
    let m = san::parse(&p, "Bxb2").unwrap();
    assert_eq!(san::write_plus(&p, m), "Bxb2", "opposite bishops: a draw");
    let p = anti("8/8/8/8/8/8/7p/4K3 w - - 0 1");
    let m = san::parse(&p, "Kd1").unwrap();
    assert_eq!(san::write_plus(&p, m), "Kd1", "the game goes on");
    // RULES A7 (suicide): a stalemate with equal men is a draw, unmarked.
    let p: Suicide = pos("8/8/8/8/p7/8/P7/8 w - - 0 1");
    let m = san::parse(&p, "a3").unwrap();
    assert_eq!(san::write_plus(&p, m), "a3");
}
