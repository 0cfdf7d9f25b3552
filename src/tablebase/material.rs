//! Material keys (`KRvK`): which men each side has.

use super::TbError;
use crate::board::{Board, Color, Piece, Role};
use std::fmt;

/// Roles in the order material keys are written: K Q R B N P.
pub const KEY_ORDER: [Role; 6] = Role::KING_FIRST;

/// The men on the board, per colour and role (`counts[color][role index]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// `counts[color.index()][role.index()]`.
    pub counts: [[u8; 6]; 2],
}

impl Material {
    /// The material of a board.
    pub fn from_board(board: &Board) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                counts[color.index()][role.index()] = board.by_piece(role.of(color)).count() as u8;
            }
        }
        Material { counts }
    }

    /// A slot in `0..slots` (a power of two) for this material: a hash of
    /// its counts, for small caches keyed by material.
    pub fn slot(&self, slots: usize) -> usize {
        debug_assert!(slots.is_power_of_two());
        let packed = self
            .counts
            .as_flattened()
            .iter()
            .fold(0u64, |h, &c| (h << 4) | u64::from(c & 15));
        // Fibonacci hashing: the top bits of the product.
        let bits = slots.trailing_zeros();
        match bits {
            0 => 0,
            _ => (packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize,
        }
    }

    /// Parses `KRvK` (White's men, `v`, Black's men; any role order).
    pub fn parse(text: &str) -> Result<Material, TbError> {
        let bad = |why: &str| TbError::BadMaterial(format!("'{text}': {why}"));
        let upper = text.trim().to_ascii_uppercase();
        let (white, black) = upper
            .split_once('V')
            .ok_or_else(|| bad("expected White's men, 'v', Black's men, e.g. KRvK"))?;
        let mut counts = [[0u8; 6]; 2];
        for (side, men) in [(0, white), (1, black)] {
            for c in men.chars() {
                let role = Role::from_char(c.to_ascii_lowercase())
                    .ok_or_else(|| bad(&format!("'{c}' is not one of K Q R B N P")))?;
                counts[side][role.index()] += 1;
            }
        }
        let m = Material { counts };
        if m.side_count(Color::White) == 0 || m.side_count(Color::Black) == 0 {
            return Err(bad(
                "each side needs at least one man (a side without men has already won)",
            ));
        }
        if m.men() > super::MAX_MEN {
            return Err(bad(&format!(
                "at most {} men are supported",
                super::MAX_MEN
            )));
        }
        Ok(m)
    }

    /// Number of men of one side.
    pub fn side_count(&self, color: Color) -> usize {
        self.counts[color.index()].iter().map(|&c| c as usize).sum()
    }

    /// Total number of men.
    pub fn men(&self) -> usize {
        self.side_count(Color::White) + self.side_count(Color::Black)
    }

    /// Whether any pawn is on the board.
    pub fn has_pawns(&self) -> bool {
        self.counts[0][Role::Pawn.index()] + self.counts[1][Role::Pawn.index()] > 0
    }

    /// Number of pawns.
    pub fn pawns(&self) -> usize {
        (self.counts[0][Role::Pawn.index()] + self.counts[1][Role::Pawn.index()]) as usize
    }

    /// The same material with the colours exchanged.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    fn side_key(&self, color: Color) -> (usize, [u8; 6]) {
        let c = &self.counts[color.index()];
        let mut k = [0u8; 6];
        for (i, role) in KEY_ORDER.iter().enumerate() {
            k[i] = c[role.index()];
        }
        (self.side_count(color), k)
    }

    /// Whether White is the "stronger" side (more men, then more of the
    /// roles earlier in K Q R B N P order): the orientation tables are stored in.
    pub fn is_canonical(&self) -> bool {
        self.side_key(Color::White) >= self.side_key(Color::Black)
    }

    /// Whether both sides have the same men.
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The stored orientation of this material.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.flipped()
        }
    }

    /// The men, White's first, each side in K Q R B N P order.
    pub fn pieces(&self) -> smallvec::SmallVec<[Piece; super::MAX_MEN]> {
        let mut out = smallvec::SmallVec::new();
        for color in Color::ALL {
            for role in KEY_ORDER {
                for _ in 0..self.counts[color.index()][role.index()] {
                    out.push(role.of(color));
                }
            }
        }
        out
    }

    /// Every canonical material key with exactly `men` men, each side at
    /// least one, in build order (fewer pawns first).
    pub fn all_with_men(men: usize) -> Vec<Material> {
        let mut out = Vec::new();
        // Multisets of roles for White with w men and Black with men - w.
        fn multisets(n: usize) -> Vec<[u8; 6]> {
            let mut out = Vec::new();
            fn rec(n: usize, from: usize, cur: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
                if n == 0 {
                    out.push(*cur);
                    return;
                }
                for r in from..6 {
                    cur[r] += 1;
                    rec(n - 1, r, cur, out);
                    cur[r] -= 1;
                }
            }
            rec(n, 0, &mut [0; 6], &mut out);
            out
        }
        for w in 1..men {
            for a in multisets(w) {
                for b in multisets(men - w) {
                    let m = Material { counts: [a, b] };
                    if m.is_canonical() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pawns(), m.to_string()));
        out
    }

    /// Every canonical material of at most `men` men, in dependency order.
    pub fn all_up_to(men: usize) -> Vec<Material> {
        (2..=men).flat_map(Material::all_with_men).collect()
    }

    /// The canonical materials one capture and/or promotion away (both
    /// sides keep at least one man): every table a build of this one
    /// needs first.
    pub fn successors(&self) -> Vec<Material> {
        self.next_materials(false)
    }

    /// The canonical materials one capture away (the capturing pawn
    /// promoting or not): where the moves of a position with a capture
    /// lead.
    pub fn capture_successors(&self) -> Vec<Material> {
        self.next_materials(true)
    }

    /// [`Material::successors`], or only the captures.
    fn next_materials(&self, captures_only: bool) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        let mut add = |m: Material| {
            if m.side_count(Color::White) > 0 && m.side_count(Color::Black) > 0 {
                let c = m.canonical();
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        };
        for side in 0..2 {
            let mover = 1 - side;
            let promotes = |base: Material, add: &mut dyn FnMut(Material)| {
                if base.counts[mover][Role::Pawn.index()] == 0 {
                    return;
                }
                for promo in 1..6 {
                    let mut m = base;
                    m.counts[mover][Role::Pawn.index()] -= 1;
                    m.counts[mover][promo] += 1;
                    add(m);
                }
            };
            if !captures_only {
                // A promotion without a capture.
                promotes(*self, &mut add);
            }
            for r in 0..6 {
                if self.counts[side][r] == 0 {
                    continue;
                }
                // A capture of a man of `side`, the capturing pawn
                // promoting or not.
                let mut captured = *self;
                captured.counts[side][r] -= 1;
                add(captured);
                promotes(captured, &mut add);
            }
        }
        out
    }

    /// Every table a value of this one is looked up in: its successors,
    /// and the tables their positions with a capture lead to, and so on
    /// (positions with a capture are not stored, so a lookup goes down
    /// through captures until a quiet position). Canonical, without this
    /// table itself. A promotion's own promotions are not among them: a
    /// position reached by a promotion is looked up, not played on (the
    /// tables a table's unstored side is derived through are read from
    /// their files when they are not held, see [`super::MemTables`]).
    pub fn reads(&self) -> Vec<Material> {
        self.closure(Material::capture_successors)
    }

    /// Every table a build of this one needs built first: its successors,
    /// theirs, and so on (canonical, without this table itself). Beyond
    /// [`Material::reads`], a build may open these files when it derives
    /// the distances of a table it reads.
    pub fn needs(&self) -> Vec<Material> {
        self.closure(Material::successors)
    }

    /// This table's successors, and from each table reached the tables
    /// `next` gives, and so on (canonical, without this table itself).
    fn closure(&self, next: fn(&Material) -> Vec<Material>) -> Vec<Material> {
        let own = self.canonical();
        let mut out: Vec<Material> = Vec::new();
        let mut stack = own.successors();
        while let Some(m) = stack.pop() {
            if m != own && !out.contains(&m) {
                stack.extend(next(&m));
                out.push(m);
            }
        }
        out
    }

    /// The successors of this table reached by a promotion without a
    /// capture (as many men as this one), each with the colour and role
    /// of the promoted man as the successor's canonical table stores it:
    /// a lookup there is always of a position with that man on its
    /// colour's last rank and the other side to move.
    pub fn promotion_successors(&self) -> Vec<(Material, crate::board::Piece)> {
        let mut out: Vec<(Material, crate::board::Piece)> = Vec::new();
        for (c, color) in Color::ALL.iter().enumerate() {
            if self.counts[c][Role::Pawn.index()] == 0 {
                continue;
            }
            for role in KEY_ORDER {
                if role == Role::Pawn {
                    continue;
                }
                let mut m = *self;
                m.counts[c][Role::Pawn.index()] -= 1;
                m.counts[c][role.index()] += 1;
                let canonical = m.canonical();
                let color = if canonical == m { *color } else { !*color };
                let piece = role.of(color);
                if !out.contains(&(canonical, piece)) {
                    out.push((canonical, piece));
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, color) in Color::ALL.iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            for role in KEY_ORDER {
                for _ in 0..self.counts[color.index()][role.index()] {
                    write!(f, "{}", role.upper_char())?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
impl Material {
    /// Boards of these men on random squares (distinct, pawns off the back
    /// ranks; legality and captures not considered), from a xorshift stream
    /// started at `seed`: inputs for tests that compare a fast path with
    /// its definition.
    pub(crate) fn random_boards(&self, mut seed: u64) -> impl Iterator<Item = Board> {
        let pieces = self.pieces();
        std::iter::repeat_with(move || {
            let mut board = Board::empty();
            for &piece in &pieces {
                loop {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let sq = crate::board::Square::new((seed % 64) as u32).expect("below 64");
                    let back_rank = matches!(sq.index() / 8, 0 | 7);
                    if board.piece_at(sq).is_none() && !(piece.role == Role::Pawn && back_rank) {
                        board.set(sq, piece);
                        break;
                    }
                }
            }
            board
        })
    }
}
