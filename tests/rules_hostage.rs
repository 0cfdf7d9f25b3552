//! RULES H: Hostage chess — prisons, airfields, exchanges, promotion by
//! swap, frozen pawns, legality after the whole turn, castling, notation,
//! FEN. One test (or more) per clause, each naming it.

use ransom::notation::{fen, parse_move, san, uci};
use ransom::variants::Hostage;
use ransom::variants::hostage::{HELD_ROLES, can_exchange, value};
use ransom::{AnyPosition, Color, Move, OutcomeKind, Position, Role, Square, Variant};

fn pos(text: &str) -> Hostage {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

fn play(mut p: Hostage, moves: &[&str]) -> Hostage {
    for text in moves {
        let m =
            parse_move(&p, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(&p)));
        p.play(m).unwrap();
    }
    p
}

/// The legal moves as sorted UCI strings.
fn ucis(p: &Hostage) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| uci::write(m)).collect();
    v.sort();
    v
}

fn has(p: &Hostage, text: &str) -> bool {
    ucis(p).iter().any(|u| u == text)
}

fn count(p: &Hostage, pred: impl Fn(&Move) -> bool) -> usize {
    p.legal_moves().iter().filter(|m| pred(m)).count()
}

// H1 -----------------------------------------------------------------------

#[test]
fn captured_man_goes_to_the_capturers_prison() {
    // RULES H1: a captured man goes into the capturer's prison (it keeps its
    // colour: the FEN writes it as it stood on the board).
    let p = play(Hostage::start(), &["e4", "d5", "exd5"]);
    assert_eq!(p.prisoners(Color::Black)[Role::Pawn], 1);
    assert_eq!(p.prisoners(Color::White).total(), 0);
    assert_eq!(
        fen::write(&p),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[#p] b KQkq - 0 2"
    );
    let p = play(p, &["Qxd5", "Nc3", "Qxa2", "Rxa2"]);
    assert_eq!(p.prisoners(Color::White)[Role::Pawn], 2);
    assert_eq!(p.prisoners(Color::Black)[Role::Queen], 1);
    assert_eq!(p.prisoners(Color::Black)[Role::Pawn], 1);
    assert_eq!(
        fen::write(&p),
        "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[#PPqp] b Kkq - 0 4"
    );
    // Nothing goes to an airfield by capturing.
    assert_eq!(
        p.airfield(Color::White).total() + p.airfield(Color::Black).total(),
        0
    );
}

#[test]
fn en_passant_capture_goes_to_prison() {
    // RULES H1: the pawn taken en passant is imprisoned too.
    let p = play(Hostage::start(), &["e4", "a6", "e5", "d5", "exd6"]);
    assert_eq!(p.prisoners(Color::Black)[Role::Pawn], 1);
    assert!(fen::write(&p).contains("[#p] b "));
}

#[test]
fn captured_promoted_man_keeps_its_promoted_type() {
    // RULES H1: a promoted man that is captured keeps its promoted type.
    let p = pos("7r/P3k3/8/8/8/8/8/4K3[#Q] w - - 0 1");
    let p = play(p, &["a8=Q"]);
    assert_eq!(
        p.board().piece_at(sq("a8")),
        Some(Role::Queen.of(Color::White))
    );
    let p = play(p, &["Rxa8"]);
    assert_eq!(p.prisoners(Color::White)[Role::Queen], 1);
    assert_eq!(p.prisoners(Color::White)[Role::Pawn], 1);
    assert!(fen::write(&p).contains("[#QP]"), "{}", fen::write(&p));
}

#[test]
fn kings_are_never_captured() {
    // RULES H1: kings are never captured. A setup may leave the side not to
    // move in check (the H12 example does); no move then takes the king.
    let p = pos("4k3/8/8/8/8/8/8/4RK2[#] w - - 0 1");
    assert!(p.legal_moves().iter().all(|m| m.to() != sq("e8")));
    assert!(has(&p, "e1e7"));
    // A king is never held.
    assert!(fen::parse_position::<Hostage>("4k3/8/8/8/8/8/8/4K3[#K] w - - 0 1").is_err());
    assert!(fen::parse_position::<Hostage>("4k3/8/8/8/8/8/8/4K3[k#] w - - 0 1").is_err());
}

// H2 -----------------------------------------------------------------------

#[test]
fn a_turn_is_a_move_an_exchange_or_a_drop() {
    // RULES H2: (a) ordinary moves, (b) exchanges, (c) airfield drops.
    // White: a knight in his airfield, a black bishop in his prison; Black's
    // prison holds a White knight.
    let p = pos("4k3/8/8/8/8/8/8/4K3[N#Nb] w - - 0 1");
    let normal = count(&p, |m| matches!(m, Move::Normal { .. }));
    let drops = count(&p, |m| matches!(m, Move::Drop { .. }));
    let exchanges = count(&p, |m| matches!(m, Move::Exchange { .. }));
    assert_eq!(normal, 5); // the king's steps
    assert_eq!(drops, 62); // N on every empty square
    assert_eq!(exchanges, 62); // rescue N paying b, on every empty square
    assert_eq!(p.legal_moves().len(), 5 + 62 + 62);
}

#[test]
fn exchange_moves_both_men_and_is_one_turn() {
    // RULES H2b: the paid man (an enemy man from the mover's prison) goes to
    // the opponent's airfield; the rescued man leaves the opponent's prison
    // and is dropped at once; then it is the opponent's turn.
    let p = pos("4k3/8/8/8/8/8/8/4K3[N#Nb] w - - 0 1");
    let m = parse_move(&p, "N#B@d5").unwrap();
    assert_eq!(
        m,
        Move::Exchange {
            rescue: Role::Knight,
            pay: Role::Bishop,
            to: sq("d5")
        }
    );
    let p = play(p, &["N#B@d5"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(
        p.board().piece_at(sq("d5")),
        Some(Role::Knight.of(Color::White))
    );
    assert_eq!(p.prisoners(Color::White).total(), 0);
    assert_eq!(p.prisoners(Color::Black).total(), 0);
    assert_eq!(p.airfield(Color::Black)[Role::Bishop], 1);
    assert_eq!(p.airfield(Color::White)[Role::Knight], 1);
    assert_eq!(fen::write(&p), "4k3/8/8/3N4/8/8/8/4K3[Nb#] b - - 1 1");
    // The paid man is at once its owner's to drop.
    let p = play(p, &["B*e6"]);
    assert_eq!(
        p.board().piece_at(sq("e6")),
        Some(Role::Bishop.of(Color::Black))
    );
    assert_eq!(p.airfield(Color::Black).total(), 0);
}

#[test]
fn drop_from_the_airfield() {
    // RULES H2c: a man from the mover's own airfield onto an empty square.
    let p = pos("4k3/8/8/8/8/8/8/4K3[Rq#] w - - 0 1");
    let p = play(p, &["R*d4"]);
    assert_eq!(
        p.board().piece_at(sq("d4")),
        Some(Role::Rook.of(Color::White))
    );
    assert_eq!(p.airfield(Color::White).total(), 0);
    // Black drops his own queen; he cannot drop a White man.
    assert!(has(&p, "Q@h1"));
    assert!(!p.legal_moves().iter().any(|m| matches!(
        m,
        Move::Drop {
            role: Role::Rook,
            ..
        }
    )));
    // Occupied squares are never drop targets.
    assert!(!has(&p, "Q@d4"));
}

// H3 -----------------------------------------------------------------------

#[test]
fn exchange_values_for_every_pair() {
    // RULES H3: P 1 < N = B 2 < R 3 < Q 4; value(pay) >= value(rescue).
    assert_eq!(HELD_ROLES.map(value), [4, 3, 2, 2, 1], "Q R B N P");
    // Every man of each side is held by the other side.
    let p = pos("4k3/8/8/8/8/8/8/4K3[#QRBNPqrbnp] w - - 0 1");
    let expected = |pay: Role, rescue: Role| match pay {
        Role::Queen => true,
        Role::Rook => rescue != Role::Queen,
        Role::Bishop | Role::Knight => matches!(rescue, Role::Bishop | Role::Knight | Role::Pawn),
        Role::Pawn => rescue == Role::Pawn,
        Role::King => unreachable!(),
    };
    let legal = p.legal_moves();
    let mut pairs = 0;
    for pay in HELD_ROLES {
        for rescue in HELD_ROLES {
            let m = Move::Exchange {
                rescue,
                pay,
                to: sq("d4"),
            };
            assert_eq!(
                legal.contains(&m),
                expected(pay, rescue),
                "pay {pay:?} rescue {rescue:?}"
            );
            assert_eq!(can_exchange(pay, rescue), expected(pay, rescue));
            pairs += usize::from(expected(pay, rescue));
        }
    }
    // Q buys 5, R 4, B 3, N 3, P 1.
    assert_eq!(pairs, 16);
    let exchanges = count(&p, |m| matches!(m, Move::Exchange { .. }));
    // 11 pairs rescue a piece (62 squares), 5 rescue a pawn (48 squares).
    assert_eq!(exchanges, 11 * 62 + 5 * 48);
}

// H4 -----------------------------------------------------------------------

#[test]
fn drop_restrictions() {
    // RULES H4: no pawn on rank 1 or 8 (drops and exchange drops alike);
    // other men anywhere; two bishops on one square colour; pawns on the
    // relative 7th rank.
    let p = pos("4k3/8/8/8/8/8/8/2B1K3[BP#Pp] w - - 0 1");
    let pawn_drops: Vec<Square> = p
        .legal_moves()
        .iter()
        .filter(|m| {
            matches!(
                m,
                Move::Drop {
                    role: Role::Pawn,
                    ..
                }
            )
        })
        .map(|m| m.to())
        .collect();
    assert_eq!(pawn_drops.len(), 48);
    assert!(pawn_drops.iter().all(|s| (1..=6).contains(&s.rank())));
    let pawn_exchanges = count(&p, |m| {
        matches!(
            m,
            Move::Exchange {
                rescue: Role::Pawn,
                ..
            }
        )
    });
    assert_eq!(pawn_exchanges, 48);
    assert!(!has(&p, "P@a1") && !has(&p, "P@a8") && !has(&p, "P#P@h8"));
    assert!(has(&p, "B@a1") && has(&p, "B@h8"));
    // c1 is dark; e3 is dark too: a second dark-squared bishop is fine.
    assert!(has(&p, "B@e3"));
    // A pawn may be dropped on its 7th rank (it is then frozen, H6).
    assert!(has(&p, "P@a7"));
    let p = play(p, &["*a7"]);
    assert_eq!(p.frozen_pawns(Color::White), sq("a7").into());
}

// H5 -----------------------------------------------------------------------

#[test]
fn dropped_pawn_on_second_rank_may_double_step_but_drops_make_no_en_passant() {
    // RULES H5: any pawn on its relative 2nd rank may make the two-step
    // move; the two-step creates the en-passant chance; a drop never does.
    let p = pos("4k3/8/8/8/3p4/8/8/4K3[P#] w - - 0 1");
    let p = play(p, &["*e2", "Kd7"]);
    assert!(has(&p, "e2e4"));
    let p = play(p, &["e4"]);
    assert!(fen::write(&p).contains(" e3 "), "{}", fen::write(&p));
    assert!(has(&p, "d4e3"));
    // Dropping straight onto e4 gives no en-passant chance.
    let p = pos("4k3/8/8/8/3p4/8/8/4K3[P#] w - - 0 1");
    let p = play(p, &["*e4"]);
    assert!(
        !p.legal_moves()
            .iter()
            .any(|m| matches!(m, Move::EnPassant { .. }))
    );
    assert!(fen::write(&p).contains(" - "), "{}", fen::write(&p));
    // Black too: a pawn dropped on the 7th rank may double-step.
    let p = pos("4k3/8/8/8/8/8/8/4K3[p#] b - - 0 1");
    let p = play(p, &["*c7", "Kd1"]);
    assert!(has(&p, "c7c5"));
}

// H6 -----------------------------------------------------------------------

#[test]
fn promotion_only_by_swapping_with_an_own_piece_in_prison() {
    // RULES H6: the pawn may promote only to a piece of its side held in the
    // opponent's prison; the piece leaves the prison, the pawn enters it.
    let p = pos("4k3/P7/8/8/8/8/8/4K3[#RN] w - - 0 1");
    let promotions: Vec<String> = ucis(&p)
        .into_iter()
        .filter(|u| u.starts_with("a7"))
        .collect();
    assert_eq!(promotions, ["a7a8n", "a7a8r"]);
    let p = play(p, &["a8=R"]);
    assert_eq!(
        p.board().piece_at(sq("a8")),
        Some(Role::Rook.of(Color::White))
    );
    assert_eq!(p.prisoners(Color::White)[Role::Rook], 0);
    assert_eq!(p.prisoners(Color::White)[Role::Knight], 1);
    assert_eq!(p.prisoners(Color::White)[Role::Pawn], 1);
    assert_eq!(fen::write(&p), "R3k3/8/8/8/8/8/8/4K3[#NP] b - - 0 1");
    // Black, with a capture.
    let p = pos("4k3/8/8/8/8/8/6p1/4K2R[#q] b - - 0 1");
    assert!(has(&p, "g2h1q") && has(&p, "g2g1q"));
    let p = play(p, &["gxh1=Q"]);
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K2q[#Rp] w - - 0 2");
}

#[test]
fn frozen_pawn_neither_advances_nor_captures() {
    // RULES H6: with no own piece in the opponent's prison, a pawn on the
    // relative 7th rank is frozen.
    let p = pos("1n2k3/P7/8/8/8/8/8/4K3[#P] w - - 0 1");
    assert!(p.legal_moves().iter().all(|m| m.from() != Some(sq("a7"))));
    assert_eq!(p.frozen_pawns(Color::White), sq("a7").into());
    let p = pos("1n2k3/P7/8/8/8/8/8/4K3[#Q] w - - 0 1");
    assert!(has(&p, "a7a8q") && has(&p, "a7b8q"));
    assert!(p.frozen_pawns(Color::White).is_empty());
}

#[test]
fn frozen_pawn_gives_no_check() {
    // RULES H6: a frozen pawn attacks no square: its threat is a pseudo-check.
    let p = pos("2k5/1P6/8/8/8/8/8/4K3[#] b - - 0 1");
    assert!(!p.is_check());
    let p = pos("2k5/1P6/8/8/8/8/8/4K3[#N] b - - 0 1");
    assert!(p.is_check());
}

#[test]
fn frozen_pawn_does_not_guard() {
    // RULES H6: a frozen pawn guards nothing: the king may step onto the
    // squares it attacks.
    let p = pos("3k4/1P6/8/8/8/8/8/4K3[#] b - - 0 1");
    assert!(has(&p, "d8c8"));
    let p = pos("3k4/1P6/8/8/8/8/8/4K3[#B] b - - 0 1");
    assert!(!has(&p, "d8c8"));
}

#[test]
fn frozen_pawn_does_not_stop_castling() {
    // RULES H6 (and H7, last point): castling through a square attacked only
    // by a frozen pawn is allowed.
    let p = pos("r3k3/1P6/8/8/8/8/8/4K3[#] b q - 0 1");
    assert!(has(&p, "e8c8"), "{:?}", ucis(&p));
    let p = play(p, &["O-O-O"]);
    assert_eq!(
        p.board().piece_at(sq("c8")),
        Some(Role::King.of(Color::Black))
    );
    // A live pawn stops it.
    let p = pos("r3k3/1P6/8/8/8/8/8/4K3[#R] b q - 0 1");
    assert!(!has(&p, "e8c8"));
}

// H7 -----------------------------------------------------------------------

#[test]
fn pseudo_check_forbids_capturing_a_piece_that_would_unfreeze_the_pawn() {
    // RULES H7: the black king on c8 stands in pseudo-check from the frozen
    // b7 pawn. Capturing a White knight would put it in Black's prison,
    // unfreeze the pawn and make the check real: illegal. Capturing a pawn,
    // or the frozen pawn itself, stays legal; so does a capture by the king
    // that leaves the pawn's diagonal.
    let p = pos("2k5/1P1N4/8/8/8/7P/4N2r/K7[#] b - - 0 1");
    assert!(!p.is_check());
    assert!(!has(&p, "h2e2"), "Rxe2 unfreezes b7");
    assert!(has(&p, "h2h3"), "Rxh3 takes a pawn");
    assert!(has(&p, "c8b7"), "Kxb7 takes the frozen pawn");
    assert!(has(&p, "c8d7"), "Kxd7 leaves the diagonal");
    assert!(has(&p, "c8d8"));
    assert!(!has(&p, "c8b8"), "b8 is attacked by the d7 knight");
    // With the king off the diagonal, the same capture is fine.
    let p = pos("3k4/1P1N4/8/8/8/7P/4N2r/K7[#] b - - 0 1");
    assert!(has(&p, "h2e2"));
}

#[test]
fn exchange_that_freezes_the_checking_pawn_answers_check() {
    // RULES H7: Black is in check from the live b7 pawn (Black's prison holds
    // White's only piece, a knight). Paying that knight in an exchange
    // freezes the pawn: the check becomes a pseudo-check, so every such
    // exchange is a legal way out of check, whatever the square.
    let p = pos("2k5/1P6/8/8/8/8/8/K7[#Nb] b - - 0 1");
    assert!(p.is_check());
    let exchanges = count(&p, |m| matches!(m, Move::Exchange { .. }));
    assert_eq!(exchanges, 61);
    assert!(has(&p, "B#N@h1"));
    let after = play(p.clone(), &["B#N@h1"]);
    assert_eq!(after.frozen_pawns(Color::White), sq("b7").into());
    // With a second White piece in the prison the pawn stays live: no
    // exchange helps (a pawn check cannot be blocked).
    let p = pos("2k5/1P6/8/8/8/8/8/K7[#RNb] b - - 0 1");
    assert!(p.is_check());
    assert_eq!(count(&p, |m| matches!(m, Move::Exchange { .. })), 0);
    // Only king moves remain.
    assert!(p.legal_moves().iter().all(|m| m.role() == Role::King));
}

#[test]
fn frozen_ness_is_judged_after_the_turn() {
    // RULES H7: a drop that blocks nothing does not answer a real check, and
    // a rook capture that unfreezes a pawn checking the king's new square is
    // illegal (H12 position after *g7: Rxa8 would put the White rook in
    // Black's prison and make g7 live).
    let p = play(pos("R5rk/7p/8/8/8/8/K7/B7[P#] w - - 0 1"), &["*g7"]);
    assert!(!has(&p, "g8a8"), "Rxa8 would unfreeze g7");
    assert!(has(&p, "g8f8"));
    assert!(!has(&p, "h8g7"), "g7 is guarded by the a1 bishop");
}

#[test]
fn castling_uses_the_same_attack_definition() {
    // RULES H7, H8: not out of, through or into check; frozen pawns attack
    // nothing.
    let p = pos("4k3/8/8/8/8/8/6p1/R3K2R[#] w KQ - 0 1");
    // g2 is a black pawn on its 7th rank (frozen): it "attacks" f1 and h1.
    assert!(has(&p, "e1g1") && has(&p, "e1c1"));
    let p = pos("4k3/8/8/8/8/8/6p1/R3K2R[#n] w KQ - 0 1");
    assert!(!has(&p, "e1g1") && has(&p, "e1c1"));
    // Out of check: a live pawn on d2 checks e1.
    let p = pos("4k3/8/8/8/8/8/3p4/R3K2R[#n] w KQ - 0 1");
    assert!(p.is_check());
    assert!(!has(&p, "e1g1") && !has(&p, "e1c1"));
    // A frozen one does not.
    let p = pos("4k3/8/8/8/8/8/3p4/R3K2R[#] w KQ - 0 1");
    assert!(!p.is_check());
    assert!(has(&p, "e1g1") && has(&p, "e1c1"));
}

// H8 -----------------------------------------------------------------------

#[test]
fn rook_dropped_on_its_corner_regains_castling_with_an_unmoved_king() {
    // RULES H8: a rook dropped onto its own corner counts as unmoved.
    let p = pos("4k3/8/8/8/8/8/8/4K3[R#] w E - 0 1");
    assert!(p.king_unmoved(Color::White));
    let p = play(p, &["R*h1"]);
    assert!(fen::write(&p).contains(" b K - "), "{}", fen::write(&p));
    let p = play(p, &["Kd7"]);
    assert!(has(&p, "e1g1"));
    let p = play(p, &["O O"]);
    assert_eq!(fen::write(&p), "8/3k4/8/8/8/8/8/5RK1[#] b - - 3 2");
    // By exchange onto a1, too.
    let p = play(pos("4k3/8/8/8/8/8/8/4K3[#Rq] w E - 0 1"), &["(Q-R)R*a1"]);
    assert!(fen::write(&p).contains(" b Q - "), "{}", fen::write(&p));
    // Black, on h8.
    let p = play(pos("4k3/8/8/8/8/8/8/4K3[r#] b e - 0 1"), &["R*h8"]);
    assert!(fen::write(&p).contains(" w k - "), "{}", fen::write(&p));
}

#[test]
fn moved_king_or_wrong_square_gives_no_right() {
    // RULES H8: a king that has moved never castles again; only a drop on
    // the rook's own corner counts; a rook moving there does not.
    let p = play(pos("4k3/8/8/8/8/8/8/4K3[R#] w - - 0 1"), &["R*h1"]);
    assert!(fen::write(&p).contains(" b - - "), "{}", fen::write(&p));
    let p = play(pos("4k3/8/8/8/8/8/8/4K3[R#] w E - 0 1"), &["R*a8"]);
    assert!(fen::write(&p).contains(" b E - "), "{}", fen::write(&p));
    let p = play(pos("4k3/8/8/8/8/8/7R/4K3[#] w E - 0 1"), &["Rh1", "Kd7"]);
    assert!(!has(&p, "e1g1"));
    assert!(fen::write(&p).contains(" w E - "), "{}", fen::write(&p));
    let p = play(Hostage::start(), &["e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8"]);
    assert!(!p.king_unmoved(Color::White) && !p.king_unmoved(Color::Black));
    assert!(fen::write(&p).contains(" w - - "), "{}", fen::write(&p));
}

#[test]
fn castling_right_follows_the_rook() {
    // RULES H8: as in chess, a rook that moves or is captured loses its
    // right; the king stays unmoved (`E` appears when no right is left).
    let p = play(pos("r3k3/8/8/8/8/8/8/R3K3[#] w Qq - 0 1"), &["Rxa8+"]);
    assert_eq!(fen::write(&p), "R3k3/8/8/8/8/8/8/4K3[#r] b Ee - 0 1");
}

// H9 -----------------------------------------------------------------------

#[test]
fn checkmate_wins_and_stalemate_draws() {
    // RULES H9.
    let p = play(pos("R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1"), &["*g7"]);
    let outcome = p.outcome().expect("mate");
    assert_eq!(outcome.kind, OutcomeKind::Checkmate);
    assert_eq!(outcome.winner, Some(Color::White));
    let p = pos("k7/2Q5/1K6/8/8/8/8/8[#] b - - 0 1");
    let outcome = p.outcome().expect("stalemate");
    assert_eq!(outcome.kind, OutcomeKind::Stalemate);
    assert_eq!(outcome.winner, None);
    // A man in the airfield is a move: no stalemate.
    let p = pos("k7/2Q5/1K6/8/8/8/8/8[n#] b - - 0 1");
    assert_eq!(p.outcome(), None);
    // So is an exchange.
    let p = pos("k7/2Q5/1K6/8/8/8/8/8[#Np] b - - 0 1");
    assert_eq!(p.outcome(), None);
    assert!(has(&p, "P#N@h2"));
    // But a pawn cannot buy a knight.
    let p = pos("k7/2Q5/1K6/8/8/8/8/8[#Pn] b - - 0 1");
    assert_eq!(p.outcome().map(|o| o.kind), Some(OutcomeKind::Stalemate));
}

// H10 ----------------------------------------------------------------------

const NOTATION: &str = "r3kb1r/6P1/8/8/8/8/8/R3K2R[NP#RNPbrp] w KQkq - 0 1";

#[test]
fn human_notation_reads_every_form() {
    // RULES H10: drops, exchanges (long and short), promotion by swap,
    // castling as `O O`, marks.
    let p = pos(NOTATION);
    let cases: &[(&str, &str)] = &[
        ("N*c7", "N@c7"),
        ("*g3", "P@g3"),
        ("P*g3", "P@g3"),
        ("(B-N)N*c7", "N#B@c7"),
        ("(B)N*c7", "N#B@c7"),
        ("(B-N)*c7", "N#B@c7"),
        ("(P-P)*g5", "P#P@g5"),
        ("(R)*g3", "P#R@g3"),
        ("(R-P)P*g3", "P#R@g3"),
        ("(R-P)*g3", "P#R@g3"),
        ("g8=N", "g7g8n"),
        ("g8N", "g7g8n"),
        ("gxf8=R", "g7f8r"),
        ("gxf8=R+", "g7f8r"),
        ("O O", "e1g1"),
        ("O-O-O", "e1c1"),
        ("O O O", "e1c1"),
        ("N*c7!?", "N@c7"),
        ("(B-N)N*c7+", "N#B@c7"),
        ("N@c7", "N@c7"),
    ];
    for (text, want) in cases {
        let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(uci::write(m), *want, "{text}");
    }
    // Wrong forms are rejected: a pawn cannot buy a knight, the rescued man
    // written twice must agree, nothing to promote to a queen.
    assert!(parse_move(&p, "(P-N)N*c7").is_err());
    assert!(parse_move(&p, "(B-N)B*c7").is_err());
    assert!(parse_move(&p, "g8=Q").is_err());
    assert!(parse_move(&p, "P*a8").is_err());
}

#[test]
fn human_notation_writes_leslie_forms() {
    // RULES H10: canonical output.
    let p = pos(NOTATION);
    let cases: &[(&str, &str)] = &[
        ("N@c7", "N*c7"),
        ("P@g3", "*g3"),
        ("N#B@c7", "(B-N)N*c7"),
        ("P#P@g5", "(P-P)*g5"),
        ("P#R@g3", "(R-P)*g3"),
        ("g7g8n", "g8=N"),
        ("g7f8r", "gxf8=R"),
        ("e1g1", "O-O"),
    ];
    for (u, want) in cases {
        let m = uci::parse(&p, u).unwrap_or_else(|e| panic!("{u}: {e}"));
        assert_eq!(san::write(&p, m), *want, "{u}");
        // And it reads back.
        assert_eq!(san::parse(&p, want), Ok(m));
    }
    assert_eq!(
        san::write_plus(&p, uci::parse(&p, "g7f8r").unwrap()),
        "gxf8=R+"
    );
}

#[test]
fn parenthesised_disambiguation() {
    // RULES H10: `N(b)d7`.
    let p = pos("4kN2/8/1N6/8/8/8/8/4K3[#] w - - 0 1");
    assert_eq!(uci::write(parse_move(&p, "N(b)d7").unwrap()), "b6d7");
    assert_eq!(uci::write(parse_move(&p, "N(f)d7").unwrap()), "f8d7");
    assert!(parse_move(&p, "Nd7").is_err());
    assert_eq!(san::write(&p, uci::parse(&p, "b6d7").unwrap()), "Nbd7");
}

#[test]
fn machine_notation() {
    // RULES H10: `e2e4`, `e7e8q`, `N@c7`, `N#B@c7`, `P#P@g5`.
    let p = pos(NOTATION);
    for text in [
        "N@c7", "N#B@c7", "P#P@g5", "P#R@g3", "g7g8n", "e1g1", "a1d1",
    ] {
        let m = uci::parse(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(uci::write(m), text);
    }
    // The man rescued comes first, then the man paid.
    assert_eq!(
        uci::parse(&p, "N#B@c7").unwrap(),
        Move::Exchange {
            rescue: Role::Knight,
            pay: Role::Bishop,
            to: sq("c7")
        }
    );
    assert!(uci::parse(&p, "B#N@c7").is_err());
    assert!(uci::parse(&p, "K#Q@c7").is_err());
    let p = Hostage::start();
    assert_eq!(uci::write(uci::parse(&p, "e2e4").unwrap()), "e2e4");
    let p = pos("4k3/P7/8/8/8/8/8/4K3[#Q] w - - 0 1");
    assert_eq!(uci::write(uci::parse(&p, "a7a8q").unwrap()), "a7a8q");
}

// H11 ----------------------------------------------------------------------

#[test]
fn fen_holdings_and_examples() {
    // RULES H11: `[<airfields>#<prisoners>]`, men in their own colours.
    let text = "rnbqkb1r/ppppppp1/8/8/8/8/PPPPPPP1/RNBQKBNR[p#Pn] w KQkq - 0 9";
    let p = pos(text);
    assert_eq!(p.airfield(Color::Black)[Role::Pawn], 1);
    assert_eq!(p.prisoners(Color::White)[Role::Pawn], 1);
    assert_eq!(p.prisoners(Color::Black)[Role::Knight], 1);
    assert_eq!(p.airfield(Color::White).total(), 0);
    assert_eq!(fen::write(&p), text);
    // Canonical order Q R B N P then q r b n p in each part.
    let p = pos("4k3/8/8/8/8/8/8/4K3[pNqQ#pnPRb] w - - 0 1");
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[QNqp#RPbnp] w - - 0 1");
    // Either part may be empty; no bracket = empty holdings.
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[#] w - - 0 1");
    let p = pos("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[Q#] w - - 0 1");
    assert_eq!(
        fen::write(&Hostage::start()),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[#] w KQkq - 0 1"
    );
}

#[test]
fn fen_unmoved_king_flags() {
    // RULES H11: `E`/`e` = king unmoved on its square with no right now;
    // written only when that side has no K/Q right.
    let p = pos("4k3/8/8/8/8/8/8/4K3[#] w Ee - 0 20");
    assert!(p.king_unmoved(Color::White) && p.king_unmoved(Color::Black));
    assert_eq!(fen::write(&p), "4k3/8/8/8/8/8/8/4K3[#] w Ee - 0 20");
    let p = pos("4k3/8/8/8/8/8/8/4K3[#] w - - 0 20");
    assert!(!p.king_unmoved(Color::White) && !p.king_unmoved(Color::Black));
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R[#] w KEe - 0 1");
    assert_eq!(fen::write(&p), "r3k2r/8/8/8/8/8/8/R3K2R[#] w Ke - 0 1");
    assert!(p.king_unmoved(Color::White));
    // A king with a right is unmoved by definition.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R[#] w Kq - 0 1");
    assert!(p.king_unmoved(Color::White) && p.king_unmoved(Color::Black));
    // The flag needs the king on its home square.
    assert!(fen::parse_position::<Hostage>("3k4/8/8/8/8/8/8/4K3[#] w e - 0 1").is_err());
    // The flag is part of the position: it changes the hash.
    let a = pos("4k3/8/8/8/8/8/8/4K3[#] w E - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[#] w - - 0 1");
    assert_ne!(a.zobrist(), b.zobrist());
}

#[test]
fn holdings_are_hashed_and_other_variants_reject_prisons() {
    // RULES H11: prisons and airfields are part of the position.
    let a = pos("4k3/8/8/8/8/8/8/4K3[#N] w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[N#] w - - 0 1");
    let c = pos("4k3/8/8/8/8/8/8/4K3[#n] w - - 0 1");
    let d = pos("4k3/8/8/8/8/8/8/4K3[#] w - - 0 1");
    let hashes = [a.zobrist(), b.zobrist(), c.zobrist(), d.zobrist()];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(hashes[i], hashes[j]);
        }
        assert_eq!([&a, &b, &c, &d][i].state().compute_hash(), hashes[i]);
    }
    let setup = fen::parse("4k3/8/8/8/8/8/8/4K3[#N] w - - 0 1").unwrap();
    for variant in [Variant::Chess, Variant::Antichess, Variant::Crazyhouse] {
        assert!(
            AnyPosition::from_setup(variant, &setup).is_err(),
            "{variant}"
        );
    }
    assert!(AnyPosition::from_setup(Variant::Hostage, &setup).is_ok());
    assert_eq!("HOSTAGE".parse::<Variant>(), Ok(Variant::Hostage));
}

// H12 ----------------------------------------------------------------------

#[test]
fn worked_example_frozen_pawn_drop_is_no_check() {
    // RULES H12, first position: Black's prison holds no White piece, so the
    // pawn dropped on g7 is frozen and it is not check.
    let p = pos("R5rk/7p/8/8/8/8/K7/B7[P#] w - - 0 1");
    let m = parse_move(&p, "*g7").unwrap();
    assert_eq!(
        m,
        Move::Drop {
            role: Role::Pawn,
            to: sq("g7")
        }
    );
    assert_eq!(san::write_plus(&p, m), "*g7");
    let after = play(p, &["*g7"]);
    assert!(!after.is_check());
    assert_eq!(after.outcome(), None);
}

#[test]
fn worked_example_live_pawn_drop_is_mate() {
    // RULES H12, second position: with a White knight in Black's prison the
    // pawn is live, guarded by the a1 bishop, and the g8 rook is pinned.
    let p = pos("R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1");
    let m = parse_move(&p, "*g7").unwrap();
    assert_eq!(san::write_plus(&p, m), "*g7#");
    let after = play(p, &["*g7"]);
    assert!(after.is_check());
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.outcome().unwrap().kind, OutcomeKind::Checkmate);
}

// The command line ------------------------------------------------------------

fn ransom(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(args)
        .output()
        .expect("run ransom");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn command_line_perft_moves_and_play() {
    // RULES H10, H11, H12 through `ransom perft|moves|play --variant hostage`.
    let (ok, out, _) = ransom(&["perft", "--variant", "Hostage", "3"]);
    assert!(ok && out.contains("Nodes searched: 8902"), "{out}");
    let h12 = "R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1";
    let (ok, out, _) = ransom(&["moves", "--variant", "hostage", "--fen", h12, "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["variant"], "hostage");
    assert_eq!(v["moves"].as_array().unwrap().len(), 67);
    assert!(out.contains(r#"{"san":"*g7","uci":"P@g7"}"#), "{out}");
    let (ok, out, _) = ransom(&[
        "play",
        "--variant",
        "hostage",
        "--fen",
        h12,
        "*g7",
        "--json",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["outcome"], "checkmate");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["moves"][0]["san"], "*g7#");
    assert_eq!(v["fen"], "R5rk/6Pp/8/8/8/8/K7/B7[#N] b - - 0 1");
    let start = "4k3/8/8/8/8/8/8/4K3[N#Nb] w - - 0 1";
    let (ok, out, _) = ransom(&["play", "-v", "hostage", "--fen", start, "(B)N*d5", "B*e6"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("fen: 4k3/8/4b3/3N4/8/8/8/4K3[N#] w - - 2 2"),
        "{out}"
    );
    let (ok, _, err) = ransom(&["play", "-v", "hostage", "--fen", start, "N#Q@d5"]);
    assert!(!ok && err.contains("not a legal move"), "{err}");
    let (ok, _, err) = ransom(&["perft", "--variant", "shogi", "1"]);
    assert!(!ok && err.contains("hostage"), "{err}");
}

// PGN -------------------------------------------------------------------------

const PGN: &str = r#"[Event "Hostage test"]
[Variant "Hostage"]
[FEN "4k3/8/8/8/8/8/8/4K3[N#Nb] w - - 0 1"]

1. (B-N)N*d5 {the exchange} (1. N*c3 Kd7 (1... Ke7) 2. (B)N*c6+) 1... B*e6 $1
2. Kd2 (2. N(d)c3?) ; a line comment ( not a variation
2... Kd7 3. N(d)c3 *
"#;

#[test]
fn pgn_movetext_with_exchanges_and_variations() {
    // RULES H10: in PGN, `(X-Y)` / `(X)` before a drop is exchange notation;
    // other parentheses are variations, skipped with comments and NAGs.
    let game = ransom::notation::pgn::parse(PGN).unwrap();
    assert_eq!(game.tag("FEN"), Some("4k3/8/8/8/8/8/8/4K3[N#Nb] w - - 0 1"));
    assert_eq!(game.tag("Variant"), Some("Hostage"));
    assert_eq!(game.moves, ["(B-N)N*d5", "B*e6", "Kd2", "Kd7", "N(d)c3"]);
    assert_eq!(game.result.as_deref(), Some("*"));
    let refs: Vec<&str> = game.moves.iter().map(String::as_str).collect();
    let p = play(pos(game.tag("FEN").unwrap()), &refs);
    assert_eq!(fen::write(&p), "8/3k4/4b3/8/8/2N5/3K4/8[N#] b - - 5 3");
    // Unclosed variations and comments are errors, not panics.
    assert!(ransom::notation::pgn::parse("1. e4 (1. d4").is_err());
    assert!(ransom::notation::pgn::parse("1. e4 {open").is_err());
    assert!(ransom::notation::pgn::parse("1. e4 )").is_err());
}

#[test]
fn command_line_plays_a_pgn_file() {
    // RULES H10 via `ransom play --variant hostage --pgn FILE`.
    let path = std::env::temp_dir().join(format!("ransom-hostage-{}.pgn", std::process::id()));
    std::fs::write(&path, PGN).unwrap();
    let (ok, out, err) = ransom(&[
        "play",
        "--variant",
        "hostage",
        "--pgn",
        path.to_str().unwrap(),
        "Kd6",
    ]);
    std::fs::remove_file(&path).ok();
    assert!(ok, "{err}");
    assert!(
        out.contains("fen: 8/8/3kb3/8/8/2N5/3K4/8[N#] w - - 6 4"),
        "{out}"
    );
}

#[test]
fn pgn_reader_never_panics() {
    // Malformed movetext is an error or a list of tokens, never a panic.
    let alphabet: Vec<char> = "()[]{};$\"\\ \n*@-#NBRQPa1e48x.é".chars().collect();
    let mut seed = 0x1234_5678_u64;
    for _ in 0..20_000 {
        let len = (seed % 24) as usize;
        let text: String = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        let _ = ransom::notation::pgn::parse(&text);
    }
}

#[test]
fn exchange_moves_have_their_own_table_code() {
    // RULES H2b: an exchange is a move of its own in the compact encoding
    // too; every legal move decodes back to itself.
    let p = pos(NOTATION);
    let legal = p.legal_moves();
    let mut codes: Vec<u32> = legal.iter().map(|&m| ransom::moves::encode(m)).collect();
    for (&m, &code) in legal.iter().zip(&codes) {
        assert_eq!(ransom::moves::decode(&legal, code), Some(m));
    }
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), legal.len());
    assert!(std::mem::size_of::<Move>() <= 8);
}

#[test]
fn holdings_no_game_can_reach_are_refused_with_the_count() {
    // RULES H1 and H11: men move between the board, prisons and airfields
    // but are never made, so a side has at most 16 men and 8 pawns in all.
    let err = |text: &str| match fen::parse_position::<Hostage>(text) {
        Ok(_) => panic!("{text} was accepted"),
        Err(e) => e.to_string(),
    };
    let nine_pawns = err("4k3/8/8/8/8/8/8/4K3[PPPPPPPPP#] w - - 0 1");
    assert!(nine_pawns.contains("white has 9 pawns"), "{nine_pawns}");
    let in_prison = err("4k3/8/8/8/8/8/pppppppp/4K3[#p] w - - 0 1");
    assert!(in_prison.contains("black has 9 pawns"), "{in_prison}");
    let men = err("4k3/8/8/8/8/8/8/QQQQK3[QQQQQQQQQQQQ#] w - - 0 1");
    assert!(men.contains("white has 17 men"), "{men}");
    // The most a side can have is still fine, wherever the men are.
    pos("rnbqkbnr/pppppppp/8/8/8/8/8/4K3[#PPPPPPPPRRNNBBQ] w - - 0 1");
}
