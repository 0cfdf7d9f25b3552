//! The explorer: a position and each of its legal moves with everything
//! known after it — won or lost (by the rules, the tables, a proof or the
//! solved-position store, with the store's proof size and winning reply),
//! no forced win, open in a checkpointed search (with its numbers), or
//! unknown — best first for the side to move, as the lichess tablebase
//! API orders moves.

use super::knowledge::{Category, Knowledge, KnownValue, MoveWindow};
use crate::board::Color;
use crate::moves::Move;
use crate::notation::{san, uci};
use crate::position::Position;
use crate::search::scale::open::{OpenNumbers, OpenSearch};
use std::any::Any;

/// Where a position stands for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win (the tables).
    Draw,
    /// A side is recorded as having no forced win (a search disproved it;
    /// [`Explored::no_forced_win`] says which).
    NoForcedWin,
    /// A checkpointed search holds it open ([`Explored::open`]).
    Open,
    /// Nothing is known.
    Unknown,
}

impl Standing {
    /// The name used in JSON (`win`, `loss`, `draw`, `no-forced-win`,
    /// `open`, `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            Standing::Win => "win",
            Standing::Loss => "loss",
            Standing::Draw => "draw",
            Standing::NoForcedWin => "no-forced-win",
            Standing::Open => "open",
            Standing::Unknown => "unknown",
        }
    }
}

/// What is known about one position.
#[derive(Clone, Debug)]
pub struct Explored {
    /// Where it stands for the side to move.
    pub standing: Standing,
    /// The verdict of the rules, tables, proofs and store.
    pub verdict: KnownValue,
    /// The store's size of the result: the nodes the search spent
    /// settling it (where the store holds it).
    pub size: Option<u64>,
    /// The stored winning move, where the side to move wins by the store.
    pub best: Option<Move>,
    /// The sides the store records as having no forced win.
    pub no_forced_win: Vec<Color>,
    /// The numbers of the checkpointed searches that hold it open.
    pub open: Vec<OpenNumbers>,
}

/// One legal move and what is known after it.
#[derive(Clone, Debug)]
pub struct ExploredMove {
    /// The move.
    pub mv: Move,
    /// In UCI.
    pub uci: String,
    /// In SAN.
    pub san: String,
    /// The position after it.
    pub pos_fen: String,
    /// Whether the mover is still to move after it (a Hit-and-Run first
    /// sub-move).
    pub same_side: bool,
    /// The game is over after the move, and how.
    pub outcome: Option<&'static str>,
    /// What is known after it, for the side to move then.
    pub after: Explored,
    /// The stored winning reply in SAN (where the side to move after it
    /// wins by the store).
    pub best_san: Option<String>,
}

/// A position and its moves, best first.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The position.
    pub position: Explored,
    /// The stored winning move in SAN.
    pub best_san: Option<String>,
    /// How the game ended, if it has.
    pub outcome: Option<&'static str>,
    /// The moves of the window asked for, best first.
    pub moves: Vec<ExploredMove>,
    /// Legal moves in all.
    pub total_moves: usize,
    /// The checkpointed searches of this very position.
    pub searches: Vec<OpenSearch>,
}

/// The position `pos` and the moves of `window`, with what `knowledge`
/// (its tables, proofs and stores) knows after each, best first.
pub fn explore<P: Position + Any>(
    knowledge: &Knowledge,
    pos: &P,
    window: MoveWindow,
) -> Exploration {
    let analysis = knowledge.analyse_window(pos, window);
    let position = explored(knowledge, pos, analysis.verdict, analysis.stored);
    let mut moves: Vec<ExploredMove> = analysis
        .moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m.mv);
            let after = explored(knowledge, &child, m.verdict, m.stored);
            let best_san = after.best.map(|b| san::write(&child, b));
            ExploredMove {
                mv: m.mv,
                uci: m.uci.clone(),
                san: m.san.clone(),
                pos_fen: m.fen.clone(),
                same_side: m.same_side,
                outcome: m.outcome,
                after,
                best_san,
            }
        })
        .collect();
    let mover = pos.turn();
    moves.sort_by_key(|m| choice_key(m, mover));
    let best_san = position.best.map(|b| san::write(pos, b));
    let searches = knowledge
        .stores()
        .map(|s| s.searches_of(pos))
        .unwrap_or_default();
    Exploration {
        position,
        best_san,
        outcome: analysis.outcome,
        moves,
        total_moves: analysis.total_moves,
        searches,
    }
}

/// What is known about `pos`, given its verdict and the store's record
/// of it (looked up once, by the analysis).
fn explored<P: Position + Any>(
    knowledge: &Knowledge,
    pos: &P,
    verdict: KnownValue,
    stored: Option<crate::solved::Solved>,
) -> Explored {
    let open = knowledge
        .stores()
        .map(|s| s.open_numbers(pos))
        .unwrap_or_default();
    let no_forced_win: Vec<Color> = [Color::White, Color::Black]
        .into_iter()
        .filter(|&c| stored.is_some_and(|s| s.no_win(c)))
        .collect();
    let standing = match verdict.category {
        Category::Win => Standing::Win,
        Category::Loss => Standing::Loss,
        Category::Draw => Standing::Draw,
        Category::Unknown if !no_forced_win.is_empty() => Standing::NoForcedWin,
        Category::Unknown if !open.is_empty() => Standing::Open,
        Category::Unknown => Standing::Unknown,
    };
    let best = stored
        .filter(|s| s.is_win())
        .and_then(|s| s.winning_move(&pos.legal_moves()));
    Explored {
        standing,
        size: stored
            .filter(|s| s.is_win() || s.is_loss() || !no_forced_win.is_empty())
            .map(|s| s.size()),
        verdict,
        best,
        no_forced_win,
        open,
    }
}

/// Sort key of a move for `mover`: moves that leave the opponent lost
/// first (smallest proof first), then those where the opponent has no
/// forced win, those a search of the mover's win holds open (smallest
/// proof number first), unknown ones, those a search of the opponent's
/// win holds open, and those the opponent wins last (largest proof first).
fn choice_key(m: &ExploredMove, mover: Color) -> (u8, i64) {
    let after = &m.after;
    // What the mover gets: the standing after the move, seen by the mover.
    let for_mover = match (after.standing, m.same_side) {
        (Standing::Win, false) | (Standing::Loss, true) => Standing::Loss,
        (Standing::Loss, false) | (Standing::Win, true) => Standing::Win,
        (other, _) => other,
    };
    let size = after.size.unwrap_or(0) as i64;
    let dtw = after.verdict.dtw.map_or(0, i64::from);
    match for_mover {
        Standing::Win => (0, if after.size.is_some() { size } else { dtw }),
        Standing::Draw => (1, 0),
        // The opponent, to move after it, has no forced win.
        Standing::NoForcedWin if after.no_forced_win.contains(&!mover) => (1, 0),
        Standing::Open => {
            let ours = after.open.iter().find(|o| o.attacker == mover);
            match ours {
                Some(o) => (2, i64::from(o.pn)),
                None => (4, after.open.first().map_or(0, |o| -i64::from(o.pn))),
            }
        }
        Standing::Unknown | Standing::NoForcedWin => (3, 0),
        Standing::Loss => (5, -(if after.size.is_some() { size } else { dtw })),
    }
}

/// The checkpointed search's frontier lines in SAN from its root.
pub fn frontier_san<P: Position>(root: &P, moves: &[String]) -> Vec<String> {
    let mut now = root.clone();
    let mut out = Vec::new();
    for text in moves {
        let Ok(m) = uci::parse(&now, text) else {
            break;
        };
        out.push(san::write(&now, m));
        now.play_unchecked(m);
    }
    out
}
