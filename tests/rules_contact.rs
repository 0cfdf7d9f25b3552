//! RULES C: Contact chess — pawn steps, the backing rule, jumps and jump
//! captures, check defined by the capture rules, promotion to captured men,
//! the FEN bracket, no castling and no en passant. One test (or more) per
//! clause, each naming it.

use ransom::notation::{fen, parse_move, san, uci};
use ransom::variants::Contact;
use ransom::{AnyPosition, Color, OutcomeKind, Position, Role, Square, Variant};

fn pos(text: &str) -> Contact {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn play(mut p: Contact, moves: &[&str]) -> Contact {
    for text in moves {
        let m =
            parse_move(&p, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

/// The legal moves as sorted UCI strings.
fn ucis(p: &Contact) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

/// The legal moves from `from`, as sorted UCI strings.
fn from(p: &Contact, from: &str) -> Vec<String> {
    ucis(p)
        .into_iter()
        .filter(|u| u.starts_with(from))
        .collect()
}

/// The legal captures onto `to`, as sorted UCI strings.
fn captures_on(p: &Contact, to: &str) -> Vec<String> {
    let to = sq(to);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.is_capture() && m.to() == to)
        .map(|&m| uci::write(m))
        .collect();
    v.sort();
    v
}

fn has(p: &Contact, text: &str) -> bool {
    ucis(p).iter().any(|u| u == text)
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// C1 -----------------------------------------------------------------------

#[test]
fn start_position_moves() {
    // RULES C1, C3: 30 pawn moves (8 single, 8 double, 14 diagonal steps),
    // 4 knight moves and 12 jumps of the pieces over their own pawns.
    let p = Contact::start();
    let moves = ucis(&p);
    assert_eq!(moves.len(), 46);
    let jumps = [
        "a1a3", "h1h3", "c1a3", "c1e3", "f1d3", "f1h3", "d1b3", "d1d3", "d1f3", "e1c3", "e1e3",
        "e1g3",
    ];
    for j in jumps {
        assert!(moves.contains(&j.to_string()), "{j}");
    }
    assert!(has(&p, "a2b3") && has(&p, "e2d3") && has(&p, "e2f3"));
    assert!(!has(&p, "b1d2"));
}

#[test]
fn pawn_steps_forward_diagonally_and_sideways() {
    // RULES C1: forward, diagonally forward, sideways, onto empty squares.
    let p = pos("7k/8/8/8/4P3/8/8/K7 w - - 0 1");
    assert_eq!(
        from(&p, "e4"),
        strings(&["e4d4", "e4d5", "e4e5", "e4f4", "e4f5"])
    );
    // Black pawns go down the board.
    let p = pos("7k/8/8/3p4/8/8/8/K7 b - - 0 1");
    assert_eq!(
        from(&p, "d5"),
        strings(&["d5c4", "d5c5", "d5d4", "d5e4", "d5e5"])
    );
}

#[test]
fn pawn_double_step_only_straight_from_the_second_rank() {
    // RULES C1: two squares only straight forward from the relative 2nd
    // rank, both squares empty; never backward.
    let p = pos("7k/8/8/8/8/8/4P3/K7 w - - 0 1");
    assert_eq!(
        from(&p, "e2"),
        strings(&["e2d2", "e2d3", "e2e3", "e2e4", "e2f2", "e2f3"])
    );
    // A black man on e4 stops the double step (no capture either).
    let p = pos("7k/8/8/8/4n3/8/4P3/K7 w - - 0 1");
    assert!(!has(&p, "e2e4") && has(&p, "e2e3"));
    // A black man on e3 stops both.
    let p = pos("7k/8/8/8/8/4n3/4P3/K7 w - - 0 1");
    assert!(!has(&p, "e2e4") && !has(&p, "e2e3"));
    // A pawn that reached its 2nd rank sideways keeps the double step.
    let p = play(pos("7k/8/8/8/8/8/4P3/K7 w - - 0 1"), &["e2d2", "Kg8"]);
    assert!(has(&p, "d2d4"));
    // A pawn off its 2nd rank has no double step.
    let p = pos("7k/8/8/8/8/4P3/8/K7 w - - 0 1");
    assert!(!has(&p, "e3e5"));
}

#[test]
fn every_pawn_move_and_every_capture_resets_the_clock() {
    // RULES C1: a sideways pawn move resets the half-move clock, a king
    // move does not, a capture does.
    let p = pos("7k/8/8/8/4P3/8/8/K7 w - - 7 20");
    let after = play(p.clone(), &["e4d4"]);
    assert!(fen::write(&after).ends_with(" b - - 0 20"));
    let after = play(p, &["Kb2"]);
    assert!(fen::write(&after).ends_with(" b - - 8 20"));
    let after = play(pos("7k/8/8/n7/8/8/8/R5K1 w - - 7 20"), &["Rxa5"]);
    assert!(fen::write(&after).ends_with(" b - - 0 20"));
}

// C2 -----------------------------------------------------------------------

#[test]
fn backed_man_cannot_be_captured_by_an_ordinary_capture() {
    // RULES C2: a rook takes a5 when a6 is empty, not when any man stands on a6.
    let open = pos("7k/8/8/p7/8/8/8/R5K1 w - - 0 1");
    assert_eq!(captures_on(&open, "a5"), strings(&["a1a5"]));
    let black_behind = pos("7k/8/n7/p7/8/8/8/R5K1 w - - 0 1");
    assert!(captures_on(&black_behind, "a5").is_empty());
    let white_behind = pos("7k/8/N7/p7/8/8/8/R5K1 w - - 0 1");
    assert!(captures_on(&white_behind, "a5").is_empty());
    // The edge right after the target: nothing behind it.
    let edge = pos("n6k/8/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(captures_on(&edge, "a8"), strings(&["a1a8"]));
    // Bishops and queens too.
    let p = pos("7k/8/8/8/3p4/8/1B6/Q5K1 w - - 0 1");
    assert_eq!(captures_on(&p, "d4"), strings(&["b2d4"]));
    let p = pos("7k/8/4n3/3p4/8/8/B7/6K1 w - - 0 1");
    assert!(captures_on(&p, "d5").is_empty());
}

#[test]
fn knight_ignores_the_backing_rule() {
    // RULES C2: the knight has no line: it captures as in chess.
    let p = pos("7k/8/3n4/3p4/8/2N5/8/6K1 w - - 0 1");
    assert_eq!(captures_on(&p, "d5"), strings(&["c3d5"]));
}

#[test]
fn king_obeys_the_backing_rule() {
    // RULES C2: the king cannot take e5 while f6 backs it on the line d4-e5-f6.
    let backed = pos("7k/8/5n2/4n3/3K4/8/8/8 w - - 0 1");
    assert!(captures_on(&backed, "e5").is_empty());
    let open = pos("7k/8/8/4n3/3K4/8/8/8 w - - 0 1");
    assert_eq!(captures_on(&open, "e5"), strings(&["d4e5"]));
}

#[test]
fn pawns_never_make_ordinary_captures() {
    // RULES C2: a pawn facing three black men has only its sideways steps.
    let p = pos("7k/8/8/3nbr2/4P3/8/8/7K w - - 0 1");
    assert_eq!(from(&p, "e4"), strings(&["e4d4", "e4f4"]));
}

// C3 -----------------------------------------------------------------------

#[test]
fn rook_jumps_over_a_connected_chain_and_lands_just_beyond() {
    // RULES C3: a1 jumps over a2 and a3 to a4 (not further); along the
    // first rank it slides to d1 and stops at its own king.
    let p = pos("7k/8/8/8/8/P7/P7/R3K3 w - - 0 1");
    assert_eq!(from(&p, "a1"), strings(&["a1a4", "a1b1", "a1c1", "a1d1"]));
}

#[test]
fn sliders_do_not_slide_up_to_a_chain() {
    // RULES C3: the chain must start next to the mover: with a2 empty the
    // rook slides to a2 but does not jump a3.
    let p = pos("7k/8/8/8/8/P7/8/R5K1 w - - 0 1");
    assert_eq!(
        from(&p, "a1")
            .iter()
            .filter(|u| u.starts_with("a1a"))
            .count(),
        1
    );
    assert!(has(&p, "a1a2") && !has(&p, "a1a4"));
}

#[test]
fn knights_never_jump_and_the_landing_square_must_be_empty_for_a_jump_move() {
    // RULES C3: no knight jumps; the king jumps e2 to e3; the chain ends at
    // the first square that is not the mover's own.
    let p = pos("7k/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
    assert!(has(&p, "e1e3"));
    assert_eq!(from(&p, "g1"), strings(&["g1f3", "g1h3"]));
}

#[test]
fn pawn_jumps_forward_diagonally_and_sideways_never_backward() {
    // RULES C3: c4 jumps d4 to e4, d4 jumps c4 to b4; e2 jumps e3 to e4 (a
    // jump, not a double step, and never both: no e2e5); nothing backward.
    let p = pos("7k/8/8/8/2PP4/8/8/K7 w - - 0 1");
    assert!(has(&p, "c4e4") && has(&p, "d4b4"));
    let p = pos("7k/8/8/8/8/4P3/4P3/K7 w - - 0 1");
    assert!(has(&p, "e2e4") && !has(&p, "e2e5"));
    assert!(!has(&p, "e3e1"));
    let p = pos("7k/8/8/8/8/3P4/2P5/K7 w - - 0 1");
    assert!(has(&p, "c2e4"));
    assert!(!has(&p, "d3b1"));
}

// C4 -----------------------------------------------------------------------

#[test]
fn worked_example_of_the_rules_author() {
    // RULES C4: White pawns a2, b3, c4, Black pawns d5, e6: only a2 can take
    // d5 (it jumps two men, one stands behind d5).
    let p = pos("7k/8/4p3/3p4/2P5/1P6/P7/7K w - - 0 1");
    assert_eq!(captures_on(&p, "d5"), strings(&["a2d5"]));
    assert_eq!(san::write(&p, parse_move(&p, "a2d5").unwrap()), "axd5");
    // With a White pawn on e6 nobody can.
    let p = pos("7k/8/4P3/3p4/2P5/1P6/P7/7K w - - 0 1");
    assert!(captures_on(&p, "d5").is_empty());
    // With e6 empty both a2 and b3 can.
    let p = pos("7k/8/8/3p4/2P5/1P6/P7/7K w - - 0 1");
    assert_eq!(captures_on(&p, "d5"), strings(&["a2d5", "b3d5"]));
}

#[test]
fn run_behind_the_target_ending_on_the_movers_man_forbids_the_capture() {
    // RULES C4(b): d5, e6 black and then a White man on f7: forbidden even
    // for the two-man jump; with f7 empty only a2 (2 > 1).
    let p = pos("7k/5P2/4p3/3p4/2P5/1P6/P7/7K w - - 0 1");
    assert!(captures_on(&p, "d5").is_empty());
    // A longer run needs a longer chain: d5, e6, f7 black (run 2).
    let p = pos("7k/5p2/4p3/3p4/2P5/1P6/P7/7K w - - 0 1");
    assert!(captures_on(&p, "d5").is_empty());
}

#[test]
fn pieces_capture_by_jumping_too() {
    // RULES C4: the rook jumps a2 and takes a3 (a4 empty behind it).
    let p = pos("7k/8/8/8/8/p7/P7/R5K1 w - - 0 1");
    assert_eq!(captures_on(&p, "a3"), strings(&["a1a3"]));
    let m = parse_move(&p, "Rxa3").unwrap();
    assert_eq!(m.capture(), Some(Role::Pawn));
    // With a black man on a4 the run (1) equals the chain (1): forbidden.
    let p = pos("7k/8/8/8/n7/p7/P7/R5K1 w - - 0 1");
    assert!(captures_on(&p, "a3").is_empty());
}

// C5 -----------------------------------------------------------------------

#[test]
fn rook_does_not_check_a_king_with_a_man_behind_it() {
    // RULES C5: e6 (either colour) stands behind the king on the e-file.
    let p = pos("7K/8/4p3/4k3/8/8/8/4R3 b - - 0 1");
    assert!(!p.is_check());
    let p = pos("7K/8/4N3/4k3/8/8/8/4R3 b - - 0 1");
    assert!(!p.is_check());
    let p = pos("7K/8/8/4k3/8/8/8/4R3 b - - 0 1");
    assert!(p.is_check());
}

#[test]
fn king_checks_from_a_distance_by_a_jump_capture() {
    // RULES C5: e1 jumps e2, e3 and would take the king on e4.
    let p = pos("8/8/8/8/4k3/4P3/4P3/4K3 b - - 0 1");
    assert!(p.is_check());
    // The black king may not take e3 (e2 backs it).
    assert!(!has(&p, "e4e3"));
    // A run of one black man behind e4 is shorter than the chain: still check.
    let p = pos("8/8/8/4p3/4k3/4P3/4P3/4K3 b - - 0 1");
    assert!(p.is_check());
    // A run of two equals the chain: no check.
    let p = pos("8/8/4p3/4p3/4k3/4P3/4P3/4K3 b - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn pawn_checks_by_a_jump_capture() {
    // RULES C5: c4 jumps d5 and would take the king on e6.
    let p = pos("8/8/4k3/3P4/2P5/8/8/K7 b - - 0 1");
    assert!(p.is_check());
    // A black man on f7 behind the king: run 1, chain 1: no check.
    let p = pos("8/5p2/4k3/3P4/2P5/8/8/K7 b - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn pawn_capture_onto_the_last_rank_checks_only_if_it_could_promote() {
    // RULES C5, C6: e6 jumps e7 onto e8; with nothing to promote to it is
    // no threat, with a captured White knight it is check.
    let p = pos("4k3/4P3/4P3/8/8/8/8/K7 b - - 0 1");
    assert!(!p.is_check());
    let p = pos("4k3/4P3/4P3/8/8/8/8/K7[N] b - - 0 1");
    assert!(p.is_check());
    // Judged after the move: taking the White rook would give White a piece
    // to promote to and make the pawn check real, so Rxa1 is illegal.
    let p = pos("r3k3/4P3/4P3/8/8/7K/8/R7 b - - 0 1");
    assert!(!p.is_check());
    assert!(!has(&p, "a8a1"));
    assert!(has(&p, "a8a2"));
    // Taking a White pawn gives White nothing to promote to: legal.
    let p = pos("r3k3/4P3/4P3/8/8/7K/P7/8 b - - 0 1");
    assert!(has(&p, "a8a2"));
}

#[test]
fn king_may_not_capture_its_shield_when_that_exposes_it() {
    // RULES C5: the knight on e6 shields the king from the e1 rook; taking
    // it would leave the king on e6 with nothing behind it on the file.
    let p = pos("8/8/4N3/4k3/8/8/8/K3R3 b - - 0 1");
    assert!(!p.is_check());
    assert!(!has(&p, "e5e6"));
    // Without the rook the capture is legal.
    let p = pos("8/8/4N3/4k3/8/8/8/K7 b - - 0 1");
    assert!(has(&p, "e5e6"));
}

#[test]
fn kings_may_not_stand_where_the_other_king_could_capture_them() {
    // RULES C5: c4 touches the White king with nothing behind it; d4 is
    // backed by the black pawn on e5, so the kings may stand side by side.
    let p = pos("8/8/8/3kp3/8/2K5/8/8 b - - 0 1");
    assert!(!has(&p, "d5c4"));
    assert!(has(&p, "d5d4"));
    // Side by side, the black king now checks the White one (b2 is empty
    // behind c3), and White cannot take d4.
    let after = play(p, &["Kd4"]);
    assert!(after.is_check());
    assert!(!has(&after, "c3d4"));
}

#[test]
fn pinned_man_still_gives_check() {
    // RULES C5: the d6 knight is pinned against b4 by the f8 bishop, yet it
    // checks e8.
    let p = pos("4kb2/8/3N4/8/1K6/8/8/8 b - - 0 1");
    assert!(p.is_check());
    assert!(has(&p, "f8d6"));
}

#[test]
fn checkmate_wins() {
    // RULES C5: the a8 rook checks h8 along the open rank; g7, h7 and g8
    // are all capturable.
    let p = pos("R6k/1R6/8/8/8/8/8/K7 b - - 0 1");
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.kind, OutcomeKind::Checkmate);
    assert_eq!(outcome.winner, Some(Color::White));
}

// C6 -----------------------------------------------------------------------

#[test]
fn promotion_only_to_captured_men() {
    // RULES C6: with a captured White rook and knight, b7 may become a rook
    // or a knight on a8, b8 or c8.
    let p = pos("4k3/1P6/8/8/8/8/8/K7[RN] w - - 0 1");
    assert_eq!(
        from(&p, "b7"),
        strings(&[
            "b7a7", "b7a8n", "b7a8r", "b7b8n", "b7b8r", "b7c7", "b7c8n", "b7c8r"
        ])
    );
    // Black men captured do not help White.
    let p = pos("4k3/1P6/8/8/8/8/8/K7[qp] w - - 0 1");
    assert_eq!(from(&p, "b7"), strings(&["b7a7", "b7c7"]));
    // A jump onto the last rank promotes as well.
    let p = pos("4k3/1P6/1P6/8/8/8/8/K7[Q] w - - 0 1");
    assert!(has(&p, "b6b8q"));
    assert!(!has(&p, "b6b8"));
    let p = pos("4k3/1P6/1P6/8/8/8/8/K7 w - - 0 1");
    assert!(!from(&p, "b6").iter().any(|u| u.starts_with("b6b8")));
}

#[test]
fn promotion_uses_the_captured_man_and_the_pawn_leaves_the_game() {
    // RULES C6: the rook leaves the bracket, the pawn is not added; a
    // captured promoted man counts as its current type.
    let p = pos("r3k3/1P6/8/8/8/7K/8/8[RN] w - - 0 1");
    let after = play(p, &["b8=R"]);
    assert_eq!(fen::write(&after), "rR2k3/8/8/8/8/7K/8/8[N] b - - 0 1");
    assert!(after.is_check());
    let after = play(after, &["Rxb8"]);
    assert_eq!(fen::write(&after), "1r2k3/8/8/8/8/7K/8/8[RN] w - - 0 2");
    assert_eq!(after.captured(Color::White)[Role::Rook], 1);
    assert_eq!(after.captured(Color::White)[Role::Pawn], 0);
}

#[test]
fn fen_bracket_round_trip() {
    // RULES C6: every captured man in its own colour, canonical order
    // Q R B N P q r b n p; the bracket is always written.
    let text = "r1bqkbnr/ppp1pppp/8/8/8/8/1PPPPPPP/RNB1KBNR[QPn] w - - 0 12";
    assert_eq!(fen::write(&pos(text)), text);
    let messy = "r1bqkbnr/ppp1pppp/8/8/8/8/1PPPPPPP/RNB1KBNR[nPQ] w - - 0 12";
    assert_eq!(fen::write(&pos(messy)), text);
    assert_eq!(
        fen::write(&Contact::start()),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"
    );
    let plain = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_eq!(plain, Contact::start());
    // Captured men are part of the position (and of its hash).
    let with = pos("4k3/8/8/8/8/8/8/K7[N] w - - 0 1");
    let without = pos("4k3/8/8/8/8/8/8/K7 w - - 0 1");
    assert_ne!(with.zobrist(), without.zobrist());
    // A capture adds the man, in its own colour.
    let p = play(pos("7k/8/8/p7/8/8/8/R5K1 w - - 0 1"), &["Rxa5"]);
    assert_eq!(fen::write(&p), "7k/8/8/R7/8/8/8/6K1[p] b - - 0 1");
    assert_eq!(p.captured(Color::Black)[Role::Pawn], 1);
}

#[test]
fn fen_errors_name_the_problem() {
    // RULES C6, C7.
    let err = |text: &str| match fen::parse_position::<Contact>(text) {
        Ok(_) => panic!("{text} accepted"),
        Err(e) => e.to_string(),
    };
    let e = err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    assert!(e.contains("no castling"), "{e}");
    let e = err("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR[] b - e3 0 3");
    assert!(e.contains("no en passant"), "{e}");
    let e = err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[#] w - - 0 1");
    assert!(e.contains("without '#'"), "{e}");
    let e = err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w - - 0 1");
    assert!(e.contains("more than it started with"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/K7[k] w - - 0 1");
    assert!(e.contains("king is never captured"), "{e}");
    let e = err("7K/8/8/4k3/8/8/8/4R3 w - - 0 1");
    assert!(e.contains("side not to move"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(e.contains("kings"), "{e}");
}

// C7 -----------------------------------------------------------------------

#[test]
fn no_castling() {
    // RULES C7: king and rooks on their squares, still no castling.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R[] w - - 0 1");
    assert_eq!(
        from(&p, "e1"),
        strings(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

#[test]
fn no_en_passant() {
    // RULES C7: after e2-e4 beside a black pawn on d4 the FEN has no
    // en-passant square, and d4-e3 is a plain diagonal step that leaves e4.
    let p = play(pos("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), &["e4"]);
    assert_eq!(fen::write(&p), "4k3/8/8/8/3pP3/8/8/4K3[] b - - 0 1");
    let p = play(p, &["de3"]);
    assert_eq!(fen::write(&p), "4k3/8/8/8/4P3/4p3/8/4K3[] w - - 0 2");
}

#[test]
fn stalemate_and_bare_kings_draw() {
    // RULES C5, C7: stalemate is a draw; two bare kings can capture nothing.
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!p.is_check());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.kind, OutcomeKind::Stalemate);
    assert_eq!(outcome.winner, None);
    let p = pos("8/8/8/4k3/8/8/8/K7 w - - 0 1");
    assert_eq!(p.outcome().unwrap().kind, OutcomeKind::Draw);
}

#[test]
fn variant_name_and_any_position() {
    // RULES C: the variant by name, case-insensitive.
    assert_eq!("CONTACT".parse::<Variant>(), Ok(Variant::Contact));
    assert_eq!("Contact-Chess".parse::<Variant>(), Ok(Variant::Contact));
    assert_eq!(Variant::Contact.to_string(), "contact");
    let any = AnyPosition::start(Variant::Contact);
    assert_eq!(any.legal_moves().len(), 46);
    assert_eq!(any.variant(), Variant::Contact);
}

// Notation -------------------------------------------------------------------

#[test]
fn san_of_pawn_moves_round_trips() {
    // RULES C1, C3, C4: sideways and diagonal steps name the origin file;
    // a step and a jump to one square name the origin square.
    let p = pos("7k/8/8/8/8/3P4/3P4/K7 w - - 0 1");
    let legal = p.legal_moves();
    let texts: Vec<String> = legal.iter().map(|&m| san::write(&p, m)).collect();
    assert!(texts.contains(&"d3d4".to_string()), "{texts:?}");
    assert!(texts.contains(&"d2d4".to_string()), "{texts:?}");
    assert!(texts.contains(&"d2c3".to_string()), "{texts:?}");
    assert!(texts.contains(&"d3c3".to_string()), "{texts:?}");
    assert!(texts.contains(&"dc2".to_string()), "{texts:?}");
    for &m in &legal {
        let s = san::write(&p, m);
        assert_eq!(san::parse(&p, &s), Ok(m), "{s}");
    }
    let p = pos("4k3/1P6/8/8/8/8/8/K7[RN] w - - 0 1");
    for &m in &p.legal_moves() {
        let s = san::write(&p, m);
        assert_eq!(parse_move(&p, &s), Ok(m), "{s}");
    }
    assert_eq!(
        parse_move(&p, "bc8=N").unwrap(),
        parse_move(&p, "b7c8n").unwrap()
    );
    assert_eq!(
        san::write_plus(&p, parse_move(&p, "b8=R").unwrap()),
        "b8=R+"
    );
}
