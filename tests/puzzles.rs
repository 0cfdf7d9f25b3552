//! Every shipped puzzle file in puzzles/ is solved again: the stated
//! length (`dm`) is the proven shortest, the main line's key is one of the
//! stated keys (`bm`), and where a line says "unique key" the key is the
//! only first move that mates that fast.

use ransom::notation::{fen, san};
use ransom::search::Budget;
use ransom::search::mate::{
    MateOptions, MateStatus, Puzzle, check_puzzle, read_puzzles, read_suite, solve_mate,
};
use ransom::variants::{Antichess, Chess, Contact, Crazyhouse, HitAndRun, Hostage};
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

/// A set written by `ransom puzzles generate` (`*-generated-*.epd`).
fn is_generated(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.contains("-generated-"))
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
                stop: None,
            },
            threads: 1,
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
        if is_generated(&path) {
            continue; // checked more strictly below
        }
        let count = match variant_of(&path) {
            Variant::Chess => check_file::<Chess>(&path),
            Variant::Antichess => check_file::<Antichess>(&path),
            Variant::Crazyhouse => check_file::<Crazyhouse>(&path),
            Variant::Hostage => check_file::<Hostage>(&path),
            Variant::Contact => check_file::<Contact>(&path),
            Variant::HitAndRun => check_file::<HitAndRun>(&path),
            other => panic!("{}: no puzzle check for {}", path.display(), other.name()),
        };
        assert!(count > 0, "{}: empty", path.display());
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
        match variant_of(&path) {
            Variant::Antichess => verify_generated::<Antichess>(&path, &puzzles),
            Variant::Crazyhouse => verify_generated::<Crazyhouse>(&path, &puzzles),
            Variant::Hostage => verify_generated::<Hostage>(&path, &puzzles),
            Variant::Contact => verify_generated::<Contact>(&path, &puzzles),
            Variant::HitAndRun => verify_generated::<HitAndRun>(&path, &puzzles),
            other => panic!("{name}: no generated set expected for {}", other.name()),
        }
    }
}

/// Every generated set is what the command in its header writes (about
/// four minutes in all): `cargo test --release --test puzzles -- --ignored`.
#[test]
#[ignore = "regenerates every set (minutes)"]
fn generated_sets_are_regenerated_by_their_header_commands() {
    let dir = std::env::temp_dir().join(format!("ransom-regenerate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, _) in GENERATED {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let shipped = std::fs::read_to_string(&path).unwrap();
        let command = shipped
            .lines()
            .next()
            .unwrap()
            .trim_start_matches("# ransom ");
        let out = dir.join(name);
        let mut args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        let at = args.iter().position(|a| a == "--out").unwrap();
        args[at + 1] = out.display().to_string();
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_ransom"))
            .args(&args)
            .arg("-q")
            .status()
            .unwrap();
        assert!(status.success(), "{name}");
        let body = |t: &str| -> Vec<String> { t.lines().skip(1).map(str::to_string).collect() };
        assert_eq!(
            body(&std::fs::read_to_string(&out).unwrap()),
            body(&shipped),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
