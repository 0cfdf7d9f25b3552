//! Proofs: the winning move for every position of the proof where the
//! winner moves, kept in memory or in a proof table on disk.

use super::verify::{self, VerifiedProof, VerifyError};
use crate::board::Color;
use crate::dispatch;
use crate::moves::{self, Move};
use crate::notation::fen;
use crate::position::Position;
use crate::store::{StoreError, TableKind, TableReader, TableWriter};
use crate::variants::{AnyPosition, Variant};
use hashbrown::HashMap;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A proof held in memory.
#[derive(Clone, Debug)]
pub struct Proof<P: Position> {
    /// The position proved.
    pub root: P,
    /// The side that wins.
    pub winner: Color,
    /// The winner's move in each position of the proof where it moves, by zobrist hash.
    pub moves: HashMap<u64, Move>,
}

impl<P: Position> Proof<P> {
    /// Runs the independent verifier over this proof.
    pub fn verify(&self) -> Result<VerifiedProof, VerifyError> {
        let lookup = |hash: u64| Ok(self.moves.get(&hash).map(|&m| moves::encode(m)));
        verify::verify(&self.root, self.winner, &lookup)
    }

    /// Writes the proof as a proof table (atomically). `meta` describes how
    /// the root was reached.
    pub fn write(&self, path: &Path, meta: &ProofMeta) -> Result<(), StoreError> {
        let description = serde_json::to_string(meta).expect("metadata serializes");
        let mut writer = TableWriter::new(TableKind::Proof, P::VARIANT.name(), &description, 4);
        for (&hash, &mv) in &self.moves {
            writer.push(hash, &moves::encode(mv).to_le_bytes());
        }
        writer.write(path)
    }
}

/// What a proof file says about itself (stored as JSON in the table header).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofMeta {
    /// FEN of the proved position.
    pub root_fen: String,
    /// The winner: "white" or "black".
    pub winner: String,
    /// FEN the line starts from.
    pub start_fen: String,
    /// The moves (UCI) from `start_fen` to the root.
    pub line: Vec<String>,
}

/// Moves of the line that a proof file's default name spells out; a
/// longer line is named by its first moves and a hash of the position.
const LINE_IN_NAME: usize = 16;

impl ProofMeta {
    /// The default file name of this proof, the same for `ransom prove`
    /// and the service's prove endpoint: `<variant>-<line>.proof` for a
    /// line of UCI moves from the variant's start position
    /// (`antichess-e2e4.proof`); a line of more than 16 moves keeps its
    /// first 16 and adds a hash of the proved position; a position given by
    /// FEN (or the start itself) is named by that hash alone. The hash
    /// (FNV-1a of the root FEN without its move clocks) does not change
    /// with the clocks.
    pub fn file_name(&self, variant: Variant, start_is_initial: bool) -> String {
        let without_clocks: Vec<&str> = self.root_fen.split_whitespace().take(4).collect();
        let hash = format!(
            "{:016x}",
            crate::store::fnv1a64(without_clocks.join(" ").as_bytes())
        );
        let name = if !start_is_initial || self.line.is_empty() {
            hash
        } else if self.line.len() > LINE_IN_NAME {
            // A long line would make a name the file system refuses.
            format!("{}-{hash}", self.line[..LINE_IN_NAME].join("-"))
        } else {
            self.line.join("-")
        };
        format!("{}-{name}.proof", variant.name())
    }
}

/// A proof file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProofFileError {
    /// The table is unreadable.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The table is readable but is not a valid proof.
    #[error("{path}: not a valid proof file: {problem}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// The proof is not sound.
    #[error("{path}: {source}")]
    Unsound {
        /// The file.
        path: String,
        /// The first failing position.
        source: VerifyError,
    },
}

/// A proof file, verified.
#[derive(Clone, Debug)]
pub struct CheckedProofFile {
    /// The variant.
    pub variant: Variant,
    /// Its metadata.
    pub meta: ProofMeta,
    /// What the verifier measured.
    pub verified: VerifiedProof,
    /// Moves stored in the file.
    pub stored_moves: u64,
    /// The entries the verifier checked: hash and move code of every
    /// position of the proof where the winner moves.
    pub checked_moves: Vec<(u64, u32)>,
}

/// Opens a proof file and verifies it from its root.
pub fn verify_file(path: &Path) -> Result<CheckedProofFile, ProofFileError> {
    let name = path.display().to_string();
    let invalid = |problem: String| ProofFileError::Invalid {
        path: name.clone(),
        problem,
    };
    // A file that is no table at all (a text, a PGN) is named as such,
    // not as a damaged table.
    let mut start = [0u8; 8];
    let read = std::fs::File::open(path).and_then(|mut f| {
        use std::io::Read;
        f.read(&mut start)
    });
    if read.is_ok_and(|n| start[..n] != crate::store::MAGIC[..n]) {
        return Err(invalid(
            "not a proof file (it does not start as a ransom table does)".into(),
        ));
    }
    let reader = TableReader::open(path)?;
    if reader.kind() != TableKind::Proof {
        return Err(invalid("it is a tablebase, not a proof".into()));
    }
    if reader.value_size() != 4 {
        return Err(invalid(format!(
            "move records of {} bytes (expected 4)",
            reader.value_size()
        )));
    }
    let variant: Variant = reader
        .variant()
        .parse()
        .map_err(|e: crate::variants::UnknownVariant| invalid(e.to_string()))?;
    let meta: ProofMeta = serde_json::from_str(reader.description())
        .map_err(|e| invalid(format!("bad metadata: {e}")))?;
    let winner = Color::from_name(&meta.winner)
        .ok_or_else(|| invalid(format!("bad winner '{}'", meta.winner)))?;
    let setup = fen::parse(&meta.root_fen).map_err(|e| invalid(format!("root: {e}")))?;
    let root =
        AnyPosition::from_setup(variant, &setup).map_err(|e| invalid(format!("root: {e}")))?;
    let lookup = |hash: u64| -> Result<Option<u32>, String> {
        let value = reader.get(hash).map_err(|e| e.to_string())?;
        Ok(value.map(|v| u32::from_le_bytes(v[..4].try_into().expect("4-byte value"))))
    };
    let (verified, checked_moves) =
        dispatch!(&root, p => verify::verify_collecting(p, winner, &lookup)).map_err(|source| {
            ProofFileError::Unsound {
                path: name.clone(),
                source,
            }
        })?;
    Ok(CheckedProofFile {
        variant,
        meta,
        verified,
        stored_moves: reader.len(),
        checked_moves,
    })
}

/// What `verify` reports of a proof file that verified.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ProofFileReport {
    /// Always true.
    pub ok: bool,
    /// The variant's name.
    pub variant: &'static str,
    /// The proved position.
    pub root_fen: String,
    /// The winner.
    pub winner: String,
    /// The moves from the start to the root (UCI).
    pub line: Vec<String>,
    /// Positions of the proof.
    pub positions: u64,
    /// Positions where the winner moves.
    pub winner_moves: u64,
    /// The longest line, in plies.
    pub depth: u32,
    /// Moves stored in the file.
    pub stored_moves: u64,
    /// How the root was reached.
    #[serde(skip)]
    pub reached: String,
}

impl From<&CheckedProofFile> for ProofFileReport {
    fn from(checked: &CheckedProofFile) -> ProofFileReport {
        let meta = &checked.meta;
        ProofFileReport {
            ok: true,
            variant: checked.variant.name(),
            root_fen: meta.root_fen.clone(),
            winner: meta.winner.clone(),
            line: meta.line.clone(),
            positions: checked.verified.positions,
            winner_moves: checked.verified.winner_moves,
            depth: checked.verified.depth,
            stored_moves: checked.stored_moves,
            reached: crate::text::reached_by(checked.variant, &meta.start_fen, &meta.line),
        }
    }
}

impl std::fmt::Display for ProofFileReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::text::counted;
        writeln!(
            f,
            "OK: {} wins in {} ({}): {}, {} used of {} stored, longest line {}",
            self.winner,
            self.root_fen,
            self.reached,
            counted(self.positions, "position", "positions"),
            counted(self.winner_moves, "winner move", "winner moves"),
            self.stored_moves,
            counted(self.depth, "ply", "plies")
        )
    }
}
