//! Every shipped puzzle file in puzzles/ is solved again: the stated
//! length (`dm`) is the proven shortest, the main line's key is one of the
//! stated keys (`bm`), and where a line says "unique key" the key is the
//! only first move that mates that fast.

use ransom::notation::{fen, san};
use ransom::search::Budget;
use ransom::search::mate::{MateOptions, MateStatus, read_suite, solve_mate};
use ransom::variants::{Chess, Contact, Crazyhouse, HitAndRun, Hostage};
use ransom::{Position, Variant};
use std::path::{Path, PathBuf};

fn puzzle_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    files.sort();
    files
}

/// The variant a puzzle file is for: the part of its name before the
/// first `-`.
fn variant_of(path: &Path) -> Variant {
    let name = path.file_name().unwrap().to_str().unwrap();
    let prefix = name.split('-').next().unwrap();
    prefix
        .parse()
        .unwrap_or_else(|_| panic!("{name}: no variant named '{prefix}'"))
}

fn check_file<P: Position>(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let cases = read_suite(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(cases.len(), lines.len());
    for (case, line) in cases.iter().zip(&lines) {
        let what = format!("{} {}", path.display(), case.id);
        let pos: P = fen::parse_position(&case.fen).unwrap_or_else(|e| panic!("{what}: {e}"));
        let stated = u16::try_from(case.expected).unwrap();
        let unique = line.contains("unique key");
        let options = MateOptions {
            max: stated,
            all_keys: unique,
            budget: Budget {
                max_nodes: 100_000_000,
                max_time: None,
                hash_bytes: 256 << 20,
            },
        };
        let report = solve_mate(&pos, &options, &mut |_| {});
        assert_eq!(
            report.status,
            MateStatus::Mate,
            "{what}: {:?}",
            report.notes
        );
        assert_eq!(report.length, Some(stated), "{what}");
        assert!(report.shortest, "{what}");
        let bm = line
            .find(" bm ")
            .map(|at| &line[at + 4..])
            .unwrap_or_else(|| panic!("{what}: no bm"));
        let stated_keys: Vec<&str> = bm.split(';').next().unwrap().split_whitespace().collect();
        let keys: Vec<String> = report.keys.iter().map(|&m| san::write(&pos, m)).collect();
        assert!(
            stated_keys.contains(&keys[0].as_str()),
            "{what}: key {keys:?} not in {stated_keys:?}"
        );
        if unique {
            assert_eq!(keys.len(), 1, "{what}: 'unique key' but {keys:?}");
        }
    }
    cases.len()
}

#[test]
fn shipped_puzzles_are_solved_again_with_their_stated_length_and_keys() {
    let files = puzzle_files();
    assert!(!files.is_empty(), "no puzzle files in puzzles/");
    for path in files {
        let count = match variant_of(&path) {
            Variant::Chess => check_file::<Chess>(&path),
            Variant::Crazyhouse => check_file::<Crazyhouse>(&path),
            Variant::Hostage => check_file::<Hostage>(&path),
            Variant::Contact => check_file::<Contact>(&path),
            Variant::HitAndRun => check_file::<HitAndRun>(&path),
            other => panic!("{}: no puzzle check for {}", path.display(), other.name()),
        };
        assert!(count > 0, "{}: empty", path.display());
    }
}
