//! The table container: round trips, lookups across blocks, and clear
//! errors (never panics) on corrupt or truncated files.

use proptest::prelude::*;
use ransom::store::{TableKind, TableReader, TableWriter};
use std::path::PathBuf;

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ransom-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn sample(records: u64, per_block: u32) -> (PathBuf, Vec<(u64, [u8; 3])>) {
    let path = temp_path(&format!("sample-{records}-{per_block}.tbl"));
    let mut writer =
        TableWriter::new(TableKind::Tablebase, "antichess", "KvK", 3).records_per_block(per_block);
    let mut expected = Vec::new();
    for i in 0..records {
        let key = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let value = [(i % 251) as u8, (i / 251) as u8, 7];
        writer.push(key, &value);
        expected.push((key, value));
    }
    writer.write(&path).unwrap();
    expected.sort();
    (path, expected)
}

#[test]
fn round_trip_across_blocks() {
    let (path, expected) = sample(10_000, 100);
    let reader = TableReader::open(&path).unwrap();
    assert_eq!(reader.kind(), TableKind::Tablebase);
    assert_eq!(reader.variant(), "antichess");
    assert_eq!(reader.description(), "KvK");
    assert_eq!(reader.len(), 10_000);
    for (key, value) in expected.iter().step_by(37) {
        assert_eq!(reader.get(*key).unwrap().as_deref(), Some(&value[..]));
    }
    assert_eq!(reader.get(12345).unwrap(), None);
    let all = reader.records().unwrap();
    assert_eq!(all.len(), expected.len());
    assert!(
        all.iter()
            .zip(&expected)
            .all(|(a, b)| a.0 == b.0 && a.1 == b.1)
    );
}

/// docs/store-format.md: version 2 blocks hold the keys (as distances)
/// before the values; version 1 files, keys and values interleaved, are
/// still read, with the same records.
#[test]
fn both_format_versions_read_back_the_same_records() {
    let mut paths = Vec::new();
    for version in [1u16, 2] {
        let path = temp_path(&format!("version-{version}.tbl"));
        let mut writer = TableWriter::new(TableKind::Tablebase, "antichess", "KvK", 2)
            .records_per_block(64)
            .format_version(version);
        // Dense keys with a gap, as a tablebase's records are.
        for key in (0..500u64).chain(900..1000) {
            writer.push(key, &[(key % 7) as u8, (key / 7) as u8]);
        }
        writer.write(&path).unwrap();
        paths.push(path);
    }
    let (v1, v2) = (
        TableReader::open(&paths[0]).unwrap(),
        TableReader::open(&paths[1]).unwrap(),
    );
    assert_eq!(v1.records().unwrap(), v2.records().unwrap());
    assert_eq!(v2.records().unwrap().len(), 600);
    for key in [0, 63, 64, 499, 500, 899, 900, 999, 1000] {
        assert_eq!(v1.get(key).unwrap(), v2.get(key).unwrap(), "key {key}");
    }
    assert_eq!(
        v2.get(950).unwrap(),
        Some(vec![(950 % 7) as u8, (950 / 7) as u8])
    );
    assert_eq!(v2.get(700).unwrap(), None);
    // Consecutive keys stored as distances compress to almost nothing.
    let size = |p: &PathBuf| std::fs::metadata(p).unwrap().len();
    assert!(
        size(&paths[1]) < size(&paths[0]),
        "{} vs {}",
        size(&paths[1]),
        size(&paths[0])
    );
}

#[test]
fn empty_table() {
    let path = temp_path("empty.tbl");
    TableWriter::new(TableKind::Proof, "chess", "", 4)
        .write(&path)
        .unwrap();
    let reader = TableReader::open(&path).unwrap();
    assert!(reader.is_empty());
    assert_eq!(reader.get(0).unwrap(), None);
}

#[test]
fn write_is_atomic_no_temporary_left() {
    let (path, _) = sample(10, 4);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn writes_follow_symlinks_stream_to_fifos_and_never_share_a_temporary() {
    let dir = temp_path("writes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A symlink is written through: the link stays, its file is replaced.
    let real = dir.join("real.txt");
    std::fs::write(&real, "old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    ransom::store::write_atomically(&link, b"new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    // A FIFO is written to, not replaced by a file.
    let fifo = dir.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    ransom::store::write_atomically(&fifo, b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A directory is refused by name.
    let err = ransom::store::write_atomically(&dir, b"x")
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a directory"), "{err}");
    // Many writers of one file at once: every write succeeds whole.
    let shared = dir.join("shared.txt");
    std::thread::scope(|s| {
        for i in 0..8 {
            let shared = &shared;
            s.spawn(move || {
                for _ in 0..20 {
                    ransom::store::write_atomically(shared, format!("writer {i}").as_bytes())
                        .unwrap();
                }
            });
        }
    });
    assert!(
        std::fs::read_to_string(&shared)
            .unwrap()
            .starts_with("writer ")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn not_a_table() {
    let path = temp_path("text.tbl");
    std::fs::write(&path, "hello, world").unwrap();
    let err = TableReader::open(&path).err().unwrap().to_string();
    assert!(err.contains("bad magic"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Any single flipped byte or truncation: open or lookup reports an
    /// error or (for bytes the checks cannot see) still answers; never panics.
    #[test]
    fn corruption_never_panics(position in 0usize..100_000, mask in 1u8..=255, cut in proptest::bool::ANY) {
        let (path, expected) = sample(2_000, 64);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = position % bytes.len();
        if cut { bytes.truncate(at); } else { bytes[at] ^= mask; }
        let bad = temp_path(&format!("bad-{at}-{mask}-{cut}.tbl"));
        std::fs::write(&bad, &bytes).unwrap();
        if let Ok(reader) = TableReader::open(&bad) {
            for (key, _) in expected.iter().step_by(97) {
                let _ = reader.get(*key);
            }
            let _ = reader.records();
        }
        std::fs::remove_file(&bad).ok();
    }
}
