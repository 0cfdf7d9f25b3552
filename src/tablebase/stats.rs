//! `tb stats`: win/draw/loss counts over every placement of a material.

use super::{Layout, Lookup, Material, MemTable, TbError, Wdl, position_of, table_present};
use crate::board::Color;
use crate::variants::LosingRules;
use rayon::prelude::*;
use std::path::Path;

/// Counts over every placement (men on distinct squares, pawns on ranks
/// 2-7, identical men unordered, no en passant) with each side to move.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Material key.
    pub material: String,
    /// Per side to move (white, black): wins for the side to move.
    pub wins: [u64; 2],
    /// Draws.
    pub draws: [u64; 2],
    /// Losses for the side to move.
    pub losses: [u64; 2],
    /// The longest win in plies: the largest distance of a won or lost
    /// position (a loss in 35 is a win in 35 for the other side).
    pub longest_win: u16,
    /// A position with the longest win (FEN).
    pub longest_fen: String,
    /// The longest win for the side to move (a position with `dtw > 0`).
    pub longest_win_to_move: u16,
    /// The longest loss for the side to move (a position with `dtw < 0`).
    pub longest_loss_to_move: u16,
}

/// [`stats`] of the table of `material` in `dir`, read into memory first
/// (every placement is looked up, in no useful order for a block cache);
/// positions with a capture are valued from the tables beside it.
pub fn stats_in_dir<R: LosingRules>(dir: &Path, material: &Material) -> Result<Stats, TbError> {
    let canonical = material.canonical();
    if !table_present(dir, R::VARIANT, &canonical, false) {
        return Err(TbError::missing(R::VARIANT, dir, &canonical));
    }
    // Positions with a capture go to the tables beside it.
    let rest = super::Tablebase::<R>::open(dir);
    let own = MemTable::load::<R>(dir, &canonical, &rest, false)?;
    stats::<R>(
        material,
        &super::WithOwn {
            own: &own,
            rest: &rest,
        },
    )
}

/// Statistics of one table (`material` as given: White's men first).
pub fn stats<R: LosingRules>(material: &Material, src: &dyn Lookup) -> Result<Stats, TbError> {
    let pieces = material.pieces();
    let n = pieces.len();
    let total = 64u64.pow(n as u32);
    let layout = Layout::new(*material);
    let canon = layout.material();
    let parts = (0..total)
        .into_par_iter()
        .map(|code| -> Result<Stats, TbError> {
            let mut st = Stats::default();
            let mut sqs = [0u8; 8];
            let mut c = code;
            for s in sqs.iter_mut().take(n) {
                *s = (c % 64) as u8;
                c /= 64;
            }
            let mut board = crate::board::Board::empty();
            for i in 0..n {
                let sq = sqs[i];
                if pieces[i].role == crate::board::Role::Pawn && !(8..56).contains(&sq) {
                    return Ok(st);
                }
                if i > 0 && pieces[i] == pieces[i - 1] && sqs[i - 1] >= sq {
                    return Ok(st);
                }
                if sqs[..i].contains(&sq) {
                    return Ok(st);
                }
                board.set(
                    crate::board::Square::new(sq as u32).expect("square"),
                    pieces[i],
                );
            }
            for (t, turn) in Color::ALL.into_iter().enumerate() {
                // A position with a capture is not stored: valued from its
                // captures.
                let v = super::captures::evaluate_board::<R>(&board, turn, src)?;
                if let Some((w, d)) = v.wdl()
                    && w != Wdl::Draw
                    && (d > st.longest_win || st.longest_fen.is_empty())
                {
                    st.longest_win = d;
                    if let Some(p) = position_of::<R>(board, turn) {
                        st.longest_fen = crate::notation::fen::write(&p);
                    }
                }
                match v.wdl() {
                    Some((Wdl::Win, d)) => {
                        st.wins[t] += 1;
                        st.longest_win_to_move = st.longest_win_to_move.max(d);
                    }
                    Some((Wdl::Loss, d)) => {
                        st.losses[t] += 1;
                        st.longest_loss_to_move = st.longest_loss_to_move.max(d);
                    }
                    Some((Wdl::Draw, _)) => st.draws[t] += 1,
                    None => {
                        return Err(TbError::NotCovered(format!(
                            "{canon}: index {} has no value",
                            layout.index(&board, turn)
                        )));
                    }
                }
            }
            Ok(st)
        })
        .try_reduce(Stats::default, |mut a, b| {
            for t in 0..2 {
                a.wins[t] += b.wins[t];
                a.draws[t] += b.draws[t];
                a.losses[t] += b.losses[t];
            }
            a.longest_win_to_move = a.longest_win_to_move.max(b.longest_win_to_move);
            a.longest_loss_to_move = a.longest_loss_to_move.max(b.longest_loss_to_move);
            if b.longest_win > a.longest_win || a.longest_fen.is_empty() {
                a.longest_win = b.longest_win;
                a.longest_fen = b.longest_fen;
            }
            Ok(a)
        })?;
    Ok(Stats {
        material: material.to_string(),
        ..parts
    })
}
