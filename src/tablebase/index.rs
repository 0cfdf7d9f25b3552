//! Position <-> index mapping with symmetry reduction.
//!
//! The men of a material key are listed White's first, each side in
//! K Q R B N P order; identical men form a group. An index is
//!
//! ```text
//! (Black to move) * size / 2 + ((first * 64 + sq_1) * 64 + sq_2 ...)
//! ```
//!
//! (the side to move is the most significant part, so each half of a
//! table is one side to move, which compresses better than interleaving).
//!
//! where `first` is the square of the first man folded into a region:
//! without pawns the triangle a1-d1-d4 (10 squares, `rank <= file <= 3`),
//! with pawns the files a-d (32 squares). The index of a position is the
//! smallest raw index over every symmetry of the board (8 without pawns,
//! the left-right mirror with pawns; for a material with the same men on
//! both sides also the colour flip: ranks mirrored, colours and side to
//! move exchanged) and over which man of the first group is written first
//! (the rest of every group is sorted ascending). So every position has
//! exactly one index, and an index is valid iff decoding it gives a
//! position whose index is that index.

use super::{MAX_MEN, Material};
use crate::board::{Board, Color, Piece, Role, Square};
use smallvec::SmallVec;

/// The triangle a1-d1-d4: its squares in index order.
const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// For each square, its place in [`TRIANGLE`], or `u8::MAX` outside it.
const TRIANGLE_PLACE: [u8; 64] = {
    let mut place = [u8::MAX; 64];
    let mut i = 0;
    while i < TRIANGLE.len() {
        place[TRIANGLE[i] as usize] = i as u8;
        i += 1;
    }
    place
};

fn triangle_index(sq: u8) -> Option<u64> {
    match TRIANGLE_PLACE[usize::from(sq)] {
        u8::MAX => None,
        i => Some(u64::from(i)),
    }
}

fn half_index(sq: u8) -> Option<u64> {
    let (f, r) = (sq & 7, sq >> 3);
    (f <= 3).then_some((r * 4 + f) as u64)
}

/// A region symmetries take squares into.
#[derive(Clone, Copy)]
enum Region {
    /// Files a-d (the first man's region with pawns).
    Half,
    /// The triangle a1-d1-d4, `rank <= file <= 3` (without pawns).
    Triangle,
}

/// For each square, the symmetries (bit `t`) that take it into the
/// triangle a1-d1-d4.
const INTO_TRIANGLE: [u8; 64] = into_region_masks(Region::Triangle);
/// For each square, the symmetries that take it into files a-d (with pawns
/// only the identity and the file mirror are used, after the colour flip's
/// rank mirror).
const INTO_HALF: [u8; 64] = into_region_masks(Region::Half);

const fn into_region_masks(region: Region) -> [u8; 64] {
    let mut masks = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut t = 0;
        while t < 8 {
            let moved = transform(sq as u8, t);
            let (f, r) = (moved & 7, moved >> 3);
            let inside = match region {
                Region::Half => f <= 3,
                Region::Triangle => r <= f && f <= 3,
            };
            if inside {
                masks[sq] |= 1 << t;
            }
            t += 1;
        }
        sq += 1;
    }
    masks
}

/// `piece`, or the same role in the other colour for the colour flip.
fn oriented(piece: Piece, flip: bool) -> Piece {
    if flip {
        Piece {
            color: !piece.color,
            role: piece.role,
        }
    } else {
        piece
    }
}

/// Applies symmetry `t` (bit 0 mirror files, bit 1 mirror ranks, bit 2
/// transpose) to a square.
#[inline]
pub const fn transform(sq: u8, t: u8) -> u8 {
    let (mut f, mut r) = (sq & 7, sq >> 3);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        let old_f = f;
        f = r;
        r = old_f;
    }
    r * 8 + f
}

/// The index layout of one (canonical) material key.
#[derive(Clone, Debug)]
pub struct Layout {
    material: Material,
    /// One entry per group of identical men: the piece and how many.
    groups: SmallVec<[(Piece, usize); MAX_MEN]>,
    pieces: SmallVec<[Piece; MAX_MEN]>,
    pawns: bool,
    symmetric: bool,
    size: u64,
    /// For each square, the symmetries (bit `t`) that take it into the
    /// region of the first man: the only ones worth trying for a position
    /// whose first group stands there.
    into_region: &'static [u8; 64],
}

impl Layout {
    /// The layout of `material` (taken in its canonical orientation).
    pub fn new(material: Material) -> Layout {
        let material = material.canonical();
        let pieces = material.pieces();
        let mut groups: SmallVec<[(Piece, usize); MAX_MEN]> = SmallVec::new();
        for &p in &pieces {
            match groups.last_mut() {
                Some((q, n)) if *q == p => *n += 1,
                _ => groups.push((p, 1)),
            }
        }
        let pawns = material.has_pawns();
        let region = if pawns { 32 } else { 10 };
        let size = region * 64u64.pow(pieces.len() as u32 - 1) * 2;
        let into_region = if pawns { &INTO_HALF } else { &INTO_TRIANGLE };
        Layout {
            material,
            groups,
            pieces,
            pawns,
            symmetric: material.is_symmetric(),
            size,
            into_region,
        }
    }

    /// The material (canonical orientation).
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of raw indices (valid or not).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether the material has pawns (then the only board symmetry is
    /// the left-right mirror).
    pub fn has_pawns(&self) -> bool {
        self.pawns
    }

    /// Whether both sides have the same men (then the colour flip is a
    /// symmetry of the index too).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// The groups of identical men in index order: the piece and how many.
    pub fn groups(&self) -> &[(Piece, usize)] {
        &self.groups
    }

    fn region(&self, sq: u8) -> Option<u64> {
        if self.pawns {
            half_index(sq)
        } else {
            triangle_index(sq)
        }
    }

    /// The index of a position whose material is this layout's material or
    /// its colour flip. Panics if the material does not match (callers check).
    pub fn index(&self, board: &Board, turn: Color) -> u64 {
        self.index_by_first_man(board, turn)
            .unwrap_or_else(|| self.index_by_search(board, turn))
    }

    /// [`Layout::index`] by trying every symmetry, colour flip and choice
    /// of the man written first: the definition, for any board (and the
    /// reference of [`Layout::index_by_first_man`]).
    fn index_by_search(&self, board: &Board, turn: Color) -> u64 {
        let found = Material::from_board(board);
        let must_flip = found != self.material;
        debug_assert!(!must_flip || found.flipped() == self.material);
        let flips: &[bool] = if self.symmetric {
            &[false, true]
        } else if must_flip {
            &[true]
        } else {
            &[false]
        };
        let transforms: &[u8] = if self.pawns {
            &[0, 1]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        };
        let mut best = u64::MAX;
        let mut squares: [[u8; 8]; 8] = [[0; 8]; 8];
        for &flip in flips {
            let stm = if flip { !turn } else { turn };
            let first = oriented(self.groups[0].0, flip);
            let candidates = board
                .by_piece(first)
                .into_iter()
                .fold(0u8, |m, sq| m | self.into_region[sq.index()]);
            for &t in transforms {
                let t = if flip { t ^ 2 } else { t };
                if candidates & (1 << t) == 0 {
                    continue;
                }
                let n0 = self.groups[0].1;
                for (g, &(piece, n)) in self.groups.iter().enumerate() {
                    let p = oriented(piece, flip);
                    let mut k = 0;
                    for sq in board.by_piece(p) {
                        squares[g][k] = transform(sq.index() as u8, t);
                        k += 1;
                    }
                    debug_assert_eq!(k, n);
                    if g == 0 && !squares[0][..n0].iter().any(|&s| self.region(s).is_some()) {
                        // No man of the first group in the region: not this symmetry.
                        break;
                    }
                    squares[g][..n].sort_unstable();
                }
                if !squares[0][..n0].iter().any(|&s| self.region(s).is_some()) {
                    continue;
                }
                for j in 0..n0 {
                    let Some(mut raw) = self.region(squares[0][j]) else {
                        continue;
                    };
                    for (i, &sq) in squares[0][..n0].iter().enumerate() {
                        if i != j {
                            raw = raw * 64 + sq as u64;
                        }
                    }
                    for (g, &(_, n)) in self.groups.iter().enumerate().skip(1) {
                        for &sq in &squares[g][..n] {
                            raw = raw * 64 + sq as u64;
                        }
                    }
                    raw += (stm == Color::Black) as u64 * (self.size / 2);
                    best = best.min(raw);
                }
            }
        }
        best
    }

    /// How many of the board symmetries of [`transform`] (`0..n`) the
    /// index identifies: 8 without pawns, 2 with pawns (the identity and the
    /// file mirror, which fixes a board whose men stand in mirrored pairs of
    /// identical men, like bishops on c3 and f3 and pawns on a5 and h5).
    pub fn stabilizing_symmetries(&self) -> u8 {
        if self.pawns { 2 } else { 8 }
    }

    /// The index of a board whose first group is one man, for a material
    /// without the colour flip among its symmetries: the symmetries that
    /// take that man into its region (one with pawns, and without pawns
    /// one for a square off the long diagonals, two on them) each give a
    /// raw index with every other group's squares ascending, and the index
    /// is the smallest. A board of the colour-flipped material is read with
    /// colours exchanged and ranks mirrored, as the general search does.
    /// `None` for any other board (the general search handles it).
    #[inline]
    fn index_by_first_man(&self, board: &Board, turn: Color) -> Option<u64> {
        let (first, count) = self.groups[0];
        if count != 1 || self.symmetric {
            return None;
        }
        let flip = [false, true].into_iter().find(|&flip| {
            self.groups
                .iter()
                .all(|&(piece, n)| board.by_piece(oriented(piece, flip)).count() as usize == n)
        })?;
        let sq = board
            .by_piece(oriented(first, flip))
            .single_square()?
            .index();
        let symmetries = if self.pawns {
            // The colour flip mirrors ranks; files e-h are mirrored to a-d.
            1u8 << (2 * u8::from(flip) + u8::from(sq & 7 > 3))
        } else {
            INTO_TRIANGLE[sq]
        };
        let stm = if flip { !turn } else { turn };
        let mut best = u64::MAX;
        for t in (0..8u8).filter(|t| symmetries & (1 << t) != 0) {
            let mut raw = self.region(transform(sq as u8, t))?;
            for &(piece, n) in &self.groups[1..] {
                let men = board.by_piece(oriented(piece, flip));
                if t == 0 {
                    // Bitboards list squares ascending.
                    for man in men {
                        raw = raw * 64 + man.index() as u64;
                    }
                    continue;
                }
                let mut squares = [0u8; MAX_MEN];
                for (slot, man) in squares.iter_mut().zip(men) {
                    *slot = transform(man.index() as u8, t);
                }
                squares[..n].sort_unstable();
                for &s in &squares[..n] {
                    raw = raw * 64 + u64::from(s);
                }
            }
            best = best.min(raw);
        }
        Some(best + (stm == Color::Black) as u64 * (self.size / 2))
    }

    /// The position of a valid index (canonical and legal), or `None`.
    pub fn decode(&self, index: u64) -> Option<(Board, Color)> {
        let (board, turn, sqs) = self.decode_raw(index)?;
        // Fast path: a lone first man strictly inside its region (off the
        // diagonal without pawns) and no colour flip: only the identity
        // keeps it in the region, so the index is canonical iff every group
        // is sorted.
        let sq0 = sqs[0];
        if self.groups[0].1 == 1 && !self.symmetric && (self.pawns || (sq0 >> 3) < (sq0 & 7)) {
            let mut at = 1;
            for &(_, n) in &self.groups[1..] {
                if sqs[at..at + n].windows(2).any(|w| w[0] > w[1]) {
                    return None;
                }
                at += n;
            }
            return Some((board, turn));
        }
        (self.index(&board, turn) == index).then_some((board, turn))
    }

    /// The board of a valid index, without checking that the index is
    /// canonical (for indices known to be valid).
    pub fn decode_valid(&self, index: u64) -> Option<(Board, Color)> {
        self.decode_raw(index).map(|(board, turn, _)| (board, turn))
    }

    /// The board an index spells (men on distinct squares, pawns off the
    /// back ranks) and the men's squares, canonical or not.
    fn decode_raw(&self, index: u64) -> Option<(Board, Color, [u8; 8])> {
        if index >= self.size {
            return None;
        }
        let half = self.size / 2;
        let turn = if index >= half {
            Color::Black
        } else {
            Color::White
        };
        let mut rest = index % half;
        let n = self.pieces.len();
        let mut sqs = [0u8; 8];
        for i in (1..n).rev() {
            sqs[i] = (rest % 64) as u8;
            rest /= 64;
        }
        sqs[0] = if self.pawns {
            let (r, f) = (rest / 4, rest % 4);
            (r * 8 + f) as u8
        } else {
            TRIANGLE[rest as usize]
        };
        let mut board = Board::empty();
        let mut seen = 0u64;
        for (i, &piece) in self.pieces.iter().enumerate() {
            let sq = sqs[i];
            if seen & (1 << sq) != 0 {
                return None;
            }
            seen |= 1 << sq;
            if piece.role == Role::Pawn && !(8..56).contains(&sq) {
                return None;
            }
            board.set(Square::new(sq as u32)?, piece);
        }
        Some((board, turn, sqs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut of [`Layout::index_by_first_man`] tries the
    /// symmetries that take the first man into the triangle: one for a
    /// square off the long diagonals, two on them (such a square lands on
    /// the triangle's diagonal edge, which the reflection in a1-h8 keeps).
    #[test]
    fn triangle_symmetries_are_one_off_the_diagonals_two_on_them() {
        for sq in 0..64u8 {
            let (f, r) = (sq & 7, sq >> 3);
            let on_diagonal = f == r || f + r == 7;
            let expected = if on_diagonal { 2 } else { 1 };
            assert_eq!(INTO_TRIANGLE[sq as usize].count_ones(), expected, "{sq}");
        }
    }

    /// The shortcut through the first man gives the index the definition
    /// gives (every symmetry, flip and first man tried), on random boards
    /// of materials with and without pawns, in both orientations (a board
    /// of the colour-flipped material is looked up in the same table), both
    /// sides to move.
    #[test]
    fn first_man_index_matches_the_search() {
        let keys = [
            "KRvK", "KQRvKB", "KRPvKN", "KPPvKP", "KBvKPP", "QRvNN", "KKNvKR", "NPvP",
        ];
        let mut shortcut = 0;
        for key in keys {
            let material = Material::parse(key).unwrap();
            let layout = Layout::new(material);
            for orientation in [material, material.flipped()] {
                for board in orientation.random_boards(0x9e37_79b9_7f4a_7c15).take(3000) {
                    for turn in [Color::White, Color::Black] {
                        let searched = layout.index_by_search(&board, turn);
                        assert_eq!(layout.index(&board, turn), searched, "{key}: {board:?}");
                        shortcut += usize::from(layout.index_by_first_man(&board, turn).is_some());
                    }
                }
            }
        }
        assert!(shortcut > 50_000, "the shortcut was taken {shortcut} times");
    }
}
