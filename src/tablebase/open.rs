//! Opening a table file of either kind and checking what it holds.

use super::codec::CODES_PER_RECORD;
use super::side::SideLayout;
use super::wdl::{WDL_RECORD_BYTES, WDL_TAG};
use super::{LAYOUT_TAG, Material, TbError};
use crate::store::TableReader;
use crate::variants::Variant;
use std::path::Path;

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFile {
    /// Distance to win for both sides to move (`dtw8q`, written by earlier
    /// versions; still read).
    BothSides,
    /// Distance to win for one side to move (`dtw8s`), beside a WDL file.
    OneSide(SideLayout),
    /// Win/draw/loss for both sides to move (`wdl2q`, `.rwdl`).
    Wdl,
}

impl TableFile {
    /// The kind a description's tail (after the material key) names.
    fn parse(tail: &str) -> Option<TableFile> {
        if tail == LAYOUT_TAG {
            Some(TableFile::BothSides)
        } else if tail == WDL_TAG {
            Some(TableFile::Wdl)
        } else {
            SideLayout::parse(tail).map(TableFile::OneSide)
        }
    }

    /// The record size of this kind.
    fn value_size(self) -> usize {
        match self {
            TableFile::Wdl => WDL_RECORD_BYTES,
            _ => CODES_PER_RECORD,
        }
    }

    /// The kind of an open table (checked when it was opened).
    pub fn of(reader: &TableReader) -> TableFile {
        reader
            .description()
            .split_once(' ')
            .and_then(|(_, tail)| TableFile::parse(tail))
            .unwrap_or(TableFile::BothSides)
    }
}

/// Opens a table file of either kind and checks its store kind, value
/// size and (if given) its variant and material.
pub fn open_table(
    path: &Path,
    variant: Option<Variant>,
    material: Option<&Material>,
) -> Result<TableReader, TbError> {
    let reader = TableReader::open(path)?;
    let bad = |problem: String| TbError::BadTable {
        path: path.display().to_string(),
        problem,
    };
    if reader.kind() != crate::store::TableKind::Tablebase {
        return Err(bad("not a tablebase (a stored proof?)".into()));
    }
    let (key, tail) = reader.description().split_once(' ').unwrap_or(("", ""));
    let Some(kind) = TableFile::parse(tail) else {
        return Err(bad(format!(
            "table layout '{}' is not one this version reads ('MATERIAL {WDL_TAG}', 'MATERIAL {} ...' or 'MATERIAL {LAYOUT_TAG}'): rebuild it with `ransom tb build`",
            reader.description(),
            super::SIDE_TAG
        )));
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if (ext == "rwdl" && kind != TableFile::Wdl) || (ext == "rtb" && kind == TableFile::Wdl) {
        return Err(bad(format!(
            "a {} table in a file named as the other kind",
            if kind == TableFile::Wdl {
                "win/draw/loss"
            } else {
                "distance"
            }
        )));
    }
    if reader.value_size() != kind.value_size() {
        return Err(bad(format!(
            "value size {} ({tail} tables use {})",
            reader.value_size(),
            kind.value_size()
        )));
    }
    if let Some(v) = variant
        && reader.variant() != v.name()
    {
        return Err(bad(format!(
            "a table of {}, expected one of {}",
            reader.variant(),
            v.name()
        )));
    }
    let found = Material::parse(key).map_err(|e| bad(format!("description: {e}")))?;
    if let Some(m) = material
        && found != m.canonical()
    {
        return Err(bad(format!("holds {found}, expected {}", m.canonical())));
    }
    Ok(reader)
}
