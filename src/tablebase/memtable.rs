//! A whole table held in memory (what the generator keeps of the tables
//! it reads, and what `tb verify` and `tb stats` check), loaded from
//! whichever kinds of file are there.

use super::codec::CodedValues;
use super::open::{TableFile, open_table};
use super::wdl::{WDL_PER_RECORD, code_in, wdl_of};
use super::{Layout, Lookup, Material, Slice, TbError, Value, Wdl, table_path, wdl_path};
use crate::variants::LosingRules;
use std::path::Path;

/// A table's values held in memory, by raw index (one byte each, see
/// `CodedValues`): the whole table, or one [`Slice`] of it.
#[derive(Clone, Debug)]
pub struct MemTable {
    /// The material.
    pub material: Material,
    values: CodedValues,
    exact: bool,
    /// The part held, when not the whole table.
    slice: Option<Slice>,
}

/// A table read from its files with its stored side's distances (both
/// sides' categories), before the other side's distances are derived.
struct StoredSide {
    table: MemTable,
    /// The two-bit category codes of every index (empty when the
    /// distance file stores both sides).
    codes: Vec<u8>,
    /// The first index of the side whose distances are still to be
    /// derived, if the distance file stores one side.
    other_start: Option<u64>,
}

impl MemTable {
    /// Reads the table of `material` in `dir`: its distance file when
    /// there is one (one side stored: the other side's distances are found
    /// by one ply of probes through the table itself and `rest`, which
    /// must hold the tables it reads), else its win/draw/loss file alone
    /// (categories right, distances not: see [`MemTable::exact`]), which
    /// is also what `wdl_only` asks for.
    pub fn load<R: LosingRules>(
        dir: &Path,
        material: &Material,
        rest: &dyn Lookup,
        wdl_only: bool,
    ) -> Result<MemTable, TbError> {
        let StoredSide {
            mut table,
            codes,
            other_start,
        } = Self::load_stored_side::<R>(dir, material, wdl_only)?;
        if let Some(start) = other_start {
            super::derive::fill_other_side::<R>(&mut table, start, &codes, rest)?;
        }
        Ok(table)
    }

    /// Reads the part `slice` of the table of `material` in `dir` (see
    /// [`MemTable::load`]): when its side to move is the one the distance
    /// file does not store, only the slice's distances are derived, through
    /// the whole table's stored side and `rest`, and for a table with
    /// pawns only at the positions a promotion leads to
    /// ([`Slice::follows_a_promotion`]; its other wins and losses are held
    /// as [`Value::UNKNOWN`]). Reading takes the whole table's memory for a
    /// while (four bytes an index).
    pub fn load_slice<R: LosingRules>(
        dir: &Path,
        material: &Material,
        slice: Slice,
        rest: &dyn Lookup,
        wdl_only: bool,
    ) -> Result<MemTable, TbError> {
        Self::load_slice_or_whole::<R>(dir, material, slice, rest, wdl_only, false)
    }

    /// [`MemTable::load_slice`], except that when the slice's distances
    /// would have to be derived and `whole_if_derived`, the whole table is
    /// read instead (its other side derived, as [`MemTable::load`] does):
    /// for a table that later reads need whole or in another slice.
    pub fn load_slice_or_whole<R: LosingRules>(
        dir: &Path,
        material: &Material,
        slice: Slice,
        rest: &dyn Lookup,
        wdl_only: bool,
        whole_if_derived: bool,
    ) -> Result<MemTable, TbError> {
        let StoredSide {
            table: mut full,
            codes,
            other_start,
        } = Self::load_stored_side::<R>(dir, material, wdl_only)?;
        if other_start != Some(slice.side_start()) {
            // Its side is stored (or nothing is derived): no probe needed.
            return Ok(full.sliced(slice));
        }
        if whole_if_derived {
            super::derive::fill_other_side::<R>(&mut full, slice.side_start(), &codes, rest)?;
            return Ok(full);
        }
        // Only the positions a promotion leads to are derived (a build
        // looks nothing else up in the slice); the others' wins and losses
        // are held unknown, so that a lookup there would fail, not read a
        // wrong distance.
        let src = super::WithOwn { own: &full, rest };
        let found = super::derive::derive_at::<R>(
            &full.material,
            slice,
            |i| wdl_of(codes[i as usize]),
            &src,
            slice.other_side(),
        )?;
        let held: Vec<u16> = (0..slice.len())
            .map(|s| match wdl_of(codes[slice.index(s) as usize]) {
                Some(Wdl::Draw) => Value::DRAW.0,
                _ => Value::UNKNOWN.0,
            })
            .collect();
        let mut part = MemTable {
            material: full.material,
            values: CodedValues::from_values(&held),
            exact: true,
            slice: Some(slice),
        };
        // The slice's own positions, by their place in it.
        for (s, v) in found.into_iter().flatten() {
            part.values.set(s, v);
        }
        Ok(part)
    }

    /// Reads a table: the distances of its stored side (both sides' if
    /// the distance file has them), the categories of both.
    fn load_stored_side<R: LosingRules>(
        dir: &Path,
        material: &Material,
        wdl_only: bool,
    ) -> Result<StoredSide, TbError> {
        let material = material.canonical();
        let variant = R::VARIANT;
        let size = Layout::new(material).size() as usize;
        let dist = table_path(dir, variant, &material);
        let wdl = wdl_path(dir, variant, &material);
        let dist_kind = if dist.is_file() && !wdl_only {
            let reader = open_table(&dist, Some(variant), Some(&material))?;
            let kind = TableFile::of(&reader);
            if kind == TableFile::BothSides {
                let records = reader.records()?;
                let values =
                    CodedValues::from_records(&records, size, &dist.display().to_string())?;
                return Ok(StoredSide {
                    table: MemTable {
                        material,
                        values,
                        exact: true,
                        slice: None,
                    },
                    // Both sides are stored: no category is needed.
                    codes: Vec::new(),
                    other_start: None,
                });
            }
            Some((reader, kind))
        } else {
            None
        };
        if !wdl.is_file() {
            return Err(TbError::missing(variant, dir, &material));
        }
        let codes = wdl_codes(
            &open_table(&wdl, Some(variant), Some(&material))?,
            size,
            &wdl,
        )?;
        let mut values: Vec<u16> = codes
            .iter()
            .map(|&c| match wdl_of(c) {
                Some(Wdl::Win) => Value::win(0).0,
                Some(Wdl::Loss) => Value::loss(0).0,
                Some(Wdl::Draw) => Value::DRAW.0,
                None => Value::UNKNOWN.0,
            })
            .collect();
        let Some((reader, TableFile::OneSide(layout))) = dist_kind else {
            return Ok(StoredSide {
                table: MemTable {
                    material,
                    values: CodedValues::from_values(&values),
                    exact: false,
                    slice: None,
                },
                codes,
                other_start: None,
            });
        };
        let path = dist.display().to_string();
        super::side::decode_into(
            |f| Ok(reader.for_each_record(|k, b| f(k, b))?),
            layout,
            |i| wdl_of(codes[i]),
            &mut values,
            &path,
        )?;
        let table = MemTable {
            material,
            values: CodedValues::from_values(&values),
            exact: true,
            slice: None,
        };
        drop(values);
        let other_start = match layout.side {
            crate::board::Color::White => size as u64 / 2,
            crate::board::Color::Black => 0,
        };
        Ok(StoredSide {
            table,
            codes,
            other_start: Some(other_start),
        })
    }

    /// A table from the generator's values (by raw index,
    /// [`Value::UNKNOWN`] for invalid indices).
    pub fn from_values(material: Material, values: &[u16]) -> MemTable {
        MemTable {
            material,
            values: CodedValues::from_values(values),
            exact: true,
            slice: None,
        }
    }

    /// The value at `index` ([`Value::UNKNOWN`] past the end or outside
    /// the slice held).
    pub fn value(&self, index: u64) -> Value {
        self.get(index).unwrap_or(Value::UNKNOWN)
    }

    /// The value at `index`, or `None` if this is a slice that does not
    /// hold it.
    #[inline]
    pub fn get(&self, index: u64) -> Option<Value> {
        match &self.slice {
            None => Some(self.values.get(index)),
            Some(slice) => slice.slot(index).map(|s| self.values.get(s)),
        }
    }

    /// The part `slice` of this whole table.
    pub fn sliced(&self, slice: Slice) -> MemTable {
        debug_assert!(self.slice.is_none());
        let values: Vec<u16> = (0..slice.len())
            .map(|s| self.value(slice.index(s)).0)
            .collect();
        MemTable {
            material: self.material,
            values: CodedValues::from_values(&values),
            exact: self.exact,
            slice: Some(slice),
        }
    }

    /// The values held (of the slice, if one).
    pub(crate) fn coded(&self) -> &CodedValues {
        &self.values
    }

    /// A whole table from its values.
    pub(crate) fn from_coded(material: Material, values: CodedValues, exact: bool) -> MemTable {
        MemTable {
            material,
            values,
            exact,
            slice: None,
        }
    }

    /// The slice held, if not the whole table.
    pub fn slice(&self) -> Option<&Slice> {
        self.slice.as_ref()
    }

    /// Whether the distances are exact (false for a table read from its
    /// win/draw/loss file alone, whose wins are `win(0)` and losses
    /// `loss(0)`).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Sets the value at `index` (of a whole table).
    pub(crate) fn set(&mut self, index: u64, value: Value) {
        debug_assert!(self.slice.is_none());
        self.values.set(index, value);
    }
}

/// The two-bit code of every index of a WDL table (3 where no record is).
fn wdl_codes(
    reader: &crate::store::TableReader,
    size: usize,
    path: &Path,
) -> Result<Vec<u8>, TbError> {
    let mut codes = vec![3u8; size];
    let mut out_of_range = None;
    reader.for_each_record(|key, record| {
        let start = key as usize * WDL_PER_RECORD;
        if start >= size {
            out_of_range = Some(key);
            return;
        }
        for (j, code) in codes[start..(start + WDL_PER_RECORD).min(size)]
            .iter_mut()
            .enumerate()
        {
            *code = code_in(record, j).unwrap_or(3);
        }
    })?;
    match out_of_range {
        Some(key) => Err(TbError::BadTable {
            path: path.display().to_string(),
            problem: format!("record {key} out of range"),
        }),
        None => Ok(codes),
    }
}
