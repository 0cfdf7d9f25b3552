//! The variants (their names are in [`crate::variant`]), and [`AnyPosition`] for choosing one at run time.

mod chess;
mod contact;
mod crazyhouse;
mod hitandrun;
pub mod hostage;
mod losing;
mod losing_royal;

pub use crate::variant::{UnknownVariant, Variant};
pub use chess::Chess;
pub use contact::Contact;
pub use crazyhouse::Crazyhouse;
pub use hitandrun::{
    HitAndRun, HitAndRunChess, HitAndRunRules, HitAndRunSimultaneous, Sequential, Simultaneous,
};
pub use hostage::Hostage;
pub use losing::{
    Antichess, Fics, International, Kamikaze2, KamikazeBlackFirst, Losing, LosingQpromo,
    LosingRules, QueenPromotion, StalemateRule, Suicide,
};
pub use losing_royal::{
    IccLosers, Kamikaze, KingLast, Losers, LosingRoyal, LosingRoyalMated, MenRule, RoyalKing,
    RoyalKingMated, RoyalLosing, RoyalLosingRules,
};

use crate::board::Color;
use crate::moves::{Move, MoveList};
use crate::position::{Outcome, Position, PositionError, Setup, State};

/// Makes [`AnyPosition`] from the rows of the variant table
/// ([`crate::variant`]).
macro_rules! define_any_position {
    ($($variant:ident, $name:literal, [$($alias:literal),*], $losing:literal, $description:literal, $doc:literal;)*) => {
        /// A position of a variant chosen at run time (CLI, HTTP). Everything
        /// inside the library is generic over [`Position`]; this enum is for
        /// the edges.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyPosition {
            $(#[doc = $doc] $variant($variant),)*
        }

        impl AnyPosition {
            /// The starting position of `variant`.
            pub fn start(variant: Variant) -> AnyPosition {
                match variant {
                    $(Variant::$variant => AnyPosition::$variant($variant::start()),)*
                }
            }

            /// Validates `setup` under the rules of `variant`.
            pub fn from_setup(variant: Variant, setup: &Setup) -> Result<AnyPosition, PositionError> {
                Ok(match variant {
                    $(Variant::$variant => AnyPosition::$variant($variant::from_setup(setup)?),)*
                })
            }

            /// Which variant this is.
            pub fn variant(&self) -> Variant {
                match self {
                    $(AnyPosition::$variant(_) => Variant::$variant,)*
                }
            }
        }
    };
}

crate::variant::variant_table!(define_any_position);

/// Calls the generic function `f::<P>(args)` with `P` the position type of
/// a [`Variant`] chosen at run time: `for_variant!(variant, solve(args))`.
#[macro_export]
macro_rules! for_variant {
    ($variant:expr, $f:ident ( $($arg:expr),* )) => {
        match $variant {
            $crate::Variant::Chess => $f::<$crate::variants::Chess>($($arg),*),
            $crate::Variant::Antichess => $f::<$crate::variants::Antichess>($($arg),*),
            $crate::Variant::Suicide => $f::<$crate::variants::Suicide>($($arg),*),
            $crate::Variant::Crazyhouse => $f::<$crate::variants::Crazyhouse>($($arg),*),
            $crate::Variant::Hostage => $f::<$crate::variants::Hostage>($($arg),*),
            $crate::Variant::Contact => $f::<$crate::variants::Contact>($($arg),*),
            $crate::Variant::HitAndRun => $f::<$crate::variants::HitAndRun>($($arg),*),
            $crate::Variant::LosingQpromo => $f::<$crate::variants::LosingQpromo>($($arg),*),
            $crate::Variant::LosingRoyal => $f::<$crate::variants::LosingRoyal>($($arg),*),
            $crate::Variant::LosingRoyalMated => $f::<$crate::variants::LosingRoyalMated>($($arg),*),
            $crate::Variant::Losers => $f::<$crate::variants::Losers>($($arg),*),
            $crate::Variant::Kamikaze => $f::<$crate::variants::Kamikaze>($($arg),*),
            $crate::Variant::Kamikaze2 => $f::<$crate::variants::Kamikaze2>($($arg),*),
            $crate::Variant::HitAndRunSimultaneous => {
                $f::<$crate::variants::HitAndRunSimultaneous>($($arg),*)
            }
        }
    };
}

/// Calls `$body` with `$pos` bound to the inner position, whatever the variant.
#[macro_export]
macro_rules! dispatch {
    ($any:expr, $pos:ident => $body:expr) => {
        match $any {
            $crate::variants::AnyPosition::Chess($pos) => $body,
            $crate::variants::AnyPosition::Antichess($pos) => $body,
            $crate::variants::AnyPosition::Suicide($pos) => $body,
            $crate::variants::AnyPosition::Crazyhouse($pos) => $body,
            $crate::variants::AnyPosition::Hostage($pos) => $body,
            $crate::variants::AnyPosition::Contact($pos) => $body,
            $crate::variants::AnyPosition::HitAndRun($pos) => $body,
            $crate::variants::AnyPosition::LosingQpromo($pos) => $body,
            $crate::variants::AnyPosition::LosingRoyal($pos) => $body,
            $crate::variants::AnyPosition::LosingRoyalMated($pos) => $body,
            $crate::variants::AnyPosition::Losers($pos) => $body,
            $crate::variants::AnyPosition::Kamikaze($pos) => $body,
            $crate::variants::AnyPosition::Kamikaze2($pos) => $body,
            $crate::variants::AnyPosition::HitAndRunSimultaneous($pos) => $body,
        }
    };
}

impl AnyPosition {
    /// The shared state.
    pub fn state(&self) -> &State {
        dispatch!(self, p => p.state())
    }

    /// The raw data (for FEN output).
    pub fn to_setup(&self) -> Setup {
        dispatch!(self, p => p.to_setup())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.state().turn
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        dispatch!(self, p => p.legal_moves())
    }

    /// Plays a legal move.
    pub fn play_unchecked(&mut self, m: Move) {
        dispatch!(self, p => p.play_unchecked(m))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        dispatch!(self, p => p.is_check())
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, p => p.outcome())
    }

    /// The zobrist hash.
    pub fn zobrist(&self) -> u64 {
        self.state().hash
    }
}
