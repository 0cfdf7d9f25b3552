//! Distances of the side a `dtw8s` table does not store (`side.rs`),
//! found by one ply of probes: the position's moves (all quiet: a stored
//! position has no capture) lead to positions of the stored side, or out
//! of the table, valued as any probe values them ([`evaluate`]).
//!
//! Deriving a whole side or a slice first values the positions those
//! moves lead to once each ([`ChildValues`]): a position is reached by
//! many moves, and valuing one with a capture follows its capture chain
//! through smaller tables, which was most of the cost when each move
//! valued its position again.

use super::{
    Layout, Lookup, Material, MemTable, Slice, TbError, Value, Wdl, evaluate, position_of,
    stalemate_value, with_layout,
};
use crate::position::Position;
use crate::variants::{Losing, LosingRules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering};

/// The value of the quiet position at `index` of `material`'s table from
/// its moves, each valued through `src`. `wdl` is its stored category
/// (a draw is returned as it is; for a win only the moves to a loss count).
pub fn derive_value<R: LosingRules>(
    material: &Material,
    index: u64,
    wdl: Wdl,
    src: &dyn Lookup,
) -> Result<Value, TbError> {
    if wdl == Wdl::Draw {
        return Ok(Value::DRAW);
    }
    let decoded = with_layout(*material, |layout| layout.decode_valid(index));
    let pos = decoded
        .and_then(|(board, turn)| position_of::<R>(board, turn))
        .ok_or_else(|| TbError::NoValue(format!("{material}: index {index} is no position")))?;
    derive_position_value(&pos, material, index, wdl, src, None)
}

/// The values of the positions of `region` of a table (the side the
/// derived positions' quiet moves lead to), each valued once, the first
/// time a move leads there, as [`evaluate`] values it (its stored value,
/// or the best of its captures), and kept for the other moves that lead
/// there.
struct ChildValues {
    material: Material,
    layout: Layout,
    region: Slice,
    /// By place in `region`; [`NOT_YET`] until valued.
    values: Vec<AtomicU16>,
}

/// A place of [`ChildValues`] not valued yet (no value is this: it is
/// none of a win's, a loss's, a draw's or [`Value::UNKNOWN`]).
const NOT_YET: u16 = u16::MAX;

impl ChildValues {
    /// Room for the positions of `region` of `material`'s table.
    fn new(material: &Material, region: Slice) -> ChildValues {
        ChildValues {
            material: *material,
            layout: Layout::new(*material),
            region,
            values: (0..region.len())
                .into_par_iter()
                .map(|_| AtomicU16::new(NOT_YET))
                .collect(),
        }
    }

    /// The value of `pos` through `src`, kept, if `pos` is a position of
    /// the region (same material, no en-passant square); `None` if it is
    /// not.
    fn value<R: LosingRules>(
        &self,
        pos: &Losing<R>,
        src: &dyn Lookup,
    ) -> Option<Result<Value, TbError>> {
        if pos.state().ep_square.is_some() || Material::from_board(pos.board()) != self.material {
            return None;
        }
        let slot = self
            .region
            .slot(self.layout.index(pos.board(), pos.turn()))?;
        let kept = &self.values[slot as usize];
        Some(match kept.load(Ordering::Relaxed) {
            NOT_YET => evaluate(pos, src).inspect(|value| kept.store(value.0, Ordering::Relaxed)),
            v => Ok(Value(v)),
        })
    }
}

/// [`derive_value`] of the position `pos` (decoded already from `index`),
/// its moves valued from `children` where it holds them.
fn derive_position_value<R: LosingRules>(
    pos: &Losing<R>,
    material: &Material,
    index: u64,
    wdl: Wdl,
    src: &dyn Lookup,
    children: Option<&ChildValues>,
) -> Result<Value, TbError> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(stalemate_value(pos));
    }
    let mut values = Vec::with_capacity(moves.len());
    // A move to a position without a value is an error, never taken for
    // a draw (which could lengthen a win).
    let missing = || super::captures::not_covered::<R>(pos.board(), pos.turn());
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let value = match children.and_then(|c| c.value(&child, src)) {
            Some(kept) => kept?,
            None => {
                // Out of the table (a promotion), through `src`: where that
                // reads files, a category is one read and a distance may
                // be a derivation, so a win asks the category first.
                if wdl == Wdl::Win {
                    match super::evaluate_wdl::<R>(&child, src)? {
                        Some(Wdl::Loss) => {}
                        // Only a move to a loss can be the winning one.
                        Some(_) => continue,
                        None => return Err(missing()),
                    }
                }
                evaluate(&child, src)?
            }
        };
        if !value.is_known() {
            return Err(missing());
        }
        values.push(value);
    }
    let value = Value::parent_of_best(values);
    match value.wdl() {
        Some((w, _)) if w == wdl => Ok(value),
        _ => Err(TbError::NotCovered(format!(
            "{material}: index {index} is stored as a {} but its moves give {:?} (corrupt table?)",
            wdl.name(),
            value.wdl()
        ))),
    }
}

/// Fills in the values of the side `own` does not store, where its
/// categories (`wdl`) say win or loss, from one ply of probes through
/// `own` and `rest`.
pub fn fill_other_side<R: LosingRules>(
    own: &mut MemTable,
    side_start: u64,
    wdl: &[u8],
    rest: &dyn Lookup,
) -> Result<(), TbError> {
    let side = Slice::half(Layout::new(own.material).size(), side_start);
    let found = {
        let src = super::WithOwn { own: &*own, rest };
        derive_at::<R>(
            &own.material,
            side,
            |i| super::wdl::wdl_of(wdl[i as usize]),
            &src,
            side.other_side(),
        )?
    };
    for (s, v) in found.into_iter().flatten() {
        own.set(side_start + s, v);
    }
    Ok(())
}

/// The values of the quiet positions of `part` of `material`'s table
/// whose category (`wdl_at`) is a win or a loss (of a pawn table's
/// promotion slice, only where a promotion leads:
/// [`Slice::follows_a_promotion`]), from one ply of probes
/// through `src` (which must value the other side to move of `material`
/// exactly), the positions of `leads_to` (where their quiet moves lead)
/// valued once first: `(s, value)` for each such place `s` in `part`, in
/// chunks (not flattened: a whole side of a large table is billions).
pub fn derive_at<R: LosingRules>(
    material: &Material,
    part: Slice,
    wdl_at: impl Fn(u64) -> Option<Wdl> + Sync,
    src: &dyn Lookup,
    leads_to: Slice,
) -> Result<Vec<Vec<(u64, Value)>>, TbError> {
    let layout = Layout::new(*material);
    let children = ChildValues::new(material, leads_to);
    let chunk = 1u64 << 14;
    (0..part.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| -> Result<Vec<(u64, Value)>, TbError> {
            let mut out = Vec::new();
            for s in c * chunk..((c + 1) * chunk).min(part.len()) {
                let i = part.index(s);
                let Some(w) = wdl_at(i) else {
                    continue;
                };
                if w == Wdl::Draw {
                    continue;
                }
                let Some((board, turn)) = layout.decode(i) else {
                    continue;
                };
                if super::retro::has_capture(&board, turn) || !part.follows_a_promotion(&board) {
                    continue;
                }
                let Some(pos) = position_of::<R>(board, turn) else {
                    continue;
                };
                let value = derive_position_value(&pos, material, i, w, src, Some(&children))?;
                out.push((s, value));
            }
            Ok(out)
        })
        .collect::<Result<_, _>>()
}
