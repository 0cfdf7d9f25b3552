//! RULES R: Hit-and-Run chess — sub-moves, captures only on a man's first
//! sub-move, the capturer's line and origin, forward pawns and promotion,
//! check between sub-moves, castling, en passant against either double step,
//! and the mid-turn FEN. One test (or more) per clause, each naming it.

use ransom::notation::fen::{self, FenError};
use ransom::notation::{parse_move, parse_turn, san, uci, write_turn_san, write_turn_uci};
use ransom::perft::{perft, perft_turns};
use ransom::variants::{Chess, HitAndRun};
use ransom::{Color, OutcomeKind, Position, Role, Square};

fn pos(text: &str) -> HitAndRun {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn play(mut p: HitAndRun, moves: &[&str]) -> HitAndRun {
    for text in moves {
        let m =
            parse_move(&p, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

/// The legal sub-moves as sorted UCI strings.
fn ucis(p: &HitAndRun) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

/// The legal sub-moves from `from`, as sorted UCI strings.
fn from(p: &HitAndRun, from: &str) -> Vec<String> {
    ucis(p)
        .into_iter()
        .filter(|u| u.starts_with(from))
        .collect()
}

fn has(p: &HitAndRun, text: &str) -> bool {
    ucis(p).iter().any(|u| u == text)
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The FEN error of `text`, which must be rejected.
fn rejected(text: &str) -> String {
    match fen::parse_position::<HitAndRun>(text) {
        Ok(p) => panic!("{text} accepted as {}", fen::write(&p)),
        Err(e) => e.to_string(),
    }
}

// ---------------------------------------------------------------------------
// R1: a side's first turn is a single sub-move, so the same placement with
// the same side to move later in the game is a different position.
#[test]
fn a_first_turn_is_its_own_position() {
    // RULES R1
    let start = pos("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    let later = play(
        start.clone(),
        &["a1a3", "e8d8", "a3c3", "c3a1", "d8d7", "d7e8"],
    );
    assert_eq!(later.board(), start.board(), "the men are back");
    assert_eq!(later.turn(), Color::White);
    assert!(fen::write(&later).ends_with(" 3"), "{}", fen::write(&later));
    assert_ne!(later.zobrist(), start.zobrist());
    assert_ne!(later.state().key(), start.state().key());
    // The same hash as a fresh parse of the later position's FEN.
    assert_eq!(pos(&fen::write(&later)).zobrist(), later.zobrist());
    // A first sub-move ends the turn only on the first turn.
    let mut one = start.clone();
    one.play(parse_move(&one, "a1a2").unwrap()).unwrap();
    assert_eq!(one.turn(), Color::Black);
    let mut two = later.clone();
    two.play(parse_move(&two, "a1a2").unwrap()).unwrap();
    assert_eq!(two.turn(), Color::White, "mid-turn");
}

// R1: turns of one, then two sub-moves.

#[test]
fn r1_first_turn_of_each_side_is_a_single_move_then_two() {
    // RULES R1
    let p = play(HitAndRun::start(), &["e4"]);
    assert_eq!(p.turn(), Color::Black);
    assert!(!p.is_mid_turn());
    let p = play(p, &["e5"]);
    assert_eq!(p.turn(), Color::White);
    let p = play(p, &["d4"]);
    assert_eq!(
        p.turn(),
        Color::White,
        "the turn goes on after a first sub-move"
    );
    assert!(p.is_mid_turn());
    let p = play(p, &["Nf3"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/pppp1ppp/8/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn r1_one_man_may_move_twice() {
    // RULES R1: d4 then d5 with the same pawn.
    let p = play(HitAndRun::start(), &["e4", "e5", "d4"]);
    assert!(has(&p, "d4d5"));
    let p = play(p, &["d5"]);
    assert_eq!(p.turn(), Color::Black);
}

#[test]
fn r1_turn_is_a_single_sub_move_when_no_second_is_legal() {
    // RULES R1: after e6 the pawn is blocked, the king has no safe square
    // and nothing else can move: the second sub-move is forfeited.
    let p = pos("7k/4p3/8/4P3/8/2n5/7r/K7 w - - 0 10");
    assert_eq!(ucis(&p), strings(&["e5e6"]));
    let after = play(p.clone(), &["e6"]);
    assert_eq!(after.turn(), Color::Black, "the turn ended");
    assert!(!after.is_mid_turn());
    assert_eq!(fen::write(&after), "7k/4p3/4P3/8/8/2n5/7r/K7 b - - 0 10");
    // As a whole turn in notation, the single sub-move is the turn.
    assert_eq!(parse_turn(&p, "e6").unwrap().len(), 1);
    assert!(parse_turn(&p, "e5e6,a1b1").is_err());
    // Perft counts the forfeited turn as one ply and one turn.
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(perft_turns(&p, 1), 1);
}

// ---------------------------------------------------------------------------
// R2: captures only on a man's first sub-move.

#[test]
fn r2_man_moving_a_second_time_never_captures() {
    // RULES R2: after Nxd5 the knight attacks e7 but may not take it.
    let p = pos("4k3/4p2p/8/3p4/8/4N3/8/4K2R w - - 0 10");
    let p = play(p, &["Nxd5"]);
    assert!(p.is_mid_turn());
    assert!(!has(&p, "d5e7"));
    assert!(
        p.legal_moves()
            .iter()
            .filter(|m| m.from() == Some(sq("d5")))
            .all(|m| !m.is_capture())
    );
}

#[test]
fn r2_two_different_men_may_both_capture() {
    // RULES R2
    let p = play(pos("4k3/4p2p/8/3p4/8/4N3/8/4K2R w - - 0 10"), &["Nxd5"]);
    assert!(has(&p, "h1h7"));
    let p = play(p, &["Rxh7"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.board().by_color(Color::Black).count(), 2);
}

// ---------------------------------------------------------------------------
// R3: the capturer's origin and line.

#[test]
fn r3_knight_that_captured_may_not_return_to_its_origin() {
    // RULES R3: a knight has no line, only the origin is forbidden.
    let p = play(pos("4k3/4p2p/8/3p4/8/4N3/8/4K2R w - - 0 10"), &["Nxd5"]);
    assert_eq!(
        from(&p, "d5"),
        strings(&["d5b4", "d5b6", "d5c3", "d5c7", "d5f4", "d5f6"])
    );
}

#[test]
fn r3_rook_that_captured_may_not_move_along_its_capture_line() {
    // RULES R3: Rxa5 along the a-file: the whole file is forbidden, in both
    // directions (a1 is the origin); the rank is free.
    let p = play(pos("4k3/8/8/p7/8/8/8/R3K3 w - - 0 10"), &["Rxa5"]);
    assert_eq!(
        from(&p, "a5"),
        strings(&["a5b5", "a5c5", "a5d5", "a5e5", "a5f5", "a5g5", "a5h5"])
    );
}

#[test]
fn r3_bishop_line_is_the_capture_diagonal_both_ways() {
    // RULES R3: Bxf4 from c1: the c1-h6 diagonal is forbidden, the other is free.
    let p = play(pos("4k3/8/8/8/5p2/8/8/2B1K3 w - - 0 10"), &["Bxf4"]);
    assert_eq!(
        from(&p, "f4"),
        strings(&["f4b8", "f4c7", "f4d6", "f4e5", "f4g3", "f4h2"])
    );
}

#[test]
fn r3_pawn_that_captured_and_promoted_keeps_its_capture_line() {
    // RULES R3, R4: bxa8=Q: the queen may not go back along the a8-h1
    // diagonal (b7 is the origin), may use the rank and the file, and does
    // not capture the king it now checks (RULES R5).
    let p = play(pos("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 10"), &["bxa8=Q"]);
    assert_eq!(
        from(&p, "a8"),
        strings(&[
            "a8a1", "a8a2", "a8a3", "a8a4", "a8a5", "a8a6", "a8a7", "a8b8", "a8c8", "a8d8"
        ])
    );
}

#[test]
fn r3_man_that_did_not_capture_may_return_to_its_start() {
    // RULES R3
    let p = play(HitAndRun::start(), &["e4", "e5", "Nf3"]);
    assert!(has(&p, "f3g1"));
    let p = play(p, &["Ng1"]);
    assert_eq!(p.turn(), Color::Black);
}

// ---------------------------------------------------------------------------
// R4: pawns forward only, promotion.

#[test]
fn r4_pawns_move_forward_only_and_promote_then_move_again() {
    // RULES R4: a blocked pawn has no move (never sideways or backward).
    let p = pos("4k3/8/8/4p3/4P3/8/8/K7 w - - 0 10");
    assert!(from(&p, "e4").is_empty());
    // Promotion to Q, R, B, N; the promoted man moves again, not capturing.
    let p = pos("1r2k3/P7/8/8/8/8/8/K7 w - - 0 10");
    assert_eq!(
        from(&p, "a7"),
        strings(&[
            "a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"
        ])
    );
    let p = play(p, &["a8=R"]);
    assert!(p.is_mid_turn());
    assert_eq!(p.board().role_at(sq("a8")), Some(Role::Rook));
    assert!(has(&p, "a8a2"));
    assert!(
        !has(&p, "a8b8"),
        "the promoted man moving again may not capture"
    );
}

// ---------------------------------------------------------------------------
// R5: check between sub-moves, mate and stalemate at the start of a turn.

#[test]
fn r5_check_on_the_first_sub_move_then_a_normal_second_sub_move() {
    // RULES R5: Qd7+ does not end the turn; the king then steps, and the
    // queen (moving again) may not capture the king.
    let p = play(pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 10"), &["Qd7+"]);
    assert!(p.is_mid_turn());
    assert_eq!(p.turn(), Color::White);
    assert!(!p.is_check(), "the mover is not in check");
    assert!(p.outcome().is_none());
    assert!(!has(&p, "d7e8"));
    assert!(has(&p, "e1e2"));
    let p = play(p, &["Ke2"]);
    assert_eq!(p.turn(), Color::Black);
    assert!(p.is_check());
    assert!(p.outcome().is_none());
}

#[test]
fn r5_first_sub_move_must_remove_a_check() {
    // RULES R5: Re7 checks; only king moves get out of it.
    let p = pos("4k3/4r3/8/8/8/8/8/R3K3 w - - 0 10");
    assert!(p.is_check());
    assert!(p.legal_moves().iter().all(|m| m.role() == Role::King));
    assert_eq!(ucis(&p), strings(&["e1d1", "e1d2", "e1f1", "e1f2"]));
}

#[test]
fn r5_second_sub_move_may_not_expose_the_own_king() {
    // RULES R5: after a first sub-move elsewhere (Rh2), the bishop pinned
    // on the e-file by the rook still may not move.
    let p = play(pos("4r1k1/8/8/8/8/8/4B3/4K2R w - - 0 10"), &["Rh2"]);
    assert!(from(&p, "e2").is_empty());
}

#[test]
fn r5_checkmate_and_stalemate_are_judged_at_the_start_of_a_turn() {
    // RULES R5
    let mate = pos("4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 10");
    let outcome = mate.outcome().unwrap();
    assert_eq!(outcome.kind, OutcomeKind::Checkmate);
    assert_eq!(outcome.winner, Some(Color::Black));
    let stalemate = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 10");
    assert_eq!(stalemate.outcome().unwrap().kind, OutcomeKind::Stalemate);
}

// ---------------------------------------------------------------------------
// R6: castling.

#[test]
fn r6_castling_is_one_sub_move_and_the_rook_may_then_capture() {
    // RULES R6
    let p = play(pos("r3k2r/5p2/8/8/8/8/8/R3K2R w KQkq - 0 10"), &["O-O"]);
    assert!(p.is_mid_turn());
    assert!(has(&p, "f1f7"), "the castled rook is not counted as moved");
    assert!(has(&p, "g1g2"), "the king may move again");
    assert!(!has(&p, "e1c1"));
    let p = play(p, &["Rxf7"]);
    assert_eq!(p.turn(), Color::Black);
}

#[test]
fn r6_castling_as_second_sub_move_after_removing_a_check() {
    // RULES R6: Rxa5 removes the bishop's check; then O-O is legal.
    let p = pos("4k3/8/8/b7/8/8/8/R3K2R w KQ - 0 10");
    assert!(p.is_check());
    assert!(!has(&p, "e1g1"));
    let p = play(p, &["Rxa5"]);
    assert!(has(&p, "e1g1"));
    assert!(!has(&p, "e1c1"), "the a1 rook has moved");
    let p = play(p, &["O-O"]);
    assert_eq!(p.board().role_at(sq("g1")), Some(Role::King));
    assert_eq!(p.turn(), Color::Black);
}

// ---------------------------------------------------------------------------
// R7: en passant.

const TWO_DOUBLE_STEPS: &str = "4k3/8/8/2pP1pP1/8/8/8/4K3 w - c6,f6 0 20";

#[test]
fn r7_en_passant_against_each_of_two_double_steps() {
    // RULES R7: c7-c5 and f7-f5 in Black's last turn; both may be taken.
    let p = pos(TWO_DOUBLE_STEPS);
    assert!(has(&p, "d5c6") && has(&p, "g5f6"));
    let after_first = play(p.clone(), &["d5c6"]);
    assert!(after_first.board().piece_at(sq("c5")).is_none());
    assert!(
        has(&after_first, "g5f6"),
        "the other double step, second sub-move"
    );
    let both = play(after_first, &["g5f6"]);
    assert!(both.board().by_role(Role::Pawn).count() == 2);
    // The other order.
    let after_g = play(p, &["gxf6"]);
    assert!(has(&after_g, "d5c6"));
    assert!(
        !has(&after_g, "f6e7"),
        "the capturing pawn moves again without capturing"
    );
}

#[test]
fn r7_en_passant_as_second_sub_move_and_expiry_after_the_turn() {
    // RULES R7: a first sub-move elsewhere, then en passant; a double step
    // not taken in the following turn expires.
    let p = play(pos(TWO_DOUBLE_STEPS), &["Ke2"]);
    assert!(has(&p, "d5c6") && has(&p, "g5f6"));
    let p = play(p, &["Kd3"]);
    let p = play(p, &["Kd8", "Ke8"]);
    assert!(!has(&p, "d5c6") && !has(&p, "g5f6"));
    assert_eq!(p.ep_squares().count(), 0);
}

#[test]
fn r7_a_double_step_followed_by_a_second_move_of_that_pawn_cannot_be_taken() {
    // RULES R7: c7-c5 then c5-c4: nothing to take; c7-c5 then another
    // move: the square is written in the mid-turn FEN and capturable next turn.
    let start = pos("4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 20");
    let p = play(start.clone(), &["c5"]);
    assert_eq!(fen::write(&p), "4k3/8/8/2pP4/8/8/8/4K3 b - c6 0 20 sub=c5");
    let moved_again = play(p.clone(), &["c4"]);
    assert!(!has(&moved_again, "d5c6"));
    let other = play(p, &["Kf8"]);
    assert_eq!(fen::write(&other), "5k2/8/8/2pP4/8/8/8/4K3 w - c6 1 21");
    assert!(has(&other, "d5c6"));
}

#[test]
fn r7_skipped_square_must_be_empty_when_taking() {
    // RULES R7: the first sub-move puts a man on c6; no en passant there.
    let p = play(pos("4k3/8/8/2pP4/1N6/8/8/4K3 w - c6 0 20"), &["Nc6"]);
    assert!(!has(&p, "d5c6"));
}

// ---------------------------------------------------------------------------
// R8: mid-turn FEN.

#[test]
fn r8_mid_turn_fen_with_sub_field_and_capture_origin() {
    // RULES R8
    let p = play(pos("4k3/4p2p/8/3p4/8/4N3/8/4K2R w - - 0 10"), &["Nxd5"]);
    let text = fen::write(&p);
    assert_eq!(text, "4k3/4p2p/8/3N4/8/8/8/4K2R w - - 0 10 sub=d5xe3");
    assert_eq!(pos(&text), p);
    let p = play(HitAndRun::start(), &["e4", "e5", "d4"]);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 2 sub=d4"
    );
}

#[test]
fn r8_mid_turn_and_turn_start_are_distinct_positions() {
    // RULES R8: same board and side to move, one mid-turn: different hash,
    // not equal, different repetition key.
    let a = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 10");
    let b = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=d1");
    let c = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=e1");
    assert_ne!(a, b);
    assert_ne!(b, c);
    assert_ne!(a.zobrist(), b.zobrist());
    assert_ne!(b.zobrist(), c.zobrist());
    assert_ne!(a.state().key(), b.state().key());
    assert_eq!(b.zobrist(), b.state().compute_hash());
}

#[test]
fn r8_several_en_passant_squares_read_and_written() {
    // RULES R8: two opponent's squares at a turn start; the mover's own
    // square in the middle of a turn, told apart by rank.
    let p = pos(TWO_DOUBLE_STEPS);
    assert_eq!(fen::write(&p), TWO_DOUBLE_STEPS);
    let mid = pos("4k3/8/8/2pP4/4Pp2/8/8/4K3 w - c6,e3 0 20 sub=e4");
    assert_eq!(
        fen::write(&mid),
        "4k3/8/8/2pP4/4Pp2/8/8/4K3 w - e3,c6 0 20 sub=e4"
    );
    assert!(has(&mid, "d5c6"));
    let next = play(mid, &["Kd2"]);
    assert!(
        has(&next, "f4e3"),
        "White's own double step, capturable next turn"
    );
}

#[test]
fn r8_malformed_sub_fields_are_rejected() {
    // RULES R8: clear errors, never a panic.
    let base = "4k3/8/8/8/8/8/8/3QK3 w - - 0 10";
    for bad in [
        "sub=",
        "sub=z9",
        "sub=d1x",
        "sub=d1xd1",
        "sub=d1xj2",
        "sub=d1e2",
        "sub=d1xe2x",
    ] {
        let err = fen::parse(&format!("{base} {bad}")).unwrap_err();
        assert!(matches!(err, FenError::Sub(_)), "{bad}: {err}");
        assert!(err.to_string().contains("sub=<square>"), "{err}");
    }
    let err = fen::parse(&format!("{base} sub d1")).unwrap_err();
    assert!(matches!(err, FenError::Trailing(_)), "{err}");
    for bad_ep in ["e3,", "e3,e3", "e3;d3", ",e3"] {
        let err = fen::parse(&format!("4k3/8/8/8/4P3/8/8/4K3 b - {bad_ep} 0 10")).unwrap_err();
        assert!(matches!(err, FenError::EnPassant(_)), "{bad_ep}: {err}");
    }
}

#[test]
fn r8_impossible_mid_turn_states_are_rejected() {
    // RULES R8 (with R1, R3, R5, R6, R7): each with the rule it breaks.
    let cases: &[(&str, &str)] = &[
        (
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=d4",
            "without a white man",
        ),
        (
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=e8",
            "without a white man",
        ),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 sub=d1", "first turn"),
        (
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=d1xb2",
            "cannot have captured",
        ),
        ("4k3/8/8/8/8/8/3P4/3QK3 w - - 0 10 sub=d1xd2", "occupied"),
        (
            "4k3/8/8/8/8/8/8/3QK2q w - - 0 10 sub=d1",
            "own king in check",
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 10 sub=a1", "castling right"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 10 sub=e1", "castling right"),
        (
            "7k/4p3/4P3/8/8/2n5/7r/K7 w - - 0 10 sub=e6",
            "no second sub-move is legal",
        ),
        (
            "4k3/8/8/2pP4/4P3/8/8/4K3 w - e3 0 20",
            "only squares skipped by black",
        ),
        (
            "4k3/8/8/2pP4/4P3/3P4/8/4K3 w - e3 0 20 sub=d3",
            "skipped by the man",
        ),
        (
            "4k3/8/8/3P4/8/8/8/4K3 w - c6 0 20",
            "no black pawn stands on c5",
        ),
        ("4k3/8/8/3P4/8/8/8/4K3 w - c5 0 20", "rank 3"),
        ("4k3/8/8/pP1pP3/8/8/8/4K3 w - a6,d6,e6 0 20", "at most 2"),
        ("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1", "at most 0"),
    ];
    for (text, expected) in cases {
        let err = rejected(text);
        assert!(err.contains(expected), "{text}: '{err}' lacks '{expected}'");
        assert!(err.contains("RULES R"), "{text}: '{err}' cites no clause");
    }
}

#[test]
fn r8_other_variants_reject_the_hit_and_run_fields() {
    // RULES R8: the sub= field and several en-passant squares are Hit-and-Run only.
    let err = fen::parse_position::<Chess>("4k3/8/8/8/8/8/8/3QK3 w - - 0 10 sub=d1").unwrap_err();
    assert!(err.to_string().contains("sub="), "{err}");
    let err = fen::parse_position::<Chess>(TWO_DOUBLE_STEPS).unwrap_err();
    assert!(err.to_string().contains("several en-passant"), "{err}");
}

/// Positions whose every legal sub-move is checked for round trips.
const ROUND_TRIP_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 2 sub=d4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 2",
    TWO_DOUBLE_STEPS,
    "4k3/8/8/2pP4/4Pp2/8/8/4K3 w - e3,c6 0 20 sub=e4",
    "4k3/4p2p/8/3N4/8/8/8/4K2R w - - 0 10 sub=d5xe3",
    "r3k2r/5p2/8/8/8/8/8/R3K2R w KQkq - 0 10",
    "1r2k3/P7/8/8/8/8/8/K7 w - - 0 10",
    "7k/4p3/8/4P3/8/2n5/7r/K7 w - - 0 10",
];

#[test]
fn r8_fen_and_move_notation_round_trip_for_every_legal_move() {
    // RULES R8: every child's FEN reads back to an equal position with the
    // same FEN and hash; every sub-move reads back from its UCI and SAN.
    for text in ROUND_TRIP_POSITIONS {
        let p = pos(text);
        assert_eq!(fen::write(&p), *text, "FEN of the test position");
        for m in p.legal_moves() {
            let u = uci::write(m);
            assert_eq!(uci::parse(&p, &u), Ok(m), "UCI {u} in {text}");
            let s = san::write(&p, m);
            assert_eq!(parse_move(&p, &s), Ok(m), "SAN {s} in {text}");
            let mut child = p.clone();
            child.play_unchecked(m);
            let written = fen::write(&child);
            let back = pos(&written);
            assert_eq!(back, child, "{written} after {u} in {text}");
            assert_eq!(fen::write(&back), written);
            assert_eq!(back.zobrist(), child.zobrist());
            assert_eq!(child.zobrist(), child.state().compute_hash());
        }
    }
}

#[test]
fn r8_whole_turns_in_uci_and_san() {
    // RULES R8 (notation): `e2e4,g1f3` and `e4,Nf3` name a whole turn.
    let p = play(HitAndRun::start(), &["e4", "e5"]);
    let turn = parse_turn(&p, "d2d4,g1f3").unwrap();
    assert_eq!(parse_turn(&p, "d4,Nf3").unwrap(), turn);
    assert_eq!(write_turn_uci(&turn), "d2d4,g1f3");
    assert_eq!(write_turn_san(&p, &turn), "d4,Nf3");
    assert!(parse_turn(&p, "d4,Nf3,Nc3").is_err());
    assert!(parse_turn(&p, "d4,").is_err());
    assert!(parse_turn(&HitAndRun::start(), "e4,d4").is_err());
    // A single sub-move is accepted mid-turn.
    let mid = play(p, &["d4"]);
    assert_eq!(parse_turn(&mid, "Nf3").unwrap().len(), 1);
    // Other variants: a turn is one move.
    assert!(parse_turn(&Chess::start(), "e4,e5").is_err());
}

#[test]
fn perft_counts_sub_moves_and_perft_turns_whole_turns() {
    // RULES R1, R8: perft counts sub-moves as plies; perft_turns counts turns.
    let start = HitAndRun::start();
    assert_eq!(perft(&start, 3), 8902);
    assert_eq!(perft_turns(&start, 2), 400);
    assert_eq!(perft_turns(&start, 3), perft(&start, 4));
    assert_eq!(perft_turns(&Chess::start(), 3), perft(&Chess::start(), 3));
}
