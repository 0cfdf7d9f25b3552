//! Proof and disproof numbers: saturating counts with an infinite value.

use std::fmt;

/// A proof or disproof number. `INFINITE` means "cannot be (dis)proved";
/// arithmetic saturates at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pn(u32);

impl Pn {
    /// Proved (for a proof number) or disproved (for a disproof number).
    pub const ZERO: Pn = Pn(0);
    /// One: a fresh leaf.
    pub const ONE: Pn = Pn(1);
    /// Infinity.
    pub const INFINITE: Pn = Pn(u32::MAX);

    /// A finite number (values at or above infinity are clamped just below it).
    pub fn new(n: u64) -> Pn {
        Pn(n.min(u64::from(u32::MAX - 1)) as u32)
    }

    /// The number whose raw value ([`Pn::get`]) is `raw`: as reports and
    /// checkpoints carry it, infinity included.
    pub fn from_raw(raw: u32) -> Pn {
        Pn(raw)
    }

    /// The raw value.
    pub fn get(self) -> u32 {
        self.0
    }

    /// Whether this is zero.
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Whether this is infinite.
    pub fn is_infinite(self) -> bool {
        self == Pn::INFINITE
    }

    /// Saturating sum: infinity if either side is infinite.
    pub fn plus(self, other: Pn) -> Pn {
        if self.is_infinite() || other.is_infinite() {
            Pn::INFINITE
        } else {
            Pn::new(u64::from(self.0) + u64::from(other.0))
        }
    }

    /// `self - other + plus`, keeping infinity infinite (threshold arithmetic).
    pub fn sub_add(self, other: Pn, plus: Pn) -> Pn {
        if self.is_infinite() {
            Pn::INFINITE
        } else {
            Pn::new((u64::from(self.0) + u64::from(plus.0)).saturating_sub(u64::from(other.0)))
        }
    }
}

impl fmt::Display for Pn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so that a width (`{:>8}`) lines numbers up in tables.
        if self.is_infinite() {
            f.pad("inf")
        } else {
            f.pad(&self.0.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pn;

    #[test]
    fn numbers_print_as_the_search_writes_them_and_take_a_width() {
        assert_eq!(Pn::from_raw(u32::MAX).to_string(), "inf");
        assert_eq!(Pn::from_raw(u32::MAX), Pn::INFINITE);
        assert_eq!(
            format!("{:>5}|{:>5}", Pn::new(42), Pn::INFINITE),
            "   42|  inf"
        );
    }
}
