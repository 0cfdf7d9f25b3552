//! RULES R9: Hit-and-Run chess, the author's "simultaneous" variation: the
//! two sub-moves of a turn are judged together for the safety of the
//! mover's king.

use ransom::Position;
use ransom::notation::{fen, uci};
use ransom::variants::{HitAndRun, HitAndRunSimultaneous};

fn pos<P: Position>(text: &str) -> P {
    fen::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal sub-moves in UCI, sorted.
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

/// White's bishop on e2 is pinned against the king by the rook on e8.
const PINNED: &str = "4r2k/8/8/8/8/8/4B3/4K3 w - - 0 5";

#[test]
fn r9_first_sub_move_may_expose_the_king_if_the_second_saves_it() {
    // RULES R9: the pinned bishop may move; the main rules forbid it (R5).
    let strict: HitAndRun = pos(PINNED);
    assert_eq!(ucis(&strict), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    let together: HitAndRunSimultaneous = pos(PINNED);
    let moves = ucis(&together);
    assert_eq!(moves.len(), 13);
    assert!(moves.contains(&"e2b5".to_string()));
}

#[test]
fn r9_the_second_sub_move_must_make_the_king_safe() {
    // RULES R9: after Bb5 the king is attacked; only sub-moves that end
    // the attack follow (the bishop may not take the rook, R2).
    let p = play(pos::<HitAndRunSimultaneous>(PINNED), &["Bb5"]);
    assert!(p.is_mid_turn());
    assert!(p.is_check());
    assert_eq!(ucis(&p), ["b5e2", "e1d1", "e1d2", "e1f1", "e1f2"]);
    let p = play(p, &["Be2"]);
    assert!(!p.is_mid_turn());
    assert_eq!(p.turn(), ransom::Color::Black);
}

#[test]
fn r9_a_single_sub_move_turn_must_leave_the_king_safe() {
    // RULES R9 with R1: a side's first turn is one move, judged alone.
    let p: HitAndRunSimultaneous = pos("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1");
    assert_eq!(ucis(&p), ["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn r9_a_first_sub_move_nothing_can_save_is_illegal() {
    // RULES R9: Rxd2 exposes the king; the rook, having captured along
    // rank 2, may neither return nor move along the rank (R3) and nothing
    // else can block or step away, so the sub-move is illegal.
    let p: HitAndRunSimultaneous = pos("4r2k/8/8/8/8/8/3rRP2/3RKR2 w - - 0 5");
    let moves = ucis(&p);
    assert!(!moves.contains(&"e2d2".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1d2".to_string()));
}

#[test]
fn r9_in_check_the_first_sub_move_need_not_answer_it() {
    // RULES R9 (R5 asks the first sub-move to end a check): the rook may
    // move first and the king step away second; the king may even stay on
    // the attacked file and move again.
    let text = "k3r3/8/8/8/8/8/8/4K2R w K - 0 5";
    let strict: HitAndRun = pos(text);
    assert_eq!(strict.legal_moves().len(), 4);
    let p: HitAndRunSimultaneous = pos(text);
    let moves = ucis(&p);
    assert!(moves.contains(&"h1h2".to_string()));
    assert!(moves.contains(&"e1e2".to_string()));
    // RULES R9: castling keeps its conditions: never out of check.
    assert!(!moves.contains(&"e1g1".to_string()));
}

#[test]
fn r9_castling_never_passes_through_attack() {
    let p: HitAndRunSimultaneous = pos("k4r2/8/8/8/8/8/8/4K2R w K - 0 5");
    assert!(!ucis(&p).contains(&"e1g1".to_string()));
}

#[test]
fn r9_mid_turn_fen_may_show_the_king_attacked() {
    // RULES R8/R9: such a mid-turn position is reachable under R9 only.
    let text = "4r2k/8/8/1B6/8/8/8/4K3 w - - 0 5 sub=b5";
    assert!(fen::parse_position::<HitAndRun>(text).is_err());
    let p: HitAndRunSimultaneous = pos(text);
    assert_eq!(fen::write(&p), text);
    // ... but not one from which no second sub-move saves the king.
    let err =
        fen::parse_position::<HitAndRunSimultaneous>("4r2k/8/8/8/8/8/3P1P2/3RKR2 w - - 0 5 sub=d1")
            .unwrap_err();
    assert!(err.to_string().contains("no second sub-move"), "{err}");
}

#[test]
fn r9_king_next_to_the_enemy_king_must_step_away() {
    // docs/rules.md R9: a first sub-move may take the king next to the
    // enemy king (an attack like any other); the second must end it, and
    // only a king step can.
    let p: HitAndRunSimultaneous = pos("8/8/8/8/3k4/8/3K4/7R w - - 0 5");
    assert!(ucis(&p).contains(&"d2d3".to_string()));
    let p = play(p, &["Kd3"]);
    assert!(p.is_mid_turn() && p.is_check());
    let moves = ucis(&p);
    assert!(moves.iter().all(|m| m.starts_with("d3")), "{moves:?}");
    assert!(!moves.is_empty());
}
