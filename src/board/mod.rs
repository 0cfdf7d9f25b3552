//! The board core: squares, colours, roles, bitboards, attack tables,
//! placement and zobrist keys.

pub mod attacks;
mod bitboard;
#[allow(clippy::module_inception)]
mod board;
mod color;
mod role;
mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::{ByColor, Color};
pub use role::{ByRole, Piece, Role};
pub use square::Square;
