//! The distance kind of table (`VARIANT-KEY.rtb`, layout `dtw8s`): the
//! distance to win of the quiet positions of **one** side to move, beside
//! the table's win/draw/loss file (`wdl.rs`), which says which positions
//! are wins, draws and losses.
//!
//! The other side's distances are found by one ply of probes (`derive.rs`):
//! each of its positions is the best of its moves, which lead to positions
//! of the stored side (or out of the table). A draw's distance is not
//! stored (the category says it all), so draws and the positions never
//! looked up take the code of the index 64 before them, as in the WDL
//! file. Where every win of the stored side is an even number of plies and
//! every loss an odd one (Losing chess: the side to move wins when it
//! cannot move), a byte holds `d / 2` (`halved`); otherwise (FICS rules,
//! whose stalemates can lose at once) it holds `d`. A larger distance than
//! a byte holds is the escape code 255, with the full [`Value`] in an
//! overflow record as in the older layout (`codec.rs`). Which side is
//! stored is chosen per table: the one whose codes compress smaller.
//!
//! Description: `MATERIAL dtw8s SIDE HALF` with SIDE `white` or `black`
//! and HALF `2` (halved) or `1`.

use super::codec::{OVERFLOW_BASE, OVERFLOW_PER_RECORD};
use super::wdl::filled_codes;
use super::{TbError, Value, Wdl};
use crate::board::Color;
use crate::store::TableReader;
use rayon::prelude::*;

/// The tag after the material key in the description.
pub const SIDE_TAG: &str = "dtw8s";
/// Indices per record (one byte each).
pub const SIDE_PER_RECORD: usize = 128;
/// The code that sends a lookup to the overflow records.
const ESCAPE: u8 = 255;
/// Bytes of codes per sampled chunk when choosing the side to store.
const SAMPLE_CHUNK: usize = 1 << 15;

/// How a `dtw8s` table codes its distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideLayout {
    /// The side to move whose distances are stored.
    pub side: Color,
    /// Whether a byte holds `d / 2` (wins even, losses odd) or `d`.
    pub halved: bool,
}

impl SideLayout {
    /// The description after the material key: `dtw8s white 2`.
    pub fn description(&self) -> String {
        let side = match self.side {
            Color::White => "white",
            Color::Black => "black",
        };
        format!("{SIDE_TAG} {side} {}", if self.halved { 2 } else { 1 })
    }

    /// The layout a description's tail (after the material key) names.
    pub fn parse(tail: &str) -> Option<SideLayout> {
        let mut words = tail.split(' ');
        if words.next()? != SIDE_TAG {
            return None;
        }
        let side = match words.next()? {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return None,
        };
        let halved = match words.next()? {
            "2" => true,
            "1" => false,
            _ => return None,
        };
        words
            .next()
            .is_none()
            .then_some(SideLayout { side, halved })
    }

    /// The side to move of `index` in a table of `size` indices.
    pub fn side_of(index: u64, size: u64) -> Color {
        if index < size / 2 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The indices of the stored side.
    fn range(&self, size: usize) -> std::ops::Range<usize> {
        match self.side {
            Color::White => 0..size / 2,
            Color::Black => size / 2..size,
        }
    }

    /// The byte of a win or loss (`ESCAPE` when it does not fit), `None`
    /// for a draw or an unknown value.
    fn byte_of(&self, value: Value) -> Option<u8> {
        let d = match value.wdl()? {
            (Wdl::Draw, _) => return None,
            (_, d) => d,
        };
        let b = if self.halved { d >> 1 } else { d };
        Some(if b < u16::from(ESCAPE) {
            b as u8
        } else {
            ESCAPE
        })
    }

    /// The value of a byte for a position of category `wdl` (`None` for
    /// the escape).
    pub fn value_of(&self, byte: u8, wdl: Wdl) -> Option<Value> {
        if byte == ESCAPE {
            return None;
        }
        let b = u16::from(byte);
        Some(match (wdl, self.halved) {
            (Wdl::Draw, _) => Value::DRAW,
            (Wdl::Win, true) => Value::win(2 * b),
            (Wdl::Loss, true) => Value::loss(2 * b + 1),
            (Wdl::Win, false) => Value::win(b),
            (Wdl::Loss, false) => Value::loss(b),
        })
    }
}

/// Whether every win in `values` is an even number of plies and every loss
/// an odd one.
pub fn parity_holds(values: &[u16]) -> bool {
    values.par_iter().all(|&v| match Value(v).wdl() {
        Some((Wdl::Win, d)) => d % 2 == 0,
        Some((Wdl::Loss, d)) => d % 2 == 1,
        _ => true,
    })
}

/// The records of the stored side of `values` (by raw index,
/// [`Value::UNKNOWN`] where not stored) in `layout`.
pub fn encode(values: &[u16], layout: SideLayout) -> Vec<(u64, Vec<u8>)> {
    let range = layout.range(values.len());
    let part = &values[range.clone()];
    let codes = filled_codes(part.len(), |i| layout.byte_of(Value(part[i])));
    let mut records = Vec::new();
    let mut overflow: Vec<u64> = Vec::new();
    for (n, chunk) in part.chunks(SIDE_PER_RECORD).enumerate() {
        if !chunk.iter().any(|&v| Value(v).is_known()) {
            continue;
        }
        let local = n * SIDE_PER_RECORD;
        let first = range.start + local;
        let mut bytes = codes[local..local + chunk.len()].to_vec();
        bytes.resize(SIDE_PER_RECORD, bytes.last().copied().unwrap_or(0));
        for (j, &v) in chunk.iter().enumerate() {
            if layout.byte_of(Value(v)) == Some(ESCAPE) {
                let block = ((first + j) / OVERFLOW_PER_RECORD) as u64;
                if overflow.last() != Some(&block) {
                    overflow.push(block);
                }
            }
        }
        records.push(((first / SIDE_PER_RECORD) as u64, bytes));
    }
    records.extend(
        overflow
            .into_iter()
            .map(|block| super::codec::overflow_record(values, block)),
    );
    records
}

/// The side whose records compress smaller (a quick zstd level stands in
/// for the file's), and whether distances can be halved. A side without
/// a stored position is never chosen: a table of the same men on both
/// sides has White to move at every index (the colour flip is one of its
/// symmetries), so its Black half is empty and could derive nothing.
pub fn choose_layout(values: &[u16]) -> SideLayout {
    let halved = parity_holds(values);
    let (white_half, black_half) = values.split_at(values.len() / 2);
    let any = |half: &[u16]| half.par_iter().any(|&v| Value(v).is_known());
    if !any(black_half) {
        return SideLayout {
            side: Color::White,
            halved,
        };
    }
    if !any(white_half) {
        return SideLayout {
            side: Color::Black,
            halved,
        };
    }
    // Every eighth 32 KB chunk of each side's codes, compressed at a quick
    // level, stands in for the whole file (a 5-man table's two candidate
    // encodings would take gigabytes).
    let size = |side: Color| -> usize {
        let layout = SideLayout { side, halved };
        let part = &values[layout.range(values.len())];
        let codes = filled_codes(part.len(), |i| layout.byte_of(Value(part[i])));
        let chunks = codes.len().div_ceil(SAMPLE_CHUNK);
        (0..chunks)
            .into_par_iter()
            .filter(|c| c % 8 == 0)
            .map(|c| {
                let chunk = &codes[c * SAMPLE_CHUNK..((c + 1) * SAMPLE_CHUNK).min(codes.len())];
                zstd::bulk::compress(chunk, 3).map_or(chunk.len(), |z| z.len())
            })
            .sum()
    };
    let (white, black) = rayon::join(|| size(Color::White), || size(Color::Black));
    SideLayout {
        side: if black < white {
            Color::Black
        } else {
            Color::White
        },
        halved,
    }
}

/// The value at `index` (of the stored side, category `wdl`), read through
/// the table's reader.
pub fn lookup(
    reader: &TableReader,
    layout: SideLayout,
    index: u64,
    wdl: Wdl,
    path: &str,
) -> Result<Value, TbError> {
    let bad = |problem: String| TbError::BadTable {
        path: path.to_string(),
        problem,
    };
    let byte = reader
        .with_value(index / SIDE_PER_RECORD as u64, |record| {
            record.get(index as usize % SIDE_PER_RECORD).copied()
        })?
        .ok_or_else(|| bad(format!("no record for index {index} (incomplete table?)")))?
        .ok_or_else(|| bad("bad value size".into()))?;
    if let Some(v) = layout.value_of(byte, wdl) {
        return Ok(v);
    }
    let v = super::codec::overflow_value(reader, index, path)?;
    match v.wdl() {
        Some((w, _)) if w == wdl => Ok(v),
        _ => Err(bad(format!(
            "index {index}: its overflow value does not match its category"
        ))),
    }
}

/// The stored side's values of a table from its records (which `visit`
/// hands, one at a time, to the function it is given, so that a large
/// table's records need not be held at once) and the categories of every
/// index (`wdl(i)`), written into `out` (by raw index; other indices
/// untouched).
pub fn decode_into(
    visit: impl FnOnce(&mut dyn FnMut(u64, &[u8])) -> Result<(), TbError>,
    layout: SideLayout,
    wdl: impl Fn(usize) -> Option<Wdl>,
    out: &mut [u16],
    path: &str,
) -> Result<(), TbError> {
    let size = out.len();
    let range = layout.range(size);
    let mut long = Vec::new();
    let mut out_of_range = None;
    visit(&mut |key, bytes| {
        if key >= OVERFLOW_BASE {
            let start = (key - OVERFLOW_BASE) as usize * OVERFLOW_PER_RECORD;
            for (j, b) in bytes.chunks_exact(2).enumerate() {
                long.push((start + j, u16::from_le_bytes([b[0], b[1]])));
            }
            return;
        }
        let start = key as usize * SIDE_PER_RECORD;
        if !range.contains(&start) {
            out_of_range.get_or_insert(key);
            return;
        }
        for (j, &byte) in bytes.iter().enumerate() {
            let i = start + j;
            if i >= range.end {
                break;
            }
            if let Some(w) = wdl(i) {
                out[i] = layout.value_of(byte, w).unwrap_or(Value::UNKNOWN).0;
            }
        }
    })?;
    if let Some(key) = out_of_range {
        return Err(TbError::BadTable {
            path: path.to_string(),
            problem: format!("record {key} out of range"),
        });
    }
    for (i, v) in long {
        if range.contains(&i) && out[i] == Value::UNKNOWN.0 && Value(v).is_known() {
            out[i] = v;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_round_trip() {
        for side in [Color::White, Color::Black] {
            for halved in [true, false] {
                let l = SideLayout { side, halved };
                assert_eq!(SideLayout::parse(&l.description()), Some(l));
            }
        }
        assert_eq!(SideLayout::parse("dtw8q"), None);
        assert_eq!(SideLayout::parse("dtw8s white 3"), None);
    }

    #[test]
    fn stored_side_values_survive_encoding_including_long_distances() {
        let size = 2048;
        let mut values = vec![Value::UNKNOWN.0; size];
        for (i, slot) in values.iter_mut().enumerate().step_by(3) {
            *slot = match (i / 3) % 4 {
                0 => Value::DRAW.0,
                1 => Value::win(2 * (i as u16 % 300)).0,
                2 => Value::loss(2 * (i as u16 % 140) + 1).0,
                _ => Value::win(600).0,
            };
        }
        assert!(parity_holds(&values));
        for side in [Color::White, Color::Black] {
            let layout = SideLayout { side, halved: true };
            let records = encode(&values, layout);
            let mut out = vec![Value::UNKNOWN.0; size];
            let wdl = |i: usize| Value(values[i]).wdl().map(|(w, _)| w);
            decode_into(
                |f| {
                    records.iter().for_each(|(k, b)| f(*k, b));
                    Ok(())
                },
                layout,
                wdl,
                &mut out,
                "test",
            )
            .unwrap();
            for i in layout.range(size) {
                if Value(values[i]).is_known() {
                    assert_eq!(out[i], values[i], "index {i}");
                }
            }
            let other = match side {
                Color::White => size / 2..size,
                Color::Black => 0..size / 2,
            };
            assert!(other.into_iter().all(|i| out[i] == Value::UNKNOWN.0));
        }
    }
}
