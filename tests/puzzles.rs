//! Every shipped puzzle file in puzzles/ passes what `ransom puzzles
//! verify` checks: the stated length (`dm`) is the proven shortest, the
//! stated keys (`bm`) are exactly the first moves that mate that fast, the
//! solution tree verifies, and the main line (`pv`) is the defender's
//! longest resistance.

use ransom::search::Budget;
use ransom::search::mate::{Puzzle, check_puzzle, read_puzzles};
use ransom::{Position, Variant, for_variant};
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

/// A set written by `ransom puzzles generate` (`*-generated-*.epd`).
fn is_generated(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.contains("-generated-"))
}

/// What `ransom puzzles verify` checks, for every puzzle of a file: the
/// stated length is the proven shortest, the stated keys are exactly the
/// keys (a claimed unique key is the only one), the solution tree verifies,
/// and the main line is legal, starts with a key and takes the stated
/// number of moves (the defender's longest resistance).
fn verify_file<P: Position>(path: &Path, puzzles: &[Puzzle]) {
    let budget = Budget {
        max_nodes: 100_000_000,
        max_time: None,
        hash_bytes: 256 << 20,
        stop: None,
    };
    for p in puzzles {
        let check = check_puzzle::<P>(p, budget);
        assert!(
            check.failures.is_empty(),
            "{} {}: {:?}",
            path.display(),
            p.id,
            check.failures
        );
    }
}

fn read_file_puzzles(path: &Path) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(path).unwrap();
    read_puzzles(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn shipped_puzzles_pass_verify() {
    let files = puzzle_files();
    assert!(!files.is_empty(), "no puzzle files in puzzles/");
    for path in files {
        if is_generated(&path) {
            continue; // checked with more below
        }
        let puzzles = read_file_puzzles(&path);
        assert!(!puzzles.is_empty(), "{}: empty", path.display());
        for_variant!(variant_of(&path), verify_file(&path, &puzzles));
    }
}

/// The generated sets and the least number of puzzles each must hold.
const GENERATED: [(&str, usize); 6] = [
    ("hostage-generated-m2.epd", 100),
    ("hostage-generated-m3.epd", 50),
    ("antichess-generated-wins.epd", 50),
    ("crazyhouse-generated-m2-3.epd", 50),
    ("contact-generated-m2-3.epd", 30),
    ("hitandrun-generated-m2.epd", 30),
];

fn verify_generated<P: Position>(path: &Path, puzzles: &[Puzzle]) {
    verify_file::<P>(path, puzzles);
    for p in puzzles {
        assert!(p.unique(), "{} {}: key not unique", path.display(), p.id);
        assert!(!p.themes.is_empty() && p.difficulty.is_some(), "{}", p.id);
    }
}

/// What `ransom puzzles verify` checks, for every generated set: proven
/// shortest length, the unique key, the solution tree, the main line.
#[test]
fn generated_sets_pass_verify_and_are_large_enough() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let generated: Vec<PathBuf> = puzzle_files()
        .into_iter()
        .filter(|p| is_generated(p))
        .collect();
    assert_eq!(generated.len(), GENERATED.len(), "{generated:?}");
    for (name, least) in GENERATED {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# ransom puzzles generate "),
            "{name}: no regenerating command in the header"
        );
        let puzzles = read_puzzles(&text).unwrap();
        assert!(puzzles.len() >= least, "{name}: {} puzzles", puzzles.len());
        for_variant!(variant_of(&path), verify_generated(&path, &puzzles));
    }
}

/// Every shipped file is what the command in its header writes (about
/// five minutes in all): `cargo test --release --test puzzles -- --ignored`.
#[test]
#[ignore = "regenerates every puzzle file (minutes)"]
fn shipped_files_are_regenerated_by_their_header_commands() {
    let dir = std::env::temp_dir().join(format!("ransom-regenerate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in puzzle_files() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let shipped = std::fs::read_to_string(&path).unwrap();
        let command = shipped
            .lines()
            .take_while(|l| l.starts_with('#'))
            .find_map(|l| l.strip_prefix("# ransom "))
            .unwrap_or_else(|| panic!("{name}: no regenerating command in the header"));
        let out = dir.join(&name);
        let mut args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        let at = args.iter().position(|a| a == "--out").unwrap();
        args[at + 1] = out.display().to_string();
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_ransom"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .arg("-q")
            .status()
            .unwrap();
        assert!(status.success(), "{name}");
        // The header names the output file; the puzzles must be the same.
        let body = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        };
        let (written, shipped) = (
            body(&std::fs::read_to_string(&out).unwrap()),
            body(&shipped),
        );
        if let Some((w, s)) = written.iter().zip(&shipped).find(|(w, s)| w != s) {
            panic!("{name}: the shipped line\n  {s}\nis written now as\n  {w}");
        }
        assert_eq!(written.len(), shipped.len(), "{name}: puzzle count");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
