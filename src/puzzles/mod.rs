//! Puzzle mining (`ransom puzzles generate`): games played by a seeded,
//! capture- and check-biased random policy; the positions near their end
//! are solved, and a position is kept when its shortest forced mate (in
//! Losing chess: forced win) has the requested length, a unique key and a
//! verified solution tree, and it is no near-duplicate of one kept before.
//! Kept puzzles get themes and a difficulty band from the solver's effort.
//!
//! Every game is played from its own seed (`seed` and the game's number),
//! at most one puzzle is taken from a game, and the solver runs on a node
//! budget only, so the same options give the same puzzles in the same
//! order, and a run can resume after its last puzzle's game.

mod export;
mod game;
mod set_check;
mod set_file;

pub use export::{ExportError, ExportFormat, Exported, LICHESS_CSV_HEADER, export_set};
pub use game::{MAX_PLIES, PlayedGame};

pub use set_check::{PuzzleFile, SetCheck, SetStatistics, check_set};
pub use set_file::{DEFAULT_MAX_NODES, PuzzleSetError, SetSpec, game_of, is_json, parse_lengths};

use crate::board::{Bitboard, Color, attacks};
use crate::moves::Move;
use crate::position::{OutcomeKind, Position};
use crate::search::Budget;
use crate::search::mate::{MateOptions, MateStatus, Puzzle, solve_mate};
use crate::variants::Hostage;
use hashbrown::HashSet;
use std::any::Any;

/// What to mine.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// Shortest accepted mate length (attacker moves or turns).
    pub min_length: u16,
    /// Longest accepted mate length.
    pub max_length: u16,
    /// The seed of the playing policy.
    pub seed: u64,
    /// Node budget of the solver per position.
    pub max_nodes: u64,
    /// The id of puzzle from game `g` is `{id_prefix}-g{g}`.
    pub id_prefix: String,
}

/// Node counts at which the difficulty band changes (easy below the
/// first, hard from the second on).
pub const DIFFICULTY_NODES: [u64; 2] = [2_000, 30_000];

/// The difficulty band of a puzzle the solver proved (length, uniqueness
/// and tree) with `nodes` nodes.
pub fn difficulty(nodes: u64) -> &'static str {
    if nodes < DIFFICULTY_NODES[0] {
        "easy"
    } else if nodes < DIFFICULTY_NODES[1] {
        "medium"
    } else {
        "hard"
    }
}

/// A small seeded generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` and `stream` (e.g. a game number).
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = Rng(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The playing policy: a random legal move, captures weighted 4 (plus the
/// captured man's value), checks 4, promotions 3, other moves 1.
pub fn policy_move<P: Position>(pos: &P, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let weights: Vec<u64> = moves
        .iter()
        .map(|&m| {
            let mut w = 1;
            if let Some(role) = m.capture() {
                w += 3 + u64::from(crate::variants::hostage::value(role));
            }
            if matches!(
                m,
                Move::Normal {
                    promotion: Some(_),
                    ..
                }
            ) {
                w += 2;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if child.turn() != pos.turn() && child.is_check() {
                w += 3;
            }
            w
        })
        .collect();
    let mut pick = rng.below(weights.iter().sum());
    for (&m, &w) in moves.iter().zip(&weights) {
        if pick < w {
            return Some(m);
        }
        pick -= w;
    }
    moves.last().copied()
}

/// Mines puzzles: remembers what was kept to reject near-duplicates.
#[derive(Debug)]
pub struct Miner {
    options: MineOptions,
    positions: HashSet<String>,
    patterns: HashSet<String>,
}

impl Miner {
    /// A miner with nothing kept yet.
    pub fn new(options: MineOptions) -> Miner {
        Miner {
            options,
            positions: HashSet::new(),
            patterns: HashSet::new(),
        }
    }

    /// Records a puzzle kept earlier (when resuming), so that no
    /// near-duplicate of it is kept again. Returns false if it already is one.
    pub fn remember(&mut self, puzzle: &Puzzle) -> bool {
        let position = canonical_position(&puzzle.fen);
        let pattern = key_pattern(puzzle);
        let new_position = self.positions.insert(position);
        let new_pattern = self.patterns.insert(pattern);
        new_position && new_pattern
    }

    /// Plays game number `game` and returns the puzzle taken from it, if
    /// any: the positions at the start of a turn, from the end of the game
    /// backwards, are solved until one qualifies.
    pub fn mine_game<P: Position + Any>(&mut self, game: u64) -> Option<Puzzle> {
        let PlayedGame {
            history,
            turn_starts,
            stalled,
            ..
        } = PlayedGame::<P>::play(self.options.seed, game);
        if stalled {
            return None;
        }
        let window = 4 * usize::from(self.options.max_length) + 6;
        for &ply in turn_starts.iter().rev().take(window) {
            let candidate = &history[ply];
            if candidate.outcome().is_some() || ply < 4 {
                continue;
            }
            if let Some(puzzle) = self.try_position(candidate, game) {
                return Some(puzzle);
            }
        }
        None
    }

    /// Solves one position; the puzzle if it qualifies and is new.
    pub fn try_position<P: Position + Any>(&mut self, pos: &P, game: u64) -> Option<Puzzle> {
        let options = MateOptions {
            max: self.options.max_length,
            all_keys: true,
            budget: Budget {
                max_nodes: self.options.max_nodes,
                max_time: None,
                hash_bytes: 256 << 20,
                stop: None,
            },
            threads: 1,
        };
        let report = solve_mate(pos, &options, &mut |_| {});
        let length = report.length?;
        if report.status != MateStatus::Mate
            || !report.shortest
            || length < self.options.min_length
            || report.keys.len() != 1
            || !report.notes.is_empty()
        {
            return None;
        }
        let id = format!("{}-g{game}", self.options.id_prefix);
        let mut puzzle = Puzzle::from_report(pos, &id, &report, true)?;
        let solution = report.solution.as_ref()?;
        let line = crate::search::mate::longest_line(pos, pos.turn(), solution);
        puzzle.themes = themes(pos, &line);
        puzzle.difficulty = Some(difficulty(report.nodes).to_string());
        puzzle.nodes = Some(report.nodes);
        if !self.remember(&puzzle) {
            return None;
        }
        Some(puzzle)
    }
}

/// The position up to symmetry: the side to move made White (colours
/// swapped, board turned), and without castling rights the board or its
/// mirror image, whichever sorts first. Move counters are ignored.
pub fn canonical_position(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (placement, holdings) = match fields[0].split_once('[') {
        Some((board, rest)) => (board, rest.trim_end_matches(']')),
        None => (fields[0], ""),
    };
    let mut ranks: Vec<Vec<String>> = placement.split('/').map(expand_rank).collect();
    let mut holdings = holdings.to_string();
    let mut turn = fields.get(1).copied().unwrap_or("w").to_string();
    let mut castling = fields.get(2).copied().unwrap_or("-").to_string();
    if turn == "b" {
        ranks.reverse();
        for rank in &mut ranks {
            for man in rank.iter_mut() {
                *man = swap_case(man);
            }
        }
        holdings = swap_case(&holdings);
        castling = swap_case(&castling);
        turn = "w".to_string();
    }
    let sorted = |h: &str| -> String {
        h.split('#')
            .map(|part| {
                let mut c: Vec<char> = part.chars().collect();
                c.sort_unstable();
                c.into_iter().collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("#")
    };
    let text = |ranks: &[Vec<String>]| {
        let board: Vec<String> = ranks.iter().map(|r| r.concat()).collect();
        format!(
            "{}[{}] {turn} {castling}",
            board.join("/"),
            sorted(&holdings)
        )
    };
    let plain = text(&ranks);
    if castling != "-" {
        return plain;
    }
    let mirrored: Vec<Vec<String>> = ranks
        .iter()
        .map(|r| r.iter().rev().cloned().collect())
        .collect();
    plain.min(text(&mirrored))
}

/// A FEN rank as its eight squares (`.` for empty, a man with its `~`).
fn expand_rank(rank: &str) -> Vec<String> {
    let mut squares: Vec<String> = Vec::new();
    for c in rank.chars() {
        if let Some(n) = c.to_digit(10) {
            squares.extend((0..n).map(|_| ".".to_string()));
        } else if c == '~' {
            if let Some(last) = squares.last_mut() {
                last.push('~');
            }
        } else {
            squares.push(c.to_string());
        }
    }
    squares
}

fn swap_case(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The key pattern: the material (men and holdings, up to colours) and the
/// solution's main line. Two puzzles with both equal differ only in men
/// that play no part.
pub fn key_pattern(puzzle: &Puzzle) -> String {
    let canonical = canonical_position(&puzzle.fen);
    let mut material: Vec<char> = canonical
        .split(' ')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic() || *c == '#')
        .collect();
    material.sort_unstable();
    let line: String = puzzle
        .pv
        .chars()
        .filter(|c| !c.is_ascii_digit() && !"abcdefgh".contains(*c))
        .collect();
    format!(
        "{}|{}|{line}",
        material.into_iter().collect::<String>(),
        puzzle.keys.join(" ")
    )
}

/// The themes of a solution whose main line is `line` from `root`.
pub fn themes<P: Position + Any>(root: &P, line: &[Move]) -> Vec<String> {
    let mut tags: Vec<&str> = Vec::new();
    let hostage = (root as &dyn Any).is::<Hostage>();
    let attacker = root.turn();
    let Some(&key) = line.first() else {
        return Vec::new();
    };
    // The key's turn (two sub-moves in Hit-and-Run).
    let mut pos = root.clone();
    let mut key_turn = Vec::new();
    for &m in line {
        if pos.turn() != attacker {
            break;
        }
        key_turn.push(m);
        pos.play_unchecked(m);
    }
    let after_key = pos.clone();
    let checks = after_key.turn() != attacker && after_key.is_check();
    let captures = key_turn.iter().any(|&m| m.is_capture());
    match key {
        Move::Drop { .. } if hostage => tags.push("airfield-drop"),
        Move::Drop { .. } => tags.push("drop"),
        Move::Exchange { .. } => tags.push("exchange-drop"),
        Move::Normal {
            promotion: Some(_), ..
        } if hostage => tags.push("promotion-by-swap"),
        Move::Normal {
            promotion: Some(_), ..
        } => tags.push("promotion"),
        Move::Castle { .. } => tags.push("castling"),
        _ => {}
    }
    if checks {
        tags.push("check");
    } else if captures {
        tags.push("capture");
    } else {
        tags.push("quiet-key");
    }
    if key_turn.len() > 1 {
        if key_turn.iter().filter(|&&m| m.is_capture()).count() > 1 {
            tags.push("double-capture");
        }
        if key_turn[1].from() == Some(key_turn[0].to()) {
            tags.push("one-man-twice");
        }
    }
    let last = *key_turn.last().unwrap_or(&key);
    if after_key.outcome().is_none()
        && after_key
            .legal_moves()
            .iter()
            .any(|&m| m.is_capture() && m.to() == last.to())
    {
        tags.push("sacrifice");
    }
    // Along the main line: frozen pawns (Hostage), the final blow.
    let mut pos = root.clone();
    let mut frozen_change = false;
    let mut pseudo_check = false;
    let mut last_attacker_move = key;
    for &m in line {
        if pos.turn() == attacker {
            last_attacker_move = m;
        }
        let before = frozen(&pos);
        if let Some(b) = before {
            pseudo_check |= gives_pseudo_check(&pos, b);
        }
        pos.play_unchecked(m);
        if let (Some(b), Some(a)) = (before, frozen(&pos)) {
            for c in Color::ALL {
                let pawns = pos.board().by_piece(crate::board::Piece {
                    color: c,
                    role: crate::board::Role::Pawn,
                });
                if ((b[c.index()] ^ a[c.index()]) & pawns).0 != 0 {
                    frozen_change = true;
                }
            }
        }
    }
    if frozen_change {
        tags.push("frozen-pawn");
    }
    if pseudo_check {
        tags.push("pseudo-check");
    }
    match pos.outcome().map(|o| o.kind) {
        Some(OutcomeKind::Checkmate) => {
            if matches!(
                last_attacker_move,
                Move::Drop { .. } | Move::Exchange { .. }
            ) {
                tags.push("mate-by-drop");
            }
            if smothered(&pos) {
                tags.push("smothered-mate");
            }
        }
        Some(_) if !P::ROYAL_KING => {
            if pos.board().by_color(attacker).0 == 0 {
                tags.push("win-by-losing-all-men");
            } else {
                tags.push("win-by-stalemate");
            }
        }
        _ => {}
    }
    if line.iter().any(|&m| matches!(m, Move::Drop { .. })) && !tags.contains(&"drop") && !hostage {
        tags.push("drops");
    }
    tags.into_iter().map(str::to_string).collect()
}

/// In Hostage chess: each side's frozen pawns (White, Black).
fn frozen<P: Position + Any>(pos: &P) -> Option<[Bitboard; 2]> {
    let h = (pos as &dyn Any).downcast_ref::<Hostage>()?;
    Some([h.frozen_pawns(Color::White), h.frozen_pawns(Color::Black)])
}

/// A frozen pawn attacks the enemy king (a check that is no check, RULES H7).
fn gives_pseudo_check<P: Position>(pos: &P, frozen: [Bitboard; 2]) -> bool {
    Color::ALL.into_iter().any(|c| {
        let Some(king) = pos.board().king_of(c.other()) else {
            return false;
        };
        let mut hit = false;
        for sq in crate::board::Square::all() {
            if frozen[c.index()].contains(sq) && attacks::pawn_attacks(c, sq).contains(king) {
                hit = true;
            }
        }
        hit
    })
}

/// The mated king's neighbours are all occupied by his own men.
fn smothered<P: Position>(pos: &P) -> bool {
    let loser = pos.turn();
    let Some(king) = pos.board().king_of(loser) else {
        return false;
    };
    let around = attacks::king_attacks(king);
    (around & !pos.board().by_color(loser)).0 == 0
}
