//! Mate puzzles as records: built from a verified [`MateReport`], written
//! as EPD (`bm`, `dm`, `pv`, `id`, `c0`, `c1`) or JSON lines, read back
//! from either, and proved again ([`check_puzzle`]).

use super::solve::{MateOptions, MateReport, MateStatus, solve_mate};
use super::suite::read_suite;
use super::tree::{line_san, longest_line};
use crate::notation::{fen, parse_move, san};
use crate::position::Position;
use crate::search::budget::Budget;
use serde::{Deserialize, Serialize};

/// One puzzle: a position whose side to move mates (in Losing chess: wins)
/// in `length` moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A name, unique within its file.
    pub id: String,
    /// The variant's name, when known (JSON lines always carry it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The position.
    pub fen: String,
    /// The proven shortest mate length, in the attacker's moves (turns).
    #[serde(rename = "mate")]
    pub length: u16,
    /// The keys in SAN: with `unique`, the one key; else the keys listed.
    pub keys: Vec<String>,
    /// Whether `keys` lists every key (then `unique` means exactly one).
    #[serde(default)]
    pub all_keys: bool,
    /// The main line in SAN (`line_san`), the longest defence at each move.
    pub pv: String,
    /// Positions the solution tree's verifier visited.
    #[serde(default)]
    pub verified_positions: u64,
    /// Themes (short kebab-case tags, e.g. `airfield-drop`, `quiet-key`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub themes: Vec<String>,
    /// The difficulty band (`easy`, `medium`, `hard`), from the solver's effort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    /// Nodes the solver needed (the effort the difficulty is taken from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// A free comment (EPD `c1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

impl Puzzle {
    /// The puzzle of a verified mate in `report`, or `None` without one.
    /// `all_keys` says whether the report lists every key.
    pub fn from_report<P: Position>(
        pos: &P,
        id: &str,
        report: &MateReport,
        all_keys: bool,
    ) -> Option<Puzzle> {
        let (solution, length) = (report.solution.as_ref()?, report.length?);
        Some(Puzzle {
            id: id.to_string(),
            variant: None,
            fen: fen::write(pos),
            length,
            keys: report.keys.iter().map(|&m| san::write(pos, m)).collect(),
            all_keys,
            pv: line_san(pos, &longest_line(pos, pos.turn(), solution)),
            verified_positions: report.verified.map_or(0, |v| v.positions),
            themes: Vec::new(),
            difficulty: None,
            nodes: None,
            comment: None,
        })
    }

    /// Whether the puzzle claims a unique key.
    pub fn unique(&self) -> bool {
        self.all_keys && self.keys.len() == 1
    }

    /// The EPD line: `FEN bm KEYS; dm N; pv LINE; id "ID"; c0 "..."; [c1 "..."]`.
    /// `c0` says whether the key is unique, that the length is the proved
    /// shortest and how many positions the verifier checked, then the
    /// themes and the difficulty if any.
    pub fn to_epd(&self) -> String {
        let uniqueness = match self.keys.len() {
            _ if !self.all_keys => "key uniqueness not checked".to_string(),
            1 => "unique key".to_string(),
            n => format!("{n} keys"),
        };
        let mut c0 = format!(
            "{uniqueness}, shortest proved, {} positions verified",
            self.verified_positions
        );
        if !self.themes.is_empty() {
            c0 += &format!("; themes: {}", self.themes.join(" "));
        }
        if let Some(d) = &self.difficulty {
            c0 += &format!("; difficulty: {d}");
        }
        if let Some(n) = self.nodes {
            c0 += &format!("; nodes: {n}");
        }
        format!(
            "{} bm {}; dm {}; pv {}; id \"{}\"; c0 \"{c0}\";{}",
            self.fen,
            self.keys.join(" "),
            self.length,
            self.pv,
            self.id,
            self.comment
                .as_ref()
                .map_or(String::new(), |c| format!(" c1 \"{c}\";")),
        )
    }

    /// The JSON-lines form (one object, no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a puzzle serializes")
    }
}

/// A puzzle file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct PuzzleReadError {
    /// The line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads the puzzles of an EPD file (as [`Puzzle::to_epd`] writes, or any
/// mate suite with `dm`/`bm #N`) or a JSON-lines file (one object per
/// line; objects without `fen`, such as a header, and `#` lines are
/// skipped). Positions where the side to move is mated are left out.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, PuzzleReadError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.first().is_some_and(|(_, l)| l.starts_with('{')) {
        let mut puzzles = Vec::new();
        for (number, line) in lines {
            let value: serde_json::Value =
                serde_json::from_str(line).map_err(|e| PuzzleReadError {
                    line: number,
                    reason: e.to_string(),
                })?;
            if value.get("fen").is_none() {
                continue;
            }
            puzzles.push(serde_json::from_value(value).map_err(|e| PuzzleReadError {
                line: number,
                reason: e.to_string(),
            })?);
        }
        return Ok(puzzles);
    }
    let cases = read_suite(text).map_err(|e| PuzzleReadError {
        line: e.line,
        reason: e.reason,
    })?;
    let mut puzzles = Vec::new();
    for (case, (_, line)) in cases.into_iter().zip(lines) {
        if case.expected <= 0 || !case.moves.is_empty() {
            continue;
        }
        let c0 = epd_string(line, "c0").unwrap_or_default();
        let field = |name: &str| {
            c0.split("; ")
                .find_map(|part| part.strip_prefix(name))
                .map(str::to_string)
        };
        puzzles.push(Puzzle {
            id: case.id,
            variant: None,
            fen: case.fen,
            length: u16::try_from(case.expected).unwrap_or(u16::MAX),
            keys: epd_operand(line, "bm")
                .map(|bm| {
                    bm.split_whitespace()
                        .filter(|k| !k.starts_with('#'))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            all_keys: c0.starts_with("unique key") || c0.contains(" keys,"),
            pv: epd_operand(line, "pv").unwrap_or_default(),
            verified_positions: c0
                .split(';')
                .next()
                .unwrap_or("")
                .split(", ")
                .find_map(|p| p.trim().strip_suffix(" positions verified"))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
            themes: field("themes: ")
                .map(|t| t.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
            difficulty: field("difficulty: "),
            nodes: field("nodes: ").and_then(|n| n.parse().ok()),
            comment: case.comment,
        });
    }
    Ok(puzzles)
}

/// The operand of EPD operation `name` (up to its `;`), unquoted.
fn epd_operand(line: &str, name: &str) -> Option<String> {
    let at = line.find(&format!(" {name} "))?;
    let rest = &line[at + name.len() + 2..];
    Some(rest.split(';').next()?.trim().to_string())
}

/// The quoted string operand of EPD operation `name`.
fn epd_string(line: &str, name: &str) -> Option<String> {
    let at = line.find(&format!(" {name} \""))?;
    let rest = &line[at + name.len() + 3..];
    Some(rest[..rest.find('"')?].to_string())
}

/// What proving a puzzle again established.
#[derive(Clone, Debug)]
pub struct PuzzleCheck {
    /// The solver's report.
    pub report: MateReport,
    /// Every way the puzzle disagrees with the proof (empty: verified).
    pub failures: Vec<String>,
    /// Whether the budget ended the proof before it could tell whether the
    /// record is right (no answer, the stated length's shortness or the
    /// keys not established); the failures then say what was not. A record
    /// that is wrong whatever the budget (an unreadable FEN, a shorter mate
    /// found) is not cut short.
    pub cut_short: bool,
}

/// Proves a puzzle again: the stated length is the proved shortest mate
/// with a verified solution tree, the stated keys are exactly the keys
/// (a claimed unique key is the only one), and the main line is legal,
/// starts with a key, ends the game won by the attacker and takes the
/// stated number of moves. Keys and main line are checked where the
/// puzzle states them (a hand-made suite's `bm #N` states neither).
pub fn check_puzzle<P: Position>(puzzle: &Puzzle, budget: Budget) -> PuzzleCheck {
    let mut failures = Vec::new();
    let pos: P = match fen::parse_position(&puzzle.fen) {
        Ok(p) => p,
        Err(e) => {
            return PuzzleCheck {
                report: MateReport::unknown(),
                failures: vec![format!("bad FEN: {e}")],
                cut_short: false,
            };
        }
    };
    let options = MateOptions {
        max: puzzle.length,
        all_keys: true,
        budget,
        threads: 1,
    };
    let report = solve_mate(&pos, &options, &mut |_| {});
    let mut cut_short = false;
    match (report.status, report.length) {
        (MateStatus::Mate, Some(n)) if n < puzzle.length => {
            failures.push(format!(
                "shorter solution: mate in {n}, not {}",
                puzzle.length
            ));
        }
        (MateStatus::Mate, Some(_)) if !report.shortest => {
            cut_short = true;
            failures.push(format!(
                "a shorter mate is not ruled out: {}",
                report.notes.join("; ")
            ));
        }
        (MateStatus::Mate, Some(_)) => {}
        (MateStatus::NoMate, _) => failures.push(format!("no mate in {}", puzzle.length)),
        _ => {
            cut_short = true;
            failures.push(format!("unknown: {}", report.notes.join("; ")));
        }
    }
    if report.status == MateStatus::Mate && report.shortest {
        if report.notes.iter().any(|n| n.contains("incomplete")) {
            cut_short = true;
            failures.push(format!(
                "the keys could not all be found: {}",
                report.notes.join("; ")
            ));
        }
        let keys: Vec<String> = report.keys.iter().map(|&m| san::write(&pos, m)).collect();
        let mut stated = puzzle.keys.clone();
        stated.sort();
        let mut found = keys.clone();
        found.sort();
        // A hand-made suite's `bm #N` or `dm N` states no key and no main
        // line; a record that claims its keys are all there ("unique key",
        // "N keys") is checked in full.
        let hand_made = !puzzle.all_keys;
        if puzzle.all_keys && stated != found {
            failures.push(format!(
                "keys: stated {}, proved {} ({})",
                puzzle.keys.join(" "),
                keys.join(" "),
                if keys.len() > 1 {
                    format!("{} keys", keys.len())
                } else {
                    "one key".to_string()
                }
            ));
        } else if hand_made && !stated.is_empty() && !keys.iter().any(|k| stated.contains(k)) {
            failures.push(format!(
                "keys: none of the proved keys {} is stated ({})",
                keys.join(" "),
                puzzle.keys.join(" ")
            ));
        }
        // A hand-made suite may give no main line.
        if !(hand_made && puzzle.pv.trim().is_empty())
            && let Some(e) = line_problem(&pos, puzzle, &keys)
        {
            failures.push(format!("pv: {e}"));
        }
    }
    PuzzleCheck {
        report,
        failures,
        cut_short,
    }
}

/// Plays the main line, which must be legal, start with a key and end in
/// the attacker's win after `length` of its turns; the first thing wrong
/// with it, if any.
fn line_problem<P: Position>(root: &P, puzzle: &Puzzle, keys: &[String]) -> Option<String> {
    let attacker = root.turn();
    let mut pos = root.clone();
    let mut turns = 0u16;
    let mut first = true;
    let mut last_mover = None;
    for text in puzzle.pv.split([' ', ',']).filter(|t| !t.is_empty()) {
        if pos.outcome().is_some() {
            return Some(format!("'{text}' after the game ended"));
        }
        let m = match parse_move(&pos, text) {
            Ok(m) => m,
            Err(e) => return Some(format!("'{text}': {e}")),
        };
        if first && !keys.contains(&san::write(&pos, m)) {
            return Some(format!("starts with {text}, not a key"));
        }
        first = false;
        if pos.turn() == attacker && last_mover != Some(attacker) {
            turns += 1;
        }
        last_mover = Some(pos.turn());
        pos.play_unchecked(m);
    }
    match pos.outcome() {
        Some(o) if o.winner == Some(attacker) && turns == puzzle.length => None,
        Some(o) if o.winner == Some(attacker) => Some(format!(
            "the line takes {turns} moves, not {}",
            puzzle.length
        )),
        _ => Some("the line does not end in a win".to_string()),
    }
}

/// The variant of a puzzle file: the header's `--variant` (in its first
/// lines, as the regenerating command writes it), the puzzles' own
/// `variant`, or the file name's prefix (`hostage-mates.epd`).
pub fn puzzle_file_variant(
    file_name: &str,
    text: &str,
    puzzles: &[Puzzle],
) -> Option<crate::variants::Variant> {
    for line in text.lines().take(5) {
        let mut words = line.split(|c: char| c.is_whitespace() || c == '"');
        while let Some(w) = words.next() {
            if (w == "--variant" || w == "-v")
                && let Some(v) = words.next()
            {
                return v.parse().ok();
            }
        }
    }
    if let Some(v) = puzzles.iter().find_map(|p| p.variant.as_ref()) {
        return v.parse().ok();
    }
    file_name.split(['-', '.']).next()?.parse().ok()
}
