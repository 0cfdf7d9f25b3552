//! Reading little-endian fields off bytes (table headers, checkpoints).

/// Reads little-endian fields off a byte slice; every read is `None`
/// past the end.
pub(crate) struct Cursor<'a> {
    /// The bytes.
    pub bytes: &'a [u8],
    /// Where the next read starts.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let out = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(out)
    }
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    pub fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    pub fn string(&mut self, len: usize) -> Option<String> {
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
    /// A string preceded by its length as a `u16`.
    pub fn short_text(&mut self) -> Option<String> {
        let len = usize::from(self.u16()?);
        self.string(len)
    }
}
