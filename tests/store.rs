//! The table container: round trips, lookups across blocks, and clear
//! errors (never panics) on corrupt or truncated files.

use proptest::prelude::*;
use ransom::store::{BlockCache, CacheCounts, TableKind, TableReader, TableWriter};
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

#[test]
fn tables_sharing_a_block_cache_read_the_same_records_within_its_bytes() {
    // Two tables keep their blocks in one cache of about three blocks:
    // every lookup reads what the table holds, blocks read again are
    // found there, and the cache never holds more than its bytes.
    let (a_path, a) = sample(3_000, 100);
    let (b_path, b) = sample(2_000, 100);
    let cache = BlockCache::new(3 * 100 * (8 + 3) + 200);
    let shared = |path: &PathBuf| {
        TableReader::open(path)
            .unwrap()
            .with_shared_cache(std::sync::Arc::clone(&cache))
    };
    let (ra, rb) = (shared(&a_path), shared(&b_path));
    // Every block of both, twice (50 blocks through room for 3, the two
    // tables' blocks of the same index one after the other: keyed apart,
    // one is never taken for the other's).
    for round in 0..2 {
        for ((ka, va), (kb, vb)) in a.iter().zip(&b).step_by(7) {
            assert_eq!(ra.get(*ka).unwrap().as_deref(), Some(&va[..]), "{round}");
            assert_eq!(rb.get(*kb).unwrap().as_deref(), Some(&vb[..]), "{round}");
            assert!(cache.held() <= cache.capacity());
        }
    }
    // The blocks are in the shared cache, not in each table's own.
    assert!(cache.held() > 0);
    assert_eq!(ra.get(12345).unwrap(), None);
    let counts = ra.cache_counts() + rb.cache_counts();
    assert!(counts.hits > 0 && counts.misses >= 50, "{counts:?}");
    assert_ne!(counts, CacheCounts::default());
}

/// docs/store-format.md: version 2 and 3 blocks hold the keys (as
/// distances) before the values; version 1 files, keys and values
/// interleaved, and version 2 files (FNV-1a header checksum) are still
/// read, with the same records.
#[test]
fn every_format_version_reads_back_the_same_records() {
    let mut paths = Vec::new();
    for version in [1u16, 2, 3] {
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
    let (v1, v2, v3) = (
        TableReader::open(&paths[0]).unwrap(),
        TableReader::open(&paths[1]).unwrap(),
        TableReader::open(&paths[2]).unwrap(),
    );
    assert_eq!(v1.records().unwrap(), v2.records().unwrap());
    assert_eq!(v3.records().unwrap(), v2.records().unwrap());
    assert_eq!(v3.get(950).unwrap(), v2.get(950).unwrap());
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

/// Where block `block`'s first key sits in the header of a table written
/// with the variant "antichess" and the description "KvK".
fn index_first_key_offset(block: usize) -> usize {
    let fixed = 8 + 4 + 2 + 1 + 1 + 8 + 4 + 4;
    let names = 2 + "antichess".len() + 4 + "KvK".len();
    fixed + names + 4 + block * 20 + 8 + 4
}

/// The header of `bytes` (format version 3) with block 1's first key moved
/// by `shift` and a checksum that is valid again, as a rewritten header
/// would be.
fn with_block_index_shifted(mut bytes: Vec<u8>, shift: i64) -> Vec<u8> {
    let at = index_first_key_offset(1);
    let key = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    bytes[at..at + 8].copy_from_slice(&key.wrapping_add_signed(shift).to_le_bytes());
    let header_end = 12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let sum = crc32c::crc32c(&bytes[..header_end]);
    bytes[header_end..header_end + 4].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A block index that is off by one, under a valid header checksum, makes
/// every probe of the block an error, never a wrong value (the block
/// carries its first key, and its keys must stay below the next block's).
#[test]
fn a_block_index_off_by_one_is_refused_by_probes() {
    let path = temp_path("dense.tbl");
    let mut writer =
        TableWriter::new(TableKind::Tablebase, "antichess", "KvK", 1).records_per_block(64);
    for key in 0..300u64 {
        writer.push(key, &[(key % 251) as u8]);
    }
    writer.write(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(
        TableReader::open(&path).unwrap().get(100).unwrap(),
        Some(vec![100])
    );
    for shift in [-1, 1] {
        let bad = temp_path(&format!("shifted{shift}.tbl"));
        std::fs::write(&bad, with_block_index_shifted(good.clone(), shift)).unwrap();
        let reader = TableReader::open(&bad).expect("the header itself is consistent");
        let error = reader
            .get(100)
            .expect_err("a probe of the shifted block")
            .to_string();
        assert!(
            error.contains("block 1") && error.contains("first key"),
            "{error}"
        );
        assert!(reader.records().is_err());
    }
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
