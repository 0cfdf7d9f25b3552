//! Move ordering: the transposition table's move first, then captures by
//! the victim's value (the cheapest capturer first), promotions, the two
//! killer moves of the ply, and quiet moves by their history score.

use super::eval::MATERIAL;
use crate::board::Color;
use crate::moves::{Move, encode};

const TABLE_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
/// History scores are kept below this (halved when one reaches it).
const HISTORY_MAX: i32 = 1 << 20;

/// Killer moves per ply and history scores per side and move code.
pub struct Heuristics {
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
}

impl Heuristics {
    /// Empty heuristics for searches up to `max_ply` plies.
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[u32::MAX; 2]; max_ply + 1],
            history: vec![0; 2 << 16],
        }
    }

    /// `moves` sorted best first for a node at `ply` where the table
    /// suggests `table_move` (a code plus one, 0 for none).
    pub fn order(&self, moves: &[Move], table_move: u32, ply: usize, side: Color) -> Vec<Move> {
        let killers = self.killers.get(ply).copied().unwrap_or([u32::MAX; 2]);
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let code = encode(m);
                let score = if code + 1 == table_move {
                    TABLE_MOVE
                } else if let Some(victim) = m.capture() {
                    CAPTURE + 16 * MATERIAL[victim.index()].max(100) - m.role().index() as i32
                } else if let Some(role) = m.promotion() {
                    PROMOTION + MATERIAL[role.index()]
                } else if code == killers[0] {
                    KILLER + 1
                } else if code == killers[1] {
                    KILLER
                } else {
                    self.history[history_index(side, code)]
                };
                (score, m)
            })
            .collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        scored.into_iter().map(|(_, m)| m).collect()
    }

    /// Records that quiet move `m` cut off the search at `ply`, `depth`
    /// plies from the horizon.
    pub fn cut_off(&mut self, m: Move, ply: usize, depth: i32, side: Color) {
        let code = encode(m);
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != code
        {
            killers[1] = killers[0];
            killers[0] = code;
        }
        let slot = &mut self.history[history_index(side, code)];
        *slot += depth * depth;
        if *slot >= HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }
}

fn history_index(side: Color, code: u32) -> usize {
    side.index() << 16 | (code as usize & 0xffff)
}

/// Whether `m` is searched in quiescence: it captures or promotes.
pub fn is_noisy(m: Move) -> bool {
    m.is_capture() || m.promotion().is_some()
}
