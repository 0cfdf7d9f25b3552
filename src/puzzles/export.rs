//! A puzzle set in the formats puzzle tools load (`puzzles export`):
//! Lichess's puzzle CSV and EPD with the operations python-chess and
//! variant-puzzle tools read.
//!
//! Lichess's CSV starts a puzzle one move early: `FEN` is the position
//! before the opponent's last move and `Moves` begins with that move, then
//! the solution. A mined puzzle's last move is found by playing its game
//! again from the set's header (seed and game number); a puzzle with no
//! game behind it (hand-made suites) is left out of the CSV, with the
//! reason, and kept by the EPD export.

use super::{PlayedGame, PuzzleFile, SetSpec, game_of};
use crate::Variant;
use crate::moves::Move;
use crate::notation::{fen, parse_move, uci};
use crate::position::Position;
use crate::search::mate::Puzzle;

/// The columns of Lichess's puzzle CSV, in its order.
pub const LICHESS_CSV_HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// The formats of `puzzles export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// Lichess's puzzle CSV.
    LichessCsv,
    /// EPD: four FEN fields, then `variant`, `bm`, `pv`, `dm`, `eval`,
    /// `type`, `hmvc`, `fmvn`, `id`, `c0`, strings quoted as python-chess
    /// reads them.
    Epd,
}

/// A set written in an export format.
#[derive(Clone, Debug, Default)]
pub struct Exported {
    /// The file's text.
    pub text: String,
    /// Puzzles written.
    pub written: usize,
    /// Puzzles left out, each with its id and why.
    pub left_out: Vec<(String, String)>,
}

/// Why a set cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A puzzle's position or main line does not read.
    #[error("puzzle '{id}': {reason}")]
    Puzzle {
        /// The puzzle's id.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// Lichess's CSV has one move a turn.
    #[error(
        "Lichess's puzzle CSV has one move a turn; a {0} turn has two: export it as EPD (--format epd)"
    )]
    TwoMoveTurns(&'static str),
}

/// `file` written as `format` (what `puzzles export` writes); the file's
/// `puzzles generate` header ([`PuzzleFile::generator`]) finds the last
/// move of mined puzzles.
pub fn export_set(file: &PuzzleFile, format: ExportFormat) -> Result<Exported, ExportError> {
    let spec = file.generator.as_ref();
    crate::for_variant!(file.variant, export_in(&file.puzzles, spec, format))
}

fn export_in<P: Position>(
    puzzles: &[Puzzle],
    spec: Option<&SetSpec>,
    format: ExportFormat,
) -> Result<Exported, ExportError> {
    let mut exported = Exported::default();
    if format == ExportFormat::LichessCsv {
        if P::VARIANT == Variant::HitAndRun || P::VARIANT == Variant::HitAndRunSimultaneous {
            return Err(ExportError::TwoMoveTurns(P::VARIANT.name()));
        }
        exported.text = format!("{LICHESS_CSV_HEADER}\n");
    }
    let spec = spec.filter(|s| s.variant == P::VARIANT);
    for puzzle in puzzles {
        let pos: P = fen::parse_position(&puzzle.fen).map_err(|e| ExportError::Puzzle {
            id: puzzle.id.clone(),
            reason: format!("bad FEN: {e}"),
        })?;
        // Read in both formats: a main line that does not play is an error
        // in either (python-chess would refuse the EPD's `pv`).
        let line = main_line(&pos, puzzle)?;
        let row = match format {
            ExportFormat::Epd => Some(epd_line(&pos, puzzle)),
            ExportFormat::LichessCsv => match last_move(&pos, puzzle, spec) {
                Ok((before, last)) => Some(csv_row(&before, last, &line, puzzle)),
                Err(reason) => {
                    exported.left_out.push((puzzle.id.clone(), reason));
                    None
                }
            },
        };
        if let Some(row) = row {
            exported.text += &row;
            exported.text.push('\n');
            exported.written += 1;
        }
    }
    Ok(exported)
}

/// The puzzle's main line (`pv`, SAN; Hit-and-Run sub-moves joined by
/// commas) as moves.
fn main_line<P: Position>(pos: &P, puzzle: &Puzzle) -> Result<Vec<Move>, ExportError> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    for text in puzzle
        .pv
        .split([' ', ','])
        .filter(|t| !t.is_empty() && *t != "--")
    {
        let m = parse_move(&pos, text).map_err(|e| ExportError::Puzzle {
            id: puzzle.id.clone(),
            reason: format!("main line move '{text}': {e}"),
        })?;
        pos.play_unchecked(m);
        line.push(m);
    }
    Ok(line)
}

/// The position before the puzzle's (`pos`) and the move played there,
/// from the game its id names (`…-g{N}`) replayed from the set's seed.
fn last_move<P: Position>(
    pos: &P,
    puzzle: &Puzzle,
    spec: Option<&SetSpec>,
) -> Result<(P, Move), String> {
    let spec = spec.ok_or("not mined from a game (no `puzzles generate` header): no last move")?;
    let game = game_of(&puzzle.id).ok_or("its id names no game: no last move")?;
    let played = PlayedGame::<P>::play(spec.seed, game);
    // The position, not its move clocks (a set edited by hand or written
    // by another tool may count otherwise).
    let target = fen::write(pos);
    let target = fen::without_clocks(&target);
    let ply = played
        .turn_starts
        .iter()
        .copied()
        .find(|&ply| fen::without_clocks(&fen::write(&played.history[ply])) == target)
        .ok_or_else(|| format!("game {game} of seed {} never reaches it", spec.seed))?;
    match played.turn_before(ply) {
        Some((before, [last])) => Ok((before.clone(), *last)),
        _ => Err("no single move leads to it".into()),
    }
}

/// A Lichess CSV row: the FEN before `last`, then `last` and the solution
/// in UCI.
fn csv_row<P: Position>(before: &P, last: Move, line: &[Move], puzzle: &Puzzle) -> String {
    let moves: Vec<String> = std::iter::once(last)
        .chain(line.iter().copied())
        .map(uci::write)
        .collect();
    [
        csv_field(&puzzle.id),
        fen::write(before),
        moves.join(" "),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        csv_field(&lichess_themes::<P>(puzzle).join(" ")),
        String::new(),
        String::new(),
    ]
    .join(",")
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Lichess's themes: `mate` and `mateIn1`…`mateIn5` for a mate (Losing
/// chess: `forcedWin` and `winInN`), then the puzzle's own themes in
/// Lichess's camelCase (`mate-by-drop` → `mateByDrop`).
fn lichess_themes<P: Position>(puzzle: &Puzzle) -> Vec<String> {
    let n = puzzle.length;
    let mut themes = if P::VARIANT.is_losing() {
        vec!["forcedWin".to_string(), format!("winIn{n}")]
    } else if n <= 5 {
        vec!["mate".to_string(), format!("mateIn{n}")]
    } else {
        vec!["mate".to_string()]
    };
    themes.extend(puzzle.themes.iter().map(|t| camel_case(t)));
    themes
}

/// `mate-by-drop` → `mateByDrop`.
fn camel_case(text: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in text.chars() {
        if c == '-' || c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// An EPD line: the four FEN fields, then the operations, strings quoted.
fn epd_line<P: Position>(pos: &P, puzzle: &Puzzle) -> String {
    let full = fen::write(pos);
    let fields: Vec<&str> = full.split_whitespace().collect();
    let board = fields[..fields.len().min(4)].join(" ");
    let counter = |i: usize, default: &str| fields.get(i).copied().unwrap_or(default).to_string();
    let kind = if P::VARIANT.is_losing() {
        "win"
    } else {
        "mate"
    };
    let mut ops = vec![
        format!("variant {}", epd_string(P::VARIANT.name())),
        format!("bm {}", puzzle.keys.join(" ")),
        format!("pv {}", puzzle.pv),
        format!("dm {}", puzzle.length),
        format!("eval {}", epd_string(&format!("#{}", puzzle.length))),
        format!("type {}", epd_string(kind)),
        format!("hmvc {}", counter(4, "0")),
        format!("fmvn {}", counter(5, "1")),
        format!("id {}", epd_string(&puzzle.id)),
    ];
    if !puzzle.themes.is_empty() {
        ops.push(format!("c0 {}", epd_string(&puzzle.themes.join(" "))));
    }
    format!("{board} {};", ops.join("; "))
}

/// A quoted EPD string.
fn epd_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_are_camel_cased() {
        assert_eq!(camel_case("mate-by-drop"), "mateByDrop");
        assert_eq!(camel_case("check"), "check");
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\", y"), "\"say \"\"x\"\", y\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
