//! `tb verify`: one forward pass re-checking a table against its successors.

use super::{
    Layout, Lookup, Material, MemTable, TableFile, TbError, Value, evaluate, open_table,
    position_of, stalemate_value,
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
    /// The longest win for the side to move among the stored positions
    /// (plies; 0 when there is none or only categories were checked).
    pub longest_win: u16,
    /// A position with that win (FEN), if any.
    pub longest_win_fen: Option<String>,
}

/// [`verify_file`] with the tables `path`'s table reads loaded from
/// beside it into memory first ([`super::MemTables::load_reads`]: those
/// reached only by a promotion as that promotion's slice; only their
/// categories for a win/draw/loss file): what `tb verify` runs. Each
/// successor is then one memory lookup, where reading them through their
/// files derived the unstored side's distances again at every lookup.
pub fn verify_table_file<R: LosingRules>(path: &Path) -> Result<VerifyReport, TbError> {
    let reader = open_table(path, Some(R::VARIANT), None)?;
    let key = reader.description().split(' ').next().unwrap_or_default();
    let material = Material::parse(key)?;
    let wdl_only = TableFile::of(&reader) == TableFile::Wdl;
    drop(reader);
    let dir = path.parent().unwrap_or(Path::new("."));
    let others = super::MemTables::load_reads::<R>(dir, &material, wdl_only)?;
    verify_file::<R>(path, &others)
}

/// Re-checks every position of the table at `path` against its successors
/// (read from the same table and from the tables beside it), in one
/// forward pass: wins must have a losing successor at distance d - 1 and
/// none shorter, losses only winning successors, the longest at d - 1,
/// draws a drawn successor and no losing one; every stored position (a
/// valid index without a capture) must have a value (invalid indices and
/// positions with a capture are never read). A win/draw/loss file
/// (`.rwdl`) is checked on categories alone; a distance file of one side
/// is read with its win/draw/loss file, the other side's distances found
/// from its moves (so the check covers both files).
pub fn verify_file<R: LosingRules>(
    path: &Path,
    others: &dyn Lookup,
) -> Result<VerifyReport, TbError> {
    let reader = open_table(path, Some(R::VARIANT), None)?;
    let key = reader.description().split(' ').next().unwrap_or_default();
    let material = Material::parse(key)?;
    let kind = TableFile::of(&reader);
    drop(reader);
    let dir = path.parent().unwrap_or(Path::new("."));
    let wdl_only = kind == TableFile::Wdl;
    let expected = if wdl_only {
        super::wdl_path(dir, R::VARIANT, &material)
    } else {
        super::table_path(dir, R::VARIANT, &material)
    };
    if expected.file_name() != path.file_name() {
        return Err(TbError::BadTable {
            path: path.display().to_string(),
            problem: format!(
                "holds the table of {material}, whose file is named {} (the tables it reads are found by name beside it)",
                expected.file_name().unwrap_or_default().to_string_lossy()
            ),
        });
    }
    let own = MemTable::load::<R>(dir, &material, others, wdl_only)?;
    let layout = Layout::new(material);
    let src = super::WithOwn {
        own: &own,
        rest: others,
    };
    let valid = AtomicU64::new(0);
    // The longest win and its index (the smallest index of that length),
    // packed as `d << 40 | (2^40 - 1 - index)` for one atomic maximum.
    let longest = AtomicU64::new(0);
    const LOW: u64 = (1 << 40) - 1;
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
            if let Some((super::Wdl::Win, d)) = stored.wdl()
                && !wdl_only
            {
                longest.fetch_max(u64::from(d) << 40 | (LOW - i), Ordering::Relaxed);
            }
            // Written only for a report (a FEN per position would cost more
            // than the check of most positions).
            let fen = || crate::notation::fen::write(&pos);
            if !stored.is_known() {
                return Ok(Some((i, format!("index {i} ({}): missing", fen()))));
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
                        format!("index {i} ({}): a successor has no value", fen()),
                    )));
                }
                Value::parent_of_best(kids)
            };
            let differs = if wdl_only {
                expect.wdl().map(|(w, _)| w) != stored.wdl().map(|(w, _)| w)
            } else {
                expect != stored
            };
            Ok(differs.then(|| {
                (
                    i,
                    format!(
                        "index {i} ({}): stored {:?}, successors give {:?}",
                        fen(),
                        stored.wdl(),
                        expect.wdl()
                    ),
                )
            }))
        })
        // The first error by index, without a slot per index (a 5-man
        // table has a billion).
        .try_reduce(
            || None,
            |a, b| {
                Ok(match (a, b) {
                    (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
                    (a, b) => a.or(b),
                })
            },
        )?;
    let positions = valid.load(Ordering::Relaxed);
    let packed = longest.into_inner();
    let longest_win = (packed >> 40) as u16;
    let longest_win_fen = (packed > 0)
        .then(|| layout.decode(LOW - (packed & LOW)))
        .flatten()
        .and_then(|(b, t)| position_of::<R>(b, t))
        .map(|pos| crate::notation::fen::write(&pos));
    Ok(VerifyReport {
        material,
        positions,
        longest_win,
        longest_win_fen,
        first_error: first.map(|e| e.1),
    })
}
