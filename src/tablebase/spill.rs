//! Tables a build drops from memory for room while a later job still
//! reads them, kept on disk as it holds them (codes of both sides,
//! compressed at zstd level 1 with a checksum), so that reading one again
//! takes a decompression instead of decoding its files and deriving the
//! side its distance file does not store (a minute or more for a 5-man
//! table).
//!
//! Each build has its own folder, `DIR/.ransom-spill-PID`, removed when
//! the build ends; one left by a build that was killed is removed by the
//! next build in `DIR` once its process is gone. A file that does not read
//! back as the table it names (material, checksum) is ignored and the
//! table read from its own files: these files only ever save time.

use super::codec::CodedValues;
use super::{Layout, Material, MemTable, TbError};
use hashbrown::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of a spill file.
const MAGIC: &[u8; 8] = b"RSPILL2\n";

/// The prefix of a build's spill folder in `DIR`.
const PREFIX: &str = ".ransom-spill-";

/// The spill folder of this process's build in `dir`.
pub(crate) fn spill_dir(dir: &Path) -> PathBuf {
    dir.join(format!("{PREFIX}{}", std::process::id()))
}

fn spill_path(dir: &Path, material: &Material) -> PathBuf {
    spill_dir(dir).join(format!("{material}.codes"))
}

/// Writes a whole table held in memory to this build's spill folder in
/// `dir`; returns the bytes written.
pub(crate) fn write(dir: &Path, table: &MemTable) -> Result<u64, TbError> {
    let path = spill_path(dir, &table.material);
    let io = |error: std::io::Error| TbError::BadTable {
        path: path.display().to_string(),
        problem: format!("cannot write a spilled table: {error}"),
    };
    let (codes, long) = table.coded().parts();
    let key = table.material.to_string();
    let mut bytes = Vec::with_capacity(codes.len() / 8 + 64 + long.len() * 10);
    bytes.extend_from_slice(MAGIC);
    bytes.push(key.len() as u8);
    bytes.extend_from_slice(key.as_bytes());
    bytes.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    bytes.push(u8::from(table.exact()));
    bytes.extend_from_slice(&(long.len() as u64).to_le_bytes());
    for (&index, &value) in long {
        bytes.extend_from_slice(&index.to_le_bytes());
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let mut compressor = zstd::bulk::Compressor::new(1).map_err(io)?;
    compressor.include_checksum(true).map_err(io)?;
    bytes.extend_from_slice(&compressor.compress(codes).map_err(io)?);
    // A throwaway file: written under a temporary name and renamed (a
    // reader never sees half of it), not synced.
    let tmp = path.with_extension("tmp");
    let written = (|| {
        std::fs::create_dir_all(spill_dir(dir))?;
        std::fs::File::create(&tmp)?.write_all(&bytes)?;
        std::fs::rename(&tmp, &path)
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(error));
    }
    Ok(bytes.len() as u64)
}

/// The table of `material` spilled in `dir` by this build, if there is one
/// that reads back whole.
pub(crate) fn read(dir: &Path, material: &Material) -> Option<MemTable> {
    let bytes = std::fs::read(spill_path(dir, material)).ok()?;
    let size = Layout::new(*material).size() as usize;
    let rest = bytes.strip_prefix(MAGIC)?;
    let (&key_len, rest) = rest.split_first()?;
    let (key, rest) = rest.split_at_checked(usize::from(key_len))?;
    if key != material.to_string().as_bytes() {
        return None;
    }
    let (len, rest) = rest.split_first_chunk::<8>()?;
    if u64::from_le_bytes(*len) != size as u64 {
        return None;
    }
    let (&exact, rest) = rest.split_first()?;
    if exact > 1 {
        return None;
    }
    let (count, mut rest) = rest.split_first_chunk::<8>()?;
    let mut long = HashMap::new();
    for _ in 0..u64::from_le_bytes(*count) {
        let (index, after) = rest.split_first_chunk::<8>()?;
        let (value, after) = after.split_first_chunk::<2>()?;
        long.insert(u64::from_le_bytes(*index), u16::from_le_bytes(*value));
        rest = after;
    }
    // The frame's checksum is checked as it is decompressed.
    let codes = zstd::bulk::decompress(rest, size).ok()?;
    if codes.len() != size {
        return None;
    }
    let values = CodedValues::from_parts(codes, long);
    Some(MemTable::from_coded(*material, values, exact == 1))
}

/// Removes the spilled table of `material`, if any.
pub(crate) fn remove(dir: &Path, material: &Material) {
    let _ = std::fs::remove_file(spill_path(dir, material));
}

/// Removes this build's spill folder in `dir`.
pub(crate) fn clear(dir: &Path) {
    let _ = std::fs::remove_dir_all(spill_dir(dir));
}

/// Removes the spill folders in `dir` of builds whose process is gone
/// (where `/proc` says so).
pub(crate) fn clear_abandoned(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let gone = pid.parse::<u32>().is_ok_and(|pid| {
            Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
        });
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::Value;

    #[test]
    fn a_spilled_table_reads_back_the_same() {
        let dir = std::env::temp_dir().join(format!("ransom-spill-{}", std::process::id()));
        let material = Material::parse("KvP").unwrap();
        let size = Layout::new(material).size() as usize;
        let values: Vec<u16> = (0..size)
            .map(|i| match i % 5 {
                0 => Value::UNKNOWN.0,
                1 => Value::DRAW.0,
                2 => Value::win((i % 300) as u16).0,
                _ => Value::loss((i % 200) as u16).0,
            })
            .collect();
        let table = MemTable::from_values(material, &values);
        write(&dir, &table).unwrap();
        let back = read(&dir, &material).unwrap();
        assert!(back.exact());
        for i in 0..size as u64 {
            assert_eq!(back.value(i), table.value(i), "{i}");
        }
        // Another material's name, a cut file or a changed byte does not
        // read back.
        let other = Material::parse("KvN").unwrap();
        std::fs::copy(spill_path(&dir, &material), spill_path(&dir, &other)).unwrap();
        assert!(read(&dir, &other).is_none());
        let bytes = std::fs::read(spill_path(&dir, &material)).unwrap();
        std::fs::write(spill_path(&dir, &material), &bytes[..bytes.len() - 3]).unwrap();
        assert!(read(&dir, &material).is_none());
        let mut changed = bytes.clone();
        let last = changed.len() - 10;
        changed[last] ^= 0x40;
        std::fs::write(spill_path(&dir, &material), &changed).unwrap();
        assert!(read(&dir, &material).is_none());
        std::fs::write(spill_path(&dir, &material), &bytes).unwrap();
        assert!(read(&dir, &material).is_some());
        // A folder of a process that is gone is removed; this one's is not.
        let abandoned = dir.join(format!("{PREFIX}4294967295"));
        std::fs::create_dir_all(&abandoned).unwrap();
        clear_abandoned(&dir);
        assert!(!abandoned.exists());
        assert!(spill_dir(&dir).exists());
        clear(&dir);
        assert!(!spill_dir(&dir).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
