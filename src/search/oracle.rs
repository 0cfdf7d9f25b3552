//! Exact knowledge a search may use at its leaves: endgame tablebases.
//!
//! A search that meets a position the oracle covers takes its value as
//! settled instead of searching below it. Proofs stay checkable without
//! trusting the oracle: the proof reader expands every such position into
//! a full subtree by following the oracle's winning steps (the distance to
//! win falls by one each ply; with Syzygy tables the distance to zeroing
//! falls until a capture or pawn move, see [`Oracle::winning_step`]), so the
//! subtree ends in positions the rules score, and the verifier checks that
//! subtree like any other.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::tablebase::{Tablebase, Wdl};
use crate::variants::{Losing, LosingRules};
use std::any::Any;
use std::path::Path;

/// Win/draw/loss and distance to win (plies) of positions for the side to
/// move, where known exactly.
pub trait Oracle<P: Position>: Send + Sync {
    /// The value of `pos` for the side to move, or `None` if not covered.
    fn probe(&self, pos: &P) -> Option<(Wdl, u16)>;

    /// The category of `pos` alone (what a search needs at its leaves),
    /// which an oracle may answer from smaller tables than [`Oracle::probe`].
    fn probe_wdl(&self, pos: &P) -> Option<Wdl> {
        self.probe(pos).map(|(w, _)| w)
    }

    /// A move of the side to move in `pos` (which the oracle says it wins;
    /// `moves` are its legal moves) that keeps the win and makes progress,
    /// so that following such moves ends the game: by default the move to
    /// a position the opponent loses one ply sooner ([`Oracle::probe`]'s
    /// distance to win falls by one each ply), or a move that wins at once.
    /// `None` if no move does (a corrupt table).
    fn winning_step(&self, pos: &P, moves: &MoveList) -> Option<Move> {
        let (_, distance) = self.probe(pos)?;
        moves.iter().copied().find(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let wins_at_once = child
                .outcome()
                .is_some_and(|o| o.winner == Some(pos.turn()));
            wins_at_once || self.probe(&child) == Some((Wdl::Loss, distance.saturating_sub(1)))
        })
    }

    /// Which kind of table answers for `pos` (this project's by default).
    fn kind(&self, _pos: &P) -> OracleKind {
        OracleKind::Tablebase
    }

    /// How often probes found their table block in a cache (none by default).
    fn cache_counts(&self) -> crate::store::CacheCounts {
        crate::store::CacheCounts::default()
    }
}

/// The kind of table an oracle's answer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OracleKind {
    /// This project's tables (`tb build`).
    Tablebase,
    /// Syzygy giveaway tables (`--syzygy`).
    Syzygy,
}

/// A directory of tablebases as an oracle: positions with more men than
/// the largest table are not even looked up.
pub struct TablebaseOracle<R: LosingRules> {
    tables: Tablebase<R>,
    max_men: u32,
    complete_men: u32,
}

impl<R: LosingRules> TablebaseOracle<R> {
    /// The tables of rule set `R` in `dir`; `None` if there are none.
    pub fn open(dir: &Path) -> Option<Self> {
        let found: Vec<crate::tablebase::Material> = crate::tablebase::table_files(dir, R::VARIANT)
            .ok()?
            .iter()
            .filter_map(|name| crate::tablebase::material_of_file(name, R::VARIANT)?.ok())
            .collect();
        let max_men = found.iter().map(|m| m.men() as u32).max()?;
        // The largest n such that every table of 2 to n men is here.
        let complete_men = (2..=max_men as usize)
            .take_while(|&n| {
                crate::tablebase::Material::all_with_men(n)
                    .iter()
                    .all(|m| found.contains(m))
            })
            .last()
            .unwrap_or(0) as u32;
        Some(TablebaseOracle {
            tables: Tablebase::open(dir),
            max_men,
            complete_men,
        })
    }

    /// The largest number of men up to which every table is present (0 if
    /// not even the 2-man set is complete).
    pub fn complete_men(&self) -> u32 {
        self.complete_men
    }

    /// The most men of any table found.
    pub fn max_men(&self) -> u32 {
        self.max_men
    }
}

impl<R: LosingRules> Oracle<Losing<R>> for TablebaseOracle<R> {
    fn probe(&self, pos: &Losing<R>) -> Option<(Wdl, u16)> {
        if pos.board().occupied().count() > self.max_men {
            return None;
        }
        self.tables.probe(pos)
    }

    fn probe_wdl(&self, pos: &Losing<R>) -> Option<Wdl> {
        if pos.board().occupied().count() > self.max_men {
            return None;
        }
        self.tables.probe_wdl(pos)
    }

    fn cache_counts(&self) -> crate::store::CacheCounts {
        self.tables.cache_counts()
    }
}

/// The tablebases in `dir` as an oracle for variant `P`, if `P` is a
/// Losing-chess rule set with tables (`None` for other variants or when
/// `dir` holds no table of that rule set).
pub fn tablebase_oracle<P: Position>(dir: &Path) -> Option<Box<dyn Oracle<P>>> {
    use crate::variants::{Fics, International, Variant};
    let boxed: Box<dyn Any> = match P::VARIANT {
        Variant::Antichess => {
            let oracle: Box<dyn Oracle<Losing<International>>> =
                Box::new(TablebaseOracle::<International>::open(dir)?);
            Box::new(oracle)
        }
        Variant::Suicide => {
            let oracle: Box<dyn Oracle<Losing<Fics>>> =
                Box::new(TablebaseOracle::<Fics>::open(dir)?);
            Box::new(oracle)
        }
        _ => return None,
    };
    boxed.downcast::<Box<dyn Oracle<P>>>().ok().map(|b| *b)
}

/// Whether `attacker` wins `pos` by the oracle (`None`: not covered).
pub(crate) fn attacker_wins<P: Position>(
    oracle: &dyn Oracle<P>,
    pos: &P,
    attacker: crate::board::Color,
) -> Option<bool> {
    let wdl = oracle.probe_wdl(pos)?;
    Some(match wdl {
        Wdl::Win => pos.turn() == attacker,
        Wdl::Loss => pos.turn() != attacker,
        Wdl::Draw => false,
    })
}

/// Writes into `proof` a winning move for `attacker` at every position of
/// the subtree below `pos` (which the oracle says he wins), following the
/// oracle's winning steps; `false` if the oracle contradicts itself (a
/// corrupt table) or its steps come back to a position of their own line,
/// in which case the caller reports "unknown".
pub(crate) fn expand_win<P: Position>(
    oracle: &dyn Oracle<P>,
    pos: &P,
    attacker: crate::board::Color,
    proof: &mut hashbrown::HashMap<u64, Move>,
    done: &mut hashbrown::HashSet<u64>,
) -> bool {
    let mut expansion = Expansion {
        oracle,
        attacker,
        proof,
        done,
        line: hashbrown::HashSet::new(),
    };
    expansion.visit(pos)
}

/// One expansion below a table-settled position: the positions of the
/// line being followed, to refuse a step that comes back to one of them.
struct Expansion<'a, P: Position> {
    oracle: &'a dyn Oracle<P>,
    attacker: crate::board::Color,
    proof: &'a mut hashbrown::HashMap<u64, Move>,
    done: &'a mut hashbrown::HashSet<u64>,
    line: hashbrown::HashSet<u64>,
}

impl<P: Position> Expansion<'_, P> {
    fn visit(&mut self, pos: &P) -> bool {
        let hash = pos.zobrist();
        if self.done.contains(&hash) {
            return true;
        }
        let moves = pos.legal_moves();
        if let Some(outcome) = pos.outcome_given(&moves) {
            return outcome.winner == Some(self.attacker);
        }
        if !self.line.insert(hash) {
            return false;
        }
        let ok = match self.oracle.probe_wdl(pos) {
            Some(Wdl::Win) if pos.turn() == self.attacker => {
                match self.oracle.winning_step(pos, &moves) {
                    Some(mv) => {
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        self.proof.insert(hash, mv);
                        self.visit(&child)
                    }
                    None => false,
                }
            }
            Some(Wdl::Loss) if pos.turn() != self.attacker => moves.iter().all(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                self.visit(&child)
            }),
            _ => false,
        };
        self.line.remove(&hash);
        if ok {
            self.done.insert(hash);
        }
        ok
    }
}
