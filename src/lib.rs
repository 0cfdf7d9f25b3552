//! # ransom
//!
//! A solver and analysis library for chess variants, built on one shared
//! bitboard move generator: standard chess, Losing chess (antichess and the
//! FICS `suicide` rules), crazyhouse, Hostage chess, Contact chess and
//! Hit-and-Run chess.
//!
//! ```
//! use ransom::{Position, variants::Antichess, notation::fen, perft::perft};
//!
//! let start = Antichess::start();
//! assert_eq!(perft(&start, 3), 8067);
//!
//! let pos: Antichess = fen::parse_position("8/8/8/8/8/8/1p6/8 b - - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 5); // b1=Q, b1=R, b1=B, b1=N, b1=K
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod board;
pub(crate) mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod puzzles;
pub mod search;
pub mod service;
pub mod solved;
pub mod store;
pub mod tablebase;
pub mod variants;

pub use board::{Bitboard, Board, ByColor, ByRole, Color, Piece, Role, Square};
pub use moves::{Move, MoveList};
pub use position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
pub use variants::{AnyPosition, Variant};
