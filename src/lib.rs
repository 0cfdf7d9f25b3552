//! # ransom
//!
//! A solver and analysis library for chess variants, built on one shared
//! bitboard move generator: standard chess, Losing chess (antichess and the
//! FICS `suicide` rules), crazyhouse, Hostage chess, Contact chess and
//! Hit-and-Run chess.
//!
//! ## A tour
//!
//! Positions are typed by their variant ([`variants`]): every one
//! implements [`Position`], and [`AnyPosition`] holds one chosen at run
//! time. FEN, SAN, UCI and PGN are in [`notation`]; [`perft`] counts the
//! move tree.
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
//!
//! [`search::prove`] proves who wins from a position with a proof-number
//! search; a win comes with a proof that the independent verifier
//! ([`search::verify`]) has re-checked before it is reported.
//!
//! ```
//! use ransom::{Position, variants::Antichess, notation::fen};
//! use ransom::search::{Budget, Verdict, prove};
//!
//! // White to move gives its rook away and wins (RULES A1, A5).
//! let pos: Antichess = fen::parse_position("8/8/8/8/8/8/k7/1R6 w - - 0 1").unwrap();
//! let report = prove(&pos, &Budget::default(), &mut |_| {});
//! assert_eq!(report.verdict, Verdict::Win);
//! assert!(report.verified.is_some());
//! ```
//!
//! [`tablebase`] builds Losing-chess endgame tables by retrograde analysis
//! and probes them (win, draw or loss with the distance to win in plies);
//! [`solved`] is the persistent store of settled positions that the
//! two-level search ([`search::scale`]) shares between runs; [`store`] is
//! the table file format both use. [`search::guide`] steers a proof search
//! (a book of suggested moves, evaluation-based numbers) without changing
//! what it concludes, and [`search::scale::frontier`] lists the open
//! positions that hold a checkpointed search back. [`analysis`] answers
//! what is known about a position without searching: the rules, the
//! tables, proof files and stores read beside a running writer
//! ([`solved::StoreReader`], [`analysis::StoreShelf`]), and the explorer
//! ([`analysis::explore`]) that lists every move with its result, proof
//! size and a running search's numbers.
//!
//! ```
//! use ransom::{tablebase::{self, Material, Tablebase, Wdl}, variants::International};
//! use ransom::{notation::fen, variants::Antichess};
//!
//! let dir = std::env::temp_dir().join(format!("ransom-doc-tb-{}", std::process::id()));
//! tablebase::build::<International>(&dir, &[Material::parse("KvR").unwrap()], |_, _, _| {})
//!     .unwrap();
//! let tables = Tablebase::<International>::open(&dir);
//! let pos: Antichess = fen::parse_position("8/8/8/8/8/8/k7/1R6 w - - 0 1").unwrap();
//! let (wdl, plies) = tables.probe(&pos).unwrap();
//! assert_eq!(wdl, Wdl::Win);
//! assert!(plies > 0);
//! # let _ = std::fs::remove_dir_all(&dir);
//! ```
//!
//! The mate solver is [`search::mate`], the alpha-beta engine
//! [`search::engine`], puzzle sets [`puzzles`]. With the default features
//! the crate also holds the HTTP service (`service`, feature `service`) and
//! builds the `ransom` command line (feature `cli`); a program that only
//! wants the library depends on it with `default-features = false` and
//! builds without tokio, axum, hyper or clap.

#![warn(missing_docs)]

pub mod analysis;
pub mod board;
pub(crate) mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod proving;
pub mod puzzles;
pub mod search;
#[cfg(feature = "service")]
pub mod service;
pub mod solved;
pub mod store;
pub mod tablebase;
pub mod text;
pub mod uci_session;
pub mod variant;
pub mod variants;

pub use board::{Bitboard, Board, ByColor, ByRole, Color, Piece, Role, Square};
pub use moves::{Move, MoveList};
pub use position::{
    Outcome, OutcomeKind, Position, PositionError, PositionProblem, ProblemKind, Setup, State,
};
pub use variants::{AnyPosition, Variant};
