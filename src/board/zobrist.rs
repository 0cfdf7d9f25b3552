//! Zobrist keys. Each key is a fixed pseudo-random 64-bit value derived from
//! a feature index by the SplitMix64 finaliser, so the keys are the same on
//! every run and every machine, and holdings of any size get a key without a
//! table bound.

use super::{Color, Piece, Role, Square};

const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn piece_table() -> [[u64; 64]; 12] {
    let mut table = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            table[p][sq] = mix((p * 64 + sq) as u64 + 1);
            sq += 1;
        }
        p += 1;
    }
    table
}

static PIECES: [[u64; 64]; 12] = piece_table();

const FEATURE_BASE: u64 = 0x1_0000;

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    PIECES[piece.color.index() * 6 + piece.role.index()][sq.index()]
}

/// Key XORed in when Black is to move.
#[inline]
pub fn black_to_move() -> u64 {
    mix(FEATURE_BASE)
}

/// Key of a castling right with the rook on `rook` (corners only).
#[inline]
pub fn castling(rook: Square) -> u64 {
    mix(FEATURE_BASE + 0x100 + rook.index() as u64)
}

/// Key of an en-passant square (by its index).
#[inline]
pub fn en_passant(sq: Square) -> u64 {
    mix(FEATURE_BASE + 0x200 + sq.index() as u64)
}

/// Key of a man marked as promoted on `sq` (crazyhouse `~`).
#[inline]
pub fn promoted(sq: Square) -> u64 {
    mix(FEATURE_BASE + 0x300 + sq.index() as u64)
}

/// Key of holding exactly `count` men of `role` in holding number `slot`
/// of `color` (slot 0: crazyhouse pocket / Hostage airfield; slot 1:
/// Hostage prison or Contact captured men). A count of zero has key 0, so
/// empty holdings leave the hash of a plain position unchanged.
#[inline]
pub fn holding(slot: u64, color: Color, role: Role, count: u8) -> u64 {
    if count == 0 {
        return 0;
    }
    let feature =
        ((slot * 2 + color.index() as u64) * 8 + role.index() as u64) * 256 + count as u64;
    mix(FEATURE_BASE + 0x1_0000 + feature)
}

/// Key of an extra per-variant feature (sub-move state and the like).
#[inline]
pub fn extra(feature: u64) -> u64 {
    mix(FEATURE_BASE + 0x100_0000 + feature)
}
