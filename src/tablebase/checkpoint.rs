//! Checkpoints of one table's generation, so that a build stopped in the
//! middle of a long table (a killed process, a machine shut down) resumes
//! that table where its last checkpoint left it instead of from the start.
//!
//! After a table's first pass and after any level of its iteration, the
//! whole working state is three arrays (value, open moves and pending
//! outside value of each index) and the next level: the positions still to
//! take back and the pending ones of later levels are found again by
//! scanning the arrays (`generate.rs`). A checkpoint is that state in one
//! zstd frame (level 1, with a checksum), written to a temporary name,
//! synced and renamed over `DIR/VARIANT-KEY.checkpoint` (as every file of
//! the project is written); the build removes it once the table's files
//! are written.
//!
//! A checkpoint only ever saves time: one that does not read back whole as
//! the table being built (variant, material, size, format, checksum) is
//! ignored and the table built from the start, with the same result.

use crate::store::{StoreError, write_atomically_with};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};
use std::time::Duration;

/// The first bytes of a checkpoint (inside its zstd frame).
const MAGIC: &[u8; 8] = b"RCHKPT1\n";

/// Indices converted per write or read of the arrays.
const BATCH: usize = 1 << 20;

/// When and where a table's generation writes checkpoints.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    /// The checkpoint file ([`checkpoint_path`]).
    pub path: PathBuf,
    /// The least time between two checkpoints (and from the start of the
    /// table to the first): small tables, done sooner, write none.
    pub every: Duration,
    /// Whether the tables read give categories alone (a `--wdl-only`
    /// build): the distances of its state then differ, so a checkpoint is
    /// read back only by a generation of the same kind.
    pub categories_only: bool,
    /// Tests: stop the generation right after writing the first
    /// checkpoint whose next level is at least this one.
    pub(crate) stop_at: Option<u16>,
}

impl Checkpointing {
    /// Checkpoints at `path`, at least `every` apart, of a generation
    /// reading whole values or (`categories_only`) categories alone.
    pub fn new(path: PathBuf, every: Duration, categories_only: bool) -> Checkpointing {
        Checkpointing {
            path,
            every,
            categories_only,
            stop_at: None,
        }
    }
}

/// The checkpoint file of a table: `DIR/VARIANT-KEY.checkpoint`.
pub fn checkpoint_path(
    dir: &Path,
    variant: crate::variants::Variant,
    material: &super::Material,
) -> PathBuf {
    dir.join(format!(
        "{}-{}.checkpoint",
        variant.name(),
        material.canonical()
    ))
}

/// What a checkpoint belongs to: it is read back only into the same.
pub(crate) struct Identity<'a> {
    /// The rule set's name.
    pub variant: &'a str,
    /// The material key (canonical).
    pub material: String,
    /// Indices of the table.
    pub size: u64,
    /// [`Checkpointing::categories_only`].
    pub categories_only: bool,
}

impl Identity<'_> {
    fn header(&self, next_level: u16) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for text in [self.variant, self.material.as_str()] {
            bytes.push(text.len() as u8);
            bytes.extend_from_slice(text.as_bytes());
        }
        bytes.extend_from_slice(&self.size.to_le_bytes());
        bytes.push(u8::from(self.categories_only));
        bytes.extend_from_slice(&next_level.to_le_bytes());
        bytes
    }
}

/// The working state of a generation, by index.
pub(crate) struct State<'a> {
    pub values: &'a [AtomicU16],
    pub open_moves: &'a [AtomicU8],
    pub ext: &'a [AtomicU16],
}

/// Writes `state` (before level `next_level`) as the checkpoint at `path`,
/// atomically ([`write_atomically_with`]), streamed: the arrays are larger
/// than memory has room for a second time.
pub(crate) fn write(
    path: &Path,
    identity: &Identity,
    state: &State,
    next_level: u16,
) -> Result<(), StoreError> {
    write_atomically_with(path, |file| {
        let mut encoder = zstd::Encoder::new(std::io::BufWriter::new(file), 1)?;
        encoder.include_checksum(true)?;
        encoder.write_all(&identity.header(next_level))?;
        let mut buffer = Vec::with_capacity(BATCH * 2);
        write_u16s(&mut encoder, &mut buffer, state.values)?;
        for part in state.open_moves.chunks(BATCH) {
            buffer.clear();
            buffer.extend(part.iter().map(|n| n.load(Ordering::Relaxed)));
            encoder.write_all(&buffer)?;
        }
        write_u16s(&mut encoder, &mut buffer, state.ext)?;
        encoder.finish()?.flush()
    })
}

/// Writes `slots` little-endian, a batch at a time through `buffer`.
fn write_u16s(
    out: &mut impl Write,
    buffer: &mut Vec<u8>,
    slots: &[AtomicU16],
) -> std::io::Result<()> {
    for part in slots.chunks(BATCH) {
        buffer.clear();
        buffer.extend(
            part.iter()
                .flat_map(|v| v.load(Ordering::Relaxed).to_le_bytes()),
        );
        out.write_all(buffer)?;
    }
    Ok(())
}

/// Reads `slots` as [`write_u16s`] wrote them.
fn read_u16s(input: &mut impl Read, buffer: &mut [u8], slots: &[AtomicU16]) -> std::io::Result<()> {
    for part in slots.chunks(BATCH) {
        let bytes = &mut buffer[..part.len() * 2];
        input.read_exact(bytes)?;
        for (slot, pair) in part.iter().zip(bytes.chunks_exact(2)) {
            slot.store(u16::from_le_bytes([pair[0], pair[1]]), Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Why a generation's checkpoint cannot be resumed from.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unusable {
    /// It cannot be opened.
    #[error("{0}")]
    Open(std::io::Error),
    /// Its header cannot be read.
    #[error("cannot read its header: {0}")]
    Header(std::io::Error),
    /// It belongs to another table or format.
    #[error("it is of another table or format")]
    OtherTable,
    /// It ends early or fails its checksum.
    #[error("cut short or damaged: {0}")]
    CutShort(std::io::Error),
    /// It holds more than a table's state.
    #[error("it holds more than the table's state")]
    Trailing,
}

/// Reads the checkpoint at `path` into `state` and returns the level it
/// resumes at, or why it cannot be used. `state` may be partly overwritten
/// when that fails (the generation's first pass sets every index anew).
pub(crate) fn read(path: &Path, identity: &Identity, state: &State) -> Result<u16, Unusable> {
    let file = std::fs::File::open(path).map_err(Unusable::Open)?;
    let mut decoder = zstd::Decoder::new(file).map_err(Unusable::Open)?;
    let expected = identity.header(0);
    let mut header = vec![0u8; expected.len()];
    decoder.read_exact(&mut header).map_err(Unusable::Header)?;
    let level_at = expected.len() - 2;
    if header[..level_at] != expected[..level_at] {
        return Err(Unusable::OtherTable);
    }
    let next_level = u16::from_le_bytes([header[level_at], header[level_at + 1]]);
    let short = Unusable::CutShort;
    let mut buffer = vec![0u8; BATCH * 2];
    read_u16s(&mut decoder, &mut buffer, state.values).map_err(short)?;
    for part in state.open_moves.chunks(BATCH) {
        let bytes = &mut buffer[..part.len()];
        decoder.read_exact(bytes).map_err(short)?;
        for (slot, &n) in part.iter().zip(bytes.iter()) {
            slot.store(n, Ordering::Relaxed);
        }
    }
    read_u16s(&mut decoder, &mut buffer, state.ext).map_err(short)?;
    // The frame's checksum is checked at its end.
    let mut rest = Vec::new();
    decoder.read_to_end(&mut rest).map_err(short)?;
    if !rest.is_empty() {
        return Err(Unusable::Trailing);
    }
    Ok(next_level)
}

/// Removes the checkpoint at `path` and any temporary file a killed
/// writer left beside it (`.NAME.*.tmp`, [`write_atomically_with`]).
pub(crate) fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let leftover = entry.file_name();
        let leftover = leftover.to_string_lossy();
        if leftover.starts_with(&prefix) && leftover.ends_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::{
        BuildProgress, Material, MemTables, build, generate, generate_checkpointed,
    };
    use crate::variants::International;

    /// A generation stopped after a checkpoint and resumed from it gives
    /// the values of one uninterrupted generation, whatever level it
    /// stopped at (the first pass's checkpoint included); a checkpoint that
    /// does not read back whole as the table being built is ignored.
    #[test]
    fn a_resumed_generation_gives_the_same_values() {
        let dir = std::env::temp_dir().join(format!("ransom-checkpoint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let kpvn = Material::parse("KPvN").unwrap();
        build::<International>(&dir, &[kpvn], |_, _, _| {}).unwrap();
        let src = MemTables::over_files::<International>(&dir, false);
        let whole = generate::<International>(&kpvn, &src).unwrap();
        let path = dir.join("KPvN.checkpoint");
        let progress = BuildProgress::default();
        let run = |stop_at: Option<u16>| {
            let every = Checkpointing {
                path: path.clone(),
                every: Duration::ZERO,
                categories_only: false,
                stop_at,
            };
            generate_checkpointed::<International>(&kpvn, &src, &progress, Some(&every)).unwrap()
        };
        let mut levels = 0;
        for stop in [0, 1, 7, 30, u16::MAX] {
            remove(&path);
            let stopped = run(Some(stop));
            if stopped.values.is_some() {
                // Past the last level: nothing to stop at.
                assert!(stop > 1);
                continue;
            }
            assert!(path.exists());
            let resumed = run(None);
            assert_eq!(resumed.resumed_at, Some(stop), "stopped at {stop}");
            assert!(resumed.values.as_ref() == Some(&whole), "stopped at {stop}");
            levels += 1;
        }
        assert!(levels >= 4, "KPvN has fewer levels than the test stops at");
        // Cut short, a changed byte, another table's: ignored, same values.
        remove(&path);
        assert!(run(Some(7)).values.is_none());
        let bytes = std::fs::read(&path).unwrap();
        let mut changed = bytes.clone();
        let at = changed.len() / 2;
        changed[at] ^= 0x10;
        for damaged in [&bytes[..bytes.len() - 5], &changed[..]] {
            std::fs::write(&path, damaged).unwrap();
            let resumed = run(None);
            assert!(resumed.checkpoint_ignored.is_some());
            assert_eq!(resumed.resumed_at, None);
            assert!(resumed.values.as_ref() == Some(&whole));
        }
        let kbvn = Material::parse("KBvN").unwrap();
        remove(&path);
        let every = Checkpointing {
            path: path.clone(),
            every: Duration::ZERO,
            categories_only: false,
            stop_at: Some(0),
        };
        let other = generate_checkpointed::<International>(&kbvn, &src, &progress, Some(&every));
        assert!(other.unwrap().values.is_none());
        let resumed = run(None);
        assert!(
            resumed
                .checkpoint_ignored
                .unwrap()
                .contains("another table")
        );
        assert!(resumed.values.as_ref() == Some(&whole));
        // One of a generation reading categories alone (--wdl-only), whose
        // distances differ, is not read back by one reading whole values.
        remove(&path);
        let categories = Checkpointing {
            categories_only: true,
            stop_at: Some(3),
            ..every.clone()
        };
        let stopped =
            generate_checkpointed::<International>(&kpvn, &src, &progress, Some(&categories));
        assert!(stopped.unwrap().values.is_none());
        let resumed = run(None);
        let ignored = resumed.checkpoint_ignored.unwrap();
        assert!(ignored.contains("another table"), "{ignored}");
        assert!(resumed.values.as_ref() == Some(&whole));
        // Removing a checkpoint also removes what a killed writer left.
        let leftover = dir.join(".KPvN.checkpoint.4294967295-0.tmp");
        std::fs::write(&leftover, b"cut").unwrap();
        remove(&path);
        assert!(!path.exists() && !leftover.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
