//! A whole table held in memory (what the generator keeps of the tables
//! it reads, and what `tb verify` and `tb stats` check), loaded from
//! whichever kinds of file are there.

use super::codec::CodedValues;
use super::open::{TableFile, open_table};
use super::wdl::{WDL_PER_RECORD, code_in, wdl_of};
use super::{Layout, Lookup, Material, TbError, Value, Wdl, table_path, wdl_path};
use crate::variants::LosingRules;
use std::path::Path;

/// A table's values held in memory, by raw index (one byte each, see
/// [`CodedValues`]).
#[derive(Clone, Debug)]
pub struct MemTable {
    /// The material.
    pub material: Material,
    values: CodedValues,
    exact: bool,
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
                return Ok(MemTable {
                    material,
                    values: CodedValues::from_records(&records, size, &dist.display().to_string())?,
                    exact: true,
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
            return Ok(MemTable {
                material,
                values: CodedValues::from_values(&values),
                exact: false,
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
        let mut table = MemTable {
            material,
            values: CodedValues::from_values(&values),
            exact: true,
        };
        drop(values);
        let other_start = match layout.side {
            crate::board::Color::White => size as u64 / 2,
            crate::board::Color::Black => 0,
        };
        super::derive::fill_other_side::<R>(&mut table, other_start, &codes, rest)?;
        Ok(table)
    }

    /// A table from the generator's values (by raw index,
    /// [`Value::UNKNOWN`] for invalid indices).
    pub fn from_values(material: Material, values: &[u16]) -> MemTable {
        MemTable {
            material,
            values: CodedValues::from_values(values),
            exact: true,
        }
    }

    /// The value at `index` ([`Value::UNKNOWN`] past the end).
    pub fn value(&self, index: u64) -> Value {
        self.values.get(index)
    }

    /// Whether the distances are exact (false for a table read from its
    /// win/draw/loss file alone, whose wins are `win(0)` and losses
    /// `loss(0)`).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Sets the value at `index`.
    pub(crate) fn set(&mut self, index: u64, value: Value) {
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
