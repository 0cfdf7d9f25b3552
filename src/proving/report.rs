//! What a prove run reports: one type, serialized for `--json` and written
//! as text for the terminal.

use crate::search::Pn;
use crate::search::guide::{Guide, NoWin, Numbers, Sums, Ties};
use crate::solved::SolvedStore;
use crate::text::{counted, human_bytes};
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// The report of `prove` on one line ([`super::prove_line`]).
#[derive(Clone, Debug, Serialize)]
pub struct LineReport {
    /// The variant's name.
    pub variant: &'static str,
    /// The searched position.
    pub fen: String,
    /// Whether the side to move is in check.
    pub check: bool,
    /// How the game ended at the position, if it did.
    pub outcome: Option<&'static str>,
    /// How the position was reached ("antichess after e2e4 b7b5").
    #[serde(skip)]
    pub reached: String,
    /// "win", "loss" (for the side to move) or "unknown".
    pub result: &'static str,
    /// The winner, if proved.
    pub winner: Option<&'static str>,
    /// The winner's first move (UCI), where the side to move wins.
    pub best: Option<String>,
    /// The same in SAN.
    #[serde(skip)]
    pub best_san: Option<String>,
    /// Positions of the verified proof.
    pub proof_positions: Option<u64>,
    /// Winner moves of the verified proof.
    #[serde(skip)]
    pub proof_winner_moves: Option<u64>,
    /// Its longest line, in plies.
    pub proof_depth: Option<u32>,
    /// Whether the verifier checked a proof.
    pub verified: bool,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Positions the tables settled.
    pub tablebase_hits: u64,
    /// Whether tables were at the leaves.
    pub tablebases: bool,
    /// Milliseconds of this run.
    pub time_ms: u64,
    /// Seconds of this run.
    #[serde(skip)]
    pub seconds: f64,
    /// Threads searching leaves.
    pub threads: usize,
    /// Nodes of one leaf search.
    pub leaf_nodes: u64,
    /// What steered the search.
    pub guide: GuideReport,
    /// Leaf searches, earlier runs included.
    pub leaf_searches: u64,
    /// Nodes of the outer tree at the end.
    pub outer_nodes: usize,
    /// The root's proof number.
    pub root_pn: u32,
    /// The root's disproof number.
    pub root_dn: u32,
    /// Whether a checkpoint was resumed.
    pub resumed: bool,
    /// Nodes of earlier runs of the same search.
    pub earlier_nodes: u64,
    /// Nodes of every run.
    pub total_nodes: u64,
    /// The store.
    #[serde(flatten)]
    pub store: StoreReport,
    /// The checkpoint to resume from, if the search is unfinished.
    pub checkpoint: Option<String>,
    /// The proof file written.
    pub proof_file: Option<String>,
    /// Notes for the user.
    pub notes: Vec<String>,
}

/// The store as a run left it.
#[derive(Clone, Debug, Serialize)]
pub struct StoreReport {
    /// The store's folder (`None`: in memory).
    #[serde(rename = "store")]
    pub dir: Option<String>,
    /// Positions when the run began.
    #[serde(rename = "store_began_with")]
    pub began_with: usize,
    /// Positions now.
    #[serde(rename = "store_positions")]
    pub positions: usize,
    /// Records added.
    #[serde(rename = "store_added")]
    pub added: u64,
    /// Bytes on disk.
    #[serde(rename = "store_bytes")]
    pub bytes: u64,
    /// Whether the run compacted it.
    #[serde(rename = "store_compacted")]
    pub compacted: bool,
}

impl StoreReport {
    /// `store` now.
    pub fn of(store: &SolvedStore, compacted: bool) -> StoreReport {
        StoreReport {
            dir: store.dir().map(|d| d.display().to_string()),
            began_with: store.began_with(),
            positions: store.len(),
            added: store.added(),
            bytes: store.disk_bytes(),
            compacted,
        }
    }
}

/// What steered a search (`"guide"` in the JSON).
#[derive(Clone, Debug, Serialize)]
pub struct GuideReport {
    /// `"mobility"` or `{"eval": {"scale", "spread"}}`.
    pub numbers: serde_json::Value,
    /// `"first"` or `"larger-other"`.
    pub ties: &'static str,
    /// The engine's ordering of the attacker's moves, if on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_order: Option<EngineOrderReport>,
    /// The book, if one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<BookReport>,
    /// Likely values in the outer tree, if on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub likely: Option<LikelyReport>,
    /// `"switch"`, `"weak"`, `"plain"` or `"snda"`.
    pub sums: &'static str,
    /// With `"switch"`: the nodes without a new lowest root proof number
    /// that make the switch to plain sums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums_switch_after: Option<u64>,
    /// `"off"` or `"bishops"`.
    pub no_win: &'static str,
    /// Deep numbers' `D`, if on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deep: Option<u32>,
}

/// `--likely-threshold` as used.
#[derive(Clone, Debug, Serialize)]
pub struct LikelyReport {
    /// The starting threshold, in centipawns.
    pub threshold: i32,
    /// Nodes of the engine search scoring each fresh outer node.
    pub nodes: u64,
}

/// `--engine-order` as used.
#[derive(Clone, Debug, Serialize)]
pub struct EngineOrderReport {
    /// Moves tried first.
    pub moves: u32,
    /// Nodes of the engine search choosing them.
    pub nodes: u64,
    /// How much the others are deferred.
    pub defer: u32,
}

/// The book as read.
#[derive(Clone, Debug, Serialize)]
pub struct BookReport {
    /// The file.
    pub file: String,
    /// Positions with suggestions.
    pub positions: usize,
    /// Suggested moves.
    pub suggestions: usize,
    /// How much the other moves are deferred.
    pub defer: u32,
}

impl GuideReport {
    /// The report of `guide`, whose book was read from `book`.
    pub fn of(guide: &Guide, book: Option<&Path>) -> GuideReport {
        GuideReport {
            numbers: match guide.numbers {
                Numbers::Mobility => "mobility".into(),
                Numbers::Evaluation { scale, spread } => {
                    serde_json::json!({"eval": {"scale": scale, "spread": spread}})
                }
            },
            ties: match guide.ties {
                Ties::First => "first",
                Ties::LargerOther => "larger-other",
            },
            engine_order: (guide.engine_moves > 0).then_some(EngineOrderReport {
                moves: guide.engine_moves,
                nodes: guide.engine_nodes,
                defer: guide.book_defer,
            }),
            book: guide.book.as_ref().zip(book).map(|(b, path)| BookReport {
                file: path.display().to_string(),
                positions: b.positions(),
                suggestions: b.suggestions(),
                defer: guide.book_defer,
            }),
            likely: guide.likely.map(|l| LikelyReport {
                threshold: l.threshold,
                nodes: l.nodes,
            }),
            sums: match guide.sums {
                Sums::Weak => "weak",
                Sums::Plain => "plain",
                Sums::SourceNodes => "snda",
                Sums::Switch { .. } => "switch",
            },
            sums_switch_after: match guide.sums {
                Sums::Switch { after } => Some(after),
                _ => None,
            },
            no_win: match guide.no_win {
                NoWin::Off => "off",
                NoWin::Bishops => "bishops",
            },
            deep: (guide.deep > 0).then_some(guide.deep),
        }
    }
}

impl fmt::Display for LineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "position: {}  [{}]", self.fen, self.reached)?;
        match self.winner {
            Some(w) if self.result != "unknown" => writeln!(
                f,
                "result: {} for the side to move: {w} wins (proved and verified)",
                self.result
            )?,
            _ => writeln!(f, "result: unknown")?,
        }
        if let (Some(u), Some(s)) = (&self.best, &self.best_san) {
            writeln!(f, "best: {s} ({u})")?;
        }
        if let (Some(positions), Some(moves), Some(depth)) = (
            self.proof_positions,
            self.proof_winner_moves,
            self.proof_depth,
        ) {
            writeln!(
                f,
                "proof: {}, {}, longest line {}",
                counted(positions, "position", "positions"),
                counted(moves, "winner move", "winner moves"),
                counted(depth, "ply", "plies")
            )?;
        }
        writeln!(
            f,
            "nodes: {}, time: {:.3} s ({:.0} nodes/s)",
            self.nodes,
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9)
        )?;
        if self.tablebases {
            writeln!(f, "tablebase hits: {}", self.tablebase_hits)?;
        }
        let plural = |n: u64, many: &'static str| if n == 1 { "" } else { many };
        writeln!(
            f,
            "search: {} leaf search{} of up to {} nodes on {} thread{}, outer tree {} nodes, root pn {} dn {}",
            self.leaf_searches,
            plural(self.leaf_searches, "es"),
            self.leaf_nodes,
            self.threads,
            plural(self.threads as u64, "s"),
            self.outer_nodes,
            Pn::from_raw(self.root_pn),
            Pn::from_raw(self.root_dn)
        )?;
        if self.resumed {
            writeln!(
                f,
                "resumed: {} nodes in earlier runs, {} in all",
                self.earlier_nodes, self.total_nodes
            )?;
        }
        if let Some(dir) = &self.store.dir {
            writeln!(
                f,
                "store: {dir} began with {} positions, now {} ({} records added, {} on disk{})",
                self.store.began_with,
                self.store.positions,
                self.store.added,
                human_bytes(self.store.bytes),
                if self.store.compacted {
                    ", compacted"
                } else {
                    ""
                }
            )?;
        }
        if let Some(path) = &self.proof_file {
            writeln!(f, "proof file: {path}")?;
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        Ok(())
    }
}

/// A running search's status as one line: JSON for `--progress-json`,
/// text for the terminal.
#[derive(Clone, Debug, Serialize)]
pub struct StatusLine {
    /// Seconds since the run started.
    pub elapsed_s: f64,
    /// The side whose win is being proved.
    pub attacker: &'static str,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Nodes of earlier runs of the same search.
    pub earlier_nodes: u64,
    /// Nodes a second.
    pub nodes_per_s: f64,
    /// The root's proof number.
    pub root_pn: u32,
    /// The root's disproof number.
    pub root_dn: u32,
    /// Nodes of the outer tree.
    pub outer_nodes: usize,
    /// Leaf searches so far.
    pub leaf_searches: u64,
    /// Positions the store held when it was opened.
    pub store_began_with: usize,
    /// Positions it holds now.
    pub store_positions: usize,
    /// Records this run added.
    pub store_added: u64,
    /// Bytes of the store on disk.
    pub store_bytes: u64,
    /// Whether the search resumed from a checkpoint.
    pub resumed: bool,
}

impl StatusLine {
    /// The line of `s`.
    pub fn of(s: &crate::search::scale::ScaleStatus) -> StatusLine {
        StatusLine {
            elapsed_s: s.elapsed.as_secs_f64(),
            attacker: s.attacker.name(),
            nodes: s.nodes,
            earlier_nodes: s.earlier_nodes,
            nodes_per_s: s.nodes as f64 / s.elapsed.as_secs_f64().max(1e-9),
            root_pn: s.root_pn.get(),
            root_dn: s.root_dn.get(),
            outer_nodes: s.outer_nodes,
            leaf_searches: s.leaf_searches,
            store_began_with: s.store_began_with,
            store_positions: s.store_positions,
            store_added: s.store_added,
            store_bytes: s.store_bytes,
            resumed: s.resumed,
        }
    }
}

impl fmt::Display for StatusLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>7.1}s  {} win?  {} nodes  {:.0} nodes/s  root pn {} dn {}  outer tree {}  store {} positions (began with {}, +{} records) {}",
            self.elapsed_s,
            self.attacker,
            self.nodes,
            self.nodes_per_s,
            Pn::from_raw(self.root_pn),
            Pn::from_raw(self.root_dn),
            self.outer_nodes,
            self.store_positions,
            self.store_began_with,
            self.store_added,
            human_bytes(self.store_bytes)
        )
    }
}
