//! Piece placement: which man stands on which square.

use super::{Bitboard, ByColor, ByRole, Color, Piece, Role, Square, attacks};

/// The men on the board, as one bitboard per role and per colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: ByRole<Bitboard>,
    by_color: ByColor<Bitboard>,
    occupied: Bitboard,
}

impl Board {
    /// An empty board.
    pub fn empty() -> Board {
        Board::default()
    }

    /// The orthodox starting placement.
    pub fn standard() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let file = file as u32;
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                let back_sq = Square::from_coords(file, back_rank).expect("on board");
                let pawn_sq = Square::from_coords(file, pawn_rank).expect("on board");
                board.set(back_sq, role.of(color));
                board.set(pawn_sq, Role::Pawn.of(color));
            }
        }
        board
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `color`'s men.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// The squares of men of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role] & self.by_color[piece.color]
    }

    /// Rooks and queens of both colours.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook] | self.by_role[Role::Queen]
    }

    /// Bishops and queens of both colours.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop] | self.by_role[Role::Queen]
    }

    /// The king square of `color`, if it has exactly one king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role[Role::King] & self.by_color[color]).single_square()
    }

    /// The colour of the man on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color.white.contains(sq) {
            Some(Color::White)
        } else if self.by_color.black.contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the man on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&role| self.by_role[role].contains(sq))
    }

    /// The man on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = self.color_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Piece) {
        self.discard(sq);
        self.by_role[piece.role].add(sq);
        self.by_color[piece.color].add(sq);
        self.occupied.add(sq);
    }

    /// Empties `sq`, returning the man that stood there.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.discard(sq);
        Some(piece)
    }

    /// Empties `sq` if `piece` stands there (returning `true`), without
    /// looking for which man it is; otherwise changes nothing.
    #[inline]
    pub fn remove_if(&mut self, sq: Square, piece: Piece) -> bool {
        if !self.by_piece(piece).contains(sq) {
            return false;
        }
        self.by_role[piece.role].discard(sq);
        self.by_color[piece.color].discard(sq);
        self.occupied.discard(sq);
        true
    }

    #[inline]
    fn discard(&mut self, sq: Square) {
        if self.occupied.contains(sq) {
            for bb in &mut self.by_role.0 {
                bb.discard(sq);
            }
            self.by_color.white.discard(sq);
            self.by_color.black.discard(sq);
            self.occupied.discard(sq);
        }
    }

    /// The men of either colour that attack `sq`, given the occupancy `occupied`
    /// (orthodox attack rules).
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.by_role[Role::Knight])
            | (attacks::king_attacks(sq) & self.by_role[Role::King])
            | (attacks::pawn_attacks(Color::White, sq)
                & self.by_role[Role::Pawn]
                & self.by_color[Color::Black])
            | (attacks::pawn_attacks(Color::Black, sq)
                & self.by_role[Role::Pawn]
                & self.by_color[Color::White])
    }

    /// The men of `attacker` that attack `sq`, given the occupancy `occupied`.
    #[inline]
    pub fn attacks_by(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.attackers_to(sq, occupied) & self.by_color[attacker]
    }

    /// Whether any man of `attacker` attacks `sq`, given `occupied`. Cheap
    /// tests first; sliders are only traced when one shares a line with `sq`.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color[attacker];
        if (attacks::knight_attacks(sq) & self.by_role[Role::Knight] & theirs).any()
            || (attacks::pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn] & theirs).any()
            || (attacks::king_attacks(sq) & self.by_role[Role::King] & theirs).any()
        {
            return true;
        }
        let rook_like = self.rooks_and_queens() & theirs;
        let bishop_like = self.bishops_and_queens() & theirs;
        ((attacks::rook_attacks(sq, Bitboard::EMPTY) & rook_like).any()
            && (attacks::rook_attacks(sq, occupied) & rook_like).any())
            || ((attacks::bishop_attacks(sq, Bitboard::EMPTY) & bishop_like).any()
                && (attacks::bishop_attacks(sq, occupied) & bishop_like).any())
    }

    /// Iterates over `(square, piece)` for every man, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .filter_map(move |sq| self.piece_at(sq).map(|piece| (sq, piece)))
    }

    /// Number of men of `piece` on the board.
    pub fn count(&self, piece: Piece) -> u32 {
        self.by_piece(piece).count()
    }
}
