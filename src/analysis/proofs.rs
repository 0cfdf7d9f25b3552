//! [`ProofIndex`]: the winner's moves of every stored proof, by position,
//! for answering lookups.
//!
//! Each proof file is checked by the independent verifier when it is
//! loaded; a file that fails is not used (its error is kept for the
//! operator), and of a sound file only the entries the verifier walked
//! through are indexed (a record no line from the root reaches is never
//! served). Lookups go by variant and zobrist hash, as the proof files
//! themselves do: a position whose hash is in a verified proof is won for
//! the side to move by the stored move.

use crate::moves::{self, Move};
use crate::position::Position;
use crate::search::proof::{self, ProofFileError, ProofMeta};
use crate::search::{Proof, VerifyError, verify};
use crate::variants::{AnyPosition, Variant};
use hashbrown::HashMap;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Why a proof was not added to the index.
#[derive(Debug, thiserror::Error)]
pub enum ProofIndexError {
    /// The file does not read or its proof fails the verifier.
    #[error(transparent)]
    File(#[from] ProofFileError),
    /// The proof's root position does not read back from its FEN.
    #[error("{path}: the root FEN '{fen}' does not read back")]
    RootFen {
        /// The proof file.
        path: String,
        /// The FEN it stores.
        fen: String,
    },
    /// A proof held in memory fails the verifier.
    #[error("{path}: {error}")]
    Verify {
        /// Where it was stored.
        path: String,
        /// The verifier's finding.
        error: VerifyError,
    },
}

/// One proof file in the index.
#[derive(Clone, Debug, Serialize)]
pub struct StoredProof {
    /// The file.
    pub path: PathBuf,
    /// The variant.
    pub variant: String,
    /// What the file says about itself (root, winner, the line to it).
    pub meta: ProofMeta,
    /// Positions the verifier checked.
    pub positions: u64,
    /// The longest line from the root to the end of the game, in plies.
    pub depth: u32,
    /// The zobrist hash of the proved position.
    pub root_hash: u64,
}

/// The winner's moves of a set of verified proofs.
#[derive(Debug, Default)]
pub struct ProofIndex {
    moves: HashMap<(Variant, u64), u32>,
    files: Vec<StoredProof>,
    errors: Vec<String>,
}

impl ProofIndex {
    /// Loads and verifies every `*.proof` file of `dir` (a missing folder
    /// gives an empty index). Files that fail are left out and listed in
    /// [`ProofIndex::errors`].
    pub fn load_dir(dir: &Path) -> ProofIndex {
        let mut index = ProofIndex::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return index;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "proof"))
            .collect();
        paths.sort();
        for path in paths {
            if let Err(e) = index.add_file(&path) {
                index.errors.push(e.to_string());
            }
        }
        index
    }

    /// Verifies the proof file at `path` and adds its moves.
    pub fn add_file(&mut self, path: &Path) -> Result<(), ProofIndexError> {
        let checked = proof::verify_file(path)?;
        for &(hash, code) in &checked.checked_moves {
            self.moves.insert((checked.variant, hash), code);
        }
        let root_hash = crate::notation::fen::parse(&checked.meta.root_fen)
            .ok()
            .and_then(|setup| AnyPosition::from_setup(checked.variant, &setup).ok())
            .map(|root| root.zobrist())
            .ok_or_else(|| ProofIndexError::RootFen {
                path: path.display().to_string(),
                fen: checked.meta.root_fen.clone(),
            })?;
        self.files.retain(|f| f.path != path);
        self.files.push(StoredProof {
            path: path.to_path_buf(),
            variant: checked.variant.name().to_string(),
            meta: checked.meta,
            positions: checked.verified.positions,
            depth: checked.verified.depth,
            root_hash,
        });
        Ok(())
    }

    /// Verifies a proof held in memory (stored at `path`) and adds the
    /// entries the verifier walked through.
    pub fn add_proof<P: Position>(
        &mut self,
        proof: &Proof<P>,
        path: &Path,
        meta: ProofMeta,
    ) -> Result<(), ProofIndexError> {
        let lookup = |hash: u64| Ok(proof.moves.get(&hash).map(|&m| moves::encode(m)));
        let (verified, checked) = verify::verify_collecting(&proof.root, proof.winner, &lookup)
            .map_err(|error| ProofIndexError::Verify {
                path: path.display().to_string(),
                error,
            })?;
        for (hash, code) in checked {
            self.moves.insert((P::VARIANT, hash), code);
        }
        self.files.retain(|f| f.path != path);
        self.files.push(StoredProof {
            path: path.to_path_buf(),
            variant: P::VARIANT.name().to_string(),
            meta,
            positions: verified.positions,
            depth: verified.depth,
            root_hash: proof.root.zobrist(),
        });
        Ok(())
    }

    /// The stored winning move of `pos`, if a proof wins it for the side to move.
    pub fn winning_move<P: Position>(&self, pos: &P) -> Option<Move> {
        let code = *self.moves.get(&(P::VARIANT, pos.zobrist()))?;
        moves::decode(&pos.legal_moves(), code)
    }

    /// The loaded proof whose root is `pos`, if any.
    pub fn rooted_at<P: Position>(&self, pos: &P) -> Option<&StoredProof> {
        let hash = pos.zobrist();
        self.files
            .iter()
            .find(|f| f.root_hash == hash && f.variant == P::VARIANT.name())
    }

    /// The proof files loaded.
    pub fn files(&self) -> &[StoredProof] {
        &self.files
    }

    /// Files that could not be used, with the reason.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Positions with a stored move.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no proof is loaded.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}
