//! Text forms: FEN (lenient input, precise errors), SAN (disambiguation,
//! input variants, round trips) and UCI.

use ransom::notation::{MoveParseError, fen, parse_move, san, uci};
use ransom::variants::{Antichess, Chess, Crazyhouse};
use ransom::{Color, Move, Position, Role, Square};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn chess(text: &str) -> Chess {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn chess_error(text: &str) -> String {
    match fen::parse_position::<Chess>(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

/// The SAN of every legal move, sorted.
fn sans<P: Position>(p: &P) -> Vec<String> {
    let legal = p.legal_moves();
    let mut v: Vec<String> = legal.iter().map(|&m| san::write_with(&legal, m)).collect();
    v.sort();
    v
}

#[test]
fn fen_missing_trailing_fields_take_defaults() {
    // Missing fields default to "w - - 0 1".
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let setup = fen::parse(board).unwrap();
    assert_eq!(setup.turn, Color::White);
    assert!(setup.castling.is_empty());
    assert_eq!(setup.ep_square, None);
    assert_eq!((setup.halfmoves, setup.fullmoves), (0, 1));
    assert_eq!(fen::write(&chess(board)), format!("{board} w - - 0 1"));
    assert_eq!(
        fen::write(&chess(&format!("{board} b"))),
        format!("{board} b - - 0 1")
    );
    assert_eq!(
        fen::write(&chess(&format!("{board} w KQkq"))),
        format!("{board} w KQkq - 0 1")
    );
    assert_eq!(
        fen::write(&chess(&format!("{board} w KQkq - 7"))),
        format!("{board} w KQkq - 7 1")
    );
    assert_eq!(fen::write(&chess(START)), START);
    // Surrounding white space is ignored.
    assert_eq!(fen::write(&chess(&format!("  {START}\n"))), START);
}

#[test]
fn fen_underscores_stand_for_spaces() {
    let text = START.replace(' ', "_");
    assert_eq!(fen::parse(&text).unwrap(), fen::parse(START).unwrap());
    assert_eq!(fen::write(&chess(&text)), START);
}

#[test]
fn fen_ninth_rank_pockets() {
    // The pocket may be written as a ninth rank instead of in brackets.
    let p: Crazyhouse =
        fen::parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qn w KQkq - 0 1").unwrap();
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1"
    );
    let pockets = p.to_setup().pockets.unwrap();
    assert_eq!(pockets[Color::White][Role::Queen], 1);
    assert_eq!(pockets[Color::Black][Role::Knight], 1);
    // An empty ninth rank, and '-' in brackets, both mean empty pockets.
    let empty = fen::parse("4k3/8/8/8/8/8/8/4K3/ w - - 0 1").unwrap();
    assert_eq!(
        empty
            .pockets
            .map(|p| p[Color::White].total() + p[Color::Black].total()),
        Some(0)
    );
    let dash = fen::parse("4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").unwrap();
    assert_eq!(dash.pockets, empty.pockets);
    // Chess rejects a non-empty pocket.
    let err = fen::parse_position::<Chess>("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("standard chess has no holdings"), "{err}");
}

#[test]
fn fen_errors_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "empty FEN"),
        ("   ", "empty FEN"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1",
            "invalid castling field 'KQx'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "expected 8 ranks separated by '/', found 7",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 has 7 squares (needs 8)",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 has more than 8 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            "rank 4 has more than 8 squares",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bad digit '9' on rank 6",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "unexpected character 'x' on rank 7",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "invalid side to move 'x' (expected 'w' or 'b')",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
            "invalid side to move 'white'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "invalid en-passant field 'e9'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
            "invalid en-passant square e4",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
            "invalid en-passant square e3: no white pawn can just have made a double step over it",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "invalid half-move clock 'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "invalid fullmove number '0'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "unexpected text after the fullmove number: 'extra'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qx] w KQkq - 0 1",
            "invalid holdings 'Qx'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q w KQkq - 0 1",
            "holdings '[Q' are not closed",
        ),
        (
            "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
            "white has 2 kings (needs exactly one)",
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "black has 0 kings (needs exactly one)",
        ),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on a back rank (a8)"),
        ("4k3/8/8/8/8/8/8/4K2p b - - 0 1", "pawn on a back rank (h1)"),
        (
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "the side not to move (black) is in check",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "castling right with the rook on h1 needs a white rook there",
        ),
    ];
    for &(text, expected) in cases {
        let err = chess_error(text);
        assert!(
            err.contains(expected),
            "FEN {text:?}: got {err:?}, expected {expected:?}"
        );
    }
    // Several problems are all listed.
    let err = chess_error("P3k3/8/8/8/8/8/8/K3K3 w - - 0 1");
    assert!(err.contains("pawn on a back rank (a8)"), "{err}");
    assert!(err.contains("white has 2 kings"), "{err}");
    // Antichess has no king rule, but still the back-rank rule.
    assert!(fen::parse_position::<Antichess>("8/8/8/8/8/8/8/K3K3 w - - 0 1").is_ok());
    let err = fen::parse_position::<Antichess>("P7/8/8/8/8/8/8/8 w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("pawn on a back rank (a8)"), "{err}");
}

/// Each problem of an illegal position has a kind a caller can match, and
/// the message is the same as before.
#[test]
fn position_problems_have_kinds() {
    use ransom::{PositionError, ProblemKind};
    let problems = |text: &str| -> PositionError {
        let setup = fen::parse(text).expect("well-formed FEN");
        ransom::AnyPosition::from_setup(ransom::Variant::Chess, &setup).unwrap_err()
    };
    let err = problems("P3k3/8/8/8/8/8/8/K3K3 w - - 0 1");
    assert_eq!(
        err.kinds().collect::<Vec<_>>(),
        vec![ProblemKind::Pawns, ProblemKind::Kings]
    );
    assert!(err.has(ProblemKind::Kings) && !err.has(ProblemKind::Check));
    assert_eq!(err.problems[0].message, "pawn on a back rank (a8)");
    assert_eq!(
        err.to_string(),
        "illegal position: pawn on a back rank (a8); white has 2 kings (needs exactly one)"
    );
    let check = problems("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    assert_eq!(check.kinds().collect::<Vec<_>>(), vec![ProblemKind::Check]);
}

#[test]
fn san_disambiguation_by_file_rank_and_both() {
    // By file: two knights reach d2.
    let p = chess("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let s = sans(&p);
    assert!(
        s.contains(&"Nbd2".to_string()) && s.contains(&"Nfd2".to_string()),
        "{s:?}"
    );
    assert!(s.contains(&"Nc3".to_string()), "{s:?}");
    assert!(!s.contains(&"Nd2".to_string()));
    // By rank: two rooks on one file.
    let p = chess("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    let s = sans(&p);
    for expected in ["R1a3", "R5a3", "R1a2", "R5a4", "Ra6", "Rb1", "Rb5"] {
        assert!(s.contains(&expected.to_string()), "{expected} not in {s:?}");
    }
    // By both: queens a1, c1 and a3 all reach b2.
    let p = chess("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    let s = sans(&p);
    for expected in ["Qa1b2", "Qcb2", "Q3b2"] {
        assert!(s.contains(&expected.to_string()), "{expected} not in {s:?}");
    }
    // A pinned rival does not cause disambiguation.
    let p = chess("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1");
    let pinned = Move::Normal {
        role: Role::Knight,
        from: sq("d2"),
        capture: None,
        to: sq("f3"),
        promotion: None,
    };
    assert!(!p.is_legal(pinned));
    let free = san::parse(&p, "Nf3").unwrap();
    assert_eq!(free.from(), Some(sq("g1")));
    assert_eq!(san::write(&p, free), "Nf3");
    // Captures and pawn captures.
    let p = chess("4k3/8/8/3p4/4P3/5N2/8/4K3 w - - 0 1");
    let s = sans(&p);
    assert!(s.contains(&"exd5".to_string()), "{s:?}");
    let p = chess("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    assert!(sans(&p).contains(&"Nxe5".to_string()));
}

#[test]
fn san_input_variants() {
    let castle = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = san::parse(&castle, "O-O").unwrap();
    assert_eq!(
        short,
        Move::Castle {
            king: sq("e1"),
            rook: sq("h1")
        }
    );
    assert_eq!(san::parse(&castle, "0-0").unwrap(), short);
    assert_eq!(san::parse(&castle, "O-O+").unwrap(), short);
    let long = san::parse(&castle, "O-O-O").unwrap();
    assert_eq!(
        long,
        Move::Castle {
            king: sq("e1"),
            rook: sq("a1")
        }
    );
    assert_eq!(san::parse(&castle, "0-0-0").unwrap(), long);
    // en passant written as a plain pawn capture
    let ep = chess("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(
        san::parse(&ep, "exd6").unwrap(),
        Move::EnPassant {
            from: sq("e5"),
            to: sq("d6")
        }
    );
    assert_eq!(san::parse(&ep, "exd6e.p.").ok(), None);
    // promotion without '=' (and lower-case letter)
    let promo = chess("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let queen = san::parse(&promo, "e8=Q").unwrap();
    assert_eq!(queen.promotion(), Some(Role::Queen));
    assert_eq!(san::parse(&promo, "e8Q").unwrap(), queen);
    assert_eq!(san::parse(&promo, "e8q").unwrap(), queen);
    assert_eq!(san::parse(&promo, "e8=Q+").unwrap(), queen);
    assert_eq!(
        san::parse(&promo, "e8N").unwrap().promotion(),
        Some(Role::Knight)
    );
    // A promotion must name the piece.
    assert!(matches!(
        san::parse(&promo, "e8"),
        Err(MoveParseError::Illegal(_))
    ));
    // check and annotation marks
    let start = Chess::start();
    let nf3 = uci::parse(&start, "g1f3").unwrap();
    for text in [
        "Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3+!?", "Nf3??", "Ng1f3", "Ngf3", "N1f3",
    ] {
        assert_eq!(san::parse(&start, text).unwrap(), nf3, "{text}");
    }
    // explicit pawn letter and capture sign on a quiet move
    assert_eq!(
        san::parse(&start, "Pe4").unwrap(),
        uci::parse(&start, "e2e4").unwrap()
    );
    // garbage
    for text in ["", "Zf3", "N", "Nf9", "e4e", "O-O-O-O", "xx"] {
        assert!(
            matches!(san::parse(&start, text), Err(MoveParseError::Syntax(_))),
            "{text:?}"
        );
    }
    // well-formed but illegal
    let err = san::parse(&start, "Nf4").unwrap_err();
    assert_eq!(err, MoveParseError::Illegal("Nf4".into()));
    assert_eq!(
        err.to_string(),
        "'Nf4' is not a legal move in this position"
    );
}

#[test]
fn san_pawn_push_is_not_a_capture() {
    // A pawn move without a file names the pawn on the destination's file:
    // `d6` is never read as `exd6` (python-chess and shakmaty agree).
    let p = chess("4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1");
    assert!(matches!(
        san::parse(&p, "d6"),
        Err(MoveParseError::Illegal(_))
    ));
    assert_eq!(
        san::parse(&p, "exd6").unwrap(),
        uci::parse(&p, "e5d6").unwrap()
    );
    let ep = chess("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert!(matches!(
        san::parse(&ep, "d6"),
        Err(MoveParseError::Illegal(_))
    ));
}

#[test]
fn ambiguous_san_is_rejected() {
    let p = chess("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let err = san::parse(&p, "Nd2").unwrap_err();
    assert_eq!(err, MoveParseError::Ambiguous("Nd2".into(), 2));
    assert_eq!(
        err.to_string(),
        "'Nd2' is ambiguous: it matches 2 legal moves"
    );
    assert!(san::parse(&p, "Nbd2").is_ok());
    assert!(san::parse(&p, "N1d2").is_ok());
    assert!(san::parse(&p, "N3d2").is_ok());
    let q = chess("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(
        san::parse(&q, "Qb2").unwrap_err(),
        MoveParseError::Ambiguous("Qb2".into(), 3)
    );
    assert_eq!(
        san::parse(&q, "Qab2").unwrap_err(),
        MoveParseError::Ambiguous("Qab2".into(), 2)
    );
    assert_eq!(
        san::parse(&q, "Q1b2").unwrap_err(),
        MoveParseError::Ambiguous("Q1b2".into(), 2)
    );
    assert_eq!(san::parse(&q, "Qa1b2").unwrap().from(), Some(sq("a1")));
}

#[test]
fn uci_castling_both_forms() {
    let p = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = Move::Castle {
        king: sq("e1"),
        rook: sq("h1"),
    };
    let long = Move::Castle {
        king: sq("e1"),
        rook: sq("a1"),
    };
    assert_eq!(uci::parse(&p, "e1g1").unwrap(), short);
    assert_eq!(uci::parse(&p, "e1h1").unwrap(), short);
    assert_eq!(uci::parse(&p, "e1c1").unwrap(), long);
    assert_eq!(uci::parse(&p, "e1a1").unwrap(), long);
    assert_eq!(uci::write(short), "e1g1");
    assert_eq!(uci::write(long), "e1c1");
    assert_eq!(parse_move(&p, "e1h1").unwrap(), short);
    // Black too.
    let p = chess("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(
        uci::parse(&p, "e8h8").unwrap(),
        Move::Castle {
            king: sq("e8"),
            rook: sq("h8")
        }
    );
    assert_eq!(uci::write(uci::parse(&p, "e8a8").unwrap()), "e8c8");
    // UCI syntax errors and illegal moves.
    assert!(matches!(
        uci::parse(&p, "e8"),
        Err(MoveParseError::Syntax(_))
    ));
    assert!(matches!(
        uci::parse(&p, "e8e9"),
        Err(MoveParseError::Syntax(_))
    ));
    assert!(matches!(
        uci::parse(&p, "e7e8p"),
        Err(MoveParseError::Syntax(_))
    ));
    assert!(matches!(
        uci::parse(&p, "e1g1"),
        Err(MoveParseError::Illegal(_))
    ));
    let err = parse_move(&p, "hello").unwrap_err();
    assert_eq!(
        err.to_string(),
        "'hello' is not a move in SAN or UCI notation"
    );
}

fn round_trip<P: Position>(p: &P) -> usize {
    let legal = p.legal_moves();
    for &m in &legal {
        let s = san::write(p, m);
        assert_eq!(san::parse(p, &s), Ok(m), "SAN {s} in {}", fen::write(p));
        let plus = san::write_plus(p, m);
        assert_eq!(
            san::parse(p, &plus),
            Ok(m),
            "SAN {plus} in {}",
            fen::write(p)
        );
        assert_eq!(parse_move(p, &s), Ok(m), "{s} in {}", fen::write(p));
        let u = uci::write(m);
        assert_eq!(uci::parse(p, &u), Ok(m), "UCI {u} in {}", fen::write(p));
        assert_eq!(parse_move(p, &u), Ok(m), "{u} in {}", fen::write(p));
    }
    // SAN strings are unique within a position.
    let mut all: Vec<String> = legal.iter().map(|&m| san::write(p, m)).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), legal.len(), "duplicate SAN in {}", fen::write(p));
    legal.len()
}

#[test]
fn san_and_uci_round_trips() {
    let mut total = 0;
    for text in [
        START,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
        "7k/1PP5/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "2r1k3/1P6/8/8/8/8/8/4K2R w K - 0 1",
    ] {
        total += round_trip(&chess(text));
    }
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "8/1P4P1/8/8/2k2K2/8/1p4p1/R6R b - - 0 1",
        "8/8/8/2RR4/8/2R5/8/8 w - - 0 1",
    ] {
        total += round_trip(&fen::parse_position::<Antichess>(text).unwrap());
    }
    for text in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        "r1b1k2r/ppp2ppp/2n5/3q4/1b1P4/2N5/PPP2PPP/R1BQKB1R[Nnp] w KQkq - 0 1",
    ] {
        total += round_trip(&fen::parse_position::<Crazyhouse>(text).unwrap());
    }
    assert_eq!(total, 526);
}

#[test]
fn san_writes_check_and_mate_marks() {
    let p = chess("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    let mate = san::parse(&p, "Qh4").unwrap();
    assert_eq!(san::write(&p, mate), "Qh4");
    assert_eq!(san::write_plus(&p, mate), "Qh4#");
    let p = chess("rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let check = san::parse(&p, "Qh5").unwrap();
    assert_eq!(san::write_plus(&p, check), "Qh5+");
}

#[test]
fn a_pgn_starting_with_a_byte_order_mark_reads_as_without_it() {
    // Editors on some systems start UTF-8 files with U+FEFF; it is not
    // part of the first tag or move.
    for text in [
        "\u{feff}1. e4 e5 2. Nf3 *",
        "\u{feff}[Event \"x\"]\n1. e4 *",
    ] {
        let game = ransom::notation::pgn::parse(text).unwrap();
        let plain = ransom::notation::pgn::parse(&text['\u{feff}'.len_utf8()..]).unwrap();
        assert_eq!(game.moves, plain.moves, "{text}");
        assert_eq!(game.tags, plain.tags, "{text}");
        assert_eq!(game.moves[0], "e4");
    }
}

#[test]
fn fen_without_clocks_drops_only_the_trailing_numbers() {
    assert_eq!(
        fen::without_clocks("8/8/8/8/8/8/8/K6k w - - 12 40"),
        "8/8/8/8/8/8/8/K6k w - -"
    );
    assert_eq!(
        fen::without_clocks("8/8/8/8/8/8/8/K6k w - -"),
        "8/8/8/8/8/8/8/K6k w - -"
    );
}
