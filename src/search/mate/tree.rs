//! The solution tree users read: the key, every defence (longest
//! resistance first) and the attacker's replies, with depth-to-mate labels;
//! as indented text or JSON.

use super::solution::MateSolution;
use crate::board::Color;
use crate::notation::{san, uci};
use crate::position::Position;
use serde::Serialize;
use std::fmt::Write as _;

/// One move of the solution tree.
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    /// The move in UCI.
    pub uci: String,
    /// The move in the variant's SAN, with `+`/`#`.
    pub san: String,
    /// The side that plays it.
    pub by: &'static str,
    /// On the attacker's moves: mate follows within this many attacker
    /// moves, this one included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate_in: Option<u16>,
    /// The moves that follow (one for the attacker, every legal one for
    /// the defender).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<TreeNode>,
    /// Set where the tree was cut off at the size limit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// The tree under a root, cut off after `limit` moves.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionTree {
    /// The moves from the root (the key, when the attacker moves first).
    pub moves: Vec<TreeNode>,
    /// Moves shown.
    pub shown: usize,
    /// Whether some lines were cut off.
    pub truncated: bool,
}

/// Expands `solution` from `root` into a tree of at most `limit` moves.
pub fn build_tree<P: Position>(
    root: &P,
    attacker: Color,
    solution: &MateSolution,
    limit: usize,
) -> SolutionTree {
    let mut builder = Builder {
        attacker,
        solution,
        limit,
        shown: 0,
        truncated: false,
    };
    let moves = builder.expand(root);
    SolutionTree {
        moves,
        shown: builder.shown,
        truncated: builder.truncated,
    }
}

struct Builder<'s> {
    attacker: Color,
    solution: &'s MateSolution,
    limit: usize,
    shown: usize,
    truncated: bool,
}

impl Builder<'_> {
    fn expand<P: Position>(&mut self, pos: &P) -> Vec<TreeNode> {
        if pos.outcome().is_some() {
            return Vec::new();
        }
        let attacker_moves = pos.turn() == self.attacker;
        let mut moves: Vec<_> = if attacker_moves {
            self.solution
                .get(pos.zobrist())
                .into_iter()
                .map(|(mv, label)| (mv, Some(label)))
                .collect()
        } else {
            pos.legal_moves().into_iter().map(|mv| (mv, None)).collect()
        };
        if !attacker_moves {
            // Longest resistance first: by the label of the attacker's reply.
            moves.sort_by_key(|&(mv, _)| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                std::cmp::Reverse(
                    self.solution
                        .get(child.zobrist())
                        .map_or(0, |(_, label)| label),
                )
            });
        }
        let mut nodes = Vec::with_capacity(moves.len());
        for (mv, mate_in) in moves {
            if self.shown >= self.limit {
                self.truncated = true;
                if let Some(last) = nodes.last_mut() {
                    let last: &mut TreeNode = last;
                    last.truncated = true;
                }
                break;
            }
            self.shown += 1;
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let next = self.expand(&child);
            nodes.push(TreeNode {
                uci: uci::write(mv),
                san: san::write_plus(pos, mv),
                by: pos.turn().name(),
                mate_in,
                next,
                truncated: false,
            });
        }
        nodes
    }
}

impl SolutionTree {
    /// Indented text: one move per line, the attacker's with their labels.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for node in &self.moves {
            write_node(&mut out, node, 0);
        }
        if self.truncated {
            let _ = writeln!(
                out,
                "… (tree cut off after {} moves; raise --tree-limit)",
                self.shown
            );
        }
        out
    }
}

fn write_node(out: &mut String, node: &TreeNode, depth: usize) {
    write_node_after(out, node, depth, "");
}

/// Writes `node` after `earlier`, the sub-moves before it in the same turn
/// (Hit-and-Run): a turn's sub-moves share a line (`Nd6,Nf7#`), as in the
/// main line, instead of the second looking like a reply.
fn write_node_after(out: &mut String, node: &TreeNode, depth: usize, earlier: &str) {
    let text = format!("{earlier}{}", node.san);
    if !node.next.is_empty() && node.next.iter().all(|next| next.by == node.by) {
        let earlier = format!("{text},");
        for next in &node.next {
            write_node_after(out, next, depth, &earlier);
        }
        if node.truncated {
            let _ = writeln!(out, "{}…", "  ".repeat(depth));
        }
        return;
    }
    let indent = "  ".repeat(depth);
    match node.mate_in {
        Some(n) => {
            let _ = writeln!(out, "{indent}{text} {{mate in {n}}}");
        }
        None => {
            let _ = writeln!(out, "{indent}{text}");
        }
    }
    for next in &node.next {
        write_node(out, next, depth + 1);
    }
    if node.truncated {
        let _ = writeln!(out, "{indent}…");
    }
}

/// The main line of a solution with the longest defence measured on the
/// solution itself: at each defence the reply after which the solution
/// needs the most attacker moves (turns) to finish, the first such reply
/// in generator order. The labels are upper bounds; measured this way the
/// line takes exactly the solution's length when that is the shortest mate.
pub fn longest_line<P: Position>(
    root: &P,
    attacker: Color,
    solution: &MateSolution,
) -> Vec<crate::moves::Move> {
    let mut memo = hashbrown::HashMap::new();
    let mut line = Vec::new();
    let mut pos = root.clone();
    while pos.outcome().is_none() {
        let next = if pos.turn() == attacker {
            solution.get(pos.zobrist()).map(|(mv, _)| mv)
        } else {
            let mut best: Option<(u16, crate::moves::Move)> = None;
            for mv in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let depth = solution_depth(&child, attacker, solution, &mut memo);
                if best.is_none_or(|(d, _)| depth > d) {
                    best = Some((depth, mv));
                }
            }
            best.map(|(_, mv)| mv)
        };
        let Some(mv) = next else { break };
        line.push(mv);
        pos.play_unchecked(mv);
    }
    line
}

/// Attacker moves (turns) the solution needs from `pos` against the
/// longest defence; `u16::MAX` where the solution has no move.
fn solution_depth<P: Position>(
    pos: &P,
    attacker: Color,
    solution: &MateSolution,
    memo: &mut hashbrown::HashMap<u64, u16>,
) -> u16 {
    let hash = pos.zobrist();
    if let Some(&d) = memo.get(&hash) {
        return d;
    }
    let depth = if pos.outcome().is_some() {
        0
    } else if pos.turn() == attacker {
        match solution.get(hash) {
            None => u16::MAX,
            Some((mv, _)) => {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let ends_turn = u16::from(child.turn() != attacker);
                solution_depth(&child, attacker, solution, memo).saturating_add(ends_turn)
            }
        }
    } else {
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                solution_depth(&child, attacker, solution, memo)
            })
            .max()
            .unwrap_or(0)
    };
    memo.insert(hash, depth);
    depth
}

/// A line of moves from `root` in SAN with `+`/`#`, separated by spaces,
/// the sub-moves of one turn (Hit-and-Run) joined by commas (`e4,Nf3`),
/// and a turn the opponent passes (`kamikaze2`) shown as `--`.
pub fn line_san<P: Position>(root: &P, moves: &[crate::moves::Move]) -> String {
    let mut text = String::new();
    let mut pos = root.clone();
    let mut last_mover = None;
    for &mv in moves {
        if let Some(mover) = last_mover {
            if pos.is_mid_turn() {
                text.push(',');
            } else if mover == pos.turn() {
                text.push_str(" -- ");
            } else {
                text.push(' ');
            }
        }
        last_mover = Some(pos.turn());
        text.push_str(&san::write_plus(&pos, mv));
        pos.play_unchecked(mv);
    }
    text
}
