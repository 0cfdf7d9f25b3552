//! `tb verify`: one forward pass re-checking a table against its successors.

use super::{
    Layout, Lookup, Material, MemTable, TbError, Value, evaluate, open_table, position_of,
    stalemate_value,
};
use crate::position::Position;
use crate::variants::LosingRules;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The result of [`verify_file`].
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The material.
    pub material: Material,
    /// Positions checked.
    pub positions: u64,
    /// The first inconsistency, if any.
    pub first_error: Option<String>,
}

/// Re-checks every position of the table at `path` against its successors
/// (read from the same table and from the tables beside it), in one
/// forward pass: wins must have a losing successor at distance d - 1 and
/// none shorter, losses only winning successors, the longest at d - 1,
/// draws a drawn successor and no losing one; every stored position (a
/// valid index without a capture) must have a value (invalid indices and
/// positions with a capture are never read).
pub fn verify_file<R: LosingRules>(
    path: &Path,
    others: &dyn Lookup,
) -> Result<VerifyReport, TbError> {
    let reader = open_table(path, Some(R::VARIANT), None)?;
    let key = reader.description().split(' ').next().unwrap_or_default();
    let material = Material::parse(key)?;
    drop(reader);
    let own = MemTable::load(path, R::VARIANT, &material)?;
    let layout = Layout::new(material);
    let src = super::WithOwn {
        own: &own,
        rest: others,
    };
    let valid = AtomicU64::new(0);
    let first = (0..layout.size())
        .into_par_iter()
        .map(|i| -> Result<Option<(u64, String)>, TbError> {
            let stored = own.value(i);
            let pos = layout.decode(i).and_then(|(b, t)| position_of::<R>(b, t));
            let Some(pos) = pos else {
                // Invalid indices are never looked up: the file repeats a
                // neighbour's code there.
                return Ok(None);
            };
            if super::retro::has_capture(pos.board(), pos.turn()) {
                // Not stored: a probe values the captures.
                return Ok(None);
            }
            valid.fetch_add(1, Ordering::Relaxed);
            let fen = crate::notation::fen::write(&pos);
            if !stored.is_known() {
                return Ok(Some((i, format!("index {i} ({fen}): missing"))));
            }
            let moves = pos.legal_moves();
            let expect = if moves.is_empty() {
                stalemate_value(&pos)
            } else {
                let mut kids = Vec::with_capacity(moves.len());
                for &m in moves.iter() {
                    let mut c = pos.clone();
                    c.play_unchecked(m);
                    kids.push(evaluate(&c, &src)?);
                }
                if kids.iter().any(|v| !v.is_known()) {
                    return Ok(Some((
                        i,
                        format!("index {i} ({fen}): a successor has no value"),
                    )));
                }
                Value::parent_of_best(kids)
            };
            Ok((expect != stored).then(|| {
                (
                    i,
                    format!(
                        "index {i} ({fen}): stored {:?}, successors give {:?}",
                        stored.wdl(),
                        expect.wdl()
                    ),
                )
            }))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let positions = valid.load(Ordering::Relaxed);
    Ok(VerifyReport {
        material,
        positions,
        first_error: first.into_iter().flatten().min_by_key(|e| e.0).map(|e| e.1),
    })
}
