//! The prover and the independent verifier (issue: `ransom prove`).
//! Every claimed result must survive the verifier; broken proofs must be
//! rejected with a message naming the failing position.

use ransom::moves::Move;
use ransom::notation::{parse_move, uci};
use ransom::search::proof::verify_file;
use ransom::search::{Budget, Proof, ProofMeta, Verdict, prove, verify};
use ransom::variants::{Antichess, Chess, Suicide};
use ransom::{Color, Position, notation::fen};
use std::path::PathBuf;

fn after<P: Position>(moves: &[&str]) -> P {
    let mut pos = P::start();
    for text in moves {
        let m = parse_move(&pos, text).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

fn budget() -> Budget {
    Budget {
        max_nodes: 2_000_000,
        max_time: None,
        hash_bytes: 64 << 20,
        stop: None,
    }
}

fn proved<P: Position>(pos: &P) -> Proof<P> {
    let report = prove(pos, &budget(), &mut |_| {});
    assert_ne!(
        report.verdict,
        Verdict::Unknown,
        "notes: {:?}",
        report.notes
    );
    let proof = report.proof.expect("a verified proof");
    proof.verify().expect("proof verifies");
    proof
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ransom-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Metadata of the proof that Black wins after 1.e4.
fn e4_meta(pos: &Antichess) -> ProofMeta {
    ProofMeta {
        root_fen: fen::write(pos),
        winner: "black".into(),
        start_fen: fen::write(&Antichess::start()),
        line: vec!["e2e4".into()],
    }
}

// RULES A: 1.e4, 1.d4 and 1.d3 lose for White.
#[test]
fn first_moves_e4_d4_d3_lose() {
    for (line, refutation) in [("e4", "b7b5"), ("d4", "e7e5"), ("d3", "g7g5")] {
        let pos: Antichess = after(&[line]);
        let report = prove(&pos, &budget(), &mut |_| {});
        assert_eq!(report.verdict, Verdict::Win, "1.{line}: {:?}", report.notes);
        let proof = report.proof.expect("proof");
        assert_eq!(proof.winner, Color::Black);
        let checked = proof.verify().expect("verified");
        assert!(checked.positions > 10, "1.{line}: {checked:?}");
        assert_eq!(
            report.best.map(uci::write).as_deref(),
            Some(refutation),
            "1.{line}"
        );
    }
}

#[test]
fn after_d3_e5_white_wins_with_bf4() {
    let pos: Antichess = after(&["d3", "e5"]);
    let report = prove(&pos, &budget(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Win);
    assert_eq!(report.proof.as_ref().unwrap().winner, Color::White);
    assert_eq!(report.best.map(uci::write).as_deref(), Some("c1f4"));
}

#[test]
fn proof_file_round_trip() {
    let pos: Antichess = after(&["e4"]);
    let proof = proved(&pos);
    let path = temp_path("e4.proof");
    let meta = e4_meta(&pos);
    proof.write(&path, &meta).unwrap();
    let checked = verify_file(&path).expect("file verifies");
    assert_eq!(checked.meta, meta);
    assert_eq!(checked.stored_moves, proof.moves.len() as u64);
    assert_eq!(checked.verified, proof.verify().unwrap());
}

#[test]
fn wrong_move_fails_verification() {
    let pos: Antichess = after(&["e4"]);
    let mut proof = proved(&pos);
    // 1...a6 instead of the refutation: the stored continuation no longer fits.
    let wrong = parse_move(&pos, "a6").unwrap();
    proof.moves.insert(pos.zobrist(), wrong);
    let err = proof.verify().unwrap_err();
    assert!(
        err.reason.contains("no move stored") || err.reason.contains("not a win"),
        "{err}"
    );
}

#[test]
fn illegal_stored_move_fails_verification() {
    let pos: Antichess = after(&["e4"]);
    let mut proof = proved(&pos);
    let illegal = Move::Normal {
        role: ransom::Role::Queen,
        from: ransom::Square::D8,
        capture: None,
        to: ransom::Square::H4,
        promotion: None,
    };
    proof.moves.insert(pos.zobrist(), illegal);
    let err = proof.verify().unwrap_err();
    assert!(err.reason.contains("is not legal here"), "{err}");
    assert_eq!(err.line, "the root");
}

#[test]
fn missing_defence_fails_verification() {
    let pos: Antichess = after(&["e4"]);
    let mut proof = proved(&pos);
    // Remove the winner's answer to one defence: the position after 1...b5 2.Bxb5.
    let mut child = pos.clone();
    child.play_unchecked(*proof.moves.get(&pos.zobrist()).unwrap());
    let defence = child.legal_moves()[0];
    child.play_unchecked(defence);
    assert!(proof.moves.remove(&child.zobrist()).is_some());
    let err = proof.verify().unwrap_err();
    assert!(err.reason.contains("no move stored"), "{err}");
    assert!(err.line.starts_with("b7b5"), "{err}");
}

fn written_proof_bytes() -> (PathBuf, Vec<u8>) {
    let pos: Antichess = after(&["e4"]);
    let proof = proved(&pos);
    let path = temp_path("bytes.proof");
    proof.write(&path, &e4_meta(&pos)).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn flipped_bytes_fail_with_a_clear_message() {
    let (path, bytes) = written_proof_bytes();
    // In the header: the checksum catches it.
    let mut header_flip = bytes.clone();
    header_flip[20] ^= 0x40;
    let bad = path.with_extension("hdr.proof");
    std::fs::write(&bad, &header_flip).unwrap();
    let err = verify_file(&bad).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    // In the last byte of the data (a zstd frame): the frame checks catch it.
    let mut block_flip = bytes.clone();
    let last = block_flip.len() - 1;
    block_flip[last] ^= 0x01;
    let bad = path.with_extension("blk.proof");
    std::fs::write(&bad, &block_flip).unwrap();
    let err = verify_file(&bad).unwrap_err().to_string();
    assert!(
        err.contains("corrupt table") && err.contains("block"),
        "{err}"
    );
}

#[test]
fn truncated_file_fails_with_a_clear_message() {
    let (path, bytes) = written_proof_bytes();
    for keep in [0, 5, 30, bytes.len() / 2, bytes.len() - 1] {
        let bad = path.with_extension(format!("cut{keep}.proof"));
        std::fs::write(&bad, &bytes[..keep]).unwrap();
        let err = verify_file(&bad).unwrap_err().to_string();
        assert!(err.contains("corrupt table"), "kept {keep} bytes: {err}");
    }
    let missing = verify_file(&path.with_extension("nothing"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("No such file"), "{missing}");
}

// RULES "Repetition": a line that repeats a position is never a win. Here
// Black can only shuffle Kh8-g8 and the "proof" shuffles White's king: the
// verifier must reject it at the repetition.
#[test]
fn verifier_rejects_a_win_that_repeats() {
    let root: Chess = fen::parse_position("7k/7p/7P/8/8/8/8/K4R2 w - - 0 1").unwrap();
    let mut moves = hashbrown::HashMap::new();
    let mut pos = root.clone();
    for text in ["Kb1", "Kg8", "Ka1", "Kh8"] {
        let m = parse_move(&pos, text).unwrap();
        if pos.turn() == Color::White {
            moves.insert(pos.zobrist(), m);
        }
        pos.play_unchecked(m);
    }
    let proof = Proof {
        root,
        winner: Color::White,
        moves,
    };
    let err = proof.verify().unwrap_err();
    assert!(err.reason.contains("repeats a position"), "{err}");
    assert_eq!(err.line, "a1b1 h8g8 b1a1 g8h8");
}

// Bare kings in Losing chess: neither side can force anything, every line
// goes on only by repeating; nothing may be proved.
#[test]
fn bare_kings_are_not_proved() {
    let pos: Antichess = fen::parse_position("7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let report = prove(&pos, &budget(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(report.proof.is_none());
    assert_eq!(
        report.notes,
        vec!["white has no forced win", "black has no forced win"]
    );
}

// RULES A5 / A7: after 1...a4 White is stalemated with more men. Under the
// international rules White wins; under `suicide` Black wins.
#[test]
fn suicide_changes_the_stalemate_result() {
    let text = "8/8/8/p7/8/P7/P7/8 b - - 0 1";
    let anti: Antichess = fen::parse_position(text).unwrap();
    let report = prove(&anti, &budget(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Loss);
    assert_eq!(report.proof.unwrap().winner, Color::White);

    let suicide: Suicide = fen::parse_position(text).unwrap();
    let report = prove(&suicide, &budget(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Win);
    assert_eq!(report.best.map(uci::write).as_deref(), Some("a5a4"));
}

// Generic over the variant: a forced mate in chess is a proved win.
#[test]
fn chess_mate_is_a_proved_win() {
    let pos: Chess = fen::parse_position("7k/7p/7P/8/8/8/8/K4R2 w - - 0 1").unwrap();
    let proof = proved(&pos);
    assert_eq!(proof.winner, Color::White);
    let checked = verify::verify(&pos, Color::White, &|h| {
        Ok(proof.moves.get(&h).map(|&m| ransom::moves::encode(m)))
    })
    .unwrap();
    assert_eq!(checked.depth, 1, "Rf8 is mate at once");
}

#[test]
fn budget_exhaustion_is_unknown_not_a_guess() {
    let pos: Antichess = after(&["e4"]);
    let tiny = Budget {
        max_nodes: 50,
        max_time: None,
        hash_bytes: 1 << 20,
        stop: None,
    };
    let report = prove(&pos, &tiny, &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(report.nodes <= 60, "{}", report.nodes);
}

#[test]
fn tiny_hash_still_proves_or_says_unknown() {
    // A table far too small forces garbage collection; the answer must stay sound.
    let pos: Antichess = after(&["d3"]);
    let small = Budget {
        max_nodes: 3_000_000,
        max_time: None,
        hash_bytes: 1,
        stop: None,
    };
    let report = prove(&pos, &small, &mut |_| {});
    if let Some(proof) = &report.proof {
        proof.verify().expect("sound");
    }
    assert_ne!(report.verdict, Verdict::Loss);
}

/// Contact chess counts the moves of positions out of check without testing
/// them for legality when df-pn first meets them (`Position::mobility_hint`,
/// docs/prover.md "Royal variants"); the rules still settle every position
/// a proof rests on. Every Contact mate puzzle of the repository (RULES C2–C5,
/// each verified by the mate solver) is a proved, verified win for the side
/// to move, and whatever the prover claims one move away verifies.
#[test]
fn contact_mate_puzzles_are_proved_wins() {
    use ransom::variants::Contact;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut puzzles: Vec<Contact> = Vec::new();
    for file in ["contact-mates.epd", "contact-generated-m2-3.epd"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .take(12)
        {
            let fen_text: Vec<&str> = line.split_whitespace().take(4).collect();
            let fen_text = format!("{} 0 1", fen_text.join(" "));
            puzzles.push(fen::parse_position(&fen_text).unwrap());
        }
    }
    assert!(puzzles.len() >= 15, "{} puzzles", puzzles.len());
    let small = Budget {
        max_nodes: 3_000,
        ..budget()
    };
    for pos in &puzzles {
        let text = fen::write(pos);
        let proof = proved(pos);
        assert_eq!(proof.winner, pos.turn(), "{text}");
        for &m in pos.legal_moves().iter().step_by(4) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if let Some(proof) = prove(&child, &small, &mut |_| {}).proof {
                proof
                    .verify()
                    .unwrap_or_else(|e| panic!("{text} then {m:?}: {e}"));
            }
        }
    }
}
