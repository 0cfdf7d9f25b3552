//! A proof or a mate solution written to a file as PGN with variations,
//! with a limit on the size of a file that writes every transposition in
//! place.

use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::pgn::{self, Transpositions};
use crate::store::StoreError;
use std::path::{Path, PathBuf};

/// More moves than this in a file written in full come with a warning.
const WARN_MOVES: u64 = 100_000;
/// More moves than this in a file written in full are refused (the file
/// would take gigabytes); the file with each position once still holds
/// the proof.
const MAX_FULL_MOVES: u64 = 50_000_000;

/// How a PGN file is written.
#[derive(Clone, Copy)]
pub struct PgnWriting<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// Every transposed subtree in place.
    pub full: bool,
    /// How the user asks for each position once instead (named in the
    /// messages about a file too large, e.g. "leave out --pgn-full").
    pub once_hint: &'a str,
    /// A comment after a move, by the hash of the position it reaches.
    pub annotate: &'a dyn Fn(u64) -> Option<String>,
}

impl<'a> PgnWriting<'a> {
    /// No comments; `full` as `--pgn-full` of `prove` and `mate` asks.
    pub fn plain(event: &'a str, full: bool) -> PgnWriting<'a> {
        PgnWriting {
            event,
            full,
            once_hint: "leave out --pgn-full",
            annotate: &|_| None,
        }
    }
}

/// Why a PGN file was not written.
#[derive(Debug, thiserror::Error)]
pub enum PgnFileError {
    /// Written in full, the file would be too large.
    #[error(
        "{}: not written: with every transposition written in place the PGN would hold {moves} moves (more than {MAX_FULL_MOVES}); {once_hint} to write each position once",
        path.display()
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Moves it would hold.
        moves: u64,
        /// How to write each position once instead.
        once_hint: String,
    },
    /// The file cannot be written.
    #[error("cannot write {}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: StoreError,
    },
}

/// Writes the PGN of the proof that `winner` wins from `root` to `path`:
/// with every transposed subtree in place when `how.full`, else each
/// position once (later meetings marked `{transposes to an earlier
/// line}`); a comment after each move where `how.annotate` gives one.
/// Returns a warning for a very large file written in full.
pub fn write_pgn<P: Position>(
    path: &Path,
    root: &P,
    winner: Color,
    winning_move: &dyn Fn(u64) -> Option<Move>,
    how: &PgnWriting,
) -> Result<Option<String>, PgnFileError> {
    let mut warning = None;
    let transpositions = if how.full {
        let moves = pgn::full_pgn_moves(root, winner, winning_move);
        if moves > MAX_FULL_MOVES {
            return Err(PgnFileError::TooLarge {
                path: path.to_path_buf(),
                moves,
                once_hint: how.once_hint.to_string(),
            });
        }
        if moves > WARN_MOVES {
            warning = Some(format!(
                "{}: {moves} moves with every transposition written in place; {} to write each position once",
                path.display(),
                how.once_hint
            ));
        }
        Transpositions::InPlace
    } else {
        Transpositions::Once
    };
    let text = pgn::proof_pgn_annotated(
        root,
        winner,
        winning_move,
        how.event,
        transpositions,
        how.annotate,
    );
    crate::store::write_atomically(path, text.as_bytes()).map_err(|error| PgnFileError::Write {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(warning)
}
