//! The names of the variants ([`Variant`]): what users type, how they are
//! listed and described. Below `position/` and `variants/`, which use it
//! (a position type names its variant with [`crate::Position::VARIANT`]).

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
