//! The retrograde generator's predecessor step against a slow, obviously
//! correct reference: every board that differs from a position by one man
//! of the side that just moved standing elsewhere, kept when the move
//! generator (RULES A: compulsory captures, en passant) plays a legal move
//! from it that leads exactly to the position.

use ransom::board::{Board, Color, Piece, Square};
use ransom::tablebase::{Layout, Material, position_of, retro};
use ransom::variants::International;
use ransom::{Position, Role};

/// Every board from which `mover` reaches `board` by one legal move that
/// captures nothing, promotes nothing and leaves no en-passant square,
/// found by moving each of the mover's men to every empty square and
/// asking the move generator.
fn reference_predecessors(board: &Board, mover: Color) -> Vec<Board> {
    let mut out = Vec::new();
    for (to, piece) in board.pieces() {
        if piece.color != mover {
            continue;
        }
        for from in Square::all() {
            if board.occupied().contains(from) {
                continue;
            }
            let mut before = *board;
            before.remove(to);
            before.set(from, piece);
            let Some(pos) = position_of::<International>(before, mover) else {
                continue;
            };
            let leads_here = pos.legal_moves().iter().any(|&m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                !m.is_capture()
                    && m.promotion().is_none()
                    && after.board() == board
                    && after.to_setup().ep_square.is_none()
            });
            if leads_here {
                out.push(before);
            }
        }
    }
    out
}

fn key(board: &Board) -> Vec<(usize, char)> {
    let mut men: Vec<(usize, char)> = board
        .pieces()
        .map(|(sq, p)| (sq.index(), p.char()))
        .collect();
    men.sort_unstable();
    men
}

/// RULES A2 (captures compulsory), A1 (pawn double step, en passant):
/// the predecessors of every valid index sampled from tables with and
/// without pawns, for both sides to move, match the reference exactly
/// (as multisets: each predecessor once).
#[test]
fn predecessors_match_the_move_generator() {
    let mut checked = 0;
    for key_text in ["KRvKN", "KPvKP", "BNPvN", "PPvP", "QvKB", "NNvP"] {
        let material = Material::parse(key_text).unwrap();
        let layout = Layout::new(material);
        let step = (layout.size() / 1500).max(1) | 1;
        for index in (0..layout.size()).step_by(step as usize) {
            let Some((board, turn)) = layout.decode(index) else {
                continue;
            };
            let mover = !turn;
            let mut found = Vec::new();
            retro::for_each_predecessor(&board, mover, |before| found.push(key(before)));
            let mut expected: Vec<_> = reference_predecessors(&board, mover)
                .iter()
                .map(key)
                .collect();
            found.sort();
            expected.sort();
            assert_eq!(found, expected, "{key_text} index {index}");
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} positions checked");
}

/// The stabilizer counts the symmetries of the index (8 without pawns)
/// that map a board onto itself: 1 for a board in general position, 2 for
/// men all on the a1-h8 diagonal or two identical men mirrored in it, 8 for
/// four identical men on the centre squares (RULES-independent: this is the
/// symmetry bookkeeping of the generator's move counts).
#[test]
fn stabilizer_counts_the_symmetries_fixing_a_board() {
    let place = |men: &[(&str, Piece)]| {
        let mut b = Board::empty();
        for (sq, p) in men {
            b.set(Square::parse(sq).unwrap(), *p);
        }
        b
    };
    let wk = Role::King.of(Color::White);
    let bk = Role::King.of(Color::Black);
    let wn = Role::Knight.of(Color::White);
    assert_eq!(retro::stabilizer(&place(&[("a1", wk), ("c7", bk)]), 8), 1);
    assert_eq!(retro::stabilizer(&place(&[("b2", wk), ("g7", bk)]), 8), 2);
    assert_eq!(
        retro::stabilizer(&place(&[("b1", wn), ("a2", wn), ("e5", bk)]), 8),
        2
    );
    assert_eq!(
        retro::stabilizer(&place(&[("d4", wn), ("e4", wn), ("d5", wn), ("e5", wn)]), 8),
        8
    );
    // With pawns the index uses only the file mirror (symmetries 0..2): it
    // fixes a board whose men stand in mirrored pairs of identical men.
    let wb = Role::Bishop.of(Color::White);
    let bp = Role::Pawn.of(Color::Black);
    assert_eq!(retro::stabilizer(&place(&[("b2", wk), ("g7", bk)]), 2), 1);
    assert_eq!(
        retro::stabilizer(&place(&[("c3", wb), ("f3", wb), ("a5", bp), ("h5", bp)]), 2),
        2
    );
    assert_eq!(
        retro::stabilizer(&place(&[("c3", wb), ("f3", wb), ("a5", bp), ("g5", bp)]), 2),
        1
    );
}
