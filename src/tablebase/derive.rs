//! Distances of the side a `dtw8s` table does not store (`side.rs`),
//! found by one ply of probes: the position's moves (all quiet: a stored
//! position has no capture) lead to positions of the stored side, or out
//! of the table, valued as any probe values them ([`evaluate`]).

use super::{
    Layout, Lookup, Material, MemTable, TbError, Value, Wdl, evaluate, position_of,
    stalemate_value, with_layout,
};
use crate::position::Position;
use crate::variants::LosingRules;
use rayon::prelude::*;

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
        .ok_or_else(|| TbError::NotCovered(format!("{material}: index {index} is no position")))?;
    derive_position_value(&pos, material, index, wdl, src)
}

/// [`derive_value`] of the position `pos` (decoded already from `index`).
fn derive_position_value<R: LosingRules>(
    pos: &crate::variants::Losing<R>,
    material: &Material,
    index: u64,
    wdl: Wdl,
    src: &dyn Lookup,
) -> Result<Value, TbError> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(stalemate_value(pos));
    }
    let mut children = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        if wdl == Wdl::Win && super::evaluate_wdl::<R>(&child, src)? != Some(Wdl::Loss) {
            // Only a move to a loss can be the winning one.
            continue;
        }
        children.push(evaluate(&child, src)?);
    }
    let value = Value::parent_of_best(children);
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
    let half = Layout::new(own.material).size() / 2;
    let found = {
        let src = super::WithOwn { own: &*own, rest };
        derive_at::<R>(
            &own.material,
            half,
            |s| side_start + s,
            |i| super::wdl::wdl_of(wdl[i as usize]),
            &src,
        )?
    };
    for (s, v) in found.into_iter().flatten() {
        own.set(side_start + s, v);
    }
    Ok(())
}

/// The values of the quiet positions at `index_of(0..count)` of
/// `material`'s table whose category (`wdl_at`) is a win or a loss, from
/// one ply of probes through `src` (which must value the other side to
/// move of `material` exactly): `(s, value)` for each such `s`, in
/// chunks (not flattened: a whole side of a large table is billions).
pub fn derive_at<R: LosingRules>(
    material: &Material,
    count: u64,
    index_of: impl Fn(u64) -> u64 + Sync,
    wdl_at: impl Fn(u64) -> Option<Wdl> + Sync,
    src: &dyn Lookup,
) -> Result<Vec<Vec<(u64, Value)>>, TbError> {
    let layout = Layout::new(*material);
    let chunk = 1u64 << 14;
    (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| -> Result<Vec<(u64, Value)>, TbError> {
            let mut out = Vec::new();
            for s in c * chunk..((c + 1) * chunk).min(count) {
                let i = index_of(s);
                let Some(w) = wdl_at(i) else {
                    continue;
                };
                if w == Wdl::Draw {
                    continue;
                }
                let Some((board, turn)) = layout.decode(i) else {
                    continue;
                };
                if super::retro::has_capture(&board, turn) {
                    continue;
                }
                let Some(pos) = position_of::<R>(board, turn) else {
                    continue;
                };
                out.push((s, derive_position_value(&pos, material, i, w, src)?));
            }
            Ok(out)
        })
        .collect::<Result<_, _>>()
}
