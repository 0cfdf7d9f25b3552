//! How a table's values are laid out in the store's records.
//!
//! Each index gets one byte: `0` draw, `1 + d` a win in `d` plies and
//! `128 + d` a loss in `d` plies for `d <= 126`, and `255` for a longer
//! distance, whose full [`Value`] is then kept in an overflow record.
//! Records hold [`CODES_PER_RECORD`] bytes of consecutive indices under the
//! key `index / CODES_PER_RECORD`; overflow records hold
//! [`OVERFLOW_PER_RECORD`] little-endian `u16` values under the key
//! [`OVERFLOW_BASE`]` + index / OVERFLOW_PER_RECORD` and exist only where a
//! distance needs them (KBNvK's longest wins). Invalid indices and
//! positions with a capture are never looked up (a capture position is
//! valued from its captures), so they repeat the code before them: long
//! equal runs that compress well. Tables in this layout carry the
//! description `MATERIAL dtw8q` (`q`: quiet positions only).

use super::{TbError, Value, Wdl};
use crate::store::TableReader;
use hashbrown::HashMap;

/// Index codes per record.
pub const CODES_PER_RECORD: usize = 128;
/// `u16` values per overflow record.
pub const OVERFLOW_PER_RECORD: usize = 64;
/// Keys from here on are overflow records.
pub const OVERFLOW_BASE: u64 = 1 << 40;
/// The tag after the material key in a table's description.
pub const LAYOUT_TAG: &str = "dtw8q";
/// The code that sends a lookup to the overflow records.
const ESCAPE: u8 = 255;

/// The one-byte code of a known value (`ESCAPE` when it does not fit).
fn code_of(value: Value) -> Option<u8> {
    match value.wdl()? {
        (Wdl::Draw, _) => Some(0),
        (Wdl::Win, d) if d <= 126 => Some(1 + d as u8),
        (Wdl::Loss, d) if d <= 126 => Some(128 + d as u8),
        _ => Some(ESCAPE),
    }
}

/// The value of a code, `None` for the escape.
fn value_of(code: u8) -> Option<Value> {
    match code {
        0 => Some(Value::DRAW),
        1..=127 => Some(Value::win(u16::from(code) - 1)),
        128..=254 => Some(Value::loss(u16::from(code) - 128)),
        ESCAPE => None,
    }
}

/// The records of a table whose values (by raw index, [`Value::UNKNOWN`]
/// for invalid indices) are `values` (this layout is no longer written:
/// for the tests of its reader).
#[cfg(test)]
pub fn encode(values: &[u16]) -> Vec<(u64, Vec<u8>)> {
    let mut records = Vec::new();
    let mut last = 0u8;
    let mut overflow: Vec<u64> = Vec::new();
    for (key, chunk) in values.chunks(CODES_PER_RECORD).enumerate() {
        if !chunk.iter().any(|&v| Value(v).is_known()) {
            continue;
        }
        let mut bytes = Vec::with_capacity(CODES_PER_RECORD);
        for (j, &v) in chunk.iter().enumerate() {
            match code_of(Value(v)) {
                Some(ESCAPE) => {
                    bytes.push(ESCAPE);
                    let index = (key * CODES_PER_RECORD + j) as u64;
                    let block = index / OVERFLOW_PER_RECORD as u64;
                    if overflow.last() != Some(&block) {
                        overflow.push(block);
                    }
                }
                Some(code) => {
                    bytes.push(code);
                    last = code;
                }
                None => bytes.push(last),
            }
        }
        bytes.resize(CODES_PER_RECORD, last);
        records.push((key as u64, bytes));
    }
    records.extend(
        overflow
            .into_iter()
            .map(|block| overflow_record(values, block)),
    );
    records
}

/// The overflow record of `block`: the full values of its
/// [`OVERFLOW_PER_RECORD`] indices ([`Value::UNKNOWN`] past the end).
pub fn overflow_record(values: &[u16], block: u64) -> (u64, Vec<u8>) {
    let start = block as usize * OVERFLOW_PER_RECORD;
    let bytes = (start..start + OVERFLOW_PER_RECORD)
        .flat_map(|i| {
            let v = values.get(i).copied().unwrap_or(Value::UNKNOWN.0);
            v.to_le_bytes()
        })
        .collect();
    (OVERFLOW_BASE + block, bytes)
}

/// A table's values in memory as their one-byte codes, with the longer
/// distances beside them: half the memory of a `u16` per index (what the
/// generator keeps of the tables it reads). An escape code without a
/// long value, as for an invalid index or a missing record, reads as
/// [`Value::UNKNOWN`].
#[derive(Clone, Debug, Default)]
pub struct CodedValues {
    codes: Vec<u8>,
    long: HashMap<u64, u16>,
}

impl CodedValues {
    /// The codes of `values` (by raw index, [`Value::UNKNOWN`] for invalid
    /// indices).
    pub fn from_values(values: &[u16]) -> Self {
        let mut long = HashMap::new();
        let codes = values
            .iter()
            .enumerate()
            .map(|(i, &v)| match code_of(Value(v)) {
                Some(ESCAPE) => {
                    long.insert(i as u64, v);
                    ESCAPE
                }
                Some(code) => code,
                None => ESCAPE,
            })
            .collect();
        CodedValues { codes, long }
    }

    /// The values of a table of `size` indices from its records. Invalid
    /// indices get whatever code their record holds there.
    pub fn from_records(
        records: &[(u64, Vec<u8>)],
        size: usize,
        path: &str,
    ) -> Result<Self, TbError> {
        let bad = |problem: String| TbError::BadTable {
            path: path.to_string(),
            problem,
        };
        let mut values = CodedValues {
            codes: vec![ESCAPE; size],
            long: HashMap::new(),
        };
        for (key, bytes) in records {
            if *key >= OVERFLOW_BASE {
                let start = (key - OVERFLOW_BASE) as usize * OVERFLOW_PER_RECORD;
                for (j, b) in bytes.chunks_exact(2).enumerate() {
                    let v = u16::from_le_bytes([b[0], b[1]]);
                    if start + j < size && code_of(Value(v)) == Some(ESCAPE) {
                        values.long.insert((start + j) as u64, v);
                    }
                }
                continue;
            }
            let start = *key as usize * CODES_PER_RECORD;
            if start >= size {
                return Err(bad(format!("record {key} out of range")));
            }
            let end = (start + bytes.len()).min(size);
            values.codes[start..end].copy_from_slice(&bytes[..end - start]);
        }
        Ok(values)
    }

    /// The one-byte codes and the values behind their escapes.
    pub fn parts(&self) -> (&[u8], &HashMap<u64, u16>) {
        (&self.codes, &self.long)
    }

    /// The values of [`CodedValues::parts`].
    pub fn from_parts(codes: Vec<u8>, long: HashMap<u64, u16>) -> Self {
        CodedValues { codes, long }
    }

    /// Sets the value at `index` (inside the table).
    pub fn set(&mut self, index: u64, value: Value) {
        let code = match code_of(value) {
            Some(ESCAPE) => {
                self.long.insert(index, value.0);
                ESCAPE
            }
            Some(code) => code,
            None => ESCAPE,
        };
        self.codes[index as usize] = code;
    }

    /// The value at `index` ([`Value::UNKNOWN`] past the end).
    pub fn get(&self, index: u64) -> Value {
        match self.codes.get(index as usize).copied().map(value_of) {
            Some(Some(v)) => v,
            Some(None) => self.long.get(&index).map_or(Value::UNKNOWN, |&v| Value(v)),
            None => Value::UNKNOWN,
        }
    }
}

/// The value at `index` of a table, read through its reader.
pub fn lookup(reader: &TableReader, index: u64, path: &str) -> Result<Value, TbError> {
    let bad = |problem: String| TbError::BadTable {
        path: path.to_string(),
        problem,
    };
    let code = reader
        .with_value(index / CODES_PER_RECORD as u64, |record| {
            record.get(index as usize % CODES_PER_RECORD).copied()
        })?
        .ok_or_else(|| bad(format!("no record for index {index} (incomplete table?)")))?
        .ok_or_else(|| bad("bad value size".into()))?;
    if let Some(v) = value_of(code) {
        return Ok(v);
    }
    let v = overflow_value(reader, index, path)?;
    if v.is_known() {
        Ok(v)
    } else {
        Err(bad(format!(
            "index {index}: no value in its overflow record"
        )))
    }
}

/// The full value of `index` from its overflow record (kept where the
/// index's code is the escape).
pub fn overflow_value(reader: &TableReader, index: u64, path: &str) -> Result<Value, TbError> {
    let bad = |problem: String| TbError::BadTable {
        path: path.to_string(),
        problem,
    };
    let j = (index as usize % OVERFLOW_PER_RECORD) * 2;
    reader
        .with_value(
            OVERFLOW_BASE + index / OVERFLOW_PER_RECORD as u64,
            |overflow| {
                overflow
                    .get(j..j + 2)
                    .map(|b| Value(u16::from_le_bytes([b[0], b[1]])))
            },
        )?
        .ok_or_else(|| {
            bad(format!(
                "index {index}: escape code without an overflow record"
            ))
        })?
        .ok_or_else(|| bad("bad overflow record size".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_encoding_including_long_distances() {
        let mut values = vec![Value::UNKNOWN.0; 1000];
        for (i, slot) in values.iter_mut().enumerate().step_by(3) {
            *slot = match i % 4 {
                0 => Value::DRAW.0,
                1 => Value::win((i % 300) as u16).0,
                2 => Value::loss((i % 140) as u16).0,
                _ => Value::win(148).0,
            };
        }
        let records = encode(&values);
        assert!(records.iter().any(|r| r.0 >= OVERFLOW_BASE));
        let back = CodedValues::from_records(&records, 1000, "test").unwrap();
        let kept = CodedValues::from_values(&values);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(kept.get(i as u64), Value(v), "index {i}");
            if Value(v).is_known() {
                assert_eq!(back.get(i as u64), Value(v), "index {i}");
            }
        }
        assert_eq!(back.get(1000), Value::UNKNOWN);
    }
}
