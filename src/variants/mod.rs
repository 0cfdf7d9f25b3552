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

/// A position of a variant chosen at run time (CLI, HTTP). Everything inside
/// the library is generic over [`Position`]; this enum is for the edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// Standard chess.
    Chess(Chess),
    /// Losing chess, international rules.
    Antichess(Antichess),
    /// Losing chess, FICS rules.
    Suicide(Suicide),
    /// Crazyhouse.
    Crazyhouse(Crazyhouse),
    /// Hostage chess.
    Hostage(Hostage),
    /// Contact chess.
    Contact(Contact),
    /// Hit-and-Run chess.
    HitAndRun(HitAndRun),
    /// Losing chess, promotion to a queen only.
    LosingQpromo(LosingQpromo),
    /// Losing chess with a royal king.
    LosingRoyal(LosingRoyal),
    /// Losing chess with a royal king, being checkmated wins.
    LosingRoyalMated(LosingRoyalMated),
    /// ICC losers.
    Losers(Losers),
    /// Kamikaze.
    Kamikaze(Kamikaze),
    /// Kamikaze, Black first.
    Kamikaze2(Kamikaze2),
    /// Hit-and-Run chess, simultaneous variation.
    HitAndRunSimultaneous(HitAndRunSimultaneous),
}

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
    /// The starting position of `variant`.
    pub fn start(variant: Variant) -> AnyPosition {
        match variant {
            Variant::Chess => AnyPosition::Chess(Chess::start()),
            Variant::Antichess => AnyPosition::Antichess(Antichess::start()),
            Variant::Suicide => AnyPosition::Suicide(Suicide::start()),
            Variant::Crazyhouse => AnyPosition::Crazyhouse(Crazyhouse::start()),
            Variant::Hostage => AnyPosition::Hostage(Hostage::start()),
            Variant::Contact => AnyPosition::Contact(Contact::start()),
            Variant::HitAndRun => AnyPosition::HitAndRun(HitAndRun::start()),
            Variant::LosingQpromo => AnyPosition::LosingQpromo(LosingQpromo::start()),
            Variant::LosingRoyal => AnyPosition::LosingRoyal(LosingRoyal::start()),
            Variant::LosingRoyalMated => AnyPosition::LosingRoyalMated(LosingRoyalMated::start()),
            Variant::Losers => AnyPosition::Losers(Losers::start()),
            Variant::Kamikaze => AnyPosition::Kamikaze(Kamikaze::start()),
            Variant::Kamikaze2 => AnyPosition::Kamikaze2(Kamikaze2::start()),
            Variant::HitAndRunSimultaneous => {
                AnyPosition::HitAndRunSimultaneous(HitAndRunSimultaneous::start())
            }
        }
    }

    /// Validates `setup` under the rules of `variant`.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<AnyPosition, PositionError> {
        Ok(match variant {
            Variant::Chess => AnyPosition::Chess(Chess::from_setup(setup)?),
            Variant::Antichess => AnyPosition::Antichess(Antichess::from_setup(setup)?),
            Variant::Suicide => AnyPosition::Suicide(Suicide::from_setup(setup)?),
            Variant::Crazyhouse => AnyPosition::Crazyhouse(Crazyhouse::from_setup(setup)?),
            Variant::Hostage => AnyPosition::Hostage(Hostage::from_setup(setup)?),
            Variant::Contact => AnyPosition::Contact(Contact::from_setup(setup)?),
            Variant::HitAndRun => AnyPosition::HitAndRun(HitAndRun::from_setup(setup)?),
            Variant::LosingQpromo => AnyPosition::LosingQpromo(LosingQpromo::from_setup(setup)?),
            Variant::LosingRoyal => AnyPosition::LosingRoyal(LosingRoyal::from_setup(setup)?),
            Variant::LosingRoyalMated => {
                AnyPosition::LosingRoyalMated(LosingRoyalMated::from_setup(setup)?)
            }
            Variant::Losers => AnyPosition::Losers(Losers::from_setup(setup)?),
            Variant::Kamikaze => AnyPosition::Kamikaze(Kamikaze::from_setup(setup)?),
            Variant::Kamikaze2 => AnyPosition::Kamikaze2(Kamikaze2::from_setup(setup)?),
            Variant::HitAndRunSimultaneous => {
                AnyPosition::HitAndRunSimultaneous(HitAndRunSimultaneous::from_setup(setup)?)
            }
        })
    }

    /// Which variant this is.
    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Chess(_) => Variant::Chess,
            AnyPosition::Antichess(_) => Variant::Antichess,
            AnyPosition::Suicide(_) => Variant::Suicide,
            AnyPosition::Crazyhouse(_) => Variant::Crazyhouse,
            AnyPosition::Hostage(_) => Variant::Hostage,
            AnyPosition::Contact(_) => Variant::Contact,
            AnyPosition::HitAndRun(_) => Variant::HitAndRun,
            AnyPosition::LosingQpromo(_) => Variant::LosingQpromo,
            AnyPosition::LosingRoyal(_) => Variant::LosingRoyal,
            AnyPosition::LosingRoyalMated(_) => Variant::LosingRoyalMated,
            AnyPosition::Losers(_) => Variant::Losers,
            AnyPosition::Kamikaze(_) => Variant::Kamikaze,
            AnyPosition::Kamikaze2(_) => Variant::Kamikaze2,
            AnyPosition::HitAndRunSimultaneous(_) => Variant::HitAndRunSimultaneous,
        }
    }

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
