//! The part of a table a promotion can reach, held instead of the whole
//! table while a larger one is built.
//!
//! A build looks a table `P` reached by a promotion without a capture up
//! only at positions right after that promotion: the promoted man on its
//! colour's last rank and the other side to move. When `P` has pawns its
//! index keeps the ranks (the only symmetry is the left-right mirror), so
//! those positions are one side-to-move half of the index with one digit
//! in a range: the promoted man's square (the group's last square for a
//! White man on the eighth rank, its first for a Black man on the first
//! rank: a group's squares are written ascending). That is a sixteenth of
//! the table (an eighth of the squares, half the sides to move). Without
//! pawns the eight symmetries take the last rank to any edge, so the
//! slice is the whole half of the side to move after the promotion.

use super::Layout;
use crate::board::{Bitboard, Board, Color, Piece, Role};

/// Which raw indices of a table a slice holds, and where each one sits in
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// The first raw index of the side to move it holds.
    side_start: u64,
    /// Raw indices of that side to move.
    half: u64,
    /// Raw indices spanned by one step of the sliced digit (the digits
    /// after it).
    below: u64,
    /// The sliced digit's base (64 for a square, 32 for the first man's
    /// region with pawns).
    radix: u64,
    /// The digit values held: `lo..lo + span`.
    lo: u64,
    span: u64,
    /// The man promoted to, for a slice of a table with pawns (its
    /// positions are then told from the ones a promotion leads to, see
    /// [`Slice::follows_a_promotion`]).
    promoted: Option<Piece>,
}

impl Slice {
    /// The positions of `layout`'s table with a man `promoted` on its
    /// colour's last rank and the other side to move, if they form a slice:
    /// the table has no colour-flip symmetry and, with pawns, the man's
    /// group is not a first group of several men (whose first man is
    /// written out of order). Without pawns, the half of the other side
    /// to move.
    pub fn of_promotion(layout: &Layout, promoted: Piece) -> Option<Slice> {
        if layout.is_symmetric() {
            return None;
        }
        if !layout.has_pawns() {
            let half = layout.size() / 2;
            let side_start = if promoted.color == Color::White {
                half
            } else {
                0
            };
            return Some(Slice::half(layout.size(), side_start));
        }
        let groups = layout.groups();
        let men: usize = groups.iter().map(|&(_, n)| n).sum();
        let mut at = 0;
        let (g, count) = groups.iter().enumerate().find_map(|(g, &(piece, n))| {
            let found = (piece == promoted).then_some((g, n));
            if found.is_none() {
                at += n;
            }
            found
        })?;
        let white = promoted.color == Color::White;
        let (slot, radix, lo, span) = if g == 0 {
            if count != 1 {
                return None;
            }
            // The region of files a-d, four squares a rank.
            (0, 32, if white { 28 } else { 0 }, 4)
        } else {
            let slot = if white { at + count - 1 } else { at };
            (slot, 64, if white { 56 } else { 0 }, 8)
        };
        let half = layout.size() / 2;
        let below = 64u64.pow((men - 1 - slot) as u32);
        // The other side moves after the promotion.
        let side_start = if white { half } else { 0 };
        Some(Slice {
            side_start,
            half,
            below,
            radix,
            lo,
            span,
            promoted: Some(promoted),
        })
    }

    /// The whole side-to-move half of a table of `size` raw indices that
    /// starts at `side_start` (0 or `size / 2`).
    pub fn half(size: u64, side_start: u64) -> Slice {
        Slice {
            side_start,
            half: size / 2,
            below: 1,
            radix: 1,
            lo: 0,
            span: 1,
            promoted: None,
        }
    }

    /// The same positions with the other side to move: where the quiet
    /// moves of this slice's positions lead when their table has pawns
    /// (a move that neither captures nor promotes leaves the promoted man
    /// on its last rank), and the other half for a half.
    pub fn other_side(&self) -> Slice {
        Slice {
            side_start: if self.side_start == 0 { self.half } else { 0 },
            ..*self
        }
    }

    /// Whether a promotion without a capture can lead to `board` (a
    /// position of this slice of a table with pawns, the side that did not
    /// promote to move): some promoted man on its last rank has an empty
    /// square behind it, where its pawn stood, and that position (the man a
    /// pawn again, its side to move) has no capture, which would have been
    /// compulsory (RULES A2). A build looks the slice up only there. Always
    /// true for a half (a table without pawns, whose symmetries take the
    /// last rank to any edge).
    pub fn follows_a_promotion(&self, board: &Board) -> bool {
        let Some(piece) = self.promoted else {
            return true;
        };
        let color = piece.color;
        let (last, back) = match color {
            Color::White => (7, -8),
            Color::Black => (0, 8),
        };
        for on in board.by_piece(piece) & Bitboard::rank(last) {
            let Some(from) = on.offset(back).filter(|&f| board.piece_at(f).is_none()) else {
                continue;
            };
            let mut before = *board;
            before.remove(on);
            before.set(from, Role::Pawn.of(color));
            if !super::retro::has_capture(&before, color) {
                return true;
            }
        }
        false
    }

    /// Raw indices held.
    pub fn len(&self) -> u64 {
        self.half / self.radix * self.span
    }

    /// Whether it holds no index.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first raw index of the side to move it holds.
    pub fn side_start(&self) -> u64 {
        self.side_start
    }

    /// Where the raw `index` sits in the slice, or `None` if it is not held.
    #[inline]
    pub fn slot(&self, index: u64) -> Option<u64> {
        let i = index.checked_sub(self.side_start)?;
        if i >= self.half {
            return None;
        }
        let (rest, low) = (i / self.below, i % self.below);
        let (above, digit) = (rest / self.radix, rest % self.radix);
        let d = digit.checked_sub(self.lo).filter(|&d| d < self.span)?;
        Some((above * self.span + d) * self.below + low)
    }

    /// The raw index at `slot` (the inverse of [`Slice::slot`]).
    pub fn index(&self, slot: u64) -> u64 {
        let (rest, low) = (slot / self.below, slot % self.below);
        let (above, d) = (rest / self.span, rest % self.span);
        self.side_start + (above * self.radix + self.lo + d) * self.below + low
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bitboard, Role};
    use crate::tablebase::Material;

    fn layout(key: &str) -> Layout {
        Layout::new(Material::parse(key).unwrap())
    }

    /// Checks that `slice` of `layout`'s table holds `slice.len()` raw
    /// indices, each at the slot it gives back, and of the valid positions
    /// exactly those `expected` says; returns how many those are.
    fn assert_holds_exactly(
        key: &str,
        layout: &Layout,
        slice: &Slice,
        expected: impl Fn(&Board, Color) -> bool,
    ) -> usize {
        let (mut held, mut seen) = (0, 0);
        for index in 0..layout.size() {
            let slot = slice.slot(index);
            if let Some(slot) = slot {
                held += 1;
                assert_eq!(slice.index(slot), index, "{key}");
                assert!(slot < slice.len());
            }
            let Some((board, turn)) = layout.decode(index) else {
                continue;
            };
            let want = expected(&board, turn);
            assert_eq!(slot.is_some(), want, "{key} {index}");
            seen += usize::from(want);
        }
        assert_eq!(held, slice.len(), "{key}");
        seen
    }

    #[test]
    fn a_slice_holds_exactly_the_positions_after_a_promotion() {
        // KQvP: White's queen in the second group; KPvR: Black's rook
        // last; QvP: the queen alone as the first group; KNNvP and KPvNN:
        // a White group of two (its last square) and a Black one (its
        // first); KPvQ: a Black man after White's.
        for (key, piece) in [
            ("KQvP", Role::Queen.of(Color::White)),
            ("KPvR", Role::Rook.of(Color::Black)),
            ("QvP", Role::Queen.of(Color::White)),
            ("KNNvP", Role::Knight.of(Color::White)),
            ("KPvNN", Role::Knight.of(Color::Black)),
            ("KPvQ", Role::Queen.of(Color::Black)),
        ] {
            let layout = layout(key);
            let slice = Slice::of_promotion(&layout, piece).unwrap();
            assert_eq!(slice.len() * 16, layout.size(), "{key}");
            let last = if piece.color == Color::White { 7 } else { 0 };
            // A valid position is held exactly when the man stands on its
            // last rank and the other side is to move.
            let promoted_seen = assert_holds_exactly(key, &layout, &slice, |board, turn| {
                turn != piece.color && board.by_piece(piece).intersects(Bitboard::rank(last))
            });
            assert!(promoted_seen > 0, "{key}");
        }
    }

    #[test]
    fn the_other_side_holds_the_same_men_with_the_promoting_side_to_move() {
        for (key, piece) in [
            ("KQvP", Role::Queen.of(Color::White)),
            ("KPvNN", Role::Knight.of(Color::Black)),
            ("KQvK", Role::Queen.of(Color::White)),
        ] {
            let layout = layout(key);
            let slice = Slice::of_promotion(&layout, piece).unwrap();
            let other = slice.other_side();
            assert_eq!(other.len(), slice.len(), "{key}");
            assert_eq!(other.other_side(), slice, "{key}");
            let last = if piece.color == Color::White { 7 } else { 0 };
            assert_holds_exactly(key, &layout, &other, |board, turn| {
                turn == piece.color
                    && (!layout.has_pawns()
                        || board.by_piece(piece).intersects(Bitboard::rank(last)))
            });
        }
    }

    #[test]
    fn only_positions_a_legal_promotion_leads_to_follow_one() {
        let queen = Role::Queen.of(Color::White);
        let slice = Slice::of_promotion(&layout("KQvP"), queen).unwrap();
        let board = |fen: &str| crate::notation::fen::parse(fen).unwrap().board;
        // Qa8 from a7: the pawn's square is empty and nothing could be
        // captured before.
        assert!(slice.follows_a_promotion(&board("Q7/8/8/8/8/8/7p/K7 b - - 0 1")));
        // The king on a1 had to take the pawn on a2 instead.
        assert!(!slice.follows_a_promotion(&board("Q7/8/8/8/8/8/p7/K7 b - - 0 1")));
        // A Black pawn stands where White's would have been.
        assert!(!slice.follows_a_promotion(&board("Q7/p7/8/8/8/8/8/K7 b - - 0 1")));
        // The pawn on a7 would have had to take the knight on b8.
        let with_knight = Slice::of_promotion(&layout("KQvNP"), queen).unwrap();
        assert!(!with_knight.follows_a_promotion(&board("Qn6/8/8/8/8/8/7p/K7 b - - 0 1")));
        assert!(with_knight.follows_a_promotion(&board("Q7/8/8/8/8/8/7p/K6n b - - 0 1")));
        // A half (no pawns) holds no man to tell by.
        let half = Slice::of_promotion(&layout("KQvK"), queen).unwrap();
        assert!(half.follows_a_promotion(&board("8/8/8/8/8/8/8/KQ5k b - - 0 1")));
    }

    #[test]
    fn without_pawns_the_slice_is_the_other_sides_half() {
        // The symmetries take the last rank to any edge: every position
        // of the other side to move is held, none of the promoting side's.
        for (key, piece) in [
            ("KQvK", Role::Queen.of(Color::White)),
            ("KQvKR", Role::Rook.of(Color::Black)),
        ] {
            let layout = layout(key);
            let slice = Slice::of_promotion(&layout, piece).unwrap();
            assert_eq!(slice.len() * 2, layout.size(), "{key}");
            assert_holds_exactly(key, &layout, &slice, |_, turn| turn != piece.color);
        }
    }

    #[test]
    fn no_slice_with_the_colour_flip_or_a_first_group_of_several() {
        let queen = Role::Queen.of(Color::White);
        assert_eq!(Slice::of_promotion(&layout("KQvKQ"), queen), None);
        let king = Role::King.of(Color::White);
        assert_eq!(Slice::of_promotion(&layout("KKvP"), king), None);
    }
}
