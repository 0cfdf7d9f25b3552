//! A puzzle set's file (`puzzles generate --out`): the options that name
//! it, its header, its lines (EPD or JSON lines), and resuming one written
//! with the same options.

use super::{MineOptions, Miner};
use crate::Variant;
use crate::search::mate::{Puzzle, PuzzleReadError, read_puzzles};
use crate::store::StoreError;
use std::path::{Path, PathBuf};

/// Why a puzzle set cannot be made, resumed or read.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleSetError {
    /// A length that is not `N` or `A..B`.
    #[error("bad length '{0}' (expected N or A..B)")]
    Length(String),
    /// Neither `--mate` nor `--win`.
    #[error("give --mate N (or --win N for Losing chess)")]
    NoLength,
    /// `--win` outside Losing chess.
    #[error("--win is for Losing chess (antichess, suicide); use --mate")]
    WinNotLosing,
    /// The output file was written with other options.
    #[error(
        "{} exists but was not written by `{identity}` (first line: {first}); remove it or change --out",
        path.display()
    )]
    OtherOptions {
        /// The file.
        path: PathBuf,
        /// The options of this run.
        identity: String,
        /// The file's first line.
        first: String,
    },
    /// A puzzle of the file names no game.
    #[error("{}: id '{id}' names no game", path.display())]
    NoGame {
        /// The file.
        path: PathBuf,
        /// The puzzle's id.
        id: String,
    },
    /// The file cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line of the file is not a puzzle.
    #[error("{}: {error}", path.display())]
    Puzzle {
        /// The file.
        path: PathBuf,
        /// Why.
        error: PuzzleReadError,
    },
    /// The variant of a file cannot be told.
    #[error("{}: cannot tell the variant; give --variant", .0.display())]
    UnknownVariant(PathBuf),
    /// Writing the file.
    #[error(transparent)]
    Write(#[from] StoreError),
}

/// `N` or `A..B`: the shortest and longest length.
pub fn parse_lengths(text: &str) -> Result<(u16, u16), PuzzleSetError> {
    let bad = || PuzzleSetError::Length(text.to_string());
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// The game a mined puzzle was taken from: the `N` of its id's `-gN`.
pub fn game_of(id: &str) -> Option<u64> {
    id.rsplit_once("-g")?.1.parse().ok()
}

/// Whether a puzzle file is JSON lines (by its extension); else EPD.
pub fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "jsonl" || e == "json")
}

/// The default solver budget per position of `puzzles generate`.
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// The options that decide which puzzles a set holds (all but how many).
#[derive(Clone, Debug)]
pub struct SetSpec {
    /// The variant.
    pub variant: Variant,
    /// Forced wins (Losing chess) rather than mates.
    pub win: bool,
    /// The length as given (`N` or `A..B`).
    pub lengths: String,
    /// The playing policy's seed.
    pub seed: u64,
    /// Solver budget per position.
    pub max_nodes: u64,
}

impl SetSpec {
    /// The spec of `--mate`/`--win` as given, checked.
    pub fn new(
        variant: Variant,
        mate: Option<&str>,
        win: Option<&str>,
        seed: u64,
        max_nodes: u64,
    ) -> Result<SetSpec, PuzzleSetError> {
        let (win, lengths) = match (mate, win) {
            (Some(m), None) => (false, m),
            (None, Some(w)) => (true, w),
            _ => return Err(PuzzleSetError::NoLength),
        };
        if win && !variant.is_losing() {
            return Err(PuzzleSetError::WinNotLosing);
        }
        parse_lengths(lengths)?;
        Ok(SetSpec {
            variant,
            win,
            lengths: lengths.to_string(),
            seed,
            max_nodes,
        })
    }

    /// The command that makes this set, without `--count` and `--out`: a
    /// file's first line names it, and a run resumes only a file it names.
    pub fn identity(&self) -> String {
        let flag = if self.win { "win" } else { "mate" };
        let mut identity = format!(
            "ransom puzzles generate --variant {} --{flag} {} --seed {}",
            self.variant.name(),
            self.lengths,
            self.seed
        );
        if self.max_nodes != DEFAULT_MAX_NODES {
            identity += &format!(" --max-nodes {}", self.max_nodes);
        }
        identity
    }

    /// The spec named by a set file's header (the first line of `text`, an
    /// EPD comment or the JSON header that [`SetSpec::header`] writes);
    /// `None` for a file not written by `puzzles generate`.
    pub fn from_header(text: &str) -> Option<SetSpec> {
        let first = text.lines().next()?;
        let command = match serde_json::from_str::<serde_json::Value>(first) {
            Ok(header) => header.get("generator")?.as_str()?.to_string(),
            Err(_) => first.strip_prefix('#')?.trim().to_string(),
        };
        let words: Vec<&str> = command
            .strip_prefix("ransom puzzles generate ")?
            .split_whitespace()
            .collect();
        let value = |flag: &str| {
            let at = words.iter().position(|w| *w == flag)?;
            words.get(at + 1).copied()
        };
        let variant = value("--variant")?.parse().ok()?;
        let seed = value("--seed")?.parse().ok()?;
        let max_nodes = match value("--max-nodes") {
            Some(n) => n.parse().ok()?,
            None => DEFAULT_MAX_NODES,
        };
        SetSpec::new(variant, value("--mate"), value("--win"), seed, max_nodes).ok()
    }

    /// The whole command, with `count` and `out`.
    pub fn command(&self, count: usize, out: Option<&Path>) -> String {
        match out {
            Some(out) => format!(
                "{} --count {count} --out {}",
                self.identity(),
                out.display()
            ),
            None => format!("{} --count {count}", self.identity()),
        }
    }

    /// The miner of this set.
    pub fn miner(&self) -> Miner {
        let (min_length, max_length) = parse_lengths(&self.lengths).unwrap_or((1, 1));
        let tag = if self.win { "w" } else { "m" };
        Miner::new(MineOptions {
            min_length,
            max_length,
            seed: self.seed,
            max_nodes: self.max_nodes,
            id_prefix: format!(
                "{}-{tag}{}-s{}",
                self.variant.name(),
                self.lengths,
                self.seed
            )
            .replace("..", "-"),
        })
    }

    /// The file's header (one line of JSON, or EPD comment lines).
    pub fn header(&self, count: usize, out: Option<&Path>, json: bool) -> String {
        let command = self.command(count, out);
        if json {
            serde_json::json!({
                "generator": command,
                "variant": self.variant.name(),
                "note": "unique key, shortest solution proved, solution tree verified; check with ransom puzzles verify",
            })
            .to_string()
        } else {
            format!(
                "# {command}\n# {} puzzles ({}): unique key, shortest solution proved, solution tree verified.\n# Check with: ransom puzzles verify FILE",
                self.variant.name(),
                if self.win {
                    format!("forced win in {}", self.lengths)
                } else {
                    format!("mate in {}", self.lengths)
                },
            )
        }
    }

    /// A puzzle's line in the file.
    pub fn line(&self, puzzle: &Puzzle, json: bool) -> String {
        if json {
            let mut p = puzzle.clone();
            p.variant = Some(self.variant.name().to_string());
            p.to_json()
        } else {
            puzzle.to_epd()
        }
    }

    /// The puzzles of the file `out` if it exists (written by this spec,
    /// else an error), at most `count`, each remembered by `miner`, and
    /// the game to go on from.
    pub fn resume(
        &self,
        out: &Path,
        miner: &mut Miner,
        count: usize,
    ) -> Result<(Vec<Puzzle>, u64), PuzzleSetError> {
        if !out.exists() {
            return Ok((Vec::new(), 0));
        }
        let text = std::fs::read_to_string(out).map_err(|error| PuzzleSetError::Read {
            path: out.to_path_buf(),
            error,
        })?;
        let first = text.lines().next().unwrap_or("");
        let identity = self.identity();
        if !first.contains(&format!("{identity} --count ")) {
            return Err(PuzzleSetError::OtherOptions {
                path: out.to_path_buf(),
                identity,
                first: first.to_string(),
            });
        }
        let mut found = read_puzzles(&text).map_err(|error| PuzzleSetError::Puzzle {
            path: out.to_path_buf(),
            error,
        })?;
        let mut next_game = 0;
        for p in &found {
            miner.remember(p);
            let game = game_of(&p.id).ok_or_else(|| PuzzleSetError::NoGame {
                path: out.to_path_buf(),
                id: p.id.clone(),
            })?;
            next_game = u64::max(next_game, game + 1);
        }
        found.truncate(count);
        Ok((found, next_game))
    }

    /// Writes `out` afresh (atomically): the header and `found`.
    pub fn rewrite(
        &self,
        out: &Path,
        count: usize,
        found: &[Puzzle],
    ) -> Result<(), PuzzleSetError> {
        let json = is_json(out);
        let mut text = self.header(count, Some(out), json) + "\n";
        for p in found {
            text += &self.line(p, json);
            text.push('\n');
        }
        crate::store::write_atomically(out, text.as_bytes())?;
        Ok(())
    }
}
