//! The frame of a search checkpoint file, the part the store reads
//! without the search: its name in a store's folder of checkpoints
//! ([`CHECKPOINTS_DIR`](super::CHECKPOINTS_DIR)), its header (variant,
//! root, attacker, totals) and its checksum. The tree inside is the
//! search's own (`search::scale::checkpoint` writes and replays it);
//! merging shards, staging a job's tree and `store stats` need only this.
//!
//! ```text
//! magic "RANSOMCK", version u16 (2; 1 is still read)
//! variant (u16 length + UTF-8), root FEN (u16 length + UTF-8), attacker u8 (0 white, 1 black)
//! nodes searched u64, leaf searches u64, seconds searched f64
//! node count u32, then the nodes and (version 2) the sums watch (the
//! search's format)
//! CRC-32C u32 of everything before
//! ```

use crate::board::Color;
use crate::store::cursor::Cursor;
use crate::store::{StoreError, io_error};
use std::path::Path;

const MAGIC: &[u8; 8] = b"RANSOMCK";
const VERSION: u16 = 2;
/// The oldest version still read (it has no sums watch).
const OLDEST_VERSION: u16 = 1;

/// The totals a checkpoint carries beside the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Nodes searched by every run so far.
    pub nodes: u64,
    /// Leaf searches run so far.
    pub leaf_searches: u64,
    /// Seconds searched so far.
    pub seconds: f64,
}

/// The file name of the checkpoint of `attacker`'s search of the
/// position with hash `key`, in a store's folder of checkpoints.
pub fn file_name(key: u64, attacker: Color) -> String {
    format!("{key:016x}-{}.ckpt", attacker.name())
}

/// The position's hash and the attacker a checkpoint's file name
/// ([`file_name`]) stands for; `None` for another name.
pub fn parse_file_name(name: &str) -> Option<(u64, Color)> {
    let (key, attacker) = name.strip_suffix(".ckpt")?.split_once('-')?;
    if key.len() != 16 {
        return None;
    }
    Some((
        u64::from_str_radix(key, 16).ok()?,
        Color::from_name(attacker)?,
    ))
}

/// The header of a checkpoint: magic, version, variant, root, attacker,
/// totals and the node count, appended to `out` (the nodes follow, then
/// [`seal`]).
pub fn write_header(
    out: &mut Vec<u8>,
    variant: &str,
    root_fen: &str,
    attacker: Color,
    totals: &Totals,
    node_count: u32,
) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as u16).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    text(out, variant);
    text(out, root_fen);
    out.push(u8::from(attacker == Color::Black));
    out.extend_from_slice(&totals.nodes.to_le_bytes());
    out.extend_from_slice(&totals.leaf_searches.to_le_bytes());
    out.extend_from_slice(&totals.seconds.to_le_bytes());
    out.extend_from_slice(&node_count.to_le_bytes());
}

/// Appends the checksum of everything in `out` (the file's last field).
pub fn seal(out: &mut Vec<u8>) {
    let sum = crc32c::crc32c(out);
    out.extend_from_slice(&sum.to_le_bytes());
}

/// What a checkpoint says about itself (for `ransom store stats`).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The variant.
    pub variant: String,
    /// The searched position.
    pub root_fen: String,
    /// The side whose win is sought.
    pub attacker: Color,
    /// The totals so far.
    pub totals: Totals,
    /// Nodes of the outer tree.
    pub outer_nodes: u32,
    /// The root's proof and disproof numbers.
    pub root_numbers: (u32, u32),
}

/// The checked body of a checkpoint file (its checksum cut off) and its
/// header; `Ok(None)` if there is no file.
pub(crate) fn read_header(path: &Path) -> Result<Option<(Vec<u8>, Header)>, StoreError> {
    match std::fs::read(path) {
        Ok(bytes) => checked_header(path, bytes).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(io_error(path)(error)),
    }
}

/// The checked body of the checkpoint `bytes` (read from `path`, which
/// errors name), its checksum cut off, and its header.
fn checked_header(path: &Path, bytes: Vec<u8>) -> Result<(Vec<u8>, Header), StoreError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err(corrupt(path, "not a ransom checkpoint (bad magic)"));
    }
    let body_len = bytes.len() - 4;
    if crc32c::crc32c(&bytes[..body_len]).to_le_bytes() != bytes[body_len..] {
        return Err(corrupt(path, "checksum mismatch"));
    }
    let mut c = Cursor {
        bytes: &bytes[..body_len],
        pos: 8,
    };
    let version = c.u16().unwrap_or(0);
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(corrupt(path, "unknown version"));
    }
    let header = (|| {
        Some(Header {
            version,
            variant: c.short_text()?,
            root_fen: c.short_text()?,
            attacker: if c.u8()? == 1 {
                Color::Black
            } else {
                Color::White
            },
            totals: Totals {
                nodes: c.u64()?,
                leaf_searches: c.u64()?,
                seconds: f64::from_bits(c.u64()?),
            },
            node_count: c.u32()?,
            nodes_at: c.pos,
        })
    })()
    .ok_or_else(|| corrupt(path, "truncated"))?;
    let mut bytes = bytes;
    bytes.truncate(body_len);
    Ok((bytes, header))
}

/// A checkpoint's header.
pub(crate) struct Header {
    /// The format's version (1 has no sums watch after the nodes).
    pub(crate) version: u16,
    pub(crate) variant: String,
    pub(crate) root_fen: String,
    pub(crate) attacker: Color,
    pub(crate) totals: Totals,
    pub(crate) node_count: u32,
    /// Where the nodes start.
    pub(crate) nodes_at: usize,
}

pub(crate) fn corrupt(path: &Path, problem: &str) -> StoreError {
    StoreError::Damaged {
        path: path.display().to_string(),
        kind: "checkpoint",
        problem: problem.to_string(),
    }
}

/// Reads a checkpoint's header and root numbers (checksum checked).
pub fn summary(path: &Path) -> Result<Summary, StoreError> {
    let (body, header) = read_header(path)?.ok_or_else(|| StoreError::Io {
        path: path.display().to_string(),
        error: std::io::Error::new(std::io::ErrorKind::NotFound, "no checkpoint"),
    })?;
    summary_from(path, &body, header)
}

/// [`summary`] of checkpoint bytes already read from `path` (which errors
/// name), so that a caller that copies them reads the file once.
pub fn summary_of(path: &Path, bytes: &[u8]) -> Result<Summary, StoreError> {
    let (body, header) = checked_header(path, bytes.to_vec())?;
    summary_from(path, &body, header)
}

fn summary_from(path: &Path, body: &[u8], header: Header) -> Result<Summary, StoreError> {
    let mut c = Cursor {
        bytes: body,
        pos: header.nodes_at + 2,
    };
    let root_numbers = c
        .u32()
        .zip(c.u32())
        .ok_or_else(|| corrupt(path, "truncated"))?;
    Ok(Summary {
        variant: header.variant,
        root_fen: header.root_fen,
        attacker: header.attacker,
        totals: header.totals,
        outer_nodes: header.node_count,
        root_numbers,
    })
}
