//! `puzzles verify`: every puzzle of a file proved again, and the set's
//! counts by length, theme and difficulty.

use super::set_file::{PuzzleSetError, SetSpec};
use crate::Variant;
use crate::position::Position;
use crate::search::Budget;
use crate::search::mate::{Puzzle, check_puzzle, puzzle_file_variant, read_puzzles};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A puzzle file read: its puzzles and their variant.
pub struct PuzzleFile {
    /// The file.
    pub path: PathBuf,
    /// Its puzzles.
    pub puzzles: Vec<Puzzle>,
    /// Their variant.
    pub variant: Variant,
    /// The options its `puzzles generate` header names, if it has one
    /// (they find the games mined puzzles came from).
    pub generator: Option<SetSpec>,
}

impl PuzzleFile {
    /// Reads `path`; the variant is `variant`, else what the file tells.
    pub fn read(path: &Path, variant: Option<Variant>) -> Result<PuzzleFile, PuzzleSetError> {
        let text = std::fs::read_to_string(path).map_err(|error| PuzzleSetError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let puzzles = read_puzzles(&text).map_err(|error| PuzzleSetError::Puzzle {
            path: path.to_path_buf(),
            error,
        })?;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let variant = variant
            .or_else(|| puzzle_file_variant(name, &text, &puzzles))
            .ok_or_else(|| PuzzleSetError::UnknownVariant(path.to_path_buf()))?;
        Ok(PuzzleFile {
            path: path.to_path_buf(),
            puzzles,
            variant,
            generator: SetSpec::from_header(&text),
        })
    }
}

/// What proving a set again found.
#[derive(Clone, Debug)]
pub struct SetCheck {
    /// The file.
    pub file: String,
    /// The variant.
    pub variant: Variant,
    /// Puzzles checked.
    pub checked: usize,
    /// Puzzles that failed.
    pub failed: usize,
    /// Seconds taken.
    pub seconds: f64,
    /// The counts of the puzzles checked.
    pub statistics: SetStatistics,
}

/// Proves every `every`th puzzle of `file` again within `budget` each;
/// `on_puzzle` is told each puzzle before it is checked and its failures
/// after.
pub fn check_set(
    file: &PuzzleFile,
    every: usize,
    budget: Budget,
    on_puzzle: &mut dyn FnMut(&Puzzle, Option<&[String]>),
) -> SetCheck {
    let start = Instant::now();
    let selected: Vec<&Puzzle> = file.puzzles.iter().step_by(every.max(1)).collect();
    let mut failed = 0;
    for p in &selected {
        on_puzzle(p, None);
        let failures = crate::for_variant!(file.variant, check(p, budget));
        failed += usize::from(!failures.is_empty());
        on_puzzle(p, Some(&failures));
    }
    SetCheck {
        file: file.path.display().to_string(),
        variant: file.variant,
        checked: selected.len(),
        failed,
        seconds: start.elapsed().as_secs_f64(),
        statistics: SetStatistics::of(&selected),
    }
}

fn check<P: Position>(puzzle: &Puzzle, budget: Budget) -> Vec<String> {
    check_puzzle::<P>(puzzle, budget).failures
}

impl fmt::Display for SetCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} of {} puzzles verified, {} failed ({} in {:.1} s)",
            self.file,
            self.checked - self.failed,
            self.checked,
            self.failed,
            self.variant.name(),
            self.seconds
        )?;
        write!(f, "{}", self.statistics)
    }
}

/// Counts of a set by length, theme and difficulty band.
#[derive(Clone, Debug, Default)]
pub struct SetStatistics {
    /// Puzzles by length.
    pub lengths: BTreeMap<u16, usize>,
    /// Puzzles with a unique key.
    pub unique: usize,
    /// Puzzles by theme, most frequent first.
    pub themes: Vec<(String, usize)>,
    /// Puzzles by difficulty band ("unrated" where none is given).
    pub bands: BTreeMap<String, usize>,
}

impl SetStatistics {
    /// The counts of `puzzles`.
    pub fn of(puzzles: &[&Puzzle]) -> SetStatistics {
        let mut stats = SetStatistics::default();
        let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
        for p in puzzles {
            *stats.lengths.entry(p.length).or_default() += 1;
            for t in &p.themes {
                *themes.entry(t).or_default() += 1;
            }
            let band = p.difficulty.as_deref().unwrap_or("unrated");
            *stats.bands.entry(band.to_string()).or_default() += 1;
        }
        stats.themes = themes
            .into_iter()
            .map(|(t, c)| (t.to_string(), c))
            .collect();
        stats
            .themes
            .sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        stats.unique = puzzles.iter().filter(|p| p.unique()).count();
        stats
    }
}

impl fmt::Display for SetStatistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |items: Vec<String>| items.join(", ");
        writeln!(
            f,
            "lengths: {}",
            join(
                self.lengths
                    .iter()
                    .map(|(n, c)| format!("{n}: {c}"))
                    .collect()
            )
        )?;
        writeln!(f, "unique keys: {}", self.unique)?;
        writeln!(
            f,
            "themes: {}",
            join(
                self.themes
                    .iter()
                    .map(|(t, c)| format!("{t} {c}"))
                    .collect()
            )
        )?;
        writeln!(
            f,
            "difficulty: {}",
            join(
                ["easy", "medium", "hard", "unrated"]
                    .iter()
                    .filter_map(|b| self.bands.get(*b).map(|c| format!("{b} {c}")))
                    .collect()
            )
        )
    }
}
