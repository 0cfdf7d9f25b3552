//! `--pgn FILE` and `--pgn-full` of `prove` and `mate`: a proof or a mate
//! solution written as PGN with variations.

use ransom::board::Color;
use ransom::moves::Move;
use ransom::position::Position;
use ransom::search::pgn::{self, Transpositions};
use std::path::Path;

/// More moves than this in a `--pgn-full` file get a warning on stderr.
const WARN_MOVES: u64 = 100_000;
/// More moves than this in a `--pgn-full` file are refused (the file would
/// take gigabytes); the PGN without `--pgn-full` still holds the proof.
const MAX_FULL_MOVES: u64 = 50_000_000;

/// How a PGN file is written.
#[derive(Clone, Copy)]
pub(super) struct PgnWriting<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// Every transposed subtree in place.
    pub full: bool,
    /// How the user asks for each position once instead (named in the
    /// messages about a file too large).
    pub once_hint: &'a str,
    /// No warning on stderr.
    pub quiet: bool,
    /// A comment after a move, by the hash of the position it reaches.
    pub annotate: &'a dyn Fn(u64) -> Option<String>,
}

impl<'a> PgnWriting<'a> {
    /// As `--pgn FILE [--pgn-full]` of `prove` and `mate` ask: no comments.
    pub fn from_flags(event: &'a str, full: bool, quiet: bool) -> PgnWriting<'a> {
        PgnWriting {
            event,
            full,
            once_hint: "leave out --pgn-full",
            quiet,
            annotate: &|_| None,
        }
    }
}

/// Writes the PGN of the proof that `winner` wins from `root` to `path`:
/// with every transposed subtree in place when `full`, else each position
/// once (later meetings marked `{transposes to an earlier line}`); a
/// comment after each move where `annotate` gives one.
pub(super) fn write<P: Position>(
    path: &Path,
    root: &P,
    winner: Color,
    winning_move: &dyn Fn(u64) -> Option<Move>,
    how: &PgnWriting,
) -> anyhow::Result<()> {
    let PgnWriting {
        event,
        full,
        once_hint,
        quiet,
        annotate,
    } = *how;
    let transpositions = if full {
        let moves = pgn::full_pgn_moves(root, winner, winning_move);
        if moves > MAX_FULL_MOVES {
            anyhow::bail!(
                "{}: not written: with every transposition written in place the PGN would hold {moves} moves (more than {MAX_FULL_MOVES}); {once_hint} to write each position once",
                path.display()
            );
        }
        if moves > WARN_MOVES && !quiet {
            errln!(
                "warning: {}: {moves} moves with every transposition written in place; {once_hint} to write each position once",
                path.display()
            );
        }
        Transpositions::InPlace
    } else {
        Transpositions::Once
    };
    let text =
        pgn::proof_pgn_annotated(root, winner, winning_move, event, transpositions, annotate);
    ransom::store::write_atomically(path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
