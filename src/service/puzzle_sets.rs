//! [`PuzzleSets`]: the puzzle files of a folder, read once at start, each
//! puzzle proved again the first time it is asked for.

use crate::search::mate::{Puzzle, puzzle_file_variant, read_puzzles};
use crate::variants::Variant;
use std::path::Path;
use std::sync::OnceLock;

/// What proving a puzzle again found: the number of positions of its
/// verified solution, or every way the file's record disagrees with the
/// proof.
pub type PuzzleVerdict = Result<u64, Vec<String>>;

/// One puzzle file.
#[derive(Clone, Debug)]
pub struct PuzzleSet {
    /// The file name without extension (`hostage-mates`).
    pub name: String,
    /// The variant of its positions.
    pub variant: Variant,
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
    /// Each puzzle's verdict, once it has been proved again.
    verdicts: Vec<OnceLock<PuzzleVerdict>>,
}

impl PuzzleSet {
    /// A set whose puzzles have not been proved again yet.
    pub fn new(name: String, variant: Variant, puzzles: Vec<Puzzle>) -> PuzzleSet {
        let verdicts = puzzles.iter().map(|_| OnceLock::new()).collect();
        PuzzleSet {
            name,
            variant,
            puzzles,
            verdicts,
        }
    }

    /// The verdict of puzzle `index`, if it has been proved again.
    pub fn verdict(&self, index: usize) -> Option<&PuzzleVerdict> {
        self.verdicts.get(index)?.get()
    }

    /// Keeps the verdict of puzzle `index` (the first one kept stays).
    pub fn record_verdict(&self, index: usize, verdict: PuzzleVerdict) -> &PuzzleVerdict {
        self.verdicts[index].get_or_init(|| verdict)
    }
}

/// The puzzle sets the service offers, by name.
#[derive(Clone, Debug, Default)]
pub struct PuzzleSets {
    /// The sets, sorted by name.
    pub sets: Vec<PuzzleSet>,
    /// Files that could not be read, with the reason.
    pub errors: Vec<String>,
}

impl PuzzleSets {
    /// Reads every `*.epd` and `*.jsonl` file of `dir` (not its sub-folders).
    pub fn load(dir: &Path) -> PuzzleSets {
        let mut out = PuzzleSets::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return out;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "epd" || x == "jsonl"))
            .collect();
        paths.sort();
        for path in paths {
            let file_name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let result = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    let puzzles = read_puzzles(&text).map_err(|e| e.to_string())?;
                    let variant = puzzle_file_variant(&file_name, &text, &puzzles)
                        .ok_or("cannot tell the variant")?;
                    Ok((variant, puzzles))
                });
            match result {
                Ok((variant, puzzles)) => out.sets.push(PuzzleSet::new(
                    file_name
                        .rsplit_once('.')
                        .map_or(file_name.clone(), |(stem, _)| stem.to_string()),
                    variant,
                    puzzles,
                )),
                Err(e) => out.errors.push(format!("{}: {e}", path.display())),
            }
        }
        out
    }

    /// The set called `name`.
    pub fn get(&self, name: &str) -> Option<&PuzzleSet> {
        self.sets.iter().find(|s| s.name == name)
    }
}
