//! Every search, and what checks them: df-pn (`dfpn`) with its initial
//! numbers (`numbers`) and the one-shot `prove` driver ([`prove`]); `prove`
//! at scale over the store ([`scale`]: the two-level search, checkpoints,
//! batch plans, the frontier, the open searches read for the explorer);
//! the guides that steer it ([`guide`]); the leaf oracles over the tables
//! ([`oracle`], [`leaf_oracle`]); proofs ([`proof`]), read out of the store
//! ([`assemble`]), checked by the independent verifier ([`verify`]) and
//! written as PGN ([`pgn`]); every record of a store re-proved
//! ([`verify_store`]); the mate solver ([`mate`], with suites run case by
//! case); the alpha-beta engine ([`engine`]), which proves nothing.

pub mod assemble;
mod budget;
pub(crate) mod dfpn;
pub mod engine;
pub mod guide;
pub mod leaf_oracle;
pub mod mate;
pub(crate) mod numbers;
pub mod oracle;
pub mod pgn;
mod pn;
pub mod proof;
mod prover;
pub mod scale;
mod store_check;
#[cfg(feature = "syzygy")]
mod syzygy_oracle;
pub mod verify;

pub use budget::{Budget, MAX_HASH_MB, Progress, StopSignal};
pub use dfpn::{DfPn, ProofRecords, SearchResult, Settled};
pub use pn::Pn;
pub use proof::{Proof, ProofMeta};
pub use prover::{ProveReport, Verdict, prove, prove_with_oracle};
pub use store_check::{StoreCheck, StoreCheckError, verify_store};
pub use verify::{VerifiedProof, VerifyError};
