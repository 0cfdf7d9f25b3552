//! Syzygy giveaway tables as a search's oracle (only with the `syzygy`
//! feature). They give win/draw/loss and distance to zeroing, not distance
//! to win: [`Oracle::probe`] answers nothing, and the winning steps that
//! expand a table-settled leaf into a checkable subtree follow the distance
//! to zeroing instead (see [`SyzygyTables`]'s [`Oracle::winning_step`]).

use super::oracle::{Oracle, OracleKind};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::tablebase::Wdl;
use crate::tablebase::syzygy::SyzygyTables;
use crate::variants::{International, Losing};

impl Oracle<Losing<International>> for SyzygyTables {
    /// Syzygy tables hold no distance to win.
    fn probe(&self, _pos: &Losing<International>) -> Option<(Wdl, u16)> {
        None
    }

    /// The category under this project's rules (a cursed win is a win, a
    /// blessed loss a loss); `None` where no table covers `pos`.
    fn probe_wdl(&self, pos: &Losing<International>) -> Option<Wdl> {
        if pos.board().occupied().count() > self.max_men() {
            return None;
        }
        SyzygyTables::probe_wdl(self, pos)
            .ok()
            .map(|w| w.category())
    }

    fn kind(&self, _pos: &Losing<International>) -> OracleKind {
        OracleKind::Syzygy
    }

    /// A move that keeps the win and makes progress: one that wins at once;
    /// else a capture or pawn move after which the opponent loses (the
    /// men and pawn steps left only fall, so a line holds finitely many);
    /// else the quiet move to the position the opponent loses with the
    /// smallest distance to zeroing (which falls until the next capture or
    /// pawn move, whatever the loser plays). Syzygy keeps some distances
    /// to within one ply only, so the distance of `pos` itself is not
    /// compared; should rounding ever lead a line back to a position of
    /// its own, the expansion refuses the line rather than loop.
    fn winning_step(&self, pos: &Losing<International>, moves: &MoveList) -> Option<Move> {
        let mut best: Option<(u32, Move)> = None;
        for &mv in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if let Some(outcome) = child.outcome() {
                if outcome.winner == Some(pos.turn()) {
                    return Some(mv);
                }
                continue;
            }
            // One probe a child: the category after a capture or pawn
            // move, the distance to zeroing (negative: the opponent loses)
            // after a quiet one.
            let rank = if mv.is_zeroing() {
                if Oracle::probe_wdl(self, &child) != Some(Wdl::Loss) {
                    continue;
                }
                0
            } else {
                match self.probe_dtz(&child) {
                    Ok((d, _)) if d < 0 => d.unsigned_abs(),
                    _ => continue,
                }
            };
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }
}
