//! What goes wrong with the Syzygy giveaway tables (`--syzygy`): one typed
//! error, whether or not the binary was built with the `syzygy` feature.

/// Why the Syzygy tables cannot be used or probed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyzygyError {
    /// The binary was built without the `syzygy` feature.
    #[error(
        "--syzygy needs a binary built with the syzygy feature (`cargo build --release --features syzygy`; such a binary is GPL-3.0, see the README's Licence)"
    )]
    NotBuiltIn,
    /// The giveaway tables follow antichess rules; this variant is another.
    #[error("--syzygy: Syzygy giveaway tables follow antichess rules; {variant} has none")]
    OtherRules {
        /// The variant asked for.
        variant: &'static str,
    },
    /// The folder could not be read.
    #[error("{dir}: cannot read Syzygy tables: {problem}")]
    Unreadable {
        /// The folder.
        dir: String,
        /// The cause.
        problem: String,
    },
    /// The folder holds no giveaway table.
    #[error("{dir}: no Syzygy giveaway tables (*.gtbw, *.gtbz)")]
    NoTables {
        /// The folder.
        dir: String,
    },
    /// The position cannot be given to the Syzygy prober.
    #[error("{fen}: not an antichess position for shakmaty: {problem}")]
    Position {
        /// The position.
        fen: String,
        /// The cause.
        problem: String,
    },
    /// A probe failed (a missing or damaged table file).
    #[error("Syzygy probe of {fen}: {problem}")]
    Probe {
        /// The position.
        fen: String,
        /// The cause.
        problem: String,
    },
}
