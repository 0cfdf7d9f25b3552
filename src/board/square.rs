//! Squares, files and ranks.

use super::Color;
use std::fmt;

/// A square of the 8x8 board, `a1` = 0 … `h8` = 63 (little-endian rank-file).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square { $(
            #[allow(missing_docs)]
            pub const $name: Square = Square($idx);
        )* }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = 1st), both below 8.
    #[inline]
    pub const fn from_coords(file: u32, rank: u32) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// Internal constructor for indices known to be below 64.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// 0 (`a1`) … 63 (`h8`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (file a) … 7 (file h).
    #[inline]
    pub const fn file(self) -> u32 {
        (self.0 & 7) as u32
    }

    /// 0 (1st rank) … 7 (8th rank).
    #[inline]
    pub const fn rank(self) -> u32 {
        (self.0 >> 3) as u32
    }

    /// The rank counted from `color`'s side: 0 is that side's first rank.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u32 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The square `delta` indices away, if it stays on the board
    /// (no wrap-around check: callers use it along files only).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The same file, rank mirrored (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// True for dark squares (a1 is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// Parses `e4`-style coordinates.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_coords(u32::from(file), u32::from(rank))
    }

    /// The file letter (`a`…`h`).
    pub const fn file_char(self) -> char {
        (b'a' + self.file() as u8) as char
    }

    /// The rank digit (`1`…`8`).
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank() as u8) as char
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
