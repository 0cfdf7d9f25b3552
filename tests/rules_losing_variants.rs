//! RULES A8: the further rule sets of Losing chess, one test per rule that
//! differs from the international rules (and the decisions of docs/rules.md,
//! section A8).

use ransom::notation::{fen, uci};
use ransom::variants::{
    Antichess, Kamikaze, Kamikaze2, Losers, LosingQpromo, LosingRoyal, LosingRoyalMated,
};
use ransom::{Color, OutcomeKind, Position, Variant};

fn pos<P: Position>(text: &str) -> P {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves in UCI, sorted.
fn ucis<P: Position>(p: &P) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

/// The legal moves of the man on b7.
fn from_b7<P: Position>(p: &P) -> Vec<String> {
    ucis(p)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect()
}

fn play<P: Position>(mut p: P, moves: &[&str]) -> P {
    for text in moves {
        let m = ransom::notation::parse_move(&p, text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

fn winner<P: Position>(p: &P) -> Option<Option<Color>> {
    p.outcome().map(|o| o.winner)
}

/// Fool's mate: White is checkmated after 1.f3 e5 2.g4 Qh4.
fn fools_mate<P: Position>() -> P {
    let p = play(P::start(), &["f3", "e5", "g4", "Qh4"]);
    assert!(p.is_check() && p.legal_moves().is_empty());
    p
}

/// Black to move, not in check, with no legal move (a blocked pawn).
const STALEMATE: &str = "k7/8/1Q6/p7/P7/8/8/7K b - - 0 1";

#[test]
fn every_variant_name_reads_back() {
    for name in [
        "losing-qpromo",
        "losing-royal",
        "losing-royal-mated",
        "losers",
        "kamikaze",
        "kamikaze2",
        "hitandrun-simultaneous",
    ] {
        let v: Variant = name.parse().unwrap();
        assert_eq!(v.name(), name);
        assert!(Variant::ALL.contains(&v));
        assert!(!v.description().is_empty());
    }
}

// losing-qpromo -----------------------------------------------------------

#[test]
fn qpromo_promotes_to_a_queen_only() {
    // RULES A8 `losing-qpromo`: no rook, bishop, knight or king.
    let p: LosingQpromo = pos("7k/1P6/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(ucis(&p), ["b7b8q"]);
    let anti: Antichess = pos("7k/1P6/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(anti.legal_moves().len(), 5);
}

#[test]
fn qpromo_stalemate_is_a_draw() {
    // RULES A8 `losing-qpromo`: stalemate draws (international rules: the
    // stalemated side wins, A5).
    let text = "8/8/8/8/8/p7/P7/8 w - - 0 1";
    let p: LosingQpromo = pos(text);
    let o = p.outcome().unwrap();
    assert_eq!((o.kind, o.winner), (OutcomeKind::Stalemate, None));
    assert_eq!(winner(&pos::<Antichess>(text)), Some(Some(Color::White)));
    // Losing all men still wins.
    let p: LosingQpromo = pos("8/8/8/8/8/8/1p6/8 w - - 0 1");
    assert_eq!(winner(&p), Some(Some(Color::White)));
}

// losing-royal and losing-royal-mated -------------------------------------

#[test]
fn royal_check_takes_precedence_over_capture() {
    // RULES A8 `losing-royal`: in check, any legal evasion is allowed, the
    // capture of the checker is not compulsory.
    let text = "7k/8/8/8/4r3/2N5/8/4K3 w - - 0 1";
    let p: LosingRoyal = pos(text);
    assert!(p.is_check());
    assert_eq!(ucis(&p), ["c3e2", "c3e4", "e1d1", "e1d2", "e1f1", "e1f2"]);
    let p: LosingRoyalMated = pos(text);
    assert_eq!(p.legal_moves().len(), 6);
    let p: Kamikaze = pos(text);
    assert_eq!(p.legal_moves().len(), 6);
}

#[test]
fn royal_captures_stay_compulsory_out_of_check() {
    // RULES A1 among the legal moves: 1.e4 d5 forces 2.exd5.
    let p = play(LosingRoyal::start(), &["e4", "d5"]);
    assert_eq!(ucis(&p), ["e4d5"]);
}

#[test]
fn royal_no_move_may_leave_the_king_in_check() {
    // RULES A8 `losing-royal`: the pinned knight may not take, so the duty
    // to capture lapses (under the international rules Nxc3 is forced), and
    // the king may not step onto d2, attacked by the pawn.
    let text = "4r2k/8/8/8/8/2p5/4N3/4K3 w - - 0 1";
    let p: LosingRoyal = pos(text);
    assert_eq!(ucis(&p), ["e1d1", "e1f1", "e1f2"]);
    assert_eq!(ucis(&pos::<Antichess>(text)), ["e2c3"]);
}

#[test]
fn royal_lone_king_wins() {
    // RULES A8 `losing-royal`: a player reduced to a lone king wins.
    let p: LosingRoyal = pos("k7/8/8/8/8/8/1p6/K6N w - - 0 1");
    assert_eq!(winner(&p), None);
    let p = play(p, &["Kxb2"]);
    let o = p.outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::VariantWin, Some(Color::Black))
    );
}

#[test]
fn royal_checkmating_side_wins() {
    // RULES A8 `losing-royal`: checkmating the opponent wins.
    let o = fools_mate::<LosingRoyal>().outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::Checkmate, Some(Color::Black))
    );
}

#[test]
fn royal_mated_checkmated_side_wins() {
    // RULES A8 `losing-royal-mated`: being checkmated wins.
    let o = fools_mate::<LosingRoyalMated>().outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::Checkmate, Some(Color::White))
    );
}

#[test]
fn royal_stalemate_is_a_draw() {
    // RULES A8 `losing-royal`, `losing-royal-mated`: stalemate draws.
    assert_eq!(winner(&pos::<LosingRoyal>(STALEMATE)), Some(None));
    assert_eq!(winner(&pos::<LosingRoyalMated>(STALEMATE)), Some(None));
}

#[test]
fn royal_promotions_exclude_the_king() {
    // docs/rules.md A8: with a royal king a pawn promotes to Q, R, B or N.
    let p: LosingRoyal = pos("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(from_b7(&p), ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]);
}

#[test]
fn royal_rule_sets_have_no_castling() {
    // RULES A3 holds for `losing-royal` and `losing-royal-mated`.
    let text = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let err = fen::parse_position::<LosingRoyal>(text).unwrap_err();
    assert!(err.to_string().contains("no castling"), "{err}");
    assert!(LosingRoyal::start().to_setup().castling.is_empty());
}

#[test]
fn royal_two_lone_kings_draw() {
    // docs/rules.md A8: a position (only from a FEN) where both sides have
    // a lone king is a draw.
    let p: LosingRoyal = pos("k7/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(winner(&p), Some(None));
}

// losers --------------------------------------------------------------------

#[test]
fn losers_capture_is_compulsory_in_check_too() {
    // RULES A8 `losers`: among the check evasions a capture is compulsory.
    let p: Losers = pos("7k/8/8/8/4r3/2N5/8/4K3 w - - 0 1");
    assert_eq!(ucis(&p), ["c3e4"]);
}

#[test]
fn losers_checkmated_side_wins() {
    // RULES A8 `losers`: being checkmated wins.
    let o = fools_mate::<Losers>().outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::Checkmate, Some(Color::White))
    );
}

#[test]
fn losers_stalemated_side_wins() {
    // RULES A8 `losers`: being stalemated wins.
    let o = pos::<Losers>(STALEMATE).outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::Stalemate, Some(Color::Black))
    );
}

#[test]
fn losers_lone_king_wins() {
    // RULES A8 `losers`: losing all men but the king wins.
    let p = play(pos::<Losers>("k7/8/8/8/8/8/1p6/K6N w - - 0 1"), &["Kxb2"]);
    assert_eq!(winner(&p), Some(Some(Color::Black)));
}

#[test]
fn losers_castles_as_in_chess() {
    // RULES A8 `losers`: castling as in orthodox chess, never through check.
    let p: Losers = pos("r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1");
    let moves = ucis(&p);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    let p: Losers = pos("r3k2r/p6p/8/8/8/8/P6P/R3K1R1 b kq - 0 1");
    assert!(!ucis(&p).contains(&"e8g8".to_string()));
    assert!(ucis(&p).contains(&"e8c8".to_string()));
}

#[test]
fn losers_start_perft_is_152955() {
    // RULES A8: the widely used multi-variant engine's figure.
    assert_eq!(ransom::perft::perft(&Losers::start(), 4), 152_955);
}

// kamikaze ----------------------------------------------------------------

#[test]
fn kamikaze_lone_king_may_move_into_attack() {
    // RULES A8 `kamikaze`: no move into check until the king is the only man.
    let p: Kamikaze = pos("7k/8/8/8/8/8/r7/7K w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(ucis(&p), ["h1g1", "h1g2", "h1h2"]);
    // With another man the king is royal: it may not.
    let p: Kamikaze = pos("7k/8/8/8/8/8/r7/6NK w - - 0 1");
    assert_eq!(ucis(&p), ["g1e2", "g1f3", "g1h3"]);
}

#[test]
fn kamikaze_king_is_lost_last_and_losing_all_men_wins() {
    // RULES A8 `kamikaze`: the lone king is captured (a compulsory
    // capture), and its side, without men, wins.
    let p = play(pos::<Kamikaze>("7k/8/8/8/8/8/r7/7K w - - 0 1"), &["Kg2"]);
    assert_eq!(ucis(&p), ["a2g2"]);
    let p = play(p, &["Rxg2"]);
    let o = p.outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::VariantWin, Some(Color::White))
    );
    // A lone king is not a win by itself.
    let p: Kamikaze = pos("k7/8/8/8/8/8/1p6/K7 b - - 0 1");
    assert_eq!(winner(&p), None);
}

#[test]
fn kamikaze_lone_king_gives_check() {
    // docs/rules.md A8: a lone king attacks like any man, so a royal king
    // next to it is in check and must deal with it.
    let p: Kamikaze = pos("7k/p5K1/8/8/8/8/8/8 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(ucis(&p), ["h8g7"]);
}

#[test]
fn kamikaze_promotes_to_a_queen_only() {
    let p: Kamikaze = pos("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(from_b7(&p), ["b7b8q"]);
}

#[test]
fn kamikaze_checkmating_side_wins_and_stalemate_draws() {
    // RULES A8 `kamikaze`: checkmating wins; docs/rules.md A8: stalemate draws.
    let o = fools_mate::<Kamikaze>().outcome().unwrap();
    assert_eq!(
        (o.kind, o.winner),
        (OutcomeKind::Checkmate, Some(Color::Black))
    );
    assert_eq!(winner(&pos::<Kamikaze>(STALEMATE)), Some(None));
}

#[test]
fn kamikaze_side_without_men_needs_no_king() {
    // docs/rules.md A8: a side with no men has no king; otherwise one.
    assert!(fen::parse_position::<Kamikaze>("7k/8/8/8/8/8/8/8 w - - 0 1").is_ok());
    assert!(fen::parse_position::<Kamikaze>("7k/8/8/8/8/8/8/7N w - - 0 1").is_err());
    assert!(fen::parse_position::<LosingRoyal>("7k/8/8/8/8/8/8/8 w - - 0 1").is_err());
}

// kamikaze2 ---------------------------------------------------------------

#[test]
fn kamikaze2_black_moves_first() {
    // RULES A8 `kamikaze2`.
    let p = Kamikaze2::start();
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn kamikaze2_castles_without_attack_conditions() {
    // RULES A8 `kamikaze2`: castling allowed; docs/rules.md A8: nothing is
    // royal, so the king may castle through an attacked square.
    let p: Kamikaze2 = pos("r3k2r/8/8/8/8/8/8/4KR2 b kq - 0 1");
    let moves = ucis(&p);
    assert!(moves.contains(&"e8g8".to_string()) && moves.contains(&"e8c8".to_string()));
    // Castling is not a capture: a capture comes first.
    let p: Kamikaze2 = pos("r3k2r/8/8/8/8/8/8/4KR1r b kq - 0 1");
    assert_eq!(ucis(&p), ["h1f1"]);
}

#[test]
fn kamikaze2_promotes_to_a_king() {
    let p: Kamikaze2 = pos("7k/1P6/8/8/8/8/8/8 w - - 0 1");
    assert!(ucis(&p).contains(&"b7b8k".to_string()));
}

#[test]
fn kamikaze2_blocked_lone_pawn_passes() {
    // RULES A8 `kamikaze2`: White's only man, a pawn, is blocked: Black
    // keeps moving.
    let p: Kamikaze2 = pos("8/8/8/8/8/p7/P7/7k b - - 0 1");
    let p = play(p, &["Kg1"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(winner(&p), None);
    // Black's pawn can only leave by a capture, so Black goes on moving.
    let p = play(p, &["Kf1", "Ke1"]);
    assert_eq!(p.turn(), Color::Black);
    // A FEN with the blocked player to move is read with the pass made.
    let p: Kamikaze2 = pos("8/8/8/8/8/p7/P7/7k w - - 0 1");
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.zobrist(), p.state().compute_hash());
}

#[test]
fn kamikaze2_pawn_moves_again_once_unblocked() {
    // The blocker steps away: the pass ends and White moves again.
    let p: Kamikaze2 = pos("8/8/8/8/8/n7/P7/7k b - - 0 1");
    assert_eq!(p.turn(), Color::Black);
    let p = play(p, &["Nb5"]);
    assert_eq!(p.turn(), Color::White);
    assert_eq!(ucis(&p), ["a2a3", "a2a4"]);
}

#[test]
fn kamikaze2_both_blocked_is_a_draw() {
    // docs/rules.md A8: if both players would pass, the game is drawn.
    let p: Kamikaze2 = pos("8/8/8/8/8/p7/P7/8 w - - 0 1");
    let o = p.outcome().unwrap();
    assert_eq!(o.winner, None);
}

#[test]
fn kamikaze2_other_stalemates_win_as_in_a5() {
    // docs/rules.md A8: only a lone pawn passes; with more men a
    // stalemated player wins (RULES A5).
    let p: Kamikaze2 = pos("8/8/8/p7/P7/p7/P7/7k w - - 0 1");
    assert_eq!(winner(&p), Some(Some(Color::White)));
}

#[test]
fn kamikaze2_capturing_the_castling_king_ends_the_rights() {
    // docs/rules.md A8: the captured king's side can no longer castle.
    let p: Kamikaze2 = pos("r3k2r/8/8/8/8/8/8/4R2K w kq - 0 1");
    let p = play(p, &["Rxe8"]);
    assert!(p.to_setup().castling.is_empty());
}

#[test]
fn kamikaze2_two_blocked_lone_pawns_read_back_as_themselves() {
    // RULES A8 `kamikaze2`: both players would pass, so nothing changes:
    // the position (move number included) is the one that was read.
    for text in ["8/8/8/8/p7/P7/8/8 w - - 0 2", "8/8/8/8/p7/P7/8/8 b - - 0 2"] {
        let p: Kamikaze2 = pos(text);
        assert_eq!(fen::write(&p), text);
        let again: Kamikaze2 = pos(&fen::write(&p));
        assert_eq!(fen::write(&again), text, "each read is the same");
        assert!(p.legal_moves().is_empty());
    }
}

#[test]
fn perft_counts_no_moves_in_a_decided_game() {
    // RULES A5 and A8: a game that is over has no moves to count, as
    // `moves` lists none and Fairy-Stockfish counts none.
    use ransom::perft::{divide, perft};
    // losers: after 1.Rxa8+ Kd7 2.Rxh8 Black has only the king and has won.
    let p: Losers = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&p, 4), 0, "Fairy-Stockfish: 0");
    let lone = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";
    assert_eq!(perft(&pos::<Losers>(lone), 1), 0);
    assert_eq!(perft(&pos::<LosingRoyal>(lone), 1), 0);
    assert_eq!(perft(&pos::<LosingRoyalMated>(lone), 1), 0);
    assert!(divide(&pos::<Losers>(lone), 2).is_empty());
    // Losing chess: Black has no men left, so Black has won.
    let a: Antichess = pos("8/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(a.outcome().is_some() && !a.legal_moves().is_empty());
    assert_eq!(perft(&a, 1), 0);
}
