//! Perft: counting the leaf nodes of the legal move tree, the standard check
//! of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Number of leaf nodes of the legal move tree `depth` plies deep.
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.decided_before_moving() {
        return 0;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    // Generated into this frame's list: returning a list by value copies it.
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move: `(move, nodes below it)` in generation order.
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || pos.decided_before_moving() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

/// Number of leaf nodes of the legal move tree `turns` whole turns deep: a
/// turn of several sub-moves (Hit-and-Run chess) is one step, and a turn
/// ends when the side to move changes. Equals [`perft`] when every turn is
/// one move.
pub fn perft_turns<P: Position>(pos: &P, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    if pos.decided_before_moving() {
        return 0;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let left = if child.turn() == pos.turn() {
                turns
            } else {
                turns - 1
            };
            perft_turns(&child, left)
        })
        .sum()
}

/// [`divide`] over the threads of the current rayon pool, in plies or, with
/// `turns`, in whole turns ([`perft_turns`]): `(move, nodes below it)` in
/// generation order. A game decided before the side to move moves has no
/// first moves (RULES A5), as in [`perft`].
pub fn divide_parallel<P: Position>(pos: &P, depth: u32, turns: bool) -> Vec<(Move, u64)> {
    use rayon::prelude::*;
    if depth == 0 || pos.decided_before_moving() {
        return Vec::new();
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let nodes = if !turns {
                perft(&child, depth - 1)
            } else if child.turn() == pos.turn() {
                perft_turns(&child, depth)
            } else {
                perft_turns(&child, depth - 1)
            };
            (m, nodes)
        })
        .collect()
}

/// A perft count as `ransom perft` reports it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PerftReport {
    /// Leaves at `depth`.
    pub nodes: u64,
    /// Depth, in plies or turns.
    pub depth: u32,
    /// Whether depth counts whole turns.
    pub turns: bool,
    /// Threads that counted.
    pub threads: usize,
    /// Milliseconds.
    pub time_ms: u64,
    /// The count below each first move (UCI), if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<std::collections::BTreeMap<String, u64>>,
    /// Seconds.
    #[serde(skip)]
    pub seconds: f64,
}

impl PerftReport {
    /// Counts `pos` to `depth` (whole turns with `turns`) on the current
    /// rayon pool; `divide` keeps the count below each first move.
    pub fn count<P: Position>(pos: &P, depth: u32, turns: bool, divide: bool) -> PerftReport {
        let start = std::time::Instant::now();
        let counts: std::collections::BTreeMap<String, u64> = divide_parallel(pos, depth, turns)
            .into_iter()
            .map(|(m, nodes)| (crate::notation::uci::write(m), nodes))
            .collect();
        let nodes = if depth == 0 { 1 } else { counts.values().sum() };
        let elapsed = start.elapsed();
        PerftReport {
            nodes,
            depth,
            turns,
            threads: rayon::current_num_threads(),
            time_ms: elapsed.as_millis() as u64,
            divide: divide.then_some(counts),
            seconds: elapsed.as_secs_f64(),
        }
    }

    /// The speed line: time, million nodes a second, threads.
    pub fn speed(&self) -> String {
        format!(
            "time {:.3} s, {:.1} Mnps on {} thread{}",
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9) / 1e6,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

impl std::fmt::Display for PerftReport {
    /// Stockfish's format: `move: count` lines and a blank line when
    /// divided, then `Nodes searched: N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(divide) = &self.divide {
            for (m, n) in divide {
                writeln!(f, "{m}: {n}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "Nodes searched: {}", self.nodes)
    }
}
