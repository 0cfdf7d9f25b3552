//! One decompressed block of a table, as the readers and the shared block
//! cache hold it.

/// One decompressed block: its keys in order and their values, `value_size`
/// bytes each, in the same order.
pub(crate) struct Block {
    pub(super) keys: Vec<u64>,
    pub(super) values: Vec<u8>,
}

impl Block {
    /// The bytes it takes in memory (about).
    pub(crate) fn bytes(&self) -> u64 {
        (self.keys.len() * 8 + self.values.len() + std::mem::size_of::<Block>()) as u64
    }
}
