//! `store export LINE --pgn FILE`: the settled subtree below a line, read
//! out of the stores, checked by the verifier and written as PGN with the
//! size of each refutation as a comment.

use super::pgn_file::{PgnFileError, PgnWriting, write_pgn};
use crate::analysis::{Knowledge, ProofFromStore, StoreProofError, proof_from_stores};
use crate::moves::Move;
use crate::position::Position;
use crate::search::mate::line_san;
use std::any::Any;
use std::path::Path;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The stores hold no proof there (or a larger one than allowed).
    #[error(transparent)]
    Proof(#[from] StoreProofError),
    /// The PGN file.
    #[error(transparent)]
    Pgn(#[from] PgnFileError),
}

/// What an export wrote.
pub struct Exported<P: Position> {
    /// The proof, as verified.
    pub found: ProofFromStore<P>,
    /// A warning about the file's size, if any.
    pub warning: Option<String>,
}

/// Writes the proof the stores of `knowledge` hold at `pos` (reached by
/// `line` from `start`; at most `max_positions` where the winner moves)
/// to `path`: every line to the game's end unless `once`.
pub fn export_store_pgn<P: Position + Any>(
    knowledge: &Knowledge,
    (start, line, pos): (&P, &[Move], &P),
    path: &Path,
    once: bool,
    max_positions: usize,
) -> Result<Exported<P>, ExportError> {
    let found = proof_from_stores(knowledge, pos, max_positions)?;
    let proof = &found.proof;
    let stores = knowledge.stores();
    // The size of each defence's refutation: after every move of the
    // loser, where the winner is to move.
    let annotate = |hash: u64| {
        let value = stores?.lookup_key(P::VARIANT, hash)?;
        value
            .is_win()
            .then(|| format!("store: {} nodes", value.size()))
    };
    let event = format!(
        "ransom store: {} wins{}",
        proof.winner.name(),
        if line.is_empty() {
            String::new()
        } else {
            format!(" after {}", line_san(start, line))
        }
    );
    let how = PgnWriting {
        event: &event,
        full: !once,
        once_hint: "use --once",
        annotate: &annotate,
    };
    let warning = write_pgn(
        path,
        &proof.root,
        proof.winner,
        &|h| proof.moves.get(&h).copied(),
        &how,
    )?;
    Ok(Exported { found, warning })
}
