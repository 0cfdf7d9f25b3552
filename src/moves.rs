//! Moves that describe themselves, and the move list.

use crate::board::{Role, Square};
use smallvec::SmallVec;

/// A move (for Hit-and-Run: a sub-move). Small and `Copy`; at most 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A man moves from one square to another, capturing or not, promoting or not.
    Normal {
        /// The role of the moving man (before promotion).
        role: Role,
        /// Origin square.
        from: Square,
        /// Role of the captured man, if any.
        capture: Option<Role>,
        /// Destination square.
        to: Square,
        /// The role it promotes to, if it promotes.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant.
    EnPassant {
        /// Origin square of the capturing pawn.
        from: Square,
        /// Destination square (the skipped square).
        to: Square,
    },
    /// Castling, identified by the king's and the rook's squares.
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
    /// A man from the mover's holding (crazyhouse pocket) is put on an empty square.
    Drop {
        /// The dropped man's role.
        role: Role,
        /// The square it is dropped on.
        to: Square,
    },
    /// A Hostage chess exchange (RULES H2b): the mover gives the enemy man
    /// `pay` from his own prison to the opponent's airfield, takes his own
    /// man `rescue` out of the opponent's prison and drops it on the empty
    /// square `to`. Legal only if value(`pay`) >= value(`rescue`) (RULES H3).
    Exchange {
        /// The mover's own man taken out of the opponent's prison and dropped.
        rescue: Role,
        /// The enemy man given from the mover's prison to the opponent's airfield.
        pay: Role,
        /// The square the rescued man is dropped on.
        to: Square,
    },
}

impl Move {
    /// The role of the moving man (the king for castling).
    pub fn role(self) -> Role {
        match self {
            Move::Normal { role, .. } | Move::Drop { role, .. } => role,
            Move::Exchange { rescue, .. } => rescue,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// Origin square (none for drops).
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } | Move::Exchange { .. } => None,
        }
    }

    /// The square the man lands on (the king's destination for castling).
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. }
            | Move::EnPassant { to, .. }
            | Move::Drop { to, .. }
            | Move::Exchange { to, .. } => to,
            Move::Castle { king, rook } => castling_king_target(king, rook),
        }
    }

    /// The role of the captured man, if any.
    pub fn capture(self) -> Option<Role> {
        match self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// Whether the move captures.
    pub fn is_capture(self) -> bool {
        self.capture().is_some()
    }

    /// The promotion role, if any.
    pub fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether the move resets the half-move clock (a capture or a pawn move).
    pub fn is_zeroing(self) -> bool {
        self.is_capture() || self.role() == Role::Pawn
    }
}

/// Where the king lands when castling with the rook on `rook`: the g-file
/// towards the h-side, the c-file towards the a-side.
pub fn castling_king_target(king: Square, rook: Square) -> Square {
    let file = if rook.file() > king.file() { 6 } else { 2 };
    Square::from_coords(file, king.rank()).expect("file and rank on the board")
}

/// Where the rook lands when castling with the rook on `rook`.
pub fn castling_rook_target(king: Square, rook: Square) -> Square {
    let file = if rook.file() > king.file() { 5 } else { 3 };
    Square::from_coords(file, king.rank()).expect("file and rank on the board")
}

/// A list of moves; 256 are kept inline, more spill to the heap (drop variants).
pub type MoveList = SmallVec<[Move; 256]>;

/// Compact encoding of a move for tables: bits 0–5 the destination, bits
/// 6–11 the origin (the role for drops), bits 12–15 the kind: 0 plain,
/// 1–5 promotion to N, B, R, Q, K, 6 a drop, 8 a Hostage exchange (the
/// origin bits then hold the rescued role in bits 6–8 and the paid role in
/// bits 9–11). Castling is the king's square
/// and the rook's square. The code is only meaningful together with the
/// position it was played in: [`decode`] matches it against the legal moves.
pub fn encode(m: Move) -> u32 {
    let (from, to, kind) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => {
            let kind = promotion.map_or(0, |r| match r {
                Role::Knight => 1,
                Role::Bishop => 2,
                Role::Rook => 3,
                Role::Queen => 4,
                Role::King => 5,
                Role::Pawn => 7,
            });
            (from.index() as u32, to.index() as u32, kind)
        }
        Move::EnPassant { from, to } => (from.index() as u32, to.index() as u32, 0),
        Move::Castle { king, rook } => (king.index() as u32, rook.index() as u32, 0),
        Move::Drop { role, to } => (role.index() as u32, to.index() as u32, 6),
        Move::Exchange { rescue, pay, to } => (
            rescue.index() as u32 | (pay.index() as u32) << 3,
            to.index() as u32,
            8,
        ),
    };
    to | (from << 6) | (kind << 12)
}

/// The legal move among `legal` whose [`encode`] is `code`.
pub fn decode(legal: &[Move], code: u32) -> Option<Move> {
    legal.iter().copied().find(|&m| encode(m) == code)
}
