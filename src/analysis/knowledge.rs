//! [`Knowledge`]: the rules, the endgame tablebases and the stored proofs,
//! asked in that order, for a position and for each of its legal moves.

use super::proofs::ProofIndex;
use super::stores::StoreShelf;
use crate::moves::Move;
use crate::notation::{fen, san, uci};
use crate::position::{Outcome, Position};
use crate::search::leaf_oracle::{Chain, syzygy_oracle};
use crate::search::oracle::{Oracle, OracleKind, TablebaseOracle};
use crate::tablebase::SyzygyError;
use crate::tablebase::Wdl;
use crate::variants::{Fics, International, Losing};
use std::any::Any;
use std::path::Path;
use std::sync::RwLock;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// Nothing is known.
    Unknown,
}

impl Source {
    /// The name used in JSON (`rules`, `tablebase`, `syzygy`, `proof`,
    /// `store`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Tablebase => "tablebase",
            Source::Syzygy => "syzygy",
            Source::Proof => "proof",
            Source::Store => "store",
            Source::None => "none",
        }
    }
}

impl Category {
    /// The lichess-style name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::Loss => "loss",
            Category::Draw => "draw",
            Category::Unknown => "unknown",
        }
    }
}

/// Where a verdict comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over.
    Rules,
    /// An endgame tablebase.
    Tablebase,
    /// A Syzygy giveaway table (`--syzygy`): category only, no distance.
    Syzygy,
    /// A stored proof (verified when it was loaded).
    Proof,
    /// The solved-position store (each result checked when its search
    /// stored it; `ransom store verify` checks them all again).
    Store,
    /// Nothing: the category is unknown.
    None,
}

/// A position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownValue {
    /// Win, loss, draw or unknown.
    pub category: Category,
    /// Distance to the end of the game in plies with best play (tablebases,
    /// and 0 for a finished game); `None` where not known.
    pub dtw: Option<u16>,
    /// Where the verdict comes from.
    pub source: Source,
}

impl KnownValue {
    /// Nothing known.
    pub const UNKNOWN: KnownValue = KnownValue {
        category: Category::Unknown,
        dtw: None,
        source: Source::None,
    };

    /// The signed distance, lichess style: positive for a win, negative for
    /// a loss, `None` for draws and unknown distances.
    pub fn signed_dtw(self) -> Option<i32> {
        let d = i32::from(self.dtw?);
        match self.category {
            Category::Win => Some(d),
            Category::Loss => Some(-d),
            _ => None,
        }
    }

    /// Sort key for the side choosing a move whose child has this verdict
    /// (opponent to move): the opponent's quickest loss first, then unknown,
    /// draws, and the opponent's longest win last.
    fn choice_key(self) -> (u8, i32) {
        let d = i32::from(self.dtw.unwrap_or(u16::MAX / 2));
        match self.category {
            Category::Loss => (0, d),
            Category::Unknown => (1, 0),
            Category::Draw => (2, 0),
            Category::Win => (3, -d),
        }
    }
}

/// One legal move and what is known after it (from the opponent's side).
#[derive(Clone, Debug)]
pub struct MoveVerdict {
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// The position after the move.
    pub fen: String,
    /// The value after the move for the side to move then: the opponent,
    /// except after a Hit-and-Run first sub-move, where the mover moves on.
    pub verdict: KnownValue,
    /// Whether the mover is still to move after it (a Hit-and-Run first
    /// sub-move).
    pub same_side: bool,
    /// The game is over after the move, and how.
    pub outcome: Option<&'static str>,
    /// The move itself.
    pub mv: Move,
    /// The solved-position store's record of the position after it.
    pub stored: Option<crate::solved::Solved>,
}

impl MoveVerdict {
    /// The verdict after the move from the opponent's side (the verdict
    /// itself, or its mirror image when the mover moves again).
    pub fn for_opponent(&self) -> KnownValue {
        if !self.same_side {
            return self.verdict;
        }
        let category = match self.verdict.category {
            Category::Win => Category::Loss,
            Category::Loss => Category::Win,
            other => other,
        };
        KnownValue {
            category,
            ..self.verdict
        }
    }
}

/// A position's verdict and its legal moves, best first.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The value for the side to move.
    pub verdict: KnownValue,
    /// How the game ended, if it has.
    pub outcome: Option<&'static str>,
    /// The legal moves, best first for the side to move (those of the
    /// window asked for, see [`Knowledge::analyse_window`]).
    pub moves: Vec<MoveVerdict>,
    /// How many legal moves the position has in all.
    pub total_moves: usize,
    /// The solved-position store's record of the position, if it has one
    /// (its proof size, the winning move).
    pub stored: Option<crate::solved::Solved>,
}

/// Which legal moves an analysis values: `limit` of them from `offset`, in
/// the generator's order (the whole list when it is shorter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveWindow {
    /// The first move valued (0-based, in the generator's order).
    pub offset: usize,
    /// The most moves valued.
    pub limit: usize,
}

impl MoveWindow {
    /// Every move.
    pub const ALL: MoveWindow = MoveWindow {
        offset: 0,
        limit: usize::MAX,
    };

    /// The indices of the window in a list of `len` moves.
    pub fn range(self, len: usize) -> std::ops::Range<usize> {
        let end = self.offset.saturating_add(self.limit).min(len);
        self.offset.min(end)..end
    }
}

/// What one rule set's tablebases cover: the men up to which every table
/// is present, and the most men of any table (`None`: no tables).
pub type Coverage = Option<(u32, u32)>;

/// Everything known without searching: tablebases of both Losing-chess
/// rule sets (opened from one folder) and an index of stored proofs.
pub struct Knowledge {
    antichess: Option<Box<dyn Oracle<Losing<International>>>>,
    suicide: Option<Box<dyn Oracle<Losing<Fics>>>>,
    /// Per rule set `(antichess, suicide)`: the men up to which every
    /// table is present, and the most men of any table.
    men: (Coverage, Coverage),
    /// The Syzygy folder behind the antichess tables, if any.
    syzygy: Option<std::path::PathBuf>,
    proofs: RwLock<ProofIndex>,
    stores: Option<StoreShelf>,
}

impl Knowledge {
    /// [`Knowledge::new`] with the Syzygy giveaway tables of `syzygy`
    /// behind the antichess tablebases (an error names the folder when
    /// they cannot be used; see [`syzygy_oracle`]).
    pub fn with_syzygy(
        tablebases: Option<&Path>,
        syzygy: Option<&Path>,
        proofs: ProofIndex,
    ) -> Result<Knowledge, SyzygyError> {
        let mut knowledge = Knowledge::new(tablebases, proofs);
        if let Some(dir) = syzygy {
            let second = syzygy_oracle::<Losing<International>>(dir)?;
            knowledge.antichess = Chain::of(knowledge.antichess.take(), Some(second));
            knowledge.syzygy = Some(dir.to_path_buf());
        }
        Ok(knowledge)
    }

    /// The Syzygy folder in use, if any.
    pub fn syzygy_dir(&self) -> Option<&Path> {
        self.syzygy.as_deref()
    }

    /// The tablebases in `tablebases` (if any) and the given proofs.
    pub fn new(tablebases: Option<&Path>, proofs: ProofIndex) -> Knowledge {
        let antichess = tablebases.and_then(TablebaseOracle::<International>::open);
        let suicide = tablebases.and_then(TablebaseOracle::<Fics>::open);
        Knowledge {
            men: (
                antichess.as_ref().map(|t| (t.complete_men(), t.max_men())),
                suicide.as_ref().map(|t| (t.complete_men(), t.max_men())),
            ),
            antichess: antichess.map(|t| Box::new(t) as Box<dyn Oracle<_>>),
            suicide: suicide.map(|t| Box::new(t) as Box<dyn Oracle<_>>),
            syzygy: None,
            proofs: RwLock::new(proofs),
            stores: None,
        }
    }

    /// This knowledge with the solved-position stores of `shelf` asked
    /// after the tables and the proofs.
    pub fn with_stores(mut self, shelf: StoreShelf) -> Knowledge {
        self.stores = Some(shelf);
        self
    }

    /// The solved-position stores asked, if any.
    pub fn stores(&self) -> Option<&StoreShelf> {
        self.stores.as_ref()
    }

    /// What the stores know about `pos`.
    fn stored<P: Position>(&self, pos: &P) -> Option<crate::solved::Solved> {
        self.stores.as_ref()?.lookup(pos)
    }

    /// What the tablebases cover, per rule set `(antichess, suicide)`:
    /// the men up to which every table is present, and the most men of any
    /// table (`None`: no tables of that rule set).
    pub fn tablebase_men(&self) -> (Coverage, Coverage) {
        self.men
    }

    /// The tables' block-cache counts, both rule sets summed.
    pub fn table_cache_counts(&self) -> crate::store::CacheCounts {
        let anti = self.antichess.as_ref().map(|t| t.cache_counts());
        let sui = self.suicide.as_ref().map(|t| t.cache_counts());
        anti.unwrap_or_default() + sui.unwrap_or_default()
    }

    /// Runs `f` on the proof index (read access).
    pub fn with_proofs<T>(&self, f: impl FnOnce(&ProofIndex) -> T) -> T {
        f(&self.proofs.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Runs `f` on the proof index (write access), e.g. to add a new proof.
    pub fn with_proofs_mut<T>(&self, f: impl FnOnce(&mut ProofIndex) -> T) -> T {
        f(&mut self.proofs.write().unwrap_or_else(|e| e.into_inner()))
    }

    /// The tablebases of variant `P` as an oracle for a search (opened
    /// once, so searches share their readers and block caches), or `None`.
    pub fn oracle<P: Position + Any>(&self) -> Option<&dyn Oracle<P>> {
        let tables: [&dyn Any; 2] = [&self.antichess, &self.suicide];
        tables
            .into_iter()
            .find_map(|t| t.downcast_ref::<Option<Box<dyn Oracle<P>>>>())?
            .as_deref()
    }

    /// The tablebase value of `pos`, if a table covers it.
    pub fn probe<P: Position + Any>(&self, pos: &P) -> Option<(Wdl, u16)> {
        self.oracle::<P>()?.probe(pos)
    }

    /// The value of `pos` for the side to move: the rules if the game is
    /// over, else a tablebase, else a stored proof (the side to move wins
    /// where the proof has its move), else the solved-position store,
    /// else unknown.
    pub fn verdict<P: Position + Any>(&self, pos: &P) -> KnownValue {
        self.verdict_with(
            pos,
            pos.outcome(),
            &self.proofs.read().unwrap_or_else(|e| e.into_inner()),
            self.stored(pos),
        )
    }

    /// The verdict of `pos`, given its outcome and what the store holds
    /// for it (looked up once by the caller, who keeps it).
    fn verdict_with<P: Position + Any>(
        &self,
        pos: &P,
        outcome: Option<Outcome>,
        proofs: &ProofIndex,
        stored: Option<crate::solved::Solved>,
    ) -> KnownValue {
        if let Some(o) = outcome {
            let category = match o.winner {
                Some(w) if w == pos.turn() => Category::Win,
                Some(_) => Category::Loss,
                None => Category::Draw,
            };
            return KnownValue {
                category,
                dtw: Some(0),
                source: Source::Rules,
            };
        }
        let category_of = |wdl: Wdl| match wdl {
            Wdl::Win => Category::Win,
            Wdl::Loss => Category::Loss,
            Wdl::Draw => Category::Draw,
        };
        if let Some((wdl, d)) = self.probe(pos) {
            return KnownValue {
                category: category_of(wdl),
                dtw: (wdl != Wdl::Draw).then_some(d),
                source: Source::Tablebase,
            };
        }
        // A category without a distance: Syzygy tables, or tables built
        // with `tb build --wdl-only`.
        if let Some(oracle) = self.oracle::<P>()
            && let Some(wdl) = oracle.probe_wdl(pos)
        {
            return KnownValue {
                category: category_of(wdl),
                dtw: None,
                source: match oracle.kind(pos) {
                    OracleKind::Syzygy => Source::Syzygy,
                    OracleKind::Tablebase => Source::Tablebase,
                },
            };
        }
        if proofs.winning_move(pos).is_some() {
            return KnownValue {
                category: Category::Win,
                dtw: None,
                source: Source::Proof,
            };
        }
        if let Some(stored) = stored {
            let category = if stored.is_win() {
                Category::Win
            } else if stored.is_loss() {
                Category::Loss
            } else {
                Category::Unknown
            };
            if category != Category::Unknown {
                return KnownValue {
                    category,
                    dtw: None,
                    source: Source::Store,
                };
            }
        }
        KnownValue::UNKNOWN
    }

    /// The verdict of `pos` and of every legal move, best first.
    ///
    /// A position a stored proof wins for the side to move lists the
    /// proof's move as a loss for the opponent. A position nothing knows
    /// directly is a win when some move leaves the opponent lost, and a loss
    /// when every move leaves the opponent won (by the rules, a tablebase or
    /// a proof), with the distance when the moves' distances are known. A
    /// finished game lists no moves.
    pub fn analyse<P: Position + Any>(&self, pos: &P) -> Analysis {
        self.analyse_window(pos, MoveWindow::ALL)
    }

    /// [`Knowledge::analyse`] valuing only the moves of `window` (valuing a
    /// move costs the generation of the moves after it, which in a drop
    /// variant can be a thousand moves each). Without every move, a
    /// position nothing knows directly is only ever derived as a win (a
    /// loss needs every move).
    pub fn analyse_window<P: Position + Any>(&self, pos: &P, window: MoveWindow) -> Analysis {
        let proofs = self.proofs.read().unwrap_or_else(|e| e.into_inner());
        let legal = pos.legal_moves();
        let outcome = pos.outcome_given(&legal);
        let stored = self.stored(pos);
        let mut verdict = self.verdict_with(pos, outcome, &proofs, stored);
        if outcome.is_some() {
            // The game is over: no move is played any more.
            return Analysis {
                verdict,
                outcome: outcome.map(|o| o.kind.name()),
                moves: Vec::new(),
                total_moves: 0,
                stored,
            };
        }
        let range = window.range(legal.len());
        let complete = range == (0..legal.len());
        let proof_move = match verdict.source {
            Source::Proof => proofs.winning_move(pos),
            Source::Store => stored.and_then(|s| s.winning_move(&legal)),
            _ => None,
        };
        let mut moves: Vec<MoveVerdict> = legal[range]
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let child_outcome = child.outcome();
                let same_side = child.turn() == pos.turn();
                let child_stored = self.stored(&child);
                let mut v = self.verdict_with(&child, child_outcome, &proofs, child_stored);
                if Some(m) == proof_move && v.category == Category::Unknown {
                    // The proof's move wins: the opponent loses after it
                    // (or the mover, still to move, wins).
                    v = KnownValue {
                        category: if same_side {
                            Category::Win
                        } else {
                            Category::Loss
                        },
                        dtw: None,
                        source: verdict.source,
                    };
                }
                MoveVerdict {
                    same_side,
                    uci: uci::write(m),
                    san: san::write_in::<P>(&legal, m),
                    fen: fen::write(&child),
                    verdict: v,
                    outcome: child_outcome.map(|o| o.kind.name()),
                    mv: m,
                    stored: child_stored,
                }
            })
            .collect();
        moves.sort_by_key(|m| m.for_opponent().choice_key());
        if verdict.category == Category::Unknown {
            verdict = derived(&moves, complete).unwrap_or(verdict);
        }
        Analysis {
            verdict,
            outcome: None,
            moves,
            total_moves: legal.len(),
            stored,
        }
    }
}

/// The verdict the moves' verdicts imply for a position nothing else
/// knows: a win when some move leaves the opponent lost (the quickest
/// such move's distance plus one), a loss when every move leaves the
/// opponent won (the longest distance plus one), which needs `complete`:
/// every legal move valued. `moves` is sorted best first.
fn derived(moves: &[MoveVerdict], complete: bool) -> Option<KnownValue> {
    let best = moves.first()?;
    let source_of = |chosen: &[&MoveVerdict]| {
        if chosen.iter().all(|m| m.verdict.source == Source::Rules) {
            Source::Rules
        } else if chosen.iter().any(|m| m.verdict.source == Source::Proof) {
            Source::Proof
        } else if chosen.iter().any(|m| m.verdict.source == Source::Store) {
            Source::Store
        } else if chosen.iter().any(|m| m.verdict.source == Source::Syzygy) {
            Source::Syzygy
        } else {
            Source::Tablebase
        }
    };
    if best.for_opponent().category == Category::Loss {
        return Some(KnownValue {
            category: Category::Win,
            dtw: best.verdict.dtw.map(|d| d.saturating_add(1)),
            source: source_of(&[best]),
        });
    }
    if complete
        && moves
            .iter()
            .all(|m| m.for_opponent().category == Category::Win)
    {
        let dtw = moves
            .iter()
            .map(|m| m.verdict.dtw.map(|d| d.saturating_add(1)))
            .collect::<Option<Vec<u16>>>()
            .and_then(|d| d.into_iter().max());
        let all: Vec<&MoveVerdict> = moves.iter().collect();
        return Some(KnownValue {
            category: Category::Loss,
            dtw,
            source: source_of(&all),
        });
    }
    None
}
