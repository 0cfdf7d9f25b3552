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
        if self.is_infinite() {
            f.write_str("inf")
        } else {
            write!(f, "{}", self.0)
        }
    }
}
