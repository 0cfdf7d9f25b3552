//! The variants, their names, and [`AnyPosition`] for choosing one at run time.

mod chess;
mod contact;
mod crazyhouse;
mod hitandrun;
pub mod hostage;
mod losing;
mod losing_royal;

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
use std::fmt;
use std::str::FromStr;

/// A variant name, as users type it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess (RULES S).
    Chess,
    /// Losing chess, international rules (RULES A).
    Antichess,
    /// Losing chess, FICS rules (RULES A7).
    Suicide,
    /// Crazyhouse (RULES Z).
    Crazyhouse,
    /// Hostage chess (RULES H).
    Hostage,
    /// Contact chess (RULES C).
    Contact,
    /// Hit-and-Run chess (RULES R).
    HitAndRun,
    /// Losing chess, promotion to a queen only, stalemate drawn (RULES A8).
    LosingQpromo,
    /// Losing chess with a royal king, checkmating wins (RULES A8).
    LosingRoyal,
    /// Losing chess with a royal king, being checkmated wins (RULES A8).
    LosingRoyalMated,
    /// ICC losers (RULES A8).
    Losers,
    /// Kamikaze: the king is lost last (RULES A8).
    Kamikaze,
    /// Kamikaze, Black first, with castling and the blocked-pawn pass (RULES A8).
    Kamikaze2,
    /// Hit-and-Run chess, "simultaneous" variation (RULES R9).
    HitAndRunSimultaneous,
}

impl Variant {
    /// Every variant, in the order the docs list them.
    pub const ALL: [Variant; 14] = [
        Variant::Chess,
        Variant::Antichess,
        Variant::Suicide,
        Variant::Crazyhouse,
        Variant::Hostage,
        Variant::Contact,
        Variant::HitAndRun,
        Variant::LosingQpromo,
        Variant::LosingRoyal,
        Variant::LosingRoyalMated,
        Variant::Losers,
        Variant::Kamikaze,
        Variant::Kamikaze2,
        Variant::HitAndRunSimultaneous,
    ];

    /// Whether this is Losing chess or one of its rule sets (RULES A, A7,
    /// A8): the side that gets rid of its men wins.
    pub fn is_losing(self) -> bool {
        matches!(
            self,
            Variant::Antichess
                | Variant::Suicide
                | Variant::LosingQpromo
                | Variant::LosingRoyal
                | Variant::LosingRoyalMated
                | Variant::Losers
                | Variant::Kamikaze
                | Variant::Kamikaze2
        )
    }

    /// The canonical name (`chess`, `antichess`, `suicide`, `crazyhouse`,
    /// `hostage`, `contact`, `hitandrun`, `losing-qpromo`, `losing-royal`,
    /// `losing-royal-mated`, `losers`, `kamikaze`, `kamikaze2`,
    /// `hitandrun-simultaneous`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Antichess => "antichess",
            Variant::Suicide => "suicide",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Hostage => "hostage",
            Variant::Contact => "contact",
            Variant::HitAndRun => "hitandrun",
            Variant::LosingQpromo => "losing-qpromo",
            Variant::LosingRoyal => "losing-royal",
            Variant::LosingRoyalMated => "losing-royal-mated",
            Variant::Losers => "losers",
            Variant::Kamikaze => "kamikaze",
            Variant::Kamikaze2 => "kamikaze2",
            Variant::HitAndRunSimultaneous => "hitandrun-simultaneous",
        }
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Variant::Chess => "standard chess (FIDE laws)",
            Variant::Antichess => {
                "Losing chess, international rules: captures compulsory, stalemated or men-less side wins"
            }
            Variant::Suicide => {
                "Losing chess, FICS rules: as antichess, but a stalemate is won by the side with fewer men"
            }
            Variant::Crazyhouse => {
                "crazyhouse (lichess rules): captured men are dropped back by the capturer"
            }
            Variant::Hostage => {
                "Hostage chess (Leslie): captured men are held in prison and exchanged for the capturer's own"
            }
            Variant::Contact => {
                "Contact chess (Gallez): backed men cannot be captured, men jump over their own neighbours"
            }
            Variant::HitAndRun => {
                "Hit-and-Run chess (Howell): after the first turns each turn is two sub-moves"
            }
            Variant::LosingQpromo => {
                "Losing chess, variant 2: pawns promote to a queen only, stalemate is a draw"
            }
            Variant::LosingRoyal => {
                "Losing chess, variant 3: royal king, check before capture; a lone king or checkmating wins"
            }
            Variant::LosingRoyalMated => {
                "Losing chess, variant 4: royal king, check before capture; a lone king or being checkmated wins"
            }
            Variant::Losers => {
                "losers (ICC): royal king and castling; a lone king, being checkmated or stalemated wins"
            }
            Variant::Kamikaze => {
                "kamikaze: royal king lost last, queen promotion; losing all men or checkmating wins"
            }
            Variant::Kamikaze2 => {
                "kamikaze2 (variant 6): Black first, castling, king promotion, a lone blocked pawn passes"
            }
            Variant::HitAndRunSimultaneous => {
                "Hit-and-Run chess, simultaneous: a turn's two sub-moves are judged together for check"
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant '{0}' (known: chess, antichess, suicide, crazyhouse, hostage, contact, hitandrun, losing-qpromo, losing-royal, losing-royal-mated, losers, kamikaze, kamikaze2, hitandrun-simultaneous)"
)]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        let key: String = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match key.as_str() {
            "chess" | "standard" | "fromposition" => Variant::Chess,
            "antichess" | "losingchess" | "losing" | "giveaway" => Variant::Antichess,
            "suicide" => Variant::Suicide,
            "crazyhouse" | "zh" => Variant::Crazyhouse,
            "hostage" | "hostagechess" => Variant::Hostage,
            "contact" | "contactchess" => Variant::Contact,
            "hitandrun" | "hitandrunchess" | "hitrun" => Variant::HitAndRun,
            "losingqpromo" => Variant::LosingQpromo,
            "losingroyal" => Variant::LosingRoyal,
            "losingroyalmated" => Variant::LosingRoyalMated,
            "losers" => Variant::Losers,
            "kamikaze" => Variant::Kamikaze,
            "kamikaze2" => Variant::Kamikaze2,
            "hitandrunsimultaneous" => Variant::HitAndRunSimultaneous,
            _ => return Err(UnknownVariant(text.to_string())),
        })
    }
}

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
