//! Attack tables, computed at compile time.
//!
//! Leapers (knight, king, pawn) use one mask per square. Sliders use the
//! *obstruction difference* method: every line through a square (file, rank,
//! diagonal, anti-diagonal) is split into the part below the square and the
//! part above it; the nearest blocker below is isolated with a leading-zero
//! count and the nearest blocker above with a subtraction. That needs only
//! 8 masks per square and no large tables, and is branch-free.

use super::{Bitboard, Color, Role, Square};

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        let mut mask = 0u64;
        while i < deltas.len() {
            let (f, r) = (file + deltas[i].0, rank + deltas[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                mask |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = mask;
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper_table(&[(-1, -1), (1, -1)]);

/// The squares reached from `sq` stepping by `(df, dr)` until the edge.
const fn ray(sq: usize, df: i32, dr: i32) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
    let mut mask = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        mask |= 1 << (r * 8 + f);
        f += df;
        r += dr;
    }
    mask
}

/// For one line through a square: the part below it and the part above it.
#[derive(Clone, Copy)]
struct LineMasks {
    lower: u64,
    upper: u64,
}

/// Four lines per square: file, rank, diagonal, anti-diagonal.
const fn line_masks() -> [[LineMasks; 4]; 64] {
    let empty = LineMasks { lower: 0, upper: 0 };
    let mut table = [[empty; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        // Directions with the "upper" half first: north, east, north-east, north-west.
        table[sq][0] = LineMasks {
            upper: ray(sq, 0, 1),
            lower: ray(sq, 0, -1),
        };
        table[sq][1] = LineMasks {
            upper: ray(sq, 1, 0),
            lower: ray(sq, -1, 0),
        };
        table[sq][2] = LineMasks {
            upper: ray(sq, 1, 1),
            lower: ray(sq, -1, -1),
        };
        table[sq][3] = LineMasks {
            upper: ray(sq, -1, 1),
            lower: ray(sq, 1, -1),
        };
        sq += 1;
    }
    table
}

static LINES: [[LineMasks; 4]; 64] = line_masks();

#[inline]
fn line_attacks(masks: LineMasks, occupied: u64) -> u64 {
    let lower = occupied & masks.lower;
    let upper = occupied & masks.upper;
    let nearest_below = 0x8000_0000_0000_0000u64 >> (lower | 1).leading_zeros();
    let span = upper ^ upper.wrapping_sub(nearest_below);
    (masks.lower | masks.upper) & span
}

/// Squares attacked by a knight on `sq`.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares attacked by a king on `sq`.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures onto).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::White => WHITE_PAWN[sq.index()],
        Color::Black => BLACK_PAWN[sq.index()],
    })
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let lines = &LINES[sq.index()];
    Bitboard(line_attacks(lines[0], occupied.0) | line_attacks(lines[1], occupied.0))
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let lines = &LINES[sq.index()];
    Bitboard(line_attacks(lines[2], occupied.0) | line_attacks(lines[3], occupied.0))
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a man of `color` and `role` on `sq` attacks.
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (-1, 1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let full = ray(a, df, dr) | ray(a, -df, -dr) | (1u64 << a);
            let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
            let mut path = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b`, or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}
