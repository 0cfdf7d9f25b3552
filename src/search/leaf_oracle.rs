//! The oracle a search uses at its leaves: this project's tables first,
//! Syzygy giveaway tables (`--syzygy DIR`, antichess only, with the
//! `syzygy` feature) where this project's tables do not reach.

use super::oracle::{Oracle, OracleKind, tablebase_oracle};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::tablebase::{SyzygyError, Wdl};
use std::path::Path;

/// Two oracles asked in turn: a position is answered by the first that
/// covers it, and so are its winning steps (a material is covered by one
/// of them as a whole, so a line never switches between them back and
/// forth).
pub struct Chain<P: Position> {
    first: Box<dyn Oracle<P>>,
    second: Box<dyn Oracle<P>>,
}

impl<P: Position> Chain<P> {
    /// `first`, then `second` where `first` covers nothing; either alone
    /// when the other is missing.
    pub fn of(
        first: Option<Box<dyn Oracle<P>>>,
        second: Option<Box<dyn Oracle<P>>>,
    ) -> Option<Box<dyn Oracle<P>>> {
        match (first, second) {
            (Some(first), Some(second)) => Some(Box::new(Chain { first, second })),
            (first, second) => first.or(second),
        }
    }

    /// The oracle that answers for `pos`: the first if it covers it.
    fn answering(&self, pos: &P) -> &dyn Oracle<P> {
        if self.first.probe_wdl(pos).is_some() {
            self.first.as_ref()
        } else {
            self.second.as_ref()
        }
    }
}

impl<P: Position> Oracle<P> for Chain<P> {
    fn probe(&self, pos: &P) -> Option<(Wdl, u16)> {
        self.first.probe(pos).or_else(|| self.second.probe(pos))
    }

    fn probe_wdl(&self, pos: &P) -> Option<Wdl> {
        self.first
            .probe_wdl(pos)
            .or_else(|| self.second.probe_wdl(pos))
    }

    fn winning_step(&self, pos: &P, moves: &MoveList) -> Option<Move> {
        self.answering(pos).winning_step(pos, moves)
    }

    fn kind(&self, pos: &P) -> OracleKind {
        self.answering(pos).kind(pos)
    }

    fn cache_counts(&self) -> crate::store::CacheCounts {
        self.first.cache_counts() + self.second.cache_counts()
    }
}

/// The leaf oracle of variant `P`: this project's tables in `tablebases`
/// (if the folder holds tables of `P`), then the Syzygy tables in
/// `syzygy`. `None` when neither gives anything; an error when `syzygy` is
/// given but cannot be used (see [`syzygy_oracle`]).
pub fn leaf_oracle<P: Position>(
    tablebases: Option<&Path>,
    syzygy: Option<&Path>,
) -> Result<Option<Box<dyn Oracle<P>>>, SyzygyError> {
    let own = tablebases.and_then(tablebase_oracle::<P>);
    let syzygy = syzygy.map(syzygy_oracle::<P>).transpose()?;
    Ok(Chain::of(own, syzygy))
}

/// The Syzygy giveaway tables of `dir` as an oracle of variant `P`: an
/// error names the reason when `P` is not antichess (the giveaway tables
/// follow its rules: a stalemated side wins), when `dir` holds no tables,
/// or when the binary was built without the `syzygy` feature.
#[cfg(feature = "syzygy")]
pub fn syzygy_oracle<P: Position>(dir: &Path) -> Result<Box<dyn Oracle<P>>, SyzygyError> {
    use crate::tablebase::syzygy::SyzygyTables;
    use crate::variants::{International, Losing, Variant};
    use std::any::Any;
    if P::VARIANT != Variant::Antichess {
        return Err(SyzygyError::OtherRules {
            variant: P::VARIANT.name(),
        });
    }
    let oracle: Box<dyn Oracle<Losing<International>>> = Box::new(SyzygyTables::open(dir)?);
    let boxed: Box<dyn Any> = Box::new(oracle);
    // The variant is antichess, so the downcast holds; should it not, the
    // tables follow other rules than `P`'s.
    boxed
        .downcast::<Box<dyn Oracle<P>>>()
        .map(|b| *b)
        .map_err(|_| SyzygyError::OtherRules {
            variant: P::VARIANT.name(),
        })
}

/// Without the `syzygy` feature: refused, saying how to build it in.
#[cfg(not(feature = "syzygy"))]
pub fn syzygy_oracle<P: Position>(_dir: &Path) -> Result<Box<dyn Oracle<P>>, SyzygyError> {
    Err(SyzygyError::NotBuiltIn)
}
