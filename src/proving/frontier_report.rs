//! `store frontier LINE`: the open positions of the checkpointed searches
//! of a line that hold their roots back most, with their lines, numbers,
//! men on the board and the engine's view, so that a person can choose
//! what to steer next (`prove --book`).

use crate::analysis::state_json;
use crate::board::Color;
use crate::notation::{fen, san, uci};
use crate::position::Position;
use crate::search::Pn;
use crate::search::engine::Engine;
use crate::search::mate::line_san;
use crate::search::scale::checkpoint;
use crate::search::scale::frontier::{Frontier, engine_view, frontier};
use crate::solved::{CHECKPOINTS_DIR, variant_dir};
use crate::store::StoreError;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a frontier cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum FrontierError {
    /// A checkpoint that does not read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No checkpointed search of the position.
    #[error(
        "no checkpointed search of {fen} in {} (run `ransom prove` on this line with --store {} first; a finished search leaves no checkpoint)",
        dir.display(),
        store.display()
    )]
    NoSearch {
        /// The position.
        fen: String,
        /// The folder of checkpoints.
        dir: PathBuf,
        /// The store.
        store: PathBuf,
    },
}

/// The frontiers of a position's checkpointed searches.
#[derive(Clone, Debug, Serialize)]
pub struct FrontierReport {
    /// The position (`{variant, fen, check, outcome, winner}`).
    #[serde(flatten)]
    pub position: serde_json::Value,
    /// One search a side.
    pub searches: Vec<FrontierSearch>,
}

/// One side's search.
#[derive(Clone, Debug, Serialize)]
pub struct FrontierSearch {
    /// The side whose win is sought.
    pub attacker: &'static str,
    /// The checkpoint.
    pub checkpoint: String,
    /// The root's proof number.
    pub root_pn: u32,
    /// The root's disproof number.
    pub root_dn: u32,
    /// Nodes of the outer tree.
    pub outer_nodes: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Open leaves in all.
    pub open_leaves: usize,
    /// The leaves listed, most holding the root back first.
    pub frontier: Vec<FrontierLeaf>,
}

/// One open leaf.
#[derive(Clone, Debug, Serialize)]
pub struct FrontierLeaf {
    /// Its line from the root (UCI).
    pub line: Vec<String>,
    /// The same in SAN.
    pub san: String,
    /// Its position.
    pub fen: String,
    /// Its proof number.
    pub pn: u32,
    /// Its disproof number.
    pub dn: u32,
    /// How far off the cheapest foreseen proof it lies.
    pub slack: u64,
    /// Men on the board.
    pub men: u32,
    /// The engine's view, for the attacker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<LeafEngine>,
}

/// The engine's view of a leaf.
#[derive(Clone, Debug, Serialize)]
pub struct LeafEngine {
    /// The score for the attacker (UCI form).
    pub score: String,
    /// Its move (UCI).
    pub best: Option<String>,
    /// Its move (SAN).
    #[serde(skip)]
    pub best_san: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The `top` leaves of the checkpointed searches of `root` in `store`
/// (only `attacker`'s, if given), each with an engine search of
/// `engine_nodes` (0: none).
pub fn frontier_report<P: Position>(
    root: &P,
    store: &Path,
    attacker: Option<Color>,
    top: usize,
    engine_nodes: u64,
) -> Result<FrontierReport, FrontierError> {
    let dir = variant_dir(store, P::VARIANT).join(CHECKPOINTS_DIR);
    let sides = match attacker {
        Some(side) => vec![side],
        None => vec![root.turn(), !root.turn()],
    };
    let engine = Engine::new(16 << 20);
    let mut searches = Vec::new();
    for attacker in sides {
        let path = dir.join(checkpoint::file_name(root.zobrist(), attacker));
        let Some((tree, totals)) = checkpoint::load(&path, root, attacker)? else {
            continue;
        };
        let Frontier { open, entries } = frontier(&tree, top);
        let (pn, dn) = tree.root_numbers();
        let leaves = entries
            .iter()
            .map(|e| FrontierLeaf {
                line: e.line.iter().map(|&m| uci::write(m)).collect(),
                san: line_san(root, &e.line),
                fen: fen::write(&e.pos),
                pn: e.numbers.0.get(),
                dn: e.numbers.1.get(),
                slack: e.slack,
                men: e.men,
                engine: (engine_nodes > 0).then(|| {
                    let v = engine_view(&engine, &e.pos, attacker, engine_nodes);
                    LeafEngine {
                        score: v.score.uci(),
                        best: v.best.map(uci::write),
                        best_san: v.best.map(|m| san::write(&e.pos, m)),
                        nodes: v.nodes,
                    }
                }),
            })
            .collect();
        searches.push(FrontierSearch {
            attacker: attacker.name(),
            checkpoint: path.display().to_string(),
            root_pn: pn.get(),
            root_dn: dn.get(),
            outer_nodes: tree.nodes.len(),
            nodes: totals.nodes,
            open_leaves: open,
            frontier: leaves,
        });
    }
    if searches.is_empty() {
        return Err(FrontierError::NoSearch {
            fen: fen::write(root),
            dir,
            store: store.to_path_buf(),
        });
    }
    Ok(FrontierReport {
        position: state_json(root),
        searches,
    })
}

impl fmt::Display for FrontierReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = self.position["fen"].as_str().unwrap_or_default();
        for s in &self.searches {
            writeln!(
                f,
                "{} to prove a win from {fen} ({}): root pn {} dn {}, {} nodes searched, outer tree {} nodes, {} open leaves",
                crate::text::capitalised(s.attacker),
                s.checkpoint,
                Pn::from_raw(s.root_pn),
                Pn::from_raw(s.root_dn),
                s.nodes,
                s.outer_nodes,
                s.open_leaves
            )?;
            writeln!(
                f,
                "  #  slack       pn       dn  men  engine (for {})   line",
                s.attacker
            )?;
            for (i, e) in s.frontier.iter().enumerate() {
                let engine = match &e.engine {
                    Some(v) => format!(
                        "{:>9} {:<7}",
                        v.score,
                        v.best_san.clone().unwrap_or_default()
                    ),
                    None => format!("{:17}", "-"),
                };
                writeln!(
                    f,
                    "{:>3}  {:>5} {:>8} {:>8}  {:>3}  {engine}        {}",
                    i + 1,
                    e.slack,
                    Pn::from_raw(e.pn),
                    Pn::from_raw(e.dn),
                    e.men,
                    e.san
                )?;
            }
        }
        Ok(())
    }
}
