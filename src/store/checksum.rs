//! The checksum of a table's header and block index: CRC-32C from format
//! version 3, FNV-1a (a hash, not an error-detecting code) before.

/// 64-bit FNV-1a hash of `bytes` (the header checksum of format versions 1
/// and 2, and the file fingerprint of tablebase manifests).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// How many bytes the header checksum takes in format `version`.
pub(crate) fn header_sum_len(version: u16) -> usize {
    if version >= 3 { 4 } else { 8 }
}

/// The header checksum of `bytes` in format `version`, little-endian, in
/// [`header_sum_len`] bytes: CRC-32C from version 3 (it detects every
/// burst of up to 32 flipped bits), FNV-1a 64 before.
pub(crate) fn header_sum(version: u16, bytes: &[u8]) -> Vec<u8> {
    if version >= 3 {
        crc32c::crc32c(bytes).to_le_bytes().to_vec()
    } else {
        fnv1a64(bytes).to_le_bytes().to_vec()
    }
}
