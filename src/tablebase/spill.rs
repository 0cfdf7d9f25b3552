//! Tables a build drops from memory for room while a later job still
//! reads them, kept on disk as it holds them (codes of both sides,
//! compressed at zstd level 1), so that reading one again takes a
//! decompression instead of decoding its files and deriving the side its
//! distance file does not store (a minute or more for a 5-man table).
//!
//! The files live in `DIR/.ransom-spill/` for one build only: a build
//! clears the folder when it starts and when it ends. A file that does not
//! read back as the table it names is ignored (the table is read from its
//! own files instead): these files only ever save time.

use super::codec::CodedValues;
use super::{Layout, Material, MemTable, TbError};
use crate::store::write_atomically;
use hashbrown::HashMap;
use std::path::{Path, PathBuf};

/// The first bytes of a spill file.
const MAGIC: &[u8; 8] = b"RSPILL1\n";

/// The folder of a build's spill files.
pub(crate) fn spill_dir(dir: &Path) -> PathBuf {
    dir.join(".ransom-spill")
}

fn spill_path(dir: &Path, material: &Material) -> PathBuf {
    spill_dir(dir).join(format!("{material}.codes"))
}

/// Writes a whole table held in memory to the spill folder of `dir`.
pub(crate) fn write(dir: &Path, table: &MemTable) -> Result<(), TbError> {
    let (codes, long) = table.coded().parts();
    let mut bytes = Vec::with_capacity(codes.len() / 8 + 32 + long.len() * 10);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    bytes.push(u8::from(table.exact()));
    bytes.extend_from_slice(&(long.len() as u64).to_le_bytes());
    for (&index, &value) in long {
        bytes.extend_from_slice(&index.to_le_bytes());
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let path = spill_path(dir, &table.material);
    let io = |error: std::io::Error| TbError::BadTable {
        path: path.display().to_string(),
        problem: format!("cannot write a spilled table: {error}"),
    };
    let frame = zstd::bulk::compress(codes, 1).map_err(io)?;
    bytes.extend_from_slice(&frame);
    write_atomically(&path, &bytes)?;
    Ok(())
}

/// The table of `material` spilled in `dir`, if there is one that reads
/// back whole.
pub(crate) fn read(dir: &Path, material: &Material) -> Option<MemTable> {
    let bytes = std::fs::read(spill_path(dir, material)).ok()?;
    let size = Layout::new(*material).size() as usize;
    let rest = bytes.strip_prefix(MAGIC)?;
    let (len, rest) = rest.split_first_chunk::<8>()?;
    if u64::from_le_bytes(*len) != size as u64 {
        return None;
    }
    let (&exact, rest) = rest.split_first()?;
    let (count, mut rest) = rest.split_first_chunk::<8>()?;
    let mut long = HashMap::new();
    for _ in 0..u64::from_le_bytes(*count) {
        let (index, after) = rest.split_first_chunk::<8>()?;
        let (value, after) = after.split_first_chunk::<2>()?;
        long.insert(u64::from_le_bytes(*index), u16::from_le_bytes(*value));
        rest = after;
    }
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

/// Removes the spill folder of `dir` and everything in it.
pub(crate) fn clear(dir: &Path) {
    let _ = std::fs::remove_dir_all(spill_dir(dir));
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
        // Another material's name, or a cut file, does not read back.
        let other = Material::parse("KvN").unwrap();
        std::fs::copy(spill_path(&dir, &material), spill_path(&dir, &other)).unwrap();
        assert!(read(&dir, &other).is_none());
        let bytes = std::fs::read(spill_path(&dir, &material)).unwrap();
        std::fs::write(spill_path(&dir, &material), &bytes[..bytes.len() - 3]).unwrap();
        assert!(read(&dir, &material).is_none());
        clear(&dir);
        assert!(!spill_dir(&dir).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
