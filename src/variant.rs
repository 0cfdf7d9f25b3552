//! The names of the variants ([`Variant`]): what users type, how they are
//! listed and described. Below `position/` and `variants/`, which use it
//! (a position type names its variant with [`crate::Position::VARIANT`]).

use std::fmt;
use std::str::FromStr;

/// The one table of the variants, in the order the docs list them: each
/// row names the [`Variant`] (also the name of its position type in
/// [`crate::variants`]), the canonical name, the other names users may
/// type (compared without case, spaces, `-` and `_`), whether it is Losing
/// chess or one of its rule sets (RULES A, A7, A8: the side that gets rid of its men wins),
/// the one-line description and the doc comment. `variant_table!(m)`
/// calls the macro `m` with the rows: this file makes [`Variant`] from
/// them, `variants/` makes `AnyPosition`. Adding a variant is a row here,
/// its own file in `variants/`, and its arm in the exported `dispatch!` and
/// `for_variant!` macros (the compiler names any arm left out).
macro_rules! variant_table {
    ($then:ident) => {
        $then! {
            Chess, "chess", ["standard", "fromposition"], false,
                "standard chess (FIDE laws)",
                "Standard chess (RULES S).";
            Antichess, "antichess", ["losingchess", "losing", "giveaway"], true,
                "Losing chess, international rules: captures compulsory, stalemated or men-less side wins",
                "Losing chess, international rules (RULES A).";
            Suicide, "suicide", [], true,
                "Losing chess, FICS rules: as antichess, but a stalemate is won by the side with fewer men",
                "Losing chess, FICS rules (RULES A7).";
            Crazyhouse, "crazyhouse", ["zh"], false,
                "crazyhouse (lichess rules): captured men are dropped back by the capturer",
                "Crazyhouse (RULES Z).";
            Hostage, "hostage", ["hostagechess"], false,
                "Hostage chess (Leslie): captured men are held in prison and exchanged for the capturer's own",
                "Hostage chess (RULES H).";
            Contact, "contact", ["contactchess"], false,
                "Contact chess (Gallez): backed men cannot be captured, men jump over their own neighbours",
                "Contact chess (RULES C).";
            HitAndRun, "hitandrun", ["hitandrunchess", "hitrun"], false,
                "Hit-and-Run chess (Howell): after the first turns each turn is two sub-moves",
                "Hit-and-Run chess (RULES R).";
            LosingQpromo, "losing-qpromo", [], true,
                "Losing chess, variant 2: pawns promote to a queen only, stalemate is a draw",
                "Losing chess, promotion to a queen only, stalemate drawn (RULES A8).";
            LosingRoyal, "losing-royal", [], true,
                "Losing chess, variant 3: royal king, check before capture; a lone king or checkmating wins",
                "Losing chess with a royal king, checkmating wins (RULES A8).";
            LosingRoyalMated, "losing-royal-mated", [], true,
                "Losing chess, variant 4: royal king, check before capture; a lone king or being checkmated wins",
                "Losing chess with a royal king, being checkmated wins (RULES A8).";
            Losers, "losers", [], true,
                "losers (ICC): royal king and castling; a lone king, being checkmated or stalemated wins",
                "ICC losers (RULES A8).";
            Kamikaze, "kamikaze", [], true,
                "kamikaze: royal king lost last, queen promotion; losing all men or checkmating wins",
                "Kamikaze: the king is lost last (RULES A8).";
            Kamikaze2, "kamikaze2", [], true,
                "kamikaze2 (variant 6): Black first, castling, king promotion, a lone blocked pawn passes",
                "Kamikaze, Black first, with castling and the blocked-pawn pass (RULES A8).";
            HitAndRunSimultaneous, "hitandrun-simultaneous", [], false,
                "Hit-and-Run chess, simultaneous: a turn's two sub-moves are judged together for check",
                "Hit-and-Run chess, \"simultaneous\" variation (RULES R9).";
        }
    };
}
pub(crate) use variant_table;

/// Makes [`Variant`] from the rows of [`variant_table!`].
macro_rules! define_variant {
    ($($variant:ident, $name:literal, [$($alias:literal),*], $losing:literal, $description:literal, $doc:literal;)*) => {
        /// A variant name, as users type it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(#[doc = $doc] $variant,)*
        }

        impl Variant {
            /// Every variant, in the order the docs list them.
            pub const ALL: [Variant; [$(Variant::$variant),*].len()] = [$(Variant::$variant),*];

            /// Whether this is Losing chess or one of its rule sets (RULES
            /// A, A7, A8): the side that gets rid of its men wins.
            pub fn is_losing(self) -> bool {
                match self {
                    $(Variant::$variant => $losing,)*
                }
            }

            /// The canonical name (`chess`, `antichess`, `losing-qpromo`, …).
            pub fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $name,)*
                }
            }

            /// A one-line description.
            pub fn description(self) -> &'static str {
                match self {
                    $(Variant::$variant => $description,)*
                }
            }

            /// The variant a name stands for (its canonical name or one of
            /// the others users type, compared as [`key`] makes them).
            fn named(key: &str) -> Option<Variant> {
                $(
                    if key == self::key($name) $(|| key == $alias)* {
                        return Some(Variant::$variant);
                    }
                )*
                None
            }
        }
    };
}

variant_table!(define_variant);

/// A name as it is compared: lower case, without spaces, `-` and `_`.
fn key(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{}' (known: {})", .0, known_names())]
pub struct UnknownVariant(pub String);

/// Every canonical name, comma-separated.
fn known_names() -> String {
    Variant::ALL.map(Variant::name).join(", ")
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        Variant::named(&key(text)).ok_or_else(|| UnknownVariant(text.to_string()))
    }
}
