//! The win/draw/loss kind of table (`VARIANT-KEY.rwdl`): the category of
//! every quiet position, both sides to move, in two bits.
//!
//! Each record holds [`WDL_PER_RECORD`] consecutive indices under the key
//! `index / WDL_PER_RECORD`, four to a byte (index `j` of the record in
//! bits `2 (j % 4)` of byte `j / 4`): `0` draw, `1` the side to move wins,
//! `2` it loses. Indices that are never looked up (invalid ones and
//! positions with a capture) take the code of the index 64 before them
//! (the same placement of every man but the last), or of the index just
//! before in the first 64: of the fills measured this one compressed best
//! (KNvKP 629 KB against 638 KB repeating the previous code, zstd 19 in
//! 128 KB blocks). Records without a stored index are left out. Tables of
//! this kind carry the description `MATERIAL wdl2q`.

use super::{TbError, Value, Wdl};
use crate::store::TableReader;

/// Indices per record.
pub const WDL_PER_RECORD: usize = 128;
/// Bytes per record (two bits an index).
pub const WDL_RECORD_BYTES: usize = WDL_PER_RECORD / 4;
/// The tag after the material key in the description.
pub const WDL_TAG: &str = "wdl2q";
/// Records per zstd block: 64 KB of codes, 262,144 indices.
pub const WDL_RECORDS_PER_BLOCK: u32 = 2048;
/// zstd level of these files.
pub const WDL_ZSTD_LEVEL: i32 = 19;

/// The two-bit code of a category.
pub fn code_of(wdl: Wdl) -> u8 {
    match wdl {
        Wdl::Draw => 0,
        Wdl::Win => 1,
        Wdl::Loss => 2,
    }
}

/// The category of a two-bit code (`None` for 3, which is never written).
pub fn wdl_of(code: u8) -> Option<Wdl> {
    match code {
        0 => Some(Wdl::Draw),
        1 => Some(Wdl::Win),
        2 => Some(Wdl::Loss),
        _ => None,
    }
}

/// A code per index from `known` (`None` where never looked up), with the
/// unknown ones filled as the module documentation says.
pub(crate) fn filled_codes(len: usize, known: impl Fn(usize) -> Option<u8>) -> Vec<u8> {
    let mut codes = vec![0u8; len];
    let mut previous = 0u8;
    for i in 0..len {
        let code = match known(i) {
            Some(code) => code,
            None if i >= 64 => codes[i - 64],
            None => previous,
        };
        codes[i] = code;
        previous = code;
    }
    codes
}

/// The records of the WDL table of `values` (by raw index,
/// [`Value::UNKNOWN`] where not stored).
pub fn encode(values: &[u16]) -> Vec<(u64, Vec<u8>)> {
    let codes = filled_codes(values.len(), |i| {
        Value(values[i]).wdl().map(|(w, _)| code_of(w))
    });
    let mut records = Vec::new();
    for (key, chunk) in values.chunks(WDL_PER_RECORD).enumerate() {
        if !chunk.iter().any(|&v| Value(v).is_known()) {
            continue;
        }
        let start = key * WDL_PER_RECORD;
        let mut bytes = vec![0u8; WDL_RECORD_BYTES];
        for j in 0..chunk.len() {
            bytes[j / 4] |= codes[start + j] << (2 * (j % 4));
        }
        records.push((key as u64, bytes));
    }
    records
}

/// The code of index `j` in a record's bytes.
pub fn code_in(record: &[u8], j: usize) -> Option<u8> {
    record.get(j / 4).map(|b| (b >> (2 * (j % 4))) & 3)
}

/// The category stored at `index`, read through the table's reader.
pub fn lookup(reader: &TableReader, index: u64, path: &str) -> Result<Wdl, TbError> {
    let bad = |problem: String| TbError::BadTable {
        path: path.to_string(),
        problem,
    };
    let j = index as usize % WDL_PER_RECORD;
    let code = reader
        .with_value(index / WDL_PER_RECORD as u64, |record| code_in(record, j))?
        .ok_or_else(|| bad(format!("no record for index {index} (incomplete table?)")))?
        .ok_or_else(|| bad("bad value size".into()))?;
    wdl_of(code).ok_or_else(|| bad(format!("index {index}: code 3 is not a category")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_survive_encoding_and_unknowns_are_filled() {
        let mut values = vec![Value::UNKNOWN.0; 1000];
        for (i, slot) in values.iter_mut().enumerate().step_by(3) {
            *slot = match (i / 3) % 3 {
                0 => Value::DRAW.0,
                1 => Value::win(4).0,
                _ => Value::loss(7).0,
            };
        }
        values[500] = Value::win(2).0;
        let records = encode(&values);
        for (i, &v) in values.iter().enumerate() {
            let (key, record) = &records[i / WDL_PER_RECORD];
            assert_eq!(*key as usize, i / WDL_PER_RECORD);
            let code = code_in(record, i % WDL_PER_RECORD).unwrap();
            match Value(v).wdl() {
                Some((w, _)) => assert_eq!(wdl_of(code), Some(w), "index {i}"),
                None => assert!(code < 3),
            }
        }
    }
}
