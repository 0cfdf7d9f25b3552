//! Exhaustive check of the attack tables in `ransom::board::attacks` against
//! a naive reference that walks rays square by square.
//!
//! Every variant moves its men as in orthodox chess (RULES, common ground;
//! RULES S), so the tables are shared by all of them and checked once here:
//!
//! - rooks and bishops: for every square and every subset of the relevant
//!   blocker mask (the ray squares without the edge square at each ray's
//!   end), enumerated with the carry-rippler trick, plus the same subsets
//!   with pseudo-random occupancy outside the mask (which must not matter);
//! - queens: every rook subset and every bishop subset, each combined with
//!   pseudo-random blockers on the other lines;
//! - knights, kings and pawns of both colours: every square;
//! - `between`, `line` and `aligned`: every pair (and triple) of squares.

mod common;

use common::SplitMix;
use ransom::board::attacks::{
    aligned, attacks, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks,
};
use ransom::{Bitboard, Color, Role, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn sq(index: usize) -> Square {
    Square::new(index as u32).expect("index below 64")
}

fn bit(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn coords(index: usize) -> (i32, i32) {
    ((index % 8) as i32, (index / 8) as i32)
}

/// Slider attacks by walking each ray until (and including) the first blocker.
fn naive_slider(index: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = coords(index);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            out |= bit(f, r);
            if occupied & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// The squares whose occupancy can change a slider's attacks: every ray
/// square except the last one before the edge.
fn relevant_mask(index: usize, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = coords(index);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f + df, r + dr) {
            out |= bit(f, r);
            f += df;
            r += dr;
        }
    }
    out
}

fn naive_leaper(index: usize, deltas: &[(i32, i32)]) -> u64 {
    let (f0, r0) = coords(index);
    deltas
        .iter()
        .map(|&(df, dr)| (f0 + df, r0 + dr))
        .filter(|&(f, r)| on_board(f, r))
        .fold(0, |acc, (f, r)| acc | bit(f, r))
}

/// Every subset of `mask`, the empty set first (carry-rippler enumeration).
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
}

fn show(bb: u64) -> String {
    let squares: Vec<String> = Bitboard(bb).map(|s| s.to_string()).collect();
    format!("{{{}}}", squares.join(" "))
}

#[test]
fn carry_rippler_enumerates_every_subset_once() {
    let mask = 0x0000_0010_2040_0081u64;
    let all: Vec<u64> = subsets(mask).collect();
    assert_eq!(all.len(), 1 << mask.count_ones());
    let mut sorted = all.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), all.len());
    assert!(all.iter().all(|&s| s & !mask == 0));
    assert_eq!(subsets(0).collect::<Vec<_>>(), vec![0]);
}

#[test]
fn relevant_masks_have_the_expected_sizes() {
    // The classic magic-bitboard mask sizes: 12 bits for a rook in a corner,
    // 10 in the middle; 6 for a bishop in a corner, 9 in the centre.
    assert_eq!(relevant_mask(0, &ROOK_DIRS).count_ones(), 12);
    assert_eq!(relevant_mask(27, &ROOK_DIRS).count_ones(), 10);
    assert_eq!(relevant_mask(0, &BISHOP_DIRS).count_ones(), 6);
    assert_eq!(relevant_mask(27, &BISHOP_DIRS).count_ones(), 9);
}

fn check_slider(
    name: &str,
    dirs: &[(i32, i32)],
    under_test: fn(Square, Bitboard) -> Bitboard,
) -> usize {
    let mut rng = SplitMix(0x5eed_0000 ^ dirs.len() as u64 ^ dirs[0].0 as u64);
    let mut checked = 0;
    for index in 0..64 {
        let mask = relevant_mask(index, dirs);
        for blockers in subsets(mask) {
            let expected = naive_slider(index, blockers, dirs);
            let got = under_test(sq(index), Bitboard(blockers)).0;
            assert_eq!(
                got,
                expected,
                "{name} on {}, blockers {}: got {}, expected {}",
                sq(index),
                show(blockers),
                show(got),
                show(expected)
            );
            // Occupancy outside the relevant mask (edge squares, other lines,
            // the slider's own square) never changes the attacks.
            let noisy = blockers | (rng.next() & !mask);
            let got = under_test(sq(index), Bitboard(noisy)).0;
            assert_eq!(
                got,
                naive_slider(index, noisy, dirs),
                "{name} on {}, occupancy {}",
                sq(index),
                show(noisy)
            );
            assert_eq!(
                got,
                expected,
                "{name} on {}: noise outside the mask changed the attacks",
                sq(index)
            );
            checked += 2;
        }
    }
    checked
}

#[test]
fn rook_attacks_every_blocker_subset() {
    let checked = check_slider("rook", &ROOK_DIRS, rook_attacks);
    // Sum over all squares of 2^(mask bits): 102,400 subsets for the rook.
    assert_eq!(checked, 2 * 102_400);
}

#[test]
fn bishop_attacks_every_blocker_subset() {
    let checked = check_slider("bishop", &BISHOP_DIRS, bishop_attacks);
    // 5,248 subsets for the bishop.
    assert_eq!(checked, 2 * 5_248);
}

#[test]
fn queen_attacks_every_blocker_subset_of_each_line_pair() {
    let all_dirs: Vec<(i32, i32)> = ROOK_DIRS.iter().chain(&BISHOP_DIRS).copied().collect();
    let mut rng = SplitMix(0x0dd_ba11);
    for index in 0..64 {
        let rook_mask = relevant_mask(index, &ROOK_DIRS);
        let bishop_mask = relevant_mask(index, &BISHOP_DIRS);
        let mut occupancies: Vec<u64> = Vec::new();
        for s in subsets(rook_mask) {
            occupancies.push(s | (rng.next() & !rook_mask));
        }
        for s in subsets(bishop_mask) {
            occupancies.push(s | (rng.next() & !bishop_mask));
        }
        for occupied in occupancies {
            let expected = naive_slider(index, occupied, &all_dirs);
            let got = queen_attacks(sq(index), Bitboard(occupied)).0;
            assert_eq!(
                got,
                expected,
                "queen on {}, occupancy {}: got {}, expected {}",
                sq(index),
                show(occupied),
                show(got),
                show(expected)
            );
            for (role, dirs) in [(Role::Rook, &ROOK_DIRS), (Role::Bishop, &BISHOP_DIRS)] {
                assert_eq!(
                    attacks(Color::White, role, sq(index), Bitboard(occupied)).0,
                    naive_slider(index, occupied, dirs)
                );
            }
            assert_eq!(
                attacks(Color::Black, Role::Queen, sq(index), Bitboard(occupied)).0,
                expected
            );
        }
    }
}

#[test]
fn leaper_attacks_every_square() {
    for index in 0..64 {
        let s = sq(index);
        let knight = naive_leaper(index, &KNIGHT_DELTAS);
        let king = naive_leaper(index, &KING_DELTAS);
        let white_pawn = naive_leaper(index, &[(-1, 1), (1, 1)]);
        let black_pawn = naive_leaper(index, &[(-1, -1), (1, -1)]);
        assert_eq!(knight_attacks(s).0, knight, "knight on {s}");
        assert_eq!(king_attacks(s).0, king, "king on {s}");
        assert_eq!(
            pawn_attacks(Color::White, s).0,
            white_pawn,
            "white pawn on {s}"
        );
        assert_eq!(
            pawn_attacks(Color::Black, s).0,
            black_pawn,
            "black pawn on {s}"
        );
        // Leapers ignore occupancy.
        for occupied in [0, !0, 0x00ff_00ff_00ff_00ff] {
            let occ = Bitboard(occupied);
            assert_eq!(attacks(Color::White, Role::Knight, s, occ).0, knight);
            assert_eq!(attacks(Color::Black, Role::King, s, occ).0, king);
            assert_eq!(attacks(Color::White, Role::Pawn, s, occ).0, white_pawn);
            assert_eq!(attacks(Color::Black, Role::Pawn, s, occ).0, black_pawn);
        }
    }
}

/// The reference for `between` and `line`: the direction from `a` to `b` if
/// they share a rank, file or diagonal (and differ).
fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let ((fa, ra), (fb, rb)) = (coords(a), coords(b));
    let (df, dr) = (fb - fa, rb - ra);
    if a == b || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

fn naive_between(a: usize, b: usize) -> u64 {
    let Some((df, dr)) = direction(a, b) else {
        return 0;
    };
    let (fa, ra) = coords(a);
    let (fb, rb) = coords(b);
    let (mut f, mut r) = (fa + df, ra + dr);
    let mut out = 0;
    while (f, r) != (fb, rb) {
        out |= bit(f, r);
        f += df;
        r += dr;
    }
    out
}

fn naive_line(a: usize, b: usize) -> u64 {
    let Some((df, dr)) = direction(a, b) else {
        return 0;
    };
    let (fa, ra) = coords(a);
    let mut out = bit(fa, ra);
    for (sf, sr) in [(df, dr), (-df, -dr)] {
        let (mut f, mut r) = (fa + sf, ra + sr);
        while on_board(f, r) {
            out |= bit(f, r);
            f += sf;
            r += sr;
        }
    }
    out
}

#[test]
fn between_and_line_every_pair() {
    let mut aligned_pairs = 0;
    for a in 0..64 {
        for b in 0..64 {
            let expected_between = naive_between(a, b);
            let expected_line = naive_line(a, b);
            assert_eq!(
                between(sq(a), sq(b)).0,
                expected_between,
                "between({}, {}): got {}, expected {}",
                sq(a),
                sq(b),
                show(between(sq(a), sq(b)).0),
                show(expected_between)
            );
            assert_eq!(
                line(sq(a), sq(b)).0,
                expected_line,
                "line({}, {}): got {}, expected {}",
                sq(a),
                sq(b),
                show(line(sq(a), sq(b)).0),
                show(expected_line)
            );
            if expected_line != 0 {
                aligned_pairs += 1;
                // The line holds both ends and everything between them.
                assert_eq!(
                    expected_line & (1 << a | 1 << b | expected_between),
                    1 << a | 1 << b | expected_between
                );
            }
        }
    }
    // Each square shares a line with 14 (rank and file) plus its diagonal squares:
    // 64 * 14 + 560 ordered pairs on diagonals.
    assert_eq!(aligned_pairs, 64 * 14 + 560);
}

#[test]
fn aligned_every_triple() {
    for a in 0..64 {
        for b in 0..64 {
            let full = naive_line(a, b);
            for c in 0..64 {
                assert_eq!(
                    aligned(sq(a), sq(b), sq(c)),
                    full & (1 << c) != 0,
                    "aligned({}, {}, {})",
                    sq(a),
                    sq(b),
                    sq(c)
                );
            }
        }
    }
}
